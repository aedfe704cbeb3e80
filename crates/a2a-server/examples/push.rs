//! Push notifications end to end, in one program: an agent that signs its push deliveries, a
//! webhook receiver that verifies each one with `a2a_client::push`, and a client that sends a
//! message with a push config and returns at once.
//!
//! ```sh
//! cargo run -p a2a-server --example push
//! ```
//!
//! 1. The agent serves on 127.0.0.1 with push delivery on: the SSRF guard opened for
//!    127.0.0.1 only (the receiver is local), deliveries signed with a fresh ES256 key, whose
//!    JWKS the agent serves at `/.well-known/jwks.json` and names in its card.
//! 2. The receiver reads the agent's card, fetches the JWKS it names, and checks every
//!    delivery: the signature, the body against the signed hash, the age, the token id (no
//!    replays), the audience and the config's token. It answers 401 to a delivery that fails.
//! 3. The client sends `SendMessage` with `returnImmediately` and a push config pointing at the
//!    receiver; the task's events then arrive at the receiver, one `POST` each.

#![expect(clippy::print_stdout, reason = "an example prints what it receives")]

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use a2a_client::push::{PushReceiver, Verifier};
use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_server::push::{Algorithm, PushSettings, SigningKey};
use a2a_types::v1::{
    AgentCapabilities, AgentCard, Artifact, Message, Part, SendMessageConfiguration,
    SendMessageRequest, StreamResponse, TaskPushNotificationConfig,
};
use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use tokio::sync::mpsc;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    // 1. The agent: works, writes a haiku in three chunks, completes.
    let agent = agent_fn(|_ctx, sink| async move {
        sink.working("composing").await?;
        let lines = [
            "an old silent pond",
            "a frog jumps into the pond",
            "splash! silence again",
        ];
        for (i, line) in lines.iter().enumerate() {
            let chunk = Artifact::new("haiku", vec![Part::text(format!("{line}\n"))]);
            sink.artifact_chunk(chunk, i > 0, i + 1 == lines.len())
                .await?;
        }
        sink.complete(None).await?;
        Ok(())
    });
    let card = AgentCard::new("Haiku", "Writes a haiku, and pushes it", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let key = SigningKey::generate(Algorithm::Es256)?;
    println!("agent key: ES256, kid {}", key.kid());
    let settings = PushSettings::default()
        .allow("127.0.0.1".parse()?)
        .sign_with(key);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let agent_url = format!("http://{}", listener.local_addr()?);
    let service = A2aService::builder(agent, card)
        .public_url(&agent_url)
        .push(settings)
        .build();
    let config = service.serve_config();
    let (stop_agent, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        service,
        async move {
            let _ = stopped.await;
        },
        config,
    ));
    println!("agent at {agent_url}");

    // 2. The receiver: the agent's keys from the JWKS its card names.
    let card = a2a_client::ClientBuilder::new()
        .fetch_card(&agent_url)
        .await?;
    let jwks_url = a2a_client::push::jwks_url(&card).ok_or("the card names no JWKS")?;
    let jwks = a2a_client::push::fetch_jwks(jwks_url, Duration::from_secs(10)).await?;
    println!("receiver: {} key(s) from {jwks_url}", jwks.keys.len());
    let hook = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let hook_url = format!("http://{}/hook", hook.local_addr()?);
    let receiver = Arc::new(
        PushReceiver::new()
            .verify_with(Verifier::new(jwks).with_audience(&hook_url))
            .expect_token("haiku-42"),
    );
    let (events, mut received) = mpsc::unbounded_channel();
    tokio::spawn(serve_hook(hook, receiver, events));

    // 3. The client: a message with a push config, answered at once.
    let client = a2a_client::A2aClient::connect(&agent_url).await?;
    let push = TaskPushNotificationConfig::new(&hook_url).with_token("haiku-42");
    let request = SendMessageRequest::new(Message::user_text("a haiku, please"))
        .with_configuration(
            SendMessageConfiguration::default()
                .with_return_immediately(true)
                .with_task_push_notification_config(push),
        );
    client.send_message(request).await?;

    // Every event of the task arrives, verified, until the last.
    let mut haiku = String::new();
    loop {
        let event = tokio::time::timeout(Duration::from_secs(30), received.recv())
            .await?
            .ok_or("the receiver stopped")?;
        match event {
            StreamResponse::ArtifactUpdate(update) => haiku.push_str(&update.artifact.text()),
            StreamResponse::StatusUpdate(update) if update.status.state.is_terminal() => break,
            _ => {}
        }
    }
    println!("the haiku, as pushed:\n{haiku}");
    let _ = stop_agent.send(());
    server.await??;
    Ok(())
}

/// Serves the webhook: each delivery checked by `receiver`, its event handed to `events`.
async fn serve_hook(
    listener: tokio::net::TcpListener,
    receiver: Arc<PushReceiver>,
    events: mpsc::UnboundedSender<StreamResponse>,
) {
    while let Ok((stream, _)) = listener.accept().await {
        let (receiver, events) = (receiver.clone(), events.clone());
        let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
            let (receiver, events) = (receiver.clone(), events.clone());
            async move {
                let (head, body) = request.into_parts();
                let body = body
                    .collect()
                    .await
                    .map(|b| b.to_bytes())
                    .unwrap_or_default();
                let status = match receiver.receive(&head.headers, &body) {
                    Ok(delivery) => {
                        let claims = delivery.claims.expect("the receiver verifies signatures");
                        println!(
                            "verified delivery for task {} (jti {}): {}",
                            claims.task_id,
                            claims.jti,
                            describe(&delivery.event)
                        );
                        let _ = events.send(delivery.event);
                        StatusCode::NO_CONTENT
                    }
                    Err(refused) => {
                        println!("refused delivery: {refused}");
                        refused.status()
                    }
                };
                Ok::<_, Infallible>(
                    Response::builder()
                        .status(status)
                        .body(Full::new(Bytes::new()))
                        .expect("a valid response"),
                )
            }
        });
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn describe(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(task) => format!("task, {}", task.status.state),
        StreamResponse::StatusUpdate(update) => format!("status {}", update.status.state),
        StreamResponse::ArtifactUpdate(update) => {
            format!("artifact chunk {:?}", update.artifact.text())
        }
        StreamResponse::Message(_) => "message".to_owned(),
        _ => "another event".to_owned(),
    }
}
