//! "Lenient in what we accept, exact in what we send": every ProtoJSON input form a peer may
//! use decodes, and encodes back in the one canonical form.

use a2a_tests::v1_roundtrip;
use pretty_assertions::assert_eq;

fn canonical(proto: &str, input: &str) -> String {
    v1_roundtrip(proto, input)
        .expect("known type")
        .unwrap_or_else(|e| panic!("{input} does not decode: {e}"))
}

#[test]
fn snake_case_names_are_accepted() {
    assert_eq!(
        canonical(
            "Message",
            r#"{"message_id":"m","context_id":"c","task_id":"t","role":"ROLE_USER","parts":[{"text":"x","media_type":"text/plain"}],"reference_task_ids":["a"]}"#
        ),
        r#"{"messageId":"m","contextId":"c","taskId":"t","role":"ROLE_USER","parts":[{"text":"x","mediaType":"text/plain"}],"referenceTaskIds":["a"]}"#
    );
    assert_eq!(
        canonical(
            "StreamResponse",
            r#"{"artifact_update":{"task_id":"t","context_id":"c","artifact":{"artifact_id":"a","parts":[]},"last_chunk":true}}"#
        ),
        r#"{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]},"lastChunk":true}}"#
    );
    assert_eq!(
        canonical(
            "SecurityScheme",
            r#"{"api_key_security_scheme":{"location":"header","name":"k"}}"#
        ),
        r#"{"apiKeySecurityScheme":{"location":"header","name":"k"}}"#
    );
}

#[test]
fn enum_numbers_and_integer_strings_are_accepted() {
    assert_eq!(
        canonical("TaskStatus", r#"{"state":6}"#),
        r#"{"state":"TASK_STATE_INPUT_REQUIRED"}"#
    );
    assert_eq!(
        canonical(
            "ListTasksRequest",
            r#"{"pageSize":"25","historyLength":2.0,"status":2}"#
        ),
        r#"{"status":"TASK_STATE_WORKING","pageSize":25,"historyLength":2}"#
    );
}

#[test]
fn defaults_are_omitted_and_null_reads_as_default() {
    assert_eq!(
        canonical(
            "Message",
            r#"{"messageId":"m","contextId":"","taskId":null,"role":"ROLE_AGENT","parts":[],"extensions":null,"metadata":null}"#
        ),
        r#"{"messageId":"m","role":"ROLE_AGENT","parts":[]}"#
    );
    assert_eq!(
        canonical(
            "TaskArtifactUpdateEvent",
            r#"{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]},"append":false,"lastChunk":null}"#
        ),
        r#"{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]}}"#
    );
    // A oneof member set to null is absent: the other member is the one.
    assert_eq!(
        canonical("Part", r#"{"text":null,"url":"https://x"}"#),
        r#"{"url":"https://x"}"#
    );
    assert_eq!(
        canonical("ListTasksRequest", r#"{"status":"TASK_STATE_UNSPECIFIED"}"#),
        "{}"
    );
}

#[test]
fn fields_with_presence_keep_it() {
    assert_eq!(
        canonical("GetTaskRequest", r#"{"id":"t","historyLength":0}"#),
        r#"{"id":"t","historyLength":0}"#
    );
    assert_eq!(
        canonical(
            "AgentCapabilities",
            r#"{"streaming":false,"pushNotifications":false}"#
        ),
        r#"{"streaming":false,"pushNotifications":false}"#
    );
    assert_eq!(
        canonical("ListTasksResponse", "{}"),
        r#"{"tasks":[],"nextPageToken":"","pageSize":0,"totalSize":0}"#
    );
}

#[test]
fn base64_in_every_alphabet() {
    // 0xfb 0xff encodes as "+/8=" in the standard alphabet and "-_8" URL-safe unpadded.
    for input in ["+/8=", "+/8", "-_8=", "-_8"] {
        assert_eq!(
            canonical("Part", &format!(r#"{{"raw":"{input}"}}"#)),
            r#"{"raw":"+/8="}"#,
            "input {input}"
        );
    }
}

#[test]
fn timestamps_are_normalized_to_utc() {
    assert_eq!(
        canonical(
            "TaskStatus",
            r#"{"state":"TASK_STATE_WORKING","timestamp":"2025-10-28T12:30:00.5+02:00"}"#
        ),
        r#"{"state":"TASK_STATE_WORKING","timestamp":"2025-10-28T10:30:00.500Z"}"#
    );
}

#[test]
fn unknown_fields_are_ignored() {
    assert_eq!(
        canonical(
            "Task",
            r#"{"id":"t","kind":"task","status":{"state":"TASK_STATE_WORKING","extra":[1]},"createdAt":"x","future":{"a":1}}"#
        ),
        r#"{"id":"t","status":{"state":"TASK_STATE_WORKING"}}"#
    );
    assert_eq!(
        canonical(
            "SendMessageResponse",
            r#"{"task":{"id":"t","status":{"state":1}},"kind":"task"}"#
        ),
        r#"{"task":{"id":"t","status":{"state":"TASK_STATE_SUBMITTED"}}}"#
    );
    assert_eq!(
        canonical("Part", r#"{"kind":"text","text":"hi","file":{"uri":"x"}}"#),
        r#"{"text":"hi"}"#
    );
}
