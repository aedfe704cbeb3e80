//! [`ClientBuilder`]: the settings of a client, the choice of its interface and transport.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::protocol::VersionNumber;
use a2a_types::v1::{AgentCard, AgentInterface};
use http::{HeaderName, HeaderValue};

use crate::call::{Core, Policy};
use crate::http::HttpClient;
use crate::interceptor::{Interceptor, SetHeader};
use crate::transport::{
    Negotiated, TransportFactory, TransportTarget, Transports, VersionPolicy, is_legacy,
};
use crate::{A2aClient, Error, RetryPolicy, card};

/// Builds an [`A2aClient`]: timeouts, retries, interceptors, extensions, and which transport to
/// prefer.
///
/// ```no_run
/// use std::time::Duration;
/// use a2a_client::{A2aClient, RetryPolicy};
///
/// # async fn run() -> Result<(), a2a_client::Error> {
/// let client = A2aClient::builder()
///     .connect_timeout(Duration::from_secs(5))
///     .timeout(Duration::from_secs(60))
///     .retry(RetryPolicy::default().with_max_attempts(4))
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
    preferred: Vec<String>,
    factories: Vec<Arc<dyn TransportFactory>>,
    versions: VersionPolicy,
    v1_1: bool,
    tls: crate::http::TlsOptions,
    #[cfg(feature = "signing")]
    card_verification: Option<crate::signature::CardVerification>,
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
            .field("preferred_transports", &self.preferred)
            .field("transports", &self.factories.len())
            .field("versions", &self.versions)
            .field("v1_1", &self.v1_1)
            .field("verify_certificates", &self.tls.verify_certificates)
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
            preferred: Vec::new(),
            factories: Vec::new(),
            versions: VersionPolicy::Current,
            v1_1: false,
            tls: crate::http::TlsOptions::default(),
            #[cfg(feature = "signing")]
            card_verification: None,
            invalid: None,
        }
    }
}

impl ClientBuilder {
    /// A builder with the defaults: connect timeout 10 s, call timeout 300 s, 3 attempts,
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

    /// The bindings to prefer, most preferred first (`JSONRPC`, `HTTP+JSON`, later `GRPC`; any
    /// case), over the card's own order: the client uses the first interface of the first of
    /// these bindings that the card offers in a version the client speaks, and the card's order
    /// when none is (as the A2A CLI specification's `--transport` says). Replaces an earlier
    /// preference; an empty list is the card's order. A blank name makes
    /// [`connect`](Self::connect) and [`from_card`](Self::from_card) fail with
    /// [`Error::Config`].
    pub fn preferred_transports<I, S>(mut self, bindings: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.preferred = bindings
            .into_iter()
            .map(|binding| binding.into().trim().to_owned())
            .collect();
        if self.preferred.iter().any(String::is_empty) {
            self.invalid.get_or_insert(Error::Config(
                "a preferred transport has no name".to_owned(),
            ));
        }
        self
    }

    /// Adds a transport: `factory` serves the interfaces of its binding and version (a gRPC
    /// transport, a 0.3 one, an in-process one for tests). Added factories are asked before the
    /// built-in JSON-RPC and HTTP+JSON ones, in the order they were added.
    pub fn transport(mut self, factory: impl TransportFactory) -> Self {
        self.factories.push(Arc::new(factory));
        self
    }

    /// Allows the protocol versions before 1.0 (0.3, 0.2, 0.1), which a client does not use
    /// otherwise (spec §3.6: no silent downgrade; the A2A CLI specification §13.2: never below
    /// 1.0 without an explicit opt-in). With `true`:
    ///
    /// * [`connect`](Self::connect) picks the newest version the card offers: a 1.x
    ///   interface when there is one, else 0.3, 0.2, then 0.1 (each in the
    ///   [preferred](Self::preferred_transports) bindings' order, then the card's);
    /// * a call to a 1.x interface answered `VersionNotSupportedError` (-32009) is retried once
    ///   in A2A 0.3 (over the card's 0.3 interface of the same binding, else the same URL), and
    ///   the client speaks 0.3 to that agent from then on (all its clones and streams); the
    ///   switch is logged at `info`.
    ///
    /// Without it, a card that offers only legacy interfaces is
    /// [`Error::LegacyOnly`], which says how to allow them. Replaces an earlier
    /// [`protocol_version`](Self::protocol_version); `false` restores the default (1.x only).
    pub fn allow_legacy(mut self, allow: bool) -> Self {
        self.versions = if allow {
            VersionPolicy::Negotiate
        } else {
            VersionPolicy::Current
        };
        self
    }

    /// Allows the unreleased A2A 1.1 draft (task generations: long-poll `GetTask`,
    /// `ifGenerationMatch`, generations on tasks and events; see docs/versions.md). Off by
    /// default: the client speaks 1.0. With it, [`connect`](Self::connect) picks a 1.1
    /// interface when the card offers one (an agent that serves 1.1 lists them after its 1.0
    /// ones) and then sends `A2A-Version: 1.1` and the generations; a card without one is
    /// spoken to in 1.0, as without this setting. Only the built-in JSON-RPC and HTTP+JSON
    /// transports speak 1.1; a [transport of your own](Self::transport) of version 1.0 is
    /// spoken in 1.0. [`A2aClient::speaks_generations`] says what was negotiated.
    pub fn allow_v1_1(mut self, allow: bool) -> Self {
        self.v1_1 = allow;
        self
    }

    /// Speaks exactly this protocol version, `Major.Minor`: `1.0` (any 1.x interface), `1.1`
    /// (the unreleased draft: as [`allow_v1_1`](Self::allow_v1_1), a 1.1 interface when the
    /// card offers one, else 1.0), or one of the legacy `0.3`, `0.2`, `0.1` (naming one is the
    /// opt-in, as the A2A CLI specification's `--a2a-version`). The client uses the first interface (in the
    /// [preferred](Self::preferred_transports) bindings' order, then the card's) of that version;
    /// failing that, the first one of a binding it speaks in that version, addressed in that
    /// version whatever the card says (the caller knows better). No fallback to another
    /// version. Replaces an earlier [`allow_legacy`](Self::allow_legacy). A version the client
    /// does not speak makes [`connect`](Self::connect) and [`from_card`](Self::from_card) fail
    /// with [`Error::Config`].
    pub fn protocol_version(mut self, version: &str) -> Self {
        match VersionNumber::parse(version).filter(|v| v.protocol_version().is_some()) {
            Some(wanted) => {
                if !wanted.is_legacy() && wanted.minor >= 1 {
                    self.v1_1 = true;
                }
                self.versions = VersionPolicy::Exactly(wanted);
            }
            None => {
                self.invalid.get_or_insert(Error::Config(format!(
                    "unknown A2A protocol version `{}`; this client speaks 1.1 (draft), 1.0, 0.3, \
                     0.2 and 0.1",
                    version.trim()
                )));
            }
        }
        self
    }

    /// With `true`, accepts any TLS certificate the server presents: expired, self-signed, for
    /// another name. For development only (the `a2a` command's `--insecure`): anyone on the path
    /// can then read and change the traffic. Default `false` (certificates are verified against
    /// the webpki roots).
    pub fn danger_accept_invalid_certs(mut self, accept: bool) -> Self {
        self.tls.verify_certificates = !accept;
        self
    }

    /// Trusts the CA certificates of `pem` (one or more PEM `CERTIFICATE` blocks) besides the
    /// webpki roots: an agent whose certificate a private CA issued is then reached without
    /// [`danger_accept_invalid_certs`](Self::danger_accept_invalid_certs) (which still wins:
    /// with it nothing is verified). Repeatable. Every transport uses them: JSON-RPC, HTTP+JSON
    /// and gRPC (`a2a_grpc::client`), card fetches included. Feature `tls`.
    ///
    /// An unreadable document fails [`connect`](Self::connect) (and every other method that
    /// builds the client) with [`Error::Config`] naming the problem.
    #[cfg(feature = "tls")]
    pub fn add_root_certificate(mut self, pem: impl AsRef<[u8]>) -> Self {
        if let Err(error) = self.tls.material.add_roots(pem.as_ref()) {
            self.invalid.get_or_insert(error);
        }
        self
    }

    /// Presents this client certificate to agents that ask for one (mutual TLS: a card's
    /// `mtlsSecurityScheme`): `cert_chain_pem` holds the client's certificate first, then any
    /// intermediates, as PEM `CERTIFICATE` blocks; `key_pem` its private key (PKCS#8
    /// `PRIVATE KEY`, `RSA PRIVATE KEY` or `EC PRIVATE KEY`). Every transport presents it:
    /// JSON-RPC, HTTP+JSON and gRPC, card fetches included. Feature `tls`.
    ///
    /// A chain or key that cannot be read, or a key that is not the certificate's, fails
    /// [`connect`](Self::connect) (and every other method that builds the client) with
    /// [`Error::Config`] naming the problem.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let client = a2a_client::A2aClient::builder()
    ///     .add_root_certificate(std::fs::read("agents-ca.pem")?)
    ///     .client_identity(std::fs::read("me.pem")?, std::fs::read("me.key")?)
    ///     .connect("https://agent.internal:7420")
    ///     .await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tls")]
    pub fn client_identity(
        mut self,
        cert_chain_pem: impl AsRef<[u8]>,
        key_pem: impl AsRef<[u8]>,
    ) -> Self {
        match crate::tls::Identity::from_pem(cert_chain_pem.as_ref(), key_pem.as_ref()) {
            Ok(identity) => self.tls.material.identity = Some(identity),
            Err(error) => {
                self.invalid.get_or_insert(error);
            }
        }
        self
    }

    /// Checks the settings given so far (headers, extensions, protocol version, TLS roots and
    /// client certificate) without connecting: what [`connect`](Self::connect) would refuse
    /// before any request.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the first setting that cannot be used.
    pub fn check(&self) -> Result<(), Error> {
        self.parts().map(drop)
    }

    /// The interface of `card` a client built by this builder would use (see
    /// [`preferred_transports`](Self::preferred_transports) and [`connect`](Self::connect)).
    ///
    /// # Errors
    ///
    /// [`Error::NoSupportedInterface`], listing what the card offers and what the client speaks.
    pub fn select_interface<'c>(&self, card: &'c AgentCard) -> Result<&'c AgentInterface, Error> {
        Transports::new(&self.factories, self.v1_1)
            .select(card, &self.preferred, &self.versions)
            .map(|(interface, _)| interface)
    }

    /// Fetches the card of the agent `agent` names (a URL, `host:port` or a card's URL, as the
    /// `a2a` command's `-a` takes them: see [`card::AgentRef`](crate::card::AgentRef); an
    /// origin's card is at `/.well-known/agent-card.json`, then `/.well-known/agent.json`;
    /// `127.0.0.1:7420` is `http://127.0.0.1:7420`), normalizes it to
    /// the 1.0 model ([`a2a_types::card::parse`]), and returns a client for the first interface
    /// of the card (in the caller's [preferred](Self::preferred_transports) bindings' order,
    /// then in the card's) that it speaks: `JSONRPC` or `HTTP+JSON` of protocol version 1.x, or
    /// one of the [added](Self::transport) transports; legacy versions only as
    /// [`allow_legacy`](Self::allow_legacy) and [`protocol_version`](Self::protocol_version)
    /// allow. An interface's `tenant` goes into every request.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] for a reference that names no agent on the network (a card file: read
    /// it and use [`from_card`](Self::from_card)), the error of the card fetch, [`Error::Card`]
    /// for a document that is not a card (naming
    /// the URL, the card version and the bad field), [`Error::LegacyOnly`] when the card
    /// offers only legacy interfaces and they are not allowed, and
    /// [`Error::NoSupportedInterface`] when the card offers no interface this client speaks.
    pub async fn connect(self, agent: &str) -> Result<A2aClient, Error> {
        let parts = self.parts()?;
        let fetched = card::fetch(&parts.http, &parts.policy, agent).await?;
        self.check_signatures(&parts, &fetched).await?;
        parts.client(fetched.card, Some(&fetched.url))
    }

    /// Checks the card's signatures as [`verify_card`](Self::verify_card) asks.
    #[cfg_attr(not(feature = "signing"), allow(clippy::unused_async))]
    async fn check_signatures(&self, parts: &Parts, fetched: &card::Fetched) -> Result<(), Error> {
        #[cfg(feature = "signing")]
        if let Some(verification) = &self.card_verification {
            crate::signature::enforce(
                &parts.http,
                &parts.policy,
                verification,
                &fetched.document,
                &fetched.url,
            )
            .await?;
        }
        #[cfg(not(feature = "signing"))]
        let _ = (parts, fetched);
        Ok(())
    }

    /// Checks the signatures of every card this builder fetches
    /// ([`connect`](Self::connect), [`fetch_card`](Self::fetch_card)) against the keys
    /// `verification` trusts: a card none of whose signatures verifies (or that has none) is
    /// refused with [`Error::CardSignature`], or only logged (`tracing::warn!`), as
    /// `verification` says. See [`crate::signature`].
    #[cfg(feature = "signing")]
    pub fn verify_card(mut self, verification: crate::signature::CardVerification) -> Self {
        self.card_verification = Some(verification);
        self
    }

    /// Checks the signatures of a card `document` the caller read (from `card_url`, or from
    /// a file: `None`) against the keys `trusted` names, fetching JWKS URLs with this
    /// builder's settings: the outcome (absent, verified, or why each signature failed), and
    /// each key source that could not be used (a JWKS that cannot be read, a `jku` off the
    /// card's origin, a `jku` of a card read from a file).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when this builder is invalid (a bad header); every problem with a key
    /// source is in the returned list instead.
    #[cfg(feature = "signing")]
    pub async fn check_card(
        &self,
        document: &serde_json::Value,
        card_url: Option<&str>,
        trusted: &[crate::signature::TrustedKeys],
    ) -> Result<(crate::signature::Outcome, Vec<String>), Error> {
        let parts = self.parts()?;
        let card_url = card_url.map(crate::http::parse_url).transpose()?;
        let (keys, problems) = crate::signature::gather_keys(
            &parts.http,
            &parts.policy,
            trusted,
            document,
            card_url.as_ref(),
        )
        .await;
        Ok((crate::signature::check(document, &keys), problems))
    }

    /// Fetches and normalizes the card of the agent `agent` names, as [`connect`](Self::connect) does,
    /// without choosing an interface.
    ///
    /// # Errors
    ///
    /// As [`connect`](Self::connect), except that any card is fine.
    pub async fn fetch_card(&self, agent: &str) -> Result<AgentCard, Error> {
        let parts = self.parts()?;
        let fetched = card::fetch(&parts.http, &parts.policy, agent).await?;
        self.check_signatures(&parts, &fetched).await?;
        Ok(fetched.card)
    }

    /// A client for a card the caller fetched from `card_url`: interface URLs that are paths
    /// (`/a2a`) are taken on that URL's origin, as [`connect`](Self::connect) does.
    ///
    /// # Errors
    ///
    /// As [`from_card`](Self::from_card); [`Error::Config`] when `card_url` is not an absolute
    /// http(s) URL.
    pub fn from_card_at(self, card: AgentCard, card_url: &str) -> Result<A2aClient, Error> {
        let card_url = crate::http::parse_url(card_url)?;
        self.parts()?.client(card, Some(&card_url))
    }

    /// Sends one plain HTTP request (not an A2A operation: an OAuth token endpoint, a file an
    /// artifact points to) with this builder's settings: its TLS verification, connect timeout,
    /// call timeout and interceptors (which see it as the call `label`, attempt 0); no retries,
    /// no A2A headers. Returns the response head and the whole body.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] for a URL that is not absolute http(s); [`Error::Transport`] and
    /// [`Error::Timeout`] as for any call. An answer of any status is `Ok`.
    pub async fn send_http(
        &self,
        label: &'static str,
        request: http::Request<bytes::Bytes>,
    ) -> Result<(http::response::Parts, bytes::Bytes), Error> {
        crate::http::parse_url(&request.uri().to_string())?;
        let parts = self.parts()?;
        let call = crate::CallInfo::new(label, 0);
        let exchange = parts.http.exchange(&call, request);
        parts.policy.attempt(&call, exchange).await
    }

    /// [`send_http`](Self::send_http) reading at most `max_bytes` of the answer's body (a file
    /// an artifact points to): a longer body fails the call with [`Error::Protocol`], naming the
    /// limit, without being read on.
    ///
    /// # Errors
    ///
    /// Those of [`send_http`](Self::send_http), and [`Error::Protocol`] for a body over the
    /// limit.
    pub async fn send_http_bounded(
        &self,
        label: &'static str,
        request: http::Request<bytes::Bytes>,
        max_bytes: usize,
    ) -> Result<(http::response::Parts, bytes::Bytes), Error> {
        crate::http::parse_url(&request.uri().to_string())?;
        let parts = self.parts()?;
        let call = crate::CallInfo::new(label, 0);
        let exchange = parts.http.exchange_bounded(&call, request, max_bytes);
        parts.policy.attempt(&call, exchange).await
    }

    /// A client for a card the caller already has.
    ///
    /// # Errors
    ///
    /// [`Error::NoSupportedInterface`] when the card offers no interface this client speaks;
    /// [`Error::Config`] when that interface's URL is not an absolute http(s) URL.
    pub fn from_card(self, card: AgentCard) -> Result<A2aClient, Error> {
        self.parts()?.client(card, None)
    }

    fn parts(&self) -> Result<Parts, Error> {
        if let Some(error) = &self.invalid {
            return Err(Error::Config(error.to_string()));
        }
        let extensions: Vec<String> = self
            .extensions
            .iter()
            .map(|e| e.trim())
            .filter(|e| !e.is_empty())
            .map(str::to_owned)
            .collect();
        let header = if extensions.is_empty() {
            None
        } else {
            let joined = extensions.join(", ");
            Some(HeaderValue::from_str(&joined).map_err(|_| {
                Error::Config(format!(
                    "the extension URIs `{joined}` cannot go into a header"
                ))
            })?)
        };
        let interceptors: crate::http::Interceptors = self.interceptors.clone().into();
        Ok(Parts {
            http: HttpClient::new(
                self.connect_timeout,
                interceptors.clone(),
                header,
                &self.tls,
            )?,
            policy: Policy {
                timeout: self.timeout,
                retry: self.retry,
                stream_reconnects: self.stream_reconnects,
                stream_idle_timeout: self.stream_idle_timeout,
                interceptors,
            },
            connect_timeout: self.connect_timeout,
            extensions,
            preferred: self.preferred.clone(),
            versions: self.versions.clone(),
            transports: Transports::new(&self.factories, self.v1_1),
        })
    }
}

/// What the builder settles: the HTTP client, the call policy, the transports.
struct Parts {
    http: HttpClient,
    policy: Policy,
    connect_timeout: Option<Duration>,
    extensions: Vec<String>,
    preferred: Vec<String>,
    versions: VersionPolicy,
    transports: Transports,
}

impl Parts {
    /// The client for the chosen interface of `card`.
    fn client(self, card: AgentCard, card_url: Option<&http::Uri>) -> Result<A2aClient, Error> {
        let (chosen, factory) = self
            .transports
            .select(&card, &self.preferred, &self.versions)?;
        let mut interface = chosen.clone();
        let speaks = factory.protocol_version().to_owned();
        if !crate::transport::version_matches(&speaks, &interface.protocol_version) {
            // `protocol_version` named a version the card does not list for this interface.
            tracing::info!(
                target: "a2a_client",
                url = %interface.url,
                "the card lists this {} interface as version `{}`; speaking A2A {speaks} to it, \
                 as asked",
                interface.protocol_binding,
                interface.protocol_version,
            );
            interface.protocol_version = speaks.clone();
        }
        let (endpoint, transport) = self.build(&factory, &interface, card_url)?;
        let fallback = match self.versions {
            VersionPolicy::Negotiate if !is_legacy(&speaks) => {
                self.transports.fallback(&card, chosen)
            }
            _ => None,
        };
        let transport = match fallback {
            Some((legacy, legacy_factory)) => {
                let (legacy_endpoint, legacy_transport) =
                    self.build(&legacy_factory, legacy, card_url)?;
                let agent = format!("{} at {legacy_endpoint}", card.name);
                Arc::new(Negotiated::new(transport, legacy_transport, agent))
            }
            None => transport,
        };
        let generations = VersionNumber::parse(&speaks)
            .is_some_and(|v| !v.is_legacy() && (v.major, v.minor) >= (1, 1));
        Ok(A2aClient::new(Core {
            transport,
            policy: self.policy,
            card,
            interface,
            endpoint,
            speaks,
            generations: crate::generation::Support::new(generations),
        }))
    }

    /// The transport `factory` builds for `interface`, and its resolved URL.
    fn build(
        &self,
        factory: &Arc<dyn TransportFactory>,
        interface: &AgentInterface,
        card_url: Option<&http::Uri>,
    ) -> Result<(http::Uri, Arc<dyn crate::Transport>), Error> {
        // A URL that is no http(s) URL (gRPC's `host:port`) is for its transport to judge.
        let endpoint = match card::resolve(&interface.url, card_url) {
            Ok(endpoint) => endpoint,
            Err(error) => interface.url.trim().parse().map_err(|_| error)?,
        };
        let transport = factory.build(&TransportTarget {
            interface,
            endpoint: &endpoint,
            extensions: &self.extensions,
            connect_timeout: self.connect_timeout,
            interceptors: &self.policy.interceptors,
            http: &self.http,
        })?;
        Ok((endpoint, transport))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_headers_are_reported_when_building() {
        let error = ClientBuilder::new()
            .header("bad header", "x")
            .parts()
            .err()
            .unwrap();
        assert_eq!(error.to_string(), "invalid header name `bad header`");
        let error = ClientBuilder::new()
            .bearer_auth("line\nbreak")
            .parts()
            .err()
            .unwrap();
        assert!(matches!(error, Error::Config(_)));
        let parts = ClientBuilder::new()
            .extension("urn:a")
            .extension(" urn:b ")
            .extension(" ")
            .parts()
            .unwrap();
        assert_eq!(parts.extensions, ["urn:a", "urn:b"]);
        let error = ClientBuilder::new()
            .preferred_transports(["JSONRPC", " "])
            .parts()
            .err()
            .unwrap();
        assert_eq!(error.to_string(), "a preferred transport has no name");
    }
}
