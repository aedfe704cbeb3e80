//! The HTTP layer: hyper-util's pooled client, over rustls when the `tls` feature is on.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::Error;

#[cfg(feature = "tls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
type Connector = HttpConnector;

/// A pooled HTTP/1.1 (and, over TLS with the `http2` feature, HTTP/2) client.
#[derive(Clone, Debug)]
pub(crate) struct Http {
    client: Client<Connector, Full<Bytes>>,
}

impl Http {
    pub(crate) fn new(connect_timeout: Option<Duration>) -> Result<Self, Error> {
        let mut http = HttpConnector::new();
        http.set_connect_timeout(connect_timeout);
        http.set_nodelay(true);
        http.enforce_http(false);
        let connector = wrap(http)?;
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .pool_timer(TokioTimer::new())
            .build(connector);
        Ok(Self { client })
    }

    /// Sends one request; the answer's body is still to be read.
    pub(crate) async fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> Result<http::Response<Incoming>, Error> {
        let uri = request.uri().clone();
        let method = request.method().clone();
        let request = request.map(Full::new);
        self.client.request(request).await.map_err(|err| {
            if err.is_connect() {
                let target = uri.authority().map_or("the server", |a| a.as_str());
                Error::connect(format!("cannot connect to {target}"), err)
            } else {
                Error::transport(format!("{method} {uri} failed"), err)
            }
        })
    }
}

#[cfg(feature = "tls")]
fn wrap(http: HttpConnector) -> Result<Connector, Error> {
    let builder = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
        .map_err(|err| Error::Config(format!("cannot set up TLS: {err}")))?
        .https_or_http()
        .enable_http1();
    #[cfg(feature = "http2")]
    let builder = builder.enable_http2();
    Ok(builder.wrap_connector(http))
}

#[cfg(not(feature = "tls"))]
fn wrap(http: HttpConnector) -> Result<Connector, Error> {
    Ok(http)
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
