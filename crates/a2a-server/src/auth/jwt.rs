//! Bearer JWTs (RFC 7519) checked against a JSON Web Key Set: fetched from a JWKS URL or
//! found through OpenID Connect discovery, cached, and fetched again when a token names a key
//! the cache does not hold (key rotation). Feature `jwt`.
//!
//! ```no_run
//! use a2a_server::auth::jwt::{JwtAuthenticator, JwtConfig, KeySource};
//!
//! # async fn run() {
//! let jwt = JwtAuthenticator::new(
//!     KeySource::OidcIssuer("https://login.example.com".into()),
//!     JwtConfig::new().with_audience("https://agent.example.com"),
//! )
//! .unwrap();
//! # let _ = jwt;
//! # }
//! ```

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use a2a_jose::{Algorithm, Jwks};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Empty, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Map, Value};

use super::{AuthError, AuthFuture, Authenticator, Principal, bearer_token};

/// Where the keys that sign tokens come from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeySource {
    /// A fixed key set (tests, or keys distributed out of band).
    Static(Jwks),
    /// A JWKS document at this URL.
    JwksUrl(String),
    /// An OpenID Connect issuer: its `{issuer}/.well-known/openid-configuration` names the
    /// `jwks_uri`. Tokens must then carry `iss` equal to the issuer (unless
    /// [`JwtConfig::issuer`] says otherwise).
    OidcIssuer(String),
}

/// What a token must satisfy, and how keys are fetched.
///
/// | setting | default |
/// |---|---|
/// | `issuer` | none (any `iss`); the issuer of a [`KeySource::OidcIssuer`] |
/// | `audiences` | none (any `aud`); set one for a server reachable by tokens meant for others |
/// | `leeway` | 60 s, on `exp` and `nbf` |
/// | `require_exp` | true: a token without `exp` is refused |
/// | `algorithms` | ES256, EdDSA, RS256 (never `none`, never HMAC) |
/// | `tenant_claim` | none |
/// | `fetch_timeout` | 5 s per key fetch |
/// | `max_jwks_bytes` | 256 KiB per fetched document |
/// | `keys_max_age` | 1 h: keys are fetched again after it |
/// | `min_refresh_interval` | 30 s: an unknown `kid` fetches the keys at most this often |
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct JwtConfig {
    /// The `iss` a token must carry.
    pub issuer: Option<String>,
    /// The `aud` values one of which a token must carry (none: any).
    pub audiences: Vec<String>,
    /// Clock skew allowed on `exp` and `nbf`.
    pub leeway: Duration,
    /// Whether a token must carry `exp`.
    pub require_exp: bool,
    /// The signature algorithms accepted.
    pub algorithms: Vec<Algorithm>,
    /// The claim that names the principal's tenant, if any.
    pub tenant_claim: Option<String>,
    /// How long one key fetch may take.
    pub fetch_timeout: Duration,
    /// The largest key document (JWKS, OpenID configuration) read.
    pub max_jwks_bytes: usize,
    /// How long fetched keys are used before they are fetched again.
    pub keys_max_age: Duration,
    /// The least time between two fetches caused by unknown key ids.
    pub min_refresh_interval: Duration,
}

impl Default for JwtConfig {
    fn default() -> Self {
        Self {
            issuer: None,
            audiences: Vec::new(),
            leeway: Duration::from_secs(60),
            require_exp: true,
            algorithms: vec![Algorithm::Es256, Algorithm::EdDsa, Algorithm::Rs256],
            tenant_claim: None,
            fetch_timeout: Duration::from_secs(5),
            max_jwks_bytes: 256 * 1024,
            keys_max_age: Duration::from_secs(3600),
            min_refresh_interval: Duration::from_secs(30),
        }
    }
}

impl JwtConfig {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Tokens must carry this `iss`.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// Tokens must carry this `aud` (or another one added).
    #[must_use]
    pub fn with_audience(mut self, audience: impl Into<String>) -> Self {
        self.audiences.push(audience.into());
        self
    }

    /// The clock skew allowed on `exp` and `nbf`.
    #[must_use]
    pub fn with_leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The algorithms accepted.
    #[must_use]
    pub fn with_algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The claim naming the principal's tenant.
    #[must_use]
    pub fn with_tenant_claim(mut self, claim: impl Into<String>) -> Self {
        self.tenant_claim = Some(claim.into());
        self
    }

    /// The least time between two fetches caused by unknown key ids.
    #[must_use]
    pub fn with_min_refresh_interval(mut self, interval: Duration) -> Self {
        self.min_refresh_interval = interval;
        self
    }

    /// How long one key fetch may take.
    #[must_use]
    pub fn with_fetch_timeout(mut self, timeout: Duration) -> Self {
        self.fetch_timeout = timeout;
        self
    }

    /// The largest key document read.
    #[must_use]
    pub fn with_max_jwks_bytes(mut self, bytes: usize) -> Self {
        self.max_jwks_bytes = bytes;
        self
    }
}

type HttpClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Empty<Bytes>>;

/// Accepts requests with `Authorization: Bearer <JWT>` whose signature verifies with a key of
/// the [`KeySource`] and whose claims hold ([`JwtConfig`]): `exp` and `nbf` (with leeway),
/// `iss`, `aud`, an allowed `alg` (never `none`), a `sub`. The principal is `sub`, with the
/// scopes of `scope` (space-separated) or `scp` (a list), the tenant of
/// [`JwtConfig::tenant_claim`], and every claim.
///
/// A request without a bearer token gets 401 with `WWW-Authenticate: Bearer`; one whose token
/// fails gets 401 with `Bearer error="invalid_token", error_description="..."` (RFC 6750).
pub struct JwtAuthenticator {
    config: JwtConfig,
    keys: KeyCache,
}

impl fmt::Debug for JwtAuthenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtAuthenticator")
            .field("source", &self.keys.source)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl JwtAuthenticator {
    /// An authenticator for tokens signed by keys of `source`. Keys are fetched with the first
    /// request, not here.
    ///
    /// # Errors
    ///
    /// The TLS setup of the key client fails, or the config allows no algorithm.
    pub fn new(source: KeySource, mut config: JwtConfig) -> Result<Self, String> {
        if config.algorithms.is_empty() {
            return Err("the JWT authenticator allows no signature algorithm".to_owned());
        }
        if let KeySource::OidcIssuer(issuer) = &source
            && config.issuer.is_none()
        {
            config.issuer = Some(issuer.clone());
        }
        let mut http = HttpConnector::new();
        http.set_connect_timeout(Some(config.fetch_timeout));
        http.enforce_http(false);
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .map_err(|err| format!("cannot set up TLS for key fetches: {err}"))?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new()).build(connector);
        let fixed = match &source {
            KeySource::Static(jwks) => Some(Arc::new(jwks.clone())),
            _ => None,
        };
        Ok(Self {
            keys: KeyCache {
                source,
                client,
                state: Mutex::new(CacheState {
                    jwks: fixed,
                    fetched: None,
                    attempted: None,
                }),
                refresh: tokio::sync::Mutex::new(()),
            },
            config,
        })
    }

    async fn check(&self, head: &http::request::Parts) -> Result<Option<Principal>, AuthError> {
        let token = match bearer_token(head) {
            None => {
                return Err(AuthError::unauthorized(
                    "a bearer token is required",
                    "Bearer",
                ));
            }
            Some(token) => token?,
        };
        let (kid, alg) = peek_header(token).map_err(invalid)?;
        if alg == "none" {
            return Err(invalid("`alg: none` tokens are refused".to_owned()));
        }
        if !self.config.algorithms.iter().any(|a| a.name() == alg) {
            let allowed: Vec<&str> = self.config.algorithms.iter().map(|a| a.name()).collect();
            return Err(invalid(format!(
                "the token is signed `{alg}`; accepted are {}",
                allowed.join(", ")
            )));
        }
        let jwks = self
            .keys
            .keys_for(kid.as_deref(), &self.config)
            .await
            .map_err(invalid)?;
        let verified = a2a_jose::verify(token, &jwks).map_err(|e| invalid(e.to_string()))?;
        let claims: Map<String, Value> = serde_json::from_slice(&verified.payload)
            .map_err(|e| invalid(format!("the claims are not a JSON object: {e}")))?;
        self.principal(claims).map_err(invalid).map(Some)
    }

    /// The principal of claims that hold.
    fn principal(&self, claims: Map<String, Value>) -> Result<Principal, String> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let leeway = self.config.leeway.as_secs_f64();
        let number = |name: &str| -> Result<Option<f64>, String> {
            match claims.get(name) {
                None => Ok(None),
                Some(v) => v
                    .as_f64()
                    .map(Some)
                    .ok_or_else(|| format!("the claim `{name}` is not a number")),
            }
        };
        match number("exp")? {
            Some(exp) if now > exp + leeway => return Err("the token expired".to_owned()),
            None if self.config.require_exp => {
                return Err("the token has no `exp` claim".to_owned());
            }
            _ => {}
        }
        if let Some(nbf) = number("nbf")?
            && now + leeway < nbf
        {
            return Err("the token is not valid yet (`nbf`)".to_owned());
        }
        if let Some(issuer) = &self.config.issuer {
            match claims.get("iss").and_then(Value::as_str) {
                Some(iss) if iss == issuer => {}
                Some(iss) => {
                    return Err(format!("the token's issuer `{iss}` is not `{issuer}`"));
                }
                None => return Err("the token has no `iss` claim".to_owned()),
            }
        }
        if !self.config.audiences.is_empty() {
            let auds: Vec<&str> = match claims.get("aud") {
                Some(Value::String(s)) => vec![s.as_str()],
                Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !auds
                .iter()
                .any(|a| self.config.audiences.iter().any(|want| want == a))
            {
                return Err(format!(
                    "the token is not meant for this server (aud {auds:?}, expected one of {:?})",
                    self.config.audiences
                ));
            }
        }
        let subject = claims
            .get("sub")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or("the token has no `sub` claim")?;
        let mut scopes: Vec<String> = match claims.get("scope") {
            Some(Value::String(s)) => s.split_whitespace().map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        match claims.get("scp") {
            Some(Value::Array(a)) => {
                scopes.extend(a.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            Some(Value::String(s)) => scopes.extend(s.split_whitespace().map(str::to_owned)),
            _ => {}
        }
        let mut principal = Principal::new(subject).with_scopes(scopes);
        if let Some(tenant) = self
            .config
            .tenant_claim
            .as_deref()
            .and_then(|c| claims.get(c))
            .and_then(Value::as_str)
        {
            principal = principal.with_tenant(tenant);
        }
        Ok(principal.with_claims(claims))
    }
}

impl Authenticator for JwtAuthenticator {
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        Box::pin(self.check(head))
    }
}

/// 401 `invalid_token` (RFC 6750 §3.1) with the reason.
fn invalid(why: String) -> AuthError {
    let description: String = why
        .chars()
        .map(|c| if c == '"' || c == '\\' { '\'' } else { c })
        .filter(|c| (' '..='~').contains(c))
        .collect();
    AuthError::unauthorized(
        format!("invalid bearer token: {why}"),
        format!("Bearer error=\"invalid_token\", error_description=\"{description}\""),
    )
}

/// The `kid` and `alg` of a compact JWS's header, before anything is verified.
fn peek_header(token: &str) -> Result<(Option<String>, String), String> {
    let header = token.split('.').next().unwrap_or_default();
    let bytes = a2a_jose::b64::decode(header)
        .map_err(|e| format!("the token's header is not base64url: {e}"))?;
    let header: a2a_jose::Header = serde_json::from_slice(&bytes)
        .map_err(|e| format!("the token's header is not a JOSE header: {e}"))?;
    Ok((header.kid, header.alg))
}

struct CacheState {
    jwks: Option<Arc<Jwks>>,
    /// When `jwks` was fetched (`None` for static keys).
    fetched: Option<Instant>,
    /// When a fetch was last tried.
    attempted: Option<Instant>,
}

/// The key set, fetched lazily, again after `keys_max_age`, and again (at most every
/// `min_refresh_interval`) when a token names a key it does not hold.
struct KeyCache {
    source: KeySource,
    client: HttpClient,
    state: Mutex<CacheState>,
    /// One fetch at a time.
    refresh: tokio::sync::Mutex<()>,
}

impl KeyCache {
    fn snapshot(&self) -> (Option<Arc<Jwks>>, Option<Instant>, Option<Instant>) {
        let state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (state.jwks.clone(), state.fetched, state.attempted)
    }

    /// A key set that holds `kid` if any can: the cached one, else a fresh one.
    async fn keys_for(&self, kid: Option<&str>, config: &JwtConfig) -> Result<Arc<Jwks>, String> {
        if matches!(self.source, KeySource::Static(_)) {
            let (jwks, _, _) = self.snapshot();
            return jwks.ok_or_else(|| "no keys".to_owned());
        }
        let usable = |jwks: &Option<Arc<Jwks>>, fetched: Option<Instant>| {
            jwks.clone().filter(|j| {
                fetched.is_some_and(|at| at.elapsed() < config.keys_max_age)
                    && kid.is_none_or(|kid| j.find(kid).is_some())
            })
        };
        let (jwks, fetched, _) = self.snapshot();
        if let Some(jwks) = usable(&jwks, fetched) {
            return Ok(jwks);
        }
        let _one = self.refresh.lock().await;
        // Another request may have fetched meanwhile.
        let (jwks, fetched, attempted) = self.snapshot();
        if let Some(jwks) = usable(&jwks, fetched) {
            return Ok(jwks);
        }
        let stale = fetched.is_none_or(|at| at.elapsed() >= config.keys_max_age);
        let too_soon = attempted.is_some_and(|at| at.elapsed() < config.min_refresh_interval);
        if too_soon && !stale {
            // An unknown kid, and the keys were fetched a moment ago: no fetch storm.
            return jwks.ok_or_else(|| "the signing keys are not available".to_owned());
        }
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .attempted = Some(Instant::now());
        match self.fetch(config).await {
            Ok(fresh) => {
                let fresh = Arc::new(fresh);
                let mut state = self
                    .state
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                state.jwks = Some(fresh.clone());
                state.fetched = Some(Instant::now());
                Ok(fresh)
            }
            Err(err) => {
                tracing::warn!(source = ?self.source, error = %err, "fetching the JWT signing keys failed");
                // Stale keys are better than none while the key server is down.
                jwks.ok_or_else(|| format!("the signing keys could not be fetched: {err}"))
            }
        }
    }

    async fn fetch(&self, config: &JwtConfig) -> Result<Jwks, String> {
        let url = match &self.source {
            KeySource::Static(jwks) => return Ok(jwks.clone()),
            KeySource::JwksUrl(url) => url.clone(),
            KeySource::OidcIssuer(issuer) => {
                let discovery = format!(
                    "{}/.well-known/openid-configuration",
                    issuer.trim_end_matches('/')
                );
                let document: Value = self.get_json(&discovery, config).await?;
                if document.get("issuer").and_then(Value::as_str) != Some(issuer.as_str()) {
                    return Err(format!(
                        "{discovery} names the issuer {}, not `{issuer}`",
                        document.get("issuer").unwrap_or(&Value::Null)
                    ));
                }
                document
                    .get("jwks_uri")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{discovery} has no `jwks_uri`"))?
                    .to_owned()
            }
        };
        self.get_json(&url, config).await
    }

    /// GETs a JSON document within the fetch timeout and size cap.
    async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        url: &str,
        config: &JwtConfig,
    ) -> Result<T, String> {
        let uri: http::Uri = url
            .parse()
            .map_err(|e| format!("`{url}` is not a URL: {e}"))?;
        let request = http::Request::get(uri)
            .header(http::header::ACCEPT, "application/json")
            .body(Empty::new())
            .map_err(|e| format!("`{url}`: {e}"))?;
        let work = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| format!("GET {url}: {e}"))?;
            if !response.status().is_success() {
                return Err(format!("GET {url}: HTTP {}", response.status()));
            }
            let body = Limited::new(response.into_body(), config.max_jwks_bytes)
                .collect()
                .await
                .map_err(|e| {
                    format!(
                        "GET {url}: {e} (the limit is {} bytes)",
                        config.max_jwks_bytes
                    )
                })?
                .to_bytes();
            serde_json::from_slice(&body)
                .map_err(|e| format!("GET {url}: not the expected JSON: {e}"))
        };
        tokio::time::timeout(config.fetch_timeout, work)
            .await
            .map_err(|_| {
                format!(
                    "GET {url} did not answer within {} ms",
                    config.fetch_timeout.as_millis()
                )
            })?
    }
}
