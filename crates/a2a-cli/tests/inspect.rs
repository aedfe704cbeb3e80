//! `a2a inspect` in a real browser: Debian's chromium driven over WebDriver (chromedriver),
//! against `a2a mock` and `a2a serve --push-sign`; and the inspector's guards (token, Origin,
//! Host, loopback) over plain HTTP.
//!
//! chromium and chromium-driver are installed with apt-get when missing (CI runs as root on a
//! fresh machine). Screenshots of the main views go to `<target>/inspect/` (docs/inspect.md
//! shows copies of them, from docs/inspect/).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

mod support;

use support::{CuttingProxy, Mock, Serve, Served, TempDir, card_file, card_json, interface};

const A2A: &str = env!("CARGO_BIN_EXE_a2a");

/// How long a wait for the page may take before the test fails (a bound, not an assertion on
/// time: every wait ends as soon as its condition holds).
const WAIT: Duration = Duration::from_secs(30);

// ---- a minimal HTTP/1.1 client (chromedriver, the inspector's guards) ----

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

fn http(method: &str, url: &str, headers: &[(&str, &str)], body: Option<&Value>) -> Reply {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut stream = TcpStream::connect(authority).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let payload = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: {authority}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if body.is_some() {
        request.push_str("Content-Type: application/json\r\n");
    }
    request.push_str(&format!(
        "Content-Length: {}\r\n\r\n{payload}",
        payload.len()
    ));
    stream.write_all(request.as_bytes()).unwrap();
    // chromedriver keeps the connection open whatever `Connection` says: read what the head
    // announces (Content-Length, chunked), else to the end.
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line.split(' ').nth(1).unwrap().trim().parse().unwrap();
    let mut headers: Vec<(String, String)> = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        match line.trim_end().split_once(':') {
            Some((n, v)) => headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned())),
            None => break,
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let mut body = Vec::new();
    if let Some(length) = header("content-length") {
        body.resize(length.parse().unwrap(), 0);
        reader.read_exact(&mut body).unwrap();
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            let size = usize::from_str_radix(line.trim(), 16).unwrap();
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).unwrap();
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        reader.read_to_end(&mut body).unwrap();
    }
    Reply {
        status,
        headers,
        body,
    }
}

// ---- a minimal WebDriver client ----

struct Browser {
    driver: Child,
    base: String,
    shots: PathBuf,
}

impl Browser {
    fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let root = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < WAIT, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1200,860"],
            },
        }}});
        let reply = http("POST", &format!("{root}/session"), &[], Some(&caps));
        let session: Value = serde_json::from_slice(&reply.body).unwrap();
        let id = session["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {session}"));
        let shots = PathBuf::from(A2A)
            .parent()
            .and_then(|p| p.parent())
            .unwrap()
            .join("inspect");
        std::fs::create_dir_all(&shots).unwrap();
        Browser {
            driver,
            base: format!("{root}/session/{id}"),
            shots,
        }
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let reply = http(method, &format!("{}{path}", self.base), &[], body.as_ref());
        let value: Value = serde_json::from_slice(&reply.body).unwrap();
        assert!(
            reply.status == 200,
            "WebDriver {method} {path}: {} {value}",
            reply.status
        );
        value["value"].clone()
    }

    fn go(&self, url: &str) {
        self.command("POST", "/url", Some(json!({"url": url})));
    }

    fn script(&self, js: &str, args: Value) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": args})),
        )
    }

    fn find(&self, css: &str) -> String {
        let found = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap()
            .to_owned()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.command("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn type_in(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.command("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.command(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({"text": text})),
        );
    }

    fn set(&self, id: &str, value: &str) {
        self.script(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1]; \
             e.dispatchEvent(new Event('change'));",
            json!([id, value]),
        );
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.command("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// Waits until `js` (a function body) returns something other than null/false; returns it.
    fn until(&self, what: &str, js: &str) -> Value {
        let started = Instant::now();
        loop {
            let value = self.script(js, json!([]));
            if !value.is_null() && value != json!(false) {
                return value;
            }
            assert!(started.elapsed() < WAIT, "the page never showed {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn tab(&self, view: &str) {
        self.click(&format!("#tabs button[data-view={view}]"));
    }

    fn screenshot(&self, name: &str) {
        let data = self.command("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(self.shots.join(format!("{name}.png")), png).unwrap();
    }

    fn connect(&self, agent: &str, transport: &str) {
        self.tab("connect");
        self.type_in("#agent", agent);
        self.set("transport", transport);
        self.click("#connect");
        self.until(
            "the connection",
            "const s = document.getElementById('connect-status'); \
             return !s.textContent.startsWith('connecting') && s.textContent;",
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http("DELETE", &self.base, &[], None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn chromedriver() -> &'static str {
    "chromedriver"
}

fn chromium() -> String {
    for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if std::path::Path::new(candidate).exists() {
            return candidate.to_owned();
        }
    }
    "chromium".to_owned()
}

/// chromium and chromedriver, installed with apt-get when missing (as root, as CI runs).
fn ensure_browser() {
    let have = |program: &str| {
        Command::new(program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if have(chromedriver()) && have(&chromium()) {
        return;
    }
    let started = Instant::now();
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    let installed = apt(&["update", "-q"])
        && apt(&[
            "install",
            "-y",
            "-q",
            "--no-install-recommends",
            "chromium",
            "chromium-driver",
        ]);
    assert!(
        installed && have(chromedriver()),
        "the browser tests need Debian's chromium and chromium-driver, and apt-get could not \
         install them (run as root, or `apt-get install chromium chromium-driver`)"
    );
    eprintln!(
        "installed chromium and chromium-driver in {} s",
        started.elapsed().as_secs()
    );
}

/// `a2a inspect ARGS --addr 127.0.0.1:0`; the URL it printed.
struct Inspector {
    child: Child,
    url: String,
}

impl Inspector {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(A2A)
            .arg("inspect")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("a2a inspect starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
            .to_owned();
        Inspector { child, url }
    }
}

impl Drop for Inspector {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_inspector_refuses_requests_without_its_token_or_from_another_origin() {
    let inspector = Inspector::start(&[]);
    let url = &inspector.url;
    // Loopback by default, the token in the path.
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let (origin, token) = url
        .trim_end_matches('/')
        .rsplit_once('/')
        .map(|(o, t)| (o.to_owned(), t.to_owned()))
        .unwrap();
    assert_eq!(token.len(), 22, "128 random bits, base64url: {token}");
    assert_eq!(http("GET", url, &[], None).status, 200);
    assert_eq!(http("GET", &format!("{url}app.js"), &[], None).status, 200);
    for path in [
        "/",
        "/app.js",
        "/events",
        "/api/state",
        "/export",
        "/wrong-token/",
    ] {
        let reply = http("GET", &format!("{origin}{path}"), &[], None);
        assert_eq!(reply.status, 403, "{path}");
        assert_eq!(
            String::from_utf8_lossy(&reply.body),
            "forbidden: the URL lacks the inspector's token (use the URL it printed)\n"
        );
    }
    let foreign = http(
        "POST",
        &format!("{url}api/connect"),
        &[("Origin", "http://evil.example")],
        Some(&json!({"agent": "127.0.0.1:1"})),
    );
    assert_eq!(foreign.status, 403);
    assert_eq!(
        String::from_utf8_lossy(&foreign.body),
        "forbidden: a request from another origin\n"
    );
    let own = http(
        "GET",
        &format!("{url}api/state"),
        &[("Origin", &origin)],
        None,
    );
    assert_eq!(own.status, 200);
    // DNS rebinding: a name that resolves to 127.0.0.1 but is not the inspector's.
    let rebound = http(
        "GET",
        &format!("{url}api/state"),
        &[("Host", "attacker.example")],
        None,
    );
    assert_eq!(rebound.status, 403);
    let page = http("GET", url, &[], None);
    assert!(
        page.headers
            .iter()
            .any(|(n, v)| n == "content-security-policy" && v.starts_with("default-src 'self'")),
        "{:?}",
        page.headers
    );
}

#[test]
fn the_inspector_in_a_browser_against_the_mock_and_a_push_agent() {
    ensure_browser();
    let mock = Mock::start(&[]);
    let pusher = Serve::start(&["--push-allow", "127.0.0.1", "--push-sign"]);
    let dir = TempDir::new();
    let bad = dir.file(
        "bad-card.json",
        json!({
            "name": "Broken agent", "description": "A card with mistakes on purpose",
            "version": "1.0.0",
            "supportedInterfaces": [{"url": "relative/path", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": "yes"},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "s1", "name": "Skill", "description": "d", "tags": ["t"]}]
        })
        .to_string()
        .as_bytes(),
    );
    let inspector = Inspector::start(&["-a", mock.host(), "--max-records", "2000"]);
    let browser = Browser::start();
    browser.go(&inspector.url);

    // Connected at start (-a): the chat is shown, the card valid.
    browser.until(
        "the live session",
        "return document.getElementById('live').textContent === 'live' && \
         document.getElementById('binding').textContent;",
    );
    assert_eq!(browser.text("#binding"), "JSONRPC · A2A 1.0");
    browser.tab("card");
    assert_eq!(browser.text("#card-validity"), "valid");
    assert_eq!(browser.text("#card-signature"), "absent");
    assert!(browser.text("#view-card").contains("Demo agent"));
    browser.screenshot("card");

    // A deliberately invalid card: its findings, by the CLI's validator.
    browser.connect(bad.to_str().unwrap(), "");
    browser.tab("card");
    assert_eq!(
        browser.text("#card-validity"),
        "invalid: 1 error(s), 1 warning(s)"
    );
    assert_eq!(
        browser.text("#card-findings"),
        "error capabilities.streaming: expected true or false, found a string\n\
         warning supportedInterfaces[0].url: not an absolute http(s) URL"
    );
    browser.screenshot("card-invalid");

    // A streamed chat, event by event.
    browser.connect(mock.host(), "");
    browser.tab("chat");
    browser.type_in("#chat-text", "stream");
    browser.click("#chat-send");
    let story = browser.until(
        "the assembled story",
        "const a = document.querySelector('#chat-log .artifact .artifact-text'); \
         const m = document.querySelector('#chat-log .artifact .meta'); \
         return a && m.textContent.endsWith('complete') && a.textContent;",
    );
    assert_eq!(
        story,
        json!("Once upon a time, an agent answered every message it was sent.")
    );
    browser.tab("timeline");
    let rows = browser.script(
        "return [...document.querySelectorAll('#timeline tr.event')].map(r => \
         [...r.cells].slice(1).map(c => c.textContent));",
        json!([]),
    );
    assert_eq!(
        rows,
        json!([
            ["stream", "1", "task", "→ SUBMITTED", ""],
            [
                "stream",
                "2",
                "statusUpdate",
                "→ WORKING",
                "Writing a short story"
            ],
            ["stream", "3", "artifactUpdate", "", "Once upon a time, "],
            ["stream", "4", "artifactUpdate", "", "+ an agent answered "],
            [
                "stream",
                "5",
                "artifactUpdate",
                "",
                "+ every message it was sent. (last chunk)"
            ],
            ["stream", "6", "statusUpdate", "→ COMPLETED", ""]
        ])
    );
    assert_eq!(
        browser.text("#timeline pre.assembled"),
        "Once upon a time, an agent answered every message it was sent."
    );
    browser.screenshot("timeline");

    // An input-required turn, continued on the same task.
    browser.tab("chat");
    browser.type_in("#chat-text", "ask");
    browser.click("#chat-send");
    browser.until(
        "the question",
        "return !document.getElementById('chat-banner').hidden;",
    );
    let asked = browser.script(
        "return document.getElementById('chat-task').value;",
        json!([]),
    );
    assert!(browser.text("#chat-banner").ends_with(&format!(
        "your next message continues task {}.",
        asked.as_str().unwrap()
    )));
    browser.type_in("#chat-text", "Lisbon");
    browser.click("#chat-send");
    let booked = browser.until(
        "the booking",
        "const b = [...document.querySelectorAll('#chat-log .artifact-text')] \
         .find(e => e.textContent.startsWith('Booked')); return b && b.textContent;",
    );
    assert_eq!(booked, json!("Booked a trip to Lisbon."));
    browser.screenshot("chat");

    // Cancel.
    browser.type_in("#chat-text", "slow");
    browser.click("#chat-send");
    browser.until(
        "the working task",
        "return [...document.querySelectorAll('#chat-log .state')].some(s => \
         s.textContent === 'WORKING' && s.closest('.bubble').textContent.includes('until canceled'));",
    );
    browser.click("#chat-cancel");
    let canceled = browser.until(
        "the canceled task",
        "const s = document.getElementById('chat-status').textContent; \
         return s.endsWith('TASK_STATE_CANCELED') && s;",
    );
    assert!(
        canceled.as_str().unwrap().starts_with("task "),
        "{canceled}"
    );

    // The wire, per binding.
    for (binding, route) in [
        ("JSONRPC", "POST http://"),
        ("HTTP+JSON", "/message:send"),
        ("GRPC", ".A2AService/SendMessage"),
    ] {
        browser.connect(mock.host(), binding);
        // The header's binding comes with the session's card record, which may follow the
        // connect form's own status line.
        let shown = browser.until(
            "the connected binding",
            &format!(
                "const b = document.getElementById('binding').textContent; \
                 return b.startsWith('{binding} ') && b;"
            ),
        );
        assert_eq!(shown, json!(format!("{binding} · A2A 1.0")));
        browser.tab("chat");
        browser.script(
            "document.getElementById('chat-stream').checked = false;",
            json!([]),
        );
        browser.type_in("#chat-text", &format!("over {binding}"));
        browser.click("#chat-send");
        browser.tab("wire");
        browser.set("wire-binding", binding);
        let summary = browser.until(
            "the exchange",
            "const r = document.querySelector('#wire .wire-item.request[data-method=SendMessage]'); \
             return r && r.querySelector('summary').textContent;",
        );
        let summary = summary.as_str().unwrap();
        assert!(
            summary.starts_with(&format!("→ SendMessage {binding} 1.0")),
            "{summary}"
        );
        assert!(summary.contains(route), "{summary}");
        browser.script(
            "document.querySelectorAll('#wire details.wire-item').forEach((d, i) => d.open = i < 2); \
             document.querySelectorAll('#wire details.decoded').forEach((d) => d.open = true);",
            json!([]),
        );
        let body = browser.text("#wire .wire-item.request[data-method=SendMessage] pre.body");
        if binding == "GRPC" {
            assert!(body.starts_with("(binary, protobuf: "), "{body}");
            // The decoded JSON is the call's record, which may arrive after the exchange's.
            let decoded = browser.until(
                "the decoded gRPC request",
                "const p = document.querySelector('#wire .wire-item.request[data-method=SendMessage] .decoded pre'); \
                 return p && p.textContent;",
            );
            let decoded = decoded.as_str().unwrap();
            assert!(decoded.contains("\"text\": \"over GRPC\""), "{decoded}");
        } else {
            assert!(
                body.contains(&format!("\"text\": \"over {binding}\"")),
                "{body}"
            );
        }
        browser.screenshot(&format!(
            "wire-{}",
            binding.to_lowercase().replace('+', "-")
        ));
    }

    // The protocol version switch: 0.3 over JSON-RPC speaks `message/send`.
    browser.set("version", "0.3");
    browser.connect(mock.host(), "JSONRPC");
    assert_eq!(browser.text("#binding"), "JSONRPC · A2A 0.3");
    browser.tab("chat");
    browser.type_in("#chat-text", "hello");
    browser.click("#chat-send");
    browser.tab("wire");
    browser.set("wire-binding", "JSONRPC");
    let legacy = browser.until(
        "the 0.3 exchange",
        "const r = [...document.querySelectorAll('#wire .wire-item.request[data-method=SendMessage]')] \
         .find(e => e.querySelector('summary').textContent.includes('JSONRPC 0.3')); \
         if (!r) return null; r.open = true; return r.querySelector('pre.body').textContent;",
    );
    assert!(
        legacy
            .as_str()
            .unwrap()
            .contains("\"method\": \"message/send\""),
        "{legacy}"
    );
    browser.set("version", "1.0");
    browser.connect(mock.host(), "");

    // Tasks: listed, one got.
    browser.tab("tasks");
    browser.click("#tasks-list");
    let listed = browser.until(
        "the task list",
        "const n = document.querySelectorAll('#tasks tbody tr').length; return n > 0 && n;",
    );
    assert!(listed.as_u64().unwrap() >= 6, "{listed}");
    browser.click("#tasks tbody tr button");
    browser.until(
        "the task",
        "return document.getElementById('task-detail').textContent.includes('\"history\"');",
    );
    browser.screenshot("tasks");

    // Push: the inspector's webhook receives a signed delivery.
    browser.connect(&pusher.url, "");
    browser.tab("chat");
    browser.script(
        "document.getElementById('chat-stream').checked = false; \
         document.getElementById('chat-push').checked = true;",
        json!([]),
    );
    browser.type_in("#chat-text", "pushed");
    browser.click("#chat-send");
    browser.tab("push");
    let check = browser.until(
        "a delivery",
        "const d = document.querySelector('#deliveries .delivery.accepted .check'); \
         return d && d.textContent;",
    );
    assert!(
        check
            .as_str()
            .unwrap()
            .starts_with("signature verified (task "),
        "{check}"
    );
    assert!(
        browser
            .text("#push-signing")
            .starts_with("deliveries must be signed by a key of ")
    );
    browser.screenshot("push");

    // A stream cut after each event, resumed by the client: shown as such, chunks assembled.
    let served = Served::start();
    let proxy = CuttingProxy::start(&served.url, false);
    let mut cut = card_json(&served);
    cut["supportedInterfaces"] = json!([interface(&format!("{}/", proxy.url), "JSONRPC", None)]);
    let cut = card_file(&dir, "cut.json", &cut);
    browser.connect(&cut, "");
    browser.tab("chat");
    browser.script(
        "document.getElementById('chat-stream').checked = true; \
         document.getElementById('chat-push').checked = false;",
        json!([]),
    );
    browser.type_in("#chat-text", "chunks 3");
    browser.click("#chat-send");
    browser.tab("timeline");
    let resumed = browser.until(
        "the resumed stream",
        "const t = [...document.querySelectorAll('#timeline .task-box')].pop(); \
         const a = t && t.querySelector('pre.assembled'); \
         return a && a.textContent === 'c0c1c2' && t.querySelector('.state').textContent === 'COMPLETED' \
           && [...t.querySelectorAll('tr.resume')].map(r => r.cells[3].textContent);",
    );
    let resumed = resumed.as_array().unwrap();
    assert!(!resumed.is_empty());
    assert_eq!(
        resumed[0],
        json!(
            "⟳ the stream dropped and was resumed (SubscribeToTask with Last-Event-ID) (reconnect 1)"
        )
    );
    browser.script(
        "[...document.querySelectorAll('#timeline .task-box')].pop().scrollIntoView();",
        json!([]),
    );
    browser.screenshot("timeline-resumed");

    // Conformance: the ACTS runner (a2a-acts) on one suite file of the spec's ACTS folder, on
    // every binding the mock declares; each test a row.
    browser.connect(mock.host(), "");
    browser.tab("conformance");
    let discovery = acts_dir().join("discovery.acts.yaml");
    browser.type_in("#conformance-suite", &discovery.to_string_lossy());
    browser.click("#conformance-run");
    let verdict = browser.until(
        "the conformance report",
        "const e = document.getElementById('conformance-verdict') || document.getElementById('conformance-error'); return e && e.textContent;",
    );
    assert!(
        verdict.as_str().unwrap().contains("discovery.acts.yaml"),
        "{verdict}"
    );
    let rows = browser.script(
        "return [...document.querySelectorAll('#conformance-table tr')].slice(1).map(r => [r.cells[0].textContent, r.cells[2].textContent, r.cells[3].textContent]);",
        json!([]),
    );
    let rows = rows.as_array().unwrap();
    // CARD-DISC-001 (the card at its well-known path) passes on each binding the mock serves.
    for binding in ["jsonrpc", "rest", "grpc"] {
        assert!(
            rows.contains(&json!([binding, "CARD-DISC-001", "pass"])),
            "{binding}: {rows:?}"
        );
    }
    browser.screenshot("conformance");

    // Export: the session as one document.
    browser.tab("export");
    browser.click("#export-show");
    browser.until(
        "the summary",
        "return document.getElementById('export').textContent.includes('records');",
    );
    browser.screenshot("export");
    let export = http("GET", &format!("{}export", inspector.url), &[], None);
    assert_eq!(export.status, 200);
    let doc: Value = serde_json::from_slice(&export.body).unwrap();
    let kinds: std::collections::BTreeSet<&str> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["kind"].as_str())
        .collect();
    for kind in [
        "card", "call", "wire", "event", "user", "push", "connect", "note",
    ] {
        assert!(kinds.contains(kind), "no {kind} record in {kinds:?}");
    }
    assert_eq!(doc["dropped"], json!(0));
    // Secrets never show: the push token is masked in the wire bodies.
    let text = String::from_utf8_lossy(&export.body);
    assert!(
        text.contains(r#"\"token\": \"••••\""#),
        "the token is masked"
    );
}

/// POSTs `body` to the inspector's `api/OP`; the JSON answer.
fn api(inspector: &Inspector, op: &str, body: &Value) -> (u16, Value) {
    let reply = http(
        "POST",
        &format!("{}api/{op}", inspector.url),
        &[],
        Some(body),
    );
    (reply.status, serde_json::from_slice(&reply.body).unwrap())
}

#[test]
fn the_inspector_s_limits_are_hit_with_a_clear_answer() {
    let mock = Mock::start(&[]);
    let inspector = Inspector::start(&[
        "-a",
        mock.host(),
        "--max-records",
        "4",
        "--max-streams",
        "1",
        "--max-body",
        "1KiB",
    ]);
    // --max-body: a larger request is refused, named.
    let big = json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x".repeat(2000)}]}});
    let (status, answer) = api(&inspector, "SendMessage", &big);
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("the request body cannot be read (at most 1024 bytes): "),
        "{answer}"
    );
    // --max-streams: a second stream while one is followed is refused.
    let slow =
        json!({"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "slow"}]}});
    let (_, first) = api(&inspector, "SendStreamingMessage", &slow);
    assert_eq!(first, json!({"result": {"streaming": true}}));
    let again =
        json!({"message": {"messageId": "m2", "role": "ROLE_USER", "parts": [{"text": "stream"}]}});
    let (status, second) = api(&inspector, "SendStreamingMessage", &again);
    assert_eq!(status, 200);
    assert_eq!(
        second,
        json!({"error": "1 streams are followed already (--max-streams): wait for one to end"})
    );
    // --max-records: the session keeps the last 4, and counts the others.
    let export = http("GET", &format!("{}export", inspector.url), &[], None);
    let doc: Value = serde_json::from_slice(&export.body).unwrap();
    assert_eq!(doc["maxRecords"], json!(4));
    assert_eq!(doc["records"].as_array().unwrap().len(), 4);
    // At least: connect, card, note, the two sends' user and call records, a wire exchange.
    let dropped = doc["dropped"].as_u64().unwrap();
    assert!(dropped >= 4, "{dropped}");
    let seqs: Vec<u64> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(
        seqs,
        (dropped + 1..=dropped + 4).collect::<Vec<_>>(),
        "the oldest went"
    );
}

/// The agent written with the official Python SDK (tests/interop/python/agent.py), in the venv
/// `cargo xtask interop` installs: that step runs this test (`--ignored`) with
/// `A2A_INTEROP_PYTHON` naming the venv's python.
#[test]
#[ignore = "run by `cargo xtask interop`, which installs the Python SDK"]
fn the_inspector_in_a_browser_against_the_python_sdk_agent() {
    let python = std::env::var("A2A_INTEROP_PYTHON")
        .expect("A2A_INTEROP_PYTHON names the python of the interop venv (cargo xtask interop)");
    ensure_browser();
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/interop/python/agent.py");
    let mut agent = Command::new(python)
        .arg(script)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the Python agent starts");
    let mut first = String::new();
    BufReader::new(agent.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    struct Kill(Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _agent = Kill(agent);
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
        .to_owned();
    let inspector = Inspector::start(&[]);
    let browser = Browser::start();
    browser.go(&inspector.url);
    for binding in ["JSONRPC", "HTTP+JSON", "GRPC"] {
        browser.connect(&url, binding);
        assert_eq!(browser.text("#binding"), format!("{binding} · A2A 1.0"));
        browser.tab("chat");
        browser.click("#chat-new");
        browser.script(
            "document.getElementById('chat-stream').checked = true;",
            json!([]),
        );
        // Streamed: three chunks, assembled.
        browser.type_in("#chat-text", "chunks 3");
        browser.click("#chat-send");
        browser.tab("timeline");
        let assembled = browser.until(
            "the assembled chunks",
            "const a = [...document.querySelectorAll('#timeline .artifact')].pop(); \
             return a && a.textContent.includes('complete') && a.querySelector('pre').textContent;",
        );
        assert_eq!(assembled, json!("c0c1c2"), "{binding}");
        // Input-required, continued.
        browser.tab("chat");
        browser.type_in("#chat-text", "ask");
        browser.click("#chat-send");
        browser.until(
            "the question",
            "return !document.getElementById('chat-banner').hidden;",
        );
        browser.type_in("#chat-text", "Lisbon");
        browser.click("#chat-send");
        let forecast = browser.until(
            "the forecast",
            "const b = [...document.querySelectorAll('#chat-log .artifact-text')] \
             .find(e => e.textContent.startsWith('Sunny')); return b && b.textContent;",
        );
        assert_eq!(forecast, json!("Sunny in Lisbon."), "{binding}");
        // Cancel.
        browser.type_in("#chat-text", "wait");
        browser.click("#chat-send");
        browser.until(
            "the working task",
            "const s = [...document.querySelectorAll('#chat-log .state')].pop(); \
             return s && s.textContent === 'WORKING';",
        );
        browser.click("#chat-cancel");
        browser.until(
            "the canceled task",
            "return document.getElementById('chat-status').textContent.endsWith('TASK_STATE_CANCELED');",
        );
        // The wire of this binding.
        browser.tab("wire");
        browser.set("wire-binding", binding);
        browser.until(
            "the exchange",
            "return document.querySelector('#wire .wire-item.request[data-method=CancelTask]');",
        );
    }
    browser.tab("timeline");
    browser.screenshot("python-timeline");
}

/// The A2A spec files' ACTS folder: `$A2A_SPEC_DIR/acts` (which `cargo xtask ci` sets), else
/// `../shared/spec/acts` beside the workspace.
fn acts_dir() -> std::path::PathBuf {
    let spec = std::env::var_os("A2A_SPEC_DIR").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec"),
        std::path::PathBuf::from,
    );
    spec.join("acts")
}
