//! [`ClientBuilder`] and [`RetryPolicy`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::v1::AgentCard;
use http::{HeaderName, HeaderValue};

use crate::Error;
use crate::client::{A2aClient, Settings};
use crate::interceptor::{Interceptor, SetHeader};
use crate::transport::Http;

/// How often and how patiently failed calls are tried again.
///
/// A call is retried when it fails with a [transient](Error::is_transient) error: a transport
/// error, a timeout, HTTP 408/429/502/503/504. Which calls:
///
/// * the idempotent ones (`GetTask`, `ListTasks`, `CancelTask`, `SubscribeToTask`, the push
///   configuration reads and deletes, `GetExtendedAgentCard`, the card fetch) on any transient
///   error;
/// * `SendMessage` and `SendStreamingMessage` on any transient error except a timeout of the
///   call itself (a slow agent is not a failed one): the message keeps its `messageId`, so a
///   server that deduplicates by it runs the message once;
/// * `CreateTaskPushNotificationConfig` (whose id the server assigns, so that a repeat would
///   register a second webhook) only when the connection could not be made, so the request
///   never reached the server.
///
/// The wait before retry `n` (from 0) is `initial_backoff * 2^n`, at most `max_backoff`, of
/// which a random part of up to a half is taken off so that clients do not retry in step.
///
/// ```
/// use std::time::Duration;
/// use a2a_client::RetryPolicy;
///
/// let policy = RetryPolicy::default()
///     .with_max_retries(4)
///     .with_initial_backoff(Duration::from_millis(50));
/// assert!(policy.backoff(0) <= Duration::from_millis(50));
/// assert!(policy.backoff(10) <= policy.max_backoff);
/// assert_eq!(RetryPolicy::none().max_retries, 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Retries after the first attempt. Default 2.
    pub max_retries: u32,
    /// The wait before the first retry. Default 200 ms.
    pub initial_backoff: Duration,
    /// The longest wait between two attempts. Default 5 s.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 2,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// No retries.
    pub fn none() -> Self {
        Self::default().with_max_retries(0)
    }

    /// Sets the number of retries.
    #[must_use]
    pub fn with_max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }

    /// Sets the first wait.
    #[must_use]
    pub fn with_initial_backoff(mut self, wait: Duration) -> Self {
        self.initial_backoff = wait;
        self
    }

    /// Sets the longest wait.
    #[must_use]
    pub fn with_max_backoff(mut self, wait: Duration) -> Self {
        self.max_backoff = wait;
        self
    }

    /// The wait before retry `retry` (0 for the first retry).
    pub fn backoff(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX);
        let full = self
            .initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff);
        // Equal jitter: keep at least half of the wait.
        let half = full / 2;
        let nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
        let jitter = if nanos == 0 { 0 } else { random() % nanos };
        full - Duration::from_nanos(jitter)
    }
}

/// A random number from the standard library's per-process random hash keys.
fn random() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}

/// Builds an [`A2aClient`]: timeouts, retries, interceptors, extensions.
///
/// ```no_run
/// use std::time::Duration;
/// use a2a_client::{A2aClient, RetryPolicy};
///
/// # async fn run() -> Result<(), a2a_client::Error> {
/// let client = A2aClient::builder()
///     .connect_timeout(Duration::from_secs(5))
///     .timeout(Duration::from_secs(60))
///     .retry(RetryPolicy::default().with_max_retries(3))
///     .bearer_auth("secret-token")
///     .extension("https://example.com/ext/trace/v1")
///     .connect("https://agent.example.com")
///     .await?;
/// # let _ = client;
/// # Ok(())
/// # }
/// ```
#[must_use]
pub struct ClientBuilder {
    connect_timeout: Option<Duration>,
    timeout: Option<Duration>,
    retry: RetryPolicy,
    stream_reconnects: u32,
    stream_idle_timeout: Option<Duration>,
    interceptors: Vec<Arc<dyn Interceptor>>,
    extensions: Vec<String>,
    invalid: Option<Error>,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("connect_timeout", &self.connect_timeout)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("stream_reconnects", &self.stream_reconnects)
            .field("stream_idle_timeout", &self.stream_idle_timeout)
            .field("interceptors", &self.interceptors.len())
            .field("extensions", &self.extensions)
            .finish_non_exhaustive()
    }
}

impl Default for ClientBuilder {
    fn default() -> Self {
        Self {
            connect_timeout: Some(Duration::from_secs(10)),
            timeout: Some(Duration::from_secs(300)),
            retry: RetryPolicy::default(),
            stream_reconnects: 5,
            stream_idle_timeout: None,
            interceptors: Vec::new(),
            extensions: Vec::new(),
            invalid: None,
        }
    }
}

impl ClientBuilder {
    /// A builder with the defaults: connect timeout 10 s, call timeout 300 s, 2 retries,
    /// 5 stream reconnections, no stream idle timeout, no interceptors.
    pub fn new() -> Self {
        Self::default()
    }

    /// How long to wait for a TCP connection. Default 10 s.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    /// How long one attempt of a call may take, from sending the request to reading the whole
    /// answer; for a stream, until the response head arrives. Default 300 s, as a blocking
    /// `SendMessage` waits for the agent to finish.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// No call timeout.
    pub fn no_timeout(mut self) -> Self {
        self.timeout = None;
        self
    }

    /// The retry policy. Default: [`RetryPolicy::default`].
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// How many times in a row a stream may reconnect without receiving an event before it
    /// gives up with the last error. Default 5. The waits follow the retry policy's backoff.
    pub fn stream_reconnects(mut self, attempts: u32) -> Self {
        self.stream_reconnects = attempts;
        self
    }

    /// Treats a stream that receives nothing (no event, no keep-alive comment) for this long
    /// as dropped, and resumes it. Default: none (the A2A server of this workspace sends a
    /// keep-alive every 15 s, so 45 s suits it).
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Self {
        self.stream_idle_timeout = Some(timeout);
        self
    }

    /// Adds an interceptor; they run in the order they were added.
    pub fn interceptor(mut self, interceptor: impl Interceptor) -> Self {
        self.interceptors.push(Arc::new(interceptor));
        self
    }

    /// Sets a header on every request (an API key, say). An invalid name or value makes
    /// [`connect`](Self::connect) and [`from_card`](Self::from_card) fail with
    /// [`Error::Config`].
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Error::Config(format!("invalid header name `{name}`")));
        let value = HeaderValue::from_str(value)
            .map_err(|_| Error::Config(format!("the value of header `{name:?}` is not valid")));
        match (name, value) {
            (Ok(name), Ok(value)) => self.interceptor(SetHeader::new(name, value)),
            (Err(error), _) | (_, Err(error)) => {
                self.invalid.get_or_insert(error);
                self
            }
        }
    }

    /// Sends `Authorization: Bearer <token>` with every request.
    pub fn bearer_auth(mut self, token: &str) -> Self {
        match SetHeader::bearer(token) {
            Ok(header) => self.interceptor(header),
            Err(error) => {
                self.invalid.get_or_insert(error);
                self
            }
        }
    }

    /// Asks for an extension: its URI goes into the `A2A-Extensions` header of every call.
    pub fn extension(mut self, uri: impl Into<String>) -> Self {
        self.extensions.push(uri.into());
        self
    }

    /// Fetches the agent card from `base_url` (see [`card::card_urls`](crate::card::card_urls): first
    /// `/.well-known/agent-card.json`, then `/.well-known/agent.json`), normalizes it to the
    /// 1.0 model, and returns a client for its preferred 1.0 JSON-RPC interface.
    ///
    /// # Errors
    ///
    /// The error of the card fetch, [`Error::Decode`] for a card that is not one, and
    /// [`Error::NoSupportedInterface`] when the card offers no interface this client speaks.
    pub async fn connect(self, base_url: &str) -> Result<A2aClient, Error> {
        let settings = self.settings()?;
        let http = Http::new(settings.connect_timeout)?;
        let (card, card_url) = crate::client::fetch_card(&http, &settings, base_url).await?;
        A2aClient::new(http, settings, card, Some(card_url))
    }

    /// Fetches and normalizes the agent card at `base_url`, as [`connect`](Self::connect) does,
    /// without choosing an interface.
    ///
    /// # Errors
    ///
    /// As [`connect`](Self::connect), except that any card is fine.
    pub async fn fetch_card(self, base_url: &str) -> Result<AgentCard, Error> {
        let settings = self.settings()?;
        let http = Http::new(settings.connect_timeout)?;
        let (card, _) = crate::client::fetch_card(&http, &settings, base_url).await?;
        Ok(card)
    }

    /// A client for a card the caller already has.
    ///
    /// # Errors
    ///
    /// [`Error::NoSupportedInterface`] when the card offers no interface this client speaks;
    /// [`Error::Config`] when that interface's URL is not an absolute http(s) URL.
    pub fn from_card(self, card: AgentCard) -> Result<A2aClient, Error> {
        let settings = self.settings()?;
        let http = Http::new(settings.connect_timeout)?;
        A2aClient::new(http, settings, card, None)
    }

    fn settings(self) -> Result<Settings, Error> {
        if let Some(error) = self.invalid {
            return Err(error);
        }
        let extensions = self
            .extensions
            .iter()
            .map(|e| e.trim())
            .filter(|e| !e.is_empty())
            .collect::<Vec<_>>()
            .join(", ");
        let extensions = if extensions.is_empty() {
            None
        } else {
            Some(HeaderValue::from_str(&extensions).map_err(|_| {
                Error::Config(format!(
                    "the extension URIs `{extensions}` cannot go into a header"
                ))
            })?)
        };
        Ok(Settings {
            connect_timeout: self.connect_timeout,
            timeout: self.timeout,
            retry: self.retry,
            stream_reconnects: self.stream_reconnects,
            stream_idle_timeout: self.stream_idle_timeout,
            interceptors: self.interceptors,
            extensions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap_with_jitter() {
        let policy = RetryPolicy::default()
            .with_initial_backoff(Duration::from_millis(100))
            .with_max_backoff(Duration::from_millis(1000));
        for _ in 0..50 {
            let b0 = policy.backoff(0);
            assert!(b0 >= Duration::from_millis(50) && b0 <= Duration::from_millis(100));
            let b2 = policy.backoff(2);
            assert!(b2 >= Duration::from_millis(200) && b2 <= Duration::from_millis(400));
            let b9 = policy.backoff(9);
            assert!(b9 >= Duration::from_millis(500) && b9 <= Duration::from_millis(1000));
            assert!(policy.backoff(u32::MAX) <= Duration::from_millis(1000));
        }
        assert_eq!(
            RetryPolicy::default()
                .with_initial_backoff(Duration::ZERO)
                .backoff(3),
            Duration::ZERO
        );
    }

    #[test]
    fn bad_headers_are_reported_when_building() {
        let error = ClientBuilder::new()
            .header("bad header", "x")
            .settings()
            .err()
            .unwrap();
        assert_eq!(error.to_string(), "invalid header name `bad header`");
        let error = ClientBuilder::new()
            .bearer_auth("line\nbreak")
            .settings()
            .err()
            .unwrap();
        assert!(matches!(error, Error::Config(_)));
        let settings = ClientBuilder::new()
            .extension("urn:a")
            .extension(" urn:b ")
            .settings()
            .unwrap();
        assert_eq!(settings.extensions.unwrap(), "urn:a, urn:b");
    }
}
