//! `a2a card get`: the agent's card, checked with `--validate`, or the authenticated extended
//! card with `--extended`.

use a2a_client::signature::{Outcome, TrustedKeys};
use a2a_jose::{Jwk, Jwks};
use a2a_types::v1::GetExtendedAgentCardRequest;
use clap::{Args, Subcommand};

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::{CliError, Code, quote};
use crate::options::Common;
use crate::output::Out;
use crate::validate::{Severity, validate};
use crate::wait::Waiter;

/// The `card` commands.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum CardCommand {
    /// Fetch the agent's card and show who it is, what it can do and how to reach it (the
    /// interface marked `(selected)` is the one the other commands use).
    Get(CardGetArgs),
}

/// The arguments of `card get`.
#[derive(Args, Debug, Clone)]
pub(crate) struct CardGetArgs {
    /// Check the card against the A2A 1.0 schema: errors make the command fail, warnings are
    /// printed.
    #[arg(long)]
    pub(crate) validate: bool,
    /// Fetch the extended card the agent shows authenticated callers (with the credentials its
    /// public card's schemes take).
    #[arg(long)]
    pub(crate) extended: bool,
    /// With -o json, print the card on one line.
    #[arg(long)]
    pub(crate) stream: bool,
    /// Keys that may sign the card: a JWKS URL or a JWKS file; repeatable. Without one, the
    /// JWKS a signature names (`jku`) is trusted when it is on the card's own origin.
    #[arg(long = "card-jwks", value_name = "URL|FILE")]
    pub(crate) card_jwks: Vec<String>,
    /// Fail (A2ACLI_ERR_CARD_INVALID) unless one of the card's signatures verifies.
    #[arg(long)]
    pub(crate) require_signature: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `card get`.
pub(crate) async fn run(args: &CardGetArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    let raw = connect::read(opts, diag).await?;
    let reference = quote(opts.agent_card.as_deref().unwrap_or_default());
    let mut problems = Vec::new();
    if args.validate {
        problems = validate(&raw.bytes);
        let errors = problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count();
        for problem in &problems {
            if problem.severity == Severity::Warning {
                diag.warn(&format!("card: {problem}"));
            }
        }
        if errors > 0 {
            let list: Vec<String> = problems
                .iter()
                .filter(|p| p.severity == Severity::Error)
                .map(|p| p.to_string().trim_start_matches("error: ").to_owned())
                .collect();
            return Err(CliError::new(
                Code::CardInvalid,
                format!(
                    "the agent card at {} does not follow the A2A 1.0 schema ({errors} error{}): {}",
                    raw.source,
                    if errors == 1 { "" } else { "s" },
                    list.join("; ")
                ),
            ));
        }
    }
    let signature = check_signatures(args, &raw, diag).await?;
    let card = raw.parse(opts.agent_card.as_deref().unwrap_or_default())?;
    let (shown, chosen) = if args.extended {
        if card.card.capabilities.extended_agent_card != Some(true) {
            return Err(CliError::new(
                Code::Protocol("UnsupportedOperationError"),
                "the agent's card does not advertise an extended card (capabilities.extendedAgentCard)",
            ));
        }
        let agent = connect::connect(opts, diag, Trust::Declared).await?;
        if !agent.ctx.credentials {
            let mut error = CliError::new(
                Code::CredentialsMissing,
                "the extended card needs credentials of a scheme the public card declares, and none was given",
            );
            error.hint = agent.ctx.credentials_hint.clone().or_else(|| {
                Some(format!(
                    "the public card declares no security scheme; `a2a card get -a {reference}` shows it"
                ))
            });
            return Err(error);
        }
        let waiter = Waiter::new(&agent, opts, diag);
        let extended = waiter
            .call(
                agent
                    .client
                    .get_extended_agent_card(GetExtendedAgentCardRequest::new()),
            )
            .await?;
        let chosen = agent.client.interface().clone();
        (extended, Some(chosen))
    } else {
        let builder = connect::builder(opts, diag)?;
        let chosen = builder.select_interface(&card.card).ok().cloned();
        (card.card.clone(), chosen)
    };
    if out.json() {
        // stdout carries the protocol's card; the outcome goes to stderr.
        diag.note(&format!("card signatures: {signature}"));
        out.value(&shown);
        return Ok(());
    }
    out.card(&shown, chosen.as_ref());
    out.field("Signatures", &signature);
    if args.validate {
        let warnings = problems.len();
        out.field(
            "Valid",
            &if warnings == 0 {
                "yes".to_owned()
            } else {
                format!(
                    "yes, with {warnings} warning{}",
                    if warnings == 1 { "" } else { "s" }
                )
            },
        );
    }
    Ok(())
}

/// Checks the signatures of the card document `raw` against the keys `--card-jwks` names
/// (else the `jku` on the card's own origin), as the A2A CLI specification's §10.1 asks:
/// `absent`, `verified: ...`, or `unverifiable: ...` with the reason for each signature. With
/// `--require-signature` anything but a verified signature is an error.
async fn check_signatures(
    args: &CardGetArgs,
    raw: &connect::Raw,
    diag: &Diag,
) -> Result<String, CliError> {
    let Ok(document) = serde_json::from_slice::<serde_json::Value>(&raw.bytes) else {
        // Not JSON: reading the card reports it.
        return Ok("absent".to_owned());
    };
    let mut trusted = Vec::new();
    for source in &args.card_jwks {
        trusted.push(trusted_keys(source)?);
    }
    if trusted.is_empty() {
        trusted.push(TrustedKeys::SameOriginJku);
    }
    let builder = connect::logged(connect::builder(&args.common, diag)?, diag);
    let (outcome, problems) = builder
        .check_card(&document, raw.url.as_deref(), &trusted)
        .await
        .map_err(|e| CliError::new(Code::Usage, e.to_string()))?;
    let mut text = match &outcome {
        Outcome::Absent => "absent".to_owned(),
        other => other.to_string(),
    };
    if !matches!(outcome, Outcome::Verified { .. }) {
        for problem in &problems {
            text.push_str("; ");
            text.push_str(problem);
        }
    }
    if args.require_signature && !matches!(outcome, Outcome::Verified { .. }) {
        return Err(CliError::new(
            Code::CardInvalid,
            format!(
                "the agent card at {} has no signature that verifies (--require-signature): {text}",
                raw.source
            ),
        ));
    }
    Ok(text)
}

/// `--card-jwks`: an http(s) URL, or a file holding a JWKS (or a single JWK).
fn trusted_keys(source: &str) -> Result<TrustedKeys, CliError> {
    let lower = source.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Ok(TrustedKeys::JwksUrl(source.to_owned()));
    }
    let path = source.strip_prefix("file://").unwrap_or(source);
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::new(
            Code::Usage,
            format!("--card-jwks {}: cannot read the file: {e}", quote(source)),
        )
    })?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        CliError::new(
            Code::Usage,
            format!("--card-jwks {}: not JSON: {e}", quote(source)),
        )
    })?;
    let jwks = if value.get("keys").is_some() {
        serde_json::from_value::<Jwks>(value)
    } else {
        serde_json::from_value::<Jwk>(value).map(|jwk| Jwks::new(vec![jwk]))
    }
    .map_err(|e| {
        CliError::new(
            Code::Usage,
            format!(
                "--card-jwks {}: neither a JWKS ({{\"keys\": [...]}}) nor a JWK: {e}",
                quote(source)
            ),
        )
    })?;
    Ok(TrustedKeys::Keys(jwks))
}
