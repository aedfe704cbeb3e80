//! The delivery worker: claims due deliveries from the store's outbox, sends each in its own
//! task (within the concurrency limits), and settles it: delivered, retried later, or dead.

use std::collections::HashMap;
use std::hash::{BuildHasher as _, Hasher as _};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use a2a_jose::push::{Claims, SIGNATURE_HEADER};
use a2a_types::protocol::headers;
use bytes::Bytes;
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body_util::{BodyExt as _, Full, Limited};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use super::Pusher;
use super::body::render;
use super::client::Refused;
use crate::store::{Delivery, Settle, StoreError, TaskStore};

/// The `User-Agent` of deliveries.
const USER_AGENT: &str = concat!("a2a-rs/", env!("CARGO_PKG_VERSION"));
/// How much of a webhook's answer is read (for the error text of a refusal).
const MAX_ANSWER: usize = 4096;
/// How much of it goes into an error text.
const ANSWER_IN_ERROR: usize = 200;
/// How long a delivery whose host is at its limit waits before it is claimed again.
const HOST_BUSY: Duration = Duration::from_millis(250);
/// How long a lease outlives an attempt's timeout: the time to settle it.
const LEASE_MARGIN: Duration = Duration::from_secs(30);

/// How one attempt went.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Delivered(StatusCode),
    /// Worth another attempt.
    Retry(String),
    /// Not worth another.
    Dead(String),
}

/// Runs until `stop` fires: claims, sends and settles deliveries of `store`'s outbox.
pub(crate) async fn run(store: Arc<dyn TaskStore>, pusher: Arc<Pusher>, stop: CancellationToken) {
    let settings = &pusher.settings;
    let lease = settings.timeout + LEASE_MARGIN;
    let mut in_flight: JoinSet<String> = JoinSet::new();
    let mut per_host: HashMap<String, usize> = HashMap::new();
    tracing::debug!(target: "a2a_server::push", "push delivery worker started");
    loop {
        let mut wait = settings.poll_interval;
        let free = settings.max_concurrent.saturating_sub(in_flight.len());
        if free > 0 {
            let now = SystemTime::now();
            match store.claim_deliveries(now, lease, free).await {
                Ok(claimed) => {
                    if let Some(next) = claimed.next_due {
                        wait = wait.min(next.duration_since(now).unwrap_or_default());
                    }
                    for delivery in claimed.deliveries {
                        let host = host_of(&delivery.config.url);
                        let busy = per_host.entry(host.clone()).or_default();
                        if *busy >= settings.max_per_host {
                            let due = now + HOST_BUSY;
                            if let Err(err) = store
                                .settle_delivery(
                                    delivery.id,
                                    delivery.lease,
                                    Settle::Release { due },
                                )
                                .await
                            {
                                tracing::warn!(target: "a2a_server::push", %err, "cannot release a push delivery");
                            }
                            wait = wait.min(HOST_BUSY);
                            continue;
                        }
                        *busy += 1;
                        let span = tracing::info_span!(
                            target: "a2a_server::push",
                            "a2a.push",
                            task.id = %delivery.task_id,
                            config.id = delivery.config.id.as_deref().unwrap_or_default(),
                            seq = delivery.seq,
                            attempt = delivery.attempts + 1,
                        );
                        let (store, pusher) = (store.clone(), pusher.clone());
                        in_flight.spawn(
                            async move {
                                deliver(&*store, &pusher, delivery).await;
                                host
                            }
                            .instrument(span),
                        );
                    }
                }
                Err(StoreError::Unsupported(reason)) => {
                    tracing::error!(target: "a2a_server::push", %reason, "push delivery stops");
                    return;
                }
                Err(err) => {
                    tracing::warn!(target: "a2a_server::push", %err, "cannot claim push deliveries; trying again");
                }
            }
        }
        tokio::select! {
            biased;
            () = stop.cancelled() => break,
            Some(done) = in_flight.join_next(), if !in_flight.is_empty() => {
                // A task that panicked has no host to give back: its slot is lost with it,
                // which only lowers that host's limit.
                if let Ok(host) = done
                    && let Some(busy) = per_host.get_mut(&host)
                {
                    *busy -= 1;
                    if *busy == 0 {
                        per_host.remove(&host);
                    }
                }
            }
            result = store.wait_outbox(wait) => {
                if let Err(err) = result {
                    tracing::warn!(target: "a2a_server::push", %err, "cannot wait for push deliveries");
                    tokio::select! {
                        () = stop.cancelled() => break,
                        () = tokio::time::sleep(settings.poll_interval) => {}
                    }
                }
            }
        }
    }
    in_flight.abort_all();
    tracing::debug!(target: "a2a_server::push", "push delivery worker stopped");
}

/// `host:port` of a URL, the unit of [`PushSettings::max_per_host`](super::PushSettings).
fn host_of(url: &str) -> String {
    url.parse::<http::Uri>()
        .ok()
        .and_then(|uri| uri.authority().map(|a| a.as_str().to_ascii_lowercase()))
        .unwrap_or_default()
}

/// Sends one delivery and settles it.
async fn deliver(store: &dyn TaskStore, pusher: &Pusher, delivery: Delivery) {
    let outcome = attempt(pusher, &delivery).await;
    let attempts = delivery.attempts + 1;
    let max_attempts = pusher.settings.retry.max_attempts;
    let (id, lease) = (delivery.id, delivery.lease);
    let settled = match outcome {
        Outcome::Delivered(status) => {
            tracing::debug!(target: "a2a_server::push", %status, "push delivered");
            store.settle_delivery(id, lease, Settle::Complete).await
        }
        Outcome::Retry(error) if attempts < max_attempts => {
            let wait = jitter(pusher.settings.retry.backoff(attempts));
            tracing::info!(target: "a2a_server::push", %error, retry_in = ?wait, "push delivery failed; it will be retried");
            let due = SystemTime::now() + wait;
            store
                .settle_delivery(id, lease, Settle::Retry { due, error })
                .await
        }
        Outcome::Retry(error) => {
            let plural = if attempts == 1 { "" } else { "s" };
            let error = format!("gave up after {attempts} attempt{plural}: {error}");
            tracing::warn!(target: "a2a_server::push", %error, "push delivery is dead");
            store
                .settle_delivery(id, lease, Settle::Kill { error })
                .await
        }
        Outcome::Dead(error) => {
            tracing::warn!(target: "a2a_server::push", %error, "push delivery is dead");
            store
                .settle_delivery(id, lease, Settle::Kill { error })
                .await
        }
    };
    match settled {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!(target: "a2a_server::push", "push delivery was settled elsewhere (its lease ran out, or its config was deleted)");
        }
        Err(err) => {
            tracing::warn!(target: "a2a_server::push", %err, "cannot record how a push delivery went; it will be sent again");
        }
    }
}

/// Half of `wait`, plus a random part of the other half.
fn jitter(wait: Duration) -> Duration {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0);
    let random = hasher.finish();
    let half = wait / 2;
    let nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
    half + Duration::from_nanos(if nanos == 0 { 0 } else { random % nanos })
}

/// One attempt of a delivery.
async fn attempt(pusher: &Pusher, delivery: &Delivery) -> Outcome {
    let request = match request(pusher, delivery) {
        Ok(request) => request,
        Err(error) => return Outcome::Dead(error),
    };
    let timeout = pusher.settings.timeout;
    let exchange = async {
        let response = pusher.client.request(request).await?;
        let (head, body) = response.into_parts();
        // The answer is read (a little of it) so that the connection can be kept.
        let answer = Limited::new(body, MAX_ANSWER)
            .collect()
            .await
            .map(|collected| collected.to_bytes())
            .unwrap_or_default();
        Ok::<_, hyper_util::client::legacy::Error>((head.status, answer))
    };
    match tokio::time::timeout(timeout, exchange).await {
        Err(_) => Outcome::Retry(format!(
            "the webhook did not answer within {} ms",
            timeout.as_millis()
        )),
        Ok(Err(err)) => failure(&err),
        Ok(Ok((status, answer))) => judge(status, &answer),
    }
}

/// The request of a delivery: its body in its version's shape, and the headers.
fn request(pusher: &Pusher, delivery: &Delivery) -> Result<Request<Full<Bytes>>, String> {
    let config = &delivery.config;
    let uri: http::Uri = config
        .url
        .parse()
        .map_err(|e| format!("the push config url `{}` is not a URL: {e}", config.url))?;
    // An IP literal is not resolved, so the resolver's guard does not see it: checked here.
    if let Some(host) = uri.host()
        && let Ok(ip) = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
        && let Some(why) = pusher.guard.refusal(ip)
    {
        return Err(why);
    }
    let body = render(&delivery.event, delivery.protocol_version)?;
    let mut builder = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(header::CONTENT_TYPE, body.content_type)
        .header(header::USER_AGENT, USER_AGENT);
    let value = |text: &str, what: &str| {
        HeaderValue::from_str(text)
            .map_err(|_| format!("the push config's {what} cannot go into a header"))
    };
    if let Some(auth) = &config.authentication
        && let Some(credentials) = &auth.credentials
    {
        builder = builder.header(
            header::AUTHORIZATION,
            value(&format!("{} {credentials}", auth.scheme), "authentication")?,
        );
    }
    if let Some(token) = &config.token {
        builder = builder.header(headers::NOTIFICATION_TOKEN, value(token, "token")?);
    }
    // The task's trace goes on: each delivery is a new span of the agent run that made it.
    if let Some(trace) = pusher.trace_of(&delivery.task_id) {
        let span = trace.child();
        builder = builder.header(headers::TRACEPARENT, span.traceparent());
        if let Some(state) = span.tracestate() {
            builder = builder.header(headers::TRACESTATE, value(state, "trace state")?);
        }
    }
    if let Some(key) = pusher.settings.signing_key() {
        let iat = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let token = Claims::new(&body.bytes, delivery.task_id.as_str(), &config.url, iat).sign(key);
        builder = builder.header(SIGNATURE_HEADER, value(&token, "signature")?);
    }
    builder
        .body(Full::new(body.bytes))
        .map_err(|e| format!("cannot build the delivery request: {e}"))
}

/// A request that failed without an answer: refused by the guard (dead), or a connection
/// failure (retried).
fn failure(err: &hyper_util::client::legacy::Error) -> Outcome {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    let mut text = err.to_string();
    while let Some(e) = source {
        if let Some(refused) = e.downcast_ref::<Refused>() {
            return Outcome::Dead(refused.0.clone());
        }
        let here = e.to_string();
        if !text.contains(&here) {
            text.push_str(": ");
            text.push_str(&here);
        }
        source = e.source();
    }
    Outcome::Retry(text)
}

/// What an answer means: `2xx` delivered; `408`, `425`, `429` and `5xx` worth a retry; any
/// other (a redirect, a refusal) not.
fn judge(status: StatusCode, answer: &[u8]) -> Outcome {
    if status.is_success() {
        return Outcome::Delivered(status);
    }
    let mut text = format!("the webhook answered {status}");
    let said = String::from_utf8_lossy(answer);
    let said = said.trim();
    if !said.is_empty() {
        let cut: String = said.chars().take(ANSWER_IN_ERROR).collect();
        text.push_str(": ");
        text.push_str(&cut);
    }
    match status.as_u16() {
        408 | 425 | 429 | 500..=599 => Outcome::Retry(text),
        300..=399 => Outcome::Dead(format!("{text} (redirects are not followed)")),
        _ => Outcome::Dead(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_judged() {
        assert_eq!(
            judge(StatusCode::OK, b""),
            Outcome::Delivered(StatusCode::OK)
        );
        assert_eq!(
            judge(StatusCode::NO_CONTENT, b""),
            Outcome::Delivered(StatusCode::NO_CONTENT)
        );
        assert_eq!(
            judge(StatusCode::SERVICE_UNAVAILABLE, b"busy\n"),
            Outcome::Retry("the webhook answered 503 Service Unavailable: busy".to_owned())
        );
        assert_eq!(
            judge(StatusCode::TOO_MANY_REQUESTS, b""),
            Outcome::Retry("the webhook answered 429 Too Many Requests".to_owned())
        );
        assert_eq!(
            judge(StatusCode::FOUND, b""),
            Outcome::Dead("the webhook answered 302 Found (redirects are not followed)".to_owned())
        );
        assert_eq!(
            judge(StatusCode::NOT_FOUND, b"no such hook"),
            Outcome::Dead("the webhook answered 404 Not Found: no such hook".to_owned())
        );
    }

    #[test]
    fn jitter_keeps_half_at_least() {
        let wait = Duration::from_secs(10);
        for _ in 0..100 {
            let j = jitter(wait);
            assert!(j >= Duration::from_secs(5) && j < wait, "{j:?}");
        }
        assert_eq!(jitter(Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn hosts_include_the_port() {
        assert_eq!(host_of("http://Hook.Example:8080/a"), "hook.example:8080");
        assert_eq!(host_of("https://hook.example/a"), "hook.example");
        assert_eq!(host_of("not a url"), "");
    }
}
