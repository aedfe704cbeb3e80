//! The gRPC binding (feature `grpc`): a step's 1.0 params decoded into the operation's request,
//! sent with a2a-client's gRPC transport, the reply (or each event) encoded back to its 1.0
//! JSON, an error by its code's name, as the other bindings' answers are.

use std::time::Duration;

use a2a_client::A2aClient;
use a2a_grpc::client::GrpcTransportFactory;
use a2a_types::protocol::{Call, Operation};
use futures_util::StreamExt as _;
use serde_json::{Value, json};

/// What a gRPC call answered: the root, or the events, or the error.
pub(crate) struct GrpcAnswer {
    pub(crate) root: Option<Value>,
    pub(crate) events: Option<Vec<Value>>,
    pub(crate) error: Option<Value>,
}

/// A client of the agent's gRPC interface.
pub(crate) async fn connect(card_url: &str, version: &str) -> Result<A2aClient, String> {
    A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .preferred_transports(["GRPC"])
        .protocol_version(version)
        .connect(card_url)
        .await
        .map_err(|e| format!("the gRPC client could not connect: {e}"))
}

fn error_value(error: &a2a_client::Error) -> Value {
    match error.agent_error() {
        Some(agent) => json!({
            "error_type": agent.code().name().map_or_else(|| agent.code().to_string(), str::to_owned),
            "message": agent.message(),
            "details": agent.details(),
            "status": agent.grpc_status(),
        }),
        None => json!({
            "error_type": error
                .code()
                .and_then(a2a_jsonrpc::ErrorCode::name)
                .unwrap_or("TransportError"),
            "message": error.to_string(),
        }),
    }
}

/// Calls `operation` with the 1.0 `params`.
pub(crate) async fn call(
    client: &A2aClient,
    operation: Operation,
    params: &Value,
    timeout: Duration,
) -> Result<GrpcAnswer, String> {
    let call = Call::deserialize(operation, params)
        .map_err(|e| format!("the params are no {operation} request: {e}"))?;
    match call {
        Call::Unary(request) => {
            let answer = tokio::time::timeout(timeout, client.call(request))
                .await
                .map_err(|_| format!("{operation}: no answer within {} ms", timeout.as_millis()))?;
            Ok(match answer {
                Ok(reply) => GrpcAnswer {
                    root: Some(serde_json::to_value(&reply).map_err(|e| e.to_string())?),
                    events: None,
                    error: None,
                },
                Err(e) => GrpcAnswer {
                    root: None,
                    events: None,
                    error: Some(error_value(&e)),
                },
            })
        }
        Call::Stream(request) => {
            let mut stream = match client.open(request, None).await {
                Ok(stream) => stream,
                Err(e) => {
                    return Ok(GrpcAnswer {
                        root: None,
                        events: None,
                        error: Some(error_value(&e)),
                    });
                }
            };
            let mut events = Vec::new();
            let deadline = tokio::time::Instant::now() + timeout;
            loop {
                match tokio::time::timeout_at(deadline, stream.next()).await {
                    Err(_) | Ok(None) => break,
                    Ok(Some(Ok(event))) => {
                        events.push(serde_json::to_value(&event).map_err(|e| e.to_string())?);
                    }
                    Ok(Some(Err(e))) => {
                        events.push(json!({"error": error_value(&e)}));
                        break;
                    }
                }
            }
            // A stream whose only event is an error is the call's error.
            if let [only] = events.as_slice()
                && let Some(error) = only.get("error")
            {
                return Ok(GrpcAnswer {
                    root: None,
                    events: None,
                    error: Some(error.clone()),
                });
            }
            Ok(GrpcAnswer {
                root: None,
                events: Some(events),
                error: None,
            })
        }
        _ => Err(format!("{operation}: neither unary nor streaming")),
    }
}
