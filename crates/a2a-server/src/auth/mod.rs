//! Who is calling: the [`Authenticator`] hook, the [`Principal`] it yields, the ready-made
//! authenticators (API keys, bearer JWTs, the card's security requirements), the scopes
//! each operation needs ([`OperationScopes`]) and the scopes each skill needs
//! ([`SkillScopes`]).
//!
//! The service asks its authenticator about every request before any binding reads the body;
//! a refusal is answered in the binding's shape (a JSON-RPC error object, a `google.rpc.Status`,
//! a gRPC status) with HTTP 401 and the `WWW-Authenticate` challenge, or 403. An accepted
//! caller's tasks belong to it: other principals get `TaskNotFoundError` for them, and
//! `ListTasks` shows each caller only its own (see `docs/security.md`).

use std::collections::BTreeSet;
use std::fmt;
use std::future::Future;
use std::hash::{Hash, Hasher};
use std::pin::Pin;
use std::sync::Arc;

use a2a_jsonrpc::A2aError;
use a2a_types::protocol::Operation;
use serde_json::{Map, Value};

mod api_key;
mod requirements;
mod scopes;
mod skills;

#[cfg(feature = "jwt")]
pub mod jwt;
#[cfg(feature = "tls")]
pub mod mtls;

pub use api_key::{ApiKeyAuthenticator, ApiKeyLocation};
pub use requirements::{AllOf, AnyOf, SecurityRequirements};
pub use scopes::OperationScopes;
pub use skills::{DEFAULT_SKILL_KEYS, SkillScopes};

/// The authenticated caller of a request: a subject, the tenant it belongs to (if any), the
/// scopes it was granted and the claims of its credential.
///
/// Two principals are the same caller when subject and tenant are equal; scopes and claims
/// describe this request only. Tasks belong to the caller that created them.
///
/// ```
/// use a2a_server::auth::Principal;
///
/// let alice = Principal::new("alice").with_tenant("acme").with_scopes(["tasks:read"]);
/// assert_eq!((alice.subject(), alice.tenant()), ("alice", Some("acme")));
/// assert!(alice.has_scope("tasks:read"));
/// assert!(!alice.has_scope("tasks:write"));
/// assert_eq!(alice, Principal::new("alice").with_tenant("acme"));
/// assert_ne!(alice, Principal::new("alice"));
/// ```
#[derive(Clone)]
pub struct Principal(Arc<Inner>);

#[derive(Clone)]
struct Inner {
    subject: String,
    tenant: Option<String>,
    scopes: BTreeSet<String>,
    claims: Map<String, Value>,
}

impl Principal {
    /// A principal with this stable identifier (a user id, a client id, a certificate subject),
    /// no tenant, no scopes and no claims.
    pub fn new(subject: impl AsRef<str>) -> Self {
        Self(Arc::new(Inner {
            subject: subject.as_ref().to_owned(),
            tenant: None,
            scopes: BTreeSet::new(),
            claims: Map::new(),
        }))
    }

    /// Sets the tenant the principal belongs to: its calls are scoped to it, and a call that
    /// addresses another tenant is refused with 403.
    #[must_use]
    pub fn with_tenant(mut self, tenant: impl Into<String>) -> Self {
        let tenant = tenant.into();
        Arc::make_mut(&mut self.0).tenant = (!tenant.is_empty()).then_some(tenant);
        self
    }

    /// Adds scopes (OAuth 2.0 scope values such as `tasks:read`).
    #[must_use]
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Arc::make_mut(&mut self.0)
            .scopes
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Sets the claims of the credential (a JWT's payload).
    #[must_use]
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        Arc::make_mut(&mut self.0).claims = claims;
        self
    }

    /// The subject: the stable identifier of the caller.
    pub fn subject(&self) -> &str {
        &self.0.subject
    }

    /// The subject (the name the earlier API gave it).
    pub fn id(&self) -> &str {
        &self.0.subject
    }

    /// The tenant the principal belongs to, if any.
    pub fn tenant(&self) -> Option<&str> {
        self.0.tenant.as_deref()
    }

    /// The scopes granted to this request.
    pub fn scopes(&self) -> &BTreeSet<String> {
        &self.0.scopes
    }

    /// Whether the scope was granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.0.scopes.contains(scope)
    }

    /// The claims of the credential (empty when it has none).
    pub fn claims(&self) -> &Map<String, Value> {
        &self.0.claims
    }

    /// The caller alone (its subject), without its tenant and this request's scopes and
    /// claims: what a task's owner keeps, beside the tenant the task was created under (a
    /// principal's calls are held to its own tenant, so that tenant is the owner's).
    pub fn identity(&self) -> Principal {
        if self.0.tenant.is_none() && self.0.scopes.is_empty() && self.0.claims.is_empty() {
            return self.clone();
        }
        Principal::new(&self.0.subject)
    }

    /// This principal with the scopes and claims of `other` added (the combined principal of
    /// an [`AllOf`]).
    pub(crate) fn merged(mut self, other: &Principal) -> Principal {
        let inner = Arc::make_mut(&mut self.0);
        inner.scopes.extend(other.0.scopes.iter().cloned());
        for (k, v) in &other.0.claims {
            inner.claims.entry(k.clone()).or_insert_with(|| v.clone());
        }
        if inner.tenant.is_none() {
            inner.tenant.clone_from(&other.0.tenant);
        }
        self
    }

    fn key(&self) -> (&str, Option<&str>) {
        (&self.0.subject, self.0.tenant.as_deref())
    }
}

impl PartialEq for Principal {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Principal {}

impl Hash for Principal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for Principal {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Principal {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Debug for Principal {
    /// Subject, tenant and scopes; the claims are left out (they may be personal data).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Principal")
            .field("subject", &self.0.subject)
            .field("tenant", &self.0.tenant)
            .field("scopes", &self.0.scopes)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.subject)
    }
}

/// Why a request was refused by the [`Authenticator`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuthError {
    /// The HTTP status to answer with (401 or 403).
    pub status: http::StatusCode,
    /// A message for the caller.
    pub message: String,
    /// The `WWW-Authenticate` challenge to send with the answer, if any.
    pub challenge: Option<String>,
}

impl AuthError {
    /// 401 Unauthorized with a challenge such as `Bearer` or
    /// `Bearer error="invalid_token", error_description="the token expired"`.
    pub fn unauthorized(message: impl Into<String>, challenge: impl Into<String>) -> Self {
        Self {
            status: http::StatusCode::UNAUTHORIZED,
            message: message.into(),
            challenge: Some(challenge.into()),
        }
    }

    /// 403 Forbidden.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self {
            status: http::StatusCode::FORBIDDEN,
            message: message.into(),
            challenge: None,
        }
    }

    /// Whether this is a 401 (no valid credentials), not a 403.
    pub fn is_unauthorized(&self) -> bool {
        self.status == http::StatusCode::UNAUTHORIZED
    }

    /// The error of the catalogue every binding renders:
    /// [`A2aError::unauthenticated`] for a 401, [`A2aError::permission_denied`] for a 403.
    ///
    /// ```
    /// use a2a_server::auth::AuthError;
    ///
    /// let error = AuthError::unauthorized("a bearer token is required", "Bearer").to_a2a_error();
    /// assert_eq!(error.message(), "unauthenticated: a bearer token is required");
    /// assert_eq!(error.grpc_status(), "UNAUTHENTICATED");
    /// ```
    pub fn to_a2a_error(&self) -> A2aError {
        if self.status == http::StatusCode::FORBIDDEN {
            A2aError::permission_denied(&self.message)
        } else {
            A2aError::unauthenticated(&self.message).with_http_status(self.status.as_u16())
        }
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.status)
    }
}

impl std::error::Error for AuthError {}

/// The outcome of [`Authenticator::authenticate`]: `Ok(None)` for an anonymous caller that is
/// accepted, `Ok(Some(principal))` for an authenticated one, `Err` for a refusal.
pub type AuthResult = Result<Option<Principal>, AuthError>;

/// The future an [`Authenticator`] answers with.
pub type AuthFuture<'a> = Pin<Box<dyn Future<Output = AuthResult> + Send + 'a>>;

/// The authentication hook: looks at a request's head and names the caller. It is async, so
/// that it may fetch keys or ask another service.
///
/// Answer `Ok(None)` for an anonymous caller you accept, `Ok(Some(principal))` for an
/// authenticated one, and `Err` to refuse the request. With an authenticator configured, every
/// task is owned by the principal that created it: other principals see `TaskNotFound`, and
/// `ListTasks` shows each caller only its own tasks.
///
/// A plain function (or closure) of the head is an authenticator:
///
/// ```
/// use a2a_server::auth::{AuthError, Principal};
///
/// let keys = |head: &http::request::Parts| match head.headers.get("x-api-key").map(|v| v.as_bytes()) {
///     Some(b"alice-key") => Ok(Some(Principal::new("alice"))),
///     Some(_) => Err(AuthError::forbidden("unknown API key")),
///     None => Err(AuthError::unauthorized("an API key is required", "ApiKey")),
/// };
/// # fn is_authenticator(_: impl a2a_server::auth::Authenticator) {}
/// # is_authenticator(keys);
/// ```
///
/// One that awaits something implements the trait:
///
/// ```
/// use a2a_server::auth::{AuthFuture, Authenticator, Principal};
///
/// struct Lookup;
///
/// impl Authenticator for Lookup {
///     fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
///         Box::pin(async move {
///             tokio::task::yield_now().await; // a database or a key server
///             Ok(head.headers.get("x-user").and_then(|v| v.to_str().ok()).map(Principal::new))
///         })
///     }
/// }
/// ```
pub trait Authenticator: Send + Sync + 'static {
    /// Names the caller of the request whose head this is.
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a>;
}

impl<F> Authenticator for F
where
    F: Fn(&http::request::Parts) -> AuthResult + Send + Sync + 'static,
{
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        let result = self(head);
        Box::pin(std::future::ready(result))
    }
}

/// What the handler checks about a caller, besides task ownership: the scopes each operation
/// needs, and who may read the extended card (and which one).
#[derive(Clone, Default)]
pub(crate) struct AccessPolicy {
    pub(crate) scopes: OperationScopes,
    /// The scopes each skill needs (the card's skill requirements are added when the handler
    /// is built).
    pub(crate) skills: SkillScopes,
    /// `GetExtendedAgentCard` needs an authenticated caller (on when the service has an
    /// authenticator).
    pub(crate) extended_card_needs_principal: bool,
    pub(crate) extended_card_for: Option<ExtendedCardFn>,
}

/// The extended card for a principal (see
/// [`ServiceBuilder::extended_card_for`](crate::ServiceBuilder::extended_card_for)).
pub(crate) type ExtendedCardFn =
    Arc<dyn Fn(&Principal) -> Option<a2a_types::v1::AgentCard> + Send + Sync>;

impl AccessPolicy {
    /// Whether the call may run this operation: its principal holds the scopes the operation
    /// needs, and addresses its own tenant.
    pub(crate) fn check(
        &self,
        operation: Operation,
        principal: Option<&Principal>,
        tenant: Option<&str>,
    ) -> Result<(), A2aError> {
        if let (Some(p), Some(mine), Some(asked)) = (
            principal,
            principal.and_then(Principal::tenant),
            tenant.filter(|t| !t.is_empty()),
        ) && mine != asked
        {
            return Err(A2aError::permission_denied(format!(
                "`{}` belongs to tenant `{mine}` and cannot call tenant `{asked}`",
                p.subject()
            )));
        }
        self.scopes.check(operation, principal)
    }
}

impl fmt::Debug for AccessPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessPolicy")
            .field("scopes", &self.scopes)
            .field("skills", &self.skills)
            .field(
                "extended_card_needs_principal",
                &self.extended_card_needs_principal,
            )
            .field("extended_card_for", &self.extended_card_for.is_some())
            .finish()
    }
}

/// Compares two byte strings in time that depends on their lengths only, not on where they
/// differ (for API keys).
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// Parses the `Authorization: Bearer <token>` header; `None` without one.
#[cfg_attr(not(feature = "jwt"), allow(dead_code))]
pub(crate) fn bearer_token(head: &http::request::Parts) -> Option<Result<&str, AuthError>> {
    let value = head.headers.get(http::header::AUTHORIZATION)?;
    let Ok(value) = value.to_str() else {
        return Some(Err(AuthError::unauthorized(
            "the Authorization header is not ASCII",
            "Bearer error=\"invalid_request\"",
        )));
    };
    let (scheme, token) = value.trim().split_once(' ').unwrap_or((value.trim(), ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = token.trim();
    if token.is_empty() {
        return Some(Err(AuthError::unauthorized(
            "the Authorization header has no bearer token",
            "Bearer error=\"invalid_request\"",
        )));
    }
    Some(Ok(token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_time_compare() {
        assert!(constant_time_eq(b"s3cret", b"s3cret"));
        assert!(!constant_time_eq(b"s3cret", b"s3cres"));
        assert!(!constant_time_eq(b"s3cret", b"s3cret!"));
        assert!(constant_time_eq(b"", b""));
    }

    #[test]
    fn principals_compare_by_subject_and_tenant() {
        let a = Principal::new("a")
            .with_scopes(["x"])
            .with_claims(Map::from_iter([("k".to_owned(), Value::from(1))]));
        assert_eq!(a, Principal::new("a"));
        assert!(a.identity().scopes().is_empty() && a.identity().claims().is_empty());
        assert_eq!(
            Principal::new("a").with_tenant("t").identity().tenant(),
            None
        );
        assert_ne!(a, Principal::new("a").with_tenant("t"));
        assert_eq!(Principal::new("a").with_tenant("").tenant(), None);
        assert_eq!(
            format!("{a:?}"),
            r#"Principal { subject: "a", tenant: None, scopes: {"x"}, .. }"#
        );
    }

    #[test]
    fn tenant_of_the_principal_is_enforced() {
        let policy = AccessPolicy::default();
        let p = Principal::new("bob").with_tenant("acme");
        assert!(
            policy
                .check(Operation::GetTask, Some(&p), Some("acme"))
                .is_ok()
        );
        assert!(policy.check(Operation::GetTask, Some(&p), None).is_ok());
        let refused = policy
            .check(Operation::GetTask, Some(&p), Some("globex"))
            .unwrap_err();
        assert_eq!(
            refused.message(),
            "permission denied: `bob` belongs to tenant `acme` and cannot call tenant `globex`"
        );
        assert_eq!(refused.http_status(), 403);
    }

    fn head(headers: &[(&str, &str)]) -> http::request::Parts {
        let mut request = http::Request::post("/");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn bearer_tokens() {
        assert!(bearer_token(&head(&[])).is_none());
        assert!(bearer_token(&head(&[("authorization", "Basic eDp5")])).is_none());
        assert_eq!(
            bearer_token(&head(&[("authorization", "bearer  abc ")])).map(Result::unwrap),
            Some("abc")
        );
        assert_eq!(
            bearer_token(&head(&[("authorization", "Bearer")]))
                .unwrap()
                .unwrap_err()
                .message,
            "the Authorization header has no bearer token"
        );
    }
}
