//! What the tests of the `a2a` binary share: an agent served in-process on 127.0.0.1:0 with the
//! behaviours the checks need, the binary run with a clean environment, and readers of its
//! output.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::auth::{AuthError, Principal};
use a2a_server::{A2aService, HandlerConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact, Part};
use serde_json::Value;

/// The binary under test.
pub const A2A: &str = env!("CARGO_BIN_EXE_a2a");

/// The test agent: its first word picks what it does.
///
/// | text | what it does |
/// |---|---|
/// | `hello ...` | a direct message `hi!` (no task) |
/// | `ask` | `INPUT_REQUIRED` "Which city?"; the follow-up completes with `Sunny in <text>.` (a follow-up starting `later` first waits 300 ms, still `INPUT_REQUIRED`) |
/// | `login` | `AUTH_REQUIRED`; the follow-up completes |
/// | `wait` | works until canceled |
/// | `slow <ms>` | works `<ms>` ms, then completes with the artifact `done` |
/// | `fail` | works, then `FAILED` |
/// | `reject` | `REJECTED` |
/// | `chunks <n>` | an artifact in `<n>` chunks `c0`, `c1`... (20 ms apart), then completes |
/// | `files` | an artifact of a text, a file (raw bytes) and a data part |
/// | `ansi` | an artifact whose text holds terminal escape sequences |
/// | anything else | an artifact `echo` with the message's parts |
pub struct TestAgent;

impl Agent for TestAgent {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let text = ctx.text();
        if ctx.task.is_some() {
            if text.starts_with("later") {
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            sink.working(None).await?;
            sink.artifact(
                Artifact::new("forecast", vec![Part::text(format!("Sunny in {text}."))])
                    .with_name("forecast"),
            )
            .await?;
            sink.complete(None).await?;
            return Ok(());
        }
        let (command, arg) = text.split_once(' ').unwrap_or((text.as_str(), ""));
        let ms = |default: u64| Duration::from_millis(arg.trim().parse().unwrap_or(default));
        match command {
            "hello" => sink.reply("hi!").await?,
            "ask" => sink.input_required("Which city?").await?,
            "login" => sink.auth_required("Sign in first").await?,
            "wait" => {
                sink.working(None).await?;
                tokio::select! {
                    () = ctx.cancelled() => {}
                    () = tokio::time::sleep(Duration::from_secs(60)) => sink.complete(None).await?,
                }
            }
            "slow" => {
                sink.working(None).await?;
                tokio::select! {
                    () = ctx.cancelled() => return Ok(()),
                    () = tokio::time::sleep(ms(500)) => {}
                }
                sink.artifact(
                    Artifact::new("result", vec![Part::text("done")]).with_name("result"),
                )
                .await?;
                sink.complete(None).await?;
            }
            "fail" => {
                sink.working(None).await?;
                sink.fail("it broke").await?;
            }
            "reject" => sink.reject("not for me").await?,
            "chunks" => {
                let n: usize = arg.trim().parse().unwrap_or(3);
                sink.working(None).await?;
                for i in 0..n {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    let chunk = Artifact::new("chunks", vec![Part::text(format!("c{i}"))])
                        .with_name("chunks");
                    sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                }
                sink.complete(None).await?;
            }
            "files" => {
                sink.working(None).await?;
                sink.artifact(
                    Artifact::new(
                        "report",
                        vec![
                            Part::text("see the file"),
                            Part::raw(b"\x89PNG\r\n".to_vec())
                                .with_filename("chart.png")
                                .with_media_type("image/png"),
                            Part::data(serde_json::json!({"rows": 2})),
                        ],
                    )
                    .with_name("report"),
                )
                .await?;
                sink.complete(None).await?;
            }
            "ansi" => {
                sink.artifact(Artifact::new(
                    "ansi",
                    vec![Part::text("\u{1b}[31mred\u{1b}[0m\u{7}")],
                ))
                .await?;
                sink.complete(None).await?;
            }
            _ => {
                sink.working(None).await?;
                sink.artifact(Artifact::new("echo", ctx.message.parts.clone()).with_name("echo"))
                    .await?;
                sink.complete(None).await?;
            }
        }
        Ok(())
    }
}

/// How to build the served agent.
#[derive(Clone, Default)]
pub struct Setup {
    /// Streaming on the card (default on).
    pub no_streaming: bool,
    /// Push notifications on the card.
    pub push: bool,
    /// With `push`: sign the deliveries with a new ES256 key, its JWKS named by the card (what
    /// `a2a serve --push-sign` does).
    pub push_sign: bool,
    /// Accept only `Authorization: Bearer <token>`.
    pub bearer: Option<String>,
    /// Accept only this API key in `X-Api-Key`.
    pub api_key: Option<String>,
    /// An extended card (its name).
    pub extended: Option<String>,
    /// The security schemes of the card, as JSON (`securitySchemes`).
    pub schemes: Option<Value>,
    /// HTTPS with the self-signed certificate of `tests/fixtures/tls`.
    pub tls: bool,
    /// gRPC beside JSON-RPC and HTTP+JSON on the same port (`a2a_grpc::server::SharedPort`),
    /// its `GRPC` interface last on the card.
    pub grpc: bool,
    /// Sign the card with this ES256 key (PKCS#8 DER) under the key id `card-1` (what
    /// `a2a serve --card-key` does): its JWKS at `/.well-known/jwks.json`, named by `jku`.
    pub card_key: Option<Vec<u8>>,
}

/// An agent served in-process; stops when dropped.
pub struct Served {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The card as served.
    pub card: AgentCard,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Served {
    /// The test agent with the default card: streaming, JSON-RPC then HTTP+JSON.
    pub fn start() -> Self {
        Self::with(Setup::default())
    }

    /// The test agent as `setup` says.
    pub fn with(setup: Setup) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let scheme = if setup.tls { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().unwrap());
        let mut card = AgentCard::new("Tester", "The agent of the a2a CLI tests.", "1.0.0")
            .with_capabilities(
                AgentCapabilities::default()
                    .with_streaming(!setup.no_streaming)
                    .with_push_notifications(setup.push)
                    .with_extended_agent_card(setup.extended.is_some()),
            )
            .with_default_input_modes([
                "text/plain",
                "text/markdown",
                "application/json",
                "application/pdf",
                "image/png",
            ])
            .with_default_output_modes(["text/plain"])
            .with_skills([AgentSkill::new(
                "test",
                "Test",
                "Does what the first word says.",
                ["test"],
            )]);
        if let Some(schemes) = &setup.schemes {
            card.security_schemes = serde_json::from_value(schemes.clone()).unwrap();
        }
        let mut builder = A2aService::builder(TestAgent, card)
            .public_url(&url)
            .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(300)));
        if setup.push {
            // Deliveries go to 127.0.0.1 in these tests: open the SSRF guard for it.
            let mut settings = a2a_server::push::PushSettings::default()
                .allow("127.0.0.1/32".parse().expect("a network"));
            if setup.push_sign {
                use a2a_server::push::{Algorithm, SigningKey};
                settings = settings.sign_with(SigningKey::generate(Algorithm::Es256).unwrap());
            }
            builder = builder.push(settings);
        }
        if setup.grpc {
            use a2a_grpc::server::GrpcInterface as _;
            builder = builder.grpc_interface(a2a_server::card::InterfaceUrl::Authority);
        }
        if let Some(der) = &setup.card_key {
            use a2a_server::push::{Algorithm, SigningKey};
            let key = SigningKey::from_pkcs8(Algorithm::Es256, der)
                .unwrap()
                .with_kid("card-1");
            builder = builder.sign_card(a2a_server::card::CardSigning::new(key));
        }
        if let Some(name) = &setup.extended {
            builder =
                builder.extended_card(AgentCard::new(name.clone(), "The extended card.", "1.0.0"));
        }
        if setup.bearer.is_some() || setup.api_key.is_some() {
            let bearer = setup.bearer.clone().map(|t| format!("Bearer {t}"));
            let key = setup.api_key.clone();
            builder = builder.authenticator(move |head: &http::request::Parts| {
                let header = |name: &str| head.headers.get(name).and_then(|v| v.to_str().ok());
                let ok = bearer
                    .as_deref()
                    .is_some_and(|b| header("authorization") == Some(b))
                    || key
                        .as_deref()
                        .is_some_and(|k| header("x-api-key") == Some(k));
                if ok {
                    Ok(Some(Principal::new("tester")))
                } else if header("authorization").is_some() || header("x-api-key").is_some() {
                    Err(AuthError::forbidden("wrong credentials"))
                } else {
                    Err(AuthError::unauthorized("credentials required", "Bearer"))
                }
            });
        }
        let service = builder.build();
        let card = service.card().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tls, grpc) = (setup.tls, setup.grpc);
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                if tls {
                    tokio::select! {
                        () = serve_tls(listener, service) => {}
                        _ = stopped => {}
                    }
                } else if grpc {
                    let shared = a2a_grpc::server::SharedPort::new(service);
                    tokio::select! {
                        _ = a2a_server::serve(listener, shared) => {}
                        _ = stopped => {}
                    }
                } else {
                    tokio::select! {
                        _ = a2a_server::serve(listener, service) => {}
                        _ = stopped => {}
                    }
                }
            });
        });
        Served {
            url,
            card,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The host and port, as a bare `-a` reference (http for 127.0.0.1).
    pub fn host(&self) -> &str {
        self.url.trim_start_matches("http://")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The service over HTTPS, with the certificate of `tests/fixtures/tls`.
async fn serve_tls(listener: tokio::net::TcpListener, service: A2aService) {
    use rustls::pki_types::pem::PemObject as _;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls");
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(dir.join("cert.pem"))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(dir.join("key.pem")).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            return;
        };
        let (acceptor, service) = (acceptor.clone(), service.clone());
        tokio::spawn(async move {
            if let Ok(tls) = acceptor.accept(tcp).await {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(
                        hyper_util::rt::TokioIo::new(tls),
                        hyper_util::service::TowerToHyperService::new(service),
                    )
                    .await;
            }
        });
    }
}

static DIRS: AtomicUsize = AtomicUsize::new(0);

/// A fresh folder under the target directory's tmp, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> Self {
        let n = DIRS.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("a2a-cli-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes a file in the folder; returns its path.
    pub fn file(&self, name: &str, content: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, content).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout as one JSON document.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not one JSON document ({e}):\n{}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }

    /// stdout as JSON Lines.
    pub fn lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}"))
            })
            .collect()
    }

    /// The `Label: value` fields of stdout, outside blocks.
    pub fn fields(&self) -> Vec<(String, String)> {
        fields(&self.stdout)
    }

    /// The first value of a field.
    pub fn field(&self, label: &str) -> String {
        self.fields()
            .into_iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v)
            .unwrap_or_else(|| {
                panic!(
                    "no {label} field in:\n{}\nstderr: {}",
                    self.stdout, self.stderr
                )
            })
    }

    /// The values of every field with this label, in order.
    pub fn values(&self, label: &str) -> Vec<String> {
        self.fields()
            .into_iter()
            .filter(|(l, _)| l == label)
            .map(|(_, v)| v)
            .collect()
    }

    /// The error envelope of a `-o json` run.
    pub fn envelope(&self) -> Value {
        let value = self.json();
        value
            .get("error")
            .cloned()
            .unwrap_or_else(|| panic!("no error envelope: {value}"))
    }
}

/// The blocks of text output: label line, then content until an empty line.
pub const BLOCKS: [&str; 5] = ["Artifact", "Status-Message", "Message", "History", "Reply"];

/// The fields of text output, skipping the content of blocks.
pub fn fields(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if in_block {
            if line.is_empty() {
                in_block = false;
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let (label, value) = line
            .split_once(": ")
            .or_else(|| line.strip_suffix(':').map(|l| (l, "")))
            .unwrap_or_else(|| panic!("not a field line: {line:?} in\n{text}"));
        if BLOCKS.contains(&label) {
            in_block = true;
        }
        out.push((label.to_owned(), value.to_owned()));
    }
    out
}

/// The content of the first block with this label.
pub fn block(text: &str, label: &str) -> String {
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line == format!("{label}:") || line.starts_with(&format!("{label}: ")) {
            let content: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
            return content.join("\n");
        }
    }
    panic!("no {label} block in:\n{text}");
}

/// How to run the binary.
pub struct Cli {
    /// The working directory and the home of the run (its ~/.config).
    pub home: TempDir,
    pub env: BTreeMap<String, String>,
    pub stdin: Option<Vec<u8>>,
}

impl Cli {
    /// A run with an empty environment (but HOME and XDG_CONFIG_HOME in a fresh folder).
    pub fn new() -> Self {
        Cli {
            home: TempDir::new(),
            env: BTreeMap::new(),
            stdin: None,
        }
    }

    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.env.insert(name.to_owned(), value.to_owned());
        self
    }

    pub fn stdin(mut self, input: &[u8]) -> Self {
        self.stdin = Some(input.to_vec());
        self
    }

    /// The global configuration folder of the run.
    pub fn config_dir(&self) -> PathBuf {
        self.home.path().join("config").join("a2a-cli")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(A2A);
        command
            .args(args)
            .env_clear()
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path().join("config"))
            .current_dir(self.home.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &self.env {
            command.env(k, v);
        }
        command
    }

    /// Runs `a2a ARGS` to its end.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut command = self.command(args);
        command.stdin(if self.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        let mut child = command.spawn().expect("a2a runs");
        if let Some(input) = &self.stdin {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(input).unwrap();
        }
        let output: Output = child.wait_with_output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }

    /// Starts `a2a ARGS` and returns the child (stdout and stderr piped).
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        let mut command = self.command(args);
        command.stdin(Stdio::null());
        command.spawn().expect("a2a runs")
    }

    /// Runs `a2a ARGS -o json`, which must exit with `exit` and the envelope's `code`; returns
    /// the envelope's members.
    pub fn fails(&self, args: &[&str], exit: i32, code: &str) -> Value {
        let mut args = args.to_vec();
        args.extend(["-o", "json"]);
        let run = self.run(&args);
        assert_eq!(
            run.code, exit,
            "a2a {args:?}:\nstdout: {}\nstderr: {}",
            run.stdout, run.stderr
        );
        let envelope = run.envelope();
        assert_eq!(envelope["code"], code, "a2a {args:?}");
        envelope
    }

    /// Runs a command that must exit 0.
    pub fn ok(&self, args: &[&str]) -> Run {
        let run = self.run(args);
        assert_eq!(
            run.code, 0,
            "a2a {args:?}:\nstdout: {}\nstderr: {}",
            run.stdout, run.stderr
        );
        run
    }
}

/// `a2a ARGS` in a clean environment, which must exit 0.
pub fn ok(args: &[&str]) -> Run {
    Cli::new().ok(args)
}

/// `a2a ARGS -o json` in a clean environment, which must fail with `exit` and `code`; the
/// envelope's members.
pub fn fails(args: &[&str], exit: i32, code: &str) -> Value {
    Cli::new().fails(args, exit, code)
}

/// `a2a ARGS` in a clean environment.
pub fn run(args: &[&str]) -> Run {
    Cli::new().run(args)
}

/// A card file for the served agent, with changes: written into `dir`.
pub fn card_file(dir: &TempDir, name: &str, card: &Value) -> String {
    dir.file(name, serde_json::to_string_pretty(card).unwrap().as_bytes())
        .display()
        .to_string()
}

/// The served card as JSON.
pub fn card_json(served: &Served) -> Value {
    serde_json::to_value(&served.card).unwrap()
}

/// An interface entry.
pub fn interface(url: &str, binding: &str, tenant: Option<&str>) -> Value {
    let mut i = AgentInterface::new(url, binding, "1.0");
    i.tenant = tenant.map(str::to_owned);
    serde_json::to_value(i).unwrap()
}

/// A proxy in front of `upstream` that passes every request, but cuts each event stream right
/// after its first event, and answers `SubscribeToTask` with HTTP 400: a stream that breaks
/// and cannot be resumed. Stops when dropped.
pub struct CuttingProxy {
    pub url: String,
    pub subscribes: Arc<AtomicUsize>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl CuttingProxy {
    pub fn start(upstream: &str, refuse_resubscribe: bool) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let upstream = upstream.trim_start_matches("http://").to_owned();
        let subscribes = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (seen, halt) = (subscribes.clone(), stop.clone());
        listener.set_nonblocking(true).unwrap();
        std::thread::spawn(move || {
            while !halt.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let upstream = upstream.clone();
                        let seen = seen.clone();
                        std::thread::spawn(move || {
                            let _ = proxy_one(client, &upstream, refuse_resubscribe, &seen);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        CuttingProxy {
            url,
            subscribes,
            stop,
        }
    }
}

impl Drop for CuttingProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Reads one HTTP/1.1 request (head and Content-Length body).
fn read_request(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte)? == 0 {
            return Ok(buf);
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body)?;
    buf.extend_from_slice(&body);
    Ok(buf)
}

fn proxy_one(
    mut client: TcpStream,
    upstream: &str,
    refuse: bool,
    seen: &AtomicUsize,
) -> std::io::Result<()> {
    client.set_read_timeout(Some(Duration::from_secs(10)))?;
    let request = read_request(&mut client)?;
    let text = String::from_utf8_lossy(&request);
    if text.contains("SubscribeToTask") || text.contains(":subscribe") {
        seen.fetch_add(1, Ordering::Relaxed);
        if refuse {
            client.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 7\r\nconnection: close\r\n\r\nno more")?;
            return Ok(());
        }
    }
    // One request per connection upstream.
    let request = text.replacen("\r\n", "\r\nconnection: close\r\n", 1);
    let mut server = TcpStream::connect(upstream)?;
    server.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = server.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..n]);
        let head = String::from_utf8_lossy(&answer).to_ascii_lowercase();
        if head.contains("text/event-stream") && head.contains("\r\n\r\n") {
            // Pass the head and the first event, then cut.
            if let Some(start) = head.find("\r\n\r\n")
                && let Some(end) = head[start + 4..].find("\n\n")
            {
                client.write_all(&answer[..start + 4 + end + 2])?;
                let _ = client.flush();
                return Ok(());
            }
        }
    }
    client.write_all(&answer)
}

/// A scripted OAuth 2 authorization server: `POST /device` starts a device-code login (user
/// code `WDJB-MJHT`), `POST /token` answers `authorization_pending` `pending` times, then the
/// token `tok-device`; the client-credentials grant with client `cli` and secret `s3cret`
/// (HTTP Basic) gets `tok-cc`. Every request is kept.
pub struct OAuthServer {
    pub url: String,
    pub requests: Requests,
}

impl OAuthServer {
    pub fn start(pending: usize) -> Self {
        let mut pending = pending;
        let own_url = Arc::new(std::sync::OnceLock::<String>::new());
        let known = own_url.clone();
        let (url, requests) = scripted(move |text| {
            let basic = format!("basic {}", base64_cli_secret());
            let (status, body) = if text.starts_with("GET /.well-known/openid-configuration") {
                // OpenID Connect discovery: the same endpoints.
                let base = known.get().cloned().unwrap_or_default();
                (
                    "200 OK",
                    format!(
                        r#"{{"issuer":"{base}","token_endpoint":"{base}/token","device_authorization_endpoint":"{base}/device","jwks_uri":"{base}/jwks"}}"#
                    ),
                )
            } else if text.starts_with("POST /device") {
                ("200 OK", r#"{"device_code":"dev-code-1","user_code":"WDJB-MJHT","verification_uri":"https://login.example/activate","expires_in":60,"interval":0}"#.to_owned())
            } else if text
                .contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code")
            {
                if pending > 0 {
                    pending -= 1;
                    (
                        "400 Bad Request",
                        r#"{"error":"authorization_pending"}"#.to_owned(),
                    )
                } else {
                    (
                        "200 OK",
                        r#"{"access_token":"tok-device","token_type":"Bearer","expires_in":3600}"#
                            .to_owned(),
                    )
                }
            } else if text.contains("grant_type=client_credentials") {
                if text.to_ascii_lowercase().contains(&basic) {
                    (
                        "200 OK",
                        r#"{"access_token":"tok-cc","token_type":"Bearer","expires_in":3600}"#
                            .to_owned(),
                    )
                } else {
                    (
                        "401 Unauthorized",
                        r#"{"error":"invalid_client"}"#.to_owned(),
                    )
                }
            } else {
                ("404 Not Found", "{}".to_owned())
            };
            format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        });
        let _ = own_url.set(url.clone());
        OAuthServer { url, requests }
    }
}

/// The requests a scripted server kept, as text.
pub type Requests = Arc<std::sync::Mutex<Vec<String>>>;

/// A scripted HTTP/1.1 server on 127.0.0.1:0, one request per connection: `answer` turns each
/// request (as text) into the whole response. Its URL, and every request it got.
fn scripted(mut answer: impl FnMut(&str) -> Vec<u8> + Send + 'static) -> (String, Requests) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests = Requests::default();
    let seen = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let Ok(request) = read_request(&mut stream) else {
                continue;
            };
            let text = String::from_utf8_lossy(&request).into_owned();
            seen.lock().unwrap().push(text.clone());
            let _ = stream.write_all(&answer(&text));
        }
    });
    (url, requests)
}

/// `base64("cli:s3cret")`.
fn base64_cli_secret() -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .encode("cli:s3cret")
        .to_ascii_lowercase()
}

/// A scripted JSON-RPC agent without streaming whose `GetTask` answers the task `t-1` in each
/// of `states` in turn (the last one again and again): states our own server never reaches,
/// such as `TASK_STATE_UNSPECIFIED`. HTTP/1.1 with keep-alive.
pub struct ScriptedAgent {
    pub url: String,
}

impl ScriptedAgent {
    pub fn start(states: &[&str]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let card = serde_json::json!({
            "name": "Scripted", "description": "Answers GetTask from a script.", "version": "1",
            "supportedInterfaces": [{"url": format!("{url}/"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"]}],
        });
        let states: Vec<String> = states.iter().map(|s| (*s).to_owned()).collect();
        let next = Arc::new(AtomicUsize::new(0));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let (card, states, next) = (card.clone(), states.clone(), next.clone());
                std::thread::spawn(move || {
                    while let Ok(request) = read_request(&mut stream) {
                        if request.is_empty() {
                            return;
                        }
                        let text = String::from_utf8_lossy(&request).into_owned();
                        let body = if text.starts_with("GET ") {
                            card.to_string()
                        } else {
                            let json = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
                            let call: Value = serde_json::from_str(json).unwrap_or(Value::Null);
                            let n = next.fetch_add(1, Ordering::Relaxed).min(states.len() - 1);
                            serde_json::json!({"jsonrpc": "2.0", "id": call["id"], "result": {
                                "id": "t-1", "contextId": "c-1", "status": {"state": states[n]}}})
                            .to_string()
                        };
                        let answer = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        if stream.write_all(answer.as_bytes()).is_err() {
                            return;
                        }
                    }
                });
            }
        });
        ScriptedAgent { url }
    }
}

/// A scripted file host: `GET PATH` answers what `routes` says for the path (status line, extra
/// header lines, body), anything else 404. Every request line is kept.
pub struct FileServer {
    pub url: String,
    pub requests: Requests,
}

/// One answer of a [`FileServer`]: the path, the status (`"200 OK"`), header lines, the body.
pub type Route = (&'static str, &'static str, Vec<String>, Vec<u8>);

impl FileServer {
    /// Serves `routes` on 127.0.0.1:0, in a thread, until the tests end.
    pub fn start(routes: Vec<Route>) -> Self {
        let (url, requests) = scripted(move |text| {
            let path = text.split_whitespace().nth(1).unwrap_or("");
            let (status, headers, body) = routes
                .iter()
                .find(|(p, ..)| *p == path)
                .map(|(_, s, h, b)| (*s, h.clone(), b.clone()))
                .unwrap_or(("404 Not Found", Vec::new(), b"no such file".to_vec()));
            let mut answer = format!(
                "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n",
                body.len()
            );
            for header in headers {
                answer.push_str(&format!("{header}\r\n"));
            }
            answer.push_str("\r\n");
            let mut answer = answer.into_bytes();
            answer.extend_from_slice(&body);
            answer
        });
        FileServer { url, requests }
    }
}

/// `a2a mock --addr 127.0.0.1:0 -q ARGS` (the built-in demo agent without a script); killed
/// when dropped.
pub struct Mock {
    child: std::process::Child,
    /// The URL of the first line (`serving the mock agent NAME at URL`).
    pub url: String,
    /// The lines printed after the first, up to the `card:` line.
    pub banner: Vec<String>,
}

impl Mock {
    pub fn start(args: &[&str]) -> Self {
        use std::io::BufRead as _;
        let mut child = Command::new(A2A)
            // The request log (its own test reads it) left out of the tests' output.
            .args(["mock", "--addr", "127.0.0.1:0", "-q"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("a2a mock starts");
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
            .to_owned();
        let mut banner = vec![first.trim_end().to_owned()];
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            let done = line.starts_with("card:");
            banner.push(line.trim_end().to_owned());
            if done {
                break;
            }
        }
        Mock { child, url, banner }
    }

    /// `host:port`.
    pub fn host(&self) -> &str {
        self.url.trim_start_matches("http://")
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `a2a serve` as a child process on 127.0.0.1 port 0, with `args` after `--addr`; killed
/// (SIGKILL, no shutdown of any kind) when dropped or by [`kill`](Self::kill).
pub struct Serve {
    child: Child,
    /// The URL `a2a serve` printed on its first line.
    pub url: String,
}

impl Serve {
    /// Starts `a2a serve --addr 127.0.0.1:0 -q ARGS...` and reads the URL from its first line.
    pub fn start(args: &[&str]) -> Self {
        let mut child = Command::new(A2A)
            // The request log (its own test reads it) left out of the tests' output.
            .args(["serve", "--addr", "127.0.0.1:0", "-q"])
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
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
            .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
            .to_owned();
        Serve { child, url }
    }

    /// The process, for signals and waiting.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// `kill -9`, and waits for the process to be gone.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
