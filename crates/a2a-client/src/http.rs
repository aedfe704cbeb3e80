//! The HTTP plumbing the HTTP transports share: hyper-util's pooled client (over rustls when the
//! `tls` feature is on), the headers every A2A request carries, and the interceptor calls around
//! each request.

use std::sync::Arc;
use std::time::Duration;

use a2a_types::protocol::{VERSION_0_3, VERSION_1_0, content_type, headers};
use bytes::Bytes;
use http::{HeaderValue, Method, header};
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::Error;
use crate::interceptor::{CallInfo, Interceptor};

#[cfg(feature = "tls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
type Connector = HttpConnector;

/// The interceptors of a client, shared by its HTTP layer and its call layer.
pub(crate) type Interceptors = Arc<[Arc<dyn Interceptor>]>;

/// The service parameters a protocol version sends as headers: the `A2A-Version` it signals
/// (none for 0.1, which predates the header) and the name of its extensions header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// The `A2A-Version` value.
    pub(crate) version: Option<&'static str>,
    /// `A2A-Extensions` (1.0), `X-A2A-Extensions` (0.3), or none (0.1 has no extensions).
    pub(crate) extensions: Option<&'static str>,
}

impl Dialect {
    /// A2A 1.0: `A2A-Version: 1.0` (exactly; the JS SDK refuses `1.0.0` and `1.1`) and
    /// `A2A-Extensions`.
    pub(crate) const V1_0: Dialect = Dialect {
        version: Some(VERSION_1_0),
        extensions: Some(headers::A2A_EXTENSIONS),
    };
    /// The A2A 1.1 draft: `A2A-Version: 1.1` and `A2A-Extensions`.
    pub(crate) const V1_1: Dialect = Dialect {
        version: Some(a2a_types::protocol::generations::VERSION_1_1),
        extensions: Some(headers::A2A_EXTENSIONS),
    };
    /// A2A 0.3 (and 0.2): `A2A-Version: 0.3`, as the Python SDK's 0.3 compat client sends it
    /// (what servers assume without the header), and the 0.3 spelling `X-A2A-Extensions`.
    pub(crate) const V0_3: Dialect = Dialect {
        version: Some(VERSION_0_3),
        extensions: Some(headers::X_A2A_EXTENSIONS),
    };
    /// A2A 0.1: no service parameters at all (an `A2A-Version: 0.1` would be refused by a
    /// server that knows the header).
    pub(crate) const V0_1: Dialect = Dialect {
        version: None,
        extensions: None,
    };
    /// The flat dialect (PromptKit's): no service parameters, as its clients send none.
    pub(crate) const FLAT: Dialect = Dialect {
        version: None,
        extensions: None,
    };
}

/// A pooled HTTP/1.1 (and, over TLS with the `http2` feature, HTTP/2) client that sends A2A
/// requests: with `A2A-Version`, `A2A-Extensions`, and the interceptors around each one.
#[derive(Clone)]
pub(crate) struct HttpClient {
    client: Client<Connector, Full<Bytes>>,
    interceptors: Interceptors,
    extensions: Option<HeaderValue>,
    #[cfg(feature = "tls")]
    tls: crate::tls::TlsMaterial,
}

/// An answer to a request for an event stream.
pub(crate) enum Opened {
    /// `2xx` and `text/event-stream`: the body is the stream.
    Events(Incoming),
    /// Anything else, read whole: an error, or JSON where a stream was due.
    Answer(http::response::Parts, Bytes),
}

/// How the client's TLS connections are set up.
#[derive(Clone, Debug)]
pub(crate) struct TlsOptions {
    /// `false` accepts any server certificate (see
    /// [`ClientBuilder::danger_accept_invalid_certs`](crate::ClientBuilder::danger_accept_invalid_certs)).
    pub(crate) verify_certificates: bool,
    /// Added roots and the client certificate.
    #[cfg(feature = "tls")]
    pub(crate) material: crate::tls::TlsMaterial,
}

impl Default for TlsOptions {
    fn default() -> Self {
        Self {
            verify_certificates: true,
            #[cfg(feature = "tls")]
            material: crate::tls::TlsMaterial::default(),
        }
    }
}

impl HttpClient {
    /// A client whose TLS connections are set up as `tls` says.
    pub(crate) fn new(
        connect_timeout: Option<Duration>,
        interceptors: Interceptors,
        extensions: Option<HeaderValue>,
        tls: &TlsOptions,
    ) -> Result<Self, Error> {
        let mut http = HttpConnector::new();
        http.set_connect_timeout(connect_timeout);
        http.set_nodelay(true);
        http.enforce_http(false);
        let connector = wrap(http, tls)?;
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .pool_timer(TokioTimer::new())
            .build(connector);
        Ok(Self {
            client,
            interceptors,
            extensions,
            #[cfg(feature = "tls")]
            tls: tls.material.clone(),
        })
    }

    /// The roots and client certificate added to the TLS defaults, for transports that make
    /// connections of their own (gRPC).
    #[cfg(feature = "tls")]
    pub(crate) fn tls_material(&self) -> &crate::tls::TlsMaterial {
        &self.tls
    }

    /// A request to `uri` with the headers of every A2A 1.0 request: `A2A-Version: 1.0`,
    /// `A2A-Extensions` when extensions were asked for, `Accept: accept`, `traceparent` and
    /// `tracestate` inside a [`crate::trace::scope`], and `Last-Event-ID` when resuming a
    /// stream.
    pub(crate) fn request(
        &self,
        method: Method,
        uri: http::Uri,
        accept: &'static str,
        last_event_id: Option<&str>,
    ) -> Result<http::request::Builder, Error> {
        self.request_in(Dialect::V1_0, method, uri, accept, last_event_id)
    }

    /// [`request`](Self::request) with the service parameters of another version.
    pub(crate) fn request_in(
        &self,
        dialect: Dialect,
        method: Method,
        uri: http::Uri,
        accept: &'static str,
        last_event_id: Option<&str>,
    ) -> Result<http::request::Builder, Error> {
        let mut builder = http::Request::builder()
            .method(method)
            .uri(uri)
            .header(header::ACCEPT, accept);
        if let Some(version) = dialect.version {
            builder = builder.header(headers::A2A_VERSION, version);
        }
        if let (Some(extensions), Some(name)) = (&self.extensions, dialect.extensions) {
            builder = builder.header(name, extensions.clone());
        }
        if let Some((parent, state)) = crate::trace::outgoing() {
            builder = builder.header(headers::TRACEPARENT, parent);
            if let Some(state) = state.and_then(|s| HeaderValue::from_str(&s).ok()) {
                builder = builder.header(headers::TRACESTATE, state);
            }
        }
        if let Some(id) = last_event_id {
            let value = HeaderValue::from_str(id).map_err(|_| {
                Error::Config(format!("the event id `{id}` cannot go into a header"))
            })?;
            builder = builder.header(headers::LAST_EVENT_ID, value);
        }
        Ok(builder)
    }

    /// Sends one request through the interceptors and reads the whole answer.
    pub(crate) async fn exchange(
        &self,
        call: &CallInfo,
        request: http::Request<Bytes>,
    ) -> Result<(http::response::Parts, Bytes), Error> {
        let (head, body) = self.send(call, request).await?.into_parts();
        let bytes = read_body(body).await?;
        self.after(call, &head, Some(&bytes));
        Ok((head, bytes))
    }

    /// [`exchange`](Self::exchange) reading at most `max_bytes` of the body: a longer one fails
    /// with [`Error::Protocol`] naming the limit, and is not read on.
    pub(crate) async fn exchange_bounded(
        &self,
        call: &CallInfo,
        request: http::Request<Bytes>,
        max_bytes: usize,
    ) -> Result<(http::response::Parts, Bytes), Error> {
        let (head, body) = self.send(call, request).await?.into_parts();
        let bytes = Limited::new(body, max_bytes)
            .collect()
            .await
            .map(|collected| collected.to_bytes())
            .map_err(|err| {
                if err.downcast_ref::<LengthLimitError>().is_some() {
                    Error::Protocol(format!(
                        "the answer's body is larger than {max_bytes} bytes, the most allowed"
                    ))
                } else {
                    Error::transport("the answer was cut off", err)
                }
            })?;
        self.after(call, &head, Some(&bytes));
        Ok((head, bytes))
    }

    /// Sends one request for an event stream through the interceptors: a `2xx`
    /// `text/event-stream` answer is the stream, any other answer is read whole.
    pub(crate) async fn open(
        &self,
        call: &CallInfo,
        request: http::Request<Bytes>,
    ) -> Result<Opened, Error> {
        let (head, body) = self.send(call, request).await?.into_parts();
        if head.status.is_success() && is_event_stream(&head) {
            self.after(call, &head, None);
            return Ok(Opened::Events(body));
        }
        let bytes = read_body(body).await?;
        self.after(call, &head, Some(&bytes));
        Ok(Opened::Answer(head, bytes))
    }

    async fn send(
        &self,
        call: &CallInfo,
        mut request: http::Request<Bytes>,
    ) -> Result<http::Response<Incoming>, Error> {
        for interceptor in self.interceptors.iter() {
            interceptor.on_request(call, &mut request);
        }
        let uri = request.uri().clone();
        let method = request.method().clone();
        let span = crate::trace::send_span(call, &method, &uri, request.headers());
        let request = request.map(Full::new);
        let sent = tracing::Instrument::instrument(self.client.request(request), span).await;
        sent.map_err(|err| {
            if err.is_connect() {
                let target = uri.authority().map_or("the server", |a| a.as_str());
                Error::connect(format!("cannot connect to {target}"), err)
            } else {
                Error::transport(format!("{method} {uri} failed"), err)
            }
        })
    }

    fn after(&self, call: &CallInfo, head: &http::response::Parts, body: Option<&Bytes>) {
        for interceptor in self.interceptors.iter() {
            interceptor.on_response(call, head, body);
        }
    }
}

fn is_event_stream(head: &http::response::Parts) -> bool {
    head.headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| {
            essence
                .trim()
                .eq_ignore_ascii_case(content_type::EVENT_STREAM)
        })
}

/// The `Content-Type` of an answer, for messages (`""` when there is none).
pub(crate) fn content_type_of(head: &http::response::Parts) -> &str {
    head.headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

async fn read_body(body: Incoming) -> Result<Bytes, Error> {
    body.collect()
        .await
        .map(|collected| collected.to_bytes())
        .map_err(|err| Error::transport("the answer was cut off", err))
}

#[cfg(feature = "tls")]
fn wrap(http: HttpConnector, tls: &TlsOptions) -> Result<Connector, Error> {
    let tls_error = |err: rustls::Error| Error::Config(format!("cannot set up TLS: {err}"));
    let provider = rustls::crypto::ring::default_provider();
    let builder = if tls.verify_certificates && tls.material.is_default() {
        hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(provider)
            .map_err(tls_error)?
    } else {
        let any = Arc::new(AnyCertificate(crate::tls::provider()));
        let config = tls.material.config(tls.verify_certificates, Some(any))?;
        hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(config)
    };
    let builder = builder.https_or_http().enable_http1();
    #[cfg(feature = "http2")]
    let builder = builder.enable_http2();
    Ok(builder.wrap_connector(http))
}

#[cfg(not(feature = "tls"))]
fn wrap(http: HttpConnector, _tls: &TlsOptions) -> Result<Connector, Error> {
    Ok(http)
}

/// Accepts any server certificate (name, issuer, dates unchecked); the handshake signatures are
/// still checked, with the provider's algorithms.
#[cfg(feature = "tls")]
#[derive(Debug)]
struct AnyCertificate(std::sync::Arc<rustls::crypto::CryptoProvider>);

#[cfg(feature = "tls")]
impl rustls::client::danger::ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// Checks that `url` is an absolute `http` or `https` URL this build can reach.
pub(crate) fn parse_url(url: &str) -> Result<http::Uri, Error> {
    let uri: http::Uri = url
        .parse()
        .map_err(|err| Error::Config(format!("invalid URL `{url}`: {err}")))?;
    match uri.scheme_str() {
        Some("http") => {}
        Some("https") => {
            if cfg!(not(feature = "tls")) {
                return Err(Error::Config(format!(
                    "cannot reach `{url}`: HTTPS needs the `tls` feature of a2a-client"
                )));
            }
        }
        Some(other) => {
            return Err(Error::Config(format!(
                "invalid URL `{url}`: the scheme must be http or https, not {other}"
            )));
        }
        None => {
            return Err(Error::Config(format!(
                "invalid URL `{url}`: it needs a scheme, as in http://{url}"
            )));
        }
    }
    if uri.authority().is_none() {
        return Err(Error::Config(format!(
            "invalid URL `{url}`: it has no host"
        )));
    }
    Ok(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        assert!(parse_url("http://127.0.0.1:7420").is_ok());
        assert!(parse_url("http://127.0.0.1:7420/a2a?x=1").is_ok());
        assert_eq!(
            parse_url("127.0.0.1:7420").unwrap_err().to_string(),
            "invalid URL `127.0.0.1:7420`: it needs a scheme, as in http://127.0.0.1:7420"
        );
        assert_eq!(
            parse_url("localhost").unwrap_err().to_string(),
            "invalid URL `localhost`: it needs a scheme, as in http://localhost"
        );
        assert_eq!(
            parse_url("ftp://x/").unwrap_err().to_string(),
            "invalid URL `ftp://x/`: the scheme must be http or https, not ftp"
        );
        assert!(parse_url("not a url").is_err());
    }
}
