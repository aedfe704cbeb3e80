//! The runner's HTTP: one request, its status, headers and body; a stream read to its end (or
//! a deadline) as SSE events.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// An answer: status, headers (names lowercase), body.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Bytes,
    /// The `data` of each SSE event, when the answer was `text/event-stream`.
    pub(crate) events: Option<Vec<String>>,
}

impl Answer {
    /// The headers as a JSON object.
    pub(crate) fn headers_json(&self) -> Value {
        Value::Object(
            self.headers
                .iter()
                .map(|(n, v)| (n.clone(), Value::String(v.clone())))
                .collect(),
        )
    }

    /// The body as JSON (a string when it is not JSON).
    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&self.body).into_owned()))
    }
}

/// The HTTP client (plain HTTP/1.1).
#[derive(Clone)]
pub(crate) struct Http {
    client: Client<HttpConnector, Full<Bytes>>,
}

impl Http {
    pub(crate) fn new() -> Self {
        Http {
            client: Client::builder(TokioExecutor::new()).build_http(),
        }
    }

    /// Sends one request; reads the answer until it ends or `timeout` passes (a stream cut
    /// at the deadline keeps the events read so far).
    pub(crate) async fn send(
        &self,
        method: &str,
        url: &str,
        headers: &[(String, String)],
        body: Option<Vec<u8>>,
        timeout: Duration,
    ) -> Result<Answer, String> {
        let mut request = http::Request::builder().method(method).uri(url);
        for (name, value) in headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| format!("cannot build the request {method} {url}: {e}"))?;
        let response = tokio::time::timeout(timeout, self.client.request(request))
            .await
            .map_err(|_| {
                format!(
                    "{method} {url}: no answer within {} ms",
                    timeout.as_millis()
                )
            })?
            .map_err(|e| format!("{method} {url}: {e}"))?;
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let streaming = headers
            .iter()
            .any(|(n, v)| n == "content-type" && v.starts_with("text/event-stream"));
        let mut body = response.into_body();
        let mut bytes = Vec::new();
        let mut decoder = a2a_sse::Decoder::new();
        let mut events = Vec::new();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            match tokio::time::timeout_at(deadline, body.frame()).await {
                Err(_) if streaming => break,
                Err(_) => {
                    return Err(format!(
                        "{method} {url}: the body did not end within {} ms",
                        timeout.as_millis()
                    ));
                }
                Ok(None) => break,
                Ok(Some(Err(e))) if streaming => {
                    events.push(format!("(the stream broke: {e})"));
                    break;
                }
                Ok(Some(Err(e))) => return Err(format!("{method} {url}: {e}")),
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        if streaming {
                            for frame in decoder.decode(&data) {
                                if let Ok(a2a_sse::Frame::Event(event)) = frame {
                                    events.push(event.data().unwrap_or_default().to_owned());
                                }
                            }
                        }
                        bytes.extend_from_slice(&data);
                    }
                }
            }
        }
        Ok(Answer {
            status,
            headers,
            body: Bytes::from(bytes),
            events: streaming.then_some(events),
        })
    }
}
