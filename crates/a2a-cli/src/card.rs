//! `a2a card get`: the agent's card, checked with `--validate`, or the authenticated extended
//! card with `--extended`.

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
        out.value(&shown);
        return Ok(());
    }
    out.card(&shown, chosen.as_ref());
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
