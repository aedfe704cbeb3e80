//! Failures and their envelope: the A2A CLI specification's `{"error": {code, message, hint,
//! a2aCode}}`, its `A2ACLI_ERR_*` codes for the tool's own failures, and its exit statuses.
//!
//! Two layers stay apart: an error the agent answered keeps its A2A name
//! (`TaskNotFoundError`), whatever binding brought it; a failure of the tool itself (a bad flag,
//! no card, no connection) carries one of the eight `A2ACLI_ERR_*` codes. What the agent decided
//! about a task (failed, rejected, waiting for input) is no error at all: it is the task's state.

use a2a_client::{Error, ErrorCode};
use serde::Serialize;
use serde_json::Value;

/// What failed, as the envelope's `code` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    /// `A2ACLI_ERR_USAGE`: invalid arguments, flags or combination (exit 2).
    Usage,
    /// `A2ACLI_ERR_CARD_NOT_FOUND`: the card reference resolves to no card (exit 3).
    CardNotFound,
    /// `A2ACLI_ERR_CARD_INVALID`: a card was read but is malformed or invalid (exit 1).
    CardInvalid,
    /// `A2ACLI_ERR_UNREACHABLE`: no connection: DNS, TCP or TLS (exit 3).
    Unreachable,
    /// `A2ACLI_ERR_CREDENTIALS_MISSING`: the agent needs credentials that were not given
    /// (exit 4).
    CredentialsMissing,
    /// `A2ACLI_ERR_AUTH_FAILED`: credentials were given and refused (exit 4).
    AuthFailed,
    /// `A2ACLI_ERR_TIMEOUT`: `--timeout` expired first (exit 5).
    Timeout,
    /// `A2ACLI_ERR_INTERNAL`: anything else of the tool's own (exit 1).
    Internal,
    /// An error the protocol names (`TaskNotFoundError`, ...): the agent's answer, or a
    /// capability the card does not offer (exit 1).
    Protocol(&'static str),
}

impl Code {
    /// The envelope's `code`.
    pub(crate) fn name(&self) -> &str {
        match self {
            Code::Usage => "A2ACLI_ERR_USAGE",
            Code::CardNotFound => "A2ACLI_ERR_CARD_NOT_FOUND",
            Code::CardInvalid => "A2ACLI_ERR_CARD_INVALID",
            Code::Unreachable => "A2ACLI_ERR_UNREACHABLE",
            Code::CredentialsMissing => "A2ACLI_ERR_CREDENTIALS_MISSING",
            Code::AuthFailed => "A2ACLI_ERR_AUTH_FAILED",
            Code::Timeout => "A2ACLI_ERR_TIMEOUT",
            Code::Internal => "A2ACLI_ERR_INTERNAL",
            Code::Protocol(name) => name,
        }
    }

    /// The exit status: 2 usage, 3 unreachable or no card, 4 authentication, 5 timeout, 1 the
    /// rest.
    pub(crate) fn exit(&self) -> u8 {
        match self {
            Code::Usage => 2,
            Code::CardNotFound | Code::Unreachable => 3,
            Code::CredentialsMissing | Code::AuthFailed => 4,
            Code::Timeout => 5,
            Code::CardInvalid | Code::Internal | Code::Protocol(_) => 1,
        }
    }
}

/// A failure of a command: what the envelope says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CliError {
    /// The code.
    pub(crate) code: Code,
    /// One line for a person.
    pub(crate) message: String,
    /// The next step, ideally a command to copy.
    pub(crate) hint: Option<String>,
    /// The code below: the A2A error's number (the same whatever the binding), or the HTTP
    /// status of an answer that is no A2A error.
    pub(crate) a2a_code: Option<Value>,
}

impl CliError {
    /// A failure with this code and message.
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            hint: None,
            a2a_code: None,
        }
    }

    /// A usage error.
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Self::new(Code::Usage, message)
    }

    /// Adds a hint.
    #[must_use]
    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The envelope, its members in the specification's order.
    pub(crate) fn envelope(&self) -> Envelope<'_> {
        Envelope {
            error: Body {
                code: self.code.name(),
                message: &self.message,
                hint: self.hint.as_deref(),
                a2a_code: self.a2a_code.as_ref(),
            },
        }
    }
}

/// `{"error": {...}}`.
#[derive(Debug, Serialize)]
pub(crate) struct Envelope<'a> {
    error: Body<'a>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    code: &'a str,
    message: &'a str,
    hint: Option<&'a str>,
    a2a_code: Option<&'a Value>,
}

/// What a client error needs to become a good envelope: whether credentials went with the call,
/// and how to name the agent in hints.
#[derive(Clone, Debug, Default)]
pub(crate) struct Context {
    /// The `-a` reference as given (for hints).
    pub(crate) agent: String,
    /// Credentials were attached.
    pub(crate) credentials: bool,
    /// A hint for credentials, derived from the card's security schemes.
    pub(crate) credentials_hint: Option<String>,
}

impl CliError {
    /// The envelope for a failed call.
    pub(crate) fn from_client(error: &Error, ctx: &Context) -> Self {
        let message = error.to_string();
        let status = error.http_status().map(|s| s.as_u16());
        if matches!(status, Some(401 | 403)) {
            let (code, hint) = if ctx.credentials {
                (
                    Code::AuthFailed,
                    "the agent refused the credentials: check --bearer / --api-key (or \
                     A2ACLI_BEARER / A2ACLI_API_KEY), or log in again with `a2a auth login`"
                        .to_owned(),
                )
            } else {
                (
                    Code::CredentialsMissing,
                    ctx.credentials_hint.clone().unwrap_or_else(|| {
                        "the agent wants credentials: pass --bearer TOKEN or --api-key KEY (or \
                         set A2ACLI_BEARER / A2ACLI_API_KEY)"
                            .to_owned()
                    }),
                )
            };
            let mut out = CliError::new(code, message).hint(hint);
            out.a2a_code = status.map(Value::from);
            return out;
        }
        match error {
            Error::Agent(agent) => {
                let code = agent.code();
                let mut out = match code.name() {
                    Some(name) => CliError::new(Code::Protocol(name), message),
                    None => CliError::new(Code::Internal, message),
                };
                out.a2a_code = Some(Value::from(code.code()));
                if let Some(hint) = protocol_hint(code, ctx) {
                    out = out.hint(hint);
                }
                out
            }
            Error::Http { status, .. } => {
                let mut out = CliError::new(Code::Internal, message);
                out.a2a_code = Some(Value::from(status.as_u16()));
                out.hint("the answer is no A2A error; run again with --debug to see the exchange")
            }
            Error::Transport(_) => CliError::new(Code::Unreachable, message).hint(format!(
                "is the agent running and reachable? try `a2a card get -a {}`",
                quote(&ctx.agent)
            )),
            Error::Timeout(_) => {
                CliError::new(Code::Timeout, message).hint("raise --timeout (or A2ACLI_TIMEOUT)")
            }
            Error::Card { .. } => CliError::new(Code::CardInvalid, message).hint(format!(
                "check the card with `a2a card get --validate -a {}`",
                quote(&ctx.agent)
            )),
            Error::NoSupportedInterface { .. } => CliError::new(Code::Internal, message).hint(
                "this build speaks JSONRPC, HTTP+JSON and GRPC of A2A 1.x (and, with \
                 --a2a-version, JSONRPC and HTTP+JSON of 0.3 and JSONRPC of 0.1); \
                 `a2a card get` lists what the agent offers",
            ),
            Error::LegacyOnly { .. } => {
                CliError::new(Code::Protocol("VersionNotSupportedError"), message).hint(
                    "the agent speaks only an older A2A: pass --a2a-version 0.3 (or 0.2, 0.1)",
                )
            }
            Error::Unsupported { .. } => {
                CliError::new(Code::Protocol("UnsupportedOperationError"), message)
            }
            Error::NoGenerations { .. } => CliError::usage(message).hint(
                "--if-generation needs A2A 1.1: pass --a2a-version 1.1, to an agent whose card \
                 offers a 1.1 interface (`a2a card get` lists them)",
            ),
            Error::Config(_) => CliError::usage(message),
            _ => CliError::new(Code::Internal, message)
                .hint("run again with --debug to see the exchange"),
        }
    }
}

fn protocol_hint(code: ErrorCode, ctx: &Context) -> Option<String> {
    let agent = quote(&ctx.agent);
    let hint = match code {
        ErrorCode::TASK_NOT_FOUND => format!(
            "no such task for this caller; `a2a task list -a {agent}` lists the tasks (run with \
             --debug for the exchange)"
        ),
        ErrorCode::TASK_NOT_CANCELABLE => "the task already ended; `a2a task get` shows how".into(),
        ErrorCode::UNSUPPORTED_OPERATION => {
            "the agent does not support this here (a task that ended takes no more messages or \
             subscriptions); run with --debug for the exchange"
                .into()
        }
        ErrorCode::CONTENT_TYPE_NOT_SUPPORTED => format!(
            "`a2a card get -a {agent}` lists the media types the agent accepts; set a part's with \
             --media-type"
        ),
        ErrorCode::VERSION_NOT_SUPPORTED => {
            "the agent does not speak this A2A version; see --a2a-version".into()
        }
        ErrorCode::TASK_GENERATION_MISMATCH => format!(
            "the task changed since that generation (nothing was sent to it); `a2a task get -a \
             {agent} --a2a-version 1.1 TASK` shows it and its generation, before you send again"
        ),
        _ => return None,
    };
    Some(hint)
}

/// `text` quoted for a POSIX shell when it needs it.
pub(crate) fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '-' | '_' | '.' | '/' | ':' | '@' | '%' | '+' | '=' | ',')
        });
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_client::A2aError;
    use serde_json::json;

    #[test]
    fn the_envelope_has_the_four_members() {
        let error = CliError::usage("no agent").hint("pass -a");
        assert_eq!(
            serde_json::to_string(&error.envelope()).unwrap(),
            r#"{"error":{"code":"A2ACLI_ERR_USAGE","message":"no agent","hint":"pass -a","a2aCode":null}}"#
        );
        assert_eq!(error.code.exit(), 2);
    }

    #[test]
    fn agent_errors_keep_their_a2a_name_and_number() {
        let error = Error::from(A2aError::task_not_found("t-1"));
        let out = CliError::from_client(&error, &Context::default());
        assert_eq!(out.code, Code::Protocol("TaskNotFoundError"));
        assert_eq!(out.a2a_code, Some(json!(-32001)));
        assert_eq!(out.code.exit(), 1);
        // The same error over HTTP+JSON (with its 404) is the same envelope.
        let rest = Error::from(A2aError::task_not_found("t-1").with_http_status(404));
        let rest = CliError::from_client(&rest, &Context::default());
        assert_eq!(
            serde_json::to_value(rest.envelope()).unwrap(),
            serde_json::to_value(out.envelope()).unwrap()
        );
    }

    #[test]
    fn refusals_are_missing_or_failed_credentials() {
        let refused = Error::from(A2aError::invalid_request("who are you").with_http_status(401));
        let missing = CliError::from_client(&refused, &Context::default());
        assert_eq!(missing.code, Code::CredentialsMissing);
        assert_eq!(missing.code.exit(), 4);
        assert_eq!(missing.a2a_code, Some(json!(401)));
        let ctx = Context {
            credentials: true,
            ..Context::default()
        };
        assert_eq!(CliError::from_client(&refused, &ctx).code, Code::AuthFailed);
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(quote("http://127.0.0.1:7420"), "http://127.0.0.1:7420");
        assert_eq!(quote("it's here"), r"'it'\''s here'");
        assert_eq!(quote(""), "''");
    }
}
