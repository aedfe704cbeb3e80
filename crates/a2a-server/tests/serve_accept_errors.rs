//! Accept errors do not end the accept loop: the process runs out of file descriptors for real
//! (its soft `RLIMIT_NOFILE` lowered with util-linux `prlimit`), so `accept` fails with
//! `EMFILE`; once a descriptor is free the waiting connection is served.
//!
//! The only test in its binary: the limit is the whole process's.
#![cfg(target_os = "linux")]

mod common;

use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::{A2aService, ServeConfig};
use a2a_types::v1::AgentCard;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// The bound on every wait for something that must happen; never reached when the code works.
const GUARD: Duration = Duration::from_secs(10);

/// `EMFILE` on Linux: the process has no free file descriptor.
const EMFILE: i32 = 24;

/// The limit that leaves this process exactly one more descriptor: a new descriptor takes the
/// lowest free number, and `RLIMIT_NOFILE` bounds the numbers, not the count.
fn one_more_descriptor() -> u64 {
    let mut free = (0..).filter(|n| std::fs::read_link(format!("/proc/self/fd/{n}")).is_err());
    free.next().unwrap();
    free.next().unwrap()
}

/// The soft and hard `RLIMIT_NOFILE` of this process.
fn nofile() -> (String, String) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .unwrap();
    let fields: Vec<&str> = line["Max open files".len()..].split_whitespace().collect();
    (fields[0].to_owned(), fields[1].to_owned())
}

fn set_nofile(soft: &str, hard: &str) {
    let status = std::process::Command::new("prlimit")
        .arg("--pid")
        .arg(std::process::id().to_string())
        .arg(format!("--nofile={soft}:{hard}"))
        .status()
        .unwrap_or_else(|err| panic!("this test needs util-linux `prlimit`: {err}"));
    assert!(status.success(), "prlimit failed: {status}");
}

const REQUEST: &[u8] =
    b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";

#[tokio::test]
async fn running_out_of_file_descriptors_pauses_accepting_and_does_not_end_it() {
    let card = AgentCard::new("T", "t", "1")
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let agent = agent_fn(|_ctx, sink| async move {
        sink.complete(None).await?;
        Ok(())
    });
    let service = A2aService::builder(agent, card).build();
    let server = common::start_configured(service, ServeConfig::default()).await;

    // A kept-alive connection: one descriptor here, one in the server.
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut first, first_conn) = hyper::client::conn::http1::handshake::<_, Full<Bytes>>(
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .unwrap();
    let first_conn = tokio::spawn(async move {
        let _ = first_conn.await;
    });
    let request = http::Request::get("http://t/.well-known/agent-card.json")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = first.send_request(request).await.unwrap();
    assert_eq!(response.status(), http::StatusCode::OK);
    response.into_body().collect().await.unwrap();

    // Room for exactly one more descriptor: the second client's socket. The server's accept
    // of that connection then fails with EMFILE.
    let (soft, hard) = nofile();
    let limit = one_more_descriptor();
    set_nofile(&limit.to_string(), &hard);
    let mut second = TcpStream::connect(server.addr).await.unwrap();
    second.write_all(REQUEST).await.unwrap();
    let err = TcpStream::connect(server.addr).await.unwrap_err();
    assert_eq!(err.raw_os_error(), Some(EMFILE), "{err}");

    // Closing the first connection frees its descriptors: the second is served.
    drop(first);
    tokio::time::timeout(GUARD, first_conn)
        .await
        .unwrap()
        .unwrap();
    let mut head = [0u8; 12];
    tokio::time::timeout(GUARD, second.read_exact(&mut head))
        .await
        .expect("the waiting connection is served once a descriptor is free")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    drop(second);

    // And the loop goes on.
    set_nofile(&soft, &hard);
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    third.write_all(REQUEST).await.unwrap();
    tokio::time::timeout(GUARD, third.read_exact(&mut head))
        .await
        .expect("a later connection is served")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
}
