//! Diagnostics on stderr: warnings, notes, and with `--debug` the wire exchange.
//!
//! Every line goes through [`Diag::redact`]: the credentials given to this run (`--bearer`,
//! `--api-key`, service parameters, `-H` values, a stored OAuth token) and the values of
//! credential headers never reach stderr, whatever the flags.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use a2a_client::{CallInfo, Error, Interceptor};
use bytes::Bytes;

/// Writes diagnostics to stderr, redacted.
#[derive(Clone, Debug, Default)]
pub(crate) struct Diag {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    debug: bool,
    secrets: Mutex<Vec<String>>,
    /// Header names whose values are never shown.
    hidden: Mutex<Vec<String>>,
}

/// Headers whose values are credentials.
const CREDENTIAL_HEADERS: [&str; 4] = [
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
];

const REDACTED: &str = "[redacted]";

/// The call name of a file fetched for `task download`: its body is shown by its size only.
pub(crate) const FILE_CALL: &str = "DownloadFile";

impl Diag {
    /// Diagnostics; `debug` adds the `--debug` lines.
    pub(crate) fn new(debug: bool) -> Self {
        Self {
            inner: Arc::new(Inner {
                debug,
                secrets: Mutex::new(Vec::new()),
                hidden: Mutex::new(CREDENTIAL_HEADERS.iter().map(|h| (*h).to_owned()).collect()),
            }),
        }
    }

    /// `--debug`.
    pub(crate) fn debugging(&self) -> bool {
        self.inner.debug
    }

    /// A value never to show.
    pub(crate) fn secret(&self, value: &str) {
        let value = value.trim();
        // Very short values would redact ordinary text; they are still hidden as header values.
        if value.len() >= 4 {
            let mut secrets = self.inner.secrets.lock().expect("not poisoned");
            if !secrets.iter().any(|s| s == value) {
                secrets.push(value.to_owned());
                // Longest first, so that a secret holding another is hidden whole.
                secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
            }
        }
    }

    /// A header whose value is never shown.
    pub(crate) fn hide_header(&self, name: &str) {
        let name = name.trim().to_ascii_lowercase();
        let mut hidden = self.inner.hidden.lock().expect("not poisoned");
        if !hidden.contains(&name) {
            hidden.push(name);
        }
    }

    fn hidden(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        self.inner
            .hidden
            .lock()
            .expect("not poisoned")
            .contains(&name)
    }

    /// `text` with every secret replaced by `[redacted]`.
    pub(crate) fn redact(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in self.inner.secrets.lock().expect("not poisoned").iter() {
            out = out.replace(secret.as_str(), REDACTED);
        }
        out
    }

    fn line(&self, text: &str) {
        let text = self.redact(text);
        let mut err = std::io::stderr().lock();
        for line in text.lines() {
            let _ = writeln!(err, "{}", crate::output::clean(line));
        }
    }

    /// `warning: ...`.
    pub(crate) fn warn(&self, text: &str) {
        self.line(&format!("warning: {text}"));
    }

    /// `note: ...`: an outcome or a next step worth saying.
    pub(crate) fn note(&self, text: &str) {
        self.line(&format!("note: {text}"));
    }

    /// `debug: ...`, with `--debug` only.
    pub(crate) fn debug(&self, text: &str) {
        if self.inner.debug {
            self.line(&format!("debug: {text}"));
        }
    }

    /// An error line, for text mode.
    pub(crate) fn error_fields(&self, fields: &[(&str, String)]) {
        let mut text = String::new();
        for (label, value) in fields {
            text.push_str(&format!("{label}: {}\n", value.replace('\n', " ")));
        }
        self.line(&text);
    }

    /// The interceptor that prints the wire exchange under `--debug`.
    pub(crate) fn interceptor(&self) -> WireLog {
        WireLog {
            diag: self.clone(),
            started: Mutex::new(HashMap::new()),
        }
    }

    /// Under `--debug`, a request this program received (a push delivery): its method, path,
    /// headers and body, redacted as the requests it sends.
    pub(crate) fn inbound(&self, what: &str, head: &http::request::Parts, body: &[u8]) {
        if !self.debugging() {
            return;
        }
        self.debug(&format!("<= {what}: {} {}", head.method, head.uri));
        self.headers(&head.headers);
        self.body(body, false);
    }

    fn headers(&self, headers: &http::HeaderMap) {
        for (name, value) in headers {
            let shown = if self.hidden(name.as_str()) {
                REDACTED.to_owned()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            self.debug(&format!("  {name}: {shown}"));
        }
    }

    /// A body: text as it is (JSON with its credentials hidden), a `binary` one (a gRPC
    /// message) or one that is no text on one line, escaped.
    fn body(&self, body: &[u8], binary: bool) {
        const LIMIT: usize = 64 * 1024;
        if body.is_empty() {
            return;
        }
        let shown = &body[..body.len().min(LIMIT)];
        if binary || is_binary(shown) {
            // A gRPC message (protobuf): on one line, the bytes that are no printable ASCII
            // escaped.
            self.debug(&format!(
                "  (protobuf, {} bytes) {}",
                body.len(),
                escape_bytes(shown)
            ));
        } else {
            let text = String::from_utf8_lossy(shown);
            let text = redact_json_credentials(&text);
            self.debug(&format!("  {text}"));
        }
        if body.len() > LIMIT {
            self.debug(&format!("  ... ({} bytes in all)", body.len()));
        }
    }
}

/// A body that is not text: not UTF-8 (but for a character cut at the end), or holding control
/// characters other than tabs and line ends.
fn is_binary(body: &[u8]) -> bool {
    let utf8 = match std::str::from_utf8(body) {
        Ok(_) => true,
        Err(err) => err.error_len().is_none(),
    };
    !utf8
        || body
            .iter()
            .any(|b| b.is_ascii_control() && !matches!(b, b'\t' | b'\n' | b'\r'))
}

/// Bytes on one line: printable ASCII as it is, any other byte as `\xNN`.
fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_graphic() || b == b' ' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The members whose values are credentials: push configs' `credentials` and `token`, OAuth's
/// tokens.
const SECRET_MEMBERS: [&str; 6] = [
    "credentials",
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "device_code",
];

/// A JSON body with the values of credential members hidden.
fn redact_json_credentials(text: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text) else {
        return text.to_owned();
    };
    fn walk(value: &mut serde_json::Value) -> bool {
        let mut changed = false;
        match value {
            serde_json::Value::Object(map) => {
                for (key, member) in map.iter_mut() {
                    if SECRET_MEMBERS.contains(&key.as_str()) && member.is_string() {
                        *member = serde_json::Value::from(REDACTED);
                        changed = true;
                    } else {
                        changed |= walk(member);
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    changed |= walk(item);
                }
            }
            _ => {}
        }
        changed
    }
    if walk(&mut value) {
        value.to_string()
    } else {
        text.to_owned()
    }
}

/// Prints each request and response (head and body) and each failed attempt on stderr.
pub(crate) struct WireLog {
    diag: Diag,
    started: Mutex<HashMap<(&'static str, u32), Instant>>,
}

impl WireLog {
    fn elapsed(&self, call: &CallInfo) -> String {
        self.started
            .lock()
            .expect("not poisoned")
            .remove(&(call.method, call.attempt))
            .map(|at| format!(" after {} ms", at.elapsed().as_millis()))
            .unwrap_or_default()
    }
}

impl Interceptor for WireLog {
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        if !self.diag.debugging() {
            return;
        }
        self.started
            .lock()
            .expect("not poisoned")
            .insert((call.method, call.attempt), Instant::now());
        let attempt = if call.attempt > 0 {
            format!(" (retry {})", call.attempt)
        } else {
            String::new()
        };
        self.diag.debug(&format!(
            "-> {}{attempt}: {} {}",
            call.method,
            request.method(),
            request.uri()
        ));
        self.diag.headers(request.headers());
        // gRPC calls are shown as `POST /<package>.A2AService/<rpc>`, their body protobuf.
        let grpc = request.uri().path().contains(".A2AService/");
        self.diag.body(request.body(), grpc);
    }

    fn on_response(&self, call: &CallInfo, response: &http::response::Parts, body: Option<&Bytes>) {
        if !self.diag.debugging() {
            return;
        }
        let elapsed = self.elapsed(call);
        self.diag
            .debug(&format!("<- {}: {}{elapsed}", call.method, response.status));
        self.diag.headers(&response.headers);
        let grpc = response
            .headers
            .get(http::header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/grpc"));
        let streams = matches!(call.method, "SendStreamingMessage" | "SubscribeToTask");
        match body {
            Some(body) if call.method == FILE_CALL => {
                self.diag.debug(&format!("  ({} bytes)", body.len()));
            }
            Some(body) => self.diag.body(body, grpc),
            None if grpc && !streams => self.diag.debug(
                "  (a gRPC answer: the transport decodes its message, which the command prints)",
            ),
            None => self
                .diag
                .debug("  (an event stream: its events follow as they arrive)"),
        }
    }

    fn on_error(&self, call: &CallInfo, error: &Error) {
        let elapsed = self.elapsed(call);
        self.diag.debug(&format!(
            "xx {} attempt {} failed{elapsed}: {error}{}",
            call.method,
            call.attempt + 1,
            if error.is_transient() {
                " (a failure on the way: the call is tried again while --retries allows)"
            } else {
                ""
            }
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_show() {
        let diag = Diag::new(true);
        diag.secret("s3cr3t-token");
        assert_eq!(diag.redact("Bearer s3cr3t-token!"), "Bearer [redacted]!");
        assert!(diag.hidden("Authorization"));
        diag.hide_header("X-Api-Key");
        assert!(diag.hidden("x-api-key"));
    }

    #[test]
    fn credentials_are_hidden_in_bodies() {
        let body = r#"{"url":"http://h/","token":"t","authentication":{"scheme":"Bearer","credentials":"abc"}}"#;
        assert_eq!(
            redact_json_credentials(body),
            r#"{"authentication":{"credentials":"[redacted]","scheme":"Bearer"},"token":"[redacted]","url":"http://h/"}"#
        );
        assert_eq!(
            redact_json_credentials(r#"{"access_token":"x","expires_in":1}"#),
            r#"{"access_token":"[redacted]","expires_in":1}"#
        );
        assert_eq!(redact_json_credentials("not json"), "not json");
    }

    #[test]
    fn binary_bodies_show_on_one_line() {
        assert!(is_binary(b"\x12\x04\n\x02hi"));
        assert!(!is_binary("{\"text\":\"h\u{e9}\"}\n".as_bytes()));
        // A character cut by the display limit is still text.
        assert!(!is_binary(&"\u{e9}".as_bytes()[..1]));
        assert_eq!(
            escape_bytes(b"\x12\x04\n\x02hi there"),
            "\\x12\\x04\\x0a\\x02hi there"
        );
    }
}
