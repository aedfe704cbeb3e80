//! `a2a mock [SCRIPT]`: a scripted agent (a2a-server's `MockAgent`) over every binding the
//! server speaks; with no script, the built-in demo agent (`examples/mock.yaml`), which is the
//! CLI specification's `demo-server`.

use std::path::Path;

use a2a_server::A2aService;
use a2a_server::mock::{MockAgent, Script};

/// The built-in script: the demo agent.
pub(crate) const BUILT_IN: &str = include_str!("../examples/mock.yaml");

/// The mock of `script` (a JSON or YAML file), or of the built-in script.
pub(crate) fn agent(script: Option<&Path>) -> Result<MockAgent, String> {
    match script {
        Some(path) => MockAgent::from_file(path).map_err(|err| err.to_string()),
        None => Script::from_yaml(BUILT_IN)
            .map(MockAgent::new)
            .map_err(|err| format!("the built-in script: {err}")),
    }
}

/// The service of `mock` at `url`: JSON-RPC and HTTP+JSON (1.0, 0.3, 0.1), and with `grpc`
/// the gRPC interface at the same `host:port` on its card.
pub(crate) fn service(mock: &MockAgent, url: &str, grpc: bool) -> A2aService {
    use a2a_grpc::server::GrpcInterface as _;
    let builder = A2aService::builder(mock.clone(), mock.card()).public_url(url);
    let builder = if grpc {
        builder.grpc_interface(a2a_server::card::InterfaceUrl::Authority)
    } else {
        builder
    };
    builder.build()
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
        let mock = agent(None).unwrap();
        assert_eq!(
            rule_names(&mock),
            [
                "help", "stream", "ask", "slow", "fail", "reject", "error", "hello"
            ]
        );
        assert_eq!(mock.card().name, "Demo agent");
    }

    #[test]
    fn a_bad_script_names_its_file() {
        let dir = std::env::temp_dir().join(format!("a2a-mock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.yaml");
        std::fs::write(&path, "rules:\n  - match: { text: a }\n").unwrap();
        let err = agent(Some(&path)).unwrap_err();
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
