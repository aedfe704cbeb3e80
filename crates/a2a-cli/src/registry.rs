//! The agents of `a2a tools` and `a2a mcp`: the references of the command line, and the
//! `ToolRegistry` of their cards, whose clients take the agent options' settings.

use a2a_client::tools::{CallOptions, ToolRegistry};

use crate::connect::{self, CardRef};
use crate::diag::Diag;
use crate::error::{CliError, Code};
use crate::options::Common;

/// The references of the command line: the positional ones, then -a.
pub(crate) fn references(agents: &[String], common: &Common) -> Result<Vec<String>, CliError> {
    let mut all: Vec<String> = agents.to_vec();
    all.extend(common.agent_card.iter().cloned());
    if all.is_empty() {
        return Err(
            CliError::usage("no agent: name one or more (hosts, card URLs, card files)")
                .hint("e.g. `a2a tools 127.0.0.1:7420` for an agent started with `a2a serve`"),
        );
    }
    Ok(all)
}

/// A registry of the agents `refs` name, their clients built with the options' settings
/// (timeouts, retries, headers, `--bearer`, `--transport`, `--a2a-version`).
pub(crate) async fn registry(
    refs: &[String],
    common: &Common,
    diag: &Diag,
    options: CallOptions,
) -> Result<ToolRegistry, CliError> {
    // Checked once here, so that the registry's builder cannot fail later.
    let _checked = connect::builder(common, diag)?;
    let settings = common.clone();
    let log = diag.clone();
    let registry = ToolRegistry::with_builder(move |_| {
        let mut builder = connect::builder(&settings, &log).unwrap_or_default();
        if let Some(token) = &settings.bearer {
            builder = builder.bearer_auth(token);
        }
        connect::logged(builder, &log)
    })
    .with_options(options);
    for reference in refs {
        let ctx = crate::error::Context {
            agent: reference.clone(),
            credentials: common.bearer.is_some(),
            credentials_hint: None,
        };
        match connect::parse_ref(reference)? {
            CardRef::File(path) => {
                let text = std::fs::read(&path).map_err(|err| {
                    CliError::new(
                        Code::CardNotFound,
                        format!("cannot read the card file {}: {err}", path.display()),
                    )
                })?;
                let card = a2a_types::card::parse_slice(&text).map_err(|err| {
                    CliError::new(
                        Code::CardInvalid,
                        format!("the card file {} is {err}", path.display()),
                    )
                })?;
                registry
                    .add_card(card)
                    .map_err(|e| CliError::from_client(&e, &ctx))?;
            }
            CardRef::Url(urls) => {
                // Two URLs are an origin's well-known locations, which the registry tries too.
                let url = match urls.as_slice() {
                    [one] => one.clone(),
                    _ => origin(&urls[0]),
                };
                registry
                    .add(&url)
                    .await
                    .map_err(|e| CliError::from_client(&e, &ctx))?;
            }
        }
    }
    Ok(registry)
}

/// `scheme://authority` of a URL.
fn origin(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
            format!("{scheme}://{authority}")
        }
        None => url.to_owned(),
    }
}
