//! `a2a mock [SCRIPT]`: a scripted agent (a2a-server's `MockAgent`) over every binding the
//! server speaks; with no script, the built-in demo agent (`examples/mock.yaml`), which is the
//! CLI specification's `demo-server`.

use std::path::Path;

use a2a_server::A2aService;
use a2a_server::mock::{MockAgent, Script};

use crate::error::CliError;
use crate::options::Format;
use crate::output::Out;
use crate::request_log::{self, LogArgs};
use crate::serving::{Runtime, VersionArgs, listen, serve_on};

/// The built-in script: the demo agent.
pub(crate) const BUILT_IN: &str = include_str!("../../examples/mock.yaml");

/// The ACTS behaviour contract (`a2a mock --acts`).
pub(crate) const ACTS: &str = include_str!("../../examples/acts.yaml");

/// What `a2a mock` replaces in a script's text by the URL it serves at.
const AGENT: &str = "{{agent}}";

/// The arguments of `a2a mock`.
#[derive(clap::Args, Debug)]
pub(crate) struct MockArgs {
    /// The script: a JSON (.json) or YAML file. Default: the built-in demo agent.
    #[arg(value_name = "SCRIPT")]
    pub(crate) script: Option<std::path::PathBuf>,
    /// Serve the ACTS agent under test instead (the behaviour contract of the A2A Conformance
    /// Test Specification §11: tck-complete-task, tck-multi-turn, tck-cancel, ...;
    /// crates/a2a-cli/examples/acts.yaml). It delivers push notifications, to webhooks on this
    /// host too (loopback is let through the SSRF guard, for the runner's receiver).
    #[arg(long, conflicts_with = "script")]
    pub(crate) acts: bool,
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:7420")]
    pub(crate) addr: String,
    /// Serve gRPC on the same port as JSON-RPC and HTTP+JSON (the default).
    #[arg(long, overrides_with = "no_grpc")]
    pub(crate) grpc: bool,
    /// Serve JSON-RPC and HTTP+JSON only.
    #[arg(long = "no-grpc")]
    pub(crate) no_grpc: bool,
    /// The protocol versions served (--a2a-version).
    #[command(flatten)]
    pub(crate) versions: VersionArgs,
    /// The request log on stderr (-q, -v).
    #[command(flatten)]
    pub(crate) log: LogArgs,
}

/// Runs `a2a mock`: listens, prints the banner, serves until Ctrl-C or SIGTERM.
pub(crate) async fn run(args: &MockArgs) -> Result<(), CliError> {
    let grpc = !args.no_grpc;
    let versions = args.versions.served()?;
    request_log::install(&args.log, None)?;
    let (listener, url) = listen("--addr", &args.addr, false).await?;
    let agent = if args.acts {
        Script::from_yaml(ACTS)
            .map(MockAgent::new)
            .map_err(|err| CliError::usage(format!("the ACTS script: {err}")))?
    } else {
        agent(args.script.as_deref(), &url).map_err(CliError::usage)?
    };
    let push = args.acts.then(acts_push);
    let service = service(&agent, &url, grpc, versions, push);
    let mut printer = Out::new(Format::Text, false, false);
    printer.raw_line(&format!(
        "serving the mock agent {} at {url}",
        agent.card().name
    ));
    let rules = rule_names(&agent);
    if !rules.is_empty() {
        printer.raw_line(&format!("rules: {}", rules.join(", ")));
    }
    printer.raw_line(&format!(
        "store: memory (the tasks end with the server); auth: none (every caller is anonymous); push: {}",
        if args.acts {
            "on, webhooks on loopback allowed (127.0.0.0/8, ::1)"
        } else {
            "off"
        }
    ));
    printer.raw_line(&format!(
        "card: {url}/.well-known/agent-card.json; try: a2a send -a {url} \"help\"; Ctrl-C stops"
    ));
    serve_on(listener, service, grpc, None, Runtime::MultiThread).await
}

/// The mock of `script` (a JSON or YAML file: JSON when its name ends in `.json`), or of the
/// built-in script, with `{{agent}}` in its text replaced by `url` (the address the mock serves
/// at, for hints a user copies: `a2a task cancel -a {{agent}} {{taskId}}`).
pub(crate) fn agent(script: Option<&Path>, url: &str) -> Result<MockAgent, String> {
    let Some(path) = script else {
        return Script::from_yaml(&BUILT_IN.replace(AGENT, url))
            .map(MockAgent::new)
            .map_err(|err| format!("the built-in script: {err}"));
    };
    let text = std::fs::read_to_string(path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?
        .replace(AGENT, url);
    let read = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        Script::from_json(&text)
    } else {
        Script::from_yaml(&text)
    };
    read.map(MockAgent::new)
        .map_err(|err| format!("{}: {err}", path.display()))
}

/// The push delivery of `a2a mock --acts`: a2a-server's defaults, with webhooks on loopback
/// let through the SSRF guard (the ACTS runner's receiver listens on 127.0.0.1 by default).
/// `a2a serve` keeps the guard closed unless told (`--push-allow`).
pub(crate) fn acts_push() -> a2a_server::push::PushSettings {
    ["127.0.0.0/8", "::1/128"]
        .into_iter()
        .map(|net| net.parse().expect("a literal network"))
        .fold(
            a2a_server::push::PushSettings::default(),
            |settings, net| settings.allow(net),
        )
}

/// The service of `mock` at `url`: JSON-RPC and HTTP+JSON (in `versions`: by default 1.0, 0.3,
/// 0.1), with `grpc` the gRPC interface at the same `host:port` on its card, with `push` push
/// delivery (its card then declares push notifications).
pub(crate) fn service(
    mock: &MockAgent,
    url: &str,
    grpc: bool,
    versions: a2a_server::card::Versions,
    push: Option<a2a_server::push::PushSettings>,
) -> A2aService {
    use a2a_grpc::server::GrpcInterface as _;
    let builder = A2aService::builder(mock.clone(), mock.card())
        .public_url(url)
        .versions(versions);
    let builder = if grpc {
        builder.grpc_interface(a2a_server::card::InterfaceUrl::Authority)
    } else {
        builder
    };
    match push {
        Some(settings) => builder.push(settings).build(),
        None => builder.build(),
    }
}

/// What the banner lists: the rules' names, or `#N` for unnamed ones.
pub(crate) fn rule_names(mock: &MockAgent) -> Vec<String> {
    mock.script()
        .rules
        .iter()
        .enumerate()
        .map(|(i, rule)| rule.name.clone().unwrap_or_else(|| format!("#{i}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_script_reads() {
        let mock = agent(None, "http://127.0.0.1:7420").unwrap();
        assert_eq!(
            rule_names(&mock),
            [
                "help", "stream", "ask", "slow", "fail", "reject", "error", "hello"
            ]
        );
        assert_eq!(mock.card().name, "Demo agent");
    }

    #[test]
    fn the_acts_script_reads() {
        let mock = MockAgent::new(Script::from_yaml(ACTS).unwrap());
        assert_eq!(
            rule_names(&mock),
            [
                "tck-complete-task",
                "tck-input-required",
                "tck-auth-required",
                "tck-reject-task",
                "tck-message-response",
                "tck-artifact-text",
                "tck-artifact-file-url",
                "tck-artifact-file",
                "tck-artifact-data",
                "tck-long-running",
                "tck-multi-turn",
                "tck-cancel",
                "tck-stream-basic",
                "tck-stream-chunked",
                "tck-task-failure",
                "done"
            ]
        );
        assert_eq!(mock.card().name, "ACTS agent");
        // Its card declares push notifications, and a webhook on loopback is let through.
        let service = service(
            &mock,
            "http://127.0.0.1:7420",
            false,
            a2a_server::card::Versions::default(),
            Some(acts_push()),
        );
        assert_eq!(service.card().capabilities.push_notifications, Some(true));
    }

    #[test]
    fn a_bad_script_names_its_file() {
        let dir = std::env::temp_dir().join(format!("a2a-mock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.yaml");
        std::fs::write(&path, "rules:\n  - match: { text: a }\n").unwrap();
        let err = agent(Some(&path), "http://127.0.0.1:7420").unwrap_err();
        assert_eq!(
            err,
            format!(
                "{}: YAML script: rules: a rule needs `reply` or `turns` at line 2 column 3",
                path.display()
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
