//! `a2a conformance --suite DIR|FILE`: the ACTS runner of [`a2a_acts`] against a live agent,
//! a line per test and binding as it runs, the summary per level and binding, `-o json` the
//! report, `--junit FILE` JUnit XML. Exit 0 when every test of `--level` (and stricter)
//! passed, was skipped or failed as `--expect-fail` lists it; 1 otherwise; 2 for bad
//! arguments or an unreadable suite; 3 when the agent's card cannot be read.

use std::path::{Path, PathBuf};

use a2a_acts::{Binding, KnownFailures, Level, Options, Suite};

use crate::connect::{CardRef, parse_ref};
use crate::diag::Diag;
use crate::error::{CliError, Code};
use crate::options::Common;
use crate::output::Out;

/// The ACTS arguments of `conformance`.
#[derive(Debug, Clone)]
pub(crate) struct ActsArgs<'a> {
    /// The suite: a directory (its `suite.acts.yaml`) or one ACTS file.
    pub(crate) suite: &'a Path,
    /// The strictest level that decides the exit status.
    pub(crate) level: Level,
    /// Where to write JUnit XML.
    pub(crate) junit: Option<&'a PathBuf>,
    /// The known failures.
    pub(crate) expect_fail: Option<&'a PathBuf>,
    /// `NAME=VALUE` variables for the suite (`webhookUrl`, tokens).
    pub(crate) vars: &'a [String],
    /// The runner's webhook receiver (address, wait).
    pub(crate) webhook: a2a_acts::WebhookOptions,
    /// The URL the agent is given for the receiver.
    pub(crate) webhook_url: Option<&'a str>,
}

/// The `--level` values.
pub(crate) fn parse_level(text: &str) -> Result<Level, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "must" => Ok(Level::Must),
        "should" => Ok(Level::Should),
        "may" => Ok(Level::May),
        other => Err(format!("unknown level `{other}`; one of must, should, may")),
    }
}

/// Runs the suite.
pub(crate) async fn run(args: ActsArgs<'_>, opts: &Common, diag: &Diag) -> Result<(), CliError> {
    let suite = Suite::load(args.suite).map_err(|e| {
        CliError::usage(format!("cannot read the ACTS suite: {e}"))
            .hint("--suite takes a directory with suite.acts.yaml (e.g. $A2A_SPEC_DIR/acts) or one *.acts.yaml file")
    })?;
    let known_failures = match args.expect_fail {
        Some(path) => KnownFailures::load(path)
            .map_err(|e| CliError::usage(format!("cannot read --expect-fail: {e}")))?,
        None => KnownFailures::default(),
    };
    let webhook = match args.webhook_url {
        Some(url) if !(url.starts_with("http://") || url.starts_with("https://")) => {
            return Err(CliError::usage(format!(
                "--webhook-url `{url}` is not an http:// or https:// URL"
            )));
        }
        Some(url) => args.webhook.with_url(url),
        None => args.webhook,
    };
    let mut options = Options::default()
        .with_known_failures(known_failures)
        .with_webhook(webhook);
    for var in args.vars {
        let (name, value) = var
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("--var `{var}` is not NAME=VALUE")))?;
        options = options.with_variable(name.trim(), value);
    }
    if !opts.transports.is_empty() {
        options = options.with_bindings(opts.transports.iter().filter_map(|t| Binding::parse(t)));
    }
    let reference = opts.agent_card.as_deref().ok_or_else(|| {
        CliError::usage("no agent: say which one with -a/--agent-card REF (or A2ACLI_AGENT_CARD)")
    })?;
    let card_url = match parse_ref(reference)? {
        CardRef::Url(urls) => urls.into_iter().next().unwrap_or_default(),
        CardRef::File(path) => {
            return Err(CliError::usage(format!(
                "the ACTS runner calls a live agent; `{}` is a card file",
                path.display()
            )));
        }
    };
    if card_url.starts_with("https://") {
        return Err(CliError::usage(format!(
            "the ACTS runner speaks plain HTTP only for now; `{card_url}` is HTTPS"
        )));
    }
    let mut out = Out::new(opts.output, false, opts.verbose);
    let json = out.json();
    let mut progress = |result: &a2a_acts::TestResult| {
        if !json {
            out.raw_line(&result.line());
        }
    };
    let report = a2a_acts::run(&suite, &card_url, &options, &mut progress)
        .await
        .map_err(|e| {
            if e.message.starts_with("the webhook receiver") {
                CliError::usage(e.message)
                    .hint("--webhook-addr takes a local address to listen on, e.g. 0.0.0.0:9000")
            } else {
                CliError::new(Code::Unreachable, e.message)
            }
        })?;
    let mut out = Out::new(opts.output, false, opts.verbose);
    if json {
        let mut document = report.to_json();
        document["level"] = args.level.as_str().into();
        document["conformant"] = report.conformant(args.level).into();
        out.value(&document);
    } else {
        out.gap();
        for line in report.summary_lines() {
            out.raw_line(&line);
        }
    }
    if let Some(path) = args.junit {
        std::fs::write(path, report.junit()).map_err(|e| {
            CliError::new(
                Code::Internal,
                format!("cannot write --junit {}: {e}", path.display()),
            )
        })?;
    }
    let xpass = report
        .results
        .iter()
        .filter(|r| r.outcome == a2a_acts::Outcome::Xpass)
        .count();
    if xpass > 0 {
        diag.warn(&format!(
            "{xpass} known failure(s) passed: the --expect-fail list is out of date"
        ));
    }
    if !report.conformant(args.level) {
        let failed = report
            .results
            .iter()
            .filter(|r| r.level <= args.level && r.outcome == a2a_acts::Outcome::Fail)
            .count();
        diag.warn(&format!(
            "{failed} test(s) at level {} or stricter failed: the agent is not conformant",
            args.level.as_str()
        ));
        // The report is the output; the status says it failed (no error envelope after it).
        std::process::exit(1);
    }
    Ok(())
}
