//! `a2a serve`: the echo agent, or a shell command wrapped as an agent.

use std::path::PathBuf;
use std::process::Stdio;

use std::sync::Arc;

use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::auth::jwt::{JwtAuthenticator, JwtConfig, KeySource};
use a2a_server::auth::mtls::MtlsAuthenticator;
use a2a_server::auth::{
    ApiKeyAuthenticator, ApiKeyLocation, Authenticator, Principal, SecurityRequirements,
};
use a2a_server::card::CardSigning;
use a2a_server::push::{Algorithm, IpNet, PushSettings, SigningKey};
use a2a_server::tls::{CaBundle, ClientAuth, TlsSettings};
use a2a_server::{A2aService, HandlerConfig};
use a2a_store_sql::{Dialect, SqlConfig, SqlStore};
use a2a_types::v1::{
    AgentCapabilities, AgentCard, AgentSkill, ApiKeySecurityScheme, Artifact,
    HttpAuthSecurityScheme, MutualTlsSecurityScheme, OpenIdConnectSecurityScheme, Part,
    SecurityRequirement,
};

use crate::error::{CliError, Code};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};

/// Echoes each message back as an artifact: the same parts (text, files, data).
pub(crate) struct Echo;

impl Agent for Echo {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.working(None).await?;
        sink.artifact(Artifact::new("echo", ctx.message.parts.clone()).with_name("echo"))
            .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

/// Runs a shell command for each message: the message text on its stdin, its stdout as the
/// artifact (streamed line by line), its exit status as completed or failed.
pub(crate) struct Exec {
    pub(crate) command: String,
}

/// How many lines of stderr go into the status message of a failed task.
const STDERR_LINES: usize = 5;
/// How much of stderr is kept (its end).
const STDERR_KEEP: usize = 64 * 1024;

impl Agent for Exec {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.working(None).await?;
        let mut command = tokio::process::Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // A process group of its own, so that a cancel stops what the command started too.
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command
            .spawn()
            .map_err(|err| AgentError::new(format!("cannot run `{}`: {err}", self.command)))?;

        // The text goes in from its own task, so that a command that does not read its stdin
        // (or reads it slowly) cannot block the reading of its output.
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let text = ctx.text();
        tokio::spawn(async move {
            let _ = stdin.write_all(text.as_bytes()).await;
            // Dropping stdin closes it: the command sees the end of its input.
        });
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let stderr_task = tokio::spawn(async move {
            let mut kept = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > STDERR_KEEP {
                    kept.drain(..kept.len() - STDERR_KEEP);
                }
            }
            kept
        });

        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut output = Output::default();
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = tokio::select! {
                biased;
                () = ctx.cancelled() => {
                    stop(&mut child).await;
                    return Ok(());
                }
                read = stdout.read_until(b'\n', &mut line) => read,
            };
            match read {
                Ok(0) => break,
                Ok(_) => {
                    output
                        .push(&sink, String::from_utf8_lossy(&line).into_owned())
                        .await?;
                }
                Err(err) => {
                    return Err(AgentError::new(format!(
                        "cannot read the output of `{}`: {err}",
                        self.command
                    )));
                }
            }
        }
        let status = tokio::select! {
            biased;
            () = ctx.cancelled() => {
                stop(&mut child).await;
                return Ok(());
            }
            status = child.wait() => status.map_err(|err| AgentError::new(format!("`{}` did not finish: {err}", self.command)))?,
        };
        let stderr = stderr_task.await.unwrap_or_default();
        output.finish(&sink, status.success()).await?;
        if status.success() {
            sink.complete(None).await?;
            return Ok(());
        }
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".to_owned(),
        };
        let stderr = String::from_utf8_lossy(&stderr);
        let tail: Vec<&str> = stderr
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        let tail = &tail[tail.len().saturating_sub(STDERR_LINES)..];
        let mut message = format!("`{}` {how}", self.command);
        if !tail.is_empty() {
            message.push_str(":\n");
            message.push_str(&tail.join("\n"));
        }
        sink.fail(message).await?;
        Ok(())
    }
}

/// Kills the command and, on Unix, every process of its group (what it started).
async fn stop(child: &mut tokio::process::Child) {
    #[cfg(unix)]
    if let Some(pid) = child.id() {
        // The group's id is the command's pid (`process_group(0)`); `kill` takes it negated.
        let _ = tokio::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .await;
    }
    let _ = child.kill().await;
}

/// The command's stdout as chunks of one artifact: each line goes out when the next one
/// arrives, so that the last line can carry `lastChunk`.
#[derive(Default)]
struct Output {
    held: Option<String>,
    sent: usize,
}

impl Output {
    async fn push(&mut self, sink: &EventSink, line: String) -> Result<(), AgentError> {
        if let Some(previous) = self.held.replace(line) {
            self.send(sink, previous, false).await?;
        }
        Ok(())
    }

    async fn finish(&mut self, sink: &EventSink, success: bool) -> Result<(), AgentError> {
        match self.held.take() {
            Some(last) => self.send(sink, last, true).await,
            // No output at all: a completed task still gets its (empty) artifact.
            None if success => self.send(sink, String::new(), true).await,
            None => Ok(()),
        }
    }

    async fn send(&mut self, sink: &EventSink, text: String, last: bool) -> Result<(), AgentError> {
        let artifact = Artifact::new("output", vec![Part::text(text)]).with_name("stdout");
        sink.artifact_chunk(artifact, self.sent > 0, last).await?;
        self.sent += 1;
        Ok(())
    }
}

/// The card of the agent `a2a serve` runs.
pub(crate) fn card(name: &str, description: &str, modes: &str, skill: AgentSkill) -> AgentCard {
    AgentCard::new(name, description, env!("CARGO_PKG_VERSION"))
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes([modes])
        .with_default_output_modes([modes])
        .with_skills([skill])
}

/// The push-notification options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct PushArgs {
    /// Deliver push notifications: the card declares them, and every task event is POSTed to
    /// the task's push configs (retried with backoff; docs/push.md).
    #[arg(long)]
    push: bool,
    /// Let webhooks be in this network despite the SSRF guard, e.g. 127.0.0.1 for a receiver
    /// on this machine, or 10.0.0.0/8 (repeatable; implies --push).
    #[arg(long, value_name = "NET")]
    push_allow: Vec<String>,
    /// Sign deliveries with this ES256 key (a PKCS#8 PEM file), and serve its JWKS at
    /// /.well-known/jwks.json (implies --push).
    #[arg(long, value_name = "PEM")]
    push_key: Option<std::path::PathBuf>,
    /// Sign deliveries with a new ES256 key made at start (implies --push).
    #[arg(long, conflicts_with = "push_key")]
    push_sign: bool,
}

impl PushArgs {
    /// The push settings the options ask for; `None` without push.
    pub(crate) fn settings(&self) -> Result<Option<PushSettings>, String> {
        if !(self.push || !self.push_allow.is_empty() || self.push_key.is_some() || self.push_sign)
        {
            return Ok(None);
        }
        let mut settings = PushSettings::default();
        for net in &self.push_allow {
            let net: IpNet = net.parse().map_err(|e| format!("--push-allow: {e}"))?;
            settings = settings.allow(net);
        }
        let key = match &self.push_key {
            Some(path) => {
                let pem = std::fs::read_to_string(path)
                    .map_err(|e| format!("--push-key: cannot read {}: {e}", path.display()))?;
                Some(
                    SigningKey::from_pkcs8_pem(Algorithm::Es256, &pem)
                        .map_err(|e| format!("--push-key {}: {e}", path.display()))?,
                )
            }
            None if self.push_sign => Some(
                SigningKey::generate(Algorithm::Es256).map_err(|e| format!("--push-sign: {e}"))?,
            ),
            None => None,
        };
        if let Some(key) = key {
            settings = settings.sign_with(key);
        }
        Ok(Some(settings))
    }
}

/// The card-signing options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct CardSignArgs {
    /// Sign the agent card with this key (a PKCS#8 PEM file: ES256 on P-256, Ed25519, or RS256
    /// on an RSA key of 2048 to 8192 bits), and list its public key in the JWKS at /.well-known/jwks.json, which the signature's `jku`
    /// names.
    #[arg(long, value_name = "PEM")]
    card_key: Option<std::path::PathBuf>,
    /// Sign the agent card with a new ES256 key made at start.
    #[arg(long, conflicts_with = "card_key")]
    card_sign: bool,
    /// The key id (`kid`) of the card's signing key (default: its RFC 7638 thumbprint).
    #[arg(long, value_name = "KID")]
    card_kid: Option<String>,
}

impl CardSignArgs {
    /// How the card is signed; `None` when it is not.
    pub(crate) fn signing(&self) -> Result<Option<CardSigning>, String> {
        let key = match &self.card_key {
            Some(path) => {
                let pem = std::fs::read_to_string(path)
                    .map_err(|e| format!("--card-key: cannot read {}: {e}", path.display()))?;
                SigningKey::from_pkcs8_pem(Algorithm::Es256, &pem)
                    .or_else(|_| SigningKey::from_pkcs8_pem(Algorithm::EdDsa, &pem))
                    .or_else(|_| SigningKey::from_pkcs8_pem(Algorithm::Rs256, &pem))
                    .map_err(|e| {
                        format!(
                            "--card-key {}: not a PKCS#8 PEM key for ES256 (P-256), EdDSA \
                             (Ed25519) or RS256 (RSA, 2048 to 8192 bits): {e}",
                            path.display()
                        )
                    })?
            }
            None if self.card_sign => {
                SigningKey::generate(Algorithm::Es256).map_err(|e| format!("--card-sign: {e}"))?
            }
            None if self.card_kid.is_some() => {
                return Err("--card-kid names the key of --card-key or --card-sign".to_owned());
            }
            None => return Ok(None),
        };
        let key = match &self.card_kid {
            Some(kid) => key.with_kid(kid.clone()),
            None => key,
        };
        Ok(Some(CardSigning::new(key)))
    }
}

/// The authentication options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct AuthArgs {
    /// Require a bearer JWT whose signature verifies with a key of this JWKS URL (refreshed
    /// when a token names an unknown key); requests without one get 401 with
    /// `WWW-Authenticate: Bearer`. The card declares the Bearer scheme.
    #[arg(long, value_name = "URL", conflicts_with = "oidc_issuer")]
    jwks: Option<String>,
    /// Require a bearer JWT of this OpenID Connect issuer (keys found through its discovery
    /// document; `iss` must be the issuer). The card declares the OpenID Connect scheme.
    #[arg(long = "oidc-issuer", value_name = "URL")]
    oidc_issuer: Option<String>,
    /// The `aud` tokens must carry (repeatable: any of them).
    #[arg(long, value_name = "AUD")]
    audience: Vec<String>,
    /// The `iss` tokens must carry (with --jwks).
    #[arg(long, value_name = "ISS")]
    issuer: Option<String>,
    /// Accept this API key in the `X-API-Key` header, as `NAME=KEY` (the caller is NAME) or
    /// `KEY` (the caller is `api-key-N`); repeatable. With a token option too, either one
    /// suffices. Prefer A2A_SERVE_API_KEY: a flag's value is visible in the process table.
    #[arg(
        long = "api-key",
        env = "A2A_SERVE_API_KEY",
        hide_env_values = true,
        value_name = "KEY"
    )]
    api_key: Vec<String>,
    /// Mutual TLS (with --tls-cert): ask clients for a certificate issued by a CA of this PEM
    /// file. The card declares an mtlsSecurityScheme; the caller is the certificate's first URI
    /// SAN, else its first DNS SAN, else its subject CN; a request without a certificate gets
    /// 401 with `WWW-Authenticate: MutualTLS` (an untrusted or expired one fails the handshake).
    #[arg(long = "client-ca", value_name = "PEM", requires = "tls_cert")]
    client_ca: Option<PathBuf>,
    /// With --client-ca: refuse the TLS handshake of a client without a valid certificate, so
    /// that none of its requests (the card's included) reaches the agent.
    #[arg(long = "client-cert-required", requires = "client_ca")]
    client_cert_required: bool,
}

impl AuthArgs {
    /// Whether any caller check is asked for.
    pub(crate) fn any(&self) -> bool {
        self.jwks.is_some()
            || self.oidc_issuer.is_some()
            || !self.api_key.is_empty()
            || self.client_ca.is_some()
    }

    /// The client certificates `--client-ca` and `--client-cert-required` ask for, if any.
    pub(crate) fn client_auth(&self) -> Result<Option<ClientAuth>, String> {
        let Some(path) = &self.client_ca else {
            return Ok(None);
        };
        let pem =
            std::fs::read(path).map_err(|e| format!("--client-ca {}: {e}", path.display()))?;
        let bundle =
            CaBundle::from_pem(pem).map_err(|e| format!("--client-ca {}: {e}", path.display()))?;
        Ok(Some(if self.client_cert_required {
            ClientAuth::Required(bundle)
        } else {
            ClientAuth::Optional(bundle)
        }))
    }

    /// Declares the schemes in the card and builds the authenticator that follows its
    /// security requirements (any one scheme suffices); `None` without any option.
    pub(crate) fn apply(
        &self,
        card: AgentCard,
    ) -> Result<(AgentCard, Option<SecurityRequirements>), String> {
        if !self.any() {
            return Ok((card, None));
        }
        let mut card = card;
        let mut schemes: Vec<(&str, Arc<dyn Authenticator>)> = Vec::new();
        let mut config = JwtConfig::new();
        for audience in &self.audience {
            config = config.with_audience(audience.clone());
        }
        if let Some(issuer) = &self.issuer {
            config = config.with_issuer(issuer.clone());
        }
        if let Some(url) = &self.jwks {
            let jwt = JwtAuthenticator::new(KeySource::JwksUrl(url.clone()), config.clone())
                .map_err(|e| format!("--jwks: {e}"))?;
            card = card.with_security_scheme(
                "bearer",
                HttpAuthSecurityScheme::new("Bearer").with_bearer_format("JWT"),
            );
            schemes.push(("bearer", Arc::new(jwt)));
        }
        if let Some(issuer) = &self.oidc_issuer {
            let jwt = JwtAuthenticator::new(KeySource::OidcIssuer(issuer.clone()), config)
                .map_err(|e| format!("--oidc-issuer: {e}"))?;
            card = card.with_security_scheme(
                "oidc",
                OpenIdConnectSecurityScheme::new(format!(
                    "{}/.well-known/openid-configuration",
                    issuer.trim_end_matches('/')
                )),
            );
            schemes.push(("oidc", Arc::new(jwt)));
        }
        if !self.api_key.is_empty() {
            let mut keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "X-API-Key");
            for (n, given) in self.api_key.iter().enumerate() {
                let (name, key) = match given.split_once('=') {
                    Some((name, key)) if !name.is_empty() => (name.to_owned(), key),
                    _ => (format!("api-key-{}", n + 1), given.as_str()),
                };
                if key.is_empty() {
                    return Err(format!("--api-key `{name}=`: the key is empty"));
                }
                keys = keys.key(key, Principal::new(name));
            }
            card = card
                .with_security_scheme("apiKey", ApiKeySecurityScheme::new("header", "X-API-Key"));
            schemes.push(("apiKey", Arc::new(keys)));
        }
        if self.client_ca.is_some() {
            card = card.with_security_scheme(
                "mtls",
                MutualTlsSecurityScheme::new()
                    .with_description("A client certificate issued by the agent's client CA"),
            );
            schemes.push(("mtls", Arc::new(MtlsAuthenticator::new())));
        }
        card.security_requirements = schemes
            .iter()
            .map(|(name, _)| SecurityRequirement::new().with_scheme(*name, Vec::<String>::new()))
            .collect();
        let auth = SecurityRequirements::from_card(&card, schemes)?;
        Ok((card, Some(auth)))
    }
}

/// HTTPS for `a2a serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct TlsArgs {
    /// Serve HTTPS (and gRPC over TLS) with this certificate chain: a PEM file with the
    /// server's certificate first, then its intermediates; with --tls-key. The card's
    /// interfaces are then https URLs. HTTP/2 or HTTP/1.1 is chosen by ALPN.
    #[arg(long = "tls-cert", value_name = "PEM", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert: a PEM file (PKCS#8, RSA or EC).
    #[arg(long = "tls-key", value_name = "PEM", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
}

impl TlsArgs {
    /// The TLS settings, with `client_auth`; `None` without --tls-cert.
    pub(crate) fn settings(
        &self,
        client_auth: Option<ClientAuth>,
    ) -> Result<Option<TlsSettings>, String> {
        let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) else {
            return Ok(None);
        };
        let read = |flag: &str, path: &PathBuf| {
            std::fs::read(path).map_err(|e| format!("{flag} {}: {e}", path.display()))
        };
        let settings = TlsSettings::from_pem(read("--tls-cert", cert)?, read("--tls-key", key)?)
            .map_err(|e| {
                format!(
                    "--tls-cert {} --tls-key {}: {e}",
                    cert.display(),
                    key.display()
                )
            })?;
        Ok(Some(match client_auth {
            Some(client_auth) => settings.with_client_auth(client_auth),
            None => settings,
        }))
    }
}

/// The task store options of `a2a serve`.
#[derive(Debug)]
pub(crate) struct StoreArgs {
    /// `memory`, `sqlite://PATH` or `postgres://...`.
    pub(crate) url: String,
    /// The PostgreSQL schema.
    pub(crate) schema: Option<String>,
    /// The lease of running tasks, in seconds.
    pub(crate) lease: f64,
}

impl StoreArgs {
    /// The SQL store the options name (connected and migrated); `None` for `memory`.
    pub(crate) async fn open(&self) -> Result<Option<SqlStore>, CliError> {
        if self.url == "memory" {
            if self.schema.is_some() {
                return Err(CliError::usage(
                    "--store-schema needs --store postgres://...".to_owned(),
                ));
            }
            return Ok(None);
        }
        let dialect =
            Dialect::of(&self.url).map_err(|err| CliError::usage(format!("--store: {err}")))?;
        let lease = std::time::Duration::try_from_secs_f64(self.lease)
            .ok()
            .filter(|lease| !lease.is_zero())
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--store-lease must be a positive number of seconds, got {}",
                    self.lease
                ))
            })?;
        let mut config = SqlConfig::new(&self.url).with_lease(Some(lease));
        match (&self.schema, dialect) {
            (Some(schema), Dialect::Postgres) => config = config.with_schema(schema),
            (Some(_), _) => {
                return Err(CliError::usage(
                    "--store-schema needs --store postgres://...".to_owned(),
                ));
            }
            (None, _) => {}
        }
        SqlStore::connect(config)
            .await
            .map(Some)
            .map_err(|err| CliError::new(Code::Unreachable, format!("--store: {err}")))
    }
}

/// The service of `a2a serve` for `--echo` or `--exec CMD`, reachable at `url`: with `grpc`,
/// its card also lists the gRPC interface at the same `host:port` (served beside it by
/// `a2a_grpc::server::SharedPort`); with `push`, it delivers push notifications; with
/// `signing`, its card is signed.
// One argument per `a2a serve` option group; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn service(
    exec: Option<String>,
    name: Option<String>,
    url: &str,
    grpc: bool,
    push: Option<PushSettings>,
    store: Option<SqlStore>,
    signing: Option<CardSigning>,
    auth: &AuthArgs,
) -> Result<A2aService, String> {
    let service = |builder: a2a_server::ServiceBuilder| {
        let builder = match store {
            Some(store) => {
                // PostgreSQL is shared by replicas: an agent here stops when another replica
                // cancels its task.
                let shared = store.dialect() == Dialect::Postgres;
                builder
                    .handler_config(HandlerConfig::default().with_shared_store(shared))
                    .store(store)
            }
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
                A2aService::builder(Exec { command }, card).public_url(url),
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
