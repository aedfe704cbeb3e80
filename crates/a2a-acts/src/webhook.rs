//! The runner's webhook receiver (ACTS §3.2 runner requirement `webhook_endpoint`: "the runner
//! starts its own receiver"), and what a test that needs one checks of the deliveries it got.
//!
//! The receiver is a plain HTTP/1.1 server (hyper) on [`WebhookOptions::addr`] (default
//! `127.0.0.1:0`) that answers every request `200` and keeps it: the method, the path, the
//! headers and the body, at most [`WebhookOptions::max_body_bytes`] of it and at most
//! [`WebhookOptions::max_deliveries`] requests (past either bound the request is answered
//! `413` or `503` and noted, not kept). It ends with the run (dropping it stops it).
//!
//! Each (test, binding) gets a URL of its own, `{advertised}/{test id}/{binding}`, as its
//! `webhookUrl`, so a delivery names the test it belongs to whatever its body holds.
//!
//! What a delivery must be (A2A 1.0 §4.3.3 Push Notification Payload, §13.2; the wire facts in
//! the workspace's spec SUMMARY §6):
//!
//! * at least one arrives for the task the config was set on, within
//!   [`WebhookOptions::wait`] after the test's steps ("Agents MUST attempt delivery at least
//!   once for each configured webhook");
//! * it is a `POST` whose body is one `StreamResponse` in ProtoJSON: a JSON object with exactly
//!   one of `task`, `message`, `statusUpdate`, `artifactUpdate`, which parses as the 1.0 type,
//!   and which names the config's task (`task.id`, or the event's or message's `taskId`:
//!   "Clients MUST validate the task ID matches an expected task");
//! * its `Content-Type` is JSON: `application/a2a+json`, as §4.3.3's request format shows, or
//!   `application/json` (the section states no requirement on it, and the media type is
//!   JSON either way; the Python SDK sends `application/json`);
//! * when the config has `authentication`, it carries `Authorization: {scheme} {credentials}`
//!   ("The agent MUST include authentication credentials in the request headers as specified
//!   in the PushNotificationConfig.authentication field"); the scheme compares without regard
//!   to case (RFC 9110 §11.1), the credentials exactly. The config's `token` is not checked:
//!   1.0 no longer says how it travels.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::Value;

use crate::matcher::compact;

/// The runner's webhook receiver: where it listens, the URL the agent is given, how long a test
/// waits for a delivery, and its bounds.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WebhookOptions {
    /// The address to listen on. Default `127.0.0.1:0` (a free port on this host).
    pub addr: SocketAddr,
    /// The URL the agent is given for the receiver (its base: each test appends
    /// `/{test id}/{binding}`); default `http://{the address listened on}` (loopback for an
    /// unspecified address such as `0.0.0.0`). Set it when the agent is not on this host (a
    /// public address, a tunnel to `addr`).
    pub url: Option<String>,
    /// How long a test waits after its steps for its first delivery. Default 10 s: ACTS §11's
    /// `tck-long-running` completes after 5 s, and the deliveries come with its events.
    pub wait: Duration,
    /// The largest body kept; a larger one is answered `413` and noted. Default 1 MiB.
    pub max_body_bytes: usize,
    /// The most requests kept; later ones are answered `503` and counted. Default 1 024.
    pub max_deliveries: usize,
}

impl Default for WebhookOptions {
    fn default() -> Self {
        WebhookOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            url: None,
            wait: Duration::from_secs(10),
            max_body_bytes: 1 << 20,
            max_deliveries: 1024,
        }
    }
}

impl WebhookOptions {
    /// Listens on `addr`.
    #[must_use]
    pub fn with_addr(mut self, addr: SocketAddr) -> Self {
        self.addr = addr;
        self
    }

    /// Gives the agent `url` for the receiver (each test appends `/{test id}/{binding}`).
    #[must_use]
    pub fn with_url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// Waits this long after a test's steps for its first delivery.
    #[must_use]
    pub fn with_wait(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }

    /// Keeps bodies of at most this many bytes.
    #[must_use]
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Keeps at most this many requests.
    #[must_use]
    pub fn with_max_deliveries(mut self, deliveries: usize) -> Self {
        self.max_deliveries = deliveries;
        self
    }
}

/// A request the receiver got.
#[derive(Clone, Debug)]
pub(crate) struct Delivery {
    pub(crate) method: String,
    pub(crate) path: String,
    /// Names lowercase.
    pub(crate) headers: Vec<(String, String)>,
    /// `None` when it was larger than the bound (or broke off).
    pub(crate) body: Option<Bytes>,
}

impl Delivery {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct Kept {
    deliveries: Vec<Delivery>,
    /// Requests not kept (past `max_deliveries`).
    dropped: usize,
}

/// A running receiver; stops when dropped.
pub(crate) struct Receiver {
    /// The base URL given to the agent (no trailing `/`).
    pub(crate) url: String,
    pub(crate) wait: Duration,
    kept: Arc<Mutex<Kept>>,
    changed: tokio::sync::watch::Receiver<u64>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Listens and serves.
    pub(crate) async fn start(options: &WebhookOptions) -> Result<Receiver, String> {
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|e| {
                format!(
                    "the webhook receiver cannot listen on {}: {e}",
                    options.addr
                )
            })?;
        let mut local = listener.local_addr().map_err(|e| e.to_string())?;
        // An unspecified address (0.0.0.0, ::) is no address to give out: this host's loopback.
        if local.ip().is_unspecified() {
            local.set_ip(match local.ip() {
                std::net::IpAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                std::net::IpAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        let url = options
            .url
            .clone()
            .unwrap_or_else(|| format!("http://{local}"))
            .trim_end_matches('/')
            .to_owned();
        let kept = Arc::new(Mutex::new(Kept::default()));
        let (notify, changed) = tokio::sync::watch::channel(0u64);
        let notify = Arc::new(notify);
        let (max_body, max_kept) = (options.max_body_bytes, options.max_deliveries);
        let shared = kept.clone();
        let task = tokio::spawn(async move {
            // The connections' tasks end with the accept loop's (a JoinSet aborts on drop).
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let (kept, notify) = (shared.clone(), notify.clone());
                connections.spawn(async move {
                    let service =
                        service_fn(move |request: http::Request<hyper::body::Incoming>| {
                            let (kept, notify) = (kept.clone(), notify.clone());
                            async move {
                                let status = keep(request, &kept, max_body, max_kept).await;
                                notify.send_modify(|n| *n += 1);
                                Ok::<_, Infallible>(
                                    http::Response::builder()
                                        .status(status)
                                        .body(Full::new(Bytes::new()))
                                        .expect("a response"),
                                )
                            }
                        });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
                while connections.try_join_next().is_some() {}
            }
        });
        Ok(Receiver {
            url,
            wait: options.wait,
            kept,
            changed,
            task,
        })
    }

    /// The `webhookUrl` of a test on a binding.
    pub(crate) fn url_for(&self, test: &str, binding: &str) -> String {
        format!("{}/{test}/{binding}", self.url)
    }

    /// The requests whose path ends in the test's and binding's, and how many were dropped.
    fn for_test(&self, suffix: &str) -> (Vec<Delivery>, usize) {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let deliveries = kept
            .deliveries
            .iter()
            .filter(|d| d.path.trim_end_matches('/').ends_with(suffix))
            .cloned()
            .collect();
        (deliveries, kept.dropped)
    }

    /// Waits (at most [`WebhookOptions::wait`]) until the test has a delivery for each config,
    /// then checks every delivery it has.
    pub(crate) async fn verify(
        &self,
        test: &str,
        binding: &str,
        configs: &[PushConfig],
    ) -> Result<(), String> {
        let suffix = format!("/{test}/{binding}");
        let deadline = tokio::time::Instant::now() + self.wait;
        let mut changed = self.changed.clone();
        loop {
            changed.borrow_and_update();
            let (deliveries, dropped) = self.for_test(&suffix);
            let complete = configs
                .iter()
                .all(|c| deliveries.iter().any(|d| names_task(d, &c.task_id)));
            // A delivery that is not what it must be fails the test at once.
            if complete || deliveries.iter().any(|d| check(d, configs).is_err()) {
                for delivery in &deliveries {
                    check(delivery, configs)?;
                }
                if complete {
                    return Ok(());
                }
            }
            // The wait ends at the deadline, or when the receiver has stopped (nothing more
            // can arrive).
            let ended = !matches!(
                tokio::time::timeout_at(deadline, changed.changed()).await,
                Ok(Ok(()))
            );
            if ended {
                let (deliveries, _) = self.for_test(&suffix);
                let missing = configs
                    .iter()
                    .find(|c| !deliveries.iter().any(|d| names_task(d, &c.task_id)))
                    .map_or_else(String::new, |c| c.task_id.clone());
                let mut message = format!(
                    "no push delivery for task {missing} reached the runner's webhook within {} ms \
                     ({} request(s) at {}{suffix}); 1.0 §4.3.3: agents MUST attempt delivery at \
                     least once for each configured webhook",
                    self.wait.as_millis(),
                    deliveries.len(),
                    self.url,
                );
                if dropped > 0 {
                    message.push_str(&format!(
                        "; the receiver dropped {dropped} request(s) past its bound"
                    ));
                }
                return Err(message);
            }
        }
    }
}

/// Keeps a request (within the bounds); the status to answer with.
async fn keep(
    request: http::Request<hyper::body::Incoming>,
    kept: &Mutex<Kept>,
    max_body: usize,
    max_kept: usize,
) -> http::StatusCode {
    let (head, body) = request.into_parts();
    let body = Limited::new(body, max_body)
        .collect()
        .await
        .ok()
        .map(|b| b.to_bytes());
    let delivery = Delivery {
        method: head.method.as_str().to_owned(),
        path: head.uri.path().to_owned(),
        headers: head
            .headers
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body,
    };
    let too_large = delivery.body.is_none();
    let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
    if kept.deliveries.len() >= max_kept {
        kept.dropped += 1;
        return http::StatusCode::SERVICE_UNAVAILABLE;
    }
    kept.deliveries.push(delivery);
    if too_large {
        http::StatusCode::PAYLOAD_TOO_LARGE
    } else {
        http::StatusCode::OK
    }
}

/// A push config a test set on the runner's webhook: its task and its `authentication`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PushConfig {
    pub(crate) task_id: String,
    /// `{scheme, credentials}`, when the config has them.
    pub(crate) authentication: Option<Value>,
}

impl PushConfig {
    /// The config of a create step's 1.0 params (a flat `TaskPushNotificationConfig`).
    pub(crate) fn of(params: &Value) -> Option<PushConfig> {
        Some(PushConfig {
            task_id: params.get("taskId")?.as_str()?.to_owned(),
            authentication: params.get("authentication").cloned(),
        })
    }
}

/// The keys of a `StreamResponse`'s oneof.
const PAYLOADS: [&str; 4] = ["task", "message", "statusUpdate", "artifactUpdate"];

/// The task a delivery's body names, if it is a JSON object naming one.
fn task_of(delivery: &Delivery) -> Option<String> {
    let body: Value = serde_json::from_slice(delivery.body.as_ref()?).ok()?;
    let (key, payload) = PAYLOADS
        .iter()
        .find_map(|k| body.get(*k).map(|p| (*k, p)))?;
    let id = if key == "task" {
        payload.get("id")
    } else {
        payload.get("taskId")
    };
    id.and_then(Value::as_str).map(str::to_owned)
}

fn names_task(delivery: &Delivery, task: &str) -> bool {
    task_of(delivery).as_deref() == Some(task)
}

/// Whether a delivery is what A2A 1.0 §4.3.3 has an agent send for one of `configs`.
pub(crate) fn check(delivery: &Delivery, configs: &[PushConfig]) -> Result<(), String> {
    let at = format!("the delivery {} {}", delivery.method, delivery.path);
    if delivery.method != "POST" {
        return Err(format!(
            "{at}: a push notification is an HTTP POST (1.0 §4.3.3)"
        ));
    }
    let Some(body) = &delivery.body else {
        return Err(format!(
            "{at}: its body is larger than the receiver keeps (or broke off)"
        ));
    };
    let media = delivery
        .header("content-type")
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if media != "application/a2a+json" && media != "application/json" {
        return Err(format!(
            "{at}: Content-Type `{media}`, not application/a2a+json (1.0 §4.3.3 request format)"
        ));
    }
    let json: Value = serde_json::from_slice(body).map_err(|e| {
        format!(
            "{at}: the body is not JSON ({e}): {}",
            String::from_utf8_lossy(&body[..body.len().min(200)])
        )
    })?;
    let Some(object) = json.as_object() else {
        return Err(format!(
            "{at}: the body is not a StreamResponse object: {}",
            compact(&json)
        ));
    };
    let present: Vec<&str> = PAYLOADS
        .into_iter()
        .filter(|k| object.contains_key(*k))
        .collect();
    if present.len() != 1 {
        return Err(format!(
            "{at}: a StreamResponse holds exactly one of task, message, statusUpdate, \
             artifactUpdate (1.0 §4.3.3 Payload Structure); this one has {}: {}",
            if present.is_empty() {
                "none".to_owned()
            } else {
                present.join(", ")
            },
            compact(&json)
        ));
    }
    if let Err(e) = serde_json::from_value::<a2a_types::v1::StreamResponse>(json.clone()) {
        return Err(format!(
            "{at}: the body is not a 1.0 StreamResponse ({e}): {}",
            compact(&json)
        ));
    }
    let task = task_of(delivery);
    let Some(config) = configs.iter().find(|c| Some(&c.task_id) == task.as_ref()) else {
        return Err(format!(
            "{at}: it names task {}, not the task the config was set on ({})",
            task.as_deref().unwrap_or("(none)"),
            configs
                .iter()
                .map(|c| c.task_id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    if let Some(auth) = &config.authentication {
        let scheme = auth["scheme"].as_str().unwrap_or_default();
        let credentials = auth["credentials"].as_str().unwrap_or_default();
        let expected = format!("{scheme} {credentials}");
        let got = delivery.header("authorization");
        let ok = got.is_some_and(|got| {
            got.split_once(' ').is_some_and(|(s, c)| {
                s.eq_ignore_ascii_case(scheme) && c.trim_start() == credentials
            })
        });
        if !ok {
            return Err(format!(
                "{at}: Authorization {}, not `{expected}` from the config's authentication \
                 (1.0 §4.3.3, §13.2: the agent MUST include the credentials)",
                got.map_or_else(|| "is missing".to_owned(), |g| format!("`{g}`"))
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn delivery(headers: &[(&str, &str)], body: &str) -> Delivery {
        Delivery {
            method: "POST".into(),
            path: "/PUSH-DELIV-001/jsonrpc".into(),
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            body: Some(Bytes::from(body.to_owned())),
        }
    }

    fn bearer() -> Vec<PushConfig> {
        vec![PushConfig {
            task_id: "t-1".into(),
            authentication: Some(json!({"scheme": "Bearer", "credentials": "test-token"})),
        }]
    }

    const STATUS: &str = r#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}}"#;

    #[test]
    fn a_delivery_as_our_server_sends_it_passes() {
        let ok = delivery(
            &[
                ("content-type", "application/a2a+json"),
                ("authorization", "Bearer test-token"),
            ],
            STATUS,
        );
        assert_eq!(check(&ok, &bearer()), Ok(()));
        // The scheme without regard to case; application/json as the Python SDK sends it.
        let python = delivery(
            &[
                ("content-type", "application/json"),
                ("authorization", "bearer test-token"),
            ],
            r#"{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"}}}"#,
        );
        assert_eq!(check(&python, &bearer()), Ok(()));
        assert_eq!(task_of(&python).as_deref(), Some("t-1"));
    }

    #[test]
    fn credentials_are_checked_against_the_config() {
        let missing = delivery(&[("content-type", "application/a2a+json")], STATUS);
        assert_eq!(
            check(&missing, &bearer()).unwrap_err(),
            "the delivery POST /PUSH-DELIV-001/jsonrpc: Authorization is missing, not `Bearer \
             test-token` from the config's authentication (1.0 §4.3.3, §13.2: the agent MUST \
             include the credentials)"
        );
        let wrong = delivery(
            &[
                ("content-type", "application/a2a+json"),
                ("authorization", "Bearer other"),
            ],
            STATUS,
        );
        assert!(
            check(&wrong, &bearer())
                .unwrap_err()
                .contains("Authorization `Bearer other`, not `Bearer test-token`")
        );
        // A config without authentication asks for none.
        let plain = vec![PushConfig {
            task_id: "t-1".into(),
            authentication: None,
        }];
        assert_eq!(check(&missing, &plain), Ok(()));
    }

    #[test]
    fn the_payload_is_one_stream_response_naming_the_task() {
        let headers = [
            ("content-type", "application/a2a+json"),
            ("authorization", "Bearer test-token"),
        ];
        // A bare Task (the 0.3 body) is no StreamResponse.
        let bare = delivery(
            &headers,
            r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}"#,
        );
        assert_eq!(
            check(&bare, &bearer()).unwrap_err(),
            "the delivery POST /PUSH-DELIV-001/jsonrpc: a StreamResponse holds exactly one of \
             task, message, statusUpdate, artifactUpdate (1.0 §4.3.3 Payload Structure); this one \
             has none: {\"contextId\":\"c-1\",\"id\":\"t-1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}"
        );
        let two = delivery(
            &headers,
            r#"{"task":{"id":"t-1","status":{"state":"TASK_STATE_WORKING"}},"statusUpdate":{"taskId":"t-1","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#,
        );
        assert!(
            check(&two, &bearer())
                .unwrap_err()
                .contains("this one has task, statusUpdate")
        );
        // One key, but not the 1.0 type under it.
        let not_v1 = delivery(&headers, r#"{"statusUpdate":"completed"}"#);
        assert!(check(&not_v1, &bearer()).unwrap_err().starts_with(
            "the delivery POST /PUSH-DELIV-001/jsonrpc: the body is not a 1.0 StreamResponse ("
        ));
        let other_task = delivery(&headers, &STATUS.replace("t-1", "t-2"));
        assert!(
            check(&other_task, &bearer())
                .unwrap_err()
                .ends_with("it names task t-2, not the task the config was set on (t-1)")
        );
        let text = delivery(&[("content-type", "text/plain")], STATUS);
        assert!(check(&text, &bearer()).unwrap_err().ends_with(
            "Content-Type `text/plain`, not application/a2a+json (1.0 §4.3.3 request format)"
        ));
        let get = Delivery {
            method: "GET".into(),
            ..delivery(&headers, STATUS)
        };
        assert!(
            check(&get, &bearer())
                .unwrap_err()
                .ends_with("is an HTTP POST (1.0 §4.3.3)")
        );
    }

    #[tokio::test]
    async fn the_receiver_keeps_deliveries_within_its_bounds() {
        let options = WebhookOptions::default()
            .with_wait(Duration::from_millis(200))
            .with_max_body_bytes(1024)
            .with_max_deliveries(2);
        let receiver = Receiver::start(&options).await.unwrap();
        assert!(
            receiver.url.starts_with("http://127.0.0.1:"),
            "{}",
            receiver.url
        );
        // Listening everywhere, it still gives out an address the agent can call.
        let everywhere = Receiver::start(
            &WebhookOptions::default().with_addr(SocketAddr::from(([0, 0, 0, 0], 0))),
        )
        .await
        .unwrap();
        assert!(
            everywhere.url.starts_with("http://127.0.0.1:"),
            "{}",
            everywhere.url
        );
        let advertised =
            Receiver::start(&WebhookOptions::default().with_url("https://hooks.example/acts/"))
                .await
                .unwrap();
        assert_eq!(
            advertised.url_for("SEC-PUSH-001", "rest"),
            "https://hooks.example/acts/SEC-PUSH-001/rest"
        );
        let url = receiver.url_for("PUSH-DELIV-001", "jsonrpc");
        let http = crate::wire::Http::new();
        let headers = [
            ("content-type".to_owned(), "application/a2a+json".to_owned()),
            ("authorization".to_owned(), "Bearer test-token".to_owned()),
        ];
        let post = |body: Vec<u8>| {
            let (http, url, headers) = (http.clone(), url.clone(), headers.clone());
            async move {
                http.send("POST", &url, &headers, Some(body), Duration::from_secs(5))
                    .await
                    .unwrap()
                    .status
            }
        };
        // Nothing yet: the wait ends with the reason.
        let none = receiver
            .verify("PUSH-DELIV-001", "jsonrpc", &bearer())
            .await;
        assert!(
            none.as_ref().unwrap_err().starts_with(
                "no push delivery for task t-1 reached the runner's webhook within 200 ms (0 request(s) at http://127.0.0.1:"
            ),
            "{none:?}"
        );
        assert_eq!(post(STATUS.as_bytes().to_vec()).await, 200);
        assert_eq!(
            receiver
                .verify("PUSH-DELIV-001", "jsonrpc", &bearer())
                .await,
            Ok(())
        );
        // Another test's path is not this test's delivery.
        assert!(
            receiver
                .verify("PUSH-DELIV-001", "rest", &bearer())
                .await
                .is_err()
        );
        // Past the body bound: 413, kept as a delivery without its body, which fails the test.
        assert_eq!(post(vec![b' '; 2048]).await, 413);
        assert!(
            receiver
                .verify("PUSH-DELIV-001", "jsonrpc", &bearer())
                .await
                .unwrap_err()
                .ends_with("its body is larger than the receiver keeps (or broke off)")
        );
        // Past the count bound: 503, counted.
        assert_eq!(post(STATUS.as_bytes().to_vec()).await, 503);
        assert_eq!(receiver.for_test("/PUSH-DELIV-001/jsonrpc").1, 1);
    }
}
