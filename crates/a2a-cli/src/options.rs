//! The options every agent-facing command takes (the A2A CLI specification's global options),
//! and the parsers of their values.
//!
//! Each option can also come from its `A2ACLI_*` environment variable or from a `.env` file
//! (see [`crate::config`]): a flag wins over the environment, the environment over a file, a file
//! over the built-in default, which `--help` shows.

use std::path::PathBuf;
use std::time::Duration;

use a2a_types::v1::{TaskId, TaskState, binding};
use clap::builder::BoolishValueParser;
use clap::{Args, ValueEnum};

use crate::error::CliError;

/// How results are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// `Label: value` fields, one per line, and blocks for content.
    #[default]
    Text,
    /// The protocol's own JSON types: one document, or one object per line with `--stream`.
    Json,
}

/// The options of every command that talks to an agent.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Agent and connection")]
pub(crate) struct Common {
    /// The agent: a host (`agent.example.com`, `127.0.0.1:7420`: the well-known card path is
    /// appended; https, or http for a loopback host), a card URL (used as it is; a URL that is
    /// only an origin gets the well-known path), or a card file (`file://...` or a path).
    #[arg(
        short = 'a',
        long = "agent-card",
        env = "A2ACLI_AGENT_CARD",
        value_name = "REF"
    )]
    pub(crate) agent_card: Option<String>,

    /// The output format: `text` (fields, for people and `grep`) or `json` (the protocol's own
    /// types; JSON Lines with `--stream`).
    #[arg(short = 'o', long, env = "A2ACLI_OUTPUT", value_enum, default_value_t = Format::Text)]
    pub(crate) output: Format,

    /// A binding to prefer over the card's order: JSONRPC, HTTP+JSON or GRPC, in any case;
    /// repeatable, most preferred first (the environment takes a comma list). A binding the
    /// card does not offer is skipped; without one, the card's first supported interface is
    /// used.
    #[arg(
        long = "transport",
        env = "A2ACLI_TRANSPORT",
        value_name = "BINDING",
        value_delimiter = ',',
        value_parser = parse_transport
    )]
    pub(crate) transports: Vec<String>,

    /// Call this endpoint directly, without resolving an agent card (the A2A CLI
    /// specification's next revision): the URL of the interface (`host:port` for GRPC), with
    /// exactly one --transport naming its binding. The agent's capabilities are then unknown:
    /// a plain send waits by polling; --stream, task subscribe and push configs are tried, and
    /// the agent's answer decides.
    #[arg(
        short = 'e',
        long = "endpoint",
        env = "A2ACLI_ENDPOINT",
        value_name = "URL"
    )]
    pub(crate) endpoint: Option<String>,

    /// The A2A protocol version to speak, sent as `A2A-Version` on every request: 1.0, or 0.3,
    /// 0.2 or 0.1 (legacy versions, spoken only when named here) for an older agent; 1.1 for
    /// the unreleased draft's task generations (`task get --wait` long-polls, `send
    /// --if-generation`), spoken where the card offers a 1.1 interface, 1.0 elsewhere.
    #[arg(
        long = "a2a-version",
        env = "A2ACLI_A2A_VERSION",
        value_name = "VERSION",
        default_value = "1.0"
    )]
    pub(crate) a2a_version: String,

    /// A bearer token, sent as `Authorization: Bearer ...` where the agent's card declares a
    /// scheme that takes one. Prefer A2ACLI_BEARER: a flag's value is visible to other users in
    /// the process table and stays in the shell history.
    #[arg(
        long,
        env = "A2ACLI_BEARER",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub(crate) bearer: Option<String>,

    /// An API key, sent where the card's API-key scheme says (a header, a query parameter or a
    /// cookie). Prefer A2ACLI_API_KEY: a flag's value is visible to other users in the process
    /// table and stays in the shell history.
    #[arg(
        long = "api-key",
        env = "A2ACLI_API_KEY",
        hide_env_values = true,
        value_name = "KEY"
    )]
    pub(crate) api_key: Option<String>,

    /// An A2A service parameter, `KEY:VALUE`, sent as a header of every request (repeatable);
    /// general-purpose, e.g. `--svc-param x-trace-id:abc`. Not `--metadata`, which travels in
    /// the request body.
    #[arg(long = "svc-param", value_name = "KEY:VALUE")]
    pub(crate) svc_params: Vec<String>,

    /// Declare support for an A2A extension by its URI, in `A2A-Extensions` of every request
    /// (repeatable; the environment takes a comma list). A warning names the extensions the
    /// card marks required that are not declared.
    #[arg(
        long = "extension",
        env = "A2ACLI_EXTENSION",
        value_name = "URI",
        value_delimiter = ','
    )]
    pub(crate) extensions: Vec<String>,

    /// An HTTP header for every request, `NAME: VALUE` (repeatable).
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    pub(crate) headers: Vec<String>,

    /// How long to wait, in all, for the result: a wait for the task's end, a stream, or one
    /// call (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds).
    #[arg(long, env = "A2ACLI_TIMEOUT", value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub(crate) timeout: Duration,

    /// How often to ask for the task's state while waiting without a stream (at least 10ms).
    #[arg(long = "poll-interval", env = "A2ACLI_POLL_INTERVAL", value_name = "DURATION", default_value = "2s", value_parser = parse_duration)]
    pub(crate) poll_interval: Duration,

    /// How many times a call that failed on the way (no connection, a reset, HTTP 502/503/504)
    /// is tried again, with a growing pause; `--debug` shows each try.
    #[arg(long, env = "A2ACLI_RETRIES", value_name = "N", default_value_t = 2)]
    pub(crate) retries: u32,

    /// Diagnostics on stderr: the card and interface chosen, each request and response as sent
    /// (credentials redacted), retries, stream events with their ids.
    #[arg(long, env = "A2ACLI_DEBUG", value_parser = BoolishValueParser::new())]
    pub(crate) debug: bool,

    /// Show every part of messages and artifacts, and the task's history, rather than the
    /// concise view.
    #[arg(long, env = "A2ACLI_VERBOSE", value_parser = BoolishValueParser::new())]
    pub(crate) verbose: bool,

    /// Do not verify the agent's TLS certificate (development only; prints a warning).
    #[arg(long, env = "A2ACLI_INSECURE", value_parser = BoolishValueParser::new())]
    pub(crate) insecure: bool,

    /// A client certificate for mutual TLS: a PEM file with the certificate first, then any
    /// intermediates; with --key. Presented to an agent that asks for one in the TLS handshake
    /// (the card's fetch included: the handshake comes before any request), over every
    /// transport.
    #[arg(long, env = "A2ACLI_CERT", value_name = "PEM", requires = "key")]
    pub(crate) cert: Option<PathBuf>,

    /// The private key of --cert: a PEM file (PKCS#8, RSA or EC).
    #[arg(long, env = "A2ACLI_KEY", value_name = "PEM", requires = "cert")]
    pub(crate) key: Option<PathBuf>,

    /// Trust the CA certificates of this PEM file besides the built-in (Mozilla) roots: for an
    /// agent whose certificate a private CA issued, without --insecure.
    #[arg(long = "ca-cert", env = "A2ACLI_CA_CERT", value_name = "PEM")]
    pub(crate) ca_cert: Option<PathBuf>,

    /// Read settings from this `.env` file instead of the nearest `.env` of the working
    /// directory or its parents (the environment still wins over it). Also spelled
    /// `--env-file` (the specification's next revision).
    #[arg(long, visible_alias = "env-file", value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
}

/// A binding name of `--transport`, in its canonical spelling.
pub(crate) fn parse_transport(text: &str) -> Result<String, String> {
    [binding::JSONRPC, binding::HTTP_JSON, binding::GRPC]
        .into_iter()
        .find(|known| known.eq_ignore_ascii_case(text.trim()))
        .map(str::to_owned)
        .ok_or_else(|| format!("unknown transport `{text}`; one of JSONRPC, HTTP+JSON, GRPC"))
}

/// A duration: `250ms`, `2s`, `1.5s`, `5m`, `1h`, or a bare number of seconds.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration such as 500ms, 30s, 5m or 1h"))?;
    let seconds = match unit.trim() {
        "ms" => value / 1000.0,
        "" | "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{text}`; use ms, s, m or h"
            ));
        }
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("`{text}` is out of range"))
}

/// A size in bytes: `4096`, `512KiB`, `64MiB`, `1GiB` (`K`, `KB`, `M`, `MB`, `G`, `GB` are the
/// same binary units; `B` is bytes).
pub(crate) fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: usize = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as 4096, 512KiB or 64MiB"))?;
    let unit = unit.trim();
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => {
            return Err(format!(
                "unknown unit `{unit}` in `{text}`; use B, KiB, MiB or GiB"
            ));
        }
    };
    value
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// A size as the options spell it (`64MiB`, `512KiB`, `100B`).
pub(crate) fn show_size(bytes: usize) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    format!("{bytes}B")
}

/// A task state in any spelling: `input-required`, `INPUT_REQUIRED`, `TASK_STATE_INPUT_REQUIRED`.
pub(crate) fn parse_state(text: &str) -> Result<TaskState, String> {
    let name = format!(
        "TASK_STATE_{}",
        text.trim()
            .trim_start_matches("TASK_STATE_")
            .to_ascii_uppercase()
            .replace('-', "_")
    );
    TaskState::from_name(&name)
        .filter(|s| *s != TaskState::Unspecified)
        .ok_or_else(|| {
            format!(
                "unknown task state `{text}`; one of submitted, working, completed, failed, \
                 canceled, input-required, rejected, auth-required"
            )
        })
}

/// A duration as the options spell it (`2s`, `250ms`).
pub(crate) fn show_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// A task id, from the argument or A2ACLI_TASK_ID.
#[derive(Args, Debug, Clone)]
pub(crate) struct TaskIdArg {
    /// The task's id, as the agent named it.
    #[arg(value_name = "TASK_ID", env = "A2ACLI_TASK_ID")]
    pub(crate) task_id: String,
}

/// The task id of the argument, trimmed; an empty one is a usage error.
pub(crate) fn task_id(arg: &TaskIdArg) -> Result<TaskId, CliError> {
    let id = arg.task_id.trim();
    if id.is_empty() {
        return Err(CliError::usage("the task id is empty"));
    }
    Ok(TaskId::new(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(
            parse_duration("2 days"),
            Err("unknown unit `days` in `2 days`; use ms, s, m or h".to_owned())
        );
        assert!(parse_duration("soon").is_err());
        assert_eq!(show_duration(Duration::from_secs(2)), "2s");
        assert_eq!(show_duration(Duration::from_millis(1500)), "1500ms");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512KiB"), Ok(512 * 1024));
        assert_eq!(parse_size("64mb"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(
            parse_size("3 parsecs"),
            Err("unknown unit `parsecs` in `3 parsecs`; use B, KiB, MiB or GiB".to_owned())
        );
        assert!(parse_size("lots").is_err());
        assert_eq!(show_size(64 << 20), "64MiB");
        assert_eq!(show_size(1536), "1536B");
        assert_eq!(show_size(4096), "4KiB");
    }

    #[test]
    fn states_parse_in_any_spelling() {
        assert_eq!(parse_state("input-required"), Ok(TaskState::InputRequired));
        assert_eq!(parse_state("COMPLETED"), Ok(TaskState::Completed));
        assert_eq!(parse_state("TASK_STATE_WORKING"), Ok(TaskState::Working));
        assert!(parse_state("done").is_err());
        assert!(parse_state("unspecified").is_err());
    }

    #[test]
    fn transports_parse_in_any_case() {
        assert_eq!(parse_transport("http+json").as_deref(), Ok("HTTP+JSON"));
        assert_eq!(parse_transport("JsonRpc").as_deref(), Ok("JSONRPC"));
        assert_eq!(parse_transport("grpc").as_deref(), Ok("GRPC"));
        assert_eq!(
            parse_transport("rest"),
            Err("unknown transport `rest`; one of JSONRPC, HTTP+JSON, GRPC".to_owned())
        );
    }
}
