//! [`ToolRegistry`]: the tools of several agents, by card URL, kept fresh by the cards' ETags.

use std::sync::{Arc, RwLock};
use std::time::Instant;

use a2a_types::v1::AgentCard;
use bytes::Bytes;
use http::{Method, StatusCode, header};
use serde_json::Value;

use super::call::{AgentTools, CallOptions, ToolError};
use super::descriptor::{ToolDescriptor, descriptors_taking};
use super::result::ToolResult;
use crate::{ClientBuilder, Error};

/// Makes the client builder of each agent (its auth, timeouts, transports).
type MakeBuilder = Arc<dyn Fn(&str) -> ClientBuilder + Send + Sync>;

/// One agent of a registry.
#[derive(Clone)]
struct Agent {
    /// The URL the caller gave.
    url: String,
    /// Where its card was found.
    card_url: String,
    /// The card's `ETag`, when the server sent one.
    etag: Option<String>,
    /// The card's bytes, to tell a changed card from the same one served without an ETag.
    body: Bytes,
    tools: AgentTools,
    checked: Instant,
}

/// What [`ToolRegistry::refresh`] found for one agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refreshed {
    /// `304 Not Modified` to the card's ETag (or the same bytes): the tools stay.
    Unchanged,
    /// A new card: the agent's tools were made again from it.
    Changed,
}

/// The tools of several agents, by card URL, with names unique across them (a later agent's
/// clash gets `_2`, `_3`, ...), refreshed by conditional requests: `If-None-Match` with the
/// card's `ETag`, so an unchanged card costs a `304`.
///
/// ```
/// # use a2a_client::tools::{Refreshed, ToolRegistry};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let url = echo_agent().await?;
/// let registry = ToolRegistry::new();
/// registry.add(&url).await?;
/// registry.add(&url).await?; // the same agent again: its tool becomes echo_2
/// let names: Vec<String> = registry.descriptors().into_iter().map(|t| t.name).collect();
/// assert_eq!(names, ["echo", "echo_2"]);
/// let checks: Vec<Refreshed> = registry.refresh().await.into_iter().map(Result::unwrap).collect();
/// assert_eq!(checks, [Refreshed::Unchanged, Refreshed::Unchanged]);
/// let result = registry.call("echo_2", &serde_json::json!({"message": "hi"})).await?;
/// assert_eq!(result.text(), "hi");
/// # Ok(())
/// # }
/// # async fn echo_agent() -> std::io::Result<String> {
/// #     use a2a_server::{A2aService, agent::agent_fn};
/// #     use a2a_types::v1::{AgentCard, AgentSkill, Artifact, Part};
/// #     let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// #     let url = format!("http://{}", listener.local_addr()?);
/// #     let agent = agent_fn(|ctx, sink| async move {
/// #         sink.artifact(Artifact::new("echo", vec![Part::text(ctx.text())])).await?;
/// #         sink.complete(None).await?;
/// #         Ok(())
/// #     });
/// #     let card = AgentCard::new("Echo", "Echoes", "1.0.0")
/// #         .with_skills([AgentSkill::new("echo", "Echo", "Repeats", ["echo"])]);
/// #     let service = A2aService::builder(agent, card).public_url(&url).build();
/// #     tokio::spawn(a2a_server::serve(listener, service));
/// #     Ok(url)
/// # }
/// ```
#[derive(Clone)]
pub struct ToolRegistry {
    make: MakeBuilder,
    options: CallOptions,
    agents: Arc<RwLock<Vec<Agent>>>,
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let agents: Vec<String> = self.read().iter().map(|a| a.url.clone()).collect();
        f.debug_struct("ToolRegistry")
            .field("agents", &agents)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Default for ToolRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl ToolRegistry {
    /// A registry whose agents get clients of the default settings.
    pub fn new() -> Self {
        Self::with_builder(|_| ClientBuilder::new())
    }

    /// A registry whose agents get clients from `make(url)` (for auth, timeouts, legacy
    /// versions, transports).
    pub fn with_builder(make: impl Fn(&str) -> ClientBuilder + Send + Sync + 'static) -> Self {
        ToolRegistry {
            make: Arc::new(make),
            options: CallOptions::default(),
            agents: Arc::default(),
        }
    }

    /// Sets the limits of every call.
    #[must_use]
    pub fn with_options(mut self, options: CallOptions) -> Self {
        self.options = options;
        self
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<Agent>> {
        self.agents.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Vec<Agent>> {
        self.agents.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Fetches the card of the agent at `url` (as [`ClientBuilder::connect`] does) and adds
    /// its tools; returns their descriptors.
    ///
    /// # Errors
    ///
    /// Those of fetching the card and choosing its interface.
    pub async fn add(&self, url: &str) -> Result<Vec<ToolDescriptor>, Error> {
        let builder = (self.make)(url);
        let fetched = fetch(&builder, url, None).await?;
        let Fetched::Card {
            card,
            card_url,
            etag,
            body,
        } = fetched
        else {
            return Err(Error::Protocol(format!(
                "the card at {url} answered 304 to a request without a validator"
            )));
        };
        let client = builder.from_card_at(*card, &card_url)?;
        let mut agents = self.write();
        let mut taken = names(&agents, None);
        let tools = descriptors_taking(client.card(), &mut taken);
        agents.push(Agent {
            url: url.to_owned(),
            card_url,
            etag,
            body,
            tools: AgentTools::with_descriptors(client, tools.clone())
                .with_options(self.options.clone()),
            checked: Instant::now(),
        });
        Ok(tools)
    }

    /// Adds the tools of a card the caller has (a file): its interface URLs must be absolute;
    /// it is never refreshed. Returns the tools' descriptors.
    ///
    /// # Errors
    ///
    /// Those of choosing the card's interface.
    pub fn add_card(&self, card: AgentCard) -> Result<Vec<ToolDescriptor>, Error> {
        let client = (self.make)("").from_card(card)?;
        let mut agents = self.write();
        let mut taken = names(&agents, None);
        let tools = descriptors_taking(client.card(), &mut taken);
        agents.push(Agent {
            url: client.endpoint().to_string(),
            card_url: String::new(),
            etag: None,
            body: Bytes::new(),
            tools: AgentTools::with_descriptors(client, tools.clone())
                .with_options(self.options.clone()),
            checked: Instant::now(),
        });
        Ok(tools)
    }

    /// The agents' URLs, as added.
    pub fn agents(&self) -> Vec<String> {
        self.read().iter().map(|a| a.url.clone()).collect()
    }

    /// The cards of the agents, as last fetched.
    pub fn cards(&self) -> Vec<AgentCard> {
        self.read()
            .iter()
            .map(|a| a.tools.client().card().clone())
            .collect()
    }

    /// Every agent's tool descriptors, agent by agent.
    pub fn descriptors(&self) -> Vec<ToolDescriptor> {
        self.read()
            .iter()
            .flat_map(|a| a.tools.descriptors().to_vec())
            .collect()
    }

    /// The time since the oldest check of a card (when it was added or last refreshed); cards
    /// given by [`add_card`](Self::add_card) count as checked when added.
    pub fn oldest_check(&self) -> Option<std::time::Duration> {
        self.read().iter().map(|a| a.checked.elapsed()).max()
    }

    /// Asks each agent whether its card changed, with `If-None-Match: <its ETag>`; a new card
    /// (a `200` whose bytes differ) makes that agent's tools again, keeping the names of the
    /// other agents' tools. One result per agent, in order; a failed check keeps the old
    /// tools.
    pub async fn refresh(&self) -> Vec<Result<Refreshed, Error>> {
        let agents: Vec<Agent> = self.read().clone();
        let mut outcomes = Vec::with_capacity(agents.len());
        for (index, agent) in agents.into_iter().enumerate() {
            outcomes.push(self.refresh_one(index, agent).await);
        }
        outcomes
    }

    async fn refresh_one(&self, index: usize, agent: Agent) -> Result<Refreshed, Error> {
        if agent.card_url.is_empty() {
            // A card the caller gave: nowhere to ask.
            return Ok(Refreshed::Unchanged);
        }
        let builder = (self.make)(&agent.url);
        let fetched = fetch(&builder, &agent.card_url, agent.etag.as_deref()).await?;
        let (card, etag, body) = match fetched {
            Fetched::NotModified => {
                self.touch(index, &agent.card_url);
                return Ok(Refreshed::Unchanged);
            }
            Fetched::Card { body, .. } if body == agent.body => {
                self.touch(index, &agent.card_url);
                return Ok(Refreshed::Unchanged);
            }
            Fetched::Card {
                card, etag, body, ..
            } => (card, etag, body),
        };
        let client = builder.from_card_at(*card, &agent.card_url)?;
        let mut agents = self.write();
        // The list may have grown meanwhile; the agent keeps its place.
        if agents
            .get(index)
            .is_none_or(|a| a.card_url != agent.card_url)
        {
            return Ok(Refreshed::Unchanged);
        }
        let mut taken = names(&agents, Some(index));
        let tools = descriptors_taking(client.card(), &mut taken);
        agents[index] = Agent {
            etag,
            body,
            tools: AgentTools::with_descriptors(client, tools).with_options(self.options.clone()),
            checked: Instant::now(),
            ..agent
        };
        Ok(Refreshed::Changed)
    }

    fn touch(&self, index: usize, card_url: &str) {
        if let Some(agent) = self.write().get_mut(index)
            && agent.card_url == card_url
        {
            agent.checked = Instant::now();
        }
    }

    /// Calls the tool `name` (see [`AgentTools::call`]).
    ///
    /// # Errors
    ///
    /// As [`AgentTools::call`].
    pub async fn call(&self, name: &str, arguments: &Value) -> Result<ToolResult, ToolError> {
        self.call_until(name, arguments, std::future::pending())
            .await
    }

    /// Calls the tool `name`, ended early when `cancel` completes (see
    /// [`AgentTools::call_until`]).
    ///
    /// # Errors
    ///
    /// As [`AgentTools::call`].
    pub async fn call_until(
        &self,
        name: &str,
        arguments: &Value,
        cancel: impl std::future::Future<Output = ()>,
    ) -> Result<ToolResult, ToolError> {
        let tools = self
            .read()
            .iter()
            .find(|a| a.tools.descriptor(name).is_some())
            .map(|a| a.tools.clone())
            .ok_or_else(|| ToolError::UnknownTool(name.to_owned()))?;
        tools.call_until(name, arguments, cancel).await
    }
}

/// The tool names of every agent but `except`.
fn names(agents: &[Agent], except: Option<usize>) -> Vec<String> {
    agents
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != except)
        .flat_map(|(_, a)| a.tools.descriptors().iter().map(|t| t.name.clone()))
        .collect()
}

/// The largest card the registry reads (a longer one fails the fetch, naming the limit).
pub const MAX_CARD_BYTES: usize = 4 << 20;

enum Fetched {
    NotModified,
    Card {
        card: Box<AgentCard>,
        card_url: String,
        etag: Option<String>,
        body: Bytes,
    },
}

/// Fetches the card of the agent `url` names (its locations in turn, as
/// [`AgentRef`](crate::card::AgentRef) lists them), conditionally when `etag` is known.
async fn fetch(builder: &ClientBuilder, url: &str, etag: Option<&str>) -> Result<Fetched, Error> {
    let urls = crate::card::AgentRef::urls(url)?;
    let mut missing = Vec::new();
    for card_url in &urls {
        let mut request = http::Request::builder()
            .method(Method::GET)
            .uri(card_url.as_str())
            .header(header::ACCEPT, "application/json");
        if let Some(etag) = etag {
            request = request.header(header::IF_NONE_MATCH, etag);
        }
        let request = request
            .body(Bytes::new())
            .map_err(|e| Error::Config(format!("cannot request the card at {card_url}: {e}")))?;
        let (head, body) = builder
            .send_http_bounded("GetAgentCard", request, MAX_CARD_BYTES)
            .await?;
        match head.status {
            StatusCode::NOT_MODIFIED if etag.is_some() => return Ok(Fetched::NotModified),
            StatusCode::NOT_FOUND => missing.push(card_url.clone()),
            status if status.is_success() => {
                let card = a2a_types::card::parse_slice(&body).map_err(|error| Error::Card {
                    url: card_url.clone(),
                    error,
                })?;
                let etag = head
                    .headers
                    .get(header::ETAG)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                return Ok(Fetched::Card {
                    card: Box::new(card),
                    card_url: card_url.clone(),
                    etag,
                    body,
                });
            }
            status => return Err(Error::http(status, &body)),
        }
    }
    Err(Error::Http {
        status: StatusCode::NOT_FOUND,
        body: format!("no agent card at {}", missing.join(" or ")),
    })
}
