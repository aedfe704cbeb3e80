//! Push notifications that arrive: the delivery worker, its retries, the SSRF guard, and signed
//! deliveries. `docs/push.md` is the guide.
//!
//! Switch delivery on with [`ServiceBuilder::push`](crate::ServiceBuilder::push): the card
//! then declares
//! `capabilities.pushNotifications`, the push-config operations accept configs (each URL
//! checked by the SSRF guard), and a worker sends every event of a task to each of its configs.
//!
//! ```
//! use std::time::Duration;
//! use a2a_server::A2aService;
//! use a2a_server::agent::agent_fn;
//! use a2a_server::push::{Algorithm, PushSettings, SigningKey};
//! use a2a_types::v1::AgentCard;
//!
//! let agent = agent_fn(|_ctx, sink| async move { Ok(sink.complete(None).await?) });
//! let settings = PushSettings::default()
//!     .with_timeout(Duration::from_secs(5))
//!     .sign_with(SigningKey::generate(Algorithm::Es256).unwrap());
//! let service = A2aService::builder(agent, AgentCard::new("Pusher", "Pushes", "1.0.0"))
//!     .public_url("https://agent.example")
//!     .push(settings)
//!     .build();
//! let card = service.card();
//! assert_eq!(card.capabilities.push_notifications, Some(true));
//! let extension = &card.capabilities.extensions[0];
//! assert_eq!(
//!     extension.params.as_ref().unwrap()["jwksUrl"],
//!     "https://agent.example/.well-known/jwks.json"
//! );
//! ```
//!
//! # Delivery
//!
//! Every event a task logs goes, through the store's outbox (see the
//! [store docs](crate::store#the-push-outbox)), to each push config the task has: one `POST`
//! per event, its body the event in the shape of the version the config was registered
//! through (1.0: one `StreamResponse`, `application/a2a+json`; 0.3: the bare `kind`-tagged
//! event; 0.1: the bare 0.1 object), with `Authorization: <scheme> <credentials>` from the
//! config's `authentication`, `X-A2A-Notification-Token` when it has a token, and
//! `A2A-Notification-Signature` when deliveries are signed.
//!
//! * **At least once, in order per (task, config).** A delivery is retried until the webhook
//!   answers `2xx`: on a connection failure, a timeout ([`PushSettings::timeout`], 10 s), `408`,
//!   `425`, `429` or `5xx`, with exponential backoff and jitter ([`RetryPolicy`]), at most
//!   [`RetryPolicy::max_attempts`] times. A `3xx` (redirects are not followed) or another `4xx`
//!   ends it at once. It is then **dead**: logged (`WARN`, target `a2a_server::push`) and kept
//!   in the config's status with its last error
//!   ([`RequestHandler::push_status`](crate::handler::RequestHandler::push_status)); the next event of
//!   the config goes on. A receiver may see an event twice (a retry after a lost answer, a
//!   worker that died): a retry sends the same body bytes, so receivers deduplicate by the
//!   body (the signature's `request_body_sha256`).
//! * **Nobody waits for a webhook.** The agent's events are logged whatever the webhooks do;
//!   at most [`PushSettings::max_concurrent`] deliveries are in flight, at most
//!   [`PushSettings::max_per_host`] of them to one host, so a slow host holds up only itself.
//! * **The worker** starts with the first request the service handles, or when the handler is
//!   built inside a Tokio runtime; it stops when the handler shuts down
//!   ([`RequestHandler::shutdown`](crate::handler::RequestHandler::shutdown), which
//!   [`A2aService::serve_config`](crate::A2aService::serve_config) hooks to the server's
//!   shutdown) or is dropped. Deliveries in flight then are sent again by the next worker of a
//!   durable store.
//!
//! # Limits
//!
//! | limit | default | what a client sees when it is hit |
//! |---|---|---|
//! | [`max_configs_per_task`](PushSettings::max_configs_per_task) | 16 | creating one more: `UnsupportedOperationError` (-32004) "task T has 16 push configs, its limit (max_configs_per_task) ..." |
//! | [`max_url_len`](PushSettings::max_url_len) | 2 048 | `InvalidParamsError` (-32602) "push config url is N bytes long, more than ... (max_url_len)" |
//! | the outbox | [`OutboxLimits`](crate::store::OutboxLimits) | events dropped for a config, counted in its status |
//!
//! # The SSRF guard
//!
//! On unless opened: see [`IpNet`] for the address classes refused. A config's URL must be
//! `http` or `https`, without user info; an address in a refused class (an IP literal, or any
//! address its host name resolves to when the config is created) gets `InvalidParamsError`
//! (-32602) naming the address and its class; a name that does not resolve then is checked at
//! delivery. Each delivery connects only to the resolved addresses the guard allows; when it
//! allows none, the delivery is dead at once. [`PushSettings::allow`] opens networks (tests and
//! development agents open `127.0.0.1`).
//!
//! # Signed deliveries
//!
//! With [`PushSettings::sign_with`], each delivery carries a JWT over the body in
//! `A2A-Notification-Signature` (see [`a2a_jose::push`]), the service serves the public keys as
//! a JWKS at `/.well-known/jwks.json`, and the card names it in the extension
//! [`a2a_jose::push::EXTENSION_URI`] (`params.jwksUrl`). To rotate keys, publish the next key
//! ([`PushSettings::publish`]) before signing with it, and keep publishing the old one for a
//! while.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_jose::push as signed;
use a2a_types::v1::{AgentCard, AgentExtension, TaskPushNotificationConfig};
use http::HeaderValue;

use crate::error::A2aError;

mod body;
mod client;
mod guard;
mod worker;

pub use a2a_jose::{Algorithm, Jwk, Jwks, SigningKey};
pub use guard::IpNet;

pub(crate) use worker::run;

/// How long the creation of a config waits for its host name to resolve; a name that does not
/// resolve in time is checked at delivery.
const RESOLVE_AT_CREATION: Duration = Duration::from_secs(2);

/// How a failed delivery is retried: exponential backoff with jitter.
///
/// The wait before attempt `n + 1` (after `n` failures) is `initial_backoff * 2^(n-1)`, at most
/// `max_backoff`, of which a random half is taken off ("equal jitter"), so that deliveries that
/// failed together do not come back together. The words are those of the client's retries
/// (`a2a_client::RetryPolicy`): `max_attempts` counts the first attempt, `backoff(failures)` is
/// the wait before jitter, `none()` is one attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// The most attempts of one delivery, the first included; then it is dead. Default 8.
    pub max_attempts: u32,
    /// The wait after the first failure. Default 1 s.
    pub initial_backoff: Duration,
    /// The longest wait between attempts. Default 5 min.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 8,
            initial_backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(300),
        }
    }
}

impl RetryPolicy {
    /// One attempt: a delivery that fails is dead at once.
    pub fn none() -> Self {
        Self::default().with_max_attempts(1)
    }

    /// Sets the most attempts (at least 1).
    #[must_use]
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
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

    /// The wait after `failures` failed attempts (at least 1), before jitter.
    pub fn backoff(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(32);
        self.initial_backoff
            .saturating_mul(1u32 << doublings.min(31))
            .min(self.max_backoff)
    }
}

/// Push delivery, switched on: its limits, its SSRF guard's allow list and its signing keys.
/// Every limit has a safe default; see the [module docs](self).
#[derive(Clone)]
#[non_exhaustive]
pub struct PushSettings {
    /// How long one attempt may take: connecting, sending and the webhook's answer. Default
    /// 10 s (spec 1.0 §13.2 recommends 10 to 30 s).
    pub timeout: Duration,
    /// Retries of failed deliveries.
    pub retry: RetryPolicy,
    /// The most deliveries in flight at once. Default 64.
    pub max_concurrent: usize,
    /// The most deliveries in flight to one host (`host:port`) at once. Default 8.
    pub max_per_host: usize,
    /// The most push configs one task may have. Default 16.
    pub max_configs_per_task: usize,
    /// The longest config URL, in bytes. Default 2 048.
    pub max_url_len: usize,
    /// The longest the worker sleeps before it looks at the outbox again, for stores that
    /// cannot wake it ([`TaskStore::wait_outbox`](crate::store::TaskStore::wait_outbox)).
    /// Default 5 s.
    pub poll_interval: Duration,
    allow: Vec<IpNet>,
    signing: Option<Arc<SigningKey>>,
    published: Vec<Jwk>,
}

impl Default for PushSettings {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            retry: RetryPolicy::default(),
            max_concurrent: 64,
            max_per_host: 8,
            max_configs_per_task: 16,
            max_url_len: 2048,
            poll_interval: Duration::from_secs(5),
            allow: Vec::new(),
            signing: None,
            published: Vec::new(),
        }
    }
}

impl fmt::Debug for PushSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushSettings")
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("max_concurrent", &self.max_concurrent)
            .field("max_per_host", &self.max_per_host)
            .field("max_configs_per_task", &self.max_configs_per_task)
            .field("max_url_len", &self.max_url_len)
            .field("poll_interval", &self.poll_interval)
            .field("allow", &self.allow)
            .field("signing", &self.signing)
            .field("published", &self.published.len())
            .finish()
    }
}

impl PushSettings {
    /// The defaults: the SSRF guard closed, deliveries unsigned.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the time one attempt may take.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets the retry policy.
    #[must_use]
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Sets the most deliveries in flight (at least 1).
    #[must_use]
    pub fn with_max_concurrent(mut self, n: usize) -> Self {
        self.max_concurrent = n.max(1);
        self
    }

    /// Sets the most deliveries in flight to one host (at least 1).
    #[must_use]
    pub fn with_max_per_host(mut self, n: usize) -> Self {
        self.max_per_host = n.max(1);
        self
    }

    /// Sets the most push configs per task.
    #[must_use]
    pub fn with_max_configs_per_task(mut self, n: usize) -> Self {
        self.max_configs_per_task = n;
        self
    }

    /// Sets the longest config URL.
    #[must_use]
    pub fn with_max_url_len(mut self, bytes: usize) -> Self {
        self.max_url_len = bytes;
        self
    }

    /// Sets the longest sleep between looks at the outbox.
    #[must_use]
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// Lets webhooks be in `net`, whatever the SSRF guard would say (`127.0.0.1` for a receiver
    /// on the same machine, `10.0.0.0/8` for an internal network, `0.0.0.0/0` and `::/0` to
    /// switch the guard off).
    #[must_use]
    pub fn allow(mut self, net: IpNet) -> Self {
        self.allow.push(net);
        self
    }

    /// Signs every delivery with `key`, and publishes its public half in the JWKS.
    #[must_use]
    pub fn sign_with(mut self, key: SigningKey) -> Self {
        self.signing = Some(Arc::new(key));
        self
    }

    /// Publishes one more public key in the JWKS (key rotation: the next key before it signs,
    /// the previous one while receivers may still hold its deliveries).
    #[must_use]
    pub fn publish(mut self, key: Jwk) -> Self {
        self.published.push(key);
        self
    }

    /// The key that signs deliveries, if any.
    pub fn signing_key(&self) -> Option<&SigningKey> {
        self.signing.as_deref()
    }

    /// The JWKS the service serves: the signing key's public half first, then the published
    /// keys. Empty without signing.
    pub fn jwks(&self) -> Jwks {
        let Some(key) = &self.signing else {
            return Jwks::default();
        };
        let mut keys = vec![key.public_jwk()];
        keys.extend(
            self.published
                .iter()
                .filter(|jwk| jwk.kid.as_deref() != Some(key.kid()))
                .cloned(),
        );
        Jwks::new(keys)
    }
}

/// Push delivery as the handler and the worker use it: the settings, the guard, the client and
/// the JWKS as served.
pub(crate) struct Pusher {
    pub(crate) settings: PushSettings,
    guard: Arc<guard::Guard>,
    client: client::HttpClient,
    /// The trace of each task's latest agent run, for the `traceparent` of its deliveries.
    traces: std::sync::Mutex<Traces>,
}

/// The trace context of recent tasks, at most [`Traces::MAX`] (the oldest go first): a
/// delivery of a task not here starts no trace of its own and carries none.
#[derive(Default)]
struct Traces {
    by_task: std::collections::HashMap<a2a_types::v1::TaskId, a2a_types::trace::TraceContext>,
    order: std::collections::VecDeque<a2a_types::v1::TaskId>,
}

impl Traces {
    const MAX: usize = 10_000;

    fn insert(&mut self, task: a2a_types::v1::TaskId, trace: a2a_types::trace::TraceContext) {
        if self.by_task.insert(task.clone(), trace).is_none() {
            self.order.push_back(task);
            while self.order.len() > Self::MAX {
                if let Some(old) = self.order.pop_front() {
                    self.by_task.remove(&old);
                }
            }
        }
    }
}

impl fmt::Debug for Pusher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pusher")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Pusher {
    pub(crate) fn new(settings: PushSettings) -> Self {
        let guard = Arc::new(guard::Guard::new(settings.allow.clone()));
        let client = client::new(guard.clone(), settings.timeout).unwrap_or_else(|err| {
            panic!("{err}: rustls with ring always supports TLS 1.2 and 1.3")
        });
        Self {
            settings,
            guard,
            client,
            traces: std::sync::Mutex::new(Traces::default()),
        }
    }

    /// Remembers the trace of a task's agent run: its deliveries continue it.
    pub(crate) fn remember_trace(
        &self,
        task: &a2a_types::v1::TaskId,
        trace: &a2a_types::trace::TraceContext,
    ) {
        if let Ok(mut traces) = self.traces.lock() {
            traces.insert(task.clone(), trace.clone());
        }
    }

    /// The trace a task's deliveries continue, if it is remembered.
    pub(crate) fn trace_of(
        &self,
        task: &a2a_types::v1::TaskId,
    ) -> Option<a2a_types::trace::TraceContext> {
        self.traces.lock().ok()?.by_task.get(task).cloned()
    }

    /// Checks a config a client wants stored: its URL (scheme, length, host, the SSRF guard)
    /// and that its token and authentication can go into headers.
    pub(crate) async fn check_config(
        &self,
        config: &TaskPushNotificationConfig,
    ) -> Result<(), A2aError> {
        let url = &config.url;
        let max = self.settings.max_url_len;
        if url.len() > max {
            return Err(A2aError::invalid_params(format!(
                "push config url is {} bytes long, more than the {max} bytes allowed \
                 (max_url_len)",
                url.len()
            )));
        }
        let refused = |why: String| {
            A2aError::invalid_params(format!("push config url `{url}` is refused: {why}"))
        };
        let uri: http::Uri = url
            .parse()
            .map_err(|e| refused(format!("it is not a URL ({e})")))?;
        match uri.scheme_str() {
            Some("http" | "https") => {}
            Some(other) => {
                return Err(refused(format!(
                    "the scheme must be http or https, not {other}"
                )));
            }
            None => {
                return Err(refused(
                    "it is not an absolute http or https URL".to_owned(),
                ));
            }
        }
        let authority = uri
            .authority()
            .ok_or_else(|| refused("it names no host".to_owned()))?;
        if authority.as_str().contains('@') {
            return Err(refused(
                "user info in the URL is not sent; give credentials in `authentication`".to_owned(),
            ));
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        if host.is_empty() {
            return Err(refused("it names no host".to_owned()));
        }
        match host.parse::<IpAddr>() {
            Ok(ip) => {
                if let Some(why) = self.guard.refusal(ip) {
                    return Err(refused(why));
                }
            }
            Err(_) => {
                let lookup =
                    tokio::time::timeout(RESOLVE_AT_CREATION, tokio::net::lookup_host((host, 0)))
                        .await;
                // A name that does not resolve now is checked again at each delivery.
                if let Ok(Ok(addrs)) = lookup {
                    for addr in addrs {
                        if let Some(why) = self.guard.refusal(addr.ip()) {
                            return Err(refused(format!("`{host}` resolves to {why}")));
                        }
                    }
                }
            }
        }
        let header = |value: &str, what: &str| {
            HeaderValue::from_str(value).map(|_| ()).map_err(|_| {
                A2aError::invalid_params(format!(
                    "push config {what} cannot be sent in an HTTP header (it holds a control \
                     character or non-ASCII text)"
                ))
            })
        };
        if let Some(token) = &config.token {
            header(token, "token")?;
        }
        if let Some(auth) = &config.authentication {
            if auth.scheme.trim().is_empty() {
                return Err(A2aError::invalid_params(
                    "push config authentication.scheme is required (e.g. Bearer)".to_owned(),
                ));
            }
            if auth.scheme.contains(char::is_whitespace) {
                return Err(A2aError::invalid_params(format!(
                    "push config authentication.scheme `{}` must be one HTTP authentication \
                     scheme (e.g. Bearer)",
                    auth.scheme
                )));
            }
            header(
                &format!(
                    "{} {}",
                    auth.scheme,
                    auth.credentials.as_deref().unwrap_or("")
                ),
                "authentication",
            )?;
        }
        Ok(())
    }
}

/// Declares push delivery in `card`: `capabilities.pushNotifications` true with delivery (and,
/// when deliveries are signed, the signed-delivery extension, its `jwksUrl` filled in where
/// the card is served); without delivery, a card that declared it is corrected to false.
pub(crate) fn declare(card: &mut AgentCard, settings: Option<&PushSettings>) {
    let capabilities = &mut card.capabilities;
    let Some(settings) = settings else {
        if capabilities.push_notifications == Some(true) {
            tracing::warn!(
                "the card declares capabilities.pushNotifications, but push delivery is not \
                 configured (ServiceBuilder::push): it is declared false"
            );
            capabilities.push_notifications = Some(false);
        }
        return;
    };
    capabilities.push_notifications = Some(true);
    if settings.signing.is_none() {
        capabilities
            .extensions
            .retain(|e| e.uri.as_deref() != Some(signed::EXTENSION_URI));
    }
    let declared = capabilities
        .extensions
        .iter()
        .any(|e| e.uri.as_deref() == Some(signed::EXTENSION_URI));
    // A card that already declares the extension keeps it as it is.
    if let Some(key) = settings.signing.as_ref().filter(|_| !declared) {
        let mut params = a2a_types::v1::Struct::new();
        params.insert("jwksUrl".to_owned(), signed::JWKS_PATH.into());
        params.insert("header".to_owned(), "A2A-Notification-Signature".into());
        params.insert(
            "algorithms".to_owned(),
            serde_json::json!([key.algorithm().name()]),
        );
        capabilities.extensions.push(
            AgentExtension::new(signed::EXTENSION_URI)
                .with_description(
                    "Push deliveries carry a JWT (ES256 or EdDSA) over the SHA-256 of their \
                     body in the A2A-Notification-Signature header; the keys are the JWKS at \
                     jwksUrl.",
                )
                .with_params(params),
        );
    }
}

/// In a card as served at `base`: the signed-delivery extension's `jwksUrl`, made absolute.
pub(crate) fn locate_jwks(card: &mut AgentCard, base: &str) {
    for extension in &mut card.capabilities.extensions {
        if extension.uri.as_deref() == Some(signed::EXTENSION_URI)
            && let Some(params) = &mut extension.params
        {
            params.insert(
                "jwksUrl".to_owned(),
                format!("{}{}", base.trim_end_matches('/'), signed::JWKS_PATH).into(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let policy = RetryPolicy::default()
            .with_initial_backoff(Duration::from_secs(1))
            .with_max_backoff(Duration::from_secs(10));
        let waits: Vec<u64> = (1..=6).map(|n| policy.backoff(n).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 10, 10]);
        assert_eq!(policy.backoff(u32::MAX), Duration::from_secs(10));
        assert_eq!(RetryPolicy::none().max_attempts, 1);
    }

    #[test]
    fn the_jwks_leads_with_the_signing_key() {
        let next = SigningKey::generate(Algorithm::EdDsa).unwrap();
        let settings = PushSettings::default()
            .sign_with(SigningKey::generate(Algorithm::Es256).unwrap())
            .publish(next.public_jwk());
        let jwks = settings.jwks();
        assert_eq!(jwks.keys.len(), 2);
        assert_eq!(
            jwks.keys[0].kid.as_deref(),
            Some(settings.signing_key().unwrap().kid())
        );
        assert_eq!(jwks.keys[1], next.public_jwk());
        assert_eq!(PushSettings::default().jwks(), Jwks::default());
    }
}
