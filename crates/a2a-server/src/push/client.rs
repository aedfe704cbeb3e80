//! The HTTP client of deliveries: hyper-util's pooled client over rustls (ring, webpki roots),
//! whose resolver hands the connector only the addresses the SSRF guard allows. No redirects
//! are followed (hyper-util's client follows none).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::dns::Name;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use super::guard::Guard;

/// The connector: TLS (or plain HTTP) over TCP to guarded addresses.
type Connector = hyper_rustls::HttpsConnector<HttpConnector<GuardedResolver>>;

/// The pooled client deliveries go through.
pub(crate) type HttpClient = Client<Connector, Full<Bytes>>;

/// Resolves a webhook's host name and keeps only the addresses the guard allows; fails, naming
/// them, when it allows none.
#[derive(Clone, Debug)]
pub(crate) struct GuardedResolver {
    guard: Arc<Guard>,
}

/// A host name whose every address the guard refuses.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Refused(pub(crate) String);

impl GuardedResolver {
    pub(crate) fn new(guard: Arc<Guard>) -> Self {
        Self { guard }
    }

    /// The allowed addresses of `host` (port 0: the connector sets the URL's).
    pub(crate) async fn resolve(
        guard: &Guard,
        host: &str,
    ) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
        // Not resolving is worth a retry (DNS may come back); only the guard's refusal is final.
        let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host, 0)).await?.collect();
        let mut refusals = Vec::new();
        let allowed: Vec<SocketAddr> = resolved
            .into_iter()
            .filter(|addr| match guard.refusal(addr.ip()) {
                None => true,
                Some(why) => {
                    refusals.push(why);
                    false
                }
            })
            .collect();
        if allowed.is_empty() {
            let why = if refusals.is_empty() {
                "no address".to_owned()
            } else {
                refusals.join("; ")
            };
            return Err(Box::new(Refused(format!("`{host}` resolves to {why}"))));
        }
        Ok(allowed)
    }
}

impl tower_service::Service<Name> for GuardedResolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        let guard = self.guard.clone();
        Box::pin(async move {
            Self::resolve(&guard, name.as_str())
                .await
                .map(Vec::into_iter)
        })
    }
}

/// A client whose connections go only to addresses `guard` allows, each connect within
/// `connect_timeout`.
pub(crate) fn new(guard: Arc<Guard>, connect_timeout: Duration) -> Result<HttpClient, String> {
    let mut http = HttpConnector::new_with_resolver(GuardedResolver::new(guard));
    http.set_connect_timeout(Some(connect_timeout));
    http.set_nodelay(true);
    http.enforce_http(false);
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
        .map_err(|err| format!("cannot set up TLS for push deliveries: {err}"))?
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Ok(Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(4)
        .pool_timer(TokioTimer::new())
        .build(connector))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_name_that_resolves_to_loopback_is_refused() {
        let guard = Guard::new(Vec::new());
        let err = GuardedResolver::resolve(&guard, "localhost")
            .await
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("`localhost` resolves to "), "{err}");
        assert!(
            err.contains("is a loopback address, which the SSRF guard refuses"),
            "{err}"
        );
        // Allowed, it resolves.
        let open = Guard::new(vec!["127.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()]);
        let addrs = GuardedResolver::resolve(&open, "localhost").await.unwrap();
        assert!(addrs.iter().all(|a| a.ip().is_loopback()), "{addrs:?}");
    }
}
