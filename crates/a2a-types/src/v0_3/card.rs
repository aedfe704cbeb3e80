//! [`AgentCard`]: the 0.2/0.3 agent card, with `url`, `preferredTransport` and
//! `additionalInterfaces`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::SecurityScheme;
use super::util::{self, Object};
use crate::serde_util as su;

/// A security requirement of 0.3: scheme name to the scopes it needs (`[]` for schemes
/// without scopes). All schemes of one requirement apply together; any one requirement of
/// the list suffices.
pub type SecurityRequirement = BTreeMap<String, Vec<String>>;

/// A self-describing manifest of an agent, in its 0.2/0.3 form (served at
/// `/.well-known/agent-card.json`, or `/.well-known/agent.json` before 0.3).
///
/// `protocolVersion` is read as `"0.3.0"` when absent (cards of 0.2.0 to 0.2.4 have none).
/// Convert into the 1.0 model with `v1::AgentCard::from(card)`; for cards that may be 1.0,
/// 0.3 or both at once, see [`AgentCard::from_json_lenient`].
///
/// ```
/// use a2a_types::{v0_3, v1};
///
/// let card: v0_3::AgentCard = serde_json::from_str(r#"{
///     "name": "Echo", "description": "Repeats", "version": "1.0.0",
///     "url": "https://echo.example.com/a2a", "protocolVersion": "0.3.0",
///     "capabilities": {"streaming": true},
///     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
/// }"#).unwrap();
/// let card = v1::AgentCard::from(card);
/// let interface = &card.supported_interfaces[0];
/// assert_eq!(
///     (interface.url.as_str(), interface.protocol_binding.as_str(), interface.protocol_version.as_str()),
///     ("https://echo.example.com/a2a", "JSONRPC", "0.3")
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCard {
    /// The version of the A2A protocol the agent speaks (`"0.3.0"`). Required (read as
    /// `"0.3.0"` when absent).
    #[serde(default = "util::default_protocol_version")]
    pub protocol_version: String,
    /// The agent's name. Required.
    pub name: String,
    /// What the agent does. Required.
    pub description: String,
    /// The preferred endpoint. Required.
    pub url: String,
    /// The transport at `url` (`JSONRPC`, `GRPC`, `HTTP+JSON`); `JSONRPC` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_transport: Option<String>,
    /// More endpoints, each with its transport (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub additional_interfaces: Vec<AgentInterface>,
    /// An icon for the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon_url: Option<String>,
    /// Who provides the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<AgentProvider>,
    /// The version of the agent (not of the protocol). Required.
    pub version: String,
    /// Where to read more about the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documentation_url: Option<String>,
    /// The optional protocol features the agent supports. Required.
    pub capabilities: AgentCapabilities,
    /// The security schemes, by name (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// The security requirements (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub security: Vec<SecurityRequirement>,
    /// The media types the agent accepts, unless a skill says otherwise. Required.
    pub default_input_modes: Vec<String>,
    /// The media types the agent produces, unless a skill says otherwise. Required.
    pub default_output_modes: Vec<String>,
    /// What the agent is good at. Required.
    pub skills: Vec<AgentSkill>,
    /// An extended card is available to authenticated clients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_authenticated_extended_card: Option<bool>,
    /// JSON Web Signatures of this card (new in 0.3; not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub signatures: Vec<AgentCardSignature>,
}

impl AgentCard {
    /// A card with a name, a description, a URL and a version, protocol version `0.3.0` and
    /// everything else empty.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        url: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        Self {
            protocol_version: util::default_protocol_version(),
            name: name.into(),
            description: description.into(),
            url: url.into(),
            version: version.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the protocol version.
        with_protocol_version(protocol_version): val String;
        /// Sets the preferred transport.
        with_preferred_transport(preferred_transport): opt String;
        /// Sets the additional interfaces.
        with_additional_interfaces(additional_interfaces): list AgentInterface;
        /// Sets the icon URL.
        with_icon_url(icon_url): opt String;
        /// Sets the provider.
        with_provider(provider): opt AgentProvider;
        /// Sets the documentation URL.
        with_documentation_url(documentation_url): opt String;
        /// Sets the capabilities.
        with_capabilities(capabilities): val AgentCapabilities;
        /// Sets the security requirements.
        with_security(security): list SecurityRequirement;
        /// Sets the default input media types.
        with_default_input_modes(default_input_modes): list String;
        /// Sets the default output media types.
        with_default_output_modes(default_output_modes): list String;
        /// Sets the skills.
        with_skills(skills): list AgentSkill;
        /// Sets `supportsAuthenticatedExtendedCard`.
        with_supports_authenticated_extended_card(supports_authenticated_extended_card): opt bool;
        /// Sets the signatures.
        with_signatures(signatures): list AgentCardSignature;
    }

    /// Adds a security scheme under a name.
    #[must_use]
    pub fn with_security_scheme(
        mut self,
        name: impl Into<String>,
        scheme: impl Into<SecurityScheme>,
    ) -> Self {
        self.security_schemes.insert(name.into(), scheme.into());
        self
    }
}

/// The optional protocol features an agent supports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCapabilities {
    /// Streaming (`message/stream`, `tasks/resubscribe`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// Push notifications.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notifications: Option<bool>,
    /// The agent keeps a history of state transitions (removed in 1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_transition_history: Option<bool>,
    /// Protocol extensions (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<AgentExtension>,
}

impl AgentCapabilities {
    crate::v1::setters! {
        /// Sets `streaming`.
        with_streaming(streaming): opt bool;
        /// Sets `pushNotifications`.
        with_push_notifications(push_notifications): opt bool;
        /// Sets `stateTransitionHistory`.
        with_state_transition_history(state_transition_history): opt bool;
        /// Sets the extensions.
        with_extensions(extensions): list AgentExtension;
    }
}

/// A protocol extension an agent supports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentExtension {
    /// The URI that identifies the extension. Required.
    pub uri: String,
    /// How the agent uses the extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// True when clients must understand the extension (`false` is not written).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "su::is_false"
    )]
    pub required: bool,
    /// Extension-specific parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Object>,
}

impl AgentExtension {
    /// An extension identified by its URI.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets `required`.
        with_required(required): val bool;
        /// Sets the parameters.
        with_params(params): opt Object;
    }
}

/// One more way to reach the agent: a URL and the transport it speaks there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentInterface {
    /// The URL. Required.
    pub url: String,
    /// The transport (`JSONRPC`, `GRPC`, `HTTP+JSON`, see
    /// [`TransportProtocol`](super::TransportProtocol), or a custom one). Required.
    pub transport: String,
}

impl AgentInterface {
    /// An interface with the required fields.
    pub fn new(url: impl Into<String>, transport: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            transport: transport.into(),
        }
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
    /// The provider's website. Required.
    pub url: String,
}

impl AgentProvider {
    /// A provider with the required fields.
    pub fn new(organization: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            organization: organization.into(),
            url: url.into(),
        }
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
    /// What the skill does. Required.
    pub description: String,
    /// Keywords. Required.
    pub tags: Vec<String>,
    /// Example prompts (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub examples: Vec<String>,
    /// Accepted media types, overriding the card's defaults (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub input_modes: Vec<String>,
    /// Produced media types, overriding the card's defaults (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub output_modes: Vec<String>,
    /// Security requirements for this skill (new in 0.3; not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub security: Vec<SecurityRequirement>,
}

impl AgentSkill {
    /// A skill with the required fields.
    pub fn new<I>(
        id: impl Into<String>,
        name: impl Into<String>,
        description: impl Into<String>,
        tags: I,
    ) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self {
            id: id.into(),
            name: name.into(),
            description: description.into(),
            tags: tags.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the examples.
        with_examples(examples): list String;
        /// Sets the input media types.
        with_input_modes(input_modes): list String;
        /// Sets the output media types.
        with_output_modes(output_modes): list String;
        /// Sets the security requirements.
        with_security(security): list SecurityRequirement;
    }
}

/// A JSON Web Signature (RFC 7515) of an [`AgentCard`] (new in 0.3).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCardSignature {
    /// The protected JWS header, base64url-encoded JSON. Required.
    pub protected: String,
    /// The signature, base64url-encoded. Required.
    pub signature: String,
    /// The unprotected JWS header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<Object>,
}

impl AgentCardSignature {
    /// A signature with the required fields.
    pub fn new(protected: impl Into<String>, signature: impl Into<String>) -> Self {
        Self {
            protected: protected.into(),
            signature: signature.into(),
            header: None,
        }
    }

    crate::v1::setters! {
        /// Sets the unprotected header.
        with_header(header): opt Object;
    }
}
