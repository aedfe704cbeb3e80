//! The A2A CLI specification's requirements, one test per requirement identifier this build
//! claims in docs/cli-compliance.md (`a2acli_<area>_<nnn>`), each running the `a2a` binary
//! against an agent of our own server (tests/support). The last test holds the report to the
//! tests: every identifier of the registry has an outcome there, and every one marked passed
//! has its test here.

#[path = "../../a2a-server/tests/pki/mod.rs"]
mod pki;
mod support;

use std::io::{BufRead as _, BufReader};

use serde_json::{Value, json};
use support::{
    Cli, CuttingProxy, FileServer, Mock, OAuthServer, ScriptedAgent, Serve, Served, Setup, TempDir,
    block, card_file, card_json, fails, fields, interface, ok, run,
};

/// A task id and context of a `-o json` send answer.
fn ids(answer: &Value) -> (String, String) {
    let task = &answer["task"];
    (
        task["id"].as_str().unwrap().to_owned(),
        task["contextId"].as_str().unwrap().to_owned(),
    )
}

/// `a2a send -a HOST ARGS -o json`, which must succeed: the task's id and context.
fn sent(host: &str, args: &[&str]) -> (String, String) {
    let mut all = vec!["send", "-a", host, "-o", "json"];
    all.extend(args);
    ids(&ok(&all).json())
}

fn state(answer: &Value) -> &str {
    answer["task"]["status"]["state"]
        .as_str()
        .unwrap_or_default()
}

/// The debug lines of the requests of a run (`-> Method: VERB URL`), with their header and body
/// lines.
fn requests(stderr: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix("debug: -> ") {
            if let Some(done) = current.take() {
                out.push(done);
            }
            current = Some(vec![rest.to_owned()]);
        } else if let Some(rest) = line.strip_prefix("debug:   ") {
            if let Some(current) = &mut current {
                current.push(rest.to_owned());
            }
        } else if let Some(done) = current.take() {
            out.push(done);
        }
    }
    out.extend(current);
    out
}

// ----- Tier 1 ------------------------------------------------------------------------------

#[test]
fn a2acli_card_get_001() {
    let agent = Served::start();
    let url = &agent.url;
    // A bare host: the well-known path is appended (http for a loopback host).
    let shown = ok(&["card", "get", "-a", agent.host()]);
    assert_eq!(shown.field("Name"), "Tester");
    let interfaces: Vec<String> = shown
        .fields()
        .into_iter()
        .filter(|(l, _)| l == "Interface")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(
        interfaces,
        [
            format!("JSONRPC 1.0 {url}/ (selected)"),
            format!("HTTP+JSON 1.0 {url}"),
            format!("JSONRPC 0.3 {url}/"),
            format!("HTTP+JSON 0.3 {url}"),
            format!("JSONRPC 0.1 {url}/"),
        ]
    );
    // An origin URL, a full card URL (used as it is), a file:// path and a plain path.
    let expected = card_json(&agent);
    assert_eq!(
        ok(&["card", "get", "-a", url, "-o", "json"]).json(),
        expected
    );
    let card_url = format!("{url}/.well-known/agent-card.json");
    assert_eq!(
        ok(&["card", "get", "-a", &card_url, "-o", "json"]).json(),
        expected
    );
    let dir = TempDir::new();
    let path = card_file(&dir, "agent.json", &expected);
    assert_eq!(
        ok(&["card", "get", "-a", &format!("file://{path}"), "-o", "json"]).json(),
        expected
    );
    assert_eq!(
        ok(&["card", "get", "-a", &path, "-o", "json"]).json(),
        expected
    );
    // The card read from a file picks the transport of the calls that follow.
    let sent = ok(&["send", "-a", &path, "via the file", "-o", "json"]).json();
    assert_eq!(state(&sent), "TASK_STATE_COMPLETED");
    // A card URL with a path is not taken as a base URL.
    let wrong = fails(
        &["card", "get", "-a", &format!("{url}/somewhere")],
        3,
        "A2ACLI_ERR_CARD_NOT_FOUND",
    );
    assert_eq!(
        wrong["message"],
        format!("no agent card at {url}/somewhere")
    );
}

#[test]
fn a2acli_send_001() {
    let agent = Served::start();
    let answer = ok(&["send", "-a", agent.host(), "greetings", "-o", "json"]).json();
    assert_eq!(state(&answer), "TASK_STATE_COMPLETED");
    assert_eq!(
        answer["task"]["artifacts"],
        json!([{"artifactId": "echo", "name": "echo", "parts": [{"text": "greetings"}]}])
    );
    let first = &answer["task"]["history"][0];
    assert_eq!(first["role"], "ROLE_USER");
    assert_eq!(first["parts"], json!([{"text": "greetings"}]));
}

#[test]
fn a2acli_send_002() {
    let agent = Served::start();
    let host = agent.host();
    // Blocking by default: the answer is the task at its end.
    let waited = ok(&["send", "-a", host, "slow 200", "-o", "json"]).json();
    assert_eq!(state(&waited), "TASK_STATE_COMPLETED");
    assert_eq!(
        waited["task"]["artifacts"][0]["parts"],
        json!([{"text": "done"}])
    );
    // --async (and its two aliases) return the identifiers at once.
    for flag in ["--async", "--no-wait", "--return-immediately"] {
        let started = ok(&["send", "-a", host, "wait", flag, "-o", "json"]).json();
        let (id, context) = ids(&started);
        assert!(!context.is_empty());
        assert!(
            ["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"].contains(&state(&started)),
            "{started}"
        );
        ok(&["task", "cancel", "-a", host, &id]);
    }
}

#[test]
fn a2acli_send_003() {
    let agent = Served::start();
    let host = agent.host();
    // Streaming: one StreamResponse per line, the task first, the final status last.
    let events = ok(&["send", "-a", host, "--stream", "chunks 2", "-o", "json"]).lines();
    assert!(events[0].get("task").is_some(), "{events:?}");
    let last = events.last().unwrap();
    assert_eq!(
        last["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    // A direct message is the one event, and a clean end.
    let message = ok(&["send", "-a", host, "--stream", "hello there", "-o", "json"]).lines();
    assert_eq!(message.len(), 1);
    assert_eq!(message[0]["message"]["parts"], json!([{"text": "hi!"}]));
    assert_eq!(message[0]["message"]["role"], "ROLE_AGENT");
    // An agent without streaming: no hang, the answer as one event, and a warning.
    let plain = Served::with(Setup {
        no_streaming: true,
        ..Setup::default()
    });
    let fallback = ok(&[
        "send",
        "-a",
        plain.host(),
        "--stream",
        "hi",
        "-o",
        "json",
        "--timeout",
        "20s",
    ]);
    let lines = fallback.lines();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["task"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert!(
        fallback
            .stderr
            .contains("warning: the agent's card does not advertise streaming"),
        "{}",
        fallback.stderr
    );
}

#[test]
fn a2acli_send_004() {
    let agent = Served::start();
    let host = agent.host();
    let shown = ok(&["send", "-a", host, "files"]);
    assert_eq!(
        block(&shown.stdout, "Artifact"),
        "see the file\n[file chart.png, image/png, 6 bytes]\n{\n  \"rows\": 2\n}"
    );
    // A streamed artifact reads as one text, whichever way it is shown.
    let chunks = ok(&["send", "-a", host, "chunks 3"]);
    assert_eq!(block(&chunks.stdout, "Artifact"), "c0c1c2");
    let streamed = ok(&["send", "-a", host, "--stream", "chunks 3"]);
    assert_eq!(block(&streamed.stdout, "Artifact"), "c0c1c2");
    // --verbose shows each part on its own.
    let verbose = ok(&["send", "-a", host, "files", "--verbose"]);
    assert_eq!(
        block(&verbose.stdout, "Artifact"),
        "[part 1: text]\nsee the file\n[part 2: raw, image/png]\n[file chart.png, image/png, 6 bytes]\n[part 3: data]\n{\n  \"rows\": 2\n}"
    );
}

#[test]
fn a2acli_send_005() {
    let agent = Served::start();
    let host = agent.host();
    let dir = TempDir::new();
    let bin = dir.file("report.bin", b"%PDF").display().to_string();
    let png = dir.file("chart.png", b"\x89PNG").display().to_string();
    let answer = ok(&[
        "send",
        "-a",
        host,
        "-o",
        "json",
        "--file",
        &bin,
        "--media-type",
        "application/pdf",
        "--text",
        "# notes",
        "--media-type",
        "text/markdown",
        "--file",
        &png,
    ])
    .json();
    assert_eq!(
        answer["task"]["history"][0]["parts"],
        json!([
            {"raw": "JVBERg==", "filename": "report.bin", "mediaType": "application/pdf"},
            {"text": "# notes", "mediaType": "text/markdown"},
            {"raw": "iVBORw==", "filename": "chart.png", "mediaType": "image/png"},
        ])
    );
    // A --media-type with no part flag before it is a usage error.
    let refused = fails(
        &[
            "send",
            "-a",
            host,
            "--media-type",
            "text/plain",
            "--text",
            "x",
        ],
        2,
        "A2ACLI_ERR_USAGE",
    );
    assert_eq!(
        refused["message"],
        "--media-type text/plain has no part before it: it sets the media type of the --text, --file or --data just before it"
    );
}

#[test]
fn a2acli_send_006() {
    let agent = Served::start();
    let answer = Cli::new()
        .stdin(b"[1, 2]")
        .ok(&[
            "send",
            "-a",
            agent.host(),
            "-o",
            "json",
            "--text",
            "one",
            "--data",
            r#"{"k":1}"#,
            "--text",
            "two",
            "--data",
            "-",
        ])
        .json();
    assert_eq!(
        answer["task"]["artifacts"][0]["parts"],
        json!([
            {"text": "one"},
            {"data": {"k": 1}, "mediaType": "application/json"},
            {"text": "two"},
            {"data": [1, 2], "mediaType": "application/json"},
        ])
    );
}

#[test]
fn a2acli_task_get_001() {
    let agent = Served::start();
    let host = agent.host();
    let sent = ok(&["send", "-a", host, "files", "-o", "json"]).json();
    let (id, context) = ids(&sent);
    let got = ok(&["task", "get", "-a", host, &id]);
    assert_eq!(got.field("Task-Id"), id);
    assert_eq!(got.field("Context-Id"), context);
    assert_eq!(got.field("State"), "COMPLETED");
    assert_eq!(
        block(&got.stdout, "Artifact"),
        "see the file\n[file chart.png, image/png, 6 bytes]\n{\n  \"rows\": 2\n}"
    );
    let json = ok(&["task", "get", "-a", host, &id, "-o", "json"]).json();
    assert_eq!(json["artifacts"], sent["task"]["artifacts"]);
    // History on demand, in both formats.
    let one = ok(&[
        "task",
        "get",
        "-a",
        host,
        &id,
        "--history",
        "1",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(one["history"].as_array().unwrap().len(), 1);
    let text = ok(&["task", "get", "-a", host, &id, "--history", "5"]);
    assert_eq!(block(&text.stdout, "History"), "files");
    assert!(
        !ok(&["task", "get", "-a", host, &id])
            .stdout
            .contains("History:")
    );
}

#[test]
fn a2acli_task_cancel_001() {
    let agent = Served::start();
    let host = agent.host();
    let started = ok(&["send", "-a", host, "wait", "--async", "-o", "json"]).json();
    let (id, _) = ids(&started);
    let canceled = ok(&["task", "cancel", "-a", host, &id]);
    assert_eq!(canceled.field("Task-Id"), id);
    assert_eq!(canceled.field("State"), "CANCELED");
    // Again: the same answer.
    let again = ok(&["task", "cancel", "-a", host, &id, "-o", "json"]).json();
    assert_eq!(again["status"]["state"], "TASK_STATE_CANCELED");
    assert_eq!(
        ok(&["task", "get", "-a", host, &id]).field("State"),
        "CANCELED"
    );
    // A task that completed cannot be canceled, which the agent says with its A2A error.
    let (done, _) = sent(host, &["done"]);
    let refused = fails(
        &["task", "cancel", "-a", host, &done],
        1,
        "TaskNotCancelableError",
    );
    assert_eq!(refused["a2aCode"], -32002);
}

#[test]
fn a2acli_interact_001() {
    let agent = Served::start();
    let host = agent.host();
    let first = ok(&["send", "-a", host, "one", "-o", "json"]).json();
    let (first_id, context) = ids(&first);
    let second = ok(&[
        "send",
        "-a",
        host,
        "two",
        "--context-id",
        &context,
        "-o",
        "json",
    ])
    .json();
    let (second_id, second_context) = ids(&second);
    assert_eq!(second_context, context);
    assert_ne!(second_id, first_id, "a new task in the same context");
    let listed = ok(&[
        "task",
        "list",
        "-a",
        host,
        "--context-id",
        &context,
        "-o",
        "json",
    ])
    .json();
    assert_eq!(listed["totalSize"], 2);
}

#[test]
fn a2acli_interact_002() {
    let agent = Served::start();
    let host = agent.host();
    let asked = ok(&["send", "-a", host, "ask", "-o", "json"]).json();
    let (id, context) = ids(&asked);
    assert_eq!(state(&asked), "TASK_STATE_INPUT_REQUIRED");
    // --task-id alone: the agent finds the context.
    let answered = ok(&["send", "-a", host, "--task-id", &id, "Paris", "-o", "json"]).json();
    assert_eq!(ids(&answered), (id.clone(), context.clone()));
    assert_eq!(
        answered["task"]["artifacts"][0]["parts"],
        json!([{"text": "Sunny in Paris."}])
    );
    // Both, corresponding.
    let asked = ok(&["send", "-a", host, "ask", "-o", "json"]).json();
    let (id, context) = ids(&asked);
    let answered = ok(&[
        "send",
        "-a",
        host,
        "--task-id",
        &id,
        "--context-id",
        &context,
        "Oslo",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(state(&answered), "TASK_STATE_COMPLETED");
    // Rejected identifiers fail, point at --debug, and start no task.
    let before = ok(&["task", "list", "-a", host, "-o", "json"]).json()["totalSize"].clone();
    let unknown = fails(
        &["send", "-a", host, "--task-id", "no-such-task", "hi"],
        1,
        "TaskNotFoundError",
    );
    assert!(unknown["hint"].as_str().unwrap().contains("--debug"));
    let asked = ok(&["send", "-a", host, "ask", "-o", "json"]).json();
    let (id, _) = ids(&asked);
    let mismatch = fails(
        &[
            "send",
            "-a",
            host,
            "--task-id",
            &id,
            "--context-id",
            "another",
            "hi",
        ],
        1,
        "InvalidParamsError",
    );
    assert!(
        mismatch["hint"]
            .as_str()
            .unwrap()
            .contains("no new task was started")
    );
    let ended = ok(&["send", "-a", host, "done", "-o", "json"]).json();
    let (done, _) = ids(&ended);
    fails(
        &["send", "-a", host, "--task-id", &done, "more"],
        1,
        "UnsupportedOperationError",
    );
    let after = ok(&["task", "list", "-a", host, "-o", "json"]).json()["totalSize"].clone();
    // Only the two `ask` tasks and `done` were created by the commands above.
    assert_eq!(after.as_i64().unwrap(), before.as_i64().unwrap() + 2);
}

#[test]
fn a2acli_interact_003() {
    let agent = Served::start();
    let host = agent.host();
    // The request carries a messageId of the client's, and no task or context of its own.
    let fresh = ok(&["send", "-a", host, "fresh", "--debug", "-o", "json"]);
    let send = requests(&fresh.stderr)
        .into_iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .unwrap();
    let body: Value = serde_json::from_str(send.last().unwrap()).unwrap();
    let message = &body["params"]["message"];
    assert!(message["messageId"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(
        message.get("taskId").is_none() && message.get("contextId").is_none(),
        "{message}"
    );
    // The context is the server's, and a context is not a session: the next send is a new one.
    let (_, first) = ids(&fresh.json());
    let (_, second) = sent(host, &["again"]);
    assert_ne!(first, second);
}

#[test]
fn a2acli_interact_004() {
    let agent = Served::start();
    let host = agent.host();
    let asked = ok(&["send", "-a", host, "ask"]);
    let id = asked.field("Task-Id");
    assert!(!asked.field("Context-Id").is_empty());
    assert_eq!(asked.field("State"), "INPUT_REQUIRED");
    let resume = asked.field("Resume");
    assert_eq!(
        resume,
        format!("a2a send -a {host} --task-id {id} \"<reply>\"")
    );
    assert!(
        asked
            .stderr
            .contains(&format!("continue it with: {resume}")),
        "{}",
        asked.stderr
    );
    // The printed command works as printed, with the reply in.
    let line = resume.replace("\"<reply>\"", "Lima");
    let args: Vec<&str> = line.split(' ').skip(1).collect();
    let answered = ok(&args);
    assert_eq!(answered.field("Task-Id"), id);
    assert_eq!(answered.field("State"), "COMPLETED");
    // In JSON the protocol's own members carry them.
    let json = ok(&["send", "-a", host, "ask", "-o", "json"]).json();
    assert!(json["task"]["id"].is_string() && json["task"]["contextId"].is_string());
    assert_eq!(json["task"]["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
}

#[test]
fn a2acli_interact_005() {
    let agent = Served::start();
    let host = agent.host();
    let cli = Cli::new();
    let (_, first) = ids(&cli.ok(&["send", "-a", host, "one", "-o", "json"]).json());
    let (_, second) = ids(&cli.ok(&["send", "-a", host, "two", "-o", "json"]).json());
    assert_ne!(first, second, "nothing of the first run is replayed");
    cli.ok(&["send", "-a", host, "ask"]);
    // Nothing was written: not in the working directory, not under the configuration folder.
    let written: Vec<_> = std::fs::read_dir(cli.home.path()).unwrap().collect();
    assert!(written.is_empty(), "{written:?}");
    // No --continue.
    let refused = cli.run(&["send", "-a", host, "--continue", "x"]);
    assert_eq!(refused.code, 2);
}

#[test]
fn a2acli_task_poll_001() {
    let scripted = ScriptedAgent::start(&[
        "TASK_STATE_SUBMITTED",
        "TASK_STATE_WORKING",
        "TASK_STATE_WORKING",
        "TASK_STATE_COMPLETED",
    ]);
    let url = &scripted.url;
    // One-shot: the state as it is.
    let once = ok(&["task", "get", "-a", url, "t-1", "-o", "json"]).json();
    assert_eq!(once["status"]["state"], "TASK_STATE_SUBMITTED");
    // --wait: asks again until the end.
    let waited = ok(&[
        "task",
        "get",
        "-a",
        url,
        "t-1",
        "--wait",
        "--poll-interval",
        "10ms",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(waited["status"]["state"], "TASK_STATE_COMPLETED");
    // --watch is the optional alias; against our server too.
    let agent = Served::start();
    let host = agent.host();
    let (id, _) = sent(host, &["slow 100", "--async"]);
    let watched = ok(&[
        "task",
        "get",
        "-a",
        host,
        &id,
        "--watch",
        "--poll-interval",
        "20ms",
    ]);
    assert_eq!(watched.field("State"), "COMPLETED");
}

#[test]
fn a2acli_task_poll_002() {
    let agent = Served::start();
    let host = agent.host();
    // The interval is honoured (and said under --debug).
    let scripted = ScriptedAgent::start(&[
        "TASK_STATE_WORKING",
        "TASK_STATE_WORKING",
        "TASK_STATE_COMPLETED",
    ]);
    let polled = ok(&[
        "task",
        "get",
        "-a",
        &scripted.url,
        "t-1",
        "--wait",
        "--poll-interval",
        "30ms",
        "--debug",
    ]);
    assert_eq!(
        polled
            .stderr
            .matches("debug: task t-1 is WORKING; asking again in 30ms")
            .count(),
        2,
        "{}",
        polled.stderr
    );
    // --timeout ends the wait with A2ACLI_ERR_TIMEOUT (exit 5), naming the task to pick up.
    let timed = run(&[
        "send",
        "-a",
        host,
        "wait",
        "--timeout",
        "300ms",
        "-o",
        "json",
    ]);
    assert_eq!(timed.code, 5);
    let envelope = timed.envelope();
    assert_eq!(envelope["code"], "A2ACLI_ERR_TIMEOUT");
    let message = envelope["message"].as_str().unwrap();
    assert!(
        message.starts_with("timed out after 300ms waiting for task "),
        "{message}"
    );
    assert!(
        envelope["hint"]
            .as_str()
            .unwrap()
            .contains("a2a task get -a"),
        "{envelope}"
    );
    // Ctrl-C stops the wait (not the task), and says which task to pick up.
    let started = ok(&["send", "-a", host, "wait", "--async", "-o", "json"]).json();
    let (id, _) = ids(&started);
    let cli = Cli::new();
    let mut child = cli.spawn(&[
        "task",
        "get",
        "-a",
        host,
        &id,
        "--wait",
        "--poll-interval",
        "50ms",
        "--debug",
    ]);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.contains("asking again") {
            break;
        }
        line.clear();
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(1), "{seen}{rest}");
    assert!(
        rest.contains(&format!("Error: interrupted waiting for task {id}")),
        "{rest}"
    );
    assert!(
        rest.contains(&format!("a2a task get -a {host} --wait {id}")),
        "{rest}"
    );
    assert_eq!(
        ok(&["task", "get", "-a", host, &id]).field("State"),
        "WORKING",
        "the task goes on"
    );
    ok(&["task", "cancel", "-a", host, &id]);
}

#[test]
fn a2acli_task_poll_003() {
    // Streaming and polling alike stop at once on the interrupted states.
    for setup in [
        Setup::default(),
        Setup {
            no_streaming: true,
            ..Setup::default()
        },
    ] {
        let agent = Served::with(setup);
        let host = agent.host();
        let asked = ok(&[
            "send",
            "-a",
            host,
            "ask",
            "--poll-interval",
            "50ms",
            "--timeout",
            "30s",
        ]);
        assert_eq!(asked.field("State"), "INPUT_REQUIRED");
        let login = ok(&[
            "send",
            "-a",
            host,
            "login",
            "--poll-interval",
            "50ms",
            "--timeout",
            "30s",
        ]);
        assert_eq!(login.field("State"), "AUTH_REQUIRED");
    }
    // UNSPECIFIED is neither: shown as it is, and the wait goes on through it.
    let scripted = ScriptedAgent::start(&[
        "TASK_STATE_UNSPECIFIED",
        "TASK_STATE_UNSPECIFIED",
        "TASK_STATE_WORKING",
        "TASK_STATE_COMPLETED",
    ]);
    let shown = ok(&["task", "get", "-a", &scripted.url, "t-1"]);
    assert_eq!(shown.field("State"), "UNSPECIFIED");
    let waited = ok(&[
        "task",
        "get",
        "-a",
        &scripted.url,
        "t-1",
        "--wait",
        "--poll-interval",
        "10ms",
        "--debug",
    ]);
    assert_eq!(
        waited
            .stderr
            .matches("debug: task t-1 is UNSPECIFIED; asking again in 10ms")
            .count(),
        1,
        "{}",
        waited.stderr
    );
    assert_eq!(waited.field("State"), "COMPLETED");
    // Under --timeout.
    let stuck = ScriptedAgent::start(&["TASK_STATE_UNSPECIFIED"]);
    let timed = run(&[
        "task",
        "get",
        "-a",
        &stuck.url,
        "t-1",
        "--wait",
        "--poll-interval",
        "10ms",
        "--timeout",
        "200ms",
        "-o",
        "json",
    ]);
    assert_eq!(timed.code, 5);
    assert_eq!(
        timed.envelope()["message"],
        "timed out after 200ms waiting for task t-1 (context c-1, last seen UNSPECIFIED); the task itself goes on"
    );
}

#[test]
fn a2acli_task_poll_004() {
    let agent = Served::start();
    // Every stream is cut after its first event, and cannot be resumed.
    let proxy = CuttingProxy::start(&agent.url, true);
    let dir = TempDir::new();
    let mut card = card_json(&agent);
    card["supportedInterfaces"] = json!([interface(&format!("{}/", proxy.url), "JSONRPC", None)]);
    let path = card_file(&dir, "card.json", &card);
    let waited = ok(&[
        "send",
        "-a",
        &path,
        "slow 300",
        "--poll-interval",
        "50ms",
        "-o",
        "json",
    ]);
    assert_eq!(state(&waited.json()), "TASK_STATE_COMPLETED");
    assert!(
        waited
            .stderr
            .contains("warning: the task's event stream broke")
            && waited.stderr.contains("polling the task instead"),
        "{}",
        waited.stderr
    );
    assert!(proxy.subscribes.load(std::sync::atomic::Ordering::Relaxed) >= 1);
}

#[test]
fn a2acli_out_001() {
    let agent = Served::start();
    let host = agent.host();
    // JSON: stdout is the payload alone, even with --debug (which goes to stderr).
    let run = ok(&["send", "-a", host, "greetings", "-o", "json", "--debug"]);
    let answer = run.json();
    assert!(answer["task"]["id"].is_string() && answer["task"]["contextId"].is_string());
    assert!(run.stderr.contains("debug: -> "));
    // Text: every answer about a task names it, its context and its state.
    for args in [
        vec!["send", "-a", host, "greetings"],
        vec!["send", "-a", host, "--stream", "greetings"],
        vec!["send", "-a", host, "--async", "greetings"],
    ] {
        let shown = ok(&args);
        let labels: Vec<String> = shown.fields().into_iter().map(|(l, _)| l).collect();
        for wanted in ["Task-Id", "Context-Id", "State"] {
            assert!(
                labels.iter().any(|l| l == wanted),
                "{args:?}: {}",
                shown.stdout
            );
        }
        assert!(!shown.stdout.contains("debug:") && !shown.stdout.contains("warning:"));
    }
}

#[test]
fn a2acli_out_002() {
    let agent = Served::start();
    let host = agent.host();
    // One document, the terminal task (the chunks merged), not the events that built it.
    let answer = ok(&["send", "-a", host, "chunks 3", "-o", "json"]).json();
    assert_eq!(state(&answer), "TASK_STATE_COMPLETED");
    assert_eq!(
        answer["task"]["artifacts"][0]["parts"],
        json!([{"text": "c0"}, {"text": "c1"}, {"text": "c2"}])
    );
    // JSON from the environment is still one document: only --stream makes lines.
    let cli = Cli::new().env("A2ACLI_OUTPUT", "json");
    let answer = cli.ok(&["send", "-a", host, "chunks 2"]).json();
    assert_eq!(state(&answer), "TASK_STATE_COMPLETED");
    let env_stream = Cli::new()
        .env("A2ACLI_STREAM", "1")
        .ok(&["send", "-a", host, "hi", "-o", "json"]);
    assert!(env_stream.json().get("task").is_some());
}

#[test]
fn a2acli_out_003() {
    let agent = Served::start();
    let host = agent.host();
    let streamed = ok(&["send", "-a", host, "--stream", "chunks 2", "-o", "json"]);
    for line in streamed.stdout.lines() {
        assert!(
            line.starts_with('{') && line.ends_with('}'),
            "one object per line: {line}"
        );
    }
    let events = streamed.lines();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e.as_object().unwrap().keys().next().unwrap().as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            "task",
            "statusUpdate",
            "artifactUpdate",
            "artifactUpdate",
            "statusUpdate"
        ]
    );
    assert_eq!(
        events[4]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    // An error that ends the stream is the last line, an object of its own.
    let cut = run(&[
        "send",
        "-a",
        host,
        "--stream",
        "wait",
        "--timeout",
        "300ms",
        "-o",
        "json",
    ]);
    assert_eq!(cut.code, 5);
    let lines = cut.lines();
    assert!(lines[0].get("task").is_some());
    let last = lines.last().unwrap();
    assert_eq!(last["error"]["code"], "A2ACLI_ERR_TIMEOUT");
    assert_eq!(
        cut.stdout
            .lines()
            .last()
            .unwrap()
            .chars()
            .filter(|c| *c == '\n')
            .count(),
        0
    );
}

#[test]
fn a2acli_out_004() {
    let agent = Served::start();
    let host = agent.host();
    // The same A2A error, the same envelope, over either binding.
    let mut envelopes = Vec::new();
    for binding in ["JSONRPC", "HTTP+JSON"] {
        let failed = run(&[
            "task",
            "get",
            "-a",
            host,
            "no-such-task",
            "--transport",
            binding,
            "-o",
            "json",
        ]);
        assert_eq!(failed.code, 1);
        let envelope = failed.envelope();
        assert_eq!(
            envelope.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["a2aCode", "code", "hint", "message"]
        );
        envelopes.push((
            envelope["code"].clone(),
            envelope["a2aCode"].clone(),
            envelope["hint"].clone(),
        ));
    }
    assert_eq!(envelopes[0], envelopes[1]);
    assert_eq!(envelopes[0].0, "TaskNotFoundError");
    assert_eq!(envelopes[0].1, -32001);
    // The tool's own failures carry A2ACLI_ERR_* codes, with a hint.
    let unreachable = run(&[
        "card",
        "get",
        "-a",
        "127.0.0.1:1",
        "-o",
        "json",
        "--retries",
        "0",
    ]);
    assert_eq!(unreachable.envelope()["code"], "A2ACLI_ERR_UNREACHABLE");
    assert_eq!(
        unreachable.envelope()["hint"],
        "is the agent running and reachable? try `a2a card get -a 127.0.0.1:1`"
    );
    let usage = run(&["send", "-o", "json", "--bogus"]);
    assert_eq!(usage.envelope()["code"], "A2ACLI_ERR_USAGE");
    assert!(usage.envelope()["hint"].is_string());
    // Text mode says the same on stderr, as fields.
    let text = run(&["task", "get", "-a", host, "no-such-task"]);
    assert_eq!(
        fields(&text.stderr)[..3],
        [
            (
                "Error".to_owned(),
                "the agent answered TaskNotFoundError (-32001): task no-such-task not found"
                    .to_owned()
            ),
            ("Code".to_owned(), "TaskNotFoundError".to_owned()),
            ("A2A-Code".to_owned(), "-32001".to_owned()),
        ]
    );
    assert!(text.stdout.is_empty());
}

#[test]
fn a2acli_out_005() {
    let agent = Served::start();
    let host = agent.host();
    // Fields one per line, the same labels every time; blocks closed by an empty line.
    let first = ok(&["send", "-a", host, "files"]);
    let second = ok(&["send", "-a", host, "files"]);
    let labels = |r: &support::Run| r.fields().into_iter().map(|(l, _)| l).collect::<Vec<_>>();
    assert_eq!(labels(&first), labels(&second));
    assert_eq!(
        labels(&first),
        ["Task-Id", "Context-Id", "State", "Updated", "Artifact"]
    );
    assert!(first.stdout.ends_with("}\n\n"), "{:?}", first.stdout);
    // No terminal control sequences, whatever the agent sends.
    let ansi = ok(&["send", "-a", host, "ansi"]);
    assert!(!ansi.stdout.contains('\u{1b}') && !ansi.stdout.contains('\u{7}'));
    assert_eq!(block(&ansi.stdout, "Artifact"), "\\x1b[31mred\\x1b[0m\\x07");
    // The interactive mode degrades to text off a terminal, and reads no typing there.
    let chat = Cli::new().stdin(b"hello\n").ok(&["chat", "-a", host]);
    assert_eq!(chat.field("Role"), "AGENT");
    assert_eq!(block(&chat.stdout, "Message"), "hi!");
    let nothing = ok(&["chat", "-a", host]);
    assert!(nothing.stdout.is_empty());
}

#[test]
fn a2acli_out_006() {
    let agent = Served::start();
    let host = agent.host();
    let started = ok(&["send", "-a", host, "wait", "--async", "-o", "json"]).json();
    let (id, context) = ids(&started);
    assert!(!id.is_empty() && !context.is_empty());
    let text = ok(&["send", "-a", host, "wait", "--async"]);
    let other = text.field("Task-Id");
    assert!(!text.field("Context-Id").is_empty());
    assert_eq!(
        text.field("Resume"),
        format!("a2a task get -a {host} --wait {other}")
    );
    ok(&["task", "cancel", "-a", host, &id]);
    ok(&["task", "cancel", "-a", host, &other]);
}

#[test]
fn a2acli_exit_001() {
    let secured = Served::with(Setup {
        bearer: Some("good".into()),
        ..Setup::default()
    });
    let agent = Served::start();
    let host = agent.host();
    let missing_card = format!("{}/nothing.json", agent.url);
    let cases: [(Vec<&str>, i32, &str); 6] = [
        (
            vec!["task", "get", "-a", host, "nope"],
            1,
            "TaskNotFoundError",
        ),
        (vec!["send", "-a", host, "--wat"], 2, "A2ACLI_ERR_USAGE"),
        (
            vec!["card", "get", "-a", "127.0.0.1:1", "--retries", "0"],
            3,
            "A2ACLI_ERR_UNREACHABLE",
        ),
        (
            vec!["card", "get", "-a", &missing_card],
            3,
            "A2ACLI_ERR_CARD_NOT_FOUND",
        ),
        (
            vec!["send", "-a", secured.host(), "hi"],
            4,
            "A2ACLI_ERR_CREDENTIALS_MISSING",
        ),
        (
            vec!["send", "-a", host, "wait", "--timeout", "200ms"],
            5,
            "A2ACLI_ERR_TIMEOUT",
        ),
    ];
    for (mut args, code, name) in cases {
        args.extend(["-o", "json"]);
        let failed = run(&args);
        assert_eq!(failed.code, code, "{args:?}: {}", failed.stdout);
        assert_eq!(failed.envelope()["code"], name, "{args:?}");
    }
    let refused = run(&[
        "send",
        "-a",
        secured.host(),
        "hi",
        "--bearer",
        "bad",
        "-o",
        "json",
    ]);
    assert_eq!(
        (refused.code, refused.envelope()["code"].as_str()),
        (4, Some("A2ACLI_ERR_AUTH_FAILED"))
    );
    assert_eq!(ok(&["send", "-a", host, "fine"]).code, 0);
}

#[test]
fn a2acli_exit_002() {
    let agent = Served::start();
    let host = agent.host();
    for (text, state, said) in [
        ("fail", "FAILED", "warning: task {id} ended FAILED"),
        ("reject", "REJECTED", "warning: task {id} ended REJECTED"),
        (
            "ask",
            "INPUT_REQUIRED",
            "note: task {id} waits for the caller (INPUT_REQUIRED)",
        ),
        (
            "login",
            "AUTH_REQUIRED",
            "note: task {id} waits for the caller (AUTH_REQUIRED)",
        ),
    ] {
        let outcome = ok(&["send", "-a", host, text]);
        assert_eq!(outcome.field("State"), state);
        let id = outcome.field("Task-Id");
        assert!(
            outcome.stderr.contains(&said.replace("{id}", &id)),
            "{}",
            outcome.stderr
        );
    }
}

#[test]
fn a2acli_auth_001() {
    let schemes = json!({"token": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
                         "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Api-Key"}}});
    let agent = Served::with(Setup {
        bearer: Some("t0ken-123".into()),
        api_key: Some("k3y-456".into()),
        schemes: Some(schemes),
        ..Setup::default()
    });
    let host = agent.host();
    assert_eq!(
        ok(&["send", "-a", host, "hi", "--bearer", "t0ken-123"]).field("State"),
        "COMPLETED"
    );
    assert_eq!(
        Cli::new()
            .env("A2ACLI_BEARER", "t0ken-123")
            .ok(&["send", "-a", host, "hi"])
            .field("State"),
        "COMPLETED"
    );
    assert_eq!(
        ok(&["send", "-a", host, "hi", "--api-key", "k3y-456"]).field("State"),
        "COMPLETED"
    );
    assert_eq!(
        Cli::new()
            .env("A2ACLI_API_KEY", "k3y-456")
            .ok(&["send", "-a", host, "hi"])
            .field("State"),
        "COMPLETED"
    );
    // The key goes where the scheme says: in the header it names.
    let debug = ok(&["send", "-a", host, "hi", "--api-key", "k3y-456", "--debug"]);
    let send = requests(&debug.stderr)
        .into_iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .unwrap();
    assert!(
        send.contains(&"x-api-key: [redacted]".to_owned()),
        "{send:?}"
    );
    // A service parameter is a header of its own, documented apart from credentials.
    let param = ok(&[
        "send",
        "-a",
        host,
        "hi",
        "--bearer",
        "t0ken-123",
        "--svc-param",
        "x-trace-id:abc-123",
        "--debug",
    ]);
    let send = requests(&param.stderr)
        .into_iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .unwrap();
    assert!(
        send.contains(&"x-trace-id: [redacted]".to_owned()),
        "{send:?}"
    );
    let help = ok(&["send", "--help"]).stdout;
    let svc = help
        .split("--svc-param")
        .nth(1)
        .unwrap()
        .split("\n      --")
        .next()
        .unwrap()
        .to_lowercase();
    assert!(
        !svc.contains("auth") && !svc.contains("credential"),
        "{svc}"
    );
}

#[test]
fn a2acli_auth_002() {
    let help = ok(&["send", "--help"]).stdout;
    for (flag, var) in [
        ("--bearer", "A2ACLI_BEARER"),
        ("--api-key", "A2ACLI_API_KEY"),
    ] {
        let text = help
            .split(&format!("      {flag} <"))
            .nth(1)
            .unwrap()
            .split("\n      --")
            .next()
            .unwrap();
        assert!(text.contains(&format!("[env: {var}]")), "{text}");
        // clap wraps help text to the terminal's width: compare words, not lines.
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("visible to other users in the process table"),
            "{text}"
        );
    }
    // The flag wins over the variable.
    let agent = Served::with(Setup {
        bearer: Some("right".into()),
        ..Setup::default()
    });
    let flag_wins = Cli::new().env("A2ACLI_BEARER", "wrong").ok(&[
        "send",
        "-a",
        agent.host(),
        "hi",
        "--bearer",
        "right",
    ]);
    assert_eq!(flag_wins.field("State"), "COMPLETED");
}

#[test]
fn a2acli_auth_003() {
    let agent = Served::with(Setup {
        tls: true,
        ..Setup::default()
    });
    let url = &agent.url;
    // Verification is on: a self-signed certificate is refused.
    let refused = fails(
        &["card", "get", "-a", url, "--retries", "0"],
        3,
        "A2ACLI_ERR_UNREACHABLE",
    );
    assert!(
        refused["message"].as_str().unwrap().contains("certificate"),
        "{refused}"
    );
    // --insecure turns it off, loudly; more so when a credential goes along.
    let insecure = ok(&[
        "send",
        "-a",
        url,
        "hi",
        "--insecure",
        "--bearer",
        "some-token",
    ]);
    assert_eq!(insecure.field("State"), "COMPLETED");
    assert!(
        insecure
            .stderr
            .contains("warning: TLS certificate verification is off (--insecure)"),
        "{}",
        insecure.stderr
    );
    assert!(
        insecure.stderr.contains(
            "warning: a credential is sent over a connection whose TLS certificate is not verified"
        ),
        "{}",
        insecure.stderr
    );
}

#[test]
fn a2acli_auth_004() {
    let schemes = json!({"token": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}});
    let agent = Served::with(Setup {
        bearer: Some("sup3r-s3cret".into()),
        schemes: Some(schemes),
        ..Setup::default()
    });
    let run = ok(&[
        "send",
        "-a",
        agent.host(),
        "hi",
        "--bearer",
        "sup3r-s3cret",
        "--svc-param",
        "x-key:param-s3cret",
        "-H",
        "X-Other: header-s3cret",
        "--debug",
        "--verbose",
    ]);
    for secret in ["sup3r-s3cret", "param-s3cret", "header-s3cret"] {
        assert!(
            !run.stderr.contains(secret) && !run.stdout.contains(secret),
            "{secret} leaked:\n{}",
            run.stderr
        );
    }
    assert!(run.stderr.contains("authorization: [redacted]"));
    // Push credentials in a request body too.
    let push = Served::with(Setup {
        push: true,
        ..Setup::default()
    });
    let (id, _) = ids(&ok(&["send", "-a", push.host(), "hi", "-o", "json"]).json());
    let created = ok(&[
        "task",
        "push-config",
        "create",
        "-a",
        push.host(),
        &id,
        "--url",
        "http://127.0.0.1:9/hook",
        "--auth-scheme",
        "Bearer",
        "--auth-credentials",
        "webhook-s3cret",
        "--token",
        "notify-s3cret",
        "--debug",
    ]);
    assert!(
        !created.stderr.contains("webhook-s3cret") && !created.stderr.contains("notify-s3cret"),
        "{}",
        created.stderr
    );
}

#[test]
fn a2acli_tx_001() {
    let agent = Served::start();
    let dir = TempDir::new();
    // The card's order decides: HTTP+JSON first here.
    let mut card = card_json(&agent);
    card["supportedInterfaces"] = json!([
        interface(&agent.url, "HTTP+JSON", None),
        interface(&format!("{}/", agent.url), "JSONRPC", None),
    ]);
    let path = card_file(&dir, "rest-first.json", &card);
    let run = ok(&["send", "-a", &path, "hi", "--debug"]);
    let send = requests(&run.stderr)
        .into_iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .unwrap();
    assert_eq!(
        send[0],
        format!("SendStreamingMessage: POST {}/message:stream", agent.url)
    );
    let shown = ok(&["card", "get", "-a", &path]);
    assert_eq!(
        shown.field("Interface"),
        format!("HTTP+JSON 1.0 {} (selected)", agent.url)
    );
}

#[test]
fn a2acli_tx_002() {
    let agent = Served::start();
    let host = agent.host();
    let method = |run: &support::Run| {
        requests(&run.stderr)
            .into_iter()
            .find(|r| r[0].starts_with("GetTask"))
            .unwrap()[0]
            .clone()
    };
    let (id, _) = sent(host, &["hi"]);
    // The card's first supported interface: JSON-RPC.
    let default = ok(&["task", "get", "-a", host, &id, "--debug"]);
    assert_eq!(method(&default), format!("GetTask: POST {}/", agent.url));
    // --transport is ordered; a binding the card does not offer is skipped.
    let preferred = ok(&[
        "task",
        "get",
        "-a",
        host,
        &id,
        "--debug",
        "--transport",
        "GRPC",
        "--transport",
        "http+json",
        "--transport",
        "JSONRPC",
    ]);
    assert_eq!(
        method(&preferred),
        format!("GetTask: GET {}/tasks/{id}", agent.url)
    );
    let env = Cli::new()
        .env("A2ACLI_TRANSPORT", "grpc,HTTP+JSON")
        .ok(&["task", "get", "-a", host, &id, "--debug"]);
    assert_eq!(
        method(&env),
        format!("GetTask: GET {}/tasks/{id}", agent.url)
    );
}

#[test]
fn a2acli_tx_003() {
    let agent = Served::start();
    let dir = TempDir::new();
    let mut card = card_json(&agent);
    card["supportedInterfaces"] = json!([interface(
        &format!("{}/", agent.url),
        "JSONRPC",
        Some("acme")
    )]);
    let tenant = card_file(&dir, "tenant.json", &card);
    let run = ok(&["send", "-a", &tenant, "hi", "--debug", "-o", "json"]);
    let (id, _) = ids(&run.json());
    for request in requests(&run.stderr)
        .into_iter()
        .filter(|r| !r[0].starts_with("GetAgentCard"))
    {
        let body: Value = serde_json::from_str(request.last().unwrap()).unwrap();
        assert_eq!(body["params"]["tenant"], "acme", "{request:?}");
    }
    // The task lives in that tenant: seen through the card, not without the tenant.
    ok(&["task", "get", "-a", &tenant, &id]);
    assert_eq!(
        run_json_code(&["task", "get", "-a", agent.host(), &id]),
        "TaskNotFoundError"
    );
    // No tenant declared: none sent.
    let plain = ok(&["send", "-a", agent.host(), "hi", "--debug"]);
    let send = requests(&plain.stderr)
        .into_iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .unwrap();
    let body: Value = serde_json::from_str(send.last().unwrap()).unwrap();
    assert!(body["params"].get("tenant").is_none(), "{body}");
}

fn run_json_code(args: &[&str]) -> String {
    let mut args = args.to_vec();
    args.extend(["-o", "json"]);
    run(&args).envelope()["code"].as_str().unwrap().to_owned()
}

#[test]
fn a2acli_ver_001() {
    let agent = Served::start();
    let host = agent.host();
    let run = ok(&["send", "-a", host, "hi", "--debug", "--a2a-version", "1.0"]);
    let all = requests(&run.stderr);
    assert!(all.len() >= 3, "{all:?}");
    for request in &all {
        assert!(
            request.contains(&"a2a-version: 1.0".to_owned()),
            "{request:?}"
        );
    }
    // Any other version is refused, and said clearly (0.3, 0.2 and 0.1 are the opt-in to an
    // older version: tests/a2a_version.rs).
    let old = support::run(&[
        "send",
        "-a",
        host,
        "hi",
        "--a2a-version",
        "2.0",
        "-o",
        "json",
    ]);
    assert_eq!(old.code, 1);
    assert_eq!(old.envelope()["code"], "VersionNotSupportedError");
    assert_eq!(
        old.envelope()["message"],
        "A2A version `2.0` is not supported: this build speaks A2A 1.0, 1.1 (draft), 0.3, 0.2 and 0.1"
    );
}

#[test]
fn a2acli_default_001() {
    let agent = Served::start();
    let host = agent.host();
    let help = ok(&["send", "--help"]).stdout;
    for default in [
        "[default: text]",
        "[default: 1.0]",
        "[default: 5m]",
        "[default: 2s]",
        "[default: 2]",
    ] {
        assert!(help.contains(default), "{default} missing from:\n{help}");
    }
    // Output: text by default, JSON on request; concise by default, everything with --verbose.
    let concise = ok(&["send", "-a", host, "hi"]);
    assert!(concise.stdout.starts_with("Task-Id: "));
    assert!(!concise.stdout.contains("History:"));
    assert!(
        ok(&["send", "-a", host, "hi", "--verbose"])
            .stdout
            .contains("History: USER ")
    );
    // Waiting by default, --async to return at once (a2acli_send_002), --wait to override a
    // configured --async.
    let configured = Cli::new().env("A2ACLI_ASYNC", "1");
    let quick = configured
        .ok(&["send", "-a", host, "wait", "-o", "json"])
        .json();
    assert!(
        ["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"].contains(&state(&quick)),
        "{quick}"
    );
    ok(&["task", "cancel", "-a", host, &ids(&quick).0]);
    let waited = configured
        .ok(&["send", "-a", host, "slow 100", "--wait", "-o", "json"])
        .json();
    assert_eq!(state(&waited), "TASK_STATE_COMPLETED");
    // Transport (a2acli_tx_002), protocol version (a2acli_ver_001) and TLS verification
    // (a2acli_auth_003) have their tests.
}

#[test]
fn a2acli_config_001() {
    let auth = OAuthServer::start(0);
    let (agent, _dir, card) = oauth_agent(&auth, "tok-device", "deviceCode");
    let cli = Cli::new();
    cli.ok(&["auth", "login", "-a", &card, "--client-id", "cli"]);
    let store = cli.config_dir().join("tokens.json");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&store), 0o600);
        assert_eq!(mode(&cli.config_dir()), 0o700);
    }
    // config show reads, never writes; it names the store.
    let before = std::fs::read(&store).unwrap();
    let shown = cli.ok(&["config", "show"]);
    assert_eq!(shown.field("Token-Store"), store.display().to_string());
    assert_eq!(std::fs::read(&store).unwrap(), before);
    // Only the token is kept: after calls, the folder holds the store and nothing else.
    cli.ok(&["send", "-a", &card, "ask"]);
    let kept: Vec<String> = std::fs::read_dir(cli.config_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(kept, ["tokens.json"]);
    let stored: Value = serde_json::from_slice(&std::fs::read(&store).unwrap()).unwrap();
    assert_eq!(stored["tokens"].as_object().unwrap().len(), 1);
    assert!(!String::from_utf8_lossy(&before).contains("contextId"));
    // Removable by the user.
    std::fs::remove_file(&store).unwrap();
    assert_eq!(cli.run(&["send", "-a", &card, "hi"]).code, 4);
    drop(agent);
}

#[test]
fn a2acli_cli_001() {
    let top = ok(&["help"]).stdout;
    for command in [
        "card",
        "send",
        "task",
        "auth",
        "chat",
        "config",
        "completion",
        "conformance",
        "serve",
    ] {
        assert!(
            top.contains(&format!("  {command} ")),
            "{command} missing from:\n{top}"
        );
    }
    assert_eq!(ok(&["--help"]).stdout, top);
    assert!(ok(&["help", "send"]).stdout.starts_with("Send a message"));
    assert!(
        ok(&["send", "--help"])
            .stdout
            .contains("Usage: a2a send [OPTIONS] [TEXT]")
    );
    assert!(
        ok(&["task", "get", "--help"])
            .stdout
            .contains("Usage: a2a task get [OPTIONS]")
    );
    let version = format!("a2a {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(ok(&["-v"]).stdout, version);
    assert_eq!(ok(&["--version"]).stdout, version);
    let help = ok(&["task", "get", "--help"]).stdout;
    assert!(
        help.contains("[env: A2ACLI_POLL_INTERVAL=] [default: 2s]")
            || help.contains("[default: 2s]"),
        "{help}"
    );
}

/// An agent that wants the bearer token `token`, and a card file declaring an OAuth 2 scheme of
/// `flow` at `auth` (in the folder returned with it).
fn oauth_agent(auth: &OAuthServer, token: &str, flow: &str) -> (Served, TempDir, String) {
    let agent = Served::with(Setup {
        bearer: Some(token.to_owned()),
        ..Setup::default()
    });
    let flows = match flow {
        "deviceCode" => {
            json!({"deviceCode": {"deviceAuthorizationUrl": format!("{}/device", auth.url),
            "tokenUrl": format!("{}/token", auth.url), "scopes": {"agent:use": "use the agent"}}})
        }
        _ => json!({"clientCredentials": {"tokenUrl": format!("{}/token", auth.url),
            "scopes": {"agent:use": "use the agent"}}}),
    };
    let mut card = card_json(&agent);
    card["securitySchemes"] = json!({"oauth": {"oauth2SecurityScheme": {"flows": flows}}});
    card["securityRequirements"] = json!([{"schemes": {"oauth": {"list": ["agent:use"]}}}]);
    let dir = TempDir::new();
    let path = card_file(&dir, "oauth.json", &card);
    (agent, dir, path)
}

// ----- Tier 2 ------------------------------------------------------------------------------

#[test]
fn a2acli_card_get_002() {
    let agent = Served::start();
    let valid = ok(&["card", "get", "-a", agent.host(), "--validate"]);
    assert_eq!(valid.field("Valid"), "yes");
    let dir = TempDir::new();
    let mut card = card_json(&agent);
    card["skills"] = json!([]);
    card["capabilities"]["streaming"] = json!("yes");
    let broken = card_file(&dir, "broken.json", &card);
    let invalid = fails(
        &["card", "get", "-a", &broken, "--validate"],
        1,
        "A2ACLI_ERR_CARD_INVALID",
    );
    assert_eq!(
        invalid["message"],
        format!(
            "the agent card at {broken} does not follow the A2A 1.0 schema (2 errors): capabilities.streaming: expected true or false, found a string; skills: required, empty"
        )
    );
    // Members the 1.0 schema does not define are warnings: the card stays valid. The 0.3
    // fields of a union card (`url`, ...) are read by older clients and no warning.
    let mut union = card_json(&agent);
    union["colour"] = json!("blue");
    union["url"] = json!(agent.url);
    let union = card_file(&dir, "union.json", &union);
    let warned = ok(&["card", "get", "-a", &union, "--validate"]);
    assert_eq!(warned.field("Valid"), "yes, with 1 warning");
    assert!(
        warned
            .stderr
            .contains("warning: card: warning: colour: not a member of the A2A 1.0 schema"),
        "{}",
        warned.stderr
    );
}

#[test]
fn a2acli_task_list_001() {
    let agent = Served::start();
    let host = agent.host();
    let (_, context) = sent(host, &["one"]);
    let mut created = Vec::new();
    for text in ["two", "ask"] {
        created.push(sent(host, &[text, "--context-id", &context]).0);
    }
    ok(&["send", "-a", host, "elsewhere"]);
    // Filtered by context, a page at a time, newest first.
    let page = ok(&[
        "task",
        "list",
        "-a",
        host,
        "--context-id",
        &context,
        "--page-size",
        "2",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(page["totalSize"], 3);
    let first: Vec<&str> = page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(first, [created[1].as_str(), created[0].as_str()]);
    let token = page["nextPageToken"].as_str().unwrap();
    let rest = ok(&[
        "task",
        "list",
        "-a",
        host,
        "--context-id",
        &context,
        "--page-size",
        "2",
        "--page-token",
        token,
        "-o",
        "json",
    ])
    .json();
    assert_eq!(rest["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(rest["nextPageToken"], "");
    // Filtered by status.
    let waiting = ok(&[
        "task",
        "list",
        "-a",
        host,
        "--context-id",
        &context,
        "--status",
        "input-required",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(waiting["tasks"][0]["id"], created[1].as_str());
    assert_eq!(waiting["totalSize"], 1);
    // Text: labelled records, then the paging, with the command for the next page.
    let text = ok(&[
        "task",
        "list",
        "-a",
        host,
        "--context-id",
        &context,
        "--page-size",
        "2",
    ]);
    let labels: Vec<String> = text.fields().into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        [
            "Task-Id",
            "Context-Id",
            "State",
            "Updated",
            "Task-Id",
            "Context-Id",
            "State",
            "Updated",
            "Total",
            "Next-Page-Token",
            "Next-Page"
        ]
    );
    let next = text.field("Next-Page");
    assert!(
        next.starts_with(&format!(
            "a2a task list -a {host} --context-id {context} --page-size 2 --page-token "
        )),
        "{next}"
    );
    // -o json --stream: one task per line.
    let lines = ok(&[
        "task",
        "list",
        "-a",
        host,
        "--context-id",
        &context,
        "-o",
        "json",
        "--stream",
    ])
    .lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["id"], created[1].as_str());
}

/// `task subscribe --stream -o json` (and `extra`) on a task waiting for its answer: the first
/// event is the task waiting; then the answer is sent (with `extra` too) and the events that
/// follow, to the end of the run, are returned.
fn subscribed_to_an_answer(host: &str, extra: &[&str]) -> Vec<Value> {
    let (id, _) = sent(host, &["ask"]);
    let mut args = vec![
        "task",
        "subscribe",
        "-a",
        host,
        &id,
        "--stream",
        "-o",
        "json",
    ];
    args.extend(extra);
    let mut child = Cli::new().spawn(&args);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["task"]["id"], id.as_str());
    assert_eq!(
        first["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    let mut answer = vec!["send", "-a", host, "--task-id", &id, "Paris"];
    answer.extend(extra);
    ok(&answer);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
    rest.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a2acli_task_subscribe_001() {
    let agent = Served::start();
    let host = agent.host();
    // A task waiting for its answer is followed; the answer comes meanwhile.
    let events = subscribed_to_an_answer(host, &[]);
    assert_eq!(
        events.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    // Without --stream: the task at its end.
    let (id, _) = sent(host, &["ask"]);
    let mut child = Cli::new().spawn(&[
        "task",
        "subscribe",
        "-a",
        host,
        &id,
        "-o",
        "json",
        "--debug",
    ]);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0
        && !line.starts_with("debug: <- SubscribeToTask: 200")
    {
        line.clear();
    }
    ok(&["send", "-a", host, "--task-id", &id, "Oslo"]);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let task: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(task["id"], id.as_str());
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(
        task["artifacts"][0]["parts"],
        json!([{"text": "Sunny in Oslo."}])
    );
    // A task that ended cannot be followed; the agent says so.
    fails(
        &["task", "subscribe", "-a", host, &id],
        1,
        "UnsupportedOperationError",
    );
}

#[test]
fn a2acli_task_subscribe_002() {
    let agent = Served::start();
    let host = agent.host();
    // Event ids are shown, and a later subscription picks up right after one of them.
    let (id, _) = sent(host, &["ask"]);
    let mut child = Cli::new().spawn(&["task", "subscribe", "-a", host, &id, "--stream"]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 && !line.starts_with("State:") {
        first.push_str(&line);
        line.clear();
    }
    let _ = child.kill();
    let _ = child.wait();
    // The first event re-delivers the whole task.
    assert_eq!(fields(&first)[1], ("Task-Id".to_owned(), id.clone()));
    let (id, _) = sent(host, &["chunks 3"]);
    let all = ok(&[
        "task",
        "subscribe",
        "-a",
        host,
        &id,
        "--after",
        "0",
        "--stream",
        "-o",
        "json",
    ]);
    let events = all.lines();
    assert_eq!(events.len(), 6, "{events:?}");
    let replayed = ok(&[
        "task",
        "subscribe",
        "-a",
        host,
        &id,
        "--after",
        "3",
        "--stream",
        "-o",
        "json",
    ])
    .lines();
    assert_eq!(replayed[..], events[3..]);
    let text = ok(&[
        "task",
        "subscribe",
        "-a",
        host,
        &id,
        "--after",
        "3",
        "--stream",
    ]);
    assert_eq!(text.field("Event-Id"), "4");
    // A stream cut on the way resumes by itself where it broke.
    let proxy = CuttingProxy::start(&agent.url, false);
    let dir = TempDir::new();
    let mut card = card_json(&agent);
    card["supportedInterfaces"] = json!([interface(&format!("{}/", proxy.url), "JSONRPC", None)]);
    let path = card_file(&dir, "cut.json", &card);
    let resumed = ok(&["send", "-a", &path, "--stream", "chunks 3", "-o", "json"]).lines();
    let chunks: Vec<&Value> = resumed
        .iter()
        .filter(|e| e.get("artifactUpdate").is_some())
        .collect();
    assert_eq!(chunks.len(), 3, "{resumed:?}");
    assert_eq!(
        resumed.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    assert!(proxy.subscribes.load(std::sync::atomic::Ordering::Relaxed) >= 1);
}

#[test]
fn a2acli_auth_005() {
    let auth = OAuthServer::start(2);
    let (agent, _dir, card) = oauth_agent(&auth, "tok-device", "deviceCode");
    let cli = Cli::new();
    let login = cli.ok(&["auth", "login", "-a", &card, "--client-id", "cli"]);
    assert!(
        login.stderr.contains(
            "note: to log in, open https://login.example/activate and enter the code WDJB-MJHT"
        ),
        "{}",
        login.stderr
    );
    assert_eq!(login.field("Scheme"), "oauth");
    assert_eq!(login.field("Scopes"), "agent:use");
    let requests = auth.requests.lock().unwrap().clone();
    assert!(
        requests[0].starts_with("POST /device")
            && requests[0].contains("client_id=cli&scope=agent%3Ause")
    );
    assert_eq!(
        requests.len(),
        4,
        "the device request, two pending answers, the token"
    );
    assert_eq!(
        cli.ok(&["send", "-a", &card, "hi"]).field("State"),
        "COMPLETED"
    );
    drop(agent);
}

/// Mutual TLS: `a2a serve --tls-cert --tls-key --client-ca` declares an `mtlsSecurityScheme`
/// and knows each caller by its certificate; `--cert`/`--key` (or `A2ACLI_CERT`/`A2ACLI_KEY`)
/// present one, `--ca-cert` (`A2ACLI_CA_CERT`) trusts the agent's private CA, over JSON-RPC,
/// HTTP+JSON and gRPC. Without a certificate: 401 (credentials missing), or, with
/// `--client-cert-required`, no handshake at all (unreachable); unreadable PEM is a usage error.
#[test]
fn a2acli_auth_009() {
    let ca = pki::Ca::new("a2a-rs test CA");
    let dir = TempDir::new();
    let (server_cert, server_key) = ca.server().write(dir.path(), "server");
    let ca_pem = dir.file("ca.pem", ca.pem().as_bytes());
    let (alice_cert, alice_key) = ca
        .client(pki::Names::uri("spiffe://a2a.test/alice"))
        .write(dir.path(), "alice");
    let (bob_cert, bob_key) = ca
        .client(pki::Names::uri("spiffe://a2a.test/bob"))
        .write(dir.path(), "bob");
    let path = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let (ca_pem, alice_cert, alice_key) = (path(&ca_pem), path(&alice_cert), path(&alice_key));
    let (server_cert, server_key) = (path(&server_cert), path(&server_key));
    let mtls = |extra: &[&str]| {
        let mut args = vec![
            "--tls-cert",
            server_cert.as_str(),
            "--tls-key",
            server_key.as_str(),
            "--client-ca",
            ca_pem.as_str(),
        ];
        args.extend(extra);
        Serve::start(&args)
    };
    let agent = mtls(&[]);
    let url = agent.url.clone();
    assert!(url.starts_with("https://127.0.0.1:"), "{url}");
    let alice = [
        "--ca-cert",
        ca_pem.as_str(),
        "--cert",
        alice_cert.as_str(),
        "--key",
        alice_key.as_str(),
    ];

    // The card declares the scheme, and https interfaces (gRPC's too).
    let card = ok(&[
        "card",
        "get",
        "-a",
        &url,
        "--ca-cert",
        &ca_pem,
        "-o",
        "json",
    ])
    .json();
    assert_eq!(
        card["securitySchemes"]["mtls"]["mtlsSecurityScheme"],
        json!({"description": "A client certificate issued by the agent's client CA"})
    );
    assert_eq!(
        card["securityRequirements"],
        json!([{"schemes": {"mtls": {}}}])
    );
    let urls: Vec<&str> = card["supportedInterfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["url"].as_str().unwrap())
        .collect();
    assert!(urls.iter().all(|u| u.starts_with(&url)), "{urls:?}");

    // Alice's task, over each binding; Bob, another certificate of the same CA, does not find it.
    for transport in ["JSONRPC", "HTTP+JSON", "GRPC"] {
        let mut args = vec![
            "send",
            "-a",
            &url,
            "hi",
            "-o",
            "json",
            "--transport",
            transport,
        ];
        args.extend(alice);
        let (task, _) = ids(&ok(&args).json());
        let mut args = vec!["task", "get", &task, "-a", &url, "--transport", transport];
        args.extend(alice);
        assert_eq!(ok(&args).field("State"), "COMPLETED");
        let bob = Cli::new()
            .env("A2ACLI_CERT", bob_cert.to_str().unwrap())
            .env("A2ACLI_KEY", bob_key.to_str().unwrap())
            .env("A2ACLI_CA_CERT", &ca_pem);
        let theirs = bob.fails(
            &["task", "get", &task, "-a", &url, "--transport", transport],
            1,
            "TaskNotFoundError",
        );
        assert_eq!(
            theirs["message"],
            format!("the agent answered TaskNotFoundError (-32001): task {task} not found"),
            "{transport}"
        );
    }

    // No certificate: the agent answers 401, and the hint names the scheme.
    let missing = fails(
        &["send", "-a", &url, "hi", "--ca-cert", &ca_pem],
        4,
        "A2ACLI_ERR_CREDENTIALS_MISSING",
    );
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("a client certificate is required (mutual TLS)"),
        "{missing}"
    );
    // Without --ca-cert the private CA is not trusted.
    let mut args = vec!["card", "get", "-a", url.as_str(), "--retries", "0"];
    args.extend(&alice[2..]);
    fails(&args, 3, "A2ACLI_ERR_UNREACHABLE");
    // Files that are not what they should be.
    let usage = fails(
        &[
            "send",
            "-a",
            &url,
            "hi",
            "--ca-cert",
            &ca_pem,
            "--cert",
            &alice_cert,
            "--key",
            &ca_pem,
        ],
        2,
        "A2ACLI_ERR_USAGE",
    );
    assert_eq!(
        usage["message"],
        format!(
            "--cert {alice_cert} --key {ca_pem}: the client certificate's key: no PEM private key \
             (PKCS#8, RSA or EC): no items found"
        )
    );
    fails(
        &["send", "-a", &url, "hi", "--cert", &alice_cert],
        2,
        "A2ACLI_ERR_USAGE",
    );
    drop(agent);

    // --client-cert-required: without a certificate not even the card is served.
    let strict = mtls(&["--client-cert-required"]);
    fails(
        &[
            "card",
            "get",
            "-a",
            &strict.url,
            "--ca-cert",
            &ca_pem,
            "--retries",
            "0",
        ],
        3,
        "A2ACLI_ERR_UNREACHABLE",
    );
    let mut args = vec!["send", "-a", strict.url.as_str(), "hi"];
    args.extend(alice);
    assert_eq!(ok(&args).field("State"), "COMPLETED");
}

/// An agent whose card declares OpenID Connect: `auth login` finds the provider's endpoints
/// through discovery and runs the device-code flow (client credentials with a secret).
#[test]
fn a2acli_auth_010() {
    let auth = OAuthServer::start(0);
    let (agent, dir, _) = oauth_agent(&auth, "tok-device", "deviceCode");
    let mut card = card_json(&agent);
    card["securitySchemes"] = json!({"oidc": {"openIdConnectSecurityScheme": {
        "openIdConnectUrl": format!("{}/.well-known/openid-configuration", auth.url)}}});
    card["securityRequirements"] = json!([{"schemes": {"oidc": {"list": []}}}]);
    let path = card_file(&dir, "oidc.json", &card);
    let cli = Cli::new();
    let login = cli.ok(&["auth", "login", "-a", &path, "--client-id", "cli"]);
    assert_eq!(login.field("Scheme"), "oidc");
    assert_eq!(login.field("Scopes"), "openid");
    let requests = auth.requests.lock().unwrap().clone();
    assert!(
        requests[0].starts_with("GET /.well-known/openid-configuration"),
        "{requests:?}"
    );
    assert!(
        requests[1].starts_with("POST /device")
            && requests[1].contains("client_id=cli&scope=openid"),
        "{requests:?}"
    );
    assert_eq!(
        cli.ok(&["send", "-a", &path, "hi"]).field("State"),
        "COMPLETED"
    );
    // With a secret: client credentials at the discovered token endpoint.
    let cc = Cli::new().env("A2ACLI_CLIENT_SECRET", "s3cret");
    let login = cc.ok(&["auth", "login", "-a", &path, "--client-id", "cli"]);
    assert_eq!(login.field("Token-Type"), "Bearer");
    drop(agent);
}

#[test]
fn a2acli_auth_006() {
    let auth = OAuthServer::start(0);
    let (agent, _dir, card) = oauth_agent(&auth, "tok-cc", "clientCredentials");
    let cli = Cli::new().env("A2ACLI_CLIENT_SECRET", "s3cret");
    let login = cli.ok(&[
        "auth",
        "login",
        "-a",
        &card,
        "--client-id",
        "cli",
        "--debug",
    ]);
    assert_eq!(login.field("Token-Type"), "Bearer");
    assert!(
        !login.stderr.contains("s3cret") && !login.stderr.contains("tok-cc"),
        "{}",
        login.stderr
    );
    assert_eq!(
        cli.ok(&["send", "-a", &card, "hi"]).field("State"),
        "COMPLETED"
    );
    let wrong = Cli::new().env("A2ACLI_CLIENT_SECRET", "nope").run(&[
        "auth",
        "login",
        "-a",
        &card,
        "--client-id",
        "cli",
        "-o",
        "json",
    ]);
    assert_eq!(wrong.code, 4);
    assert_eq!(wrong.envelope()["code"], "A2ACLI_ERR_AUTH_FAILED");
    drop(agent);
}

#[test]
fn a2acli_auth_007() {
    let auth = OAuthServer::start(0);
    let (agent, _dir, card) = oauth_agent(&auth, "tok-device", "deviceCode");
    let cli = Cli::new();
    // Before login: the agent wants credentials, and the hint names the command.
    let missing = cli.fails(
        &["send", "-a", &card, "hi"],
        4,
        "A2ACLI_ERR_CREDENTIALS_MISSING",
    );
    assert!(missing["hint"].as_str().unwrap().contains(&format!(
        "`oauth` is OAuth 2: run `a2a auth login -a {card}`"
    )));
    cli.ok(&["auth", "login", "-a", &card]);
    // Stored privately, attached to every later call of that agent.
    let stored: Value =
        serde_json::from_slice(&std::fs::read(cli.config_dir().join("tokens.json")).unwrap())
            .unwrap();
    assert_eq!(stored["tokens"][&agent.url]["accessToken"], "tok-device");
    let debug = cli.ok(&["send", "-a", &card, "hi", "--debug"]);
    assert!(
        debug
            .stderr
            .contains(&format!("using the token stored for {}", agent.url))
    );
    assert!(!debug.stderr.contains("tok-device"));
    // Logged out: gone.
    cli.ok(&["auth", "logout", "-a", &card]);
    assert_eq!(cli.run(&["send", "-a", &card, "hi"]).code, 4);
}

#[test]
fn a2acli_tx_004() {
    let agent = Served::start();
    let host = agent.host();
    for binding in ["JSONRPC", "HTTP+JSON"] {
        let sent = ok(&[
            "send",
            "-a",
            host,
            "hi",
            "--transport",
            binding,
            "-o",
            "json",
        ])
        .json();
        let (id, _) = ids(&sent);
        let got = ok(&[
            "task",
            "get",
            "-a",
            host,
            &id,
            "--transport",
            binding,
            "-o",
            "json",
        ])
        .json();
        assert_eq!(got["status"]["state"], "TASK_STATE_COMPLETED", "{binding}");
        let streamed = ok(&[
            "send",
            "-a",
            host,
            "chunks 2",
            "--stream",
            "--transport",
            binding,
            "-o",
            "json",
        ])
        .lines();
        assert_eq!(
            streamed.last().unwrap()["statusUpdate"]["status"]["state"],
            "TASK_STATE_COMPLETED"
        );
    }
}

#[test]
fn a2acli_ver_003() {
    let agent = Served::with(Setup {
        no_streaming: true,
        ..Setup::default()
    });
    let host = agent.host();
    let (id, _) = sent(host, &["hi"]);
    // Each capability is checked on the card first: no call is made for what it does not offer.
    for (args, code) in [
        (
            vec!["task", "push-config", "list", "-a", host, &id],
            "PushNotificationNotSupportedError",
        ),
        (
            vec!["card", "get", "--extended", "-a", host],
            "UnsupportedOperationError",
        ),
        (
            vec!["task", "subscribe", "-a", host, &id],
            "UnsupportedOperationError",
        ),
    ] {
        let mut args = args.clone();
        args.extend(["-o", "json", "--debug"]);
        let refused = run(&args);
        assert_eq!(refused.code, 1);
        assert_eq!(refused.envelope()["code"], code);
        assert_eq!(
            refused.envelope()["a2aCode"],
            Value::Null,
            "decided from the card"
        );
        let calls: Vec<String> = requests(&refused.stderr)
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
        assert!(
            calls.iter().all(|c| c.starts_with("GetAgentCard")),
            "{calls:?}"
        );
    }
}

#[test]
fn a2acli_config_002() {
    let agent = Served::start();
    let other = Served::start();
    let cli = Cli::new();
    // The global file names the agent: no -a needed.
    let global = cli.config_dir().join(".env");
    std::fs::create_dir_all(cli.config_dir()).unwrap();
    std::fs::write(
        &global,
        format!(
            "A2ACLI_AGENT_CARD={}\nA2ACLI_TIMEOUT=40s\nA2ACLI_RETRIES=1\n",
            agent.host()
        ),
    )
    .unwrap();
    assert_eq!(
        cli.ok(&["card", "get"]).field("Interface"),
        format!("JSONRPC 1.0 {}/ (selected)", agent.url)
    );
    // A local .env (up from the working directory) wins over it.
    let local = cli.home.file(
        ".env",
        format!(
            "# local\nA2ACLI_AGENT_CARD={}\nA2ACLI_TIMEOUT=30s\n",
            other.host()
        )
        .as_bytes(),
    );
    assert_eq!(
        cli.ok(&["card", "get"]).field("Interface"),
        format!("JSONRPC 1.0 {}/ (selected)", other.url)
    );
    // The environment wins over both, a flag over all.
    let with_env = Cli {
        env: [("A2ACLI_TIMEOUT".to_owned(), "20s".to_owned())].into(),
        ..cli
    };
    let shown = with_env.ok(&["config", "show", "--retries", "3"]);
    assert_eq!(shown.field("A2ACLI_TIMEOUT"), "20s (environment)");
    assert_eq!(shown.field("A2ACLI_RETRIES"), "3 (flag)");
    assert_eq!(
        shown.field("A2ACLI_AGENT_CARD"),
        format!("{} (file {})", other.host(), local.display())
    );
    assert_eq!(shown.field("A2ACLI_POLL_INTERVAL"), "2s (default)");
    let files: Vec<String> = shown
        .fields()
        .into_iter()
        .filter(|(l, _)| l == "Config-File")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(
        files,
        [
            format!("{} (local)", local.display()),
            format!("{} (global)", global.display())
        ]
    );
    // Scoped by agent: --config picks the file of another agent instead of the local one.
    let scoped = with_env.home.file(
        "agents/other.env",
        format!("A2ACLI_AGENT_CARD={}\n", agent.host()).as_bytes(),
    );
    let picked = with_env.ok(&["card", "get", "--config", &scoped.display().to_string()]);
    assert_eq!(
        picked.field("Interface"),
        format!("JSONRPC 1.0 {}/ (selected)", agent.url)
    );
    // --stream is never taken from a file.
    with_env.home.file(".env", b"A2ACLI_STREAM=1\n");
    let ignored = with_env.run(&["config", "show"]);
    assert!(
        ignored
            .stderr
            .contains("--stream is never read from configuration"),
        "{}",
        ignored.stderr
    );
}

#[test]
fn a2acli_download_001() {
    let agent = Served::start();
    let host = agent.host();
    let (id, _) = sent(host, &["files"]);
    let cli = Cli::new();
    let saved = cli.ok(&["task", "download", "-a", host, &id, "--dir", "out"]);
    let read = |path: &str| std::fs::read(cli.home.path().join(path)).unwrap();
    assert_eq!(read("out/report.txt"), b"see the file");
    assert_eq!(read("out/chart.png"), b"\x89PNG\r\n");
    assert_eq!(read("out/report.json"), b"{\n  \"rows\": 2\n}\n");
    assert_eq!(
        saved.values("Saved"),
        [
            "out/report.txt (12 bytes)",
            "out/chart.png (6 bytes)",
            "out/report.json (16 bytes)"
        ]
    );
    // Files that exist are kept unless --force.
    let again = cli.run(&[
        "task", "download", "-a", host, &id, "--dir", "out", "-o", "json",
    ]);
    assert_eq!(again.code, 2);
    assert_eq!(
        again.envelope()["message"],
        "out/report.txt exists; nothing was written"
    );
    cli.ok(&[
        "task", "download", "-a", host, &id, "--dir", "out", "--force",
    ]);
    // A file part that is a URL is fetched: redirects followed to http(s) only, no credential
    // or header meant for the agent sent along, within --max-size.
    let files = FileServer::start(vec![
        ("/report.pdf", "200 OK", vec![], b"%PDF-1.4 test".to_vec()),
        (
            "/moved.pdf",
            "302 Found",
            vec!["location: /report.pdf".to_owned()],
            Vec::new(),
        ),
        (
            "/away.pdf",
            "302 Found",
            vec!["location: ftp://files.example/away.pdf".to_owned()],
            Vec::new(),
        ),
        ("/big.bin", "200 OK", vec![], vec![b'x'; 5000]),
    ]);
    let (report, moved) = (
        format!("{}/report.pdf", files.url),
        format!("{}/moved.pdf", files.url),
    );
    let (id, _) = sent(host, &["links", "--file", &report, "--file", &moved]);
    let saved = cli.ok(&[
        "task",
        "download",
        "-a",
        host,
        &id,
        "--dir",
        "links",
        "--bearer",
        "agent-secret",
        "-H",
        "x-extra: for-the-agent",
    ]);
    assert_eq!(read("links/echo.txt"), b"links");
    assert_eq!(read("links/report.pdf"), b"%PDF-1.4 test");
    assert_eq!(read("links/moved.pdf"), b"%PDF-1.4 test");
    assert_eq!(
        saved.values("Saved"),
        [
            "links/echo.txt (5 bytes)".to_owned(),
            format!("links/report.pdf (13 bytes, from {report})"),
            format!("links/moved.pdf (13 bytes, from {moved})"),
        ]
    );
    let fetched = files.requests.lock().unwrap().clone();
    assert_eq!(fetched.len(), 3, "{fetched:?}");
    for request in &fetched {
        let lower = request.to_ascii_lowercase();
        assert!(
            !lower.contains("authorization") && !lower.contains("x-extra"),
            "{request}"
        );
    }
    for (file, why) in [
        (
            "away.pdf",
            "redirected to `ftp://files.example/away.pdf`, which is not http or https: not followed",
        ),
        ("big.bin", "the file is larger than 4KiB (--max-size)"),
        ("gone.pdf", "HTTP 404 Not Found"),
    ] {
        let url = format!("{}/{file}", files.url);
        let (id, _) = sent(host, &["--file", &url]);
        let failed = cli.fails(
            &[
                "task",
                "download",
                "-a",
                host,
                &id,
                "--dir",
                "failed",
                "--max-size",
                "4KiB",
            ],
            1,
            "A2ACLI_ERR_INTERNAL",
        );
        assert_eq!(
            failed["message"],
            format!("cannot download {url} (artifact echo part 1): {why}; nothing was written")
        );
    }
    // Nothing is written through a symbolic link, --force or not.
    #[cfg(unix)]
    {
        let linked = cli.home.path().join("linked");
        std::fs::create_dir_all(&linked).unwrap();
        std::os::unix::fs::symlink(cli.home.path().join("elsewhere"), linked.join("report.pdf"))
            .unwrap();
        let refused = cli.fails(
            &[
                "task", "download", "-a", host, &id, "--dir", "linked", "--force",
            ],
            2,
            "A2ACLI_ERR_USAGE",
        );
        assert_eq!(
            refused["message"],
            "linked/report.pdf is a symbolic link, which files are never written through; nothing was written"
        );
        assert!(!cli.home.path().join("elsewhere").exists());
    }
}

#[test]
fn a2acli_out_007() {
    let agent = Served::start();
    let debug = ok(&["send", "-a", agent.host(), "hi", "--debug", "-o", "json"]);
    let all = requests(&debug.stderr);
    let send = all
        .iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .unwrap();
    let body: Value = serde_json::from_str(send.last().unwrap()).unwrap();
    assert_eq!(body["method"], "SendStreamingMessage");
    assert_eq!(body["params"]["message"]["parts"], json!([{"text": "hi"}]));
    assert!(
        debug
            .stderr
            .contains("debug: <- SendStreamingMessage: 200 OK")
    );
    assert!(
        debug.stderr.contains("debug: event 1: {\"task\":{"),
        "{}",
        debug.stderr
    );
    // Retries are said, and their number is configurable.
    let refused = run(&[
        "task",
        "get",
        "-a",
        "127.0.0.1:1",
        "x",
        "--debug",
        "--retries",
        "1",
    ]);
    assert_eq!(
        refused.stderr.matches("the card fetch failed").count(),
        1,
        "{}",
        refused.stderr
    );
    let none = run(&[
        "task",
        "get",
        "-a",
        "127.0.0.1:1",
        "x",
        "--debug",
        "--retries",
        "0",
    ]);
    assert_eq!(none.stderr.matches("the card fetch failed").count(), 0);
}

#[test]
fn a2acli_conform_001() {
    let agent = Served::start();
    let report = ok(&["conformance", "-a", agent.host(), "-o", "json"]).json();
    assert_eq!(report["failed"], 0, "{report}");
    let names: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "card-schema",
            "interface",
            "send-message",
            "get-task",
            "list-tasks",
            "send-streaming-message",
            "task-not-found",
            "task-not-cancelable",
            "subscribe-ended-task",
            "push-not-supported",
            "extended-card-unsupported"
        ]
    );
    let text = ok(&["conformance", "-a", agent.host()]);
    assert_eq!(text.field("Summary"), "11 passed, 0 failed, 0 skipped");
}

#[test]
fn a2acli_cli_002() {
    for (shell, marker) in [
        ("bash", "_a2a()"),
        ("zsh", "#compdef a2a"),
        ("fish", "complete -c a2a"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion"),
    ] {
        let script = ok(&["completion", shell]).stdout;
        assert!(script.contains(marker), "{shell}: {marker}");
        assert!(script.contains("push-config"), "{shell}");
    }
    assert_eq!(run(&["completion", "tcsh"]).code, 2);
}

#[test]
fn a2acli_push_001() {
    let agent = Served::with(Setup {
        push: true,
        ..Setup::default()
    });
    let host = agent.host();
    let (id, _) = sent(host, &["wait", "--async"]);
    let created = ok(&[
        "task",
        "push-config",
        "create",
        "-a",
        host,
        &id,
        "--url",
        "http://127.0.0.1:9/hook",
        "--token",
        "tk-1",
        "-o",
        "json",
    ])
    .json();
    let config = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["taskId"], id.as_str());
    assert_eq!(created["url"], "http://127.0.0.1:9/hook");
    let got = ok(&["task", "push-config", "get", "-a", host, &id, &config]);
    assert_eq!(got.field("Config-Id"), config);
    assert_eq!(got.field("Url"), "http://127.0.0.1:9/hook");
    let listed = ok(&["task", "push-config", "list", "-a", host, &id, "-o", "json"]).json();
    assert_eq!(listed["configs"][0]["id"], config.as_str());
    assert_eq!(
        ok(&[
            "task",
            "push-config",
            "delete",
            "-a",
            host,
            &id,
            &config,
            "-o",
            "json"
        ])
        .json(),
        json!({})
    );
    let empty = ok(&["task", "push-config", "list", "-a", host, &id]);
    assert_eq!(empty.field("Total"), "0");
    ok(&["task", "cancel", "-a", host, &id]);
}

// ----- Tier 3 ------------------------------------------------------------------------------

#[test]
fn a2acli_card_get_003() {
    let schemes = json!({"token": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}});
    let agent = Served::with(Setup {
        bearer: Some("ext-token".into()),
        extended: Some("Tester, extended".into()),
        schemes: Some(schemes),
        ..Setup::default()
    });
    let card = ok(&[
        "card",
        "get",
        "--extended",
        "-a",
        agent.host(),
        "--bearer",
        "ext-token",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(card["name"], "Tester, extended");
    let missing = fails(
        &["card", "get", "--extended", "-a", agent.host()],
        4,
        "A2ACLI_ERR_CREDENTIALS_MISSING",
    );
    assert_eq!(
        missing["hint"],
        "the agent declares: `token` takes a bearer token: set A2ACLI_BEARER (or pass --bearer TOKEN)"
    );
}

#[test]
fn a2acli_card_get_004() {
    use a2a_jose::{Algorithm, Jwks, SigningKey};
    let der = SigningKey::generate_pkcs8(Algorithm::Es256).unwrap();
    let public = SigningKey::from_pkcs8(Algorithm::Es256, &der)
        .unwrap()
        .with_kid("card-1")
        .public_jwk();
    let signed = Served::with(Setup {
        card_key: Some(der),
        ..Setup::default()
    });
    // Verified with the JWKS its signature names, on the card's own origin.
    let run = ok(&["card", "get", "-a", signed.host()]);
    assert_eq!(
        run.field("Signatures"),
        "verified: signature 1 (kid `card-1`)"
    );
    // With -o json the card is the protocol's, and the outcome goes to stderr.
    let run = ok(&["card", "get", "-a", signed.host(), "-o", "json"]);
    let card = run.json();
    assert_eq!(card["signatures"].as_array().unwrap().len(), 1);
    assert!(
        run.stderr
            .contains("card signatures: verified: signature 1 (kid `card-1`)"),
        "{}",
        run.stderr
    );
    // An absent signature is reported, and is no failure.
    let unsigned = Served::start();
    let run = ok(&["card", "get", "-a", unsigned.host()]);
    assert_eq!(run.field("Signatures"), "absent");
    // A card read from a file: pinned keys (--card-jwks) verify it; others cannot.
    let dir = TempDir::new();
    let card_path = card_file(&dir, "signed.json", &card);
    let right = dir
        .file(
            "right.json",
            serde_json::to_string(&Jwks::new(vec![public.clone()]))
                .unwrap()
                .as_bytes(),
        )
        .display()
        .to_string();
    let run = ok(&[
        "card",
        "get",
        "-a",
        &card_path,
        "--card-jwks",
        &right,
        "--require-signature",
    ]);
    assert_eq!(
        run.field("Signatures"),
        "verified: signature 1 (kid `card-1`)"
    );
    let stranger = SigningKey::generate(Algorithm::Es256)
        .unwrap()
        .with_kid("other")
        .public_jwk();
    let wrong = dir
        .file(
            "wrong.json",
            serde_json::to_string(&stranger).unwrap().as_bytes(),
        )
        .display()
        .to_string();
    let run = ok(&["card", "get", "-a", &card_path, "--card-jwks", &wrong]);
    assert_eq!(
        run.field("Signatures"),
        "unverifiable: signature 1 (kid `card-1`): unknown key: `card-1` is not in the key set"
    );
    // Without keys, a file has no origin to trust the jku on: never shown as verified.
    let run = ok(&["card", "get", "-a", &card_path]);
    assert_eq!(
        run.field("Signatures"),
        format!(
            "unverifiable: signature 1 (kid `card-1`): unknown key: `card-1` is not in the key \
             set; the jku {}/.well-known/jwks.json is not trusted: the card was read from a \
             file, so it has no origin",
            signed.url
        )
    );
    // A changed card does not verify; --require-signature makes that a failure.
    let mut tampered = card.clone();
    tampered["name"] = json!("Impostor");
    let tampered_path = card_file(&dir, "tampered.json", &tampered);
    let run = ok(&["card", "get", "-a", &tampered_path, "--card-jwks", &right]);
    assert_eq!(
        run.field("Signatures"),
        "unverifiable: signature 1 (kid `card-1`): the signature does not verify with key `card-1`"
    );
    let envelope = fails(
        &[
            "card",
            "get",
            "-a",
            &tampered_path,
            "--card-jwks",
            &right,
            "--require-signature",
        ],
        1,
        "A2ACLI_ERR_CARD_INVALID",
    );
    assert!(
        envelope["message"]
            .as_str()
            .unwrap()
            .contains("has no signature that verifies (--require-signature)"),
        "{envelope}"
    );
    fails(
        &["card", "get", "-a", unsigned.host(), "--require-signature"],
        1,
        "A2ACLI_ERR_CARD_INVALID",
    );
}

#[test]
fn a2acli_auth_008() {
    // The public card is fetched without the credential.
    let schemes =
        json!({"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Api-Key"}}});
    let agent = Served::with(Setup {
        extended: Some("More".into()),
        schemes: Some(schemes),
        ..Setup::default()
    });
    let fetched = ok(&[
        "card",
        "get",
        "-a",
        agent.host(),
        "--bearer",
        "never-sent",
        "--api-key",
        "nor-this",
        "--debug",
    ]);
    let card_requests = requests(&fetched.stderr);
    assert!(
        card_requests.iter().all(|r| r
            .iter()
            .all(|l| !l.starts_with("authorization") && !l.starts_with("x-api-key"))),
        "{card_requests:?}"
    );
    // The extended card gets only what a declared scheme takes: no bearer scheme, no token.
    let refused = run(&[
        "card",
        "get",
        "--extended",
        "-a",
        agent.host(),
        "--bearer",
        "never-sent",
        "-o",
        "json",
        "--debug",
    ]);
    assert_eq!(refused.code, 4);
    assert!(refused.stderr.contains(
        "the bearer token is not sent: the agent's card declares no scheme that takes one"
    ));
    assert!(
        requests(&refused.stderr)
            .iter()
            .all(|r| r[0].starts_with("GetAgentCard"))
    );
}

/// Runs `a2a ARGS` in the background until its stderr says it receives deliveries; returns the
/// child (its stderr read up to there) and the webhook URL it registered.
fn receiving(
    args: &[&str],
) -> (
    std::process::Child,
    BufReader<std::process::ChildStderr>,
    String,
) {
    let mut child = Cli::new().spawn(args);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let mut read = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        if let Some(rest) = line.strip_prefix("note: receiving the push notifications of task ") {
            let url = rest.split(" at ").nth(1).and_then(|r| r.split(' ').next());
            let url = url.unwrap_or_default().to_owned();
            return (child, stderr, url);
        }
        read.push_str(&line);
        line.clear();
    }
    let status = child.wait().unwrap();
    panic!("a2a {args:?} ended ({status}) before receiving:\n{read}");
}

/// POSTs `body` to `url` with `headers`; the status of the answer.
fn post(url: &str, headers: &[(&str, &str)], body: &[u8]) -> u16 {
    use std::io::{Read as _, Write as _};
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nhost: {authority}\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer: {answer:?}"))
}

#[test]
fn a2acli_push_002() {
    let agent = Served::with(Setup {
        push: true,
        push_sign: true,
        ..Setup::default()
    });
    let host = agent.host();
    // A task waiting for its answer; the receiver registers itself, takes the deliveries of
    // the answer's events, signed, and ends with the task.
    let (id, context) = sent(host, &["ask"]);
    let (child, mut stderr, url) = receiving(&[
        "task",
        "push-config",
        "receive",
        "-a",
        host,
        &id,
        "--stream",
        "-o",
        "json",
        "--token",
        "tok-push-1",
        "--max-body",
        "2KiB",
    ]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let configs = ok(&["task", "push-config", "list", "-a", host, &id, "-o", "json"]).json();
    assert_eq!(configs["configs"][0]["url"], url.as_str());
    // What others post is refused: no signature, the wrong token, too large, elsewhere.
    let forged = json!({"statusUpdate": {"taskId": id, "contextId": context,
        "status": {"state": "TASK_STATE_COMPLETED"}}})
    .to_string();
    let token = ("x-a2a-notification-token", "tok-push-1");
    let json_type = ("content-type", "application/a2a+json");
    assert_eq!(post(&url, &[token, json_type], forged.as_bytes()), 401);
    assert_eq!(
        post(
            &url,
            &[("x-a2a-notification-token", "guess"), json_type],
            forged.as_bytes()
        ),
        401
    );
    assert_eq!(post(&url, &[token, json_type], &[b' '; 3000]), 413);
    let elsewhere = format!("{}/other", url.rsplit_once('/').unwrap().0);
    assert_eq!(post(&elsewhere, &[token], forged.as_bytes()), 404);
    // The answer: its events arrive, verified, one line each, the terminal one last.
    ok(&["send", "-a", host, "--task-id", &id, "Paris"]);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{rest}");
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<String> = lines
        .iter()
        .map(|l| {
            let (kind, event) = l.as_object().unwrap().iter().next().unwrap();
            match event["status"]["state"].as_str() {
                Some(state) => format!("{kind} {state}"),
                None => kind.clone(),
            }
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "statusUpdate TASK_STATE_WORKING",
            "artifactUpdate",
            "statusUpdate TASK_STATE_COMPLETED"
        ]
    );
    assert_eq!(
        lines[1]["artifactUpdate"]["artifact"]["parts"],
        json!([{"text": "Sunny in Paris."}])
    );
    assert_eq!(lines[2]["statusUpdate"]["taskId"], id.as_str());
    let refusals: Vec<&str> = rest
        .lines()
        .filter(|l| l.starts_with("warning: a delivery was refused"))
        .collect();
    assert_eq!(
        refusals,
        [
            "warning: a delivery was refused (401): the delivery carries no A2A-Notification-Signature header",
            "warning: a delivery was refused (401): the delivery's X-A2A-Notification-Token is missing or wrong",
            "warning: a delivery was refused (413): its body is larger than 2KiB (--max-body)",
        ]
    );
    assert!(!rest.contains("tok-push-1"), "{rest}");
    // The receiver deleted its config.
    let left = ok(&["task", "push-config", "list", "-a", host, &id]);
    assert_eq!(left.field("Total"), "0");

    // Without --stream: the task at its end, as `task get` prints it.
    let (id, _) = sent(host, &["ask"]);
    let (child, mut stderr, url) =
        receiving(&["task", "push-config", "receive", "-a", host, &id, "--debug"]);
    ok(&["send", "-a", host, "--task-id", &id, "Oslo"]);
    let mut debug = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut debug).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    // --debug shows each delivery as it came, its token hidden.
    let path = &url[url.find("/a2a-push/").unwrap()..];
    let deliveries = requests(&debug.replace("debug: <= ", "debug: -> "));
    let deliveries: Vec<&Vec<String>> = deliveries
        .iter()
        .filter(|r| r[0] == format!("push delivery: POST {path}"))
        .collect();
    assert_eq!(deliveries.len(), 3, "{debug}");
    assert!(deliveries[0].contains(&"x-a2a-notification-token: [redacted]".to_owned()));
    assert!(
        deliveries[0]
            .iter()
            .any(|l| l.starts_with("a2a-notification-signature: ey")),
        "{:?}",
        deliveries[0]
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        fields(&text)[..3],
        [
            ("Task-Id".to_owned(), id.clone()),
            ("Context-Id".to_owned(), fields(&text)[1].1.clone()),
            ("State".to_owned(), "COMPLETED".to_owned()),
        ]
    );
    assert_eq!(block(&text, "Artifact"), "Sunny in Oslo.");

    // The task had ended already: nothing to wait for.
    let (done, _) = sent(host, &["hi"]);
    let ended = ok(&["task", "push-config", "receive", "-a", host, &done]);
    assert_eq!(ended.field("State"), "COMPLETED");
    assert!(ended.stderr.contains(&format!(
        "note: task {done} had ended (COMPLETED) when the push config was registered"
    )));
    let lines = ok(&[
        "task",
        "push-config",
        "receive",
        "-a",
        host,
        &done,
        "--stream",
        "-o",
        "json",
    ])
    .lines();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["task"]["id"], done.as_str());
    assert_eq!(lines[0]["task"]["status"]["state"], "TASK_STATE_COMPLETED");

    // The limits: the deliveries it takes, and the time it waits (the config goes either way).
    let (id, _) = sent(host, &["ask"]);
    let (child, _stderr, _) = receiving(&[
        "task",
        "push-config",
        "receive",
        "-a",
        host,
        &id,
        "--max-deliveries",
        "1",
        "-o",
        "json",
    ]);
    ok(&["send", "-a", host, "--task-id", &id, "Rome"]);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let envelope: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(envelope["error"]["code"], "A2ACLI_ERR_INTERNAL");
    assert_eq!(
        envelope["error"]["message"],
        format!(
            "stopped after 1 delivery for task {id}, the most --max-deliveries allows; the task goes on"
        )
    );
    assert_eq!(
        ok(&["task", "push-config", "list", "-a", host, &id]).field("Total"),
        "0"
    );
    let (id, _) = sent(host, &["wait", "--async"]);
    let timed_out = fails(
        &[
            "task",
            "push-config",
            "receive",
            "-a",
            host,
            &id,
            "--timeout",
            "300ms",
        ],
        5,
        "A2ACLI_ERR_TIMEOUT",
    );
    assert!(
        timed_out["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("timed out after 300ms waiting for task {id}")),
        "{timed_out}"
    );
    assert_eq!(
        ok(&["task", "push-config", "list", "-a", host, &id]).field("Total"),
        "0"
    );
    ok(&["task", "cancel", "-a", host, &id]);
    fails(
        &[
            "task",
            "push-config",
            "receive",
            "-a",
            host,
            &id,
            "--url",
            "ftp://x/",
        ],
        2,
        "A2ACLI_ERR_USAGE",
    );

    // An agent that does not sign: the token alone; a version opted into (0.3) and gRPC
    // register the same way, their deliveries read as the 1.0 events.
    let unsigned = Served::with(Setup {
        push: true,
        grpc: true,
        ..Setup::default()
    });
    for extra in [&["--a2a-version", "0.3"][..], &["--transport", "GRPC"][..]] {
        let (id, _) = sent(unsigned.host(), &["ask"]);
        let mut args = vec![
            "task",
            "push-config",
            "receive",
            "-a",
            unsigned.host(),
            &id,
            "--stream",
            "-o",
            "json",
        ];
        args.extend(extra);
        let (child, mut stderr, _) = receiving(&args);
        ok(&["send", "-a", unsigned.host(), "--task-id", &id, "Lima"]);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{extra:?}: {rest}");
        let text = String::from_utf8(output.stdout).unwrap();
        let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(
            last["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED",
            "{extra:?}: {text}"
        );
        assert!(text.contains("Sunny in Lima."), "{extra:?}: {text}");
    }
    // Without signatures the token is the check; a delivery that comes twice (the agent
    // delivers at least once) is printed once.
    let (id, context) = sent(unsigned.host(), &["ask"]);
    let (child, _stderr, url) = receiving(&[
        "task",
        "push-config",
        "receive",
        "-a",
        unsigned.host(),
        &id,
        "--token",
        "tok-2",
        "--stream",
        "-o",
        "json",
    ]);
    let status = |state: &str| {
        json!({"statusUpdate": {"taskId": id, "contextId": context, "status": {"state": state}}})
            .to_string()
    };
    let token = [("x-a2a-notification-token", "tok-2")];
    let working = status("TASK_STATE_WORKING");
    assert_eq!(post(&url, &token, working.as_bytes()), 200);
    assert_eq!(post(&url, &token, working.as_bytes()), 200);
    let other_task = working.replace(&id, "another-task");
    assert_eq!(post(&url, &token, other_task.as_bytes()), 400);
    assert_eq!(post(&url, &token, b"[1, 2]"), 400);
    assert_eq!(
        post(&url, &token, status("TASK_STATE_COMPLETED").as_bytes()),
        200
    );
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            serde_json::from_str::<Value>(&working).unwrap(),
            serde_json::from_str::<Value>(&status("TASK_STATE_COMPLETED")).unwrap()
        ]
    );
    ok(&["task", "cancel", "-a", unsigned.host(), &id]);
    // No push on the card: refused before anything is registered.
    let plain = Served::start();
    let (id, _) = sent(plain.host(), &["hi"]);
    fails(
        &["task", "push-config", "receive", "-a", plain.host(), &id],
        1,
        "PushNotificationNotSupportedError",
    );
}

#[test]
fn a2acli_ver_002() {
    let agent = Served::start();
    let signed = "https://github.com/a2a-rs/a2a-rs/blob/main/docs/push.md#signed-deliveries";
    let mut card = card_json(&agent);
    card["capabilities"]["extensions"] = json!([
        {"uri": signed, "required": true},
        {"uri": "urn:example:must", "required": true},
        {"uri": "urn:example:may"}
    ]);
    let dir = TempDir::new();
    let path = card_file(&dir, "extensions.json", &card);
    let declared = |run: &support::Run| -> Vec<String> {
        requests(&run.stderr)
            .iter()
            .filter(|r| r[0].starts_with("SendMessage") || r[0].starts_with("SendStreamingMessage"))
            .flat_map(|r| r.iter().filter_map(|l| l.strip_prefix("a2a-extensions: ")))
            .map(str::to_owned)
            .collect()
    };
    // A required extension this build implements (the signed push deliveries it verifies) is
    // declared by itself; one it does not know is named in a warning, and not declared.
    let run = ok(&["send", "-a", &path, "hi", "--debug"]);
    assert_eq!(declared(&run), [signed]);
    assert!(run.stderr.contains(
        "warning: the agent requires the extension urn:example:must, which this call does not \
         declare; if you can honour it, declare it with --extension urn:example:must"
    ));
    assert!(!run.stderr.contains("urn:example:may"));
    // The caller declares the others, by flag or variable; the warning goes.
    let run = ok(&[
        "send",
        "-a",
        &path,
        "hi",
        "--debug",
        "--extension",
        "urn:example:must",
    ]);
    assert_eq!(declared(&run), [format!("urn:example:must, {signed}")]);
    assert!(!run.stderr.contains("warning:"), "{}", run.stderr);
    let run = Cli::new()
        .env("A2ACLI_EXTENSION", &format!("{signed},urn:example:must"))
        .ok(&["send", "-a", &path, "hi", "--debug"]);
    assert_eq!(declared(&run), [format!("{signed}, urn:example:must")]);
    // Nothing is declared that the card does not require.
    let plain = ok(&["send", "-a", agent.host(), "hi", "--debug"]);
    assert!(declared(&plain).is_empty(), "{}", plain.stderr);
}

#[test]
fn a2acli_chat_001() {
    let agent = Served::start();
    let host = agent.host();
    // `/help` is the chat's own: answered on stderr, never sent (it would answer the question).
    let chat = Cli::new()
        .stdin(b"ask\n/help\nParis\n/new\nask\n")
        .ok(&["chat", "-a", host, "-o", "json"]);
    let help = chat.stderr.lines().nth(1);
    assert_eq!(
        help,
        Some(
            "note: the chat's commands, never sent to the agent: /new starts a new context (and \
             forgets the task waiting for an answer), /exit or /quit (or the end of input) ends, \
             /help shows this; any other line is a turn sent to the agent"
        ),
        "{}",
        chat.stderr
    );
    let turns = chat.lines();
    assert_eq!(turns.len(), 3);
    let (first, context) = (
        turns[0]["task"]["id"].clone(),
        turns[0]["task"]["contextId"].clone(),
    );
    assert_eq!(
        turns[0]["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    // The answer went to the waiting task, in its context.
    assert_eq!(turns[1]["task"]["id"], first);
    assert_eq!(turns[1]["task"]["contextId"], context);
    assert_eq!(
        turns[1]["task"]["artifacts"][0]["parts"],
        json!([{"text": "Sunny in Paris."}])
    );
    // /new starts a new context.
    assert_ne!(turns[2]["task"]["contextId"], context);
}

#[test]
fn a2acli_demo_server_001() {
    // `a2a demo-server` (also `a2a mock`) serves the built-in demo agent.
    let demo = Mock::start(&[]);
    let host = demo.host();
    assert_eq!(
        demo.banner[0],
        format!("serving the mock agent Demo agent at {}", demo.url)
    );
    assert_eq!(
        demo.banner[1],
        "rules: help, stream, ask, slow, fail, reject, error, hello"
    );
    assert_eq!(ok(&["card", "get", "-a", host]).field("Name"), "Demo agent");
    // Anything else is echoed.
    let echo = ok(&["send", "-a", host, "bonjour", "-o", "json"]).json();
    assert_eq!(state(&echo), "TASK_STATE_COMPLETED");
    assert_eq!(
        echo["task"]["artifacts"][0],
        json!({"artifactId": "artifact-0", "name": "echo", "parts": [{"text": "bonjour"}]})
    );
    // stream: the chunks one by one.
    let streamed = ok(&["send", "-a", host, "--stream", "stream", "-o", "json"]).lines();
    let chunks: Vec<&Value> = streamed
        .iter()
        .filter_map(|event| event.get("artifactUpdate"))
        .collect();
    let texts: Vec<&str> = chunks
        .iter()
        .map(|c| c["artifact"]["parts"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "Once upon a time, ",
            "an agent answered ",
            "every message it was sent."
        ]
    );
    assert_eq!(chunks[2]["lastChunk"], json!(true));
    // ask: a question, then the answer continues the task.
    let asked = ok(&["send", "-a", host, "ask", "-o", "json"]).json();
    assert_eq!(state(&asked), "TASK_STATE_INPUT_REQUIRED");
    let (task, _) = ids(&asked);
    let booked = ok(&[
        "send",
        "-a",
        host,
        "--task-id",
        &task,
        "Lisbon",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(state(&booked), "TASK_STATE_COMPLETED");
    assert_eq!(
        booked["task"]["artifacts"][0]["parts"],
        json!([{"text": "Booked a trip to Lisbon."}])
    );
    // slow: works until canceled.
    let (slow, _) = sent(host, &["--async", "slow"]);
    let canceled = ok(&["task", "cancel", &slow, "-a", host, "-o", "json"]).json();
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");
    // fail and reject: the task's outcome, exit 0; error: the agent's error, exit 1.
    assert_eq!(
        state(&ok(&["send", "-a", host, "fail", "-o", "json"]).json()),
        "TASK_STATE_FAILED"
    );
    assert_eq!(
        state(&ok(&["send", "-a", host, "reject", "-o", "json"]).json()),
        "TASK_STATE_REJECTED"
    );
    let refused = fails(
        &["send", "-a", host, "error"],
        1,
        "UnsupportedOperationError",
    );
    assert_eq!(
        refused["message"],
        "the agent answered UnsupportedOperationError (-32004): The demo agent refuses this \
         message on purpose."
    );
    // A script file: the repository's example, as `a2a mock examples/mock.yaml` serves it.
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/mock.yaml");
    let scripted = Mock::start(&["--no-grpc", example]);
    let hello = ok(&["send", "-a", scripted.host(), "hello"]);
    assert_eq!(hello.field("Role"), "AGENT");
    assert!(
        hello
            .stdout
            .contains("Message:\nHello! Send \"help\" to see what this demo agent does.\n"),
        "{}",
        hello.stdout
    );
}

#[test]
fn a2acli_tx_005() {
    let agent = Served::with(Setup {
        grpc: true,
        ..Setup::default()
    });
    let (host, url) = (agent.host(), agent.url.as_str());
    let grpc = ["--transport", "GRPC"];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter()
            .chain(grpc.iter())
            .map(|a| (*a).to_owned())
            .collect()
    };
    let ok_grpc = |args: &[&str]| {
        let args = with(args);
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // The card lists the gRPC interface (host:port), which --transport GRPC selects.
    let interfaces = ok_grpc(&["card", "get", "-a", host]).values("Interface");
    assert_eq!(interfaces[2], format!("GRPC 1.0 {host} (selected)"));
    assert!(!interfaces[0].ends_with("(selected)"));
    // send waits for the end over gRPC: the stream, then GetTask, each an rpc of
    // lf.a2a.v1.A2AService with the version in the metadata.
    let debug = ok_grpc(&["send", "-a", host, "hi", "-o", "json", "--debug"]);
    let answer = debug.json();
    assert_eq!(state(&answer), "TASK_STATE_COMPLETED");
    assert_eq!(
        answer["task"]["artifacts"][0]["parts"],
        json!([{"text": "hi"}])
    );
    assert!(
        debug
            .stderr
            .contains(&format!("debug: using the interface GRPC 1.0 at {host}\n")),
        "{}",
        debug.stderr
    );
    let calls = requests(&debug.stderr);
    let send = calls
        .iter()
        .find(|r| r[0].starts_with("SendStreamingMessage"))
        .expect("a SendStreamingMessage call");
    assert_eq!(
        send[0],
        format!("SendStreamingMessage: POST {url}/lf.a2a.v1.A2AService/SendStreamingMessage")
    );
    assert_eq!(send[1], "a2a-version: 1.0");
    assert!(send[2].starts_with("(protobuf, "), "{send:?}");
    // The task is the same whichever binding reads it.
    let (id, context) = ids(&answer);
    let got = ok(&["task", "get", "-a", host, &id, "-o", "json"]).json();
    assert_eq!(got["contextId"], context.as_str());
    assert_eq!(
        ok_grpc(&["task", "get", "-a", host, &id, "-o", "json"]).json(),
        got
    );
    // send --stream: each event as it comes, the terminal one last.
    let streamed = ok_grpc(&["send", "-a", host, "chunks 3", "--stream", "-o", "json"]).lines();
    assert!(streamed[0]["task"]["id"].is_string(), "{streamed:?}");
    let chunks: Vec<&Value> = streamed
        .iter()
        .filter_map(|e| e["artifactUpdate"]["artifact"]["parts"][0].get("text"))
        .collect();
    assert_eq!(chunks, [&json!("c0"), &json!("c1"), &json!("c2")]);
    assert_eq!(
        streamed.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    // task list, and task cancel (idempotent) of a task started with --async.
    let waiting = ok_grpc(&["send", "-a", host, "wait", "--async", "-o", "json"]).json();
    let (waiting, _) = ids(&waiting);
    let listed = ok_grpc(&[
        "task", "list", "-a", host, "--status", "working", "-o", "json",
    ])
    .json();
    assert_eq!(listed["tasks"][0]["id"], waiting.as_str());
    for _ in 0..2 {
        let canceled = ok_grpc(&["task", "cancel", "-a", host, &waiting]);
        assert_eq!(canceled.field("Task-Id"), waiting);
        assert_eq!(canceled.field("State"), "CANCELED");
    }
    // task subscribe follows a task waiting for its answer to the end.
    let events = subscribed_to_an_answer(host, &grpc);
    assert_eq!(
        events.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    let (ended, _) = sent(host, &["hi"]);
    // gRPC streams carry no event ids: --after is refused rather than ignored.
    let after = with(&["task", "subscribe", "-a", host, &ended, "--after", "1"]);
    let refused = fails(
        &after.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        "A2ACLI_ERR_USAGE",
    );
    assert_eq!(
        refused["message"],
        "--after needs the event ids of an SSE stream, which gRPC streams do not carry"
    );
    // An agent's error has the same envelope over gRPC as over JSON-RPC.
    let args = with(&["task", "get", "-a", host, "no-such-task"]);
    let over_grpc = fails(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        1,
        "TaskNotFoundError",
    );
    let over_jsonrpc = fails(
        &["task", "get", "-a", host, "no-such-task"],
        1,
        "TaskNotFoundError",
    );
    assert_eq!(over_grpc, over_jsonrpc);
    assert_eq!(over_grpc["a2aCode"], -32001);
    // A card that lists gRPC first is called over gRPC without --transport.
    let dir = TempDir::new();
    let mut first_grpc = card_json(&agent);
    first_grpc["supportedInterfaces"] = json!([
        interface(host, "GRPC", None),
        interface(&format!("{url}/"), "JSONRPC", None)
    ]);
    let path = card_file(&dir, "grpc.json", &first_grpc);
    let run = ok(&["task", "get", "-a", &path, &id, "--debug"]);
    assert_eq!(run.field("State"), "COMPLETED");
    assert!(
        run.stderr.contains(&format!(
            "-> GetTask: POST {url}/lf.a2a.v1.A2AService/GetTask"
        )),
        "{}",
        run.stderr
    );
}

// ----- The report --------------------------------------------------------------------------

/// Every requirement identifier of COMPLIANCE.md (the registry of the A2A CLI specification
/// v0.2, revised 2026-08-17), by tier.
const REGISTRY: [(u8, &str); 66] = [
    (1, "CARD_GET_001"),
    (1, "SEND_001"),
    (1, "SEND_002"),
    (1, "SEND_003"),
    (1, "SEND_004"),
    (1, "SEND_005"),
    (1, "SEND_006"),
    (1, "TASK_GET_001"),
    (1, "TASK_CANCEL_001"),
    (1, "INTERACT_001"),
    (1, "INTERACT_002"),
    (1, "INTERACT_003"),
    (1, "INTERACT_004"),
    (1, "INTERACT_005"),
    (1, "TASK_POLL_001"),
    (1, "TASK_POLL_002"),
    (1, "TASK_POLL_003"),
    (1, "TASK_POLL_004"),
    (1, "OUT_001"),
    (1, "OUT_002"),
    (1, "OUT_003"),
    (1, "OUT_004"),
    (1, "OUT_005"),
    (1, "OUT_006"),
    (1, "EXIT_001"),
    (1, "EXIT_002"),
    (1, "AUTH_001"),
    (1, "AUTH_002"),
    (1, "AUTH_003"),
    (1, "AUTH_004"),
    (1, "TX_001"),
    (1, "TX_002"),
    (1, "TX_003"),
    (1, "VER_001"),
    (1, "DEFAULT_001"),
    (1, "CONFIG_001"),
    (1, "CLI_001"),
    (1, "SKILL_001"),
    (1, "SKILL_002"),
    (2, "CARD_GET_002"),
    (2, "TASK_LIST_001"),
    (2, "TASK_SUBSCRIBE_001"),
    (2, "TASK_SUBSCRIBE_002"),
    (2, "AUTH_005"),
    (2, "AUTH_006"),
    (2, "AUTH_007"),
    (2, "TX_004"),
    (2, "VER_003"),
    (2, "CONFIG_002"),
    (2, "DOWNLOAD_001"),
    (2, "OUT_007"),
    (2, "CONFORM_001"),
    (2, "CLI_002"),
    (2, "PUSH_001"),
    (3, "CARD_GET_003"),
    (3, "AUTH_008"),
    (3, "CARD_GET_004"),
    (3, "CARD_GET_005"),
    (3, "PUSH_002"),
    (3, "CHAT_001"),
    (3, "TX_005"),
    (3, "AUTH_009"),
    (3, "AUTH_010"),
    (3, "AUTH_011"),
    (3, "DEMO_SERVER_001"),
    (3, "VER_002"),
];

#[test]
fn the_report_lists_every_requirement_and_each_pass_has_its_test() {
    let report = include_str!("../../../docs/cli-compliance.md");
    let tests = include_str!("compliance.rs");
    let mut marks = std::collections::BTreeMap::new();
    for line in report.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5
            || !cells[1].starts_with("`A2ACLI_")
            || cells[1].starts_with("`A2ACLI_ERR_")
        {
            continue;
        }
        let id = cells[1]
            .trim_matches('`')
            .trim_start_matches("A2ACLI_")
            .to_owned();
        let status = cells[4].to_owned();
        let note = cells.get(5).copied().unwrap_or_default();
        if !status.starts_with('✅') {
            assert!(!note.is_empty(), "{id}: every mark but a pass needs a note");
        }
        assert!(
            marks.insert(id.clone(), status).is_none(),
            "{id} is listed twice"
        );
    }
    // The counts of section 3 are those of the rows.
    let mut counts = [[0usize; 6]; 3];
    for (tier, id) in REGISTRY {
        let status = marks.get(id).map(String::as_str).unwrap_or_default();
        let column = ["✅", "◐", "❌", "⊘", "—"]
            .iter()
            .position(|m| status.starts_with(m))
            .unwrap_or(5);
        counts[usize::from(tier) - 1][column] += 1;
    }
    for (tier, name) in [
        (1, "Tier 1 — Core"),
        (2, "Tier 2 — Standard"),
        (3, "Tier 3 — Advanced"),
    ] {
        let c = counts[tier - 1];
        assert_eq!(
            c[5], 0,
            "tier {tier}: an identifier without a row, or a row without a known mark"
        );
        let total: usize = c.iter().sum();
        let satisfied = if c[1] + c[2] + c[3] == 0 { "yes" } else { "no" };
        let row = format!(
            "| {name} | {total} | {} | {} | {} | {} | {} | {satisfied} |",
            c[0], c[1], c[2], c[3], c[4]
        );
        assert!(
            report.contains(&row),
            "section 3 should have the row `{row}`"
        );
    }
    for (tier, id) in REGISTRY {
        let status = marks.remove(id).unwrap_or_else(|| {
            panic!("A2ACLI_{id} (tier {tier}) has no row in docs/cli-compliance.md")
        });
        let test = format!("fn a2acli_{}()", id.to_ascii_lowercase());
        if status.starts_with('✅') {
            assert!(
                tests.contains(&test),
                "A2ACLI_{id} is marked passed, but tests/compliance.rs has no `{test}`"
            );
        }
    }
    assert!(
        marks.is_empty(),
        "rows for identifiers the registry does not have: {marks:?}"
    );
    // And every test here names a requirement of the report.
    for line in tests.lines() {
        if let Some(name) = line
            .strip_prefix("fn a2acli_")
            .and_then(|l| l.strip_suffix("() {"))
        {
            let id = name.to_ascii_uppercase();
            assert!(
                REGISTRY.iter().any(|(_, r)| *r == id),
                "a test for an unknown requirement: {name}"
            );
        }
    }
}

/// The cells of the rows of the Markdown table whose header row starts with `first`.
fn table<'a>(report: &'a str, first: &str) -> Vec<Vec<&'a str>> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in report.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !line.starts_with('|') {
            inside = false;
            continue;
        }
        if cells[0] == first {
            inside = true;
        } else if inside && !cells[0].starts_with("---") {
            rows.push(cells);
        }
    }
    rows
}

/// A YAML double-quoted string.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The machine-readable form of docs/cli-compliance.md (COMPLIANCE.md Appendix A), built from
/// its tables.
fn yaml_of(report: &str) -> String {
    let summary: std::collections::BTreeMap<&str, &str> = table(report, "Field")
        .into_iter()
        .map(|row| (row[0], row[1]))
        .collect();
    let field = |name: &str| summary[name].trim_matches('`').trim_matches('*').to_owned();
    let mut out = String::from(
        "# The A2A CLI specification's compliance report of `a2a` in machine form (COMPLIANCE.md\n\
         # Appendix A), made from docs/cli-compliance.md by crates/a2a-cli/tests/compliance.rs:\n\
         # A2A_CLI_BLESS=1 cargo test -p a2a-cli --test compliance rewrites it.\n\n",
    );
    out.push_str(&format!(
        "report:\n  tool: a2a\n  tool_version: {}\n  language: Rust\n  repository: {}\n  maintainer: {}\n  report_date: {}\n  spec_version: \"0.2\"\n  spec_revision: {}\n  a2a_versions: [{}]\n  agent_tested: {}\n  agent_tck_conformant: unknown\n  transports_covered: [{}]\n  tier_claimed: 1\n\n",
        field("Tool version"),
        field("Repository"),
        field("Maintainer / contact"),
        field("Report date"),
        field("Specification revision (Last updated)"),
        // `1.0, 0.3 (a remark)`: the versions before the remark.
        field("A2A protocol version(s)")
            .split(" (")
            .next()
            .unwrap_or_default()
            .split(", ")
            .map(|v| format!("\"{v}\""))
            .collect::<Vec<_>>()
            .join(", "),
        quoted(&field("Agent exercised against")),
        field("Transports covered"),
    ));
    out.push_str("summary:\n");
    for row in table(report, "Tier") {
        let tier = &row[0][5..6];
        out.push_str(&format!(
            "  tier_{tier}: {{total: {}, pass: {}, partial: {}, fail: {}, not_measured: {}, na: {}, satisfied: {}}}\n",
            row[1], row[2], row[3], row[4], row[5], row[6], row[7] == "yes"
        ));
    }
    out.push_str("\nrequirements:\n");
    let rows: Vec<Vec<&str>> = table(report, "ID");
    for (tier, id) in REGISTRY {
        let row = rows
            .iter()
            .find(|r| r[0].trim_matches('`') == format!("A2ACLI_{id}"))
            .expect("every id has a row");
        let status = match row[3].chars().next() {
            Some('✅') => "pass",
            Some('◐') => "partial",
            Some('❌') => "fail",
            Some('⊘') => "not_measured",
            _ => "na",
        };
        let area = id.rsplit_once('_').map_or(id, |(area, _)| area);
        let (note, evidence) = if status == "pass" {
            (
                if row[4].is_empty() {
                    "null".to_owned()
                } else {
                    quoted(row[4])
                },
                quoted(&format!(
                    "crates/a2a-cli/tests/compliance.rs: a2acli_{}",
                    id.to_ascii_lowercase()
                )),
            )
        } else {
            (quoted(row[4]), "null".to_owned())
        };
        out.push_str(&format!(
            "  A2ACLI_{id}:\n    tier: {tier}\n    area: {area}\n    spec: {}\n    requirement: {}\n    status: {status}\n    note: {note}\n    evidence: {evidence}\n",
            quoted(row[2]),
            quoted(row[1]),
        ));
    }
    out.push_str("\ndefault_001_breakdown:\n");
    let keys = [
        "transport_server_preference_order",
        "task_completion_wait_by_default",
        "output_human_readable_text",
        "detail_level_concise",
        "protocol_version_highest_mutual",
        "transport_security_tls_on",
    ];
    for (key, row) in keys.iter().zip(table(report, "Default")) {
        out.push_str(&format!(
            "  {key}: {{shipped: {}, overridable: {}, note: {}}}\n",
            row[1],
            row[2],
            quoted(row[3])
        ));
    }
    out.push_str("\nerror_codes:\n");
    for row in table(report, "Code") {
        out.push_str(&format!(
            "  {}: {{emitted: {}, note: {}}}\n",
            row[0].trim_matches('`'),
            row[1],
            quoted(row[2])
        ));
    }
    out.push_str(&format!(
        "\nattestation:\n  reported_by: {}\n  date: {}\n  statement: \"The tier claimed reflects the evidence recorded above.\"\n",
        field("Maintainer / contact"),
        field("Report date"),
    ));
    out
}

#[test]
fn the_yaml_report_is_the_markdown_one() {
    let report = include_str!("../../../docs/cli-compliance.md");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli-compliance.yaml");
    let yaml = yaml_of(report);
    if std::env::var_os("A2A_CLI_BLESS").is_some() {
        std::fs::write(&path, &yaml).unwrap();
    }
    let published = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        published == yaml,
        "docs/cli-compliance.yaml is not the machine form of docs/cli-compliance.md; rewrite it \
         with A2A_CLI_BLESS=1 cargo test -p a2a-cli --test compliance"
    );
}
