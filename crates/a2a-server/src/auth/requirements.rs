//! Combinators: any of several authenticators, all of them, and the card's
//! `securityRequirements` (alternatives, each a set of schemes with scopes).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use a2a_types::v1::AgentCard;

use super::{AuthError, AuthFuture, Authenticator, Principal};

/// Accepts a request that any one of its authenticators accepts; the first to name a
/// principal wins. When none does: a 403 if one of them said 403, else a 401 whose message
/// joins theirs and whose `WWW-Authenticate` lists every challenge. An authenticator that
/// accepts the caller anonymously (`Ok(None)`) makes the whole accept it anonymously when no
/// other names a principal.
///
/// ```
/// use a2a_server::auth::{AnyOf, AuthError, Authenticator, Principal};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let a = |_: &http::request::Parts| Err(AuthError::unauthorized("no token", "Bearer"));
/// let b = |_: &http::request::Parts| Err(AuthError::unauthorized("no key", "ApiKey"));
/// let any = AnyOf::new().or(a).or(b);
/// let head = http::Request::get("/").body(()).unwrap().into_parts().0;
/// let refused = any.authenticate(&head).await.unwrap_err();
/// assert_eq!(refused.message, "no token; no key");
/// assert_eq!(refused.challenge.as_deref(), Some("Bearer, ApiKey"));
/// # });
/// ```
#[derive(Clone, Default)]
pub struct AnyOf(Vec<Arc<dyn Authenticator>>);

impl AnyOf {
    /// None yet: refuses everything with 401.
    pub fn new() -> Self {
        Self::default()
    }

    /// One more alternative.
    #[must_use]
    pub fn or(mut self, authenticator: impl Authenticator) -> Self {
        self.0.push(Arc::new(authenticator));
        self
    }

    /// One more alternative, shared.
    #[must_use]
    pub fn or_shared(mut self, authenticator: Arc<dyn Authenticator>) -> Self {
        self.0.push(authenticator);
        self
    }
}

impl fmt::Debug for AnyOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyOf({} authenticators)", self.0.len())
    }
}

impl Authenticator for AnyOf {
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        Box::pin(async move {
            let mut anonymous = false;
            let mut errors = Vec::new();
            for auth in &self.0 {
                match auth.authenticate(head).await {
                    Ok(Some(principal)) => return Ok(Some(principal)),
                    Ok(None) => anonymous = true,
                    Err(e) => errors.push(e),
                }
            }
            if anonymous {
                return Ok(None);
            }
            Err(combine(errors))
        })
    }
}

/// Several refusals as one: the first 403 if any, else one 401 listing each distinct one.
fn combine(errors: Vec<AuthError>) -> AuthError {
    if let Some(forbidden) = errors.iter().find(|e| !e.is_unauthorized()) {
        return forbidden.clone();
    }
    let mut errors = errors;
    let mut seen = Vec::new();
    errors.retain(|e| {
        let new = !seen.contains(e);
        if new {
            seen.push(e.clone());
        }
        new
    });
    if errors.is_empty() {
        return AuthError::unauthorized("no authentication scheme is configured", "Bearer");
    }
    let message = errors
        .iter()
        .map(|e| e.message.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    let mut challenges: Vec<&str> = Vec::new();
    for challenge in errors.iter().filter_map(|e| e.challenge.as_deref()) {
        if !challenges.contains(&challenge) {
            challenges.push(challenge);
        }
    }
    let mut error = AuthError::unauthorized(message, challenges.join(", "));
    if challenges.is_empty() {
        error.challenge = None;
    }
    error
}

/// Accepts a request that every one of its authenticators accepts (an API key and a bearer
/// token, say). The principal is the first one named, with the scopes and claims of the others
/// added; the first refusal refuses.
///
/// ```
/// use a2a_server::auth::{AllOf, Authenticator, Principal};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let user = |_: &http::request::Parts| Ok(Some(Principal::new("alice").with_scopes(["a"])));
/// let app = |_: &http::request::Parts| Ok(Some(Principal::new("app-1").with_scopes(["b"])));
/// let all = AllOf::new().and(user).and(app);
/// let head = http::Request::get("/").body(()).unwrap().into_parts().0;
/// let principal = all.authenticate(&head).await.unwrap().unwrap();
/// assert_eq!(principal.subject(), "alice");
/// assert!(principal.has_scope("a") && principal.has_scope("b"));
/// # });
/// ```
#[derive(Clone, Default)]
pub struct AllOf(Vec<Arc<dyn Authenticator>>);

impl AllOf {
    /// None yet: accepts everyone anonymously.
    pub fn new() -> Self {
        Self::default()
    }

    /// One more authenticator that must accept.
    #[must_use]
    pub fn and(mut self, authenticator: impl Authenticator) -> Self {
        self.0.push(Arc::new(authenticator));
        self
    }

    /// One more authenticator that must accept, shared.
    #[must_use]
    pub fn and_shared(mut self, authenticator: Arc<dyn Authenticator>) -> Self {
        self.0.push(authenticator);
        self
    }
}

impl fmt::Debug for AllOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AllOf({} authenticators)", self.0.len())
    }
}

impl Authenticator for AllOf {
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        Box::pin(async move {
            let mut principal: Option<Principal> = None;
            for auth in &self.0 {
                if let Some(next) = auth.authenticate(head).await? {
                    principal = Some(match principal {
                        Some(p) => p.merged(&next),
                        None => next,
                    });
                }
            }
            Ok(principal)
        })
    }
}

/// One scheme of a requirement: its authenticator and the scopes the principal must hold.
#[derive(Clone)]
struct Needed {
    scheme: String,
    authenticator: Arc<dyn Authenticator>,
    scopes: Vec<String>,
}

/// The card's `securityRequirements` as an authenticator: any one requirement suffices, and a
/// requirement holds when every scheme it names accepts the request and the principal holds
/// the scopes it lists for that scheme (else 403). A card with schemes but no requirements
/// accepts any one of its schemes. Each scheme is checked by the authenticator given for its
/// name (an [`ApiKeyAuthenticator`](super::ApiKeyAuthenticator), a
/// `auth::jwt::JwtAuthenticator` (feature `jwt`), your own).
///
/// ```
/// use std::sync::Arc;
/// use a2a_server::auth::{ApiKeyAuthenticator, ApiKeyLocation, Authenticator, Principal, SecurityRequirements};
/// use a2a_types::v1::{AgentCard, ApiKeySecurityScheme, SecurityRequirement};
///
/// let card = AgentCard::new("A", "An agent", "1.0.0")
///     .with_security_scheme("key", ApiKeySecurityScheme::new("header", "X-API-Key"))
///     .with_security_requirements([SecurityRequirement::new().with_scheme("key", Vec::<String>::new())]);
/// let keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "X-API-Key").key("k1", Principal::new("alice"));
/// let auth = SecurityRequirements::from_card(&card, [("key", Arc::new(keys) as Arc<dyn Authenticator>)]).unwrap();
/// # let _ = auth;
/// let missing = SecurityRequirements::from_card(&card, Vec::<(&str, Arc<dyn Authenticator>)>::new()).unwrap_err();
/// assert_eq!(missing, "the card's security requirements name the scheme `key`, and no authenticator was given for it");
/// ```
#[derive(Clone)]
pub struct SecurityRequirements {
    alternatives: Vec<Vec<Needed>>,
}

impl fmt::Debug for SecurityRequirements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let alternatives: Vec<Vec<(&str, &[String])>> = self
            .alternatives
            .iter()
            .map(|a| {
                a.iter()
                    .map(|n| (n.scheme.as_str(), n.scopes.as_slice()))
                    .collect()
            })
            .collect();
        f.debug_struct("SecurityRequirements")
            .field("alternatives", &alternatives)
            .finish()
    }
}

impl SecurityRequirements {
    /// The card's requirements, each scheme checked by the authenticator given under its name.
    ///
    /// # Errors
    ///
    /// A requirement names a scheme that has no authenticator, or a scheme the card does not
    /// declare in `securitySchemes`; or the card declares no security at all.
    pub fn from_card<I, S>(card: &AgentCard, schemes: I) -> Result<Self, String>
    where
        I: IntoIterator<Item = (S, Arc<dyn Authenticator>)>,
        S: Into<String>,
    {
        let given: BTreeMap<String, Arc<dyn Authenticator>> =
            schemes.into_iter().map(|(k, v)| (k.into(), v)).collect();
        let requirements: Vec<BTreeMap<String, Vec<String>>> =
            if card.security_requirements.is_empty() {
                card.security_schemes
                    .keys()
                    .map(|name| BTreeMap::from([(name.clone(), Vec::new())]))
                    .collect()
            } else {
                card.security_requirements
                    .iter()
                    .map(|r| {
                        r.schemes
                            .iter()
                            .map(|(k, v)| (k.clone(), v.list.clone()))
                            .collect()
                    })
                    .collect()
            };
        if requirements.is_empty() {
            return Err("the card declares no security schemes".to_owned());
        }
        let mut alternatives = Vec::new();
        for requirement in requirements {
            let mut all = Vec::new();
            for (scheme, scopes) in requirement {
                if !card.security_schemes.contains_key(&scheme) {
                    return Err(format!(
                        "the card's security requirements name the scheme `{scheme}`, which its securitySchemes does not declare"
                    ));
                }
                let Some(authenticator) = given.get(&scheme) else {
                    return Err(format!(
                        "the card's security requirements name the scheme `{scheme}`, and no authenticator was given for it"
                    ));
                };
                all.push(Needed {
                    scheme,
                    authenticator: authenticator.clone(),
                    scopes,
                });
            }
            alternatives.push(all);
        }
        Ok(Self { alternatives })
    }

    /// One requirement: every scheme checked (so that a refusal lists every credential
    /// missing), the principal merged from theirs.
    async fn requirement(
        all: &[Needed],
        head: &http::request::Parts,
    ) -> Result<Option<Principal>, Vec<AuthError>> {
        let mut principal: Option<Principal> = None;
        let mut errors = Vec::new();
        for needed in all {
            let next = match needed.authenticator.authenticate(head).await {
                Ok(next) => next,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            if let Some(missing) = needed
                .scopes
                .iter()
                .find(|s| !next.as_ref().is_some_and(|p| p.has_scope(s)))
            {
                errors.push(AuthError::forbidden(format!(
                    "the scheme `{}` needs the scope `{missing}`",
                    needed.scheme
                )));
                continue;
            }
            if let Some(next) = next {
                principal = Some(match principal {
                    Some(p) => p.merged(&next),
                    None => next,
                });
            }
        }
        if errors.is_empty() {
            Ok(principal)
        } else {
            Err(errors)
        }
    }
}

impl Authenticator for SecurityRequirements {
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        Box::pin(async move {
            let mut anonymous = false;
            let mut errors = Vec::new();
            for all in &self.alternatives {
                match Self::requirement(all, head).await {
                    Ok(Some(principal)) => return Ok(Some(principal)),
                    Ok(None) => anonymous = true,
                    Err(e) => errors.extend(e),
                }
            }
            if anonymous {
                return Ok(None);
            }
            Err(combine(errors))
        })
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{ApiKeySecurityScheme, HttpAuthSecurityScheme, SecurityRequirement};

    use super::*;
    use crate::auth::{ApiKeyAuthenticator, ApiKeyLocation, AuthResult};

    fn head(headers: &[(&str, &str)]) -> http::request::Parts {
        let mut request = http::Request::post("/");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn bearer(head: &http::request::Parts) -> AuthResult {
        match head.headers.get("authorization").map(|v| v.as_bytes()) {
            Some(b"Bearer admin") => Ok(Some(Principal::new("admin").with_scopes(["admin"]))),
            Some(b"Bearer user") => Ok(Some(Principal::new("user"))),
            Some(_) => Err(AuthError::unauthorized(
                "bad token",
                "Bearer error=\"invalid_token\"",
            )),
            None => Err(AuthError::unauthorized("no token", "Bearer")),
        }
    }

    fn requirements() -> SecurityRequirements {
        let card = AgentCard::new("A", "a", "1")
            .with_security_scheme("jwt", HttpAuthSecurityScheme::new("Bearer"))
            .with_security_scheme("key", ApiKeySecurityScheme::new("header", "X-Key"))
            .with_security_requirements([
                SecurityRequirement::new().with_scheme("jwt", ["admin".to_owned()]),
                SecurityRequirement::new()
                    .with_scheme("key", Vec::<String>::new())
                    .with_scheme("jwt", Vec::<String>::new()),
            ]);
        let keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "X-Key")
            .key("k", Principal::new("app").with_scopes(["app"]));
        SecurityRequirements::from_card(
            &card,
            [
                ("jwt", Arc::new(bearer) as Arc<dyn Authenticator>),
                ("key", Arc::new(keys) as Arc<dyn Authenticator>),
            ],
        )
        .unwrap()
    }

    #[tokio::test]
    async fn alternatives_and_scopes() {
        let auth = requirements();
        let admin = auth
            .authenticate(&head(&[("authorization", "Bearer admin")]))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(admin.subject(), "admin");
        // A user token alone lacks `admin`; with the key, the second alternative holds.
        let refused = auth
            .authenticate(&head(&[("authorization", "Bearer user")]))
            .await
            .unwrap_err();
        assert_eq!(refused.message, "the scheme `jwt` needs the scope `admin`");
        assert_eq!(refused.status, http::StatusCode::FORBIDDEN);
        let both = auth
            .authenticate(&head(&[("authorization", "Bearer user"), ("x-key", "k")]))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(both.subject(), "user");
        assert!(both.has_scope("app"));
        let nothing = auth.authenticate(&head(&[])).await.unwrap_err();
        assert_eq!(nothing.message, "no token; the API key `X-Key` is required");
        assert_eq!(
            nothing.challenge.as_deref(),
            Some(r#"Bearer, ApiKey in="header", name="X-Key""#)
        );
        assert_eq!(
            format!("{auth:?}"),
            r#"SecurityRequirements { alternatives: [[("jwt", ["admin"])], [("jwt", []), ("key", [])]] }"#
        );
    }

    #[test]
    fn undeclared_schemes_are_refused() {
        let card = AgentCard::new("A", "a", "1").with_security_requirements([
            SecurityRequirement::new().with_scheme("x", Vec::<String>::new()),
        ]);
        let error = SecurityRequirements::from_card(
            &card,
            [("x", Arc::new(bearer) as Arc<dyn Authenticator>)],
        )
        .unwrap_err();
        assert_eq!(
            error,
            "the card's security requirements name the scheme `x`, which its securitySchemes does not declare"
        );
        assert_eq!(
            SecurityRequirements::from_card(
                &AgentCard::new("A", "a", "1"),
                Vec::<(String, Arc<dyn Authenticator>)>::new()
            )
            .unwrap_err(),
            "the card declares no security schemes"
        );
    }
}
