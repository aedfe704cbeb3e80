//! The ProtoJSON of the A2A 0.3 proto (package `a2a.v1`, `specification/grpc/a2a.proto` at
//! v0.3.0), which the 0.3 HTTP+JSON binding carries, to and from the 1.0 model.
//!
//! Both are ProtoJSON, so the 1.0 JSON is rewritten where the two protos differ:
//!
//! | 1.0 (`lf.a2a.v1`) | 0.3 proto (`a2a.v1`) |
//! |---|---|
//! | `Message.parts` | `Message.content` (an artifact's are `parts` in both) |
//! | `{"text": …}` | `{"text": …}` |
//! | `{"raw": …, "mediaType": …}` | `{"file": {"fileWithBytes": …, "mimeType": …}}` |
//! | `{"url": …, "mediaType": …}` | `{"file": {"fileWithUri": …, "mimeType": …}}` |
//! | `{"data": <object>}` | `{"data": {"data": <object>}}` (other JSON as `{"value": …}`) |
//! | `TASK_STATE_CANCELED` | `TASK_STATE_CANCELLED` |
//! | `configuration.returnImmediately` | `configuration.blocking`, the other way round |
//! | `configuration.taskPushNotificationConfig` (flat) | `configuration.pushNotification` |
//! | `TaskPushNotificationConfig` `{taskId, id, url, token, authentication {scheme}}` | `{name: "tasks/{taskId}/pushNotificationConfigs/{id}", pushNotificationConfig {id, url, token, authentication {schemes[]}}}` |
//! | status updates | the same, with `final` (dropped: a closed stream ends it) |
//!
//! What goes is exact: the fields of the v0.3.0 proto only (a 0.3 server may parse strictly).
//! What comes is read leniently: `parts` beside `content`, a file's `name` and `mediaType`, a
//! part's `metadata` (later 0.3 SDKs have them), `TASK_STATE_CANCELED`, `msg` beside `message`.
//! Lost on the way out, as the v0.3.0 proto has no place for them: `filename` and part
//! `metadata`, a message's `referenceTaskIds`, the `tenant`, and `historyLength: 0` (0 means
//! "all" in 0.3), which is left out.

use a2a_types::v1;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::Error;

/// The 0.3 spelling of the canceled state.
const CANCELLED: &str = "TASK_STATE_CANCELLED";
/// The 1.0 spelling.
const CANCELED: &str = "TASK_STATE_CANCELED";

fn to_value<T: serde::Serialize>(what: &str, value: &T) -> Result<Value, Error> {
    serde_json::to_value(value)
        .map_err(|err| Error::Config(format!("the {what} cannot be written: {err}")))
}

// ----- 1.0 -> 0.3 ----------------------------------------------------------------------------

/// A 1.0 part as a 0.3 `Part`.
fn part_out(part: Value) -> Value {
    let Value::Object(mut part) = part else {
        return part;
    };
    let mime = part.remove("mediaType");
    let file = |key: &str, value: Value| {
        let mut file = Map::new();
        file.insert(key.to_owned(), value);
        if let Some(mime) = mime.clone() {
            file.insert("mimeType".to_owned(), mime);
        }
        json!({ "file": file })
    };
    if let Some(text) = part.remove("text") {
        json!({ "text": text })
    } else if let Some(raw) = part.remove("raw") {
        file("fileWithBytes", raw)
    } else if let Some(url) = part.remove("url") {
        file("fileWithUri", url)
    } else if let Some(data) = part.remove("data") {
        let data = if data.is_object() {
            data
        } else {
            json!({ "value": data })
        };
        json!({ "data": { "data": data } })
    } else {
        Value::Object(part)
    }
}

/// A 1.0 message as a 0.3 `Message`.
fn message_out(message: &v1::Message) -> Result<Value, Error> {
    let mut value = to_value("message", message)?;
    if let Value::Object(object) = &mut value {
        object.remove("referenceTaskIds");
        let parts = object.remove("parts").unwrap_or(Value::Array(Vec::new()));
        let Value::Array(parts) = parts else {
            return Ok(value);
        };
        let content: Vec<Value> = parts.into_iter().map(part_out).collect();
        object.insert("content".to_owned(), Value::Array(content));
    }
    Ok(value)
}

/// A 1.0 push configuration as the 0.3 `PushNotificationConfig` (`schemes[]`).
fn push_out(config: &v1::TaskPushNotificationConfig) -> Value {
    let mut out = Map::new();
    let mut put = |key: &str, value: Option<&str>| {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            out.insert(key.to_owned(), Value::from(value));
        }
    };
    put("id", config.id.as_deref());
    put("url", Some(&config.url));
    put("token", config.token.as_deref());
    if let Some(auth) = &config.authentication {
        let mut authentication = Map::new();
        if !auth.scheme.is_empty() {
            authentication.insert("schemes".to_owned(), json!([auth.scheme]));
        }
        if let Some(credentials) = auth.credentials.as_deref().filter(|c| !c.is_empty()) {
            authentication.insert("credentials".to_owned(), Value::from(credentials));
        }
        out.insert("authentication".to_owned(), Value::Object(authentication));
    }
    Value::Object(out)
}

/// A 1.0 `SendMessageRequest` as the 0.3 `SendMessageRequest`.
pub(crate) fn send_request(request: &v1::SendMessageRequest) -> Result<Value, Error> {
    let mut out = Map::new();
    out.insert("message".to_owned(), message_out(&request.message)?);
    let configuration = request.configuration.clone().unwrap_or_default();
    let mut config = Map::new();
    if !configuration.accepted_output_modes.is_empty() {
        config.insert(
            "acceptedOutputModes".to_owned(),
            json!(configuration.accepted_output_modes),
        );
    }
    if let Some(push) = &configuration.task_push_notification_config {
        config.insert("pushNotification".to_owned(), push_out(push));
    }
    if let Some(history) = configuration.history_length.filter(|n| *n > 0) {
        config.insert("historyLength".to_owned(), json!(history));
    }
    config.insert(
        "blocking".to_owned(),
        Value::Bool(!configuration.return_immediately),
    );
    out.insert("configuration".to_owned(), Value::Object(config));
    if let Some(metadata) = &request.metadata {
        out.insert("metadata".to_owned(), to_value("metadata", metadata)?);
    }
    Ok(Value::Object(out))
}

/// A 1.0 push configuration as the 0.3 `TaskPushNotificationConfig` (the resource name and
/// the nested configuration).
pub(crate) fn task_push_config(config: &v1::TaskPushNotificationConfig) -> Value {
    let task = config.task_id.as_ref().map_or("", AsRef::as_ref);
    let id = config.id.as_deref().unwrap_or("");
    json!({
        "name": format!("tasks/{task}/pushNotificationConfigs/{id}"),
        "pushNotificationConfig": push_out(config),
    })
}

// ----- 0.3 -> 1.0 ----------------------------------------------------------------------------

/// A 0.3 part as a 1.0 part, in place.
fn part_in(part: &mut Value) {
    let Value::Object(object) = part else { return };
    if let Some(Value::Object(mut file)) = object.remove("file") {
        if let Some(uri) = file.remove("fileWithUri") {
            object.insert("url".to_owned(), uri);
        }
        if let Some(bytes) = file.remove("fileWithBytes") {
            object.insert("raw".to_owned(), bytes);
        }
        if let Some(mime) = file.remove("mimeType").or_else(|| file.remove("mediaType")) {
            object.insert("mediaType".to_owned(), mime);
        }
        if let Some(name) = file.remove("name") {
            object.insert("filename".to_owned(), name);
        }
    } else if let Some(Value::Object(data)) = object.get_mut("data")
        && let Some(inner) = data.remove("data")
    {
        object.insert("data".to_owned(), inner);
    }
}

fn parts_in(parts: Option<&mut Value>) {
    if let Some(Value::Array(parts)) = parts {
        parts.iter_mut().for_each(part_in);
    }
}

/// A 0.3 message as a 1.0 message, in place.
fn message_in(message: &mut Value) {
    let Value::Object(object) = message else {
        return;
    };
    if let Some(content) = object.remove("content") {
        object.entry("parts").or_insert(content);
    }
    parts_in(object.get_mut("parts"));
}

fn status_in(status: Option<&mut Value>) {
    let Some(Value::Object(status)) = status else {
        return;
    };
    if status.get("state").and_then(Value::as_str) == Some(CANCELLED) {
        status.insert("state".to_owned(), Value::from(CANCELED));
    }
    if let Some(message) = status.get_mut("message") {
        message_in(message);
    }
}

fn artifact_in(artifact: Option<&mut Value>) {
    if let Some(Value::Object(artifact)) = artifact {
        parts_in(artifact.get_mut("parts"));
    }
}

/// A 0.3 task as a 1.0 task, in place.
fn task_in(task: &mut Value) {
    let Value::Object(object) = task else { return };
    status_in(object.get_mut("status"));
    if let Some(Value::Array(history)) = object.get_mut("history") {
        history.iter_mut().for_each(message_in);
    }
    if let Some(Value::Array(artifacts)) = object.get_mut("artifacts") {
        artifacts.iter_mut().for_each(|a| artifact_in(Some(a)));
    }
}

/// A 0.3 `SendMessageResponse` or `StreamResponse` as the 1.0 one, in place.
fn response_in(response: &mut Value) {
    let Value::Object(object) = response else {
        return;
    };
    if let Some(message) = object.remove("msg") {
        object.entry("message").or_insert(message);
    }
    if let Some(task) = object.get_mut("task") {
        task_in(task);
    }
    if let Some(message) = object.get_mut("message") {
        message_in(message);
    }
    if let Some(Value::Object(update)) = object.get_mut("statusUpdate") {
        update.remove("final");
        status_in(update.get_mut("status"));
    }
    if let Some(Value::Object(update)) = object.get_mut("artifactUpdate") {
        artifact_in(update.get_mut("artifact"));
    }
}

/// A 0.3 `TaskPushNotificationConfig` as the flat 1.0 one, in place: the task id from the
/// resource name, the configuration's fields, `schemes[0]` as `scheme`.
fn push_config_in(config: &mut Value) {
    let Value::Object(object) = config else {
        return;
    };
    let name = object.remove("name");
    let mut flat = match object.remove("pushNotificationConfig") {
        Some(Value::Object(inner)) => inner,
        _ => Map::new(),
    };
    if let Some(Value::String(name)) = name {
        let mut segments = name.split('/');
        if let (Some("tasks"), Some(task)) = (segments.next(), segments.next()) {
            flat.insert("taskId".to_owned(), Value::from(task));
        }
        if let (Some("pushNotificationConfigs"), Some(id)) = (segments.next(), segments.next())
            && !id.is_empty()
        {
            flat.entry("id").or_insert_with(|| Value::from(id));
        }
    }
    if let Some(Value::Object(auth)) = flat.get_mut("authentication")
        && let Some(Value::Array(schemes)) = auth.remove("schemes")
        && let Some(first) = schemes.into_iter().next()
    {
        auth.insert("scheme".to_owned(), first);
    }
    *object = flat;
}

/// Decodes a 0.3 body into the 1.0 type `T`, after `rewrite` made it 1.0 JSON.
fn decode<T: DeserializeOwned>(bytes: &[u8], rewrite: fn(&mut Value)) -> Result<T, Error> {
    let mut value: Value = a2a_types::json::from_slice(bytes)?;
    rewrite(&mut value);
    Ok(a2a_types::json::from_value(value)?)
}

/// A 0.3 `Task` body.
pub(crate) fn task(bytes: &[u8]) -> Result<v1::Task, Error> {
    decode(bytes, task_in)
}

/// A 0.3 `SendMessageResponse` body.
pub(crate) fn send_response(bytes: &[u8]) -> Result<v1::SendMessageResponse, Error> {
    decode(bytes, response_in)
}

/// A 0.3 `StreamResponse` (an SSE event's data).
pub(crate) fn stream_response(data: &str) -> Result<v1::StreamResponse, Error> {
    decode(data.as_bytes(), response_in)
}

/// A 0.3 `TaskPushNotificationConfig` body.
pub(crate) fn push_config(bytes: &[u8]) -> Result<v1::TaskPushNotificationConfig, Error> {
    decode(bytes, push_config_in)
}

/// A 0.3 `ListTaskPushNotificationConfigResponse` body (`{configs, nextPageToken}`; a bare
/// array too).
pub(crate) fn push_config_list(
    bytes: &[u8],
) -> Result<v1::ListTaskPushNotificationConfigsResponse, Error> {
    decode(bytes, |value| {
        if value.is_array() {
            *value = json!({ "configs": value.take() });
        }
        if let Some(Value::Array(configs)) = value.get_mut("configs") {
            configs.iter_mut().for_each(push_config_in);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{Message, Part, SendMessageConfiguration};
    use pretty_assertions::assert_eq;

    #[test]
    fn requests_are_written_in_the_0_3_proto_shape() {
        let message = Message::new(
            "m-1",
            v1::Role::User,
            vec![
                Part::text("hi"),
                Part::raw(b"PNG".to_vec()).with_media_type("image/png"),
                Part::url("https://x/a.pdf").with_media_type("application/pdf"),
                Part::data(json!({"k": 1})),
                Part::data(json!([1, 2])),
            ],
        )
        .with_reference_task_ids(["t-0"]);
        let request = v1::SendMessageRequest::new(message)
            .with_tenant("acme")
            .with_configuration(
                SendMessageConfiguration::default()
                    .with_history_length(0)
                    .with_return_immediately(true),
            );
        assert_eq!(
            send_request(&request).unwrap(),
            json!({
                "message": {"messageId": "m-1", "role": "ROLE_USER", "content": [
                    {"text": "hi"},
                    {"file": {"fileWithBytes": "UE5H", "mimeType": "image/png"}},
                    {"file": {"fileWithUri": "https://x/a.pdf", "mimeType": "application/pdf"}},
                    {"data": {"data": {"k": 1}}},
                    {"data": {"data": {"value": [1, 2]}}}
                ]},
                "configuration": {"blocking": false}
            })
        );
    }

    #[test]
    fn answers_are_read_into_1_0() {
        let body = br#"{"task": {"id": "t-1", "contextId": "c-1",
            "status": {"state": "TASK_STATE_CANCELLED", "message": {"messageId": "m-2",
                "role": "ROLE_AGENT", "content": [{"text": "stopped"}]}},
            "artifacts": [{"artifactId": "a", "parts": [
                {"file": {"fileWithUri": "https://x/f", "mimeType": "text/plain", "name": "f.txt"}},
                {"data": {"data": {"k": true}}}]}],
            "history": [{"messageId": "m-1", "role": "ROLE_USER", "content": [{"text": "go"}]}]}}"#;
        let response = send_response(body).unwrap();
        assert_eq!(
            serde_json::to_value(&response).unwrap(),
            json!({"task": {"id": "t-1", "contextId": "c-1",
                "status": {"state": "TASK_STATE_CANCELED", "message": {"messageId": "m-2",
                    "role": "ROLE_AGENT", "parts": [{"text": "stopped"}]}},
                "artifacts": [{"artifactId": "a", "parts": [
                    {"url": "https://x/f", "mediaType": "text/plain", "filename": "f.txt"},
                    {"data": {"k": true}}]}],
                "history": [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "go"}]}]}})
        );
        let event = stream_response(
            r#"{"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "final": true,
                "status": {"state": "TASK_STATE_COMPLETED"}}}"#,
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            json!({"statusUpdate": {"taskId": "t-1", "contextId": "c-1",
                "status": {"state": "TASK_STATE_COMPLETED"}}})
        );
    }

    #[test]
    fn push_configurations_use_resource_names() {
        let config = v1::TaskPushNotificationConfig::new("https://hook/x")
            .with_task_id("t-1")
            .with_id("p-1")
            .with_token("tok")
            .with_authentication(v1::AuthenticationInfo::new("Bearer").with_credentials("s"));
        let written = task_push_config(&config);
        assert_eq!(
            written,
            json!({"name": "tasks/t-1/pushNotificationConfigs/p-1", "pushNotificationConfig": {
                "id": "p-1", "url": "https://hook/x", "token": "tok",
                "authentication": {"schemes": ["Bearer"], "credentials": "s"}}})
        );
        let read = push_config(written.to_string().as_bytes()).unwrap();
        assert_eq!(read, config);
        let list = push_config_list(format!(r#"{{"configs": [{written}]}}"#).as_bytes()).unwrap();
        assert_eq!(list.configs, [config]);
    }
}
