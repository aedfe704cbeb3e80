//! Scopes per skill over gRPC: a message naming (in its metadata, `skillId`) a skill whose
//! requirements the caller does not meet is refused with PERMISSION_DENIED (UNAUTHENTICATED
//! without credentials), on `SendMessage` and `SendStreamingMessage`, and no task is created.

mod common;

use a2a_grpc::proto;
use a2a_grpc::server::GrpcConfig;
use a2a_server::auth::{AuthError, Principal, SkillScopes};
use a2a_types::v1::{AgentSkill, SecurityRequirement};
use common::*;
use pretty_assertions::assert_eq;
use tonic::Code;

/// A `SendMessageRequest` whose message asks for `skill`.
fn send_skill(skill: &str) -> proto::SendMessageRequest {
    let mut request = send("go");
    let message = request.message.as_mut().unwrap();
    message.metadata = Some(prost_types::Struct {
        fields: [(
            "skillId".to_owned(),
            prost_types::Value {
                kind: Some(prost_types::value::Kind::StringValue(skill.to_owned())),
            },
        )]
        .into(),
    });
    request
}

/// `request` with `a2a-version: 1.0` and, when given, the API key.
fn as_<T>(key: Option<&str>, message: T) -> tonic::Request<T> {
    let mut request = v1(message);
    if let Some(key) = key {
        request
            .metadata_mut()
            .insert("x-api-key", key.parse().unwrap());
    }
    request
}

#[tokio::test]
async fn a_skill_the_caller_may_not_run_is_permission_denied() {
    let keys =
        |head: &http::request::Parts| match head.headers.get("x-api-key").map(|v| v.as_bytes()) {
            Some(b"k-operator") => Ok(Some(
                Principal::new("operator").with_scopes(["deploy:run", "audit"]),
            )),
            Some(b"k-guest") => Ok(Some(Principal::new("guest"))),
            Some(_) => Err(AuthError::forbidden("unknown API key")),
            None => Ok(None),
        };
    let card = card().with_skills([
        AgentSkill::new("echo", "Echo", "Repeats", ["echo"]),
        AgentSkill::new("deploy", "Deploy", "Ships", ["ops"]).with_security_requirements([
            SecurityRequirement::new().with_scheme("key", ["deploy:run"]),
        ]),
    ]);
    let server = start_with(
        card,
        |b| {
            b.authenticator(keys)
                .skill_scopes(SkillScopes::new().require("deploy", ["audit"]))
        },
        GrpcConfig::default(),
    )
    .await;
    let mut client = server.grpc().await;

    let refused = client
        .send_message(as_(Some("k-guest"), send_skill("deploy")))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), refused.message(), reason(&refused)),
        (
            Code::PermissionDenied,
            "permission denied: the skill `deploy` needs the scope `audit`",
            "INVALID_REQUEST".to_owned()
        )
    );
    let refused = client
        .send_streaming_message(as_(Some("k-guest"), send_skill("deploy")))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (
            Code::PermissionDenied,
            "permission denied: the skill `deploy` needs the scope `audit`"
        )
    );
    let refused = client
        .send_message(as_(None, send_skill("deploy")))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (
            Code::Unauthenticated,
            "unauthenticated: the skill `deploy` needs credentials, and the call has none"
        )
    );
    // No task was created.
    let listed = client
        .list_tasks(as_(Some("k-guest"), proto::ListTasksRequest::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.tasks.len(), 0);

    // The open skill runs for the guest; the guarded one for the operator.
    let task = task_of(
        client
            .send_message(as_(Some("k-guest"), send_skill("echo")))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(
        task.status.unwrap().state,
        proto::TaskState::Completed as i32
    );
    let task = task_of(
        client
            .send_message(as_(Some("k-operator"), send_skill("deploy")))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(
        task.status.unwrap().state,
        proto::TaskState::Completed as i32
    );
}
