//! What the 0.3 types accept beyond the letter of `a2a.json`, what they reject, and how the
//! errors name the bad field.

use a2a_types::json;
use a2a_types::{v0_3, v1};
use pretty_assertions::assert_eq;
use serde_json::json;

#[test]
fn a_missing_kind_is_read_from_the_shape() {
    // Every message of the 0.3 specification's §9 examples lacks `kind`.
    let params: v0_3::MessageSendParams = json::from_str(
        r#"{"message":{"role":"user","messageId":"m","parts":[
            {"text":"hi"},
            {"file":{"uri":"https://example.com/a.png"}},
            {"data":{"k":1}}
        ]}}"#,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&params).unwrap(),
        json!({"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [
            {"kind": "text", "text": "hi"},
            {"kind": "file", "file": {"uri": "https://example.com/a.png"}},
            {"kind": "data", "data": {"k": 1}}
        ]}})
    );

    let result: v0_3::SendMessageResult =
        json::from_str(r#"{"id":"t","contextId":"c","status":{"state":"submitted"}}"#).unwrap();
    assert!(matches!(result, v0_3::SendMessageResult::Task(_)));

    let scheme: v0_3::SecurityScheme = json::from_str(r#"{"in":"query","name":"key"}"#).unwrap();
    assert!(matches!(scheme, v0_3::SecurityScheme::ApiKey(_)));
}

#[test]
fn a_wrong_kind_or_a_bad_part_is_an_error_at_its_path() {
    let err = json::from_str::<v0_3::MessageSendParams>(
        r#"{"message":{"kind":"message","role":"user","messageId":"m","parts":[
            {"kind":"text","text":"ok"},{"kind":"image","url":"x"}]}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "message.parts[1]");
    assert_eq!(
        err.message(),
        "unknown Part kind `image`, expected one of text, file, data"
    );

    let err = json::from_str::<v0_3::MessageSendParams>(
        r#"{"message":{"kind":"task","role":"user","messageId":"m","parts":[]}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "message.kind");
    assert_eq!(err.message(), r#"expected "message", found "task""#);

    let err = json::from_str::<v0_3::Message>(
        r#"{"role":"user","messageId":"m","parts":[{"kind":"file","file":{"bytes":"aGk=","uri":"x"}}]}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "parts[0]");
    assert_eq!(
        err.message(),
        "file: file holds both `bytes` and `uri`, expected exactly one"
    );

    let err = json::from_str::<v0_3::Message>(
        r#"{"role":"user","messageId":"m","parts":[{"kind":"file","file":{"bytes":"a b"}}]}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "parts[0]");
    assert!(
        err.message().starts_with("file: bytes: invalid base64"),
        "{err}"
    );
}

#[test]
fn required_fields_are_required() {
    let err =
        json::from_str::<v0_3::Task>(r#"{"kind":"task","id":"t","status":{"state":"working"}}"#)
            .unwrap_err();
    assert_eq!(err.to_string(), ".: missing field `contextId`");

    let err = json::from_str::<v0_3::TaskStatusUpdateEvent>(
        r#"{"taskId":"t","contextId":"c","status":{"state":"working"}}"#,
    )
    .unwrap_err();
    assert_eq!(err.message(), "missing field `final`");

    let err = json::from_str::<v0_3::Message>(r#"{"role":"user","parts":[]}"#).unwrap_err();
    assert_eq!(err.message(), "missing field `messageId`");

    let err = json::from_str::<v0_3::Task>(
        r#"{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "status.state");

    let err = json::from_str::<v0_3::PushNotificationAuthenticationInfo>(r#"{"credentials":"x"}"#)
        .unwrap_err();
    assert_eq!(err.message(), "missing field `schemes`");
}

#[test]
fn nulls_and_unknown_fields_are_ignored() {
    let task: v0_3::Task = json::from_str(
        r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"working","message":null,"timestamp":null},
            "artifacts":null,"history":null,"metadata":null,"somethingNew":{"a":1}}"#,
    )
    .unwrap();
    assert_eq!(
        task,
        v0_3::Task::new("t", "c", v0_3::TaskStatus::new(v0_3::TaskState::Working))
    );
}

#[test]
fn base64_is_read_in_either_alphabet_with_or_without_padding() {
    for bytes in ["+/8=", "+/8", "-_8=", "-_8"] {
        let file: v0_3::FileWithBytes = serde_json::from_value(json!({"bytes": bytes})).unwrap();
        assert_eq!(file.bytes, [0xfb, 0xff], "{bytes}");
        assert_eq!(
            serde_json::to_value(&file).unwrap(),
            json!({"bytes": "+/8="})
        );
    }
}

#[test]
fn timestamps_are_read_leniently_and_dropped_when_unreadable() {
    let status = |t: &str| {
        let status = v0_3::TaskStatus::new(v0_3::TaskState::Working).with_timestamp(t);
        v1::TaskStatus::from(status)
            .timestamp
            .map(|t| t.to_string())
    };
    assert_eq!(
        status("2025-04-02T16:59:25.331844").as_deref(),
        Some("2025-04-02T16:59:25.331844Z")
    );
    assert_eq!(
        status("2025-04-02T18:59:25.5+02:00").as_deref(),
        Some("2025-04-02T16:59:25.500Z")
    );
    assert_eq!(status("last Tuesday"), None);
}

#[test]
fn a_0_2_0_card_without_protocol_version_or_transport() {
    // 0.2.0 to 0.2.4 cards have no protocolVersion; before 0.2.4 no preferredTransport either.
    let card: v0_3::AgentCard = json::from_str(
        r#"{"name":"Old","description":"An 0.2.0 agent","url":"http://localhost:9999/","version":"0.0.1",
            "capabilities":{"streaming":false},"defaultInputModes":["text"],"defaultOutputModes":["text"],
            "skills":[]}"#,
    )
    .unwrap();
    assert_eq!(card.protocol_version, "0.3.0");
    let card = v1::AgentCard::from(card);
    assert_eq!(
        card.supported_interfaces,
        [v1::AgentInterface::new(
            "http://localhost:9999/",
            "JSONRPC",
            "0.3"
        )]
    );
}

#[test]
fn requests_need_the_json_rpc_tag_and_the_right_method() {
    let err = json::from_str::<v0_3::GetTaskRequest>(
        r#"{"id":1,"method":"tasks/get","params":{"id":"t"}}"#,
    )
    .unwrap_err();
    assert_eq!(err.message(), "missing field `jsonrpc`");

    let err = json::from_str::<v0_3::GetTaskRequest>(
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"historyLength":2}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "params");
    assert_eq!(err.message(), "missing field `id`");

    let err = json::from_str::<v0_3::A2ARequest>(
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{}}"#,
    )
    .unwrap_err();
    assert!(
        err.message()
            .starts_with("unknown method `tasks/send`, expected one of message/send, "),
        "{err}"
    );

    // `agent/getAuthenticatedExtendedCard` takes no params and ignores any.
    let req: v0_3::A2ARequest = json::from_str(
        r#"{"jsonrpc":"2.0","id":"x","method":"agent/getAuthenticatedExtendedCard","params":{}}"#,
    )
    .unwrap();
    assert_eq!(req.method(), "agent/getAuthenticatedExtendedCard");
    assert_eq!(req.id(), &v0_3::JsonRpcId::from("x"));
    assert_eq!(
        serde_json::to_value(&req).unwrap(),
        json!({"jsonrpc": "2.0", "id": "x", "method": "agent/getAuthenticatedExtendedCard"})
    );
}

#[test]
fn push_config_get_reads_both_param_shapes() {
    let with: v0_3::GetTaskPushNotificationConfigRequest = json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/get",
            "params":{"id":"t","pushNotificationConfigId":"c"}}"#,
    )
    .unwrap();
    let without: v0_3::GetTaskPushNotificationConfigRequest = json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/get","params":{"id":"t"}}"#,
    )
    .unwrap();
    assert_eq!(
        v1::GetTaskPushNotificationConfigRequest::from(with.params),
        v1::GetTaskPushNotificationConfigRequest::new("t", "c")
    );
    assert_eq!(
        v1::GetTaskPushNotificationConfigRequest::from(without.params),
        v1::GetTaskPushNotificationConfigRequest::new("t", "")
    );
}

#[test]
fn errors_keep_code_message_and_data() {
    let response: v0_3::GetTaskResponse = json::from_str(
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32007,"message":"no card","data":[1,"two"]}}"#,
    )
    .unwrap();
    let error = response.into_result().unwrap_err();
    assert_eq!(error.code, -32007);
    assert_eq!(error.data, Some(json!([1, "two"])));
    assert_eq!(
        error.name(),
        Some("AuthenticatedExtendedCardNotConfiguredError")
    );
    assert_eq!(error.v1_name(), Some("ExtendedAgentCardNotConfiguredError"));
    assert_eq!(
        v0_3::JsonRpcError::from_v1_reason("VERSION_NOT_SUPPORTED", "use 1.0").map(|e| e.code),
        Some(-32009)
    );
    let typed = v0_3::A2AError::try_from(error).unwrap();
    assert!(matches!(
        typed,
        v0_3::A2AError::AuthenticatedExtendedCardNotConfiguredError(_)
    ));
}
