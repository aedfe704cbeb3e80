//! `a2a tools` prints an agent's tool descriptors; `a2a mcp` serves them to an MCP client,
//! driven here over stdio by rmcp's own client against `a2a serve` (the echo agent).

use std::process::{Command, Stdio};

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

mod support;

use support::{A2A, Serve};

/// The echo agent's one tool, as an MCP tool.
fn echo_tool() -> Value {
    json!({
        "name": "echo",
        "title": "Echo",
        "description": "Repeats the message: its text, files and data.\n\nTags: echo",
        "inputSchema": {
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "The request to the agent, in natural language."},
                "files": {
                    "type": "array",
                    "description": "Files to send with the message: each a URL or base64 bytes.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "url": {"type": "string", "description": "Where the file is."},
                            "bytes": {"type": "string", "description": "The file's content, base64."},
                            "name": {"type": "string", "description": "The file name."},
                            "mediaType": {"type": "string", "description": "The media type, e.g. image/png."}
                        },
                        "additionalProperties": false
                    }
                },
                "data": {"type": "object", "description": "Structured input for the agent, as a JSON object."},
                "taskId": {"type": "string", "description": "To answer an agent that asked for more input: the taskId of its tool result."},
                "contextId": {"type": "string", "description": "To continue a conversation: the contextId of an earlier tool result."}
            },
            "required": ["message"],
            "additionalProperties": false
        },
        "annotations": {"title": "Echo", "readOnlyHint": false, "openWorldHint": true}
    })
}

#[test]
fn tools_prints_the_descriptors_in_each_format() {
    let served = Serve::start(&["--no-grpc"]);
    let url = served.url.clone();
    let run = |format: &str| -> Value {
        let out = Command::new(A2A)
            .args(["tools", &url, "--format", format])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mcp = echo_tool();
    assert_eq!(run("mcp"), json!([mcp]));
    assert_eq!(
        run("anthropic"),
        json!([{"name": "echo", "description": mcp["description"], "input_schema": mcp["inputSchema"]}])
    );
    assert_eq!(
        run("openai"),
        json!([{"type": "function", "function": {"name": "echo", "description": mcp["description"], "parameters": mcp["inputSchema"]}}])
    );
    // A bad format is a usage error naming the choices.
    let out = Command::new(A2A)
        .args(["tools", &url, "--format", "gemini"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("expected openai, anthropic or mcp"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_serves_the_tools_to_an_mcp_client_over_stdio() {
    let served = Serve::start(&["--no-grpc"]);
    let url = served.url.clone();
    let mut child = tokio::process::Command::new(A2A)
        .args(["mcp", &url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("a2a mcp starts");
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    let client = ().serve((stdout, stdin)).await.expect("the MCP handshake");

    let info = client.peer_info().expect("the server's info");
    let server = info.server_info.as_ref().expect("the server names itself");
    assert_eq!(server.name, "a2a-mcp");

    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(serde_json::to_value(&tools).unwrap(), json!([echo_tool()]));

    let arguments = json!({"message": "hello over MCP"});
    let result = client
        .call_tool(
            CallToolRequestParams::new("echo")
                .with_arguments(arguments.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    let result = serde_json::to_value(&result).unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "hello over MCP"}])
    );
    assert_eq!(result["isError"], json!(false));
    assert_eq!(result["structuredContent"]["outcome"], json!("completed"));
    assert!(result["structuredContent"]["taskId"].is_string());

    // Arguments the tool does not take: a tool result that says so, not a protocol error.
    let result = client
        .call_tool(
            CallToolRequestParams::new("echo").with_arguments(
                json!({"message": "x", "colour": "red"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let result = serde_json::to_value(&result).unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "The call failed: invalid arguments: this tool takes no `colour`"}])
    );
    assert_eq!(result["isError"], json!(true));

    // An unknown tool is a protocol error.
    let error = client
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("no tool is named `nope`"),
        "{error}"
    );

    client.cancel().await.unwrap();
    let status = child.wait().await.unwrap();
    assert!(
        status.success(),
        "a2a mcp ends when its client leaves: {status}"
    );
}

/// One MCP request over streamable HTTP; returns the session id and the JSON-RPC answer (the
/// last `data:` line of the event stream).
async fn post(url: &str, session: Option<&str>, body: Value) -> (Option<String>, Option<Value>) {
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18");
    if let Some(session) = session.filter(|s| !s.is_empty()) {
        request = request.header("mcp-session-id", session);
    }
    let request = request.body(bytes::Bytes::from(body.to_string())).unwrap();
    let (head, body) = a2a_client::ClientBuilder::new()
        .send_http("mcp", request)
        .await
        .unwrap();
    assert!(head.status.is_success(), "{}: {body:?}", head.status);
    let session = head
        .headers
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = String::from_utf8_lossy(&body);
    if head
        .headers
        .get("content-type")
        .is_some_and(|t| t == "application/json")
    {
        return (session, Some(serde_json::from_str(&text).unwrap()));
    }
    let answer = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .rfind(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap());
    (session, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_serves_streamable_http_with_http() {
    let served = Serve::start(&["--no-grpc"]);
    let url = served.url.clone();
    let mut child = tokio::process::Command::new(A2A)
        .args(["mcp", &url, "--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("a2a mcp --http starts");
    let mut first = String::new();
    {
        use tokio::io::AsyncBufReadExt as _;
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap());
        lines.read_line(&mut first).await.unwrap();
    }
    let mcp = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
        .trim_end_matches(';')
        .to_owned();
    assert!(mcp.ends_with("/mcp"), "{first}");

    let (session, answer) = post(
        &mcp,
        None,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
    )
    .await;
    // Stateless: no session to keep.
    assert_eq!(session, None);
    let session = String::new();
    assert_eq!(
        answer.unwrap()["result"]["serverInfo"]["name"],
        json!("a2a-mcp")
    );
    post(
        &mcp,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    let (_, answer) = post(
        &mcp,
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    )
    .await;
    assert_eq!(answer.unwrap()["result"]["tools"], json!([echo_tool()]));
    let (_, answer) = post(
        &mcp,
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "echo", "arguments": {"message": "over http"}}}),
    )
    .await;
    let result = &answer.unwrap()["result"];
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "over http"}])
    );
    assert_eq!(result["isError"], json!(false));
    child.kill().await.unwrap();
}
