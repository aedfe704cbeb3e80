//! `a2a serve --push`: the card declares push notifications, the JWKS is served, and a task's
//! events reach a webhook on 127.0.0.1 (opened with `--push-allow`), signed; and
//! `a2a task push-config receive` takes them.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

mod support;

use support::Serve;

use a2a_client::push::{Verifier, fetch_jwks, jwks_url};
use a2a_types::v1::{
    Message, SendMessageConfiguration, SendMessageRequest, StreamResponse,
    TaskPushNotificationConfig, TaskState,
};

/// Reads one HTTP/1.1 request from a connection of `listener` and answers 200; returns its
/// headers and body.
fn receive(listener: &TcpListener) -> (http::HeaderMap, Vec<u8>) {
    let (mut stream, _) = listener.accept().unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut headers = http::HeaderMap::new();
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("POST /hook HTTP/1.1"), "{line}");
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let Some((name, value)) = line.trim_end().split_once(": ") else {
            break;
        };
        headers.append(
            http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    let length: usize = headers["content-length"].to_str().unwrap().parse().unwrap();
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    stream
        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        .unwrap();
    (headers, body)
}

#[test]
fn serve_push_delivers_signed_events() {
    let served = Serve::start(&["--push-allow", "127.0.0.1", "--push-sign"]);
    let url = served.url.clone();
    let hook = TcpListener::bind("127.0.0.1:0").unwrap();
    let hook_url = format!("http://{}/hook", hook.local_addr().unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let verifier = runtime.block_on(async {
        let client = a2a_client::A2aClient::connect(&url).await.unwrap();
        assert_eq!(client.card().capabilities.push_notifications, Some(true));
        let jwks = fetch_jwks(jwks_url(client.card()).unwrap(), Duration::from_secs(30))
            .await
            .unwrap();
        assert_eq!(jwks.keys[0].alg.as_deref(), Some("ES256"));
        let push = TaskPushNotificationConfig::new(&hook_url).with_token("tok");
        let request = SendMessageRequest::new(Message::user_text("hello")).with_configuration(
            SendMessageConfiguration::default()
                .with_return_immediately(true)
                .with_task_push_notification_config(push),
        );
        client.send_message(request).await.unwrap();
        Verifier::new(jwks).with_audience(&hook_url)
    });
    // The echo agent's events, each signed, until the task completes.
    let mut last = None;
    for _ in 0..10 {
        let (headers, body) = receive(&hook);
        assert_eq!(headers["x-a2a-notification-token"], "tok");
        verifier.verify(&headers, &body).unwrap();
        let event: StreamResponse = serde_json::from_slice(&body).unwrap();
        if let StreamResponse::StatusUpdate(update) = &event {
            last = Some(update.status.state);
            if update.status.state.is_terminal() {
                break;
            }
        }
    }
    assert_eq!(last, Some(TaskState::Completed));
}

#[test]
fn serve_without_push_declares_none() {
    let served = Serve::start(&[]);
    let url = served.url.clone();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let card = runtime.block_on(async {
        a2a_client::ClientBuilder::new()
            .fetch_card(&url)
            .await
            .unwrap()
    });
    assert_eq!(card.capabilities.push_notifications, None);
    assert_eq!(jwks_url(&card), None);
}

#[test]
fn the_receiver_takes_the_signed_deliveries_of_a2a_serve() {
    // The command's task waits for a file the test creates once the receiver listens.
    let dir = std::env::temp_dir().join(format!("a2a-serve-push-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let go = dir.join("go");
    let _ = std::fs::remove_file(&go);
    let command = format!(
        "while [ ! -f '{}' ]; do sleep 0.05; done; echo done",
        go.display()
    );
    let served = Serve::start(&[
        "--push-allow",
        "127.0.0.1",
        "--push-sign",
        "--exec",
        &command,
    ]);
    let url = served.url.clone();
    let a2a = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_a2a"));
        command
            .args(args)
            .env_clear()
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    };
    let sent = a2a(&["send", "-a", &url, "--async", "go", "-o", "json"])
        .output()
        .unwrap();
    let sent: serde_json::Value = serde_json::from_slice(&sent.stdout).unwrap();
    let id = sent["task"]["id"].as_str().unwrap().to_owned();
    let mut receiver = a2a(&[
        "task",
        "push-config",
        "receive",
        "-a",
        &url,
        &id,
        "--stream",
        "-o",
        "json",
    ])
    .spawn()
    .unwrap();
    let mut stderr = BufReader::new(receiver.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 && !line.starts_with("note: receiving") {
        line.clear();
    }
    assert!(line.contains("each delivery signed"), "{line}");
    std::fs::write(&go, b"").unwrap();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let output = receiver.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(0), "{rest}");
    let events: Vec<StreamResponse> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let Some(StreamResponse::StatusUpdate(last)) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!(last.status.state, TaskState::Completed);
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            StreamResponse::ArtifactUpdate(update) => Some(update.artifact.text()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "done\n");
}
