//! [`AgentCard`] 0.1, served at `/.well-known/agent.json`, and its parts.

use serde::{Deserialize, Serialize};

use crate::serde_util as su;

/// How an agent describes itself in 0.1: a name, one JSON-RPC endpoint `url`, capabilities,
/// authentication scheme names and skills.
///
/// ```
/// use a2a_types::v0_1::{AgentCapabilities, AgentCard, AgentSkill};
///
/// let card: AgentCard = serde_json::from_str(r#"{
///     "name": "Echo", "url": "https://echo.example.com/a2a", "version": "1.0.0",
///     "capabilities": {"streaming": true},
///     "authentication": {"schemes": ["Bearer"]},
///     "skills": [{"id": "echo", "name": "Echo"}]
/// }"#).unwrap();
/// assert_eq!(card.capabilities.streaming, Some(true));
/// assert_eq!(card.authentication.unwrap().schemes, ["Bearer"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCard {
    /// The agent's name. Required.
    pub name: String,
    /// What the agent does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The agent's A2A endpoint, where JSON-RPC requests are posted. Required.
    pub url: String,
    /// Who provides the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<AgentProvider>,
    /// The version of the agent. Required.
    pub version: String,
    /// Where to read more about the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documentation_url: Option<String>,
    /// The optional protocol features the agent supports. Required.
    pub capabilities: AgentCapabilities,
    /// The authentication schemes the agent requires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<AgentAuthentication>,
    /// The MIME types the agent accepts, unless a skill says otherwise (absent: `["text"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_input_modes: Option<Vec<String>>,
    /// The MIME types the agent produces, unless a skill says otherwise (absent: `["text"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_output_modes: Option<Vec<String>>,
    /// What the agent is good at. Required.
    pub skills: Vec<AgentSkill>,
}

impl AgentCard {
    /// A card with the required fields and no skills.
    pub fn new(
        name: impl Into<String>,
        url: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            url: url.into(),
            version: version.into(),
            ..Self::default()
        }
    }

    /// The default of `defaultInputModes` and `defaultOutputModes` when absent: `["text"]`.
    pub const DEFAULT_MODES: &'static [&'static str] = &["text"];

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the provider.
        with_provider(provider): opt AgentProvider;
        /// Sets the documentation URL.
        with_documentation_url(documentation_url): opt String;
        /// Sets the capabilities.
        with_capabilities(capabilities): val AgentCapabilities;
        /// Sets the authentication.
        with_authentication(authentication): opt AgentAuthentication;
        /// Sets the skills.
        with_skills(skills): list AgentSkill;
    }

    /// Sets the default input MIME types.
    #[must_use]
    pub fn with_default_input_modes<I>(mut self, modes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.default_input_modes = Some(modes.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the default output MIME types.
    #[must_use]
    pub fn with_default_output_modes<I>(mut self, modes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.default_output_modes = Some(modes.into_iter().map(Into::into).collect());
        self
    }
}

/// The organization that provides an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentProvider {
    /// The provider's name. Required.
    pub organization: String,
    /// The provider's website.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl AgentProvider {
    /// A provider with its name.
    pub fn new(organization: impl Into<String>) -> Self {
        Self {
            organization: organization.into(),
            url: None,
        }
    }

    crate::v1::setters! {
        /// Sets the website.
        with_url(url): opt String;
    }
}

/// The optional protocol features an agent supports (each absent means `false`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCapabilities {
    /// `tasks/sendSubscribe` and `tasks/resubscribe`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// `tasks/pushNotification/set` and `tasks/pushNotification/get`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notifications: Option<bool>,
    /// A history of status changes in the task (never specified further; dropped in 1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_transition_history: Option<bool>,
}

impl AgentCapabilities {
    crate::v1::setters! {
        /// Sets `streaming`.
        with_streaming(streaming): opt bool;
        /// Sets `pushNotifications`.
        with_push_notifications(push_notifications): opt bool;
        /// Sets `stateTransitionHistory`.
        with_state_transition_history(state_transition_history): opt bool;
    }
}

/// The authentication an agent requires: scheme names (`"Bearer"`, `"Basic"`, `"OAuth2"`) and,
/// rarely, static credentials.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentAuthentication {
    /// The scheme names. Required.
    pub schemes: Vec<String>,
    /// Static credentials (discouraged by the specification).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
}

impl AgentAuthentication {
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

/// Something an agent is good at.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentSkill {
    /// The skill's id. Required.
    pub id: String,
    /// The skill's name. Required.
    pub name: String,
    /// What the skill does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Keywords.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub tags: Vec<String>,
    /// Example prompts.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub examples: Vec<String>,
    /// Accepted MIME types, overriding the card's defaults.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub input_modes: Vec<String>,
    /// Produced MIME types, overriding the card's defaults.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub output_modes: Vec<String>,
}

impl AgentSkill {
    /// A skill with its id and name.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the tags.
        with_tags(tags): list String;
        /// Sets the examples.
        with_examples(examples): list String;
        /// Sets the input MIME types.
        with_input_modes(input_modes): list String;
        /// Sets the output MIME types.
        with_output_modes(output_modes): list String;
    }
}
