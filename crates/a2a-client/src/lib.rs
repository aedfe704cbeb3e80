//! Call Agent2Agent (A2A) agents: find them by their card, call every A2A 1.0 operation with
//! typed requests and results, and follow tasks as streams that survive dropped connections.
//!
//! ```
//! use a2a_client::A2aClient;
//! use a2a_types::v1::{Message, SendMessageRequest, SendMessageResponse, StreamResponse, TaskState};
//! use futures_util::StreamExt as _;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let url = echo_agent().await?;
//! // `url` is where an agent runs, e.g. "http://127.0.0.1:7420" after `a2a serve`.
//! let client = A2aClient::connect(&url).await?;
//! assert_eq!(client.card().name, "Echo");
//!
//! // Send a message; the call returns when the task is done.
//! let answer = client
//!     .send_message(SendMessageRequest::new(Message::user_text("hello")))
//!     .await?;
//! let SendMessageResponse::Task(task) = answer else { panic!("expected a task") };
//! assert_eq!(task.status.state, TaskState::Completed);
//! assert_eq!(task.artifacts[0].text(), "hello");
//!
//! // Or follow it as it happens.
//! let mut events = client
//!     .send_streaming_message(SendMessageRequest::new(Message::user_text("streamed")))
//!     .await?;
//! let mut text = String::new();
//! while let Some(event) = events.next().await {
//!     if let StreamResponse::ArtifactUpdate(update) = event? {
//!         text.push_str(&update.artifact.text());
//!     }
//! }
//! assert_eq!(text, "streamed");
//! # Ok(())
//! # }
//! #
//! # /// The echo agent of a2a-server on 127.0.0.1:0; returns its URL.
//! # async fn echo_agent() -> std::io::Result<String> {
//! #     use a2a_server::{A2aService, agent::agent_fn};
//! #     use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part};
//! #     let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! #     let url = format!("http://{}", listener.local_addr()?);
//! #     let agent = agent_fn(|ctx, sink| async move {
//! #         sink.working(None).await?;
//! #         sink.artifact(Artifact::new("echo", vec![Part::text(ctx.text())])).await?;
//! #         sink.complete(None).await?;
//! #         Ok(())
//! #     });
//! #     let card = AgentCard::new("Echo", "Echoes", "1.0.0")
//! #         .with_capabilities(AgentCapabilities::default().with_streaming(true));
//! #     let service = A2aService::builder(agent, card).public_url(&url).build();
//! #     tokio::spawn(a2a_server::serve(listener, service));
//! #     Ok(url)
//! # }
//! ```
//!
//! # What the client does
//!
//! * **Discovery.** [`A2aClient::connect`] fetches the card from
//!   `/.well-known/agent-card.json` (then `/.well-known/agent.json`), reads a card of any
//!   version (1.0, 0.3/0.2, 0.1, or the "union" cards SDKs serve) into the 1.0
//!   [`AgentCard`](a2a_types::v1::AgentCard) ([`a2a_types::card::parse`]; a bad card is an
//!   [`Error::Card`] naming its URL, version and bad field), and picks the first interface,
//!   in the card's order, that it speaks: `JSONRPC` or `HTTP+JSON` of protocol version 1.x
//!   ([`card::select_interface`]), or the first of the caller's
//!   [preferred](ClientBuilder::preferred_transports) bindings. A card that offers only other
//!   bindings or versions is an [`Error::NoSupportedInterface`] that lists them.
//!   [`A2aClient::from_card`] skips the fetch.
//! * **Older versions.** A2A 0.3, 0.2 and 0.1 agents are called with the same 1.0 types,
//!   converted at the edge, but only with the caller's consent (spec §3.6: no silent
//!   downgrade): [`ClientBuilder::allow_legacy`] (the newest version the card offers, and a
//!   `VersionNotSupportedError` from a 1.0 interface retried once in 0.3 and remembered) or
//!   [`ClientBuilder::protocol_version`] (exactly that version, as the A2A CLI specification's
//!   `--a2a-version`). Without it, a 0.3-only card is an [`Error::LegacyOnly`] that says how to
//!   allow it; an operation a version lacks is an [`Error::Unsupported`].
//! * **The 1.1 draft** (task generations; opt-in, [`ClientBuilder::allow_v1_1`]): spoken where
//!   the card offers a 1.1 interface. Tasks and events carry their `generation`;
//!   [`A2aClient::wait_for_task`] long-polls `GetTask` past a generation with a deadline (and
//!   says when it cannot: [`TaskWait::Unsupported`]); `ifGenerationMatch` on a send makes the
//!   agent refuse a stale follow-up ([`Error::generation_mismatch`]); streams check their
//!   events' generations and, on a gap, fetch the task and report it
//!   ([`TaskStream::generation_gaps`]). An agent that answers generation 0 is taken to have
//!   none, as the draft says.
//! * **Transports** ([`transport`]): the operations travel as values
//!   ([`Request`](a2a_types::protocol::Request), [`StreamRequest`](a2a_types::protocol::StreamRequest))
//!   over a [`Transport`], two methods (`call`, `open`) — JSON-RPC 2.0 (spec §9) or HTTP+JSON
//!   (spec §11: one route per operation, the tenant as the path prefix, `application/a2a+json`,
//!   `google.rpc.Status` errors), of 1.0, 0.3 or 0.2; JSON-RPC of 0.1. More come as
//!   [`TransportFactory`]s ([`ClientBuilder::transport`]).
//! * **Every request** carries `A2A-Version: 1.0` (exactly; `1.1` when the draft was
//!   negotiated, `0.3` over 0.3, none over 0.1),
//!   `A2A-Extensions` when [asked for](ClientBuilder::extension) (`X-A2A-Extensions` over 0.3),
//!   and the chosen interface's `tenant`.
//! * **Operations.** One async method per A2A 1.0 operation, taking the request type of
//!   `a2a_types::v1` and returning its result type; or any operation as a value
//!   ([`A2aClient::call`], [`A2aClient::open`]). Streams are [`TaskStream`]s: they resume
//!   after a dropped connection with `SubscribeToTask` and `Last-Event-ID`, and end at a
//!   terminal or interrupted state.
//! * **Resilience.** A connect timeout and a per-call timeout; retries with backoff for
//!   idempotent calls and for `SendMessage`, whose `messageId` stays the same
//!   ([`RetryPolicy`]).
//! * **Interceptors** ([`Interceptor`]) add headers (`Authorization`, API keys) and observe
//!   each request and response; [`ClientBuilder::header`] and [`ClientBuilder::bearer_auth`]
//!   cover the common cases.
//! * **Errors** are one enum, [`Error`]: [`Agent`](Error::Agent) (the agent's error, an
//!   [`A2aError`] of the A2A catalogue whatever binding brought it; match
//!   [`Error::code`] against [`ErrorCode`]), [`Http`](Error::Http),
//!   [`Transport`](Error::Transport), [`Decode`](Error::Decode) (with the JSON path of the bad
//!   field), [`Card`](Error::Card), [`Sse`](Error::Sse), [`Timeout`](Error::Timeout), and a
//!   few more.
//! * **HTTP.** hyper-util's pooled client: HTTP/1.1, and HTTP/2 over TLS (ALPN); HTTPS with
//!   rustls (ring, Mozilla's roots from `webpki-roots`, plus any CA given to
//!   [`ClientBuilder::add_root_certificate`]); a client certificate for agents that require
//!   mutual TLS with [`ClientBuilder::client_identity`].
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `tls` | yes | `https://` URLs, through rustls with the ring provider and the webpki roots; roots of your own ([`ClientBuilder::add_root_certificate`]) and a client certificate for mutual TLS ([`ClientBuilder::client_identity`]), for every transport |
//! | `http2` | yes | HTTP/2, negotiated with ALPN over TLS |
//! | `push` | no | [`push`]: the receiving end of push deliveries: signed-delivery verification, [`push::PushReceiver`] |
//! | `tools` | no | [`tools`]: agents as tools: descriptors from a card (OpenAI-compatible, Anthropic-compatible and MCP shapes), tool calls, a registry of agents |
//! | `signing` | yes | [`signature`]: checking the signatures of agent cards ([`ClientBuilder::verify_card`]) |
//!
//! Items of a feature that is off are not in this build of the documentation; their names in
//! the table lead back to it.
//!
// The links of the table, each to its item when the feature is on and back to the table when
// it is off, so that rustdoc with any set of features has no broken link.
#![cfg_attr(
    feature = "tls",
    doc = "[`ClientBuilder::add_root_certificate`]: ClientBuilder::add_root_certificate\n[`ClientBuilder::client_identity`]: ClientBuilder::client_identity"
)]
#![cfg_attr(
    not(feature = "tls"),
    doc = "[`ClientBuilder::add_root_certificate`]: crate#features\n[`ClientBuilder::client_identity`]: crate#features"
)]
#![cfg_attr(
    feature = "push",
    doc = "[`push`]: push\n[`push::PushReceiver`]: push::PushReceiver"
)]
#![cfg_attr(
    not(feature = "push"),
    doc = "[`push`]: crate#features\n[`push::PushReceiver`]: crate#features"
)]
#![cfg_attr(feature = "tools", doc = "[`tools`]: tools")]
#![cfg_attr(not(feature = "tools"), doc = "[`tools`]: crate#features")]
#![cfg_attr(
    feature = "signing",
    doc = "[`signature`]: signature\n[`ClientBuilder::verify_card`]: ClientBuilder::verify_card"
)]
#![cfg_attr(
    not(feature = "signing"),
    doc = "[`signature`]: crate#features\n[`ClientBuilder::verify_card`]: crate#features"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Layers, each using only those above it: error, interceptor; http (pool, TLS, headers);
// transport (the Transport seam; jsonrpc/ and rest/: one wire each, a codec per version;
// select: which transport serves which interface; negotiate); retry, call (retries,
// timeouts); stream; client (operations); card, builder.
mod builder;
mod call;
pub mod card;
mod client;
pub mod credentials;
mod error;
mod generation;
mod http;
mod interceptor;
#[cfg(feature = "push")]
pub mod push;
mod retry;
#[cfg(feature = "signing")]
pub mod signature;
mod stream;
#[cfg(feature = "tls")]
mod tls;
#[cfg(feature = "tools")]
pub mod tools;
pub mod trace;
pub mod transport;

pub use a2a_jsonrpc::{A2aError, ErrorCode};
pub use builder::ClientBuilder;
pub use client::{A2aClient, PROTOCOL_VERSION};
pub use error::{BoxError, Error};
pub use generation::{GenerationGap, GenerationMismatch, TaskWait};
pub use interceptor::{CallInfo, FnInterceptor, Interceptor, SetHeader, interceptor_fn};
pub use retry::RetryPolicy;
pub use stream::TaskStream;
pub use transport::{Transport, TransportFactory};

#[cfg(test)]
mod tests {
    use super::*;

    fn shared<T: Send + Sync + 'static>() {}
    fn sent<T: Send + Unpin + 'static>() {}

    #[test]
    fn public_types_cross_threads() {
        shared::<A2aClient>();
        shared::<Error>();
        shared::<ClientBuilder>();
        shared::<RetryPolicy>();
        shared::<SetHeader>();
        sent::<TaskStream>();
    }
}
