//! API keys in a header, a query parameter or a cookie.

use std::fmt;

use a2a_types::v1::ApiKeySecurityScheme;

use super::{AuthError, AuthFuture, Authenticator, Principal, constant_time_eq};

/// Where an API key travels (the `location` of an `APIKeySecurityScheme`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ApiKeyLocation {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

impl ApiKeyLocation {
    /// The location a card names (`header`, `query`, `cookie`, in any case).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "header" => Some(Self::Header),
            "query" => Some(Self::Query),
            "cookie" => Some(Self::Cookie),
            _ => None,
        }
    }
}

/// Accepts requests that carry one of its API keys, as an `APIKeySecurityScheme` describes:
/// in the named header, query parameter or cookie. Each key names a principal. Keys are
/// compared in constant time, and every key is compared, so the answer's timing does not say
/// which key was close.
///
/// A request without the key gets 401 with the challenge `ApiKey in="header", name="X-API-Key"`;
/// one with a wrong key gets 401 as well (the key is not valid, which says nothing of who the
/// caller is).
///
/// ```
/// use a2a_server::auth::{ApiKeyAuthenticator, ApiKeyLocation, Authenticator, Principal};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "X-API-Key")
///     .key("k-alice", Principal::new("alice"));
/// let head = http::Request::post("/").header("x-api-key", "k-alice").body(()).unwrap().into_parts().0;
/// assert_eq!(keys.authenticate(&head).await.unwrap().unwrap().subject(), "alice");
/// let head = http::Request::post("/").body(()).unwrap().into_parts().0;
/// let refused = keys.authenticate(&head).await.unwrap_err();
/// assert_eq!(refused.challenge.as_deref(), Some(r#"ApiKey in="header", name="X-API-Key""#));
/// # });
/// ```
#[derive(Clone)]
pub struct ApiKeyAuthenticator {
    location: ApiKeyLocation,
    name: String,
    keys: Vec<(Vec<u8>, Principal)>,
}

impl fmt::Debug for ApiKeyAuthenticator {
    /// The location and name, and how many keys (never the keys).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiKeyAuthenticator")
            .field("location", &self.location)
            .field("name", &self.name)
            .field("keys", &self.keys.len())
            .finish()
    }
}

impl ApiKeyAuthenticator {
    /// An authenticator without keys (it refuses everything until keys are added) reading the
    /// key from this location under this name.
    pub fn new(location: ApiKeyLocation, name: impl Into<String>) -> Self {
        Self {
            location,
            name: name.into(),
            keys: Vec::new(),
        }
    }

    /// An authenticator for the card's scheme.
    ///
    /// # Errors
    ///
    /// The scheme's `location` is none of `header`, `query`, `cookie`, or its `name` is empty.
    pub fn for_scheme(scheme: &ApiKeySecurityScheme) -> Result<Self, String> {
        let location = ApiKeyLocation::from_name(&scheme.location).ok_or_else(|| {
            format!(
                "API key location `{}` is none of header, query, cookie",
                scheme.location
            )
        })?;
        if scheme.name.trim().is_empty() {
            return Err("the API key scheme has no name".to_owned());
        }
        Ok(Self::new(location, scheme.name.trim()))
    }

    /// Accepts this key as this principal.
    #[must_use]
    pub fn key(mut self, key: impl AsRef<[u8]>, principal: Principal) -> Self {
        self.keys.push((key.as_ref().to_vec(), principal));
        self
    }

    fn challenge(&self) -> String {
        let location = match self.location {
            ApiKeyLocation::Header => "header",
            ApiKeyLocation::Query => "query",
            ApiKeyLocation::Cookie => "cookie",
        };
        format!("ApiKey in=\"{location}\", name=\"{}\"", self.name)
    }

    /// The key the request carries, if any.
    fn presented(&self, head: &http::request::Parts) -> Option<Vec<u8>> {
        match self.location {
            ApiKeyLocation::Header => head
                .headers
                .get(self.name.as_str())
                .map(|v| v.as_bytes().trim_ascii().to_vec()),
            ApiKeyLocation::Query => head.uri.query()?.split('&').find_map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (percent_decode(k) == self.name.as_bytes()).then(|| percent_decode(v))
            }),
            ApiKeyLocation::Cookie => head
                .headers
                .get_all(http::header::COOKIE)
                .iter()
                .flat_map(|v| v.as_bytes().split(|b| *b == b';'))
                .find_map(|pair| {
                    let pair = pair.trim_ascii();
                    let at = pair.iter().position(|b| *b == b'=')?;
                    (pair[..at].trim_ascii() == self.name.as_bytes())
                        .then(|| pair[at + 1..].trim_ascii().to_vec())
                }),
        }
    }

    fn check(&self, head: &http::request::Parts) -> Result<Option<Principal>, AuthError> {
        let Some(presented) = self.presented(head).filter(|k| !k.is_empty()) else {
            return Err(AuthError::unauthorized(
                format!("the API key `{}` is required", self.name),
                self.challenge(),
            ));
        };
        // Every key is compared, whichever matches.
        let mut found = None;
        for (key, principal) in &self.keys {
            if constant_time_eq(key, &presented) && found.is_none() {
                found = Some(principal.clone());
            }
        }
        match found {
            Some(principal) => Ok(Some(principal)),
            None => Err(AuthError::unauthorized(
                format!("the API key `{}` is not valid", self.name),
                self.challenge(),
            )),
        }
    }
}

impl Authenticator for ApiKeyAuthenticator {
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        Box::pin(std::future::ready(self.check(head)))
    }
}

/// `%XX` and `+` decoded; bytes that are no escape are kept.
fn percent_decode(s: &str) -> Vec<u8> {
    a2a_types::protocol::rest::percent_decode(s, true).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(uri: &str, headers: &[(&str, &str)]) -> http::request::Parts {
        let mut request = http::Request::post(uri);
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn keys(location: ApiKeyLocation) -> ApiKeyAuthenticator {
        ApiKeyAuthenticator::new(location, "api_key")
            .key("k-a", Principal::new("a"))
            .key("k b", Principal::new("b"))
    }

    #[test]
    fn every_location() {
        let header = keys(ApiKeyLocation::Header);
        assert_eq!(
            header.check(&head("/", &[("api_key", " k-a ")])).unwrap(),
            Some(Principal::new("a"))
        );
        let query = keys(ApiKeyLocation::Query);
        assert_eq!(
            query.check(&head("/x?y=1&api_key=k%20b", &[])).unwrap(),
            Some(Principal::new("b"))
        );
        let cookie = keys(ApiKeyLocation::Cookie);
        assert_eq!(
            cookie
                .check(&head("/", &[("cookie", "x=1; api_key=k-a")]))
                .unwrap(),
            Some(Principal::new("a"))
        );
    }

    #[test]
    fn missing_and_wrong_keys() {
        let query = keys(ApiKeyLocation::Query);
        let missing = query.check(&head("/?api_key=", &[])).unwrap_err();
        assert_eq!(missing.message, "the API key `api_key` is required");
        assert_eq!(
            missing.challenge.as_deref(),
            Some(r#"ApiKey in="query", name="api_key""#)
        );
        let wrong = query.check(&head("/?api_key=k-", &[])).unwrap_err();
        assert_eq!(wrong.message, "the API key `api_key` is not valid");
        assert_eq!(wrong.status, http::StatusCode::UNAUTHORIZED);
    }

    #[test]
    fn schemes_from_the_card() {
        let scheme = ApiKeySecurityScheme::new("Cookie", "session");
        let auth = ApiKeyAuthenticator::for_scheme(&scheme).unwrap();
        assert_eq!(auth.location, ApiKeyLocation::Cookie);
        assert_eq!(
            ApiKeyAuthenticator::for_scheme(&ApiKeySecurityScheme::new("body", "k")).unwrap_err(),
            "API key location `body` is none of header, query, cookie"
        );
        assert_eq!(percent_decode("a%2"), b"a%2");
        assert_eq!(percent_decode("%41+%zz"), b"A %zz");
    }
}
