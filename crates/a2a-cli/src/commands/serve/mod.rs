//! `a2a serve`: the echo agent, or a shell command wrapped as an agent, on every binding.

mod agents;
mod args;

use a2a_server::auth::SecurityRequirements;
use a2a_server::card::CardSigning;
use a2a_server::push::PushSettings;
use a2a_server::{A2aService, HandlerConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill};

use self::agents::{Echo, Exec, Running};
use self::args::{AuthArgs, CardSignArgs, PushArgs, StoreArgs, TlsArgs};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Format;
use crate::otel::{self, OtelArgs};
use crate::output::Out;
use crate::request_log::{self, LogArgs};
use crate::serving::{RuntimeArgs, VersionArgs, listen, serve_on};

/// The arguments of `a2a serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:7420")]
    pub(crate) addr: String,
    /// Serve the echo agent (the default).
    #[arg(long, conflicts_with = "exec")]
    pub(crate) echo: bool,
    /// Serve this shell command as an agent.
    #[arg(long, value_name = "CMD")]
    pub(crate) exec: Option<String>,
    /// The agent's name on its card.
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Serve gRPC on the same port as JSON-RPC and HTTP+JSON (the default).
    #[arg(long, overrides_with = "no_grpc")]
    pub(crate) grpc: bool,
    /// Serve JSON-RPC and HTTP+JSON only.
    #[arg(long = "no-grpc")]
    pub(crate) no_grpc: bool,
    /// The protocol versions served (--a2a-version).
    #[command(flatten)]
    pub(crate) versions: VersionArgs,
    /// How requests are spread over the cores (--runtime).
    #[command(flatten)]
    pub(crate) runtime: RuntimeArgs,
    /// Deliver push notifications (the card declares them): every task event goes to the
    /// task's push configs, retried with backoff; webhook URLs pass the SSRF guard.
    #[command(flatten)]
    pub(crate) push: PushArgs,
    /// Where tasks live (--store, --store-schema, --store-lease).
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Sign the agent card (A2A 1.0 §8.4).
    #[command(flatten)]
    pub(crate) card_sign: CardSignArgs,
    /// Who may call: bearer JWTs (--jwks, --oidc-issuer), API keys (--api-key) and client
    /// certificates (--client-ca).
    #[command(flatten)]
    pub(crate) auth: AuthArgs,
    /// HTTPS (--tls-cert, --tls-key).
    #[command(flatten)]
    pub(crate) tls: TlsArgs,
    /// OTLP export of the server's spans (--otlp-endpoint).
    #[command(flatten)]
    pub(crate) otel: OtelArgs,
    /// The request log on stderr (-q, -v).
    #[command(flatten)]
    pub(crate) log: LogArgs,
}

/// Runs `a2a serve`: listens, prints the banner, serves until Ctrl-C or SIGTERM.
pub(crate) async fn run(args: ServeArgs, diag: &Diag) -> Result<(), CliError> {
    let export = args.otel.start(diag)?;
    request_log::install(&args.log, otel::layer(export.as_ref()))?;
    let served = serve(args).await;
    otel::finish(export, diag).await;
    served
}

async fn serve(args: ServeArgs) -> Result<(), CliError> {
    let ServeArgs {
        addr,
        exec,
        name,
        no_grpc,
        versions,
        push,
        store,
        card_sign,
        auth,
        tls,
        runtime,
        ..
    } = args;
    let grpc = !no_grpc;
    let versions = versions.served()?;
    let settings = format!(
        "store: {}; push: {}; auth: {}; TLS: {}",
        store.describe(),
        push.describe(),
        auth.describe(),
        tls.describe()
    );
    let push = push.settings().map_err(CliError::usage)?;
    let signing = card_sign.signing().map_err(CliError::usage)?;
    let tls = tls
        .settings(auth.client_auth().map_err(CliError::usage)?)
        .map_err(CliError::usage)?;
    let store = store.open().await?;
    let (listener, url) = listen("--addr", &addr, tls.is_some()).await?;
    let what = match &exec {
        Some(command) => format!("`{command}` as an"),
        None => "the echo".to_owned(),
    };
    let running = Running::default();
    let service = service(
        exec, name, &url, grpc, versions, push, store, signing, &auth, &running,
    )
    .map_err(CliError::usage)?;
    let mut printer = Out::new(Format::Text, false, false);
    printer.raw_line(&format!("serving {what} agent at {url}"));
    printer.raw_line(&settings);
    printer.raw_line(&format!(
        "card: {url}/.well-known/agent-card.json; try: a2a send -a {url} \"hello\"; Ctrl-C stops"
    ));
    let served = serve_on(listener, service, grpc, tls, runtime.runtime).await;
    // The commands still running when the server stops end as a cancel ends them (their whole
    // process group), before this process exits: none is left behind.
    running.end_all(stop_grace()).await;
    served
}

/// How long a command has between SIGTERM and SIGKILL, on cancel and on shutdown: the
/// handler's cancel grace, after which a canceled task ends whatever its agent does.
fn stop_grace() -> std::time::Duration {
    HandlerConfig::default().cancel_grace
}

/// The card of the agent `a2a serve` runs.
pub(crate) fn card(name: &str, description: &str, modes: &str, skill: AgentSkill) -> AgentCard {
    AgentCard::new(name, description, env!("CARGO_PKG_VERSION"))
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes([modes])
        .with_default_output_modes([modes])
        .with_skills([skill])
}

/// The service of `a2a serve` for `--echo` or `--exec CMD`, reachable at `url`: with `grpc`,
/// its card also lists the gRPC interface at the same `host:port` (served beside it by
/// `a2a_grpc::server::SharedPort`); with `push`, it delivers push notifications; with
/// `signing`, its card is signed; the commands of `--exec` are kept in `running`; the
/// protocol versions in `versions` are served.
// One argument per `a2a serve` option group; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn service(
    exec: Option<String>,
    name: Option<String>,
    url: &str,
    grpc: bool,
    versions: a2a_server::card::Versions,
    push: Option<PushSettings>,
    store: Option<args::OpenStore>,
    signing: Option<CardSigning>,
    auth: &AuthArgs,
    running: &Running,
) -> Result<A2aService, String> {
    let service = |builder: a2a_server::ServiceBuilder| {
        let builder = builder.versions(versions);
        let builder = match store {
            Some(store) => store.install(builder),
            None => builder,
        };
        use a2a_grpc::server::GrpcInterface as _;
        let builder = if grpc {
            // Over TLS the gRPC interface is the https URL itself: a bare `host:port` is
            // called in plaintext (but on port 443).
            let at = if url.starts_with("https://") {
                a2a_server::card::InterfaceUrl::Path(String::new())
            } else {
                a2a_server::card::InterfaceUrl::Authority
            };
            builder.grpc_interface(at)
        } else {
            builder
        };
        let builder = match signing {
            Some(signing) => builder.sign_card(signing),
            None => builder,
        };
        match push {
            Some(settings) => builder.push(settings).build(),
            None => builder.build(),
        }
    };
    match exec {
        None => {
            let card = card(
                name.as_deref().unwrap_or("Echo"),
                "Echoes every message as an artifact: its text, files and data.",
                "*/*",
                AgentSkill::new(
                    "echo",
                    "Echo",
                    "Repeats the message: its text, files and data.",
                    ["echo"],
                ),
            );
            let (card, authenticator) = auth.apply(card)?;
            Ok(service(guard(
                A2aService::builder(Echo, card).public_url(url),
                authenticator,
            )))
        }
        Some(command) => {
            let description = format!(
                "Runs `{command}` for each message: the message text on its stdin, its output as the artifact."
            );
            let card = card(
                name.as_deref().unwrap_or("Exec"),
                &description,
                "text/plain",
                AgentSkill::new("exec", "Run the command", description.clone(), ["exec"]),
            );
            let (card, authenticator) = auth.apply(card)?;
            Ok(service(guard(
                A2aService::builder(
                    Exec {
                        command,
                        running: running.clone(),
                        grace: stop_grace(),
                    },
                    card,
                )
                .public_url(url),
                authenticator,
            )))
        }
    }
}

/// The builder with the authenticator, if any.
fn guard(
    builder: a2a_server::ServiceBuilder,
    authenticator: Option<SecurityRequirements>,
) -> a2a_server::ServiceBuilder {
    match authenticator {
        Some(auth) => builder.authenticator(auth),
        None => builder,
    }
}
