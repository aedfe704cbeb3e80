//! The `a2a` binary, run as a user runs it: `a2a serve` in the background, the other commands
//! against it.

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const A2A: &str = env!("CARGO_BIN_EXE_a2a");

/// `a2a serve` on a free port; killed when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(A2A)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("a2a serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
            .to_owned();
        Served { child, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn a2a(args: &[&str]) -> Output {
    Command::new(A2A)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("a2a runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs a command that must succeed; returns its stdout.
fn ok(args: &[&str]) -> String {
    let output = a2a(args);
    assert!(
        output.status.success(),
        "a2a {args:?} failed ({:?}): {}{}",
        output.status,
        stdout(&output),
        stderr(&output)
    );
    stdout(&output)
}

/// Runs a command that must fail with one line on stderr; returns that line.
fn fails(args: &[&str], code: i32) -> String {
    let output = a2a(args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "a2a {args:?}: {}{}",
        stdout(&output),
        stderr(&output)
    );
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err:?}");
    assert!(err.starts_with("error: "), "{err}");
    err.trim_end().to_owned()
}

/// The task id on a `[state] task ID` line.
fn task_id(text: &str) -> String {
    text.lines()
        .find_map(|l| l.split_once("] task ").map(|(_, id)| id.trim().to_owned()))
        .unwrap_or_else(|| panic!("no task line in {text:?}"))
}

#[test]
fn every_subcommand_has_help() {
    let top = ok(&["--help"]);
    for sub in [
        "card",
        "send",
        "stream",
        "get",
        "list",
        "cancel",
        "subscribe",
        "serve",
    ] {
        assert!(top.contains(sub), "{sub} missing from --help");
        let help = ok(&[sub, "--help"]);
        assert!(help.contains("Usage: a2a"), "{sub}: {help}");
    }
    assert!(ok(&["serve", "--help"]).contains("--exec <CMD>"));
    assert!(ok(&["--version"]).starts_with("a2a "));
}

#[test]
fn talk_to_the_echo_agent() {
    let agent = Served::start(&[]);
    let url = agent.url.as_str();

    let card = ok(&["card", url]);
    assert!(card.starts_with("Echo (version "), "{card}");
    assert!(card.contains(&format!("* JSONRPC 1.0 {url}/")), "{card}");
    let card_json: serde_json::Value = serde_json::from_str(&ok(&["card", url, "--json"])).unwrap();
    assert_eq!(card_json["name"], "Echo");

    let streamed = ok(&["stream", url, "hello"]);
    let lines: Vec<&str> = streamed.lines().collect();
    assert_eq!(lines.len(), 4, "{streamed}");
    assert!(lines[0].starts_with("[submitted] task "));
    assert_eq!(lines[1..], ["[working]", "hello", "[completed]"]);

    let events = ok(&["stream", url, "hi", "--json"]);
    let events: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(events[0].get("task").is_some());
    assert_eq!(
        events.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );

    let sent = ok(&["send", url, "ping"]);
    assert!(sent.starts_with("[completed] task "), "{sent}");
    assert!(sent.lines().any(|l| l == "ping"), "{sent}");
    let id = task_id(&sent);

    let got = ok(&["get", url, &id]);
    assert!(got.contains("ping"), "{got}");
    let got: serde_json::Value = serde_json::from_str(&ok(&["get", url, &id, "--json"])).unwrap();
    assert_eq!(got["id"], id.as_str());

    let listed = ok(&["list", url]);
    assert_eq!(listed.lines().count(), 3, "{listed}");
    assert!(listed.contains(&id));
    let listed = ok(&["list", url, "--state", "working"]);
    assert_eq!(listed.trim(), "no tasks");

    // A message with a file and data.
    let dir = std::env::temp_dir().join(format!("a2a-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("note.txt");
    std::fs::write(&file, "attached").unwrap();
    let sent = ok(&[
        "send",
        url,
        "with parts",
        "--file",
        file.to_str().unwrap(),
        "--data",
        r#"{"k":1}"#,
        "--json",
    ]);
    let task: serde_json::Value = serde_json::from_str(&sent).unwrap();
    let parts = &task["task"]["history"][0]["parts"];
    assert_eq!(parts[1]["filename"], "note.txt");
    assert_eq!(parts[1]["mediaType"], "text/plain");
    assert_eq!(parts[2]["data"], serde_json::json!({"k": 1}));
    let streamed = ok(&["stream", url, "see", "--file", file.to_str().unwrap()]);
    assert!(
        streamed.contains("see\n[file note.txt (text/plain, 8 bytes)]\n[completed]"),
        "{streamed}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // Errors from the agent: one line, status 1.
    let err = fails(&["cancel", url, &id], 1);
    assert!(err.contains("TaskNotCancelableError"), "{err}");
    let err = fails(&["get", url, "no-such-task"], 1);
    assert!(err.contains("TaskNotFoundError"), "{err}");
    let err = fails(&["subscribe", url, &id], 1);
    assert!(err.contains("UnsupportedOperationError"), "{err}");
    let err = fails(&["send", url, "x", "--data", "{not json"], 1);
    assert!(err.starts_with("error: --data is not JSON"), "{err}");
    // The scheme may be left out.
    let bare = url.trim_start_matches("http://");
    assert!(ok(&["send", bare, "no scheme"]).contains("no scheme"));
}

#[test]
fn serve_a_command_as_an_agent() {
    let upper = Served::start(&["--exec", "tr a-z A-Z", "--name", "Upper"]);
    assert!(ok(&["card", &upper.url]).starts_with("Upper (version "));
    let sent = ok(&["send", &upper.url, "hello"]);
    assert!(sent.lines().any(|l| l == "HELLO"), "{sent}");
    let streamed = ok(&["stream", &upper.url, "one\ntwo"]);
    assert!(streamed.contains("ONE\nTWO\n[completed]"), "{streamed}");

    // A failing command fails its task, with the end of its stderr; the CLI exits with 3.
    let broken = Served::start(&["--exec", "echo partial; echo 'it broke' >&2; exit 4"]);
    let output = a2a(&["send", &broken.url, "x"]);
    assert_eq!(output.status.code(), Some(3));
    let text = stdout(&output);
    assert!(text.starts_with("[failed] task "), "{text}");
    assert!(text.contains("exited with status 4:\nit broke"), "{text}");
    let output = a2a(&["stream", &broken.url, "x"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stdout(&output).contains("partial\n[failed]"));
}

#[test]
fn cancel_kills_the_command_and_subscribe_follows_it() {
    let dir = std::env::temp_dir().join(format!("a2a-cli-cancel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let marker = dir.join("finished");
    // The message says how long to sleep; the sleep runs in a background subshell, which a
    // cancel must stop too.
    let command = format!(
        "t=$(cat); (sleep \"$t\"; touch {}) & wait; echo late",
        marker.display()
    );
    let agent = Served::start(&["--exec", &command]);

    // Follow one run to its end.
    let started = ok(&["send", &agent.url, "0.3", "--no-wait"]);
    let id = task_id(&started);
    let followed = ok(&["subscribe", &agent.url, &id]);
    assert!(followed.contains("late\n[completed]"), "{followed}");
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();

    // Cancel another before it finishes: the command and what it started are killed.
    let started = ok(&["send", &agent.url, "2", "--no-wait"]);
    let id = task_id(&started);
    let canceled = ok(&["cancel", &agent.url, &id]);
    assert!(canceled.starts_with("[canceled] task "), "{canceled}");
    std::thread::sleep(Duration::from_millis(2500));
    assert!(!marker.exists(), "the command ran to its end");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_are_one_line_and_non_zero() {
    // Port 1 (tcpmux) has no listener on these machines: a released ephemeral port could be
    // handed to a server of a test running in parallel.
    let port = 1;
    let url = format!("http://127.0.0.1:{port}");
    let err = fails(&["stream", &url, "hello"], 1);
    assert!(
        err.starts_with(&format!("error: cannot connect to 127.0.0.1:{port}")),
        "{err}"
    );
    let err = fails(&["card", "ftp://example.com"], 1);
    assert!(
        err.starts_with("error: invalid URL `ftp://example.com`"),
        "{err}"
    );
    let err = fails(&["send", &url, "x", "--header", "no colon"], 1);
    assert!(err.contains("NAME: VALUE"), "{err}");

    // A port in use.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let err = fails(&["serve", "--addr", &addr], 1);
    assert!(
        err.starts_with(&format!("error: cannot listen on {addr}")),
        "{err}"
    );

    // Usage errors are clap's: status 2.
    let output = a2a(&["get"]);
    assert_eq!(output.status.code(), Some(2));
    let output = a2a(&["serve", "--echo", "--exec", "cat"]);
    assert_eq!(output.status.code(), Some(2));
    let output = a2a(&["list", &url, "--state", "done"]);
    assert_eq!(output.status.code(), Some(2));
}
