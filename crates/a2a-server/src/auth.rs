//! Who is calling: the optional authentication hook and the principal it yields.

use std::fmt;
use std::sync::Arc;

/// The authenticated caller of a request. Tasks belong to the principal that created them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Principal(Arc<str>);

impl Principal {
    /// A principal with this stable identifier (a user id, a client id, a certificate subject).
    pub fn new(id: impl AsRef<str>) -> Self {
        Self(Arc::from(id.as_ref()))
    }

    /// The identifier.
    pub fn id(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
    /// The `WWW-Authenticate` challenge to send with a 401, if any.
    pub challenge: Option<String>,
}

impl AuthError {
    /// 401 Unauthorized with a challenge such as `Bearer`.
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
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.status)
    }
}

impl std::error::Error for AuthError {}

/// The authentication hook: looks at a request's head and names the caller.
///
/// Return `Ok(None)` for an anonymous caller you accept, `Ok(Some(principal))` for an
/// authenticated one, and `Err` to refuse the request. With an authenticator configured, every
/// task is owned by the principal that created it: other principals see `TaskNotFound`, and
/// `ListTasks` shows each caller only its own tasks.
///
/// ```
/// use a2a_server::{AuthError, Authenticator, Principal};
///
/// struct ApiKeys;
///
/// impl Authenticator for ApiKeys {
///     fn authenticate(&self, head: &http::request::Parts) -> Result<Option<Principal>, AuthError> {
///         match head.headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
///             Some("alice-key") => Ok(Some(Principal::new("alice"))),
///             Some(_) => Err(AuthError::forbidden("unknown API key")),
///             None => Err(AuthError::unauthorized("an API key is required", "ApiKey")),
///         }
///     }
/// }
/// ```
pub trait Authenticator: Send + Sync + 'static {
    /// Names the caller of the request whose head this is.
    fn authenticate(&self, head: &http::request::Parts) -> Result<Option<Principal>, AuthError>;
}

impl<F> Authenticator for F
where
    F: Fn(&http::request::Parts) -> Result<Option<Principal>, AuthError> + Send + Sync + 'static,
{
    fn authenticate(&self, head: &http::request::Parts) -> Result<Option<Principal>, AuthError> {
        self(head)
    }
}
