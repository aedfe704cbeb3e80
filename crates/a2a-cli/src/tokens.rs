//! The token store of `a2a auth login`: OAuth 2 tokens in `~/.config/a2a-cli/tokens.json`
//! (`$XDG_CONFIG_HOME/a2a-cli`), created with mode 0600 in a folder of mode 0700, keyed by the
//! agent's origin (the scheme, host and port of its card's first interface). Later commands for
//! that agent send the stored token as `Authorization: Bearer` (a `--bearer` given wins over it)
//! until it expires, through `a2a_client::credentials::RefreshingToken` (read from the store
//! again when it expires or the agent refuses it). No refresh token is kept: an expired token
//! needs a new `auth login`. `auth logout` removes it; the file can also be edited or deleted by
//! hand. Nothing else is stored: no task, no context.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_client::credentials::RefreshingToken;
use a2a_types::v1::AgentCard;
use serde::{Deserialize, Serialize};

use crate::config::config_dir;
use crate::diag::Diag;
use crate::error::{CliError, Code};

/// One stored token.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stored {
    /// The token.
    pub(crate) access_token: String,
    /// Its type (`Bearer`).
    pub(crate) token_type: String,
    /// Unix seconds; `None` when the server gave no lifetime.
    pub(crate) expires_at: Option<u64>,
    /// The card's security scheme it was got for.
    pub(crate) scheme: String,
}

/// The token file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Store {
    /// The tokens by agent origin.
    #[serde(default)]
    pub(crate) tokens: BTreeMap<String, Stored>,
}

/// Where tokens are stored.
pub(crate) fn store_path() -> PathBuf {
    config_dir()
        .unwrap_or_else(|| PathBuf::from(".a2a-cli"))
        .join("tokens.json")
}

/// Reads the store; a missing file is an empty store.
pub(crate) fn read_store(path: &Path) -> Result<Store, String> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|err| {
            format!(
                "the token store {} is not readable JSON: {err}",
                path.display()
            )
        }),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Store::default()),
        Err(err) => Err(format!(
            "cannot read the token store {}: {err}",
            path.display()
        )),
    }
}

/// Writes the store, private to the user (0600 in a 0700 folder), replacing it whole.
pub(crate) fn write_store(path: &Path, store: &Store) -> Result<(), CliError> {
    let fail = |what: &str, err: std::io::Error| {
        CliError::new(
            Code::Internal,
            format!("cannot {what} {}: {err}", path.display()),
        )
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| fail("create the folder of", e))?;
    let text = serde_json::to_vec_pretty(store).expect("the store serializes");
    let temporary = path.with_extension("json.tmp");
    let _ = std::fs::remove_file(&temporary);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temporary).map_err(|e| fail("write", e))?;
    std::io::Write::write_all(&mut file, &text).map_err(|e| fail("write", e))?;
    drop(file);
    std::fs::rename(&temporary, path).map_err(|e| fail("write", e))
}

/// The key of an agent in the store: the origin of its card's first interface.
pub(crate) fn agent_key(card: &AgentCard) -> Option<String> {
    let url = &card.supported_interfaces.first()?.url;
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    Some(format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    ))
}

/// Unix seconds now.
pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The stored token for this agent, if there is one that has not expired, as a token provider
/// of `a2a_client::credentials`: it is read again from the store when it expires (or the agent
/// refuses it), so a token another `a2a auth login` stored meanwhile is picked up; an expired
/// one is not sent.
pub(crate) fn stored_token(card: &AgentCard, diag: &Diag) -> Option<RefreshingToken> {
    let key = agent_key(card)?;
    let path = store_path();
    let first = match read_store(&path) {
        Ok(store) => store.tokens.get(&key).cloned()?,
        Err(message) => {
            diag.warn(&message);
            return None;
        }
    };
    if first.expires_at.is_some_and(|at| at <= now()) {
        diag.warn(&format!(
            "the token stored for {key} has expired; log in again with `a2a auth login`"
        ));
        return None;
    }
    diag.debug(&format!(
        "using the token stored for {key} by `a2a auth login`"
    ));
    diag.secret(&first.access_token);
    let first = std::sync::Mutex::new(Some(first));
    Some(
        RefreshingToken::new(move || {
            // The token read above first; the store again after it.
            let taken = first
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            let stored = match taken {
                Some(stored) => stored,
                None => read_store(&path)?.tokens.remove(&key).ok_or_else(|| {
                    format!("no token is stored for {key} any more; log in with `a2a auth login`")
                })?,
            };
            let now = now();
            match stored.expires_at {
                Some(at) if at <= now => Err(format!(
                    "the token stored for {key} has expired; log in again with `a2a auth login`"
                )),
                at => Ok((
                    stored.access_token,
                    at.map(|at| Duration::from_secs(at - now)),
                )),
            }
        })
        .with_margin(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_are_keyed_by_origin() {
        let card = AgentCard::new("A", "d", "1").with_supported_interfaces([
            a2a_types::v1::AgentInterface::new(
                "HTTP://Agent.Example:8443/a2a/v1",
                "JSONRPC",
                "1.0",
            ),
        ]);
        assert_eq!(
            agent_key(&card).as_deref(),
            Some("http://agent.example:8443")
        );
        assert_eq!(agent_key(&AgentCard::new("A", "d", "1")), None);
    }
}
