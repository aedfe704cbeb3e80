//! Push notification configuration: the 0.3 nested shape.

use serde::{Deserialize, Serialize};

use crate::serde_util as su;

/// How the agent authenticates to a webhook: a list of HTTP authentication schemes and
/// credentials.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PushNotificationAuthenticationInfo {
    /// The supported authentication schemes (`Basic`, `Bearer`). Required (always written).
    #[serde(deserialize_with = "su::nullable")]
    pub schemes: Vec<String>,
    /// The credentials, in a format the schemes define.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
}

impl PushNotificationAuthenticationInfo {
    /// Authentication with these schemes and no credentials.
    pub fn new<I>(schemes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self {
            schemes: schemes.into_iter().map(Into::into).collect(),
            credentials: None,
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
/// use a2a_types::v0_3::{PushNotificationAuthenticationInfo, PushNotificationConfig};
///
/// let config = PushNotificationConfig::new("https://example.com/hook")
///     .with_token("secret")
///     .with_authentication(PushNotificationAuthenticationInfo::new(["Bearer"]));
/// assert_eq!(
///     serde_json::to_string(&config).unwrap(),
///     r#"{"url":"https://example.com/hook","token":"secret","authentication":{"schemes":["Bearer"]}}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PushNotificationConfig {
    /// The id of this configuration (a task may have several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The webhook URL. Required.
    pub url: String,
    /// A token the webhook can check, unique to the task or session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// How the agent authenticates to the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<PushNotificationAuthenticationInfo>,
}

impl PushNotificationConfig {
    /// A configuration for this webhook URL.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the configuration id.
        with_id(id): opt String;
        /// Sets the token.
        with_token(token): opt String;
        /// Sets the authentication.
        with_authentication(authentication): opt PushNotificationAuthenticationInfo;
    }
}

/// A push notification configuration bound to a task: the params of
/// `tasks/pushNotificationConfig/set` and the result of its `get`, `set` and `list`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskPushNotificationConfig {
    /// The task. Required.
    pub task_id: String,
    /// The configuration. Required.
    pub push_notification_config: PushNotificationConfig,
}

impl TaskPushNotificationConfig {
    /// A configuration of this task.
    pub fn new(
        task_id: impl Into<String>,
        push_notification_config: PushNotificationConfig,
    ) -> Self {
        Self {
            task_id: task_id.into(),
            push_notification_config,
        }
    }
}
