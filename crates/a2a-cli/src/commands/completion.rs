//! `a2a completion SHELL`: a completion script of the command tree for a shell.

use clap::{Args, Command};

use crate::error::CliError;

/// The arguments of `completion`.
#[derive(Args, Debug)]
pub(crate) struct CompletionArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// Runs `completion`: prints the script of `tree` (the whole command tree) on stdout.
pub(crate) fn run(args: &CompletionArgs, tree: &mut Command) -> Result<(), CliError> {
    clap_complete::generate(args.shell, tree, "a2a", &mut std::io::stdout());
    Ok(())
}
