//! How a failure leaves the process: the envelope on stdout (`-o json`) or its fields on
//! stderr, and the exit status; a usage error of clap as an envelope.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::config;
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Format;
use crate::output::Out;

/// The commands that were replaced, and their new spelling.
const REPLACED: [(&str, &str); 5] = [
    ("stream", "a2a send --stream -a URL TEXT"),
    ("get", "a2a task get -a URL TASK_ID"),
    ("list", "a2a task list -a URL"),
    ("cancel", "a2a task cancel -a URL TASK_ID"),
    ("subscribe", "a2a task subscribe -a URL TASK_ID"),
];

/// The `-o` the command line (or A2ACLI_OUTPUT) asks for, before it is parsed, for the report
/// of a usage error.
pub(crate) fn format_hint(args: &[OsString], settings: &config::Settings) -> Format {
    let mut iter = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = iter.next() {
        let value = match arg.as_str() {
            "-o" | "--output" => iter.next(),
            other => other
                .strip_prefix("--output=")
                .or_else(|| other.strip_prefix("-o"))
                .map(str::to_owned),
        };
        if let Some(value) = value {
            return if value.trim().eq_ignore_ascii_case("json") {
                Format::Json
            } else {
                Format::Text
            };
        }
    }
    let configured = std::env::var("A2ACLI_OUTPUT")
        .ok()
        .or_else(|| settings.values.get("A2ACLI_OUTPUT").map(|(v, _)| v.clone()));
    if configured.is_some_and(|v| v.trim().eq_ignore_ascii_case("json")) {
        Format::Json
    } else {
        Format::Text
    }
}

/// Prints a failure: the envelope on stdout with `-o json` (on one line with `--stream`), the
/// fields on stderr in text.
pub(crate) fn report(error: &CliError, format: Format, lines: bool, diag: &Diag) -> ExitCode {
    let mut error = error.clone();
    error.message = diag.redact(&error.message);
    error.hint = error.hint.as_deref().map(|h| diag.redact(h));
    if format == Format::Json {
        let mut out = Out::new(format, lines, false);
        out.value(&error.envelope());
    } else {
        let mut fields = vec![
            ("Error", error.message.clone()),
            ("Code", error.code.name().to_owned()),
        ];
        if let Some(code) = &error.a2a_code {
            fields.push(("A2A-Code", code.to_string()));
        }
        if let Some(hint) = &error.hint {
            fields.push(("Hint", hint.clone()));
        }
        diag.error_fields(&fields);
    }
    ExitCode::from(error.code.exit())
}

/// A usage error of clap as an envelope.
pub(crate) fn usage_error(error: &clap::Error, args: &[OsString]) -> CliError {
    let rendered = error.render().to_string();
    let mut lines = rendered.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let message = first.trim_start_matches("error: ").to_owned();
    let tips: Vec<&str> = lines
        .filter(|l| l.trim_start().starts_with("tip:"))
        .map(|l| l.trim().trim_start_matches("tip:").trim())
        .collect();
    let first_arg = args
        .get(1)
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_default();
    let hint = if let Some((_, new)) = REPLACED.iter().find(|(old, _)| *old == first_arg) {
        format!("`a2a {first_arg}` is now `{new}` (see `a2a help`)")
    } else if first_arg == "card"
        && args
            .get(2)
            .is_some_and(|a| a.to_string_lossy().contains(['.', ':', '/']))
    {
        "`a2a card URL` is now `a2a card get -a URL`".to_owned()
    } else if !tips.is_empty() {
        tips.join("; ")
    } else {
        let path: Vec<String> = args
            .iter()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .take_while(|a| !a.starts_with('-'))
            .take(2)
            .collect();
        format!("see `a2a {} --help`", path.join(" ")).replace("a2a  --help", "a2a --help")
    };
    CliError::usage(message).hint(hint)
}
