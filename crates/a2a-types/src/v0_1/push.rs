//! Push notification configuration: [`PushNotificationConfig`], [`AuthenticationInfo`] and
//! [`TaskPushNotificationConfig`].

use serde::{Deserialize, Serialize};

use crate::v1::{Struct, TaskId};

/// How the agent authenticates to a webhook: scheme names and optional static credentials.
///
/// `a2a.json` allows other properties beside `schemes` and `credentials`
/// (`additionalProperties`); they are kept in [`additional`](Self::additional).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AuthenticationInfo {
    /// The authentication schemes the agent must use (`"Bearer"`). Required.
    pub schemes: Vec<String>,
    /// Static credentials, if the scheme needs them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
    /// Any other properties.
    #[serde(flatten)]
    pub additional: Struct,
}

impl AuthenticationInfo {
    /// Authentication with these schemes and no credentials.
    pub fn new<I>(schemes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self {
            schemes: schemes.into_iter().map(Into::into).collect(),
            credentials: None,
            additional: Struct::new(),
        }
    }

    crate::v1::setters! {
        /// Sets the credentials.
        with_credentials(credentials): opt String;
    }
}

/// A webhook that receives a task's updates.
///
/// ```
/// use a2a_types::v0_1::{AuthenticationInfo, PushNotificationConfig};
///
/// let config = PushNotificationConfig::new("https://client.example.com/hook")
///     .with_token("t0k3n")
///     .with_authentication(AuthenticationInfo::new(["Bearer"]));
/// assert_eq!(
///     serde_json::to_string(&config).unwrap(),
///     r#"{"url":"https://client.example.com/hook","token":"t0k3n","authentication":{"schemes":["Bearer"]}}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PushNotificationConfig {
    /// The webhook URL. Required.
    pub url: String,
    /// A token the agent includes in each notification, for the receiver to check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// How the agent authenticates to the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<AuthenticationInfo>,
}

impl PushNotificationConfig {
    /// A configuration for this webhook URL.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            token: None,
            authentication: None,
        }
    }

    crate::v1::setters! {
        /// Sets the token.
        with_token(token): opt String;
        /// Sets the authentication.
        with_authentication(authentication): opt AuthenticationInfo;
    }
}

/// The push notification configuration of one task: the params of
/// `tasks/pushNotification/set` and the result of both push methods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskPushNotificationConfig {
    /// The id of the task. Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// The configuration. Required.
    pub push_notification_config: PushNotificationConfig,
}

impl TaskPushNotificationConfig {
    /// The configuration of this task.
    pub fn new(id: impl Into<TaskId>, push_notification_config: PushNotificationConfig) -> Self {
        Self {
            id: id.into(),
            push_notification_config,
        }
    }
}
