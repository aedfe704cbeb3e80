//! `a2a tools REF...`: the tool descriptors of agents, in the JSON of a tool-calling API.

use a2a_client::tools::{CallOptions, ToolFormat};
use clap::Args;

use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Common;
use crate::output::Out;
use crate::registry::{references, registry};

/// The arguments of `a2a tools`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ToolsArgs {
    /// The agents: hosts, card URLs or card files, as -a takes them (and -a itself, if given).
    #[arg(value_name = "REF")]
    pub(crate) agents: Vec<String>,
    /// The JSON shape: `openai` (function tools), `anthropic` (Messages API tools) or `mcp`
    /// (tools/list entries).
    #[arg(long, default_value = "openai", value_parser = parse_format)]
    pub(crate) format: ToolFormat,
    #[command(flatten)]
    pub(crate) common: Common,
}

fn parse_format(text: &str) -> Result<ToolFormat, String> {
    text.parse()
}

/// Runs `a2a tools`: prints the descriptors as one JSON array.
pub(crate) async fn run(args: &ToolsArgs, diag: &Diag) -> Result<(), CliError> {
    let refs = references(&args.agents, &args.common)?;
    let registry = registry(&refs, &args.common, diag, CallOptions::default()).await?;
    let mut out = Out::new(crate::options::Format::Json, false, false);
    out.value(&args.format.render(&registry.descriptors()));
    Ok(())
}
