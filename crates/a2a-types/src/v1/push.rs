//! Push notification configuration.

use serde::{Deserialize, Serialize};

use super::TaskId;
use crate::serde_util as su;

/// How the agent authenticates to a webhook: an HTTP authentication scheme and credentials.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AuthenticationInfo {
    /// The IANA HTTP authentication scheme (`Bearer`, `Basic`). Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub scheme: String,
    /// The credentials (a token for `Bearer`).
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub credentials: Option<String>,
}

impl AuthenticationInfo {
    /// Authentication with this scheme and no credentials.
    pub fn new(scheme: impl Into<String>) -> Self {
        Self {
            scheme: scheme.into(),
            credentials: None,
        }
    }

    /// `Bearer` authentication with a token.
    pub fn bearer(token: impl Into<String>) -> Self {
        Self::new("Bearer").with_credentials(token)
    }

    super::setters! {
        /// Sets the credentials.
        with_credentials(credentials): opt String;
    }
}

/// A webhook that receives a task's updates.
///
/// ```
/// use a2a_types::v1::{AuthenticationInfo, TaskPushNotificationConfig};
///
/// let config = TaskPushNotificationConfig::new("https://example.com/hook")
///     .with_task_id("t-1")
///     .with_authentication(AuthenticationInfo::bearer("secret"));
/// assert_eq!(
///     serde_json::to_string(&config).unwrap(),
///     r#"{"taskId":"t-1","url":"https://example.com/hook","authentication":{"scheme":"Bearer","credentials":"secret"}}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskPushNotificationConfig {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The id of this configuration (assigned by the server when absent).
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub id: Option<String>,
    /// The task whose updates are sent.
    #[serde(
        alias = "task_id",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub task_id: Option<TaskId>,
    /// The webhook URL. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub url: String,
    /// A token the webhook can check, unique to the task or session.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub token: Option<String>,
    /// How the agent authenticates to the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<AuthenticationInfo>,
}

impl TaskPushNotificationConfig {
    /// A configuration for this webhook URL.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            ..Self::default()
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
        /// Sets the configuration id.
        with_id(id): opt String;
        /// Sets the task id.
        with_task_id(task_id): opt TaskId;
        /// Sets the token.
        with_token(token): opt String;
        /// Sets the authentication.
        with_authentication(authentication): opt AuthenticationInfo;
    }
}
