//! [`AgentCard`]: how an agent describes itself, and its parts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{SecurityRequirement, SecurityScheme, Struct};
use crate::serde_util as su;

/// The names of the protocol bindings the spec defines, for [`AgentInterface::protocol_binding`].
pub mod binding {
    /// JSON-RPC 2.0 over HTTP.
    pub const JSONRPC: &str = "JSONRPC";
    /// gRPC.
    pub const GRPC: &str = "GRPC";
    /// HTTP+JSON (REST).
    pub const HTTP_JSON: &str = "HTTP+JSON";
}

/// A self-describing manifest of an agent: who it is, where and how to reach it, what it can do.
///
/// ```
/// use a2a_types::v1::{AgentCapabilities, AgentCard, AgentInterface, AgentSkill, binding};
///
/// let card = AgentCard::new("Echo", "Repeats what you say", "1.0.0")
///     .with_supported_interfaces([AgentInterface::new("http://127.0.0.1:7420/", binding::JSONRPC, "1.0")])
///     .with_capabilities(AgentCapabilities::default().with_streaming(true))
///     .with_default_input_modes(["text/plain"])
///     .with_default_output_modes(["text/plain"])
///     .with_skills([AgentSkill::new("echo", "Echo", "Echoes the input", ["echo"])]);
/// let json = serde_json::to_value(&card).unwrap();
/// assert_eq!(json["supportedInterfaces"][0]["protocolBinding"], "JSONRPC");
/// assert_eq!(json["capabilities"], serde_json::json!({"streaming": true}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCard {
    /// The agent's name. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub name: String,
    /// What the agent does. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub description: String,
    /// Where and how the agent can be reached, in order of preference. Required.
    #[serde(
        alias = "supported_interfaces",
        default,
        deserialize_with = "su::nullable"
    )]
    pub supported_interfaces: Vec<AgentInterface>,
    /// Who provides the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<AgentProvider>,
    /// The version of the agent (not of the protocol). Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub version: String,
    /// Where to read more about the agent.
    #[serde(
        alias = "documentation_url",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub documentation_url: Option<String>,
    /// The optional protocol features the agent supports. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub capabilities: AgentCapabilities,
    /// The security schemes, by name.
    #[serde(
        alias = "security_schemes",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// The security requirements for contacting the agent (any one of them suffices).
    #[serde(
        alias = "security_requirements",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub security_requirements: Vec<SecurityRequirement>,
    /// The media types the agent accepts, unless a skill says otherwise. Required.
    #[serde(
        alias = "default_input_modes",
        default,
        deserialize_with = "su::nullable"
    )]
    pub default_input_modes: Vec<String>,
    /// The media types the agent produces, unless a skill says otherwise. Required.
    #[serde(
        alias = "default_output_modes",
        default,
        deserialize_with = "su::nullable"
    )]
    pub default_output_modes: Vec<String>,
    /// What the agent is good at. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub skills: Vec<AgentSkill>,
    /// JSON Web Signatures of this card.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub signatures: Vec<AgentCardSignature>,
    /// A URL of an icon for the agent.
    #[serde(alias = "icon_url", default, skip_serializing_if = "Option::is_none")]
    pub icon_url: Option<String>,
}

impl AgentCard {
    /// A card with a name, a description and a version; everything else empty.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            version: version.into(),
            ..Self::default()
        }
    }

    super::setters! {
        /// Sets the supported interfaces, preferred first.
        with_supported_interfaces(supported_interfaces): list AgentInterface;
        /// Sets the provider.
        with_provider(provider): opt AgentProvider;
        /// Sets the documentation URL.
        with_documentation_url(documentation_url): opt String;
        /// Sets the capabilities.
        with_capabilities(capabilities): val AgentCapabilities;
        /// Sets the security requirements.
        with_security_requirements(security_requirements): list SecurityRequirement;
        /// Sets the default input media types.
        with_default_input_modes(default_input_modes): list String;
        /// Sets the default output media types.
        with_default_output_modes(default_output_modes): list String;
        /// Sets the skills.
        with_skills(skills): list AgentSkill;
        /// Sets the signatures.
        with_signatures(signatures): list AgentCardSignature;
        /// Sets the icon URL.
        with_icon_url(icon_url): opt String;
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

/// One way to reach the agent: a URL, a protocol binding and a protocol version.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentInterface {
    /// The URL of the interface. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub url: String,
    /// The binding: `JSONRPC`, `GRPC`, `HTTP+JSON` (see [`binding`]) or a URI. Required.
    #[serde(alias = "protocol_binding", default, deserialize_with = "su::nullable")]
    pub protocol_binding: String,
    /// A tenant that clients must copy into every request sent to this interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The protocol version, `Major.Minor` (`"1.0"`, `"0.3"`). Required.
    #[serde(alias = "protocol_version", default, deserialize_with = "su::nullable")]
    pub protocol_version: String,
}

impl AgentInterface {
    /// An interface with the required fields.
    pub fn new(
        url: impl Into<String>,
        protocol_binding: impl Into<String>,
        protocol_version: impl Into<String>,
    ) -> Self {
        Self {
            url: url.into(),
            protocol_binding: protocol_binding.into(),
            tenant: None,
            protocol_version: protocol_version.into(),
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
    }
}

/// The organization that provides an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentProvider {
    /// The provider's website. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub url: String,
    /// The provider's name. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub organization: String,
}

impl AgentProvider {
    /// A provider with the required fields.
    pub fn new(organization: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            organization: organization.into(),
        }
    }
}

/// The optional protocol features an agent supports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCapabilities {
    /// Streaming (`SendStreamingMessage`, `SubscribeToTask`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// Push notifications.
    #[serde(
        alias = "push_notifications",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub push_notifications: Option<bool>,
    /// Protocol extensions.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<AgentExtension>,
    /// An extended card for authenticated clients (`GetExtendedAgentCard`).
    #[serde(
        alias = "extended_agent_card",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub extended_agent_card: Option<bool>,
}

impl AgentCapabilities {
    super::setters! {
        /// Sets `streaming`.
        with_streaming(streaming): opt bool;
        /// Sets `pushNotifications`.
        with_push_notifications(push_notifications): opt bool;
        /// Sets the extensions.
        with_extensions(extensions): list AgentExtension;
        /// Sets `extendedAgentCard`.
        with_extended_agent_card(extended_agent_card): opt bool;
    }
}

/// A protocol extension an agent supports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentExtension {
    /// The URI that identifies the extension.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub uri: Option<String>,
    /// How the agent uses the extension.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
    /// True when clients must understand the extension.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "su::is_false"
    )]
    pub required: bool,
    /// Extension-specific parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Struct>,
}

impl AgentExtension {
    /// An extension identified by its URI.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: Some(uri.into()),
            ..Self::default()
        }
    }

    super::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets `required`.
        with_required(required): val bool;
        /// Sets the parameters.
        with_params(params): opt Struct;
    }
}

/// Something an agent is good at.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentSkill {
    /// The skill's id. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub id: String,
    /// The skill's name. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub name: String,
    /// What the skill does. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub description: String,
    /// Keywords. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub tags: Vec<String>,
    /// Example prompts.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub examples: Vec<String>,
    /// Accepted media types, overriding the card's defaults.
    #[serde(
        alias = "input_modes",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub input_modes: Vec<String>,
    /// Produced media types, overriding the card's defaults.
    #[serde(
        alias = "output_modes",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub output_modes: Vec<String>,
    /// Security requirements for this skill.
    #[serde(
        alias = "security_requirements",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub security_requirements: Vec<SecurityRequirement>,
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

    super::setters! {
        /// Sets the examples.
        with_examples(examples): list String;
        /// Sets the input media types.
        with_input_modes(input_modes): list String;
        /// Sets the output media types.
        with_output_modes(output_modes): list String;
        /// Sets the security requirements.
        with_security_requirements(security_requirements): list SecurityRequirement;
    }
}

/// A JSON Web Signature (RFC 7515) of an [`AgentCard`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AgentCardSignature {
    /// The protected JWS header, base64url-encoded JSON. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub protected: String,
    /// The signature, base64url-encoded. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub signature: String,
    /// The unprotected JWS header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<Struct>,
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

    super::setters! {
        /// Sets the unprotected header.
        with_header(header): opt Struct;
    }
}
