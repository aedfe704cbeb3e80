//! From `-a REF` to a client: the card reference, the card, the interface, the credentials.
//!
//! * A reference is a card file (`file://...`, or a path that exists, starts with `/`, `.` or
//!   `~`, or ends in `.json`), a URL (an origin gets `/.well-known/agent-card.json`, then the
//!   legacy `/.well-known/agent.json`; a URL with a path is the card's own URL), or a bare host
//!   (`127.0.0.1:7420`, `agent.example.com/card.json`: http for a loopback host, https for any
//!   other).
//! * The public card is fetched without credentials.
//! * The interface is the card's first supported one, or the first of the `--transport`
//!   preferences the card offers (the client decides; see `a2a_client::card`).
//! * Credentials go where the card's security schemes say, placed by
//!   `a2a_client::credentials` (`Credentials::for_schemes`): a bearer token (`--bearer`, or the
//!   token `a2a auth login` stored) as `Authorization: Bearer` when a scheme takes one (HTTP
//!   bearer, OAuth 2, OpenID Connect) or the card declares no scheme at all; an API key in the
//!   header, query parameter or cookie of the card's API-key scheme. A credential no declared
//!   scheme takes is not sent (a warning says so).
//! * `-e/--endpoint URL` with one `--transport` skips the card: the client calls that
//!   interface (in `--a2a-version`), as if a card listed only it and declared no security
//!   scheme (so `--bearer` is sent) and push notifications; a stream is opened when a command
//!   asks for one (`send --stream`, `task subscribe`), and the agent's answer decides.

use std::path::PathBuf;

use a2a_client::credentials::{CardCredentials, Credentials};
use a2a_client::{A2aClient, CallInfo, ClientBuilder, Error, RetryPolicy};
use a2a_types::protocol::{content_type, headers, paths};
use a2a_types::v1::{AgentCard, SecurityScheme};
use bytes::Bytes;
use http::HeaderValue;

use crate::diag::Diag;
use crate::error::{CliError, Code, Context, quote};
use crate::options::Common;

/// Where a card is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CardRef {
    /// URLs to try in order (the well-known paths of an origin, or the one card URL).
    Url(Vec<String>),
    /// A local file.
    File(PathBuf),
}

/// Reads `-a REF`.
pub(crate) fn parse_ref(reference: &str) -> Result<CardRef, CliError> {
    let text = reference.trim();
    if text.is_empty() {
        return Err(no_agent());
    }
    if let Some(rest) = text.strip_prefix("file://") {
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        return Ok(CardRef::File(PathBuf::from(path)));
    }
    if let Some((scheme, rest)) = text.split_once("://") {
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return Err(CliError::new(
                Code::CardNotFound,
                format!(
                    "cannot fetch an agent card from `{text}`: the scheme must be http, https or file"
                ),
            ));
        }
        return Ok(CardRef::Url(card_urls(&scheme.to_ascii_lowercase(), rest)));
    }
    let path = PathBuf::from(expand_home(text));
    if path.exists()
        || text.starts_with(['/', '.', '~'])
        || text.to_ascii_lowercase().ends_with(".json") && !looks_like_host(text)
    {
        return Ok(CardRef::File(path));
    }
    let host = text.split(['/', '?', '#']).next().unwrap_or(text);
    let scheme = if is_loopback(host) { "http" } else { "https" };
    Ok(CardRef::Url(card_urls(scheme, text)))
}

/// A bare host with a path to a `.json` card: `agent.example.com/card.json`.
fn looks_like_host(text: &str) -> bool {
    text.split_once('/')
        .is_some_and(|(host, _)| host.contains('.') || host.contains(':'))
}

fn expand_home(text: &str) -> String {
    match (text.strip_prefix("~/"), std::env::var("HOME")) {
        (Some(rest), Ok(home)) => format!("{home}/{rest}"),
        _ => text.to_owned(),
    }
}

/// `localhost`, `127.x.x.x`, `[::1]`, with or without a port.
fn is_loopback(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    name.eq_ignore_ascii_case("localhost")
        || name == "::1"
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The URLs for `scheme://rest`: the well-known paths for an origin, else the URL itself.
fn card_urls(scheme: &str, rest: &str) -> Vec<String> {
    let (authority, path) = match rest.find(['/', '?', '#']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    if path.is_empty() || path == "/" {
        vec![
            format!("{scheme}://{authority}{}", paths::AGENT_CARD),
            format!("{scheme}://{authority}{}", paths::LEGACY_AGENT_CARD),
        ]
    } else {
        vec![format!("{scheme}://{authority}{path}")]
    }
}

fn no_agent() -> CliError {
    CliError::usage("no agent: say which one with -a/--agent-card REF (or A2ACLI_AGENT_CARD)")
        .hint("e.g. `a2a card get -a 127.0.0.1:7420` for an agent started with `a2a serve`")
}

/// A card, as read.
#[derive(Clone, Debug)]
pub(crate) struct Card {
    /// The card, in the 1.0 model.
    pub(crate) card: AgentCard,
    /// The document as read.
    pub(crate) raw: Bytes,
    /// The URL it was fetched from (`None` for a file).
    pub(crate) url: Option<String>,
    /// Where it came from, for messages.
    pub(crate) source: String,
}

/// `builder` with the `--debug` log of the wire exchange, added last so that it shows the
/// requests as they leave (headers the other interceptors set included, redacted).
pub(crate) fn logged(builder: ClientBuilder, diag: &Diag) -> ClientBuilder {
    builder.interceptor(diag.interceptor())
}

/// The builder with the settings of the options, without credentials or the `--debug` log
/// (see [`logged`]).
pub(crate) fn builder(opts: &Common, diag: &Diag) -> Result<ClientBuilder, CliError> {
    let mut builder = A2aClient::builder()
        .timeout(opts.timeout)
        .retry(RetryPolicy::default().with_max_attempts(opts.retries.saturating_add(1)))
        .preferred_transports(opts.transports.iter().cloned())
        .danger_accept_invalid_certs(opts.insecure)
        // `--transport GRPC` (or a card that lists gRPC first) calls over gRPC.
        .transport(a2a_grpc::client::GrpcTransportFactory::new());
    builder = tls(builder, opts)?;
    builder = version(builder, &opts.a2a_version)?;
    for uri in &opts.extensions {
        builder = builder.extension(uri.trim());
    }
    for header in &opts.headers {
        let Some((name, value)) = header.split_once(':') else {
            return Err(CliError::usage(format!(
                "-H/--header `{}` is not of the form `NAME: VALUE`",
                diag.redact(header)
            )));
        };
        diag.hide_header(name);
        diag.secret(value);
        builder = builder.header(name.trim(), value.trim());
    }
    for param in &opts.svc_params {
        let Some((name, value)) = param.split_once(':') else {
            return Err(CliError::usage(format!(
                "--svc-param `{}` is not of the form `KEY:VALUE`",
                diag.redact(param)
            )));
        };
        if name.trim().eq_ignore_ascii_case(headers::A2A_VERSION) {
            return Err(CliError::usage(
                "the A2A-Version service parameter is set with --a2a-version",
            ));
        }
        diag.hide_header(name);
        diag.secret(value);
        builder = builder.header(name.trim(), value.trim());
    }
    Ok(builder)
}

/// A file an option names; one that cannot be read is a usage error naming the option.
fn read_pem(flag: &str, path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|err| CliError::usage(format!("{flag} {}: {err}", path.display())))
}

/// Applies `--ca-cert`: a file that cannot be read, or PEM the client cannot use, is a usage
/// error naming the option.
pub(crate) fn roots(builder: ClientBuilder, opts: &Common) -> Result<ClientBuilder, CliError> {
    let Some(path) = &opts.ca_cert else {
        return Ok(builder);
    };
    let builder = builder.add_root_certificate(read_pem("--ca-cert", path)?);
    builder
        .check()
        .map_err(|err| CliError::usage(format!("--ca-cert {}: {err}", path.display())))?;
    Ok(builder)
}

/// Applies `--ca-cert` and `--cert`/`--key`, as [`roots`] does.
fn tls(builder: ClientBuilder, opts: &Common) -> Result<ClientBuilder, CliError> {
    let read = read_pem;
    let mut builder = roots(builder, opts)?;
    if let (Some(cert), Some(key)) = (&opts.cert, &opts.key) {
        builder = builder.client_identity(read("--cert", cert)?, read("--key", key)?);
        builder.check().map_err(|err| {
            CliError::usage(format!(
                "--cert {} --key {}: {err}",
                cert.display(),
                key.display()
            ))
        })?;
    }
    Ok(builder)
}

/// Applies `--a2a-version`: 1.0 by default; naming 0.3, 0.2 or 0.1 is the opt-in to that legacy
/// version (the client never speaks one otherwise); 1.1 is the opt-in to the unreleased draft
/// (task generations), spoken where the card offers a 1.1 interface, 1.0 elsewhere; any other
/// version is refused.
fn version(builder: ClientBuilder, version: &str) -> Result<ClientBuilder, CliError> {
    match version.trim() {
        "1" | "1.0" => Ok(builder),
        chosen @ ("1.1" | "0.3" | "0.2" | "0.1") => Ok(builder.protocol_version(chosen)),
        other => Err(CliError::new(
            Code::Protocol("VersionNotSupportedError"),
            format!(
                "A2A version `{other}` is not supported: this build speaks A2A 1.0, 1.1 (draft), \
                 0.3, 0.2 and 0.1"
            ),
        )
        .hint(
            "pass --a2a-version 1.0 (the default), 1.1 for the draft's task generations, or 0.3, \
             0.2 or 0.1 for an older agent",
        )),
    }
}

/// A card document as read, not parsed yet.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
    /// The document.
    pub(crate) bytes: Bytes,
    /// The URL it was fetched from (`None` for a file).
    pub(crate) url: Option<String>,
    /// Where it came from, for messages.
    pub(crate) source: String,
}

impl Raw {
    /// The card, in the 1.0 model.
    pub(crate) fn parse(self, reference: &str) -> Result<Card, CliError> {
        let card = a2a_types::card::parse_slice(&self.bytes).map_err(|err| {
            let place = match &self.url {
                Some(url) => format!("the agent card at {url}"),
                None => format!("the agent card file {}", self.source),
            };
            CliError::new(Code::CardInvalid, format!("{place} is {err}")).hint(format!(
                "see the problems with `a2a card get --validate -a {}`",
                quote(reference)
            ))
        })?;
        Ok(Card {
            card,
            raw: self.bytes,
            url: self.url,
            source: self.source,
        })
    }
}

/// The card `-a` names, read without credentials.
pub(crate) async fn resolve(opts: &Common, diag: &Diag) -> Result<Card, CliError> {
    let reference = opts.agent_card.clone().unwrap_or_default();
    read(opts, diag).await?.parse(&reference)
}

/// The card document `-a` names, as read (without credentials).
pub(crate) async fn read(opts: &Common, diag: &Diag) -> Result<Raw, CliError> {
    let reference = opts.agent_card.as_deref().ok_or_else(no_agent)?;
    if opts.insecure {
        diag.warn(
            "TLS certificate verification is off (--insecure): anyone on the network path can \
             read and change this traffic; use it for development only",
        );
    }
    match parse_ref(reference)? {
        CardRef::File(path) => {
            diag.debug(&format!(
                "reading the agent card from the file {}",
                path.display()
            ));
            let bytes = std::fs::read(&path).map_err(|err| {
                CliError::new(
                    Code::CardNotFound,
                    format!("cannot read the agent card file {}: {err}", path.display()),
                )
            })?;
            Ok(Raw {
                bytes: Bytes::from(bytes),
                url: None,
                source: path.display().to_string(),
            })
        }
        CardRef::Url(urls) => fetch(opts, diag, reference, &urls).await,
    }
}

async fn fetch(
    opts: &Common,
    diag: &Diag,
    reference: &str,
    urls: &[String],
) -> Result<Raw, CliError> {
    let builder = logged(builder(opts, diag)?, diag);
    let ctx = Context {
        agent: reference.to_owned(),
        ..Context::default()
    };
    let policy = RetryPolicy::default().with_max_attempts(opts.retries.saturating_add(1));
    for url in urls {
        let mut attempt = 0;
        let (head, body) = loop {
            let request = http::Request::get(url.as_str())
                .header(http::header::ACCEPT, content_type::JSON)
                .header(headers::A2A_VERSION, a2a_client::PROTOCOL_VERSION)
                .body(Bytes::new())
                .map_err(|err| {
                    CliError::new(
                        Code::CardNotFound,
                        format!("invalid card URL `{url}`: {err}"),
                    )
                })?;
            match builder.send_http(CallInfo::AGENT_CARD, request).await {
                Ok((head, body))
                    if attempt < opts.retries && matches!(head.status.as_u16(), 502..=504) =>
                {
                    diag.debug(&format!(
                        "the card fetch got HTTP {}; trying again",
                        head.status
                    ));
                    let _ = body;
                }
                Ok(answer) => break answer,
                Err(error) if attempt < opts.retries && error.is_transient() => {
                    diag.debug(&format!("the card fetch failed ({error}); trying again"));
                }
                Err(Error::Config(message)) => {
                    return Err(CliError::new(Code::CardNotFound, message));
                }
                Err(error) => return Err(CliError::from_client(&error, &ctx)),
            }
            attempt += 1;
            tokio::time::sleep(policy.backoff(attempt)).await;
        };
        if head.status == http::StatusCode::NOT_FOUND {
            diag.debug(&format!("no card at {url} (HTTP 404)"));
            continue;
        }
        if !head.status.is_success() {
            return Err(CliError::new(
                Code::CardNotFound,
                format!("no agent card at {url}: HTTP {}", head.status),
            )
            .hint("check the address; a card at another path can be given as its full URL"));
        }
        diag.debug(&format!("the agent card is at {url}"));
        return Ok(Raw {
            bytes: body,
            url: Some(url.clone()),
            source: url.clone(),
        });
    }
    Err(CliError::new(
        Code::CardNotFound,
        format!("no agent card at {}", urls.join(" or ")),
    )
    .hint("check the address; a card at another path can be given as its full URL"))
}

/// A client of the agent, ready for calls.
pub(crate) struct Agent {
    /// The client.
    pub(crate) client: A2aClient,
    /// The card, as read.
    pub(crate) card: Card,
    /// What the envelope needs for hints.
    pub(crate) ctx: Context,
    /// Called through `-e/--endpoint`: there is no card, so what it would declare is unknown.
    pub(crate) cardless: bool,
}

impl Agent {
    /// The `-a` reference, quoted for a shell (for the commands the output suggests).
    pub(crate) fn reference(&self) -> String {
        quote(&self.ctx.agent)
    }

    /// A failed call as an envelope.
    pub(crate) fn error(&self, error: &Error) -> CliError {
        CliError::from_client(error, &self.ctx)
    }

    /// Whether a command that asks for a stream (`send --stream`, `task subscribe`) opens one:
    /// the card advertises streaming, or there is no card to say (`-e/--endpoint`: the agent's
    /// answer decides).
    pub(crate) fn may_stream(&self) -> bool {
        self.cardless || self.card.card.capabilities.streaming == Some(true)
    }
}

/// Which credentials a call may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trust {
    /// A bearer token goes to an agent that declares no scheme at all.
    Lenient,
    /// Only credentials a declared scheme takes (the extended card).
    Declared,
}

/// Resolves the card and builds a client for it, with the credentials its schemes take.
pub(crate) async fn connect(opts: &Common, diag: &Diag, trust: Trust) -> Result<Agent, CliError> {
    connect_with(opts, diag, trust, None).await
}

/// [`connect`], with `capture` added after every other interceptor (so that it sees the
/// requests as they leave): `a2a inspect`'s wire view.
pub(crate) async fn connect_with(
    opts: &Common,
    diag: &Diag,
    trust: Trust,
    capture: Option<std::sync::Arc<dyn a2a_client::Interceptor>>,
) -> Result<Agent, CliError> {
    let (card, reference) = match &opts.endpoint {
        Some(url) => (endpoint_card(opts, url)?, url.clone()),
        None => (
            resolve(opts, diag).await?,
            opts.agent_card.clone().unwrap_or_default(),
        ),
    };
    let mut builder = builder(opts, diag)?;
    let credentials = credentials(opts, diag, &card.card, trust)?;
    let mut ctx = Context {
        agent: reference.clone(),
        credentials: credentials.is_some(),
        credentials_hint: credentials_hint(&card.card, &reference),
    };
    // The extensions this build implements are declared when the agent requires them.
    let implemented = implemented_extensions(&card.card, opts);
    for uri in &implemented {
        diag.debug(&format!(
            "declaring the extension {uri}: the agent requires it, and this build implements it"
        ));
        builder = builder.extension(uri.as_str());
    }
    if let Some(credentials) = credentials {
        if opts.insecure {
            diag.warn("a credential is sent over a connection whose TLS certificate is not verified (--insecure)");
        }
        builder = builder.interceptor(credentials);
    }
    let mut builder = logged(builder, diag);
    if let Some(capture) = capture {
        builder = builder.interceptor(capture);
    }
    let built = match &card.url {
        Some(url) => builder.from_card_at(card.card.clone(), url),
        None => builder.from_card(card.card.clone()),
    };
    let client = built.map_err(|error| match error {
        Error::Config(message) => CliError::new(
            Code::CardInvalid,
            format!("the agent card's interface cannot be used: {message}"),
        ),
        other => {
            ctx.credentials = false;
            CliError::from_client(&other, &ctx)
        }
    })?;
    for extension in &card.card.capabilities.extensions {
        if let Some(uri) = extension.uri.as_deref()
            && extension.required
            && !opts.extensions.iter().any(|e| e.trim() == uri)
            && !implemented.iter().any(|e| e == uri)
        {
            diag.warn(&format!(
                "the agent requires the extension {uri}, which this call does not declare; if you \
                 can honour it, declare it with --extension {uri}"
            ));
        }
    }
    let interface = client.interface();
    diag.debug(&format!(
        "using the interface {} {} at {}{}",
        interface.protocol_binding,
        interface.protocol_version,
        client.endpoint(),
        interface
            .tenant
            .as_deref()
            .map(|t| format!(" (tenant {t})"))
            .unwrap_or_default()
    ));
    Ok(Agent {
        client,
        card,
        ctx,
        cardless: opts.endpoint.is_some(),
    })
}

/// The card `-e/--endpoint URL` stands for: one interface, `URL` in the binding of the one
/// `--transport` and the version of `--a2a-version`; no security scheme; push notifications
/// assumed (the agent's answer decides); streaming left unknown, so that a plain `send` waits by
/// polling, which every agent serves, while the commands that ask for a stream open one
/// ([`Agent::may_stream`]).
fn endpoint_card(opts: &Common, url: &str) -> Result<Card, CliError> {
    let [binding] = opts.transports.as_slice() else {
        return Err(CliError::usage(format!(
            "-e/--endpoint needs exactly one --transport (the binding `{url}` speaks: JSONRPC, \
             HTTP+JSON or GRPC); {} given",
            opts.transports.len()
        ))
        .hint(format!("e.g. -e {} --transport JSONRPC", quote(url))));
    };
    let url = url.trim();
    if url.is_empty() {
        return Err(CliError::usage("-e/--endpoint is empty"));
    }
    let card = AgentCard::new(
        "(endpoint)",
        format!("the endpoint {url}, called without a card"),
        "",
    )
    .with_supported_interfaces([a2a_types::v1::AgentInterface::new(
        url,
        binding.as_str(),
        opts.a2a_version.trim(),
    )])
    .with_capabilities(a2a_types::v1::AgentCapabilities::default().with_push_notifications(true));
    let raw = serde_json::to_vec(&card)
        .map_err(|err| CliError::new(Code::Internal, format!("the endpoint's card: {err}")))?;
    Ok(Card {
        card,
        raw: Bytes::from(raw),
        url: None,
        source: url.to_owned(),
    })
}

/// The A2A extensions this build implements: the signed push deliveries of a2a-rs, which
/// `task push-config receive` verifies (docs/push.md).
pub(crate) const IMPLEMENTED_EXTENSIONS: [&str; 1] = [a2a_client::push::EXTENSION_URI];

/// The extensions the card marks required that this build implements and `--extension` does not
/// declare already.
fn implemented_extensions(card: &AgentCard, opts: &Common) -> Vec<String> {
    card.capabilities
        .extensions
        .iter()
        .filter(|e| e.required)
        .filter_map(|e| e.uri.as_deref())
        .filter(|uri| IMPLEMENTED_EXTENSIONS.contains(uri))
        .filter(|uri| !opts.extensions.iter().any(|e| e.trim() == *uri))
        .map(str::to_owned)
        .collect()
}

/// Percent-encoding of a query component.
pub(crate) fn encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The credentials of the options (or the stored OAuth token) that the card's schemes take,
/// placed by `a2a_client::credentials` (each credential where the first declared scheme that
/// takes it says; a bearer token also to an agent that declares no scheme, when `trust` is
/// lenient). A credential no declared scheme takes is not sent, with a warning.
fn credentials(
    opts: &Common,
    diag: &Diag,
    card: &AgentCard,
    trust: Trust,
) -> Result<Option<CardCredentials>, CliError> {
    let schemes = &card.security_schemes;
    let declared: Vec<String> = schemes
        .iter()
        .map(|(name, scheme)| format!("{name} ({})", crate::output::scheme_text(scheme)))
        .collect();
    let mut held = Credentials::new().bearer_without_schemes(trust == Trust::Lenient);
    let mut bearer = false;
    if let Some(token) = &opts.bearer {
        diag.secret(token);
        let token = token.trim().to_owned();
        check_bearer(&token)?;
        held = held.bearer_token(token);
        bearer = true;
    } else if let Some(stored) = crate::tokens::stored_token(card, diag) {
        bearer = true;
        held = held.bearer(stored);
    }
    if let Some(key) = &opts.api_key {
        diag.secret(key);
        held = held.api_key(key.clone());
        for scheme in schemes.values() {
            if let SecurityScheme::ApiKey(api) = scheme
                && api.location.eq_ignore_ascii_case("header")
            {
                diag.hide_header(&api.name);
            }
        }
    }
    let chosen = held
        .for_schemes(card)
        .map_err(|error| CliError::new(Code::CardInvalid, error.to_string()))?;
    if bearer {
        if chosen.carries_bearer() {
            diag.debug("a bearer token goes with each call (Authorization: Bearer [redacted])");
        } else {
            diag.warn(&format!(
                "the bearer token is not sent: the agent's card declares no scheme that takes one ({})",
                if declared.is_empty() { "it declares none".to_owned() } else { declared.join(", ") }
            ));
        }
    }
    if opts.api_key.is_some() {
        let api = chosen
            .schemes()
            .iter()
            .find_map(|name| match schemes.get(name) {
                Some(SecurityScheme::ApiKey(api)) => Some(api),
                _ => None,
            });
        match api {
            Some(api) => diag.debug(&format!(
                "the API key goes in the {} `{}` of each call",
                api.location, api.name
            )),
            None => diag.warn(&format!(
                "the API key is not sent: the agent's card declares no API-key scheme; send it \
                 yourself with -H 'NAME: KEY' if the agent wants it ({})",
                if declared.is_empty() {
                    "it declares no scheme".to_owned()
                } else {
                    declared.join(", ")
                }
            )),
        }
    }
    Ok((!chosen.is_empty()).then_some(chosen))
}

/// A bearer token must fit in a header.
fn check_bearer(token: &str) -> Result<(), CliError> {
    HeaderValue::from_str(&format!("Bearer {token}"))
        .map(drop)
        .map_err(|_| CliError::usage("the bearer token holds characters a header cannot carry"))
}

/// What to tell a caller who gave no credentials, from the card's schemes.
fn credentials_hint(card: &AgentCard, reference: &str) -> Option<String> {
    let reference = quote(reference);
    let mut hints = Vec::new();
    for (name, scheme) in &card.security_schemes {
        let hint = match scheme {
            SecurityScheme::OAuth2(_) => format!(
                "`{name}` is OAuth 2: run `a2a auth login -a {reference}`, or pass a token with \
                 A2ACLI_BEARER (or --bearer)"
            ),
            SecurityScheme::HttpAuth(_) | SecurityScheme::OpenIdConnect(_) => {
                format!("`{name}` takes a bearer token: set A2ACLI_BEARER (or pass --bearer TOKEN)")
            }
            SecurityScheme::ApiKey(api) => format!(
                "`{name}` takes an API key (in {} `{}`): set A2ACLI_API_KEY (or pass --api-key KEY)",
                api.location, api.name
            ),
            SecurityScheme::Mtls(_) => {
                format!("`{name}` is mutual TLS, which this build does not support yet")
            }
            _ => format!("`{name}` is a kind of scheme this build does not know"),
        };
        hints.push(hint);
    }
    (!hints.is_empty()).then(|| format!("the agent declares: {}", hints.join("; ")))
}

/// Push configurations need `capabilities.pushNotifications` on the card.
pub(crate) fn push_supported(agent: &Agent) -> Result<(), CliError> {
    if agent.card.card.capabilities.push_notifications == Some(true) {
        return Ok(());
    }
    Err(CliError::new(
        Code::Protocol("PushNotificationNotSupportedError"),
        "the agent's card does not advertise push notifications (capabilities.pushNotifications)",
    )
    .hint("follow the task with `a2a task subscribe` or `a2a task get --wait` instead"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(
            parse_ref("127.0.0.1:7420").unwrap(),
            CardRef::Url(vec![
                "http://127.0.0.1:7420/.well-known/agent-card.json".into(),
                "http://127.0.0.1:7420/.well-known/agent.json".into(),
            ])
        );
        assert_eq!(
            parse_ref("agent.example.com").unwrap(),
            CardRef::Url(vec![
                "https://agent.example.com/.well-known/agent-card.json".into(),
                "https://agent.example.com/.well-known/agent.json".into(),
            ])
        );
        assert_eq!(
            parse_ref("https://a.example/cards/7").unwrap(),
            CardRef::Url(vec!["https://a.example/cards/7".into()])
        );
        assert_eq!(
            parse_ref("http://localhost:9/").unwrap(),
            CardRef::Url(vec![
                "http://localhost:9/.well-known/agent-card.json".into(),
                "http://localhost:9/.well-known/agent.json".into(),
            ])
        );
        assert_eq!(
            parse_ref("agent.example.com/card.json").unwrap(),
            CardRef::Url(vec!["https://agent.example.com/card.json".into()])
        );
        assert_eq!(
            parse_ref("file:///tmp/c.json").unwrap(),
            CardRef::File("/tmp/c.json".into())
        );
        assert_eq!(
            parse_ref("./card.json").unwrap(),
            CardRef::File("./card.json".into())
        );
        assert_eq!(
            parse_ref("card.json").unwrap(),
            CardRef::File("card.json".into())
        );
        assert_eq!(parse_ref("ftp://x").unwrap_err().code, Code::CardNotFound);
        assert_eq!(parse_ref(" ").unwrap_err().code, Code::Usage);
    }

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost",
            "localhost:80",
            "127.0.0.1",
            "127.1.2.3:9",
            "[::1]:8080",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in ["example.com", "10.0.0.1:80", "[2001:db8::1]"] {
            assert!(!is_loopback(host), "{host}");
        }
    }

    #[test]
    fn query_encoding() {
        assert_eq!(encode("a b&c=d~"), "a%20b%26c%3Dd~");
    }
}
