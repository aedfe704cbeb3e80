//! The flat JSON-RPC dialect, as PromptKit describes it: A2A 0.3's slash method names plus
//! `tasks/list` and `tasks/subscribe`, at `POST /a2a`, with the [`v1`](crate::v1) JSON shapes
//! (flat parts, camelCase) but lowercase enum values (`"working"`, `"input_required"`,
//! `"user"`), `blocking` rather than `returnImmediately`, and bare results and stream events
//! (a `Task`, not `{"task": …}`).
//!
//! The dialect is the 1.0 JSON with a few values renamed, so it has no types of its own: these
//! functions rewrite JSON between the two, in place, touching only the enum fields and the
//! oneof wrappers (never `data` or `metadata`). The server's JSON-RPC binding and the client's
//! flat transport use them at their edge.
//!
//! ```
//! use a2a_types::flat;
//! use serde_json::json;
//!
//! // What a flat client sends, as the 1.0 request it stands for.
//! let mut params = json!({
//!     "message": {"messageId": "m-1", "role": "user", "parts": [{"text": "hi"}]},
//!     "configuration": {"blocking": false}
//! });
//! flat::params_to_v1(&mut params);
//! assert_eq!(params, json!({
//!     "message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
//!     "configuration": {"returnImmediately": true}
//! }));
//!
//! // A 1.0 result, as a flat client reads it.
//! let result = flat::result_from_v1(json!({"task": {
//!     "id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}
//! }}));
//! assert_eq!(result, json!({"id": "t-1", "contextId": "c-1", "status": {"state": "input_required"}}));
//! ```

use serde_json::{Map, Value};

/// The `protocolBinding` of the dialect's interface on a card: a card of the dialect names no
/// endpoint, and [`crate::card::parse`] gives it one interface of this binding at
/// [`crate::protocol::paths::FLAT_RPC`] (`/a2a`, on the card's origin).
pub const BINDING: &str = "FLAT-JSONRPC";

/// The `protocolVersion` of the dialect's interface: 0.3, whose method names it uses (a client
/// speaks it only where legacy versions are allowed).
pub const VERSION: &str = "0.3";

/// The dialect's method names.
pub mod methods {
    /// `message/send` (SendMessage).
    pub const SEND: &str = "message/send";
    /// `message/stream` (SendStreamingMessage).
    pub const STREAM: &str = "message/stream";
    /// `tasks/get` (GetTask).
    pub const GET: &str = "tasks/get";
    /// `tasks/cancel` (CancelTask).
    pub const CANCEL: &str = "tasks/cancel";
    /// `tasks/list` (ListTasks).
    pub const LIST: &str = "tasks/list";
    /// `tasks/subscribe` (SubscribeToTask).
    pub const SUBSCRIBE: &str = "tasks/subscribe";
}

const STATE: &str = "TASK_STATE_";
const ROLE: &str = "ROLE_";

/// A lowercase value (`input_required`, also 0.3's `input-required`, `user`) as its 1.0 name
/// (`TASK_STATE_INPUT_REQUIRED`, `ROLE_USER`); a 1.0 name stays as it is.
fn upper(value: Option<&mut Value>, prefix: &str) {
    if let Some(Value::String(name)) = value
        && !name.starts_with(prefix)
    {
        *name = format!("{prefix}{}", name.replace('-', "_").to_ascii_uppercase());
    }
}

/// A 1.0 enum value in the dialect's spelling: the prefix off, lowercase.
fn lower(value: Option<&mut Value>, prefix: &str) {
    if let Some(Value::String(name)) = value
        && let Some(rest) = name.strip_prefix(prefix)
    {
        *name = rest.to_ascii_lowercase();
    }
}

/// Applies `f` to the message at `value` and each message of `history`, and the status.
fn each_enum(value: &mut Value, f: fn(Option<&mut Value>, &str)) {
    if let Some(status) = value.get_mut("status").filter(|s| s.is_object()) {
        f(status.get_mut("state"), STATE);
        if let Some(message) = status.get_mut("message") {
            f(message.get_mut("role"), ROLE);
        }
    }
    if let Some(Value::Array(history)) = value.get_mut("history") {
        for message in history {
            f(message.get_mut("role"), ROLE);
        }
    }
}

// ----- the dialect -> 1.0 (what a server reads, what a client decodes) ----------------------

/// The params of any of the dialect's methods as the 1.0 request's JSON: `message.role` and a
/// `status` filter (`tasks/list`) renamed, `configuration.blocking` as `returnImmediately` (its
/// opposite; an explicit `returnImmediately` wins).
pub fn params_to_v1(params: &mut Value) {
    let Value::Object(map) = params else {
        return;
    };
    if let Some(message) = map.get_mut("message") {
        upper(message.get_mut("role"), ROLE);
    }
    upper(map.get_mut("status"), STATE);
    if let Some(Value::Object(config)) = map.get_mut("configuration")
        && let Some(blocking) = config.remove("blocking")
        && let Some(blocking) = blocking.as_bool()
    {
        config
            .entry("returnImmediately")
            .or_insert(Value::Bool(!blocking));
    }
}

/// A task (`tasks/get`, `tasks/cancel`) of the dialect as 1.0's.
pub fn task_to_v1(mut task: Value) -> Value {
    each_enum(&mut task, upper);
    task
}

/// A `message/send` result or a stream event of the dialect (a bare task, message, status or
/// artifact update) as the 1.0 oneof (`{"task": …}`, `{"message": …}`, `{"statusUpdate": …}`,
/// `{"artifactUpdate": …}`). Which one it is follows from its fields: `artifact` makes an
/// artifact update, `taskId` with `status` a status update, `status` a task, `role` or
/// `parts` a message. Anything else is returned as it is (the 1.0 decoder names the problem).
pub fn result_to_v1(mut value: Value) -> Value {
    let Value::Object(map) = &value else {
        return value;
    };
    let has = |key: &str| map.contains_key(key);
    let member = if has("artifact") {
        "artifactUpdate"
    } else if has("status") && has("taskId") && !has("id") {
        "statusUpdate"
    } else if has("status") {
        "task"
    } else if has("role") || has("parts") {
        "message"
    } else {
        return value;
    };
    match member {
        "message" => upper(value.get_mut("role"), ROLE),
        "artifactUpdate" => {}
        _ => each_enum(&mut value, upper),
    }
    let mut wrapped = Map::new();
    wrapped.insert(member.to_owned(), value);
    Value::Object(wrapped)
}

/// A `tasks/list` result of the dialect as 1.0's `ListTasksResponse` (its tasks' enums renamed;
/// a missing `nextPageToken` is the empty one 1.0 requires).
pub fn list_to_v1(mut list: Value) -> Value {
    if let Some(Value::Array(tasks)) = list.get_mut("tasks") {
        for task in tasks {
            each_enum(task, upper);
        }
    }
    if let Value::Object(map) = &mut list {
        map.entry("nextPageToken")
            .or_insert(Value::String(String::new()));
    }
    list
}

// ----- 1.0 -> the dialect (what a server writes, what a client sends) ------------------------

/// A 1.0 request's JSON as the dialect's params: `message.role` and a `status` filter
/// lowercase, `returnImmediately` as `blocking`, `tenant` dropped (the dialect has none).
pub fn params_from_v1(params: &mut Value) {
    let Value::Object(map) = params else {
        return;
    };
    map.remove("tenant");
    if let Some(message) = map.get_mut("message") {
        lower(message.get_mut("role"), ROLE);
    }
    lower(map.get_mut("status"), STATE);
    if let Some(Value::Object(config)) = map.get_mut("configuration") {
        let immediately = config
            .remove("returnImmediately")
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        config.insert("blocking".into(), Value::Bool(!immediately));
    }
}

/// A 1.0 task as the dialect's.
pub fn task_from_v1(mut task: Value) -> Value {
    each_enum(&mut task, lower);
    task
}

/// A 1.0 oneof result (`SendMessageResponse`, `StreamResponse`) as the dialect's bare object.
pub fn result_from_v1(value: Value) -> Value {
    let Value::Object(map) = value else {
        return value;
    };
    let Some((member, mut inner)) = map.into_iter().next() else {
        return Value::Object(Map::new());
    };
    match member.as_str() {
        "message" => lower(inner.get_mut("role"), ROLE),
        "artifactUpdate" => {}
        _ => each_enum(&mut inner, lower),
    }
    inner
}

/// A 1.0 `ListTasksResponse` as the dialect's `tasks/list` result.
pub fn list_from_v1(mut list: Value) -> Value {
    if let Some(Value::Array(tasks)) = list.get_mut("tasks") {
        for task in tasks {
            each_enum(task, lower);
        }
    }
    list
}

/// Whether `message/send` or `message/stream` params are the dialect's rather than 0.3's:
/// the message has parts, and neither it nor any part has a `kind`.
pub fn is_flat_message(params: &Value) -> bool {
    let Some(message) = params.get("message") else {
        return false;
    };
    let parts = message.get("parts").and_then(Value::as_array);
    message.get("kind").is_none()
        && parts.is_some_and(|parts| {
            !parts.is_empty() && parts.iter().all(|part| part.get("kind").is_none())
        })
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    #[test]
    fn results_go_both_ways_and_leave_data_alone() {
        let v1 = json!({"task": {
            "id": "t", "contextId": "c",
            "status": {"state": "TASK_STATE_INPUT_REQUIRED",
                       "message": {"messageId": "a", "role": "ROLE_AGENT", "parts": [{"text": "?"}]}},
            "history": [{"messageId": "m", "role": "ROLE_USER", "parts": [{"data": {"role": "ROLE_X", "state": "TASK_STATE_X"}}]}]
        }});
        let flat = json!({
            "id": "t", "contextId": "c",
            "status": {"state": "input_required",
                       "message": {"messageId": "a", "role": "agent", "parts": [{"text": "?"}]}},
            "history": [{"messageId": "m", "role": "user", "parts": [{"data": {"role": "ROLE_X", "state": "TASK_STATE_X"}}]}]
        });
        assert_eq!(result_from_v1(v1.clone()), flat);
        assert_eq!(result_to_v1(flat), v1);
    }

    #[test]
    fn the_seeds_events_are_recognized() {
        assert_eq!(
            result_to_v1(json!({"taskId": "abc123", "status": {"state": "working"}})),
            json!({"statusUpdate": {"taskId": "abc123", "status": {"state": "TASK_STATE_WORKING"}}})
        );
        assert_eq!(
            result_to_v1(
                json!({"taskId": "abc123", "artifact": {"artifactId": "artifact-0", "parts": [{"text": "Hello"}]}, "append": true})
            ),
            json!({"artifactUpdate": {"taskId": "abc123", "artifact": {"artifactId": "artifact-0", "parts": [{"text": "Hello"}]}, "append": true}})
        );
        assert_eq!(
            result_to_v1(json!({"messageId": "m", "role": "agent", "parts": []})),
            json!({"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": []}})
        );
    }

    #[test]
    fn params_go_both_ways() {
        let mut params = json!({"tenant": "x", "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a"}]},
                                "configuration": {"returnImmediately": true}});
        params_from_v1(&mut params);
        assert_eq!(
            params,
            json!({"message": {"messageId": "m", "role": "user", "parts": [{"text": "a"}]}, "configuration": {"blocking": false}})
        );
        params_to_v1(&mut params);
        assert_eq!(
            params,
            json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a"}]}, "configuration": {"returnImmediately": true}})
        );
        let mut list = json!({"contextId": "c", "status": "TASK_STATE_WORKING"});
        params_from_v1(&mut list);
        assert_eq!(list, json!({"contextId": "c", "status": "working"}));
    }

    #[test]
    fn only_kindless_messages_are_the_dialects() {
        let flat = json!({"message": {"messageId": "m", "role": "user", "parts": [{"text": "a"}]}});
        assert!(is_flat_message(&flat));
        for not in [
            json!({"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "a"}]}}),
            json!({"message": {"messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "a"}]}}),
            json!({"message": {"messageId": "m", "parts": []}}),
            json!({}),
        ] {
            assert!(!is_flat_message(&not), "{not}");
        }
    }
}
