//! The tool bridge (feature `tools`): descriptors of the fixture cards of every version,
//! held to the tool-definition shapes of the APIs, and tool calls against the real server.

#![cfg(feature = "tools")]

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_client::A2aClient;
use a2a_client::tools::{
    AgentTools, CallOptions, Refreshed, ToolContent, ToolError, ToolFormat, ToolOutcome,
    ToolRegistry, descriptors,
};
use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};
use common::{Scripted, answer, start, start_with};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// The workspace's `tests/fixtures`.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// The agent cards of the fixtures, every version.
const CARDS: [&str; 8] = [
    "v1/AgentCard.full.json",
    "v1/AgentCard.minimal.json",
    "v1/spec/AgentCard.section-4-6-1-extension-declaration.json",
    "v1/spec/AgentCard.section-8-5-sample.json",
    "v0_3/AgentCard.section-5-7-sample.json",
    "v0_3/AgentCard.v0-2-5-handwritten.json",
    "v0_3/AgentCard.v0-2-6-handwritten.json",
    "v0_1/AgentCard.seed-001-agent-card.json",
];

fn card(path: &str) -> AgentCard {
    let text = std::fs::read_to_string(fixtures().join(path)).unwrap();
    a2a_types::card::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rendered(card: &AgentCard) -> Value {
    let tools = descriptors(card);
    json!({
        "openai": ToolFormat::OpenAi.render(&tools),
        "anthropic": ToolFormat::Anthropic.render(&tools),
        "mcp": ToolFormat::Mcp.render(&tools),
    })
}

/// Each card's tools in the three shapes, against the literal JSON of
/// `tests/fixtures/tools/<version>/<card>` (written by `A2A_BLESS=1` when a change is
/// meant; review the diff).
#[test]
fn fixture_cards_give_the_expected_tools() {
    let bless = std::env::var_os("A2A_BLESS").is_some();
    for path in CARDS {
        let got = rendered(&card(path));
        let expected_path = fixtures().join("tools").join(path);
        if bless {
            std::fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
            let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
            std::fs::write(&expected_path, text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; the tools are\n{}",
                expected_path.display(),
                serde_json::to_string_pretty(&got).unwrap()
            )
        });
        let expected: Value = serde_json::from_str(&expected).unwrap();
        assert_eq!(got, expected, "{path}");
    }
}

/// The tool-definition schemas of `tests/fixtures/tools/schemas`: written by this project from
/// the APIs' documentation (none of the three publishes a JSON Schema of a tool definition
/// that could be embedded here), strict about what we emit.
fn schema(name: &str) -> jsonschema::Validator {
    let path = fixtures().join("tools/schemas").join(name);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_tool_follows_the_api_shapes_and_its_schema_takes_the_arguments() {
    let openai = schema("openai-function-tool.schema.json");
    let anthropic = schema("anthropic-tool.schema.json");
    let mcp = schema("mcp-tool.schema.json");
    let mut checked = 0;
    for path in CARDS {
        for tool in descriptors(&card(path)) {
            for (validator, value) in [
                (&openai, tool.to_openai()),
                (&anthropic, tool.to_anthropic()),
                (&mcp, tool.to_mcp()),
            ] {
                let errors: Vec<String> = validator
                    .iter_errors(&value)
                    .map(|e| e.to_string())
                    .collect();
                assert!(errors.is_empty(), "{path} {}: {errors:?}", tool.name);
            }
            // The input schema is a JSON Schema, and it takes what a model would send.
            let input = jsonschema::validator_for(&tool.input_schema).unwrap();
            assert!(input.is_valid(&json!({"message": "hi"})));
            assert!(input.is_valid(&json!({"message": "yes", "taskId": "t", "contextId": "c"})));
            assert!(!input.is_valid(&json!({})), "{path}: message is required");
            assert!(!input.is_valid(&json!({"message": "x", "other": 1})));
            assert_eq!(
                input.is_valid(&json!({"message": "x", "data": {"k": 1}})),
                tool.inputs.data,
                "{path} {}",
                tool.name
            );
            assert_eq!(
                input.is_valid(&json!({"message": "x", "files": [{"url": "https://f/a.png"}]})),
                tool.inputs.files,
                "{path} {}",
                tool.name
            );
            checked += 1;
        }
    }
    assert!(checked >= CARDS.len());
}

// ----- calls against the real server -----------------------------------------------------------

fn message(text: &str) -> Value {
    json!({"message": text})
}

#[tokio::test]
async fn a_call_streams_the_task_and_returns_its_artifact() {
    let server = start().await;
    let tools = AgentTools::new(A2aClient::connect(&server.url()).await.unwrap());
    assert_eq!(tools.descriptors().len(), 1);
    let result = tools.call("echo", &message("echo this")).await.unwrap();
    assert_eq!(result.outcome, ToolOutcome::Completed);
    assert_eq!(result.content, [ToolContent::Text("echo this".into())]);
    assert!(result.task_id.is_some());
    // Chunks of one artifact are joined.
    let result = tools.call("echo", &message("chunks 3")).await.unwrap();
    assert_eq!(result.text(), "c0 c1 c2 ");
    // A direct answer.
    let result = tools.call("echo", &message("hello")).await.unwrap();
    assert_eq!(result.outcome, ToolOutcome::Answered);
    assert_eq!(result.text(), "hi!");
}

#[tokio::test]
async fn without_streaming_the_call_waits_for_the_answer() {
    let server = start().await;
    let tools = AgentTools::new(A2aClient::connect(&server.url()).await.unwrap())
        .with_options(CallOptions::default().with_streaming(false));
    let result = tools.call("echo", &message("plain")).await.unwrap();
    assert_eq!(result.outcome, ToolOutcome::Completed);
    assert_eq!(result.text(), "plain");
    let result = tools.call("echo", &message("fail")).await.unwrap();
    assert_eq!(result.outcome, ToolOutcome::Failed);
    assert!(result.is_error());
    assert_eq!(
        result.to_mcp()["structuredContent"]["outcome"],
        json!("failed")
    );
}

#[tokio::test]
async fn input_required_is_a_result_that_says_how_to_continue() {
    let server = start().await;
    let tools = AgentTools::new(A2aClient::connect(&server.url()).await.unwrap());
    let asked = tools.call("echo", &message("ask")).await.unwrap();
    assert_eq!(asked.outcome, ToolOutcome::InputRequired);
    assert!(!asked.is_error());
    let task = asked.task_id.clone().unwrap();
    let context = asked.context_id.clone().unwrap();
    assert_eq!(
        asked.text(),
        format!(
            "The agent needs more input: which city?\nTo answer, call this tool again with \
             taskId \"{task}\" and contextId \"{context}\"."
        )
    );
    // The answer continues the same task.
    let answered = tools
        .call(
            "echo",
            &json!({"message": "Paris", "taskId": task, "contextId": context}),
        )
        .await
        .unwrap();
    assert_eq!(answered.outcome, ToolOutcome::Completed);
    assert_eq!(answered.task_id.as_deref(), Some(task.as_str()));
    assert_eq!(answered.text(), "Paris");
}

#[tokio::test]
async fn a_timeout_or_a_cancel_ends_the_call_and_cancels_the_task() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    let tools = AgentTools::new(client.clone())
        .with_options(CallOptions::default().with_timeout(Some(Duration::from_millis(300))));
    let result = tools.call("echo", &message("wait")).await.unwrap();
    assert_eq!(result.outcome, ToolOutcome::TimedOut);
    assert_eq!(
        result.status_text.as_deref(),
        Some("no end after 0.3 s; the task was asked to cancel")
    );
    let task = result.task_id.clone().expect("the task was seen");
    let state = client
        .get_task(a2a_types::v1::GetTaskRequest::new(task.as_str()))
        .await
        .unwrap()
        .status
        .state;
    assert_eq!(state, a2a_types::v1::TaskState::Canceled);

    // The caller's cancel.
    let tools = AgentTools::new(client.clone());
    let cancel = tokio::time::sleep(Duration::from_millis(200));
    let result = tools
        .call_until("echo", &message("wait"), cancel)
        .await
        .unwrap();
    assert_eq!(result.outcome, ToolOutcome::Canceled);
    assert!(result.is_error());
}

#[tokio::test]
async fn a_call_dropped_midway_cancels_its_task() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    let tools = AgentTools::new(client.clone());
    // The caller gives up (an MCP client that went away): the call's future is dropped.
    let dropped = tokio::time::timeout(
        Duration::from_millis(300),
        tools.call("echo", &message("wait")),
    )
    .await;
    assert!(dropped.is_err());
    let mut state = None;
    for _ in 0..50 {
        let page = client
            .list_tasks(a2a_types::v1::ListTasksRequest::new())
            .await
            .unwrap();
        assert_eq!(page.tasks.len(), 1);
        state = Some(page.tasks[0].status.state);
        if state == Some(a2a_types::v1::TaskState::Canceled) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(state, Some(a2a_types::v1::TaskState::Canceled));
}

#[tokio::test]
async fn bad_calls_are_named() {
    let server = start().await;
    let tools = AgentTools::new(A2aClient::connect(&server.url()).await.unwrap());
    let error = tools.call("nope", &message("x")).await.unwrap_err();
    assert!(matches!(error, ToolError::UnknownTool(ref name) if name == "nope"));
    let error = tools
        .call("echo", &json!({"message": "x", "files": []}))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid arguments: this tool takes no `files`"
    );
    assert_eq!(
        error.into_result().to_mcp(),
        json!({
            "content": [{"type": "text", "text": "The call failed: invalid arguments: this tool takes no `files`"}],
            "structuredContent": {"outcome": "error"},
            "isError": true
        })
    );
}

/// An agent whose artifact holds text, data, a file URL and file bytes.
fn files_agent(url: &str) -> A2aService {
    let agent = agent_fn(|_ctx, sink| async move {
        let parts = vec![
            Part::text("report"),
            Part::data(json!({"rows": 2})),
            Part::url("https://files.example/r.csv")
                .with_filename("r.csv")
                .with_media_type("text/csv"),
            Part::raw(b"PNG".to_vec()).with_media_type("image/png"),
        ];
        sink.artifact(Artifact::new("out", parts)).await?;
        sink.complete(None).await?;
        Ok(())
    });
    let card = AgentCard::new("Files", "Makes files", "1")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain", "application/json", "image/png"])
        .with_skills([AgentSkill::new(
            "report",
            "Report",
            "Makes a report",
            ["files"],
        )]);
    A2aService::builder(agent, card).public_url(url).build()
}

#[tokio::test]
async fn artifacts_become_text_json_and_file_references() {
    let server = start_with(files_agent).await;
    let tools = AgentTools::new(A2aClient::connect(&server.url()).await.unwrap());
    let tool = &tools.descriptors()[0];
    assert!(tool.inputs.files && tool.inputs.data);
    let result = tools
        .call(
            "report",
            &json!({"message": "go", "data": {"q": 1}, "files": [{"bytes": "aGk=", "mediaType": "text/plain"}]}),
        )
        .await
        .unwrap();
    let task = result.task_id.clone().unwrap();
    assert_eq!(
        result.to_mcp(),
        json!({
            "content": [
                {"type": "text", "text": "report"},
                {"type": "text", "text": "{\"rows\":2}"},
                {"type": "resource_link", "uri": "https://files.example/r.csv", "name": "r.csv", "mimeType": "text/csv"},
                {"type": "text", "text": format!("File (image/png, 3 bytes) in artifact out of task {task}")}
            ],
            "structuredContent": {"outcome": "completed", "taskId": task, "contextId": result.context_id.clone().unwrap()},
            "isError": false
        })
    );
    assert_eq!(
        result.to_openai("call_1"),
        json!({
            "role": "tool",
            "tool_call_id": "call_1",
            "content": format!(
                "report\n\n{{\"rows\":2}}\n\nFile r.csv (text/csv): https://files.example/r.csv\n\n\
                 File (image/png, 3 bytes) in artifact out of task {task}"
            )
        })
    );
}

// ----- the registry ------------------------------------------------------------------------------

#[tokio::test]
async fn a_registry_names_tools_uniquely_and_calls_the_right_agent() {
    let echo = start().await;
    let files = start_with(files_agent).await;
    let registry = ToolRegistry::new();
    registry.add(&echo.url()).await.unwrap();
    registry.add(&files.url()).await.unwrap();
    registry.add(&echo.url()).await.unwrap();
    let names: Vec<String> = registry.descriptors().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["echo", "report", "echo_2"]);
    let result = registry.call("report", &message("go")).await.unwrap();
    assert_eq!(result.content[0], ToolContent::Text("report".into()));
    let result = registry.call("echo_2", &message("again")).await.unwrap();
    assert_eq!(result.text(), "again");
    // a2a-server sends an ETag, so a check of an unchanged card is a 304.
    assert_eq!(
        registry
            .refresh()
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect::<Vec<_>>(),
        [
            Refreshed::Unchanged,
            Refreshed::Unchanged,
            Refreshed::Unchanged
        ]
    );
}

/// A card server whose card changes when the test says so; `ETag` is the version.
fn versioned_card(version: u32, url: &str) -> String {
    let skill = if version == 1 { "first" } else { "second" };
    json!({
        "name": "Versioned", "description": "d", "version": version.to_string(),
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": skill, "name": skill, "description": "d", "tags": []}]
    })
    .to_string()
}

#[tokio::test]
async fn the_registry_refreshes_cards_by_etag() {
    let version = Arc::new(Mutex::new(1u32));
    let served = version.clone();
    let server = Scripted::start(move |_, seen| {
        let version = *served.lock().unwrap();
        let etag = format!("\"v{version}\"");
        if seen.header("if-none-match") == Some(etag.as_str()) {
            return Some(
                http::Response::builder()
                    .status(304)
                    .header("etag", &etag)
                    .body(http_body_util::Full::new(bytes::Bytes::new()))
                    .unwrap(),
            );
        }
        let mut card = answer(
            200,
            Some("application/json"),
            versioned_card(version, "http://127.0.0.1:1/rpc").as_bytes(),
        );
        card.headers_mut().insert("etag", etag.parse().unwrap());
        Some(card)
    })
    .await;
    let registry = ToolRegistry::new();
    let added = registry.add(&server.url()).await.unwrap();
    assert_eq!(added[0].name, "first");
    assert_eq!(
        registry
            .refresh()
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect::<Vec<_>>(),
        [Refreshed::Unchanged]
    );
    *version.lock().unwrap() = 2;
    assert_eq!(
        registry
            .refresh()
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect::<Vec<_>>(),
        [Refreshed::Changed]
    );
    assert_eq!(registry.descriptors()[0].name, "second");
    let validators: Vec<Option<String>> = server
        .seen()
        .iter()
        .map(|s| s.header("if-none-match").map(str::to_owned))
        .collect();
    assert_eq!(
        validators,
        [None, Some("\"v1\"".to_owned()), Some("\"v1\"".to_owned())]
    );
}
