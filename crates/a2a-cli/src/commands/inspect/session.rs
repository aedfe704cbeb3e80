//! The inspector's session: every call, wire exchange, event and push delivery as one JSON
//! record, in order, at most `--max-records` of them (the oldest dropped, and counted), sent to
//! the pages as they are added.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use a2a_client::{CallInfo, Error, Interceptor};
use bytes::Bytes;
use serde_json::{Value, json};
use tokio::sync::broadcast;

/// How many records a page may be behind before its stream is ended (it reconnects and reads
/// the session again).
const LAG: usize = 1024;

/// The most bytes of a body a wire record keeps.
const MAX_BODY: usize = 64 * 1024;

/// The records of a session, bounded.
pub(crate) struct Session {
    inner: Mutex<Inner>,
    sender: broadcast::Sender<Arc<str>>,
    max: usize,
    started: Instant,
}

struct Inner {
    records: VecDeque<Value>,
    next: u64,
    dropped: u64,
}

impl Session {
    /// A session that keeps at most `max` records (at least 1).
    pub(crate) fn new(max: usize) -> Self {
        Self {
            inner: Mutex::new(Inner {
                records: VecDeque::new(),
                next: 1,
                dropped: 0,
            }),
            sender: broadcast::channel(LAG).0,
            max: max.max(1),
            started: Instant::now(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a record of `kind` with the members of `fields` (an object), numbered and timed;
    /// the oldest goes when the session is full. Returns its number.
    pub(crate) fn add(&self, kind: &str, fields: Value) -> u64 {
        let mut record = match fields {
            Value::Object(map) => map,
            other => {
                let mut map = serde_json::Map::new();
                map.insert("value".into(), other);
                map
            }
        };
        let mut inner = self.lock();
        let seq = inner.next;
        inner.next += 1;
        record.insert("seq".into(), json!(seq));
        record.insert("kind".into(), json!(kind));
        record.insert("time".into(), json!(now_millis()));
        record.insert(
            "elapsedMs".into(),
            json!(u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)),
        );
        let record = Value::Object(record);
        let mut dropped_now = false;
        while inner.records.len() >= self.max {
            inner.records.pop_front();
            inner.dropped += 1;
            dropped_now = true;
        }
        let text: Arc<str> = record.to_string().into();
        inner.records.push_back(record);
        if dropped_now {
            let note = json!({"kind": "dropped", "dropped": inner.dropped, "max": self.max});
            let _ = self.sender.send(note.to_string().into());
        }
        // Sent under the lock, so that a page reading the session sees each record once.
        let _ = self.sender.send(text);
        seq
    }

    /// A note in the session.
    pub(crate) fn note(&self, text: impl Into<String>) {
        self.add("note", json!({"text": text.into()}));
    }

    /// The records as they stand, how many were dropped, and the receiver of those to come.
    pub(crate) fn subscribe(&self) -> (Vec<Value>, u64, broadcast::Receiver<Arc<str>>) {
        let inner = self.lock();
        (
            inner.records.iter().cloned().collect(),
            inner.dropped,
            self.sender.subscribe(),
        )
    }

    /// The whole session as one document (the export).
    pub(crate) fn export(&self, extra: Value) -> Value {
        let inner = self.lock();
        json!({
            "inspector": concat!("a2a inspect ", env!("CARGO_PKG_VERSION")),
            "exportedAt": now_millis(),
            "maxRecords": self.max,
            "dropped": inner.dropped,
            "connection": extra,
            "records": inner.records.iter().collect::<Vec<_>>(),
        })
    }
}

fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The names of headers whose values never show (their first word kept: `Bearer ••••`).
const SECRET_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "api-key",
    "x-a2a-notification-token",
];

/// The masked value of a secret header.
pub(crate) const MASK: &str = "••••";

/// Headers as `[name, value]` pairs, the values of secret ones (and of `extra` names) masked.
pub(crate) fn headers(map: &http::HeaderMap, extra: &HashSet<String>) -> Value {
    Value::Array(
        map.iter()
            .map(|(name, value)| {
                let lower = name.as_str();
                let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
                let shown = if SECRET_HEADERS.contains(&lower) || extra.contains(lower) {
                    match text.split_once(' ') {
                        Some((scheme, _)) if lower.ends_with("authorization") => {
                            format!("{scheme} {MASK}")
                        }
                        _ => MASK.to_owned(),
                    }
                } else {
                    text
                };
                json!([lower, shown])
            })
            .collect(),
    )
}

/// A body for the wire view: JSON pretty-printed (credentials in it masked), other text as it
/// is, binary (gRPC's protobuf: `grpc`) as a hex dump; cut at [`MAX_BODY`].
pub(crate) fn body(bytes: &[u8], grpc: bool) -> Value {
    if bytes.is_empty() {
        return json!({"empty": true});
    }
    if grpc {
        return hex(bytes);
    }
    if let Ok(mut value) = serde_json::from_slice::<Value>(bytes) {
        mask_json(&mut value);
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        return json!({"json": true, "text": cut(&text), "bytes": bytes.len()});
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.contains('\0') => json!({"text": cut(text), "bytes": bytes.len()}),
        _ => hex(bytes),
    }
}

/// A hex dump, 16 bytes a line.
fn hex(bytes: &[u8]) -> Value {
    let shown = &bytes[..bytes.len().min(MAX_BODY / 4)];
    let mut hex = String::with_capacity(shown.len() * 3);
    for (i, b) in shown.iter().enumerate() {
        if i > 0 {
            hex.push(if i % 16 == 0 { '\n' } else { ' ' });
        }
        hex.push_str(&format!("{b:02x}"));
    }
    json!({"binary": true, "text": hex, "bytes": bytes.len()})
}

fn cut(text: &str) -> String {
    if text.len() <= MAX_BODY {
        return text.to_owned();
    }
    let mut end = MAX_BODY;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n… ({} more bytes)", &text[..end], text.len() - end)
}

/// Masks the values of members that carry credentials (`token`, `credentials`, `password`,
/// `apiKey`...) wherever they are.
fn mask_json(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (name, member) in map.iter_mut() {
                let lower = name.to_ascii_lowercase();
                if member.is_string()
                    && (lower == "token"
                        || lower == "credentials"
                        || lower == "password"
                        || lower == "apikey"
                        || lower == "access_token"
                        || lower == "client_secret")
                {
                    *member = json!(MASK);
                } else {
                    mask_json(member);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_json),
        _ => {}
    }
}

/// Whether a message is gRPC's (`application/grpc...`).
fn is_grpc(headers: &http::HeaderMap) -> bool {
    headers
        .get(http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/grpc"))
}

/// The interceptor that puts each request and response of the client into the session.
pub(crate) struct Capture {
    /// The session.
    pub(crate) session: Arc<Session>,
    /// The binding in use (`JSONRPC`, `HTTP+JSON`, `GRPC`), once the client is built.
    pub(crate) binding: std::sync::OnceLock<String>,
    /// The protocol version spoken.
    pub(crate) version: String,
    /// Header names (lower case) to mask besides the usual ones (`-H` names, the API key's).
    pub(crate) secret_headers: HashSet<String>,
}

impl Interceptor for Capture {
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        self.session.add(
            "wire",
            json!({
                "dir": "request",
                "method": call.method,
                "attempt": call.attempt,
                "binding": self.binding.get(),
                "version": self.version,
                "http": format!("{} {}", request.method(), request.uri()),
                "headers": headers(request.headers(), &self.secret_headers),
                // gRPC requests are `POST /<package>.A2AService/<rpc>`, their body protobuf.
                "body": body(
                    request.body(),
                    is_grpc(request.headers()) || request.uri().path().contains(".A2AService/")
                ),
            }),
        );
    }

    fn on_response(
        &self,
        call: &CallInfo,
        response: &http::response::Parts,
        body_bytes: Option<&Bytes>,
    ) {
        let grpc = is_grpc(&response.headers);
        let streams = matches!(call.method, "SendStreamingMessage" | "SubscribeToTask");
        let shown = match body_bytes {
            Some(bytes) => body(bytes, grpc),
            // The gRPC transport decodes a unary answer itself: the call's record has it.
            None if grpc && !streams => json!({"decoded": true}),
            None => json!({"stream": true}),
        };
        self.session.add(
            "wire",
            json!({
                "dir": "response",
                "method": call.method,
                "attempt": call.attempt,
                "binding": self.binding.get(),
                "version": self.version,
                "status": response.status.as_u16(),
                "headers": headers(&response.headers, &self.secret_headers),
                "body": shown,
            }),
        );
    }

    fn on_error(&self, call: &CallInfo, error: &Error) {
        self.session.add(
            "wire",
            json!({
                "dir": "error",
                "method": call.method,
                "attempt": call.attempt,
                "binding": self.binding.get(),
                "version": self.version,
                "error": error.to_string(),
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_records_go_and_are_counted() {
        let session = Session::new(2);
        for n in 0..3 {
            session.note(format!("n{n}"));
        }
        let (records, dropped, _) = session.subscribe();
        assert_eq!(dropped, 1);
        let texts: Vec<&str> = records
            .iter()
            .map(|r| r["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["n1", "n2"]);
        assert_eq!(records[0]["seq"], json!(2));
    }

    #[test]
    fn secrets_are_masked() {
        let mut map = http::HeaderMap::new();
        map.insert("authorization", "Bearer abc".parse().unwrap());
        map.insert("x-key", "k1".parse().unwrap());
        map.insert("a2a-version", "1.0".parse().unwrap());
        let extra = HashSet::from(["x-key".to_owned()]);
        assert_eq!(
            headers(&map, &extra),
            json!([
                ["authorization", "Bearer ••••"],
                ["x-key", "••••"],
                ["a2a-version", "1.0"]
            ])
        );
        let shown = body(
            br#"{"pushNotificationConfig":{"url":"http://h","token":"t0"}}"#,
            false,
        );
        assert_eq!(
            shown["text"],
            json!(
                "{\n  \"pushNotificationConfig\": {\n    \"token\": \"••••\",\n    \"url\": \"http://h\"\n  }\n}"
            )
        );
        assert_eq!(body(&[0, 1, 255], false)["text"], json!("00 01 ff"));
        assert_eq!(body(b"hi", true)["text"], json!("68 69"));
    }
}
