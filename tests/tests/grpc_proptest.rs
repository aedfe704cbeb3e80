//! Property test: arbitrary A2A 1.0 values survive the gRPC binding's conversions,
//! `v1 -> protobuf message -> bytes -> protobuf message -> v1`, and always encode to the same
//! bytes.
//!
//! Numbers inside a `google.protobuf.Struct` or `Value` are doubles on the wire, so values are
//! compared through their JSON with every number taken as an `f64` (an integer beyond 2^53 comes
//! back as the double nearest to it); everything else must come back as it was.

use std::collections::BTreeSet;

use a2a_grpc::proto;
use a2a_tests::V1_PROTO_TYPES;
use a2a_tests::v1_strategies::*;
use a2a_types::v1::*;
use proptest::prelude::*;
use serde_json::Value;

/// Every number as a double, as `google.protobuf.Value` holds it.
fn doubles(value: Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(doubles).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, doubles(v))).collect())
        }
        other => other,
    }
}

/// The round trip of `value` through its protobuf message `P` and its bytes.
fn roundtrip<T, P>(value: &T) -> Result<(), TestCaseError>
where
    T: Clone + serde::Serialize + std::fmt::Debug + TryFrom<P>,
    <T as TryFrom<P>>::Error: std::fmt::Display,
    P: From<T> + prost::Message + Default,
{
    let bytes = P::from(value.clone()).encode_to_vec();
    let decoded = P::decode(bytes.as_slice())
        .map_err(|e| TestCaseError::fail(format!("the bytes do not decode: {e}")))?;
    let back =
        T::try_from(decoded).map_err(|e| TestCaseError::fail(format!("{e} in {value:?}")))?;
    let json = |v: &T| doubles(serde_json::to_value(v).expect("v1 values serialize"));
    prop_assert_eq!(json(&back), json(value));
    // Exact in what we send: the value read back encodes to the very same bytes.
    prop_assert_eq!(P::from(back).encode_to_vec(), bytes);
    Ok(())
}

/// The same, for the messages whose conversion back cannot fail (`From` both ways).
fn roundtrip_infallible<T, P>(value: &T) -> Result<(), TestCaseError>
where
    T: Clone + serde::Serialize + std::fmt::Debug + PartialEq + From<P>,
    P: From<T> + prost::Message + Default,
{
    let bytes = P::from(value.clone()).encode_to_vec();
    let decoded = P::decode(bytes.as_slice())
        .map_err(|e| TestCaseError::fail(format!("the bytes do not decode: {e}")))?;
    let back = T::from(decoded);
    prop_assert_eq!(&back, value);
    prop_assert_eq!(P::from(back).encode_to_vec(), bytes);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn stream_responses(value in stream_response()) {
        roundtrip::<_, proto::StreamResponse>(&value)?;
    }

    #[test]
    fn send_message_requests_and_responses(req in send_message_request(), resp in send_message_response()) {
        roundtrip::<_, proto::SendMessageRequest>(&req)?;
        roundtrip::<_, proto::SendMessageResponse>(&resp)?;
    }

    #[test]
    fn agent_cards(card in agent_card()) {
        roundtrip::<_, proto::AgentCard>(&card)?;
    }

    #[test]
    fn task_listing(req in list_tasks_request(), resp in list_tasks_response()) {
        roundtrip::<_, proto::ListTasksRequest>(&req)?;
        roundtrip::<_, proto::ListTasksResponse>(&resp)?;
    }

    #[test]
    fn task_requests((tenant, id, hl, meta) in task_request_fields()) {
        let mut get = GetTaskRequest::new(id.clone());
        get.tenant.clone_from(&tenant);
        get.history_length = hl;
        roundtrip_infallible::<_, proto::GetTaskRequest>(&get)?;
        let mut cancel = CancelTaskRequest::new(id.clone());
        cancel.tenant.clone_from(&tenant);
        cancel.metadata = meta;
        roundtrip::<_, proto::CancelTaskRequest>(&cancel)?;
        let mut subscribe = SubscribeToTaskRequest::new(id);
        subscribe.tenant = tenant.clone();
        roundtrip_infallible::<_, proto::SubscribeToTaskRequest>(&subscribe)?;
        let mut card = GetExtendedAgentCardRequest::new();
        card.tenant = tenant;
        roundtrip_infallible::<_, proto::GetExtendedAgentCardRequest>(&card)?;
    }

    #[test]
    fn push_configs(
        config in push_config(),
        (tenant, task, id) in config_request_fields(),
        list in list_push_configs_request(),
        page in list_push_configs_response(),
    ) {
        roundtrip_infallible::<_, proto::TaskPushNotificationConfig>(&config)?;
        let mut get = GetTaskPushNotificationConfigRequest::new(task.clone(), id.clone());
        get.tenant.clone_from(&tenant);
        roundtrip_infallible::<_, proto::GetTaskPushNotificationConfigRequest>(&get)?;
        let mut delete = DeleteTaskPushNotificationConfigRequest::new(task, id);
        delete.tenant = tenant;
        roundtrip_infallible::<_, proto::DeleteTaskPushNotificationConfigRequest>(&delete)?;
        roundtrip_infallible::<_, proto::ListTaskPushNotificationConfigsRequest>(&list)?;
        roundtrip_infallible::<_, proto::ListTaskPushNotificationConfigsResponse>(&page)?;
    }
}

/// Every message and enum of the proto is in a round trip above: directly, or inside one.
#[test]
fn every_proto_type_is_covered() {
    let covered: BTreeSet<&str> = [
        // stream_responses: a task (status, message, parts, artifacts, both enums) or an event.
        "StreamResponse",
        "Task",
        "TaskState",
        "TaskStatus",
        "Part",
        "Role",
        "Message",
        "Artifact",
        "TaskStatusUpdateEvent",
        "TaskArtifactUpdateEvent",
        // send_message_requests_and_responses: the configuration holds a push config.
        "SendMessageRequest",
        "SendMessageConfiguration",
        "SendMessageResponse",
        // agent_cards: every part of a card, every security scheme and OAuth flow.
        "AgentCard",
        "AgentInterface",
        "AgentProvider",
        "AgentCapabilities",
        "AgentExtension",
        "AgentSkill",
        "AgentCardSignature",
        "StringList",
        "SecurityRequirement",
        "SecurityScheme",
        "APIKeySecurityScheme",
        "HTTPAuthSecurityScheme",
        "OAuth2SecurityScheme",
        "OpenIdConnectSecurityScheme",
        "MutualTlsSecurityScheme",
        "OAuthFlows",
        "AuthorizationCodeOAuthFlow",
        "ClientCredentialsOAuthFlow",
        "ImplicitOAuthFlow",
        "PasswordOAuthFlow",
        "DeviceCodeOAuthFlow",
        // task_listing
        "ListTasksRequest",
        "ListTasksResponse",
        // task_requests
        "GetTaskRequest",
        "CancelTaskRequest",
        "SubscribeToTaskRequest",
        "GetExtendedAgentCardRequest",
        // push_configs
        "TaskPushNotificationConfig",
        "AuthenticationInfo",
        "GetTaskPushNotificationConfigRequest",
        "DeleteTaskPushNotificationConfigRequest",
        "ListTaskPushNotificationConfigsRequest",
        "ListTaskPushNotificationConfigsResponse",
    ]
    .into_iter()
    .collect();
    let all: BTreeSet<&str> = V1_PROTO_TYPES.iter().copied().collect();
    assert_eq!(covered, all);
}

/// A number beyond 2^53 in metadata comes back as the nearest double: the one loss the wire
/// format has, and what the comparison above allows for.
#[test]
fn large_integers_become_the_nearest_double() {
    let mut metadata = Struct::new();
    metadata.insert("n".into(), serde_json::json!(9_007_199_254_740_993_u64));
    let task = Task::new("t", "c", TaskStatus::new(TaskState::Working)).with_metadata(metadata);
    let back = Task::try_from(proto::Task::from(task)).unwrap();
    assert_eq!(
        back.metadata.unwrap()["n"],
        serde_json::json!(9_007_199_254_740_992_u64)
    );
}
