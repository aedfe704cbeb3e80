//! `--a2a-version` (the A2A CLI specification §7.2, §13.2): `a2a` never speaks a version before
//! 1.0 unless asked, says how to ask when an agent speaks only 0.3, and speaks 0.3 when asked.
//! The agent is a small 0.3-only server on 127.0.0.1:0 (the SDKs' 0.3 servers run in
//! `cargo xtask interop`).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};

const A2A: &str = env!("CARGO_BIN_EXE_a2a");

/// A 0.3-only agent: its card at `/.well-known/agent-card.json`, `message/send` answered with a
/// completed 0.3 task echoing the text, anything else -32009. Records `METHOD path method`.
struct Agent {
    url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Agent {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (base, log) = (url.clone(), seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (base, log) = (base.clone(), log.clone());
                std::thread::spawn(move || serve(stream, &base, &log));
            }
        });
        Self { url, seen }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

/// Answers the requests of one connection.
fn serve(stream: TcpStream, base: &str, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or("").to_owned(),
            parts.next().unwrap_or("").to_owned(),
        );
        let mut length = 0;
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            if header.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let answer = if method == "GET" {
            log.lock().unwrap().push(format!("GET {path}"));
            serde_json::json!({"name": "Old", "description": "A 0.3 agent", "version": "1",
                "url": format!("{base}/a2a"), "protocolVersion": "0.3.0",
                "capabilities": {}, "defaultInputModes": ["text/plain"],
                "defaultOutputModes": ["text/plain"], "skills": []})
        } else {
            let request: serde_json::Value = serde_json::from_slice(&body).unwrap();
            let rpc = request["method"].as_str().unwrap_or("").to_owned();
            log.lock().unwrap().push(format!("POST {path} {rpc}"));
            match rpc.as_str() {
                "message/send" => {
                    let text = request["params"]["message"]["parts"][0]["text"].clone();
                    serde_json::json!({"jsonrpc": "2.0", "id": request["id"], "result": {
                        "kind": "task", "id": "t-1", "contextId": "c-1",
                        "status": {"state": "completed"},
                        "artifacts": [{"artifactId": "a-1", "name": "echo",
                            "parts": [{"kind": "text", "text": text}]}]}})
                }
                _ => serde_json::json!({"jsonrpc": "2.0", "id": request["id"],
                    "error": {"code": -32009, "message": "Version not supported"}}),
            }
        }
        .to_string();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            answer.len()
        );
        if writer.write_all(head.as_bytes()).is_err()
            || writer.write_all(answer.as_bytes()).is_err()
        {
            return;
        }
    }
}

fn a2a(args: &[&str]) -> Output {
    Command::new(A2A)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("a2a runs")
}

#[test]
fn a_0_3_agent_needs_a2a_version_and_the_error_says_so() {
    let agent = Agent::start();
    let refused = a2a(&["send", "-a", &agent.url, "hello", "-o", "json"]);
    assert_eq!(refused.status.code(), Some(1));
    let envelope: serde_json::Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(
        envelope,
        serde_json::json!({"error": {
            "a2aCode": null,
            "code": "VersionNotSupportedError",
            "message": format!(
                "the agent card offers A2A 0.3 but no A2A 1.0 interface this client speaks \
                 (it offers: JSONRPC 0.3 {}/a2a); versions before 1.0 are used only when allowed: \
                 ClientBuilder::allow_legacy(true) or protocol_version(\"0.3\"), `--a2a-version 0.3` \
                 with the a2a command",
                agent.url
            ),
            "hint": "the agent speaks only an older A2A: pass --a2a-version 0.3 (or 0.2, 0.1)",
        }})
    );
    assert_eq!(agent.seen(), ["GET /.well-known/agent-card.json"]);

    let sent = a2a(&[
        "send",
        "-a",
        &agent.url,
        "hello",
        "--a2a-version",
        "0.3",
        "-o",
        "json",
    ]);
    assert!(
        sent.status.success(),
        "{}",
        String::from_utf8_lossy(&sent.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&sent.stdout).unwrap();
    assert_eq!(
        printed,
        serde_json::json!({"task": {"id": "t-1", "contextId": "c-1",
            "status": {"state": "TASK_STATE_COMPLETED"},
            "artifacts": [{"artifactId": "a-1", "name": "echo", "parts": [{"text": "hello"}]}]}})
    );
    assert_eq!(
        agent.seen()[1..],
        ["GET /.well-known/agent-card.json", "POST /a2a message/send"]
    );

    let unknown = a2a(&[
        "send",
        "-a",
        &agent.url,
        "hello",
        "--a2a-version",
        "9.1",
        "-o",
        "json",
    ]);
    assert_eq!(unknown.status.code(), Some(1));
    let envelope: serde_json::Value = serde_json::from_slice(&unknown.stdout).unwrap();
    assert_eq!(envelope["error"]["code"], "VersionNotSupportedError");
    assert_eq!(
        envelope["error"]["message"],
        "A2A version `9.1` is not supported: this build speaks A2A 1.0, 1.1 (draft), 0.3, 0.2 and 0.1"
    );
}
