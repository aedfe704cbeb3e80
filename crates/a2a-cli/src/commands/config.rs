//! `a2a config show`: each setting's effective value and where it came from.

use std::path::Path;

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Args, Command, Subcommand};
use serde_json::{Value, json};

use crate::config::{SECRETS, Settings};
use crate::error::CliError;
use crate::options::Common;
use crate::output::Out;

/// The `config` commands.
#[derive(Subcommand, Debug)]
pub(crate) enum ConfigCommand {
    /// Print each setting's effective value and where it came from (a flag, the environment, a
    /// file, the default); changes nothing.
    Show(ConfigShowArgs),
}

/// The arguments of `config show`.
#[derive(Args, Debug)]
pub(crate) struct ConfigShowArgs {
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `config show`: `tree` is the whole command tree (every setting of the tool), `matches`
/// those of `config show` itself.
pub(crate) fn run(
    args: &ConfigShowArgs,
    tree: &Command,
    matches: &ArgMatches,
    settings: &Settings,
) -> Result<(), CliError> {
    let shown = effective(tree, matches, settings);
    let tokens = crate::tokens::store_path();
    let mut out = Out::new(args.common.output, false, false);
    if out.json() {
        out.value(&to_json(&shown, settings, &tokens));
    } else {
        print_text(&mut out, &shown, settings, &tokens);
    }
    Ok(())
}

/// One setting as `config show` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shown {
    /// `A2ACLI_TIMEOUT`.
    pub(crate) name: String,
    /// `--timeout`.
    pub(crate) flag: String,
    /// The effective value (`[redacted]` for a secret), `None` when unset.
    pub(crate) value: Option<String>,
    /// `flag`, `environment`, `file PATH`, `default`, or `unset`.
    pub(crate) source: String,
}

/// Every setting of the tool, with its effective value for `config show` (whose own flags,
/// the agent-facing options, count as flags).
fn effective(command: &Command, matches: &ArgMatches, settings: &Settings) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let mut stack = vec![command];
    while let Some(cmd) = stack.pop() {
        for arg in cmd.get_arguments() {
            let Some(env) = arg.get_env() else { continue };
            let name = env.to_string_lossy().into_owned();
            if shown.iter().any(|s| s.name == name) {
                continue;
            }
            let flag = arg
                .get_long()
                .map_or_else(|| arg.get_id().to_string(), |l| format!("--{l}"));
            let id = arg.get_id().as_str();
            let secret = SECRETS.contains(&name.as_str());
            let from_flag = matches
                .try_get_raw(id)
                .ok()
                .flatten()
                .filter(|_| matches.value_source(id) == Some(ValueSource::CommandLine))
                .map(|values| {
                    values
                        .map(|v| v.to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join(",")
                });
            let (value, source) = if let Some(value) = from_flag {
                (Some(value), "flag".to_owned())
            } else if let Some(value) = std::env::var_os(&name) {
                (
                    Some(value.to_string_lossy().into_owned()),
                    "environment".to_owned(),
                )
            } else if let Some((value, file)) = settings.values.get(&name) {
                (Some(value.clone()), format!("file {}", file.display()))
            } else {
                let defaults: Vec<String> = arg
                    .get_default_values()
                    .iter()
                    .map(|v| v.to_string_lossy().into_owned())
                    .collect();
                if defaults.is_empty()
                    || matches!(arg.get_action(), ArgAction::SetTrue) && defaults == ["false"]
                {
                    let value =
                        matches!(arg.get_action(), ArgAction::SetTrue).then(|| "false".to_owned());
                    (
                        value,
                        if matches!(arg.get_action(), ArgAction::SetTrue) {
                            "default"
                        } else {
                            "unset"
                        }
                        .to_owned(),
                    )
                } else {
                    (Some(defaults.join(",")), "default".to_owned())
                }
            };
            let value = if secret {
                value.map(|_| "[redacted]".to_owned())
            } else {
                value
            };
            shown.push(Shown {
                name,
                flag,
                value,
                source,
            });
        }
        stack.extend(cmd.get_subcommands());
    }
    shown.sort_by(|a, b| a.name.cmp(&b.name));
    shown
}

/// `config show` as JSON.
fn to_json(shown: &[Shown], settings: &Settings, tokens: &Path) -> Value {
    json!({
        "settings": shown.iter().map(|s| json!({
            "name": s.name, "flag": s.flag, "value": s.value, "source": s.source,
        })).collect::<Vec<_>>(),
        "files": settings.files.iter().map(|f| json!({
            "path": f.path.display().to_string(), "scope": f.scope.name(), "present": f.present,
        })).collect::<Vec<_>>(),
        "tokenStore": {"path": tokens.display().to_string(), "present": tokens.is_file()},
    })
}

/// `config show` as text: one `NAME: value (source)` line per setting, then the files.
fn print_text(out: &mut Out, shown: &[Shown], settings: &Settings, tokens: &Path) {
    for s in shown {
        let value = s.value.as_deref().unwrap_or("");
        out.field(&s.name, &format!("{value} ({})", s.source));
    }
    for file in &settings.files {
        let present = if file.present { "" } else { ", not present" };
        out.field(
            "Config-File",
            &format!("{} ({}{present})", file.path.display(), file.scope.name()),
        );
    }
    let present = if tokens.is_file() {
        ""
    } else {
        " (not present)"
    };
    out.field("Token-Store", &format!("{}{present}", tokens.display()));
}
