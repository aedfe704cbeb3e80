//! The `a2a` binary, run as a user runs it: `a2a serve` in the background, the client commands
//! against it; and the rough edges of the CLI before the specification's surface, which must
//! stay gone.

#[path = "../../a2a-server/tests/pki/mod.rs"]
mod pki;
mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;
use support::{Serve, Served, Setup, TempDir, block, ok, run};

#[test]
fn serve_keeps_its_flags_and_help() {
    let help = ok(&["serve", "--help"]).stdout;
    for flag in ["--addr <ADDR>", "--echo", "--exec <CMD>", "--name <NAME>"] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("[default: 127.0.0.1:7420]"));
    assert!(
        help.contains("--runtime <RUNTIME>"),
        "--runtime missing from:\n{help}"
    );
    assert!(help.contains("[default: per-core]"), "{help}");
    assert_eq!(run(&["serve", "--echo", "--exec", "cat"]).code, 2);
    let bad = run(&["serve", "--runtime", "green-threads"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("green-threads"), "{}", bad.stderr);
}

/// Both runtimes serve the same agent (the default, per-core, in every other test).
#[test]
fn serve_on_the_multi_thread_runtime() {
    let agent = Serve::start(&["--runtime", "multi-thread"]);
    let sent = ok(&["send", "-a", agent.url.as_str(), "ping"]);
    assert_eq!(sent.field("State"), "COMPLETED");
    assert_eq!(block(&sent.stdout, "Artifact"), "ping");
}

/// An address in use is a usage error (exit 2) whose hint names the option that gave it, for
/// each command that listens.
#[test]
fn an_address_in_use_names_the_option_that_gave_it() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let agent = Served::with(Setup {
        push: true,
        ..Setup::default()
    });
    let cases: [(&[&str], &str); 4] = [
        (&["serve", "--addr", &addr], "--addr"),
        (&["mock", "--addr", &addr], "--addr"),
        (&["mcp", &agent.url, "--http", &addr], "--http"),
        (
            &[
                "task",
                "push-config",
                "receive",
                "-a",
                &agent.url,
                "t-1",
                "--listen",
                &addr,
            ],
            "--listen",
        ),
    ];
    for (args, flag) in cases {
        let failed = run(args);
        assert_eq!(failed.code, 2, "{args:?}: {}", failed.stderr);
        assert_eq!(
            failed.stderr,
            format!(
                "Error: cannot listen on {addr}: the address is in use\n\
                 Code: A2ACLI_ERR_USAGE\n\
                 Hint: another program (another `a2a serve`?) listens there: stop it, or pass \
                 another address with {flag} (port 0 picks a free one)\n"
            ),
            "{args:?}"
        );
    }
}

#[test]
fn talk_to_the_echo_agent() {
    let agent = Serve::start(&[]);
    let url = agent.url.as_str();
    let card = ok(&["card", "get", "-a", url]);
    assert_eq!(card.field("Name"), "Echo");
    assert_eq!(
        card.field("Interface"),
        format!("JSONRPC 1.0 {url}/ (selected)")
    );

    let sent = ok(&["send", "-a", url, "ping"]);
    assert_eq!(sent.field("State"), "COMPLETED");
    assert_eq!(block(&sent.stdout, "Artifact"), "ping");

    // Files and data come back as the echo's parts.
    let dir = TempDir::new();
    let file = dir.file("note.txt", b"attached").display().to_string();
    let answer = ok(&[
        "send",
        "-a",
        url,
        "with parts",
        "--file",
        &file,
        "--data",
        r#"{"k":1}"#,
        "-o",
        "json",
    ])
    .json();
    assert_eq!(
        answer["task"]["artifacts"][0]["parts"],
        json!([
            {"text": "with parts"},
            {"raw": "YXR0YWNoZWQ=", "filename": "note.txt", "mediaType": "text/plain"},
            {"data": {"k": 1}, "mediaType": "application/json"},
        ])
    );
}

#[test]
fn serve_a_command_as_an_agent() {
    let upper = Serve::start(&["--exec", "tr a-z A-Z", "--name", "Upper"]);
    assert_eq!(
        ok(&["card", "get", "-a", &upper.url]).field("Name"),
        "Upper"
    );
    let sent = ok(&["send", "-a", &upper.url, "hello"]);
    assert_eq!(block(&sent.stdout, "Artifact"), "HELLO");
    // Lines streamed one chunk each read as one text.
    let streamed = ok(&["send", "-a", &upper.url, "--stream", "one\ntwo"]);
    assert_eq!(block(&streamed.stdout, "Artifact"), "ONE\nTWO");

    // A failing command fails its task; the command still did its job: exit 0, the state says.
    let broken = Serve::start(&["--exec", "echo partial; echo 'it broke' >&2; exit 4"]);
    let failed = ok(&["send", "-a", &broken.url, "x"]);
    assert_eq!(failed.field("State"), "FAILED");
    assert_eq!(
        block(&failed.stdout, "Status-Message"),
        "`echo partial; echo 'it broke' >&2; exit 4` exited with status 4:\nit broke"
    );
    assert!(
        failed.stderr.contains("warning: task "),
        "{}",
        failed.stderr
    );
}

#[test]
fn cancel_kills_the_command_and_subscribe_follows_it() {
    let dir = TempDir::new();
    let marker = dir.path().join("finished");
    let sleeper = dir.path().join("sleeper");
    // The message says how long to sleep; the sleep runs in a background subshell (whose pid is
    // written down), which a cancel must stop too.
    let command = format!(
        "t=$(cat); (sleep \"$t\"; touch {}) & echo $! > {}; wait; echo late",
        marker.display(),
        sleeper.display()
    );
    let agent = Serve::start(&["--exec", &command]);

    let started = ok(&["send", "-a", &agent.url, "0.3", "--async"]);
    let id = started.field("Task-Id");
    let followed = ok(&["task", "subscribe", "-a", &agent.url, &id]);
    assert_eq!(followed.field("State"), "COMPLETED");
    assert_eq!(block(&followed.stdout, "Artifact"), "late");
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();
    std::fs::remove_file(&sleeper).unwrap();

    let started = ok(&["send", "-a", &agent.url, "60", "--async"]);
    let id = started.field("Task-Id");
    // The subshell is running before the cancel.
    let pid = wait_for(|| {
        std::fs::read_to_string(&sleeper)
            .ok()
            .filter(|p| p.ends_with('\n'))
    });
    let alive = |pid: &str| {
        Command::new("kill")
            .args(["-0", pid.trim()])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    assert!(alive(&pid));
    assert_eq!(
        ok(&["task", "cancel", "-a", &agent.url, &id]).field("State"),
        "CANCELED"
    );
    wait_for(|| (!alive(&pid)).then_some(()));
    assert!(!marker.exists(), "the command ran to its end");
}

/// `a2a serve --exec` stopped by SIGTERM or SIGINT ends every running command's process group
/// before it exits, as a cancel does: what a command started does not outlive the server, whether
/// the command waits for it or has exited and left it holding its stderr.
#[cfg(unix)]
#[test]
fn shutdown_ends_what_the_commands_started() {
    // On per-core, the agents run on the serving threads, whose runtimes end before the
    // process does: what their commands started is ended all the same.
    for (signal, runtime) in [
        ("-TERM", "multi-thread"),
        ("-INT", "multi-thread"),
        ("-TERM", "per-core"),
        ("-INT", "per-core"),
    ] {
        for background in ["& wait; echo late", ">/dev/null & echo started"] {
            let dir = TempDir::new();
            let sleeper = dir.path().join("sleeper");
            // The sleep writes its own pid (`exec` keeps it), in the background of the command.
            let command = format!(
                "sh -c 'echo $$ > {}; exec sleep 60' {background}",
                sleeper.display()
            );
            let mut agent = Serve::start(&["--exec", &command, "--runtime", runtime]);
            ok(&["send", "-a", &agent.url, "go", "--async"]);
            let pid = wait_for(|| {
                std::fs::read_to_string(&sleeper)
                    .ok()
                    .filter(|p| p.ends_with('\n'))
            });
            let pid = pid.trim();
            assert!(
                running(pid),
                "{command}: the sleep runs before the shutdown"
            );
            let server = agent.child().id().to_string();
            let sent = Command::new("kill")
                .args([signal, &server])
                .status()
                .unwrap();
            assert!(sent.success());
            let status = agent.child().wait().unwrap();
            assert!(status.success(), "{signal} {runtime} {command}: {status}");
            let outlived = running(pid);
            if outlived {
                let _ = Command::new("kill").args(["-KILL", pid]).status();
            }
            assert!(
                !outlived,
                "{signal} {runtime} {command}: the sleep outlived the server"
            );
        }
    }
}

/// Whether the process runs (a zombie, dead but not yet reaped by its parent, does not).
#[cfg(unix)]
fn running(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses: `R`, `S`, ... or `Z`.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) if std::path::Path::new("/proc/self/stat").exists() => false,
        Err(_) => Command::new("kill")
            .args(["-0", pid])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success(),
    }
}

/// Polls `check` every 10 ms until it gives a value (within 10 s, or the test fails).
fn wait_for<T>(mut check: impl FnMut() -> Option<T>) -> T {
    for _ in 0..1000 {
        if let Some(value) = check() {
            return value;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("still waiting after 10 s");
}

// ----- The rough edges of the CLI before, which stay gone -----------------------------------

#[test]
fn timeout_bounds_streams_and_subscriptions() {
    let agent = Served::start();
    let host = agent.host();
    let streamed = run(&["send", "-a", host, "--stream", "wait", "--timeout", "300ms"]);
    assert_eq!(streamed.code, 5);
    let started = ok(&["send", "-a", host, "wait", "--async", "-o", "json"]).json();
    let id = started["task"]["id"].as_str().unwrap();
    let subscribed = run(&[
        "task",
        "subscribe",
        "-a",
        host,
        id,
        "--stream",
        "--timeout",
        "300ms",
        "-o",
        "json",
    ]);
    assert_eq!(subscribed.code, 5);
    assert_eq!(
        subscribed.lines().last().unwrap()["error"]["code"],
        "A2ACLI_ERR_TIMEOUT"
    );
    ok(&["task", "cancel", "-a", host, id]);
}

#[test]
fn event_ids_are_shown_for_resuming() {
    let agent = Served::start();
    let streamed = ok(&["send", "-a", agent.host(), "--stream", "chunks 2"]);
    let ids: Vec<String> = streamed
        .fields()
        .into_iter()
        .filter(|(l, _)| l == "Event-Id")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(ids, ["1", "2", "3", "5"]);
    assert_eq!(streamed.field("Last-Event-Id"), "5");
}

#[test]
fn a_send_that_times_out_names_its_task() {
    let agent = Served::start();
    let timed = run(&["send", "-a", agent.host(), "wait", "--timeout", "300ms"]);
    assert_eq!(timed.code, 5);
    let error = support::fields(&timed.stderr);
    let message = &error.iter().find(|(l, _)| l == "Error").unwrap().1;
    let id = message
        .strip_prefix("timed out after 300ms waiting for task ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("{message}"));
    assert_eq!(
        ok(&["task", "get", "-a", agent.host(), id]).field("State"),
        "WORKING"
    );
    ok(&["task", "cancel", "-a", agent.host(), id]);
}

#[test]
fn retries_are_counted_and_said() {
    let once = run(&[
        "send",
        "-a",
        "127.0.0.1:1",
        "hi",
        "--retries",
        "2",
        "--debug",
    ]);
    assert_eq!(once.code, 3);
    assert_eq!(
        once.stderr.matches("debug: the card fetch failed").count(),
        2,
        "{}",
        once.stderr
    );
    assert_eq!(
        once.stderr
            .matches("debug: xx GetAgentCard attempt")
            .count(),
        3,
        "{}",
        once.stderr
    );
}

/// A reply to an interrupted task, to an agent without streaming, prints the task after the
/// turn the reply started, not the `INPUT_REQUIRED` it still read before the agent took it up.
#[test]
fn a_reply_without_streaming_waits_for_the_turn_it_starts() {
    let agent = Served::with(Setup {
        no_streaming: true,
        ..Setup::default()
    });
    let host = agent.host();
    let asked = ok(&["send", "-a", host, "ask", "-o", "json"]).json();
    assert_eq!(
        asked["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    let id = asked["task"]["id"].as_str().unwrap();
    let done = ok(&[
        "send",
        "-a",
        host,
        "--task-id",
        id,
        "later Oslo",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(done["task"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(
        done["task"]["artifacts"][0]["parts"],
        json!([{"text": "Sunny in later Oslo."}])
    );
}

#[test]
fn history_and_lists_read_well_in_text() {
    let agent = Served::start();
    let host = agent.host();
    let id = ok(&["send", "-a", host, "ask"]).field("Task-Id");
    ok(&["send", "-a", host, "--task-id", &id, "Paris"]);
    let got = ok(&["task", "get", "-a", host, &id, "--history", "2"]);
    let history: Vec<String> = got
        .fields()
        .into_iter()
        .filter(|(l, _)| l == "History")
        .map(|(_, v)| v.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(history, ["AGENT", "USER"]);
    assert!(got.stdout.contains("\nParis\n\n"), "{}", got.stdout);
    let listed = ok(&["task", "list", "-a", host]);
    assert_eq!(listed.field("Task-Id"), id);
    assert_eq!(listed.field("Total"), "1");
}

#[test]
fn old_commands_say_their_new_spelling() {
    for (old, new) in [
        (
            vec!["stream", "http://h", "hi"],
            "`a2a stream` is now `a2a send --stream -a URL TEXT` (see `a2a help`)",
        ),
        (
            vec!["get", "http://h", "t"],
            "`a2a get` is now `a2a task get -a URL TASK_ID` (see `a2a help`)",
        ),
        (
            vec!["card", "http://h"],
            "`a2a card URL` is now `a2a card get -a URL`",
        ),
    ] {
        let mut args = old.clone();
        args.extend(["-o", "json"]);
        let refused = run(&args);
        assert_eq!(refused.code, 2);
        assert_eq!(refused.envelope()["hint"], new, "{old:?}");
    }
}

#[test]
fn mock_serves_a_json_script_and_refuses_a_bad_one() {
    let dir = TempDir::new();
    let script = dir.file(
        "agent.json",
        br#"{"card": {"name": "Scripted", "description": "d", "version": "2",
                      "capabilities": {"streaming": true}},
             "rules": [{"name": "ask", "match": {"contains": "?"},
                        "turns": [[{"inputRequired": "Why?"}], [{"complete": "Because {{text}}."}]]}],
             "fallback": [{"artifact": {"data": {"seen": true}}}]}"#,
    );
    let script = script.to_str().unwrap();
    let mock = support::Mock::start(&["--no-grpc", script]);
    assert_eq!(
        mock.banner[..2],
        [
            format!("serving the mock agent Scripted at {}", mock.url),
            "rules: ask".to_owned()
        ]
    );
    let host = mock.host();
    let asked = ok(&["send", "-a", host, "why?", "-o", "json"]).json();
    assert_eq!(
        asked["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    let task = asked["task"]["id"].as_str().unwrap();
    let done = ok(&["send", "-a", host, "--task-id", task, "it is", "-o", "json"]).json();
    assert_eq!(
        done["task"]["status"]["message"]["parts"],
        json!([{"text": "Because it is."}])
    );
    let other = ok(&["send", "-a", host, "hello", "-o", "json"]).json();
    assert_eq!(
        other["task"]["artifacts"][0]["parts"],
        json!([{"data": {"seen": true}}])
    );
    // `demo-server` is the same command; a script that cannot be read is a usage error.
    assert!(
        ok(&["demo-server", "--help"])
            .stdout
            .contains("Usage: a2a mock")
    );
    let bad = dir.file("bad.yaml", b"rules:\n  - reply: [ { status: sleeping } ]\n");
    let failed = run(&["mock", "--addr", "127.0.0.1:0", bad.to_str().unwrap()]);
    assert_eq!(failed.code, 2);
    assert!(
        failed.stderr.contains(
            "bad.yaml: YAML script: rules[0].reply: status `sleeping` is not a task state"
        ),
        "{}",
        failed.stderr
    );
}

/// One raw HTTP/1.1 request; the status line, the `www-authenticate` header and the body.
fn raw_post(url: &str, body: &str) -> (String, Option<String>, String) {
    use std::io::{Read as _, Write as _};
    let addr = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST / HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\na2a-version: 1.0\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let challenge = head
        .lines()
        .find_map(|l| l.strip_prefix("www-authenticate: "))
        .map(str::to_owned);
    (
        head.lines().next().unwrap().to_owned(),
        challenge,
        body.to_owned(),
    )
}

/// `a2a serve --jwks URL --api-key NAME=KEY`: the card declares both schemes, a request without
/// credentials gets 401 with both challenges, and the CLI's own client gets through with the
/// key the card asks for.
#[test]
fn serve_refuses_callers_without_credentials() {
    let agent = Serve::start(&[
        "--jwks",
        "http://127.0.0.1:9/jwks.json",
        "--api-key",
        "alice=s3cret",
    ]);
    let url = agent.url.as_str();
    let (status, challenge, body) = raw_post(
        url,
        r#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}"#,
    );
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    assert_eq!(
        challenge.as_deref(),
        Some(r#"Bearer, ApiKey in="header", name="X-API-Key""#)
    );
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&body).unwrap(),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
            "message": "unauthenticated: a bearer token is required; the API key `X-API-Key` is required"}})
    );
    let card = ok(&["card", "get", "-a", url, "-o", "json"]).json();
    assert_eq!(
        card["securitySchemes"],
        json!({
            "apiKey": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
            "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}}
        })
    );
    // A bad token is refused (the key server is down, so no key verifies it).
    let refused = run(&["send", "-a", url, "--bearer", "not.a.jwt", "hi"]);
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    let sent = ok(&["send", "-a", url, "--api-key", "s3cret", "hi"]);
    assert_eq!(sent.field("State"), "COMPLETED");
}

/// `a2a serve --card-key` with an RSA PKCS#8 key signs the card RS256; `a2a card get` verifies
/// it with the JWKS the signature names (the agent's own), and a key of no usable kind is
/// refused at start with the kinds it takes.
#[test]
fn serve_signs_its_card_with_an_rsa_key() {
    let dir = TempDir::new();
    let pem = dir.file(
        "card-key.pem",
        include_bytes!("../../a2a-jose/tests/fixtures/rs256-test-key.pem"),
    );
    let agent = Serve::start(&[
        "--card-key",
        pem.to_str().unwrap(),
        "--card-kid",
        "rsa-card",
    ]);
    let url = agent.url.as_str();
    let got = ok(&["card", "get", "-a", url, "--require-signature"]);
    assert_eq!(
        got.field("Signatures"),
        "verified: signature 1 (kid `rsa-card`)"
    );
    let card = ok(&["card", "get", "-a", url, "-o", "json"]).json();
    let protected = card["signatures"][0]["protected"].as_str().unwrap();
    assert_eq!(
        a2a_jose::b64::decode(protected).unwrap(),
        format!(
            r#"{{"alg":"RS256","kid":"rsa-card","typ":"JOSE","jku":"{url}/.well-known/jwks.json"}}"#
        )
        .into_bytes()
    );
    let bad = dir.file(
        "bad.pem",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    );
    let refused = run(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--card-key",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains(&format!(
            "--card-key {}: not a PKCS#8 PEM key for ES256 (P-256), EdDSA (Ed25519) or RS256 \
             (RSA, 2048 to 8192 bits)",
            bad.display()
        )),
        "{}",
        refused.stderr
    );
}

/// `a2a serve` over HTTPS: TLS files it cannot use are one usage error naming them, and the
/// mutual-TLS flags need what they build on.
#[test]
fn serve_refuses_tls_files_it_cannot_use() {
    let ca = pki::Ca::new("a2a-rs test CA");
    let dir = TempDir::new();
    let (cert, _) = ca.server().write(dir.path(), "server");
    let (_, other_key) = ca.server().write(dir.path(), "other");
    let (cert, other_key) = (cert.to_str().unwrap(), other_key.to_str().unwrap());
    let serve = |extra: &[&str]| {
        let mut args = vec![
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--tls-cert",
            cert,
            "--tls-key",
            other_key,
        ];
        args.extend(extra);
        run(&args)
    };
    let failed = serve(&[]);
    assert_eq!(failed.code, 2, "{}", failed.stderr);
    assert!(
        failed.stderr.contains(&format!(
            "--tls-cert {cert} --tls-key {other_key}: the private key is not the key of the \
             certificate (the first of the chain)"
        )),
        "{}",
        failed.stderr
    );
    let missing = dir.0.join("missing.pem");
    let failed = serve(&["--client-ca", missing.to_str().unwrap()]);
    assert_eq!(failed.code, 2);
    assert!(
        failed
            .stderr
            .contains(&format!("--client-ca {}: ", missing.display())),
        "{}",
        failed.stderr
    );
    // --client-ca needs --tls-cert; --client-cert-required needs --client-ca.
    assert_eq!(run(&["serve", "--client-ca", cert]).code, 2);
    assert_eq!(
        run(&[
            "serve",
            "--tls-cert",
            cert,
            "--tls-key",
            other_key,
            "--client-cert-required"
        ])
        .code,
        2
    );
}

/// The demo agent's hints name the agent (`-a URL`): copied as printed, they run.
#[test]
fn the_demo_agents_hints_run_as_printed() {
    let demo = support::Mock::start(&[]);
    let url = demo.url.as_str();
    let help = ok(&["send", "-a", url, "help"]);
    assert!(
        block(&help.stdout, "Artifact").contains(&format!(
            "slow    works until canceled (a2a task cancel -a {url} TASK_ID)"
        )),
        "{}",
        help.stdout
    );
    // The hint as the agent wrote it, without `a2a`, its placeholder filled in.
    let hinted = |text: &str, prefix: &str, fill: &str| -> Vec<String> {
        let start = text
            .find(prefix)
            .unwrap_or_else(|| panic!("no `{prefix}` in {text}"));
        let command = text[start..].trim_end_matches(')');
        command
            .split_whitespace()
            .skip(1)
            .map(|word| word.replace("CITY", fill))
            .collect()
    };
    let asked = ok(&["send", "-a", url, "ask"]);
    let question = block(&asked.stdout, "Status-Message");
    let task = asked.field("Task-Id");
    let reply = hinted(&question, "a2a send", "Lisbon");
    assert_eq!(
        reply,
        ["send", "-a", url, "--task-id", task.as_str(), "Lisbon"]
    );
    let reply: Vec<&str> = reply.iter().map(String::as_str).collect();
    assert_eq!(ok(&reply).field("State"), "COMPLETED");

    let slow = ok(&["send", "-a", url, "slow", "--async"]);
    let task = slow.field("Task-Id");
    let working = wait_for(|| {
        let got = ok(&["task", "get", "-a", url, &task]);
        (got.field("State") == "WORKING").then(|| block(&got.stdout, "Status-Message"))
    });
    let cancel = hinted(&working, "a2a task cancel", "");
    assert_eq!(cancel, ["task", "cancel", "-a", url, task.as_str()]);
    let cancel: Vec<&str> = cancel.iter().map(String::as_str).collect();
    assert_eq!(ok(&cancel).field("State"), "CANCELED");
}

/// A server command (`serve`, `mock`) with its stdout and stderr piped: its URL and banner (the
/// lines up to `card:`), and the process, to stop with `signal` and read the stderr of.
#[cfg(unix)]
struct Logging {
    child: std::process::Child,
    url: String,
    banner: Vec<String>,
}

#[cfg(unix)]
impl Logging {
    fn start(args: &[&str]) -> Self {
        use std::io::BufRead as _;
        let mut child = Command::new(support::A2A)
            .args(args)
            .args(["--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut banner = Vec::new();
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "{banner:?}");
            banner.push(line.trim_end().to_owned());
            if line.starts_with("card:") {
                break;
            }
        }
        let url = banner[0].rsplit(' ').next().unwrap().to_owned();
        Logging { child, url, banner }
    }

    /// Stops the server (SIGTERM) and gives its stderr, each line's time (its first word) as
    /// `T` and its duration (`N.Nms`) as `D`.
    fn stop(mut self) -> Vec<String> {
        use std::io::Read as _;
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert!(self.child.wait().unwrap().success(), "{stderr}");
        stderr
            .lines()
            .map(|line| {
                let mut words: Vec<String> = line.split(' ').map(str::to_owned).collect();
                if words[0].len() == "2026-12-03T10:15:02.123Z".len() && words[0].ends_with('Z') {
                    words[0] = "T".to_owned();
                }
                for word in &mut words {
                    if let Some(ms) = word.strip_suffix("ms")
                        && ms.parse::<f64>().is_ok()
                    {
                        *word = "D".to_owned();
                    }
                }
                words.join(" ")
            })
            .collect()
    }
}

/// `a2a serve` logs each call on stderr (binding, operation, task, outcome), each request that
/// reached no operation, and each task its agent failed, with the reason; the banner names the
/// store, push, auth and TLS; `-q` leaves the log out.
#[cfg(unix)]
#[test]
fn serve_logs_each_call_and_each_failed_task() {
    let command = r#"read t; [ "$t" = ok ] || { echo "no: $t" >&2; exit 3; }; echo fine"#;
    let server = Logging::start(&["serve", "--exec", command]);
    assert_eq!(
        server.banner[1],
        "store: memory (the tasks end with the server); push: off; auth: none (every caller is \
         anonymous); TLS: off"
    );
    let url = server.url.clone();
    let done = ok(&["send", "-a", &url, "ok"]).field("Task-Id");
    let failed = ok(&["send", "-a", &url, "--transport", "HTTP+JSON", "no"]).field("Task-Id");
    ok(&["task", "get", "-a", &url, "--transport", "GRPC", &done]);
    support::fails(&["task", "get", "-a", &url, "nope"], 1, "TaskNotFoundError");
    let lines = server.stop();
    let (tasks, calls): (Vec<String>, Vec<String>) = lines
        .into_iter()
        .partition(|line| line.starts_with("T task "));
    let card = "T HTTP GET /.well-known/agent-card.json D HTTP 200".to_owned();
    assert_eq!(
        calls,
        [
            card.clone(),
            format!("T JSONRPC SendStreamingMessage {done} D ok"),
            format!("T JSONRPC GetTask {done} D ok"),
            card.clone(),
            format!("T HTTP+JSON SendStreamingMessage {failed} D ok"),
            format!("T HTTP+JSON GetTask {failed} D ok"),
            card.clone(),
            format!("T GRPC GetTask {done} D ok"),
            card,
            "T JSONRPC GetTask nope D error: task nope not found".to_owned(),
        ]
    );
    assert_eq!(
        tasks,
        [format!(
            "T task {failed} FAILED: `{command}` exited with status 3:\\nno: no"
        )]
    );

    let quiet = Logging::start(&["serve", "-q", "--exec", command]);
    ok(&["send", "-a", &quiet.url, "no"]);
    assert_eq!(quiet.stop(), Vec::<String>::new());
}

/// `a2a mock` logs as `a2a serve` does.
#[cfg(unix)]
#[test]
fn mock_logs_each_call_and_each_failed_task() {
    let mock = Logging::start(&["mock"]);
    assert_eq!(
        mock.banner[2],
        "store: memory (the tasks end with the server); auth: none (every caller is anonymous); push: off"
    );
    // Sent blocking: the task has failed when the answer comes.
    let failed = ok(&["send", "-a", &mock.url, "fail"]).field("Task-Id");
    let lines = mock.stop();
    assert!(
        lines.contains(&format!("T JSONRPC SendStreamingMessage {failed} D ok")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&format!(
            "T task {failed} FAILED: The demo agent failed on purpose."
        )),
        "{lines:?}"
    );
}

/// The A2A spec files' ACTS folder: `$A2A_SPEC_DIR/acts` (which `cargo xtask ci` sets), else
/// `../shared/spec/acts` beside the workspace.
fn acts_dir() -> std::path::PathBuf {
    let spec = std::env::var_os("A2A_SPEC_DIR")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec")
        });
    let acts = spec.join("acts");
    assert!(
        acts.join("suite.acts.yaml").is_file(),
        "the ACTS files are not at {}: set A2A_SPEC_DIR to the spec folder (docs/conformance.md)",
        acts.display()
    );
    acts
}

/// The whole ACTS suite against `a2a mock --acts` on JSON-RPC, HTTP+JSON and gRPC: every MUST
/// test passes or is a known failure of tests/acts-known-failures.yaml (with the spec section
/// that contradicts it), none of those passes unnoticed, and the JUnit file says the same.
#[test]
fn the_acts_suite_against_the_acts_mock_on_three_bindings() {
    let acts = acts_dir();
    let mock = support::Mock::start(&["--acts"]);
    let dir = TempDir::new();
    let junit = dir.path().join("acts.xml");
    let known = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/acts-known-failures.yaml"
    );
    let run = run(&[
        "conformance",
        "-a",
        mock.host(),
        "--suite",
        acts.to_str().unwrap(),
        "--expect-fail",
        known,
        "--junit",
        junit.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(
        run.code, 0,
        "stderr: {}\nstdout: {}",
        run.stderr, run.stdout
    );
    let report = run.json();
    assert_eq!(report["conformant"], true);
    assert_eq!(report["level"], "must");
    let results = report["results"].as_array().unwrap();
    let mut bindings: Vec<&str> = results
        .iter()
        .map(|r| r["binding"].as_str().unwrap())
        .collect();
    bindings.sort_unstable();
    bindings.dedup();
    assert_eq!(bindings, ["grpc", "jsonrpc", "rest"]);
    for binding in ["grpc", "jsonrpc", "rest"] {
        let must = &report["summary"][binding]["must"];
        assert_eq!(must["fail"], 0, "{binding}: {must}");
        assert_eq!(must["xpass"], 0, "{binding}: {must}");
        assert!(must["pass"].as_u64().unwrap() >= 30, "{binding}: {must}");
    }
    // Not one failure at any level: what fails is listed, and what is listed fails.
    let unexpected: Vec<String> = results
        .iter()
        .filter(|r| r["outcome"] == "fail" || r["outcome"] == "xpass")
        .map(|r| format!("{} [{}]: {}", r["id"], r["binding"], r["message"]))
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
    // The push tests run (the mock declares push notifications), and the delivery tests are
    // checked at the runner's own webhook receiver: a delivery for the task, with the
    // configured credentials, in the StreamResponse shape.
    for id in [
        "PUSH-CFG-001",
        "PUSH-ERR-001",
        "PUSH-DELIV-001",
        "PUSH-DELIV-002",
        "PUSH-DELIV-003",
        "SEC-PUSH-001",
    ] {
        for binding in ["grpc", "jsonrpc", "rest"] {
            let result = results
                .iter()
                .find(|r| r["id"] == id && r["binding"] == binding)
                .unwrap();
            assert_eq!(result["outcome"], "pass", "{result}");
        }
    }
    // SEC-PUSH-002 is a requirement on the webhook receiver (the client), skipped with why.
    let client_side = results
        .iter()
        .find(|r| r["id"] == "SEC-PUSH-002" && r["binding"] == "jsonrpc")
        .unwrap();
    assert_eq!(client_side["outcome"], "skip");
    assert!(
        client_side["message"]
            .as_str()
            .unwrap()
            .starts_with("a requirement on the webhook receiver, i.e. the client (REQ-SEC-019;"),
        "{client_side}"
    );
    // A known failure carries its reason and the contradicting section.
    let xfail = results
        .iter()
        .find(|r| r["id"] == "REST-PD-001" && r["binding"] == "rest")
        .unwrap();
    assert_eq!(xfail["outcome"], "xfail");
    assert!(
        xfail["message"]
            .as_str()
            .unwrap()
            .starts_with("known failure: the test expects RFC 9457 problem details"),
        "{xfail}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ACTS\">\n  <testsuite name=\"grpc\" tests=\""), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
}

/// `conformance --suite`: a failing MUST test is exit 1 (with the text report and the first
/// mismatch), a suite that cannot be read is a usage error (2), an agent that cannot be reached
/// is 3.
#[test]
fn acts_exit_statuses() {
    let mock = support::Mock::start(&["--acts", "--no-grpc"]);
    let dir = TempDir::new();
    let suite = dir.file(
        "one.acts.yaml",
        br#"acts_version: "1.0"
spec_version: "1.0"
suites:
  - id: s
    name: one
    tests:
      - id: T-001
        name: "a completed task"
        level: must
        transport: [jsonrpc]
        steps:
          - id: send
            operation: send_message
            params:
              message:
                parts:
                  - text: "tck-complete-task hi"
            capture:
              taskId: task.id
            expect:
              body:
                task:
                  status:
                    state: TASK_STATE_FAILED
"#,
    );
    let failed = run(&[
        "conformance",
        "-a",
        mock.host(),
        "--suite",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(failed.code, 1, "{}", failed.stderr);
    assert_eq!(
        failed.stdout.lines().next().unwrap(),
        "FAIL  T-001 [jsonrpc] a completed task -- step `send`: $.task.status.state: not equal; \
         expected \"TASK_STATE_FAILED\", got \"TASK_STATE_COMPLETED\""
    );
    assert!(
        failed
            .stdout
            .contains("MUST   jsonrpc 0/1 passed (1 failed, 0 skipped, 0 xfail, 0 xpass)"),
        "{}",
        failed.stdout
    );
    assert_eq!(
        failed.stderr,
        "warning: 1 test(s) at level must or stricter failed: the agent is not conformant\n"
    );
    let missing = dir.path().join("nowhere");
    let usage = run(&[
        "conformance",
        "-a",
        mock.host(),
        "--suite",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(usage.code, 2, "{}", usage.stderr);
    assert!(
        usage.stderr.starts_with(&format!(
            "Error: cannot read the ACTS suite: {}: no such file or directory\n",
            missing.display()
        )),
        "{}",
        usage.stderr
    );
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = closed.local_addr().unwrap().to_string();
    drop(closed);
    let unreachable = run(&[
        "conformance",
        "-a",
        &addr,
        "--suite",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(unreachable.code, 3, "{}", unreachable.stderr);
}

/// `conformance --suite` and its webhook receiver: `--var webhookUrl=...` sends the deliveries
/// elsewhere, so the delivery tests are skipped with why (and the config tests use that URL);
/// `--webhook-url` that is no http(s) URL and a `--webhook-addr` that cannot be bound are
/// usage errors.
#[test]
fn acts_webhook_options() {
    let mock = support::Mock::start(&["--acts", "--no-grpc"]);
    let push = acts_dir().join("push-notifications.acts.yaml");
    let given = run(&[
        "conformance",
        "-a",
        mock.host(),
        "--suite",
        push.to_str().unwrap(),
        "--transport",
        "jsonrpc",
        "--var",
        "webhookUrl=http://127.0.0.1:9/hook",
    ]);
    assert_eq!(given.code, 0, "{}\n{}", given.stderr, given.stdout);
    assert!(
        given.stdout.contains(
            "SKIP  PUSH-DELIV-001 [jsonrpc] Push delivery includes auth -- webhookUrl is given, so \
             the deliveries go to that webhook, not the runner's receiver, and cannot be checked \
             (advertise the runner's receiver instead: --webhook-url)\n"
        ),
        "{}",
        given.stdout
    );
    assert!(
        given
            .stdout
            .contains("PASS  PUSH-CFG-001 [jsonrpc] Set push notification config\n"),
        "{}",
        given.stdout
    );
    let bad_url = run(&[
        "conformance",
        "-a",
        mock.host(),
        "--suite",
        push.to_str().unwrap(),
        "--webhook-url",
        "ftp://host/hook",
    ]);
    assert_eq!(bad_url.code, 2, "{}", bad_url.stderr);
    assert!(
        bad_url.stderr.starts_with(
            "Error: --webhook-url `ftp://host/hook` is not an http:// or https:// URL\n"
        ),
        "{}",
        bad_url.stderr
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let busy = run(&[
        "conformance",
        "-a",
        mock.host(),
        "--suite",
        push.to_str().unwrap(),
        "--webhook-addr",
        &addr,
    ]);
    assert_eq!(busy.code, 2, "{}", busy.stderr);
    assert!(
        busy.stderr.starts_with(&format!(
            "Error: the webhook receiver cannot listen on {addr}: "
        )),
        "{}",
        busy.stderr
    );
    drop(taken);
}

/// The specification's next revision: `-e/--endpoint URL` with one `--transport` calls that
/// interface without a card (no `-a` at all here, so none could be resolved), on each binding;
/// without exactly one `--transport` it is a usage error.
#[test]
fn an_endpoint_is_called_without_a_card() {
    let mock = support::Mock::start(&[]);
    let host = mock.host();
    let rpc = format!("http://{host}/");
    let sent = ok(&[
        "send",
        "-e",
        &rpc,
        "--transport",
        "JSONRPC",
        "hello",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(
        sent["message"]["parts"],
        json!([{"text": "Hello! Send \"help\" to see what this demo agent does."}])
    );
    let rest = format!("http://{host}");
    let task = ok(&[
        "send",
        "--endpoint",
        &rest,
        "--transport",
        "http+json",
        "echo this",
        "-o",
        "json",
    ])
    .json();
    let id = task["task"]["id"].as_str().unwrap().to_owned();
    // A plain send without a card waits by polling; --stream opens a stream (no card to say
    // the agent streams, so the agent's answer decides: this one does).
    let streamed = ok(&[
        "send",
        "-e",
        &rpc,
        "--transport",
        "JSONRPC",
        "--stream",
        "stream",
        "-o",
        "json",
    ]);
    assert!(
        !streamed.stderr.contains("does not advertise streaming"),
        "{}",
        streamed.stderr
    );
    let events = streamed.lines();
    assert!(events.len() > 1, "{}", streamed.stdout);
    assert_eq!(
        events.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    let got = ok(&[
        "task",
        "get",
        "-e",
        host,
        "--transport",
        "GRPC",
        &id,
        "-o",
        "json",
    ])
    .json();
    assert_eq!(got["id"], id.as_str());
    assert_eq!(got["status"]["state"], "TASK_STATE_COMPLETED");
    let none = run(&["send", "-e", &rpc, "hello"]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert_eq!(
        none.stderr.lines().next().unwrap(),
        format!(
            "Error: -e/--endpoint needs exactly one --transport (the binding `{rpc}` speaks: \
             JSONRPC, HTTP+JSON or GRPC); 0 given"
        )
    );
    let two = run(&[
        "send",
        "-e",
        &rpc,
        "--transport",
        "JSONRPC",
        "--transport",
        "GRPC",
        "hello",
    ]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    assert!(two.stderr.contains("; 2 given\n"), "{}", two.stderr);
}

/// The specification's next revision (a2aproject/a2a-cli, reconciliation of 2026-08-21):
/// `server` for `demo-server`, `--env-file` for `--config`, `--text-part`, `--file-part` and
/// `--data-part` for the part flags, accepted beside the v0.2 spellings.
#[test]
fn the_next_revision_spellings_are_accepted() {
    assert!(ok(&["server", "--help"]).stdout.contains("Usage: a2a mock"));
    let mock = support::Mock::start(&["--no-grpc"]);
    let dir = TempDir::new();
    let env = dir.file(
        "agent.env",
        format!("A2ACLI_AGENT_CARD={}\n", mock.host()).as_bytes(),
    );
    let note = dir.file("note.txt", b"a note");
    let sent = ok(&[
        "send",
        "--env-file",
        env.to_str().unwrap(),
        "--text-part",
        "echo these parts",
        "--data-part",
        r#"{"n": 1}"#,
        "--file-part",
        note.to_str().unwrap(),
        "-o",
        "json",
    ])
    .json();
    assert_eq!(sent["task"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(
        sent["task"]["history"][0]["parts"],
        json!([
            {"text": "echo these parts"},
            {"data": {"n": 1}, "mediaType": "application/json"},
            {"raw": "YSBub3Rl", "filename": "note.txt", "mediaType": "text/plain"}
        ])
    );
}

// ----- A2A 1.1 (draft): generations, long poll, --if-generation -------------------------------

/// `a2a mock ARGS` on a free port, JSON-RPC and HTTP+JSON only; the URL from its first line.
struct Mock(std::process::Child, String);

impl Mock {
    fn start(args: &[&str]) -> Self {
        use std::io::BufRead as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_a2a"))
            .args(["mock", "--addr", "127.0.0.1:0", "--no-grpc", "-q"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("a2a mock starts");
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
            .to_owned();
        Mock(child, url)
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Over `a2a mock` serving 1.0 and 1.1, on each binding: `--a2a-version 1.1` shows the task's
/// generation, `--if-generation` continues the task only at its generation (the refusal names
/// both), and a client that speaks 1.0 shows none and refuses to send the check.
#[test]
fn generations_and_if_generation_over_a2a_mock_1_1() {
    let mock = Mock::start(&["--a2a-version", "1.0", "--a2a-version", "1.1"]);
    let url = mock.1.as_str();
    for binding in ["JSONRPC", "HTTP+JSON"] {
        let v1_1 = ["-a", url, "--transport", binding, "--a2a-version", "1.1"];
        // The command, then the options.
        let with = |args: &[&str]| -> Vec<String> {
            args.iter().chain(&v1_1).map(|s| (*s).to_owned()).collect()
        };
        let run_with = |args: &[&str]| {
            let all = with(args);
            let args: Vec<&str> = all.iter().map(String::as_str).collect();
            ok(&args)
        };
        let asked = run_with(&["send", "ask"]);
        assert_eq!(asked.field("State"), "INPUT_REQUIRED", "{binding}");
        assert_eq!(asked.field("Generation"), "2", "{binding}");
        let id = asked.field("Task-Id");
        // JSON: the protocol's Task, with its int64 generation as a string.
        let got = run_with(&["task", "get", &id, "-o", "json"]).json();
        assert_eq!(got["generation"], "2", "{binding}");
        // Speaking 1.0: no generation.
        let plain = ok(&["task", "get", "-a", url, "--transport", binding, &id]);
        assert!(
            !plain.stdout.contains("Generation:"),
            "{binding}: {}",
            plain.stdout
        );
        let refused = support::fails(
            &[
                "send",
                "-a",
                url,
                "--transport",
                binding,
                "--task-id",
                &id,
                "--if-generation",
                "2",
                "Paris",
            ],
            2,
            "A2ACLI_ERR_USAGE",
        );
        assert_eq!(
            refused["message"],
            "ifGenerationMatch needs A2A 1.1 task generations, which this client does not use \
             with the agent (it speaks A2A 1.0); nothing was sent"
        );
        // A stale generation: refused, nothing changes.
        let all = with(&["send", "--task-id", &id, "--if-generation", "1", "Paris"]);
        let args: Vec<&str> = all.iter().map(String::as_str).collect();
        let stale = support::fails(&args, 1, "TaskGenerationMismatchError");
        assert_eq!(stale["a2aCode"], -32010, "{binding}");
        assert_eq!(
            stale["message"],
            "the agent answered TaskGenerationMismatchError (-32010): Task generation mismatch: \
             expected 1 but current generation is 2"
        );
        assert!(
            stale["hint"]
                .as_str()
                .unwrap()
                .starts_with("the task changed since that generation"),
            "{stale}"
        );
        assert_eq!(
            run_with(&["task", "get", &id]).field("State"),
            "INPUT_REQUIRED"
        );
        // The task's generation: the follow-up goes on.
        let booked = run_with(&["send", "--task-id", &id, "--if-generation", "2", "Paris"]);
        assert_eq!(booked.field("State"), "COMPLETED", "{binding}");
        let generation: i64 = booked.field("Generation").parse().unwrap();
        assert!(generation > 2, "{binding}: {generation}");
        // `task get --wait` follows a running task to its end by long polls.
        let story = run_with(&["send", "--async", "stream"]).field("Task-Id");
        let waited = run_with(&["task", "get", "--wait", "--debug", &story]);
        assert_eq!(waited.field("State"), "COMPLETED", "{binding}");
        assert!(waited.field("Generation").parse::<i64>().unwrap() >= 4);
    }
    // --if-generation continues a task: without --task-id it is a usage error.
    let no_task = run(&["send", "-a", url, "--if-generation", "2", "hi"]);
    assert_eq!(no_task.code, 2, "{}", no_task.stderr);
    assert!(
        no_task
            .stderr
            .contains("the following required arguments were not provided"),
        "{}",
        no_task.stderr
    );
}

/// `task get --wait` long-polls where the agent speaks 1.1 (`a2a serve --a2a-version 1.0
/// --a2a-version 1.1`), polls every --poll-interval where it does not, and stops at --timeout
/// either way, naming the task.
#[test]
fn task_get_wait_long_polls_over_1_1_and_polls_otherwise() {
    let both = Serve::start(&[
        "--exec",
        "sleep 30",
        "--a2a-version",
        "1.0",
        "--a2a-version",
        "1.1",
    ]);
    let old = Serve::start(&["--exec", "sleep 30"]);
    for (agent, version, says) in [
        (&both, "1.1", "long-polling (A2A 1.1) for a change"),
        (&both, "1.0", "asking again in"),
        (&old, "1.1", "asking again in"),
    ] {
        let url = agent.url.as_str();
        let sent = ok(&["send", "-a", url, "--async", "--a2a-version", version, "go"]);
        let id = sent.field("Task-Id");
        let waited = run(&[
            "task",
            "get",
            "-a",
            url,
            "--a2a-version",
            version,
            "--wait",
            "--timeout",
            "1500ms",
            "--poll-interval",
            "200ms",
            "--debug",
            &id,
        ]);
        assert_eq!(waited.code, 5, "{version}: {}", waited.stderr);
        assert!(
            waited.stderr.contains(says),
            "{version} to {url}: {}",
            waited.stderr
        );
        assert!(
            waited.stderr.contains(&format!("waiting for task {id}")),
            "{}",
            waited.stderr
        );
        ok(&["task", "cancel", "-a", url, &id]);
    }
}
