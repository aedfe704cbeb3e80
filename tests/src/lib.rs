//! Shared helpers of the workspace integration tests (fixture loading).

use std::path::{Path, PathBuf};

pub mod v1_strategies;

/// The folder that holds the golden fixtures, `tests/fixtures/`.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every `*.json` file directly under `tests/fixtures/<sub>/`, sorted by name.
///
/// # Panics
/// When the folder cannot be read: a test without its fixtures must fail loudly.
pub fn fixture_files(sub: &str) -> Vec<PathBuf> {
    let dir = fixtures_dir().join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read fixture folder {}: {e}", dir.display()))
        .map(|entry| entry.expect("fixture folder entry").path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// Decodes `json` as the A2A 1.0 message named `proto_name` (the name in `a2a.proto`, such as
/// `Task` or `APIKeySecurityScheme`) and writes it back as compact JSON.
///
/// Returns `None` when no Rust type is registered for that name.
pub fn v1_roundtrip(
    proto_name: &str,
    json: &str,
) -> Option<Result<String, a2a_types::json::DecodeError>> {
    use a2a_types::v1::*;

    fn go<T: serde::de::DeserializeOwned + serde::Serialize>(
        json: &str,
    ) -> Result<String, a2a_types::json::DecodeError> {
        let value: T = a2a_types::json::from_str(json)?;
        Ok(serde_json::to_string(&value).expect("a decoded value always encodes"))
    }

    macro_rules! table {
        ($($proto:literal => $ty:ty),+ $(,)?) => {
            match proto_name {
                $($proto => Some(go::<$ty>(json)),)+
                _ => None,
            }
        };
    }

    table! {
        "SendMessageConfiguration" => SendMessageConfiguration,
        "Task" => Task,
        "TaskStatus" => TaskStatus,
        "Part" => Part,
        "Message" => Message,
        "Artifact" => Artifact,
        "TaskStatusUpdateEvent" => TaskStatusUpdateEvent,
        "TaskArtifactUpdateEvent" => TaskArtifactUpdateEvent,
        "AuthenticationInfo" => AuthenticationInfo,
        "AgentInterface" => AgentInterface,
        "AgentCard" => AgentCard,
        "AgentProvider" => AgentProvider,
        "AgentCapabilities" => AgentCapabilities,
        "AgentExtension" => AgentExtension,
        "AgentSkill" => AgentSkill,
        "AgentCardSignature" => AgentCardSignature,
        "TaskPushNotificationConfig" => TaskPushNotificationConfig,
        "StringList" => StringList,
        "SecurityRequirement" => SecurityRequirement,
        "SecurityScheme" => SecurityScheme,
        "APIKeySecurityScheme" => ApiKeySecurityScheme,
        "HTTPAuthSecurityScheme" => HttpAuthSecurityScheme,
        "OAuth2SecurityScheme" => OAuth2SecurityScheme,
        "OpenIdConnectSecurityScheme" => OpenIdConnectSecurityScheme,
        "MutualTlsSecurityScheme" => MutualTlsSecurityScheme,
        "OAuthFlows" => OAuthFlows,
        "AuthorizationCodeOAuthFlow" => AuthorizationCodeOAuthFlow,
        "ClientCredentialsOAuthFlow" => ClientCredentialsOAuthFlow,
        "ImplicitOAuthFlow" => ImplicitOAuthFlow,
        "PasswordOAuthFlow" => PasswordOAuthFlow,
        "DeviceCodeOAuthFlow" => DeviceCodeOAuthFlow,
        "SendMessageRequest" => SendMessageRequest,
        "GetTaskRequest" => GetTaskRequest,
        "ListTasksRequest" => ListTasksRequest,
        "ListTasksResponse" => ListTasksResponse,
        "CancelTaskRequest" => CancelTaskRequest,
        "GetTaskPushNotificationConfigRequest" => GetTaskPushNotificationConfigRequest,
        "DeleteTaskPushNotificationConfigRequest" => DeleteTaskPushNotificationConfigRequest,
        "SubscribeToTaskRequest" => SubscribeToTaskRequest,
        "ListTaskPushNotificationConfigsRequest" => ListTaskPushNotificationConfigsRequest,
        "GetExtendedAgentCardRequest" => GetExtendedAgentCardRequest,
        "SendMessageResponse" => SendMessageResponse,
        "StreamResponse" => StreamResponse,
        "ListTaskPushNotificationConfigsResponse" => ListTaskPushNotificationConfigsResponse,
        "TaskState" => TaskState,
        "Role" => Role,
    }
}

/// Every message and enum declared in package `lf.a2a.v1` of `a2a.proto` 1.0.1, in file order.
pub const V1_PROTO_TYPES: &[&str] = &[
    "SendMessageConfiguration",
    "Task",
    "TaskState",
    "TaskStatus",
    "Part",
    "Role",
    "Message",
    "Artifact",
    "TaskStatusUpdateEvent",
    "TaskArtifactUpdateEvent",
    "AuthenticationInfo",
    "AgentInterface",
    "AgentCard",
    "AgentProvider",
    "AgentCapabilities",
    "AgentExtension",
    "AgentSkill",
    "AgentCardSignature",
    "TaskPushNotificationConfig",
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
    "SendMessageRequest",
    "GetTaskRequest",
    "ListTasksRequest",
    "ListTasksResponse",
    "CancelTaskRequest",
    "GetTaskPushNotificationConfigRequest",
    "DeleteTaskPushNotificationConfigRequest",
    "SubscribeToTaskRequest",
    "ListTaskPushNotificationConfigsRequest",
    "GetExtendedAgentCardRequest",
    "SendMessageResponse",
    "StreamResponse",
    "ListTaskPushNotificationConfigsResponse",
];

/// Every `*.json` file under `tests/fixtures/<sub>/`, recursively, sorted by path.
pub fn fixture_files_recursive(sub: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read fixture folder {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("fixture folder entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "json") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&fixtures_dir().join(sub), &mut out);
    out.sort();
    out
}

/// The README's Rust examples, compiled and run as doc tests so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The Rust snippets of `docs/*.md`, compiled (and run, unless marked `no_run`) as doc tests so
/// that they stay true; `tests/docs.rs` checks that every page with a Rust snippet is here.
#[cfg(doctest)]
pub mod docs {
    #[doc = include_str!("../../docs/call-an-agent.md")]
    pub struct CallAnAgent;
    #[doc = include_str!("../../docs/client.md")]
    pub struct Client;
    #[doc = include_str!("../../docs/limits.md")]
    pub struct Limits;
    #[doc = include_str!("../../docs/mock.md")]
    pub struct Mock;
    #[doc = include_str!("../../docs/mount-in-axum.md")]
    pub struct MountInAxum;
    #[doc = include_str!("../../docs/push.md")]
    pub struct Push;
    #[doc = include_str!("../../docs/replicas.md")]
    pub struct Replicas;
    #[doc = include_str!("../../docs/rest.md")]
    pub struct Rest;
    #[doc = include_str!("../../docs/security.md")]
    pub struct Security;
    #[doc = include_str!("../../docs/serve-an-agent.md")]
    pub struct ServeAnAgent;
    #[doc = include_str!("../../docs/streams.md")]
    pub struct Streams;
    #[doc = include_str!("../../docs/tools.md")]
    pub struct Tools;
    #[doc = include_str!("../../docs/tracing.md")]
    pub struct Tracing;
}

/// The Rust snippets of the crates' READMEs (what crates.io would show), as doc tests.
#[cfg(doctest)]
pub mod readmes {
    #[doc = include_str!("../../crates/a2a-client/README.md")]
    pub struct A2aClient;
    #[doc = include_str!("../../crates/a2a-grpc/README.md")]
    pub struct A2aGrpc;
    #[doc = include_str!("../../crates/a2a-jose/README.md")]
    pub struct A2aJose;
    #[doc = include_str!("../../crates/a2a-jsonrpc/README.md")]
    pub struct A2aJsonrpc;
    #[doc = include_str!("../../crates/a2a-otel/README.md")]
    pub struct A2aOtel;
    #[doc = include_str!("../../crates/a2a-server/README.md")]
    pub struct A2aServer;
    #[doc = include_str!("../../crates/a2a-sse/README.md")]
    pub struct A2aSse;
    #[doc = include_str!("../../crates/a2a-store-sql/README.md")]
    pub struct A2aStoreSql;
    #[doc = include_str!("../../crates/a2a-types/README.md")]
    pub struct A2aTypes;
}
