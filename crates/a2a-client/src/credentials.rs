//! Credentials chosen from the agent card: a bearer token (from a provider that may refresh it)
//! and API keys, put where the card's security schemes say, for the first of its
//! `securityRequirements` the credentials can satisfy.
//!
//! ```
//! use a2a_client::credentials::Credentials;
//! use a2a_types::v1::{AgentCard, ApiKeySecurityScheme, SecurityRequirement};
//!
//! let card = AgentCard::new("A", "An agent", "1.0.0")
//!     .with_security_scheme("key", ApiKeySecurityScheme::new("header", "X-API-Key"))
//!     .with_security_requirements([SecurityRequirement::new().with_scheme("key", Vec::<String>::new())]);
//! let credentials = Credentials::new().api_key("s3cret").for_card(&card).unwrap();
//! assert_eq!(credentials.schemes(), ["key"]);
//! let client = a2a_client::A2aClient::builder().interceptor(credentials);
//! # let _ = client;
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_types::v1::{AgentCard, SecurityScheme};
use bytes::Bytes;
use http::{HeaderName, HeaderValue};

use crate::Error;
use crate::interceptor::{CallInfo, Interceptor};

/// Gives the bearer token for each request. Called for every attempt, so a provider that
/// refreshes its token is picked up at once; told when the server refused the token (401), so
/// that it can drop it.
pub trait TokenProvider: Send + Sync + 'static {
    /// The token to send now; `None` sends none.
    fn token(&self) -> Option<String>;

    /// The server answered 401 to a request that carried `token`.
    fn refused(&self, token: &str) {
        let _ = token;
    }
}

impl<F> TokenProvider for F
where
    F: Fn() -> Option<String> + Send + Sync + 'static,
{
    fn token(&self) -> Option<String> {
        self()
    }
}

/// A token fetched by a function and kept until it expires (less a margin) or the server
/// refuses it; then fetched again with the next request. The function runs on the calling
/// thread: keep it quick (read a file, a value another task refreshes).
///
/// ```
/// use std::time::Duration;
/// use a2a_client::credentials::{RefreshingToken, TokenProvider};
///
/// let token = RefreshingToken::new(|| Ok(("t-1".to_owned(), Some(Duration::from_secs(3600)))));
/// assert_eq!(token.token().as_deref(), Some("t-1"));
/// ```
pub struct RefreshingToken {
    fetch: Box<FetchToken>,
    margin: Duration,
    cached: Mutex<Option<(String, Option<Instant>)>>,
}

/// What a [`RefreshingToken`] fetches with: a token and how long it is valid, or why not.
type FetchToken = dyn Fn() -> Result<(String, Option<Duration>), String> + Send + Sync;

impl fmt::Debug for RefreshingToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RefreshingToken")
            .field("margin", &self.margin)
            .finish_non_exhaustive()
    }
}

impl RefreshingToken {
    /// Tokens from `fetch`: the token and how long it is valid (`None`: until refused).
    pub fn new(
        fetch: impl Fn() -> Result<(String, Option<Duration>), String> + Send + Sync + 'static,
    ) -> Self {
        Self {
            fetch: Box::new(fetch),
            margin: Duration::from_secs(30),
            cached: Mutex::new(None),
        }
    }

    /// Fetches a new token this long before the old one expires (default 30 s).
    #[must_use]
    pub fn with_margin(mut self, margin: Duration) -> Self {
        self.margin = margin;
        self
    }
}

impl TokenProvider for RefreshingToken {
    fn token(&self) -> Option<String> {
        let mut cached = self
            .cached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((token, expires)) = cached.as_ref()
            && expires.is_none_or(|at| Instant::now() + self.margin < at)
        {
            return Some(token.clone());
        }
        match (self.fetch)() {
            Ok((token, valid)) => {
                *cached = Some((token.clone(), valid.map(|v| Instant::now() + v)));
                Some(token)
            }
            Err(error) => {
                tracing::warn!(%error, "fetching a bearer token failed");
                *cached = None;
                None
            }
        }
    }

    fn refused(&self, token: &str) {
        let mut cached = self
            .cached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if cached.as_ref().is_some_and(|(t, _)| t == token) {
            *cached = None;
        }
    }
}

/// The credentials a client holds: a bearer token provider (for HTTP Bearer, OAuth 2 and
/// OpenID Connect schemes), API keys (for every API key scheme, or for one scheme by name).
/// [`for_card`](Self::for_card) picks what the card asks for.
#[derive(Clone, Default)]
pub struct Credentials {
    bearer: Option<Arc<dyn TokenProvider>>,
    api_key: Option<String>,
    api_keys: BTreeMap<String, String>,
    bearer_without_schemes: bool,
}

impl fmt::Debug for Credentials {
    /// What is held, never the values.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("bearer", &self.bearer.is_some())
            .field("api_key", &self.api_key.is_some())
            .field("api_keys", &self.api_keys.keys().collect::<Vec<_>>())
            .field("bearer_without_schemes", &self.bearer_without_schemes)
            .finish()
    }
}

impl Credentials {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A fixed bearer token.
    #[must_use]
    pub fn bearer_token(self, token: impl Into<String>) -> Self {
        let token = token.into();
        self.bearer(move || Some(token.clone()))
    }

    /// A bearer token provider (see [`TokenProvider`], [`RefreshingToken`]).
    #[must_use]
    pub fn bearer(mut self, provider: impl TokenProvider) -> Self {
        self.bearer = Some(Arc::new(provider));
        self
    }

    /// An API key for any API key scheme.
    #[must_use]
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// An API key for the scheme of this name only.
    #[must_use]
    pub fn api_key_for(mut self, scheme: impl Into<String>, key: impl Into<String>) -> Self {
        self.api_keys.insert(scheme.into(), key.into());
        self
    }

    /// Whether the bearer token goes to an agent whose card declares no security scheme at
    /// all (default: off, nothing is sent to such an agent). A card that declares schemes gets
    /// only what one of them takes, whatever this says.
    #[must_use]
    pub fn bearer_without_schemes(mut self, on: bool) -> Self {
        self.bearer_without_schemes = on;
        self
    }

    /// The credentials for an agent whose card declares no scheme.
    fn without_schemes(&self) -> CardCredentials {
        let places = match (&self.bearer, self.bearer_without_schemes) {
            (Some(provider), true) => vec![Place::Bearer(provider.clone())],
            _ => Vec::new(),
        };
        CardCredentials {
            schemes: Vec::new(),
            places,
        }
    }

    /// Each credential held where the first declared scheme that takes it says, whatever the
    /// card's `securityRequirements` combine (the server judges whether what is sent is
    /// enough): the bearer token for the first HTTP Bearer, OAuth 2 or OpenID Connect scheme,
    /// the API key for the first API key scheme (one named with
    /// [`api_key_for`](Self::api_key_for) first). A credential no declared scheme takes is not
    /// sent ([`CardCredentials::carries_bearer`], [`CardCredentials::carries_api_key`] tell);
    /// a card that declares no scheme gets nothing (but see
    /// [`bearer_without_schemes`](Self::bearer_without_schemes)). No credential ever goes to
    /// the public card's fetch.
    ///
    /// ```
    /// use a2a_client::credentials::Credentials;
    /// use a2a_types::v1::{AgentCard, ApiKeySecurityScheme, HttpAuthSecurityScheme};
    ///
    /// let card = AgentCard::new("A", "An agent", "1.0.0")
    ///     .with_security_scheme("jwt", HttpAuthSecurityScheme::new("Bearer"))
    ///     .with_security_scheme("key", ApiKeySecurityScheme::new("header", "X-API-Key"));
    /// let both = Credentials::new().bearer_token("t").api_key("k").for_schemes(&card).unwrap();
    /// assert_eq!(both.schemes(), ["jwt", "key"]);
    /// let open = Credentials::new().bearer_token("t").for_schemes(&AgentCard::new("A", "a", "1")).unwrap();
    /// assert!(!open.carries_bearer());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the API key would go in a header whose name, as the card
    /// declares it, is not a header name.
    pub fn for_schemes(&self, card: &AgentCard) -> Result<CardCredentials, Error> {
        if card.security_schemes.is_empty() {
            return Ok(self.without_schemes());
        }
        let mut chosen = CardCredentials {
            schemes: Vec::new(),
            places: Vec::new(),
        };
        if let Some((name, place)) = card
            .security_schemes
            .iter()
            .filter(|(_, scheme)| takes_bearer(scheme))
            .find_map(|(name, scheme)| Some((name, self.place(name, scheme)?)))
        {
            chosen.schemes.push(name.clone());
            chosen.places.push(place);
        }
        let api_keys = || {
            card.security_schemes
                .iter()
                .filter_map(|(name, scheme)| match scheme {
                    SecurityScheme::ApiKey(api) => Some((name, api)),
                    _ => None,
                })
        };
        let first = api_keys()
            .find(|(name, _)| self.api_keys.contains_key(*name))
            .or_else(|| api_keys().next().filter(|_| self.api_key.is_some()));
        if let Some((name, api)) = first {
            if api.location.eq_ignore_ascii_case("header")
                && HeaderName::from_bytes(api.name.as_bytes()).is_err()
            {
                return Err(Error::Config(format!(
                    "the card's API-key header name `{}` is not a header name",
                    api.name
                )));
            }
            let scheme = &card.security_schemes[name];
            if let Some(place) = self.place(name, scheme) {
                chosen.schemes.push(name.clone());
                chosen.places.push(place);
            }
        }
        Ok(chosen)
    }

    /// What to send for one scheme, if these credentials can satisfy it.
    fn place(&self, name: &str, scheme: &SecurityScheme) -> Option<Place> {
        match scheme {
            scheme if takes_bearer(scheme) => self.bearer.clone().map(Place::Bearer),
            SecurityScheme::ApiKey(api) => {
                let key = self.api_keys.get(name).or(self.api_key.as_ref())?.clone();
                match api.location.to_ascii_lowercase().as_str() {
                    "header" => HeaderName::from_bytes(api.name.as_bytes())
                        .ok()
                        .map(|h| Place::Header(h, key)),
                    "query" => Some(Place::Query(api.name.clone(), key)),
                    "cookie" => Some(Place::Cookie(api.name.clone(), key)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The credentials for the first of the card's `securityRequirements` whose every scheme
    /// they can satisfy (without requirements: each declared scheme they can satisfy), as an
    /// [`Interceptor`]. A card that declares no security gets nothing (but see
    /// [`bearer_without_schemes`](Self::bearer_without_schemes)); to send each credential a
    /// declared scheme takes whatever the requirements combine, see
    /// [`for_schemes`](Self::for_schemes).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the requirements when none can be satisfied.
    pub fn for_card(&self, card: &AgentCard) -> Result<CardCredentials, Error> {
        let alternatives: Vec<Vec<&String>> = if card.security_requirements.is_empty() {
            card.security_schemes.keys().map(|k| vec![k]).collect()
        } else {
            card.security_requirements
                .iter()
                .map(|r| r.schemes.keys().collect())
                .collect()
        };
        if alternatives.is_empty() {
            return Ok(self.without_schemes());
        }
        for names in &alternatives {
            let places: Option<Vec<Place>> = names
                .iter()
                .map(|name| {
                    card.security_schemes
                        .get(*name)
                        .and_then(|scheme| self.place(name, scheme))
                })
                .collect();
            if let Some(places) = places {
                return Ok(CardCredentials {
                    schemes: names.iter().map(|n| (*n).clone()).collect(),
                    places,
                });
            }
        }
        let wanted: Vec<String> = alternatives
            .iter()
            .map(|names| {
                names
                    .iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            })
            .collect();
        Err(Error::Config(format!(
            "the agent's card asks for {}, and no credentials given satisfy any of them",
            wanted.join(" or ")
        )))
    }
}

/// Whether the scheme takes a bearer token: HTTP Bearer, OAuth 2, OpenID Connect.
fn takes_bearer(scheme: &SecurityScheme) -> bool {
    match scheme {
        SecurityScheme::HttpAuth(http) => http.scheme.eq_ignore_ascii_case("bearer"),
        SecurityScheme::OAuth2(_) | SecurityScheme::OpenIdConnect(_) => true,
        _ => false,
    }
}

/// Where one credential goes.
#[derive(Clone)]
enum Place {
    Bearer(Arc<dyn TokenProvider>),
    Header(HeaderName, String),
    Query(String, String),
    Cookie(String, String),
}

/// The credentials [`Credentials::for_card`] chose: an [`Interceptor`] that puts them on
/// every request but the public card's fetch, and tells the token provider of a 401.
#[derive(Clone)]
pub struct CardCredentials {
    schemes: Vec<String>,
    places: Vec<Place>,
}

impl fmt::Debug for CardCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CardCredentials")
            .field("schemes", &self.schemes)
            .finish_non_exhaustive()
    }
}

impl CardCredentials {
    /// The names of the card's schemes the credentials go by.
    pub fn schemes(&self) -> &[String] {
        &self.schemes
    }

    /// Whether nothing is sent.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// Whether the bearer token is sent.
    pub fn carries_bearer(&self) -> bool {
        self.places.iter().any(|p| matches!(p, Place::Bearer(_)))
    }

    /// Whether an API key is sent.
    pub fn carries_api_key(&self) -> bool {
        self.places.iter().any(|p| !matches!(p, Place::Bearer(_)))
    }
}

fn sensitive(text: &str) -> Option<HeaderValue> {
    let mut value = HeaderValue::from_str(text).ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// Percent-encoding of a query component.
fn encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

impl Interceptor for CardCredentials {
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        if call.method == CallInfo::AGENT_CARD {
            // The public card is public: no credential goes there.
            return;
        }
        for place in &self.places {
            match place {
                Place::Bearer(provider) => {
                    if let Some(value) = provider
                        .token()
                        .and_then(|t| sensitive(&format!("Bearer {t}")))
                    {
                        request
                            .headers_mut()
                            .insert(http::header::AUTHORIZATION, value);
                    }
                }
                Place::Header(name, key) => {
                    if let Some(value) = sensitive(key) {
                        request.headers_mut().insert(name.clone(), value);
                    }
                }
                Place::Cookie(name, key) => {
                    if let Some(value) = sensitive(&format!("{name}={key}")) {
                        request.headers_mut().append(http::header::COOKIE, value);
                    }
                }
                Place::Query(name, key) => {
                    let uri = request.uri().to_string();
                    let joined = if uri.contains('?') { '&' } else { '?' };
                    if let Ok(uri) =
                        format!("{uri}{joined}{}={}", encode(name), encode(key)).parse()
                    {
                        *request.uri_mut() = uri;
                    }
                }
            }
        }
    }

    fn on_response(
        &self,
        _call: &CallInfo,
        response: &http::response::Parts,
        _body: Option<&Bytes>,
    ) {
        if response.status != http::StatusCode::UNAUTHORIZED {
            return;
        }
        for place in &self.places {
            if let Place::Bearer(provider) = place
                && let Some(token) = provider.token()
            {
                provider.refused(&token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use a2a_types::v1::{
        ApiKeySecurityScheme, HttpAuthSecurityScheme, OpenIdConnectSecurityScheme,
        SecurityRequirement,
    };

    use super::*;

    fn card() -> AgentCard {
        AgentCard::new("A", "a", "1")
            .with_security_scheme("jwt", HttpAuthSecurityScheme::new("Bearer"))
            .with_security_scheme(
                "oidc",
                OpenIdConnectSecurityScheme::new("https://i/.well-known/openid-configuration"),
            )
            .with_security_scheme("key", ApiKeySecurityScheme::new("query", "api key"))
            .with_security_scheme("session", ApiKeySecurityScheme::new("cookie", "sid"))
            .with_security_requirements([
                SecurityRequirement::new()
                    .with_scheme("jwt", Vec::<String>::new())
                    .with_scheme("session", Vec::<String>::new()),
                SecurityRequirement::new().with_scheme("key", Vec::<String>::new()),
                SecurityRequirement::new().with_scheme("oidc", Vec::<String>::new()),
            ])
    }

    fn applied(credentials: &CardCredentials) -> http::Request<Bytes> {
        let mut request = http::Request::post("http://agent/a2a?x=1")
            .body(Bytes::new())
            .unwrap();
        credentials.on_request(&CallInfo::new("SendMessage", 0), &mut request);
        request
    }

    #[test]
    fn the_first_requirement_the_credentials_satisfy() {
        // A key only: the second requirement, in the query.
        let chosen = Credentials::new().api_key("k 1").for_card(&card()).unwrap();
        assert_eq!(chosen.schemes(), ["key"]);
        assert_eq!(
            applied(&chosen).uri(),
            "http://agent/a2a?x=1&api%20key=k%201"
        );
        // A token and the session cookie: the first.
        let chosen = Credentials::new()
            .bearer_token("t")
            .api_key_for("session", "s")
            .for_card(&card())
            .unwrap();
        assert_eq!(chosen.schemes(), ["jwt", "session"]);
        let request = applied(&chosen);
        assert_eq!(request.headers()["authorization"], "Bearer t");
        assert_eq!(request.headers()["cookie"], "sid=s");
        // A token alone: OpenID Connect takes it.
        let chosen = Credentials::new()
            .bearer_token("t")
            .for_card(&card())
            .unwrap();
        assert_eq!(chosen.schemes(), ["oidc"]);
        // Nothing: the error names the alternatives.
        assert_eq!(
            Credentials::new().for_card(&card()).unwrap_err().to_string(),
            Error::Config(
                "the agent's card asks for jwt + session or key or oidc, and no credentials given satisfy any of them"
                    .to_owned()
            )
            .to_string()
        );
        // A card without security: nothing is sent.
        let open = Credentials::new()
            .bearer_token("t")
            .for_card(&AgentCard::new("A", "a", "1"))
            .unwrap();
        assert!(applied(&open).headers().get("authorization").is_none());
    }

    #[test]
    fn each_credential_goes_to_the_first_declared_scheme_that_takes_it() {
        // Both a token and a key: both sent, though no one requirement combines them.
        let chosen = Credentials::new()
            .bearer_token("t")
            .api_key("k 1")
            .for_schemes(&card())
            .unwrap();
        assert_eq!(chosen.schemes(), ["jwt", "key"]);
        assert!(chosen.carries_bearer() && chosen.carries_api_key());
        let request = applied(&chosen);
        assert_eq!(request.headers()["authorization"], "Bearer t");
        assert_eq!(request.uri(), "http://agent/a2a?x=1&api%20key=k%201");
        // A key for a named scheme goes there.
        let chosen = Credentials::new()
            .api_key_for("session", "s")
            .for_schemes(&card())
            .unwrap();
        assert_eq!(chosen.schemes(), ["session"]);
        assert!(!chosen.carries_bearer());
        assert_eq!(applied(&chosen).headers()["cookie"], "sid=s");
        // A token for a card with API keys only: not sent.
        let keys_only = AgentCard::new("A", "a", "1")
            .with_security_scheme("key", ApiKeySecurityScheme::new("header", "X-Key"));
        let chosen = Credentials::new()
            .bearer_token("t")
            .for_schemes(&keys_only)
            .unwrap();
        assert!(chosen.is_empty());
        assert!(applied(&chosen).headers().is_empty());
        // A card without schemes: the token only when asked (also through for_card).
        let open = AgentCard::new("A", "a", "1");
        let lenient = Credentials::new()
            .bearer_token("t")
            .api_key("k")
            .bearer_without_schemes(true);
        for chosen in [
            lenient.for_schemes(&open).unwrap(),
            lenient.for_card(&open).unwrap(),
        ] {
            assert!(chosen.carries_bearer() && !chosen.carries_api_key());
            assert_eq!(applied(&chosen).headers()["authorization"], "Bearer t");
        }
        assert!(
            Credentials::new()
                .bearer_token("t")
                .for_schemes(&open)
                .unwrap()
                .is_empty()
        );
        // A header name the card gets wrong.
        let broken = AgentCard::new("A", "a", "1")
            .with_security_scheme("key", ApiKeySecurityScheme::new("header", "X Key"));
        assert_eq!(
            Credentials::new()
                .api_key("k")
                .for_schemes(&broken)
                .unwrap_err()
                .to_string(),
            Error::Config("the card's API-key header name `X Key` is not a header name".to_owned())
                .to_string()
        );
    }

    #[test]
    fn tokens_are_refreshed_when_refused_or_expired() {
        let fetches = Arc::new(AtomicUsize::new(0));
        let counted = fetches.clone();
        let provider = RefreshingToken::new(move || {
            let n = counted.fetch_add(1, Ordering::SeqCst) + 1;
            Ok((format!("t-{n}"), Some(Duration::from_secs(3600))))
        });
        let chosen = Credentials::new()
            .bearer(provider)
            .for_card(&card())
            .unwrap();
        assert_eq!(applied(&chosen).headers()["authorization"], "Bearer t-1");
        assert_eq!(applied(&chosen).headers()["authorization"], "Bearer t-1");
        let refused = http::Response::builder()
            .status(401)
            .body(())
            .unwrap()
            .into_parts()
            .0;
        chosen.on_response(&CallInfo::new("SendMessage", 0), &refused, None);
        assert_eq!(applied(&chosen).headers()["authorization"], "Bearer t-2");
        // Valid for less than the margin: fetched each time.
        let short = RefreshingToken::new(|| Ok(("s".to_owned(), Some(Duration::from_secs(1)))));
        assert_eq!(short.token().as_deref(), Some("s"));
        let failing = RefreshingToken::new(|| Err("the token server is down".to_owned()));
        assert_eq!(failing.token(), None);
        // The card fetch carries nothing.
        let mut card_request = http::Request::get("http://agent/.well-known/agent-card.json")
            .body(Bytes::new())
            .unwrap();
        chosen.on_request(&CallInfo::new(CallInfo::AGENT_CARD, 0), &mut card_request);
        assert!(card_request.headers().is_empty());
        assert_eq!(fetches.load(Ordering::SeqCst), 2);
    }
}
