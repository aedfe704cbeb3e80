//! The client tests of ACTS (§10, feature `client`): each step's canonical wire payload served
//! by a scripted HTTP server, the operation called with a2a-client over JSON-RPC, the parsed
//! result (or error) as its 1.0 JSON held to `expect_parsed`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use a2a_client::A2aClient;
use a2a_types::protocol::{Call, Operation};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

use crate::load::{Suite, TestCase};
use crate::matcher::check;
use crate::report::{KnownFailures, Outcome, Report, TestResult};

/// A server that answers the card at its well-known path and every POST with `payload` (a
/// JSON-RPC response: its `id` set to the request's; a bare result is wrapped in one).
struct Scripted {
    url: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(card: Option<Value>, payload: Value) -> Result<Scripted, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot listen: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let url = format!("http://{addr}");
    let card = Arc::new(card.unwrap_or_else(|| {
        json!({"name": "Scripted", "description": "ACTS client tests", "version": "1.0.0",
            "capabilities": {"streaming": true, "extendedAgentCard": true},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": [],
            "supportedInterfaces": [{"url": format!("{url}/"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]})
    }));
    let payload = Arc::new(payload);
    let task = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (card, payload) = (card.clone(), payload.clone());
            tokio::spawn(async move {
                let service = service_fn(move |request: http::Request<hyper::body::Incoming>| {
                    let (card, payload) = (card.clone(), payload.clone());
                    async move {
                        let body = if request.method() == http::Method::GET {
                            card.to_string()
                        } else {
                            let bytes = request
                                .into_body()
                                .collect()
                                .await
                                .map(|b| b.to_bytes())
                                .unwrap_or_default();
                            let id = serde_json::from_slice::<Value>(&bytes)
                                .ok()
                                .and_then(|v| v.get("id").cloned())
                                .unwrap_or(Value::Null);
                            let mut answer = if payload.get("jsonrpc").is_some() {
                                (*payload).clone()
                            } else {
                                json!({"jsonrpc": "2.0", "result": *payload})
                            };
                            answer["id"] = id;
                            answer.to_string()
                        };
                        Ok::<_, Infallible>(
                            http::Response::builder()
                                .header("content-type", "application/json")
                                .body(Full::new(Bytes::from(body)))
                                .expect("a response"),
                        )
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok(Scripted { url, task })
}

/// The JSON a2a-client parsed: the result, or `{"error": {code, message, data}}`.
fn parsed(answer: Result<Value, a2a_client::Error>) -> Value {
    match answer {
        Ok(value) => value,
        Err(error) => match error.agent_error() {
            Some(agent) => json!({"error": {
                "code": agent.code().code(),
                "message": agent.message(),
                "data": agent.details(),
            }}),
            None => json!({"error": {"message": error.to_string()}}),
        },
    }
}

/// Runs one client step: serves its payload, calls its operation, checks what was parsed.
async fn step(step: &Value) -> Result<(), String> {
    let response = &step["client_response"];
    let name = response["operation"].as_str().unwrap_or_default();
    let payload = response["wire_payload"].clone();
    let expected = step
        .get("expect_parsed")
        .ok_or_else(|| "a client step without expect_parsed".to_owned())?;
    let got = if name == "get_agent_card" {
        let server = serve(Some(payload), Value::Null).await?;
        let card = A2aClient::builder().fetch_card(&server.url).await;
        parsed(card.map(|c| serde_json::to_value(c).unwrap_or(Value::Null)))
    } else {
        let operation = match name {
            "send_message" => Operation::SendMessage,
            "get_task" => Operation::GetTask,
            "list_tasks" => Operation::ListTasks,
            "cancel_task" => Operation::CancelTask,
            "get_extended_agent_card" => Operation::GetExtendedAgentCard,
            other => return Err(format!("the client operation `{other}` is not supported")),
        };
        let params = match operation {
            Operation::SendMessage => {
                json!({"message": {"role": "ROLE_USER", "messageId": "m-1", "parts": [{"text": "hi"}]}})
            }
            Operation::GetTask | Operation::CancelTask => json!({"id": "task-1"}),
            _ => json!({}),
        };
        let Ok(Call::Unary(request)) = Call::deserialize(operation, &params) else {
            return Err(format!("{operation}: no unary request"));
        };
        let server = serve(None, payload).await?;
        let client = A2aClient::builder()
            .connect(&server.url)
            .await
            .map_err(|e| format!("the client could not connect to the scripted server: {e}"))?;
        parsed(
            client
                .call(request)
                .await
                .map(|reply| serde_json::to_value(reply).unwrap_or(Value::Null)),
        )
    };
    check(expected, Some(&got), "$").map_err(|m| m.to_string())
}

async fn test(test: &TestCase) -> TestResult {
    let started = Instant::now();
    let mut result = TestResult {
        id: test.id.clone(),
        name: test.name.clone(),
        suite: test.suite.clone(),
        level: test.level,
        binding: "client".into(),
        outcome: Outcome::Pass,
        step: None,
        message: None,
        mismatch: None,
        duration_ms: 0,
    };
    for s in &test.steps {
        if let Err(message) = step(s).await {
            result.outcome = Outcome::Fail;
            result.step = s["id"].as_str().map(str::to_owned);
            result.message = Some(message);
            break;
        }
    }
    result.duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    result
}

/// Runs the client tests (ACTS §10) of `suite` against a2a-client: each payload served by a
/// scripted server on 127.0.0.1, parsed by the client over JSON-RPC (binding `client` in the
/// results and in `known`). Server tests are left out.
pub async fn run_client_tests(
    suite: &Suite,
    known: &KnownFailures,
    progress: &mut (dyn FnMut(&TestResult) + Send),
) -> Report {
    let mut report = Report {
        agent: "a2a-client (scripted server)".into(),
        results: Vec::new(),
    };
    for t in suite.tests.iter().filter(|t| t.is_client_test()) {
        let result = crate::run::known_failure(test(t).await, known);
        progress(&result);
        report.results.push(result);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ACTS folder of the spec files: `$A2A_SPEC_DIR/acts`, else `../shared/spec/acts`.
    fn acts_dir() -> std::path::PathBuf {
        let spec = std::env::var_os("A2A_SPEC_DIR")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec")
            });
        let acts = spec.join("acts");
        assert!(
            acts.join("client-parsing.acts.yaml").is_file(),
            "the ACTS files are not at {}: set A2A_SPEC_DIR to the spec folder",
            acts.display()
        );
        acts
    }

    /// ACTS's client-parsing tests (canonical wire payloads) parse in a2a-client.
    #[tokio::test]
    async fn the_client_parsing_tests_pass_against_a2a_client() {
        let suite = Suite::load(acts_dir().join("client-parsing.acts.yaml")).unwrap();
        let known = KnownFailures::load(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/acts-known-failures.yaml"
        ))
        .unwrap();
        let report = run_client_tests(&suite, &known, &mut |_| {}).await;
        assert_eq!(report.results.len(), 8);
        let unexpected: Vec<String> = report
            .results
            .iter()
            .filter(|r| !matches!(r.outcome, Outcome::Pass | Outcome::Xfail))
            .map(TestResult::line)
            .collect();
        assert!(unexpected.is_empty(), "{unexpected:#?}");
        assert!(report.conformant(crate::Level::May));
    }

    /// A payload the client parses otherwise than the step expects fails with the mismatch.
    #[tokio::test]
    async fn a_wrong_expectation_fails_with_its_path() {
        let suite = Suite::from_yaml(
            r#"
acts_version: "1.0"
suites:
  - id: c
    name: c
    tests:
      - id: C-1
        name: c
        level: must
        steps:
          - id: parse
            client_response:
              operation: get_task
              wire_payload:
                jsonrpc: "2.0"
                id: "x"
                result: {id: "t-9", contextId: "c", status: {state: TASK_STATE_WORKING}}
            expect_parsed:
              status: {state: TASK_STATE_COMPLETED}
"#,
            std::path::Path::new("."),
        )
        .unwrap();
        let report = run_client_tests(&suite, &KnownFailures::default(), &mut |_| {}).await;
        assert_eq!(
            report.results[0].message.as_deref(),
            Some(
                r#"$.status.state: not equal; expected "TASK_STATE_COMPLETED", got "TASK_STATE_WORKING""#
            )
        );
    }
}
