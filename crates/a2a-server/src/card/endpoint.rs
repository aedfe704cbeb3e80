//! The card at its well-known paths (`/.well-known/agent-card.json`, and the 0.1/0.2
//! `/.well-known/agent.json`), with `Cache-Control`, `ETag` and `Last-Modified`, answering
//! conditional requests with 304 (spec 1.0 §8.6).
//!
//! One document serves every version ([`union_json`]): the 1.0 card, with the fields a 0.3
//! (or 0.2) and a 0.1 reader look for merged in where the 1.0 document has no such key, as the
//! Python SDK 1.3 serves it. `docs/versions.md` lists what each version's client sees.

use std::time::SystemTime;

use a2a_jsonrpc::A2aError;
use a2a_types::protocol::content_type;
use a2a_types::v1::AgentCard;
use bytes::Bytes;
use http::{HeaderValue, Method, StatusCode, header};

use super::{Interface, Versions};
use crate::common::body::A2aBody;
use crate::common::response;

/// The card endpoint.
#[derive(Debug)]
pub(crate) struct CardEndpoint {
    /// The card as configured, without the interfaces this service serves.
    card: AgentCard,
    /// The interfaces this service serves, listed first.
    ours: Vec<Interface>,
    /// The card as served, when the public URL is known.
    fixed: Option<Rendered>,
    /// The versions served: whose fields the document carries.
    versions: Versions,
    /// How the card is signed (only the card at a configured public URL is).
    #[cfg(feature = "signing")]
    signing: Option<super::CardSigning>,
    last_modified: HeaderValue,
    modified_at: SystemTime,
    cache_control: HeaderValue,
}

#[derive(Debug)]
struct Rendered {
    card: AgentCard,
    json: Bytes,
    etag: HeaderValue,
}

impl CardEndpoint {
    /// `ours` lists what this service serves, in preference order; `public_url` is where
    /// clients reach the service, if known (else each request's `Host` decides).
    pub(crate) fn new(
        card: AgentCard,
        ours: Vec<Interface>,
        public_url: Option<&str>,
        versions: Versions,
        max_age: u32,
        #[cfg(feature = "signing")] signing: Option<super::CardSigning>,
    ) -> Self {
        let modified_at = SystemTime::now();
        #[cfg(feature = "signing")]
        if signing.is_some() && public_url.is_none() {
            tracing::warn!(
                "the agent card is served unsigned: a signed card needs the service's public URL \
                 (ServiceBuilder::public_url), else each request's Host header would name the \
                 agent's URL in what is signed"
            );
        }
        let mut endpoint = Self {
            card,
            ours,
            fixed: None,
            versions,
            #[cfg(feature = "signing")]
            signing,
            last_modified: HeaderValue::from_str(&httpdate::fmt_http_date(modified_at))
                .expect("an HTTP date is a valid header"),
            modified_at,
            cache_control: HeaderValue::from_str(&format!("public, max-age={max_age}"))
                .expect("a valid header"),
        };
        endpoint.fixed = public_url.map(|base| endpoint.render(base, true));
        endpoint
    }

    /// The card as served, when the public URL was configured.
    pub(crate) fn public_card(&self) -> Option<&AgentCard> {
        self.fixed.as_ref().map(|r| &r.card)
    }

    /// The configured card with this service's interfaces first, at `base`.
    pub(crate) fn card_at(&self, base: &str) -> AgentCard {
        super::card_at(&self.card, &self.ours, base)
    }

    /// The card at `base` as served; signed when `sign` and the service signs its card.
    fn render(&self, base: &str, sign: bool) -> Rendered {
        let card = self.card_at(base);
        #[cfg(feature = "signing")]
        let card = match self.signing.as_ref().filter(|_| sign) {
            Some(signing) => signing.sign(&card, base, |card| document(card, self.versions)),
            None => card,
        };
        #[cfg(not(feature = "signing"))]
        let _ = sign;
        let json = Bytes::from(document(&card, self.versions));
        let etag = {
            use std::hash::{Hash as _, Hasher as _};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            json.hash(&mut hasher);
            HeaderValue::from_str(&format!("\"{:016x}\"", hasher.finish()))
                .expect("hex is a valid header")
        };
        Rendered { card, json, etag }
    }

    /// Answers a request for the card.
    pub(crate) fn respond(&self, head: &http::request::Parts) -> http::Response<A2aBody> {
        if let Some(refused) = only_get(head, "the agent card") {
            return refused;
        }
        let derived;
        let rendered = match &self.fixed {
            Some(rendered) => rendered,
            None => match request_base(head) {
                Some(base) => {
                    derived = self.render(&base, false);
                    &derived
                }
                None => {
                    return error_response(&A2aError::invalid_request(
                        "the request names no host (no Host header), so the card cannot say \
                         where this agent is served; send a Host header, or configure the \
                         service's public URL",
                    ));
                }
            },
        };
        let builder = http::Response::builder()
            .header(header::ETAG, rendered.etag.clone())
            .header(header::LAST_MODIFIED, self.last_modified.clone())
            .header(header::CACHE_CONTROL, self.cache_control.clone());
        let response = if self.not_modified(head, &rendered.etag) {
            builder
                .status(StatusCode::NOT_MODIFIED)
                .body(A2aBody::empty())
        } else {
            let body = if head.method == Method::HEAD {
                A2aBody::empty()
            } else {
                A2aBody::full(rendered.json.clone())
            };
            builder
                .status(StatusCode::OK)
                .header(header::CONTENT_TYPE, content_type::JSON)
                .body(body)
        };
        response.expect("a valid response")
    }

    /// RFC 9110 §13.1: `If-None-Match` decides when present; else `If-Modified-Since`.
    fn not_modified(&self, head: &http::request::Parts, etag: &HeaderValue) -> bool {
        let mut none_match = head
            .headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .peekable();
        if none_match.peek().is_some() {
            let ours = etag.to_str().unwrap_or_default();
            return none_match.any(|tag| tag == "*" || tag.trim_start_matches("W/") == ours);
        }
        head.headers
            .get(header::IF_MODIFIED_SINCE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| httpdate::parse_http_date(v).ok())
            .is_some_and(|since| {
                // HTTP dates have whole seconds.
                let modified = self
                    .modified_at
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                let since = since
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                modified <= since
            })
    }
}

/// The card as the served versions read it: the 1.0 ProtoJSON alone when only 1.0 is served,
/// else with the fields of each older version served merged in ([`union_json`] when every one
/// is).
pub(crate) fn document(card: &AgentCard, versions: Versions) -> Vec<u8> {
    use a2a_types::protocol::ProtocolVersion;
    union_of(
        card,
        versions.serves(ProtocolVersion::V0_3),
        versions.serves(ProtocolVersion::V0_1),
    )
}

/// The card as every version reads it: the 1.0 ProtoJSON, then, for keys it lacks, the 0.3
/// card (`url`, `preferredTransport`, `protocolVersion`, `additionalInterfaces`,
/// `supportsAuthenticatedExtendedCard` when true, the 0.3 shape of each security scheme beside
/// the 1.0 one, `security`) and the 0.1 card (`authentication`, when the card has a JSON-RPC
/// interface: 0.1 peers speak nothing else). Objects merge key by key and lists item by item,
/// as the Python SDK's `agent_card_to_dict` does; nothing of the 1.0 document changes.
pub(crate) fn union_json(card: &AgentCard) -> Vec<u8> {
    union_of(card, true, true)
}

/// The 1.0 card with the 0.3 fields (`v0_3`) and the 0.1 fields (`v0_1`) merged in.
fn union_of(card: &AgentCard, v0_3: bool, v0_1: bool) -> Vec<u8> {
    use serde_json::Value;

    /// Adds what `from` has and `into` lacks.
    fn merge(into: &mut Value, from: Value) {
        match (into, from) {
            (Value::Object(into), Value::Object(from)) => {
                for (key, value) in from {
                    match into.get_mut(&key) {
                        Some(existing) => merge(existing, value),
                        None => {
                            into.insert(key, value);
                        }
                    }
                }
            }
            (Value::Array(into), Value::Array(from)) => {
                for (existing, value) in into.iter_mut().zip(from) {
                    merge(existing, value);
                }
            }
            _ => {}
        }
    }

    let mut document = serde_json::to_value(card).expect("an agent card serializes");
    if v0_3 {
        let mut v0_3 = serde_json::to_value(a2a_types::v0_3::AgentCard::from(card))
            .expect("an agent card serializes");
        if v0_3.get("supportsAuthenticatedExtendedCard") != Some(&Value::Bool(true))
            && let Some(fields) = v0_3.as_object_mut()
        {
            fields.remove("supportsAuthenticatedExtendedCard");
        }
        merge(&mut document, v0_3);
    }
    if v0_1 && let Ok(v0_1) = a2a_types::v0_1::AgentCard::try_from(card.clone()) {
        merge(
            &mut document,
            serde_json::to_value(v0_1).expect("an agent card serializes"),
        );
    }
    serde_json::to_vec(&document).expect("JSON serializes")
}

/// The JWKS of signed push deliveries and the signed card (`/.well-known/jwks.json`): `GET` or `HEAD`, as
/// `application/jwk-set+json`, cached as long as the card.
#[cfg(feature = "signing")]
pub(crate) fn jwks_response(
    head: &http::request::Parts,
    jwks: &Bytes,
    max_age: u32,
) -> http::Response<A2aBody> {
    if let Some(refused) = only_get(head, "the JWKS") {
        return refused;
    }
    let body = if head.method == Method::HEAD {
        A2aBody::empty()
    } else {
        A2aBody::full(jwks.clone())
    };
    http::Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/jwk-set+json")
        .header(header::CACHE_CONTROL, format!("public, max-age={max_age}"))
        .body(body)
        .expect("a valid response")
}

/// `scheme://host` of the request, as the client addressed it: the URI's scheme (HTTP/2) or
/// `X-Forwarded-Proto` or `http`; `X-Forwarded-Host`, `Host` or the URI's authority. `None`
/// when no host is named or it is not a plain host[:port].
fn request_base(head: &http::request::Parts) -> Option<String> {
    let header = |name: &str| {
        head.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let scheme = head
        .uri
        .scheme_str()
        .or_else(|| header("x-forwarded-proto"))
        .unwrap_or("http");
    let host = header("x-forwarded-host")
        .or_else(|| header("host"))
        .or_else(|| head.uri.authority().map(http::uri::Authority::as_str))?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']' | b'_')
            })
    };
    if !plain(host) || !matches!(scheme, "http" | "https") {
        return None;
    }
    Some(format!("{scheme}://{host}"))
}

/// The 405 (with `Allow: GET, HEAD`) for a request to `what` that is neither `GET` nor `HEAD`.
pub(crate) fn only_get(head: &http::request::Parts, what: &str) -> Option<http::Response<A2aBody>> {
    if head.method == Method::GET || head.method == Method::HEAD {
        return None;
    }
    let error = A2aError::invalid_request(format!("{what} is read with GET, not {}", head.method))
        .with_http_status(405);
    let mut response = error_response(&error);
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    Some(response)
}

/// A card endpoint's error: a `google.rpc.Status` document.
pub(crate) fn error_response(error: &A2aError) -> http::Response<A2aBody> {
    response::full(
        response::status(error.http_status()),
        content_type::JSON,
        serde_json::to_vec(&error.to_status_json()).expect("JSON serializes"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::InterfaceUrl;

    fn head(method: &str, headers: &[(&str, &str)]) -> http::request::Parts {
        let mut request = http::Request::builder()
            .method(method)
            .uri("/.well-known/agent-card.json");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn endpoint(public_url: Option<&str>) -> CardEndpoint {
        CardEndpoint::new(
            AgentCard::new("A", "An agent", "1.0.0"),
            vec![
                Interface::new("JSONRPC", "1.0", InterfaceUrl::Path("/".to_owned())),
                Interface::new("HTTP+JSON", "1.0", InterfaceUrl::Path(String::new())),
                Interface::new("GRPC", "1.0", InterfaceUrl::Authority),
            ],
            public_url,
            Versions::all(),
            300,
            #[cfg(feature = "signing")]
            None,
        )
    }

    fn json(response: http::Response<A2aBody>) -> serde_json::Value {
        use http_body_util::BodyExt as _;
        let bytes = futures_executor_block_on(response.into_body().collect())
            .unwrap()
            .to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    fn futures_executor_block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn the_card_names_where_it_is_served() {
        let fixed = endpoint(Some("https://agent.example.com/"));
        let card = json(fixed.respond(&head("GET", &[("host", "ignored:1")])));
        assert_eq!(
            card["supportedInterfaces"],
            serde_json::json!([
                {"url": "https://agent.example.com/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": "https://agent.example.com", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
                {"url": "agent.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
            ])
        );
        // Without a configured URL: the request's host.
        let derived = endpoint(None);
        let card = json(derived.respond(&head("GET", &[("host", "127.0.0.1:7420")])));
        assert_eq!(
            card["supportedInterfaces"][0]["url"],
            "http://127.0.0.1:7420/"
        );
        assert_eq!(card["supportedInterfaces"][2]["url"], "127.0.0.1:7420");
        let card = json(derived.respond(&head(
            "GET",
            &[
                ("host", "10.0.0.1"),
                ("x-forwarded-proto", "https"),
                ("x-forwarded-host", "a.example"),
            ],
        )));
        assert_eq!(card["supportedInterfaces"][1]["url"], "https://a.example");
        let refused = derived.respond(&head("GET", &[("host", "evil\"/x")]));
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn conditional_requests() {
        let e = endpoint(Some("http://a"));
        let ok = e.respond(&head("GET", &[]));
        assert_eq!(ok.status(), StatusCode::OK);
        let etag = ok.headers()["etag"].to_str().unwrap().to_owned();
        let modified = ok.headers()["last-modified"].to_str().unwrap().to_owned();
        assert_eq!(ok.headers()["cache-control"], "public, max-age=300");
        assert_eq!(
            e.respond(&head("GET", &[("if-none-match", &etag)]))
                .status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            e.respond(&head("GET", &[("if-none-match", "\"other\", *")]))
                .status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            e.respond(&head("GET", &[("if-modified-since", &modified)]))
                .status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            e.respond(&head(
                "GET",
                &[("if-modified-since", "Sat, 01 Jan 2000 00:00:00 GMT")]
            ))
            .status(),
            StatusCode::OK
        );
        // If-None-Match wins over If-Modified-Since.
        assert_eq!(
            e.respond(&head(
                "GET",
                &[
                    ("if-none-match", "\"other\""),
                    ("if-modified-since", &modified)
                ]
            ))
            .status(),
            StatusCode::OK
        );
        let wrong = e.respond(&head("POST", &[]));
        assert_eq!(wrong.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(wrong.headers()["allow"], "GET, HEAD");
    }
}
