//! Configuration: `A2ACLI_*` settings from `.env` files, under the environment and the flags.
//!
//! A value resolves in one fixed order, the first that has it wins:
//!
//! 1. the flag on the command line;
//! 2. the environment variable (`--timeout` is `A2ACLI_TIMEOUT`);
//! 3. the local file: the one `--config PATH` (or `A2ACLI_CONFIG`) names, else the nearest
//!    `.env` in the working directory or one of its parents;
//! 4. the global file, `$XDG_CONFIG_HOME/a2a-cli/.env` (default `~/.config/a2a-cli/.env`);
//! 5. the built-in default, which `--help` shows.
//!
//! Files hold `A2ACLI_NAME=value` lines (`#` comments, `export ` and quotes allowed); other
//! names are ignored, so a project's `.env` can be shared. A file is never written by the tool,
//! and holds configuration only: `--stream` is never read from it, nor any task or context the
//! tool saw. `a2a config show` prints each effective value and where it came from.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{ArgAction, Command};

use crate::error::CliError;

/// The environment variable that names the local file, as `--config` does.
pub(crate) const CONFIG_VAR: &str = "A2ACLI_CONFIG";

/// Where a file sits in the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Named by `--config` or `A2ACLI_CONFIG`.
    Explicit,
    /// The nearest `.env` of the working directory or its parents.
    Local,
    /// `~/.config/a2a-cli/.env`.
    Global,
}

impl Scope {
    /// How `config show` names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Scope::Explicit => "explicit",
            Scope::Local => "local",
            Scope::Global => "global",
        }
    }
}

/// A configuration file the tool looked at.
#[derive(Clone, Debug)]
pub(crate) struct FileInfo {
    /// Its path.
    pub(crate) path: PathBuf,
    /// Its place in the order.
    pub(crate) scope: Scope,
    /// Whether it exists.
    pub(crate) present: bool,
}

/// The settings the files give, and what was wrong in them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    /// The files, highest precedence first.
    pub(crate) files: Vec<FileInfo>,
    /// `A2ACLI_*` name to its value and the file it came from (the higher file wins).
    pub(crate) values: BTreeMap<String, (String, PathBuf)>,
    /// Lines to print on stderr as warnings.
    pub(crate) warnings: Vec<String>,
}

/// The folder of the tool's own files: `$XDG_CONFIG_HOME/a2a-cli`, or `~/.config/a2a-cli`.
pub(crate) fn config_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".config"))
        })?;
    Some(base.join("a2a-cli"))
}

/// The value of `--config` on the command line, if any (read before the rest is parsed, since
/// it decides the defaults of the other options).
fn explicit_config(args: &[OsString]) -> Option<PathBuf> {
    let mut iter = args.iter().skip(1);
    while let Some(arg) = iter.next() {
        let text = arg.to_string_lossy();
        if text == "--" {
            break;
        }
        // `--env-file` is the next revision's spelling of `--config`.
        if text == "--config" || text == "--env-file" {
            return iter.next().map(PathBuf::from);
        }
        if let Some(value) = text
            .strip_prefix("--config=")
            .or_else(|| text.strip_prefix("--env-file="))
        {
            return Some(PathBuf::from(value));
        }
    }
    std::env::var_os(CONFIG_VAR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Reads the files that apply to this command line. `known` are the variable names the options
/// read.
pub(crate) fn load(args: &[OsString], known: &[String]) -> Result<Settings, CliError> {
    let mut settings = Settings::default();
    let local = match explicit_config(args) {
        Some(path) => {
            if !path.is_file() {
                return Err(CliError::usage(format!(
                    "the configuration file {} does not exist",
                    path.display()
                ))
                .hint("--config (or A2ACLI_CONFIG) names a .env file of A2ACLI_NAME=value lines"));
            }
            Some((path, Scope::Explicit))
        }
        None => nearest_env_file().map(|path| (path, Scope::Local)),
    };
    if let Some((path, scope)) = local {
        settings.read(&path, scope, known)?;
    }
    if let Some(dir) = config_dir() {
        let path = dir.join(".env");
        if path.is_file() {
            settings.read(&path, Scope::Global, known)?;
        } else {
            settings.files.push(FileInfo {
                path,
                scope: Scope::Global,
                present: false,
            });
        }
    }
    Ok(settings)
}

/// The nearest `.env` of the working directory and its parents.
fn nearest_env_file() -> Option<PathBuf> {
    let mut dir = std::env::current_dir().ok()?;
    loop {
        let candidate = dir.join(".env");
        if candidate.is_file() {
            return Some(candidate);
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// Settings that hold a secret: never shown, and a file holding one should be private.
pub(crate) const SECRETS: [&str; 3] = ["A2ACLI_BEARER", "A2ACLI_API_KEY", "A2ACLI_CLIENT_SECRET"];

impl Settings {
    fn read(&mut self, path: &Path, scope: Scope, known: &[String]) -> Result<(), CliError> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            CliError::usage(format!(
                "cannot read the configuration file {}: {err}",
                path.display()
            ))
        })?;
        self.files.push(FileInfo {
            path: path.to_owned(),
            scope,
            present: true,
        });
        let mut secret = false;
        for (number, line) in text.lines().enumerate() {
            let Some((name, value)) = parse_line(line) else {
                if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
                    self.warnings.push(format!(
                        "{}:{}: not a NAME=value line; ignored",
                        path.display(),
                        number + 1
                    ));
                }
                continue;
            };
            if !name.starts_with("A2ACLI_") {
                continue;
            }
            if name == "A2ACLI_STREAM" {
                self.warnings.push(format!(
                    "{}:{}: --stream is never read from configuration (give it on the command line); ignored",
                    path.display(),
                    number + 1
                ));
                continue;
            }
            if name == CONFIG_VAR || !known.contains(&name) {
                self.warnings.push(format!(
                    "{}:{}: unknown setting {name}; ignored",
                    path.display(),
                    number + 1
                ));
                continue;
            }
            secret |= SECRETS.contains(&name.as_str());
            self.values
                .entry(name)
                .or_insert_with(|| (value, path.to_owned()));
        }
        if secret && readable_by_others(path) {
            self.warnings.push(format!(
                "{} holds a credential and other users can read it; run `chmod 600 {}`",
                path.display(),
                path.display()
            ));
        }
        Ok(())
    }
}

#[cfg(unix)]
fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
}

#[cfg(not(unix))]
fn readable_by_others(_path: &Path) -> bool {
    false
}

/// One `NAME=value` line of a `.env` file.
fn parse_line(line: &str) -> Option<(String, String)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
    let (name, value) = line.split_once('=')?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let value = value.trim();
    let value = if let Some(inner) = value.strip_prefix('"') {
        let inner = inner.rsplit_once('"').map_or(inner, |(v, _)| v);
        inner
            .replace("\\n", "\n")
            .replace("\\\"", "\"")
            .replace("\\\\", "\\")
    } else if let Some(inner) = value.strip_prefix('\'') {
        inner.rsplit_once('\'').map_or(inner, |(v, _)| v).to_owned()
    } else {
        // An unquoted value ends at ` #`.
        value
            .split_once(" #")
            .map_or(value, |(v, _)| v)
            .trim_end()
            .to_owned()
    };
    Some((name.to_owned(), value))
}

/// Every variable an option of `command` (or of its subcommands) reads.
pub(crate) fn known_vars(command: &Command) -> Vec<String> {
    let mut out = Vec::new();
    collect_vars(command, &mut out);
    out.sort();
    out.dedup();
    out
}

fn collect_vars(command: &Command, out: &mut Vec<String>) {
    for arg in command.get_arguments() {
        if let Some(env) = arg.get_env() {
            out.push(env.to_string_lossy().into_owned());
        }
    }
    for sub in command.get_subcommands() {
        collect_vars(sub, out);
    }
}

/// `command` with the files' values as the defaults of the options that read them (the
/// environment, read by clap, still wins over a default).
pub(crate) fn apply(command: Command, settings: &Settings) -> Command {
    if settings.values.is_empty() {
        return command;
    }
    let mut command = command;
    let ids: Vec<(clap::Id, String, bool, Option<char>)> = command
        .get_arguments()
        .filter_map(|arg| {
            let env = arg.get_env()?.to_string_lossy().into_owned();
            let (value, _) = settings.values.get(&env)?;
            if std::env::var_os(&env).is_some() {
                return None;
            }
            let flag = matches!(arg.get_action(), ArgAction::SetTrue);
            Some((
                arg.get_id().clone(),
                value.clone(),
                flag,
                arg.get_value_delimiter(),
            ))
        })
        .collect();
    for (id, value, flag, delimiter) in ids {
        command = command.mut_arg(id, |arg| {
            if flag {
                arg.default_value(if truthy(&value) { "true" } else { "false" })
            } else if let Some(delimiter) = delimiter {
                let values: Vec<String> = value
                    .split(delimiter)
                    .map(|v| v.trim().to_owned())
                    .filter(|v| !v.is_empty())
                    .collect();
                arg.default_values(values)
            } else {
                arg.default_value(value)
            }
        });
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, |sub| apply(sub, settings));
    }
    command
}

fn truthy(value: &str) -> bool {
    !matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "" | "0" | "false" | "no" | "off" | "n" | "f"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotenv_lines() {
        assert_eq!(
            parse_line("A2ACLI_TIMEOUT=30s"),
            Some(("A2ACLI_TIMEOUT".into(), "30s".into()))
        );
        assert_eq!(
            parse_line("export A2ACLI_AGENT_CARD = \"http://h:1\" "),
            Some(("A2ACLI_AGENT_CARD".into(), "http://h:1".into()))
        );
        assert_eq!(
            parse_line("A2ACLI_X='a # b'"),
            Some(("A2ACLI_X".into(), "a # b".into()))
        );
        assert_eq!(
            parse_line("A2ACLI_X=a # comment"),
            Some(("A2ACLI_X".into(), "a".into()))
        );
        assert_eq!(parse_line("# A2ACLI_X=1"), None);
        assert_eq!(parse_line("not a line"), None);
        assert_eq!(
            parse_line("A2ACLI_X="),
            Some(("A2ACLI_X".into(), String::new()))
        );
    }

    #[test]
    fn flags_are_truthy_or_not() {
        for yes in ["1", "true", "YES", "on"] {
            assert!(truthy(yes), "{yes}");
        }
        for no in ["", "0", "false", "No", "off"] {
            assert!(!truthy(no), "{no}");
        }
    }
}
