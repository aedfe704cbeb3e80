//! A test agent served on 127.0.0.1:0 with gRPC sharing the port, and clients for it.

#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_grpc::proto;
use a2a_grpc::proto::a2a_service_client::A2aServiceClient;
use a2a_grpc::server::{GrpcConfig, GrpcInterface as _, GrpcService, SharedPort};
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::card::InterfaceUrl;
use a2a_server::{A2aService, ServiceBuilder};
use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part};
use tokio::sync::Semaphore;
use tonic::transport::Channel;

/// The test agent. Its first word picks the behaviour:
///
/// | text | behaviour |
/// |---|---|
/// | `hello` | a direct message `hi!` |
/// | `hold` | works, waits for a permit of the gate, then an artifact `after`, completes |
/// | `wait` | works until canceled |
/// | `ask` | asks for input: `input-required` with `where?` (a follow-up runs the agent again) |
/// | `burst <n>` | `n` artifact chunks of 4 KiB (`b0...`, `b1...`), then completes |
/// | anything else | an artifact `echo` with the text, completes |
pub struct TestAgent {
    pub gate: Arc<Semaphore>,
}

impl Agent for TestAgent {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let text = ctx.text();
        let (command, arg) = text.split_once(' ').unwrap_or((text.as_str(), ""));
        match command {
            "hello" => sink.reply("hi!").await?,
            "hold" => {
                sink.working(None).await?;
                sink.artifact(Artifact::new("before", vec![Part::text("before")]))
                    .await?;
                let _permit = self.gate.acquire().await;
                sink.artifact(Artifact::new("after", vec![Part::text("after")]))
                    .await?;
                sink.complete(None).await?;
            }
            "wait" => {
                sink.working(None).await?;
                ctx.cancelled().await;
            }
            "ask" => sink.input_required("where?").await?,
            "burst" => {
                sink.working(None).await?;
                let n: usize = arg.trim().parse().unwrap_or(10);
                for i in 0..n {
                    let chunk = format!("b{i}:{}", "x".repeat(4096));
                    let artifact = Artifact::new(format!("burst-{i}"), vec![Part::text(chunk)]);
                    sink.artifact(artifact).await?;
                }
                sink.complete(None).await?;
            }
            _ => {
                sink.working(None).await?;
                sink.artifact(Artifact::new("echo", vec![Part::text(text.clone())]))
                    .await?;
                sink.complete(None).await?;
            }
        }
        Ok(())
    }
}

/// The card: streaming, push notifications, an extended card; text only.
pub fn card() -> AgentCard {
    AgentCard::new("Test", "A test agent", "1.0.0")
        .with_capabilities(
            AgentCapabilities::default()
                .with_streaming(true)
                .with_push_notifications(true)
                .with_extended_agent_card(true),
        )
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
}

/// A running server; shuts down when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    pub gate: Arc<Semaphore>,
    pub service: A2aService,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl TestServer {
    /// `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A raw tonic client of the generated code.
    pub async fn grpc(&self) -> A2aServiceClient<Channel> {
        let channel = tonic::transport::Endpoint::from_shared(self.url())
            .unwrap()
            .connect()
            .await
            .unwrap();
        A2aServiceClient::new(channel)
    }
}

/// Starts the test agent with `card`; `configure` edits the builder (after the gRPC interface
/// is announced at the shared port).
pub async fn start_with(
    card: AgentCard,
    configure: impl FnOnce(ServiceBuilder) -> ServiceBuilder,
    grpc: GrpcConfig,
) -> TestServer {
    let gate = Arc::new(Semaphore::new(0));
    let agent = TestAgent { gate: gate.clone() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let builder = A2aService::builder(agent, card)
        .public_url(format!("http://{addr}"))
        .grpc_interface(InterfaceUrl::Authority);
    let service = configure(builder).build();
    let shared = SharedPort::with_grpc(
        service.clone(),
        GrpcService::with_config(service.clone(), grpc),
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = service
        .serve_config()
        .with_shutdown_deadline(Duration::from_millis(200));
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        shared,
        async move {
            let _ = stopped.await;
        },
        config,
    ));
    TestServer {
        addr,
        gate,
        service,
        stop: Some(stop),
    }
}

/// The test agent with [`card`] and an extended card.
pub async fn start() -> TestServer {
    start_with(
        card(),
        |b| {
            let mut extended = card();
            extended.description = "The extended card".to_owned();
            // Push delivery on: the card declares push notifications, push configs are taken.
            b.extended_card(extended)
                .push(a2a_server::push::PushSettings::default())
        },
        GrpcConfig::default(),
    )
    .await
}

/// A tonic request with `a2a-version: 1.0`.
pub fn v1<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("a2a-version", "1.0".parse().unwrap());
    request
}

/// A user message of one text part.
pub fn user_text(text: &str) -> proto::Message {
    proto::Message {
        message_id: format!("m-{text}"),
        role: proto::Role::User as i32,
        parts: vec![proto::Part {
            content: Some(proto::part::Content::Text(text.to_owned())),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A `SendMessageRequest` of one text part.
pub fn send(text: &str) -> proto::SendMessageRequest {
    proto::SendMessageRequest {
        message: Some(user_text(text)),
        ..Default::default()
    }
}

/// The task of a `SendMessageResponse`.
pub fn task_of(response: proto::SendMessageResponse) -> proto::Task {
    match response.payload {
        Some(proto::send_message_response::Payload::Task(task)) => task,
        other => panic!("not a task: {other:?}"),
    }
}

/// The `ErrorInfo` reason of a status.
pub fn reason(status: &tonic::Status) -> String {
    use tonic_types::StatusExt as _;
    status
        .get_details_error_info()
        .map(|info| {
            assert_eq!(info.domain, "a2a-protocol.org");
            info.reason
        })
        .unwrap_or_default()
}
