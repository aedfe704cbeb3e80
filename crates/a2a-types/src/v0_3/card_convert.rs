//! Agent card and security scheme conversions, and the lenient parser for 0.3, 1.0 and
//! "union" cards.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::util::{self, Object};
use super::*;
use crate::json::{self, DecodeError};
use crate::protocol::VersionNumber;
use crate::v1;

// ---------------------------------------------------------------------------------------------
// Security

impl From<ApiKeyLocation> for String {
    fn from(location: ApiKeyLocation) -> Self {
        location.as_str().to_owned()
    }
}

impl From<SecurityScheme> for v1::SecurityScheme {
    fn from(scheme: SecurityScheme) -> Self {
        match scheme {
            SecurityScheme::ApiKey(s) => v1::SecurityScheme::ApiKey(v1::ApiKeySecurityScheme {
                description: s.description,
                location: s.location.into(),
                name: s.name,
            }),
            SecurityScheme::Http(s) => v1::SecurityScheme::HttpAuth(v1::HttpAuthSecurityScheme {
                description: s.description,
                scheme: s.scheme,
                bearer_format: s.bearer_format,
            }),
            SecurityScheme::OAuth2(s) => v1::SecurityScheme::OAuth2(v1::OAuth2SecurityScheme {
                description: s.description,
                flows: s.flows.into(),
                oauth2_metadata_url: s.oauth2_metadata_url,
            }),
            SecurityScheme::OpenIdConnect(s) => {
                v1::SecurityScheme::OpenIdConnect(v1::OpenIdConnectSecurityScheme {
                    description: s.description,
                    open_id_connect_url: s.open_id_connect_url,
                })
            }
            SecurityScheme::MutualTls(s) => v1::SecurityScheme::Mtls(v1::MutualTlsSecurityScheme {
                description: s.description,
            }),
        }
    }
}

impl From<v1::SecurityScheme> for SecurityScheme {
    /// An API key `location` other than `cookie`, `header` and `query` (any case) becomes
    /// `header`.
    fn from(scheme: v1::SecurityScheme) -> Self {
        match scheme {
            v1::SecurityScheme::ApiKey(s) => SecurityScheme::ApiKey(ApiKeySecurityScheme {
                scheme_type: ApiKeyType,
                description: s.description,
                location: ApiKeyLocation::from_name(&s.location.to_ascii_lowercase())
                    .unwrap_or(ApiKeyLocation::Header),
                name: s.name,
            }),
            v1::SecurityScheme::HttpAuth(s) => SecurityScheme::Http(HttpAuthSecurityScheme {
                scheme_type: HttpType,
                description: s.description,
                scheme: s.scheme,
                bearer_format: s.bearer_format,
            }),
            v1::SecurityScheme::OAuth2(s) => SecurityScheme::OAuth2(OAuth2SecurityScheme {
                scheme_type: OAuth2Type,
                description: s.description,
                flows: s.flows.into(),
                oauth2_metadata_url: s.oauth2_metadata_url,
            }),
            v1::SecurityScheme::OpenIdConnect(s) => {
                SecurityScheme::OpenIdConnect(OpenIdConnectSecurityScheme {
                    scheme_type: OpenIdConnectType,
                    description: s.description,
                    open_id_connect_url: s.open_id_connect_url,
                })
            }
            v1::SecurityScheme::Mtls(s) => SecurityScheme::MutualTls(MutualTlsSecurityScheme {
                scheme_type: MutualTlsType,
                description: s.description,
            }),
        }
    }
}

fn some_non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

impl From<OAuthFlows> for v1::OAuthFlows {
    /// 1.0 has exactly one flow: the first of authorization code, client credentials,
    /// implicit and password; no flow at all becomes an empty implicit flow (which converts
    /// back to no flow).
    fn from(flows: OAuthFlows) -> Self {
        if let Some(f) = flows.authorization_code {
            v1::OAuthFlows::AuthorizationCode(v1::AuthorizationCodeOAuthFlow {
                authorization_url: f.authorization_url,
                token_url: f.token_url,
                refresh_url: f.refresh_url,
                scopes: f.scopes,
                pkce_required: false,
            })
        } else if let Some(f) = flows.client_credentials {
            v1::OAuthFlows::ClientCredentials(v1::ClientCredentialsOAuthFlow {
                token_url: f.token_url,
                refresh_url: f.refresh_url,
                scopes: f.scopes,
            })
        } else if let Some(f) = flows.implicit {
            v1::OAuthFlows::Implicit(v1::ImplicitOAuthFlow {
                authorization_url: some_non_empty(f.authorization_url),
                refresh_url: f.refresh_url,
                scopes: f.scopes,
            })
        } else if let Some(f) = flows.password {
            v1::OAuthFlows::Password(v1::PasswordOAuthFlow {
                token_url: some_non_empty(f.token_url),
                refresh_url: f.refresh_url,
                scopes: f.scopes,
            })
        } else {
            v1::OAuthFlows::Implicit(v1::ImplicitOAuthFlow::default())
        }
    }
}

impl From<v1::OAuthFlows> for OAuthFlows {
    /// Drops `pkceRequired` and the device code flow (0.3 has neither); an empty implicit flow
    /// becomes no flow.
    fn from(flows: v1::OAuthFlows) -> Self {
        let mut out = OAuthFlows::default();
        match flows {
            v1::OAuthFlows::AuthorizationCode(f) => {
                out.authorization_code = Some(AuthorizationCodeOAuthFlow {
                    authorization_url: f.authorization_url,
                    token_url: f.token_url,
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                });
            }
            v1::OAuthFlows::ClientCredentials(f) => {
                out.client_credentials = Some(ClientCredentialsOAuthFlow {
                    token_url: f.token_url,
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                });
            }
            v1::OAuthFlows::Implicit(f) if f != v1::ImplicitOAuthFlow::default() => {
                out.implicit = Some(ImplicitOAuthFlow {
                    authorization_url: f.authorization_url.unwrap_or_default(),
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                });
            }
            v1::OAuthFlows::Password(f) => {
                out.password = Some(PasswordOAuthFlow {
                    token_url: f.token_url.unwrap_or_default(),
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                });
            }
            // An empty implicit flow stands for none; device code (RFC 8628) is new in 1.0.
            _ => {}
        }
        out
    }
}

fn requirement_to_v1(requirement: SecurityRequirement) -> v1::SecurityRequirement {
    let mut out = v1::SecurityRequirement::default();
    for (name, scopes) in requirement {
        out.schemes.insert(name, scopes.into_iter().collect());
    }
    out
}

fn requirement_from_v1(requirement: v1::SecurityRequirement) -> SecurityRequirement {
    requirement
        .schemes
        .into_iter()
        .map(|(name, scopes)| (name, scopes.list))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Card parts

impl From<AgentExtension> for v1::AgentExtension {
    fn from(e: AgentExtension) -> Self {
        v1::AgentExtension {
            uri: some_non_empty(e.uri),
            description: e.description,
            required: e.required,
            params: e.params,
        }
    }
}

impl From<v1::AgentExtension> for AgentExtension {
    fn from(e: v1::AgentExtension) -> Self {
        AgentExtension {
            uri: e.uri.unwrap_or_default(),
            description: e.description,
            required: e.required,
            params: e.params,
        }
    }
}

impl From<AgentCapabilities> for v1::AgentCapabilities {
    /// Drops `stateTransitionHistory` (removed in 1.0). `extendedAgentCard` comes from the
    /// card's `supportsAuthenticatedExtendedCard`, see `From<AgentCard>`.
    fn from(c: AgentCapabilities) -> Self {
        v1::AgentCapabilities {
            streaming: c.streaming,
            push_notifications: c.push_notifications,
            extensions: c.extensions.into_iter().map(Into::into).collect(),
            extended_agent_card: None,
        }
    }
}

impl From<v1::AgentCapabilities> for AgentCapabilities {
    /// Drops `extendedAgentCard` (on a 0.3 card it is `supportsAuthenticatedExtendedCard`).
    fn from(c: v1::AgentCapabilities) -> Self {
        AgentCapabilities {
            streaming: c.streaming,
            push_notifications: c.push_notifications,
            state_transition_history: None,
            extensions: c.extensions.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<AgentProvider> for v1::AgentProvider {
    fn from(p: AgentProvider) -> Self {
        v1::AgentProvider {
            url: p.url,
            organization: p.organization,
        }
    }
}

impl From<v1::AgentProvider> for AgentProvider {
    fn from(p: v1::AgentProvider) -> Self {
        AgentProvider {
            organization: p.organization,
            url: p.url,
        }
    }
}

impl From<AgentSkill> for v1::AgentSkill {
    fn from(s: AgentSkill) -> Self {
        v1::AgentSkill {
            id: s.id,
            name: s.name,
            description: s.description,
            tags: s.tags,
            examples: s.examples,
            input_modes: s.input_modes,
            output_modes: s.output_modes,
            security_requirements: s.security.into_iter().map(requirement_to_v1).collect(),
        }
    }
}

impl From<v1::AgentSkill> for AgentSkill {
    fn from(s: v1::AgentSkill) -> Self {
        AgentSkill {
            id: s.id,
            name: s.name,
            description: s.description,
            tags: s.tags,
            examples: s.examples,
            input_modes: s.input_modes,
            output_modes: s.output_modes,
            security: s
                .security_requirements
                .into_iter()
                .map(requirement_from_v1)
                .collect(),
        }
    }
}

impl From<AgentCardSignature> for v1::AgentCardSignature {
    fn from(s: AgentCardSignature) -> Self {
        v1::AgentCardSignature {
            protected: s.protected,
            signature: s.signature,
            header: s.header,
        }
    }
}

impl From<v1::AgentCardSignature> for AgentCardSignature {
    fn from(s: v1::AgentCardSignature) -> Self {
        AgentCardSignature {
            protected: s.protected,
            signature: s.signature,
            header: s.header,
        }
    }
}

impl AgentInterface {
    /// The 1.0 interface at this URL and transport, for this protocol version (`"0.3"`).
    pub fn into_v1(self, protocol_version: impl Into<String>) -> v1::AgentInterface {
        v1::AgentInterface::new(self.url, self.transport, protocol_version)
    }
}

impl From<v1::AgentInterface> for AgentInterface {
    /// Drops `protocolVersion` and `tenant`.
    fn from(i: v1::AgentInterface) -> Self {
        AgentInterface {
            url: i.url,
            transport: i.protocol_binding,
        }
    }
}

/// The version number of a card's or an interface's protocol version, read by
/// [`VersionNumber`] from its first two parts (a patch part is ignored whatever it holds:
/// `0.3.0-rc1` is 0.3).
fn version_number(version: &str) -> Option<VersionNumber> {
    let version = version.trim();
    let major_minor = match version.match_indices('.').nth(1) {
        Some((end, _)) => &version[..end],
        None => version,
    };
    VersionNumber::parse(major_minor)
}

/// `Major.Minor` of a protocol version (`"0.3.0"` → `"0.3"`, `"1"` → `"1.0"`); `"0.3"` for an
/// empty one; one that is no version number is kept as it is.
pub(crate) fn major_minor(version: &str) -> String {
    match version_number(version) {
        Some(number) => number.to_string(),
        None if version.trim().is_empty() => DEFAULT_MAJOR_MINOR.to_owned(),
        None => version.trim().to_owned(),
    }
}

/// The version of a 0.3 card without a `protocolVersion`.
const DEFAULT_MAJOR_MINOR: &str = "0.3";

/// A 0.3 card's `protocolVersion` for a 1.0 interface's version: `Major.Minor.0` (`"0.3"` and
/// `"0.3.1"` are `"0.3.0"`, an empty one `"0.3.0"`); one that is no version number is kept.
fn full_version(version: &str) -> String {
    match version_number(version) {
        Some(number) => format!("{number}.0"),
        None if version.trim().is_empty() => format!("{DEFAULT_MAJOR_MINOR}.0"),
        None => version.trim().to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Cards

impl From<AgentCard> for v1::AgentCard {
    /// `url` + `preferredTransport` (default `JSONRPC`) + `protocolVersion` (as `Major.Minor`)
    /// become the first supported interface, and each of `additionalInterfaces` that is not
    /// the same URL and transport again one more, with the same protocol version;
    /// `supportsAuthenticatedExtendedCard` becomes `capabilities.extendedAgentCard`, `security`
    /// `securityRequirements`.
    fn from(c: AgentCard) -> Self {
        let version = major_minor(&c.protocol_version);
        let transport = c
            .preferred_transport
            .unwrap_or_else(|| TransportProtocol::JsonRpc.as_str().to_owned());
        // A card without `url` (not a valid 0.3 card) has no main interface.
        let mut interfaces: Vec<v1::AgentInterface> = Vec::new();
        if !c.url.is_empty() {
            interfaces.push(v1::AgentInterface::new(c.url, transport, version.clone()));
        }
        for extra in c.additional_interfaces {
            let known = interfaces
                .iter()
                .any(|i| i.url == extra.url && i.protocol_binding == extra.transport);
            if !known {
                interfaces.push(extra.into_v1(version.clone()));
            }
        }
        let mut capabilities = v1::AgentCapabilities::from(c.capabilities);
        capabilities.extended_agent_card = c.supports_authenticated_extended_card;
        v1::AgentCard {
            name: c.name,
            description: c.description,
            supported_interfaces: interfaces,
            provider: c.provider.map(Into::into),
            version: c.version,
            documentation_url: c.documentation_url,
            capabilities,
            security_schemes: c
                .security_schemes
                .into_iter()
                .map(|(name, scheme)| (name, scheme.into()))
                .collect(),
            security_requirements: c.security.into_iter().map(requirement_to_v1).collect(),
            default_input_modes: c.default_input_modes,
            default_output_modes: c.default_output_modes,
            skills: c.skills.into_iter().map(Into::into).collect(),
            signatures: c.signatures.into_iter().map(Into::into).collect(),
            icon_url: c.icon_url,
        }
    }
}

impl From<v1::AgentCard> for AgentCard {
    /// The card a 0.3 peer reads. Of the supported interfaces, those of a `0.x` protocol
    /// version count (all of them when there is none): the first `JSONRPC` one (or else the
    /// first one) gives `url`, `preferredTransport` and `protocolVersion` (`Major.Minor.0`:
    /// `"0.3.0"` for `"0.3"`). When they name more than one URL and transport,
    /// `additionalInterfaces` lists them all, that one first. `capabilities.extendedAgentCard`
    /// becomes `supportsAuthenticatedExtendedCard`.
    ///
    /// The signatures are copied, but they sign the 1.0 form of the card, so a 0.3 peer
    /// cannot verify them against this one.
    fn from(c: v1::AgentCard) -> Self {
        let legacy: Vec<&v1::AgentInterface> = c
            .supported_interfaces
            .iter()
            .filter(|i| version_number(&i.protocol_version).is_some_and(VersionNumber::is_legacy))
            .collect();
        let candidates: Vec<&v1::AgentInterface> = if legacy.is_empty() {
            c.supported_interfaces.iter().collect()
        } else {
            legacy
        };
        let main = candidates
            .iter()
            .find(|i| i.protocol_binding == TransportProtocol::JsonRpc.as_str())
            .or_else(|| candidates.first())
            .copied();
        // The main interface first, then the others in order, each URL and transport once.
        let mut additional_interfaces: Vec<AgentInterface> = Vec::new();
        for i in main.into_iter().chain(candidates.iter().copied()) {
            let known = additional_interfaces
                .iter()
                .any(|a| a.url == i.url && a.transport == i.protocol_binding);
            if !known {
                additional_interfaces.push(AgentInterface::new(
                    i.url.clone(),
                    i.protocol_binding.clone(),
                ));
            }
        }
        if additional_interfaces.len() < 2 {
            additional_interfaces.clear();
        }
        let (url, preferred_transport, protocol_version) = match main {
            Some(i) => (
                i.url.clone(),
                Some(i.protocol_binding.clone()),
                full_version(&i.protocol_version),
            ),
            None => (String::new(), None, DEFAULT_PROTOCOL_VERSION.to_owned()),
        };
        let supports_authenticated_extended_card = c.capabilities.extended_agent_card;
        AgentCard {
            protocol_version,
            name: c.name,
            description: c.description,
            url,
            preferred_transport,
            additional_interfaces,
            icon_url: c.icon_url,
            provider: c.provider.map(Into::into),
            version: c.version,
            documentation_url: c.documentation_url,
            capabilities: c.capabilities.into(),
            security_schemes: c
                .security_schemes
                .into_iter()
                .map(|(name, scheme)| (name, scheme.into()))
                .collect(),
            security: c
                .security_requirements
                .into_iter()
                .map(requirement_from_v1)
                .collect(),
            default_input_modes: c.default_input_modes,
            default_output_modes: c.default_output_modes,
            skills: c.skills.into_iter().map(Into::into).collect(),
            supports_authenticated_extended_card,
            signatures: c.signatures.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<&v1::AgentCard> for AgentCard {
    /// As `From<v1::AgentCard>`, from a borrowed card (a server keeps its card and serves it
    /// to 0.3 peers).
    fn from(c: &v1::AgentCard) -> Self {
        c.clone().into()
    }
}

// ---------------------------------------------------------------------------------------------
// Lenient card parsing

/// A security scheme in the 1.0 shape or, failing that, the 0.3 shape.
struct AnyScheme(v1::SecurityScheme);

impl<'de> Deserialize<'de> for AnyScheme {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        if let Ok(scheme) = serde_json::from_value::<v1::SecurityScheme>(value.clone()) {
            return Ok(AnyScheme(scheme));
        }
        util::from_value::<SecurityScheme, D::Error>(value)
            .map(|scheme| AnyScheme(scheme.into()))
            .map_err(|e| {
                serde::de::Error::custom(format_args!(
                    "neither a 1.0 SecurityScheme (one of `apiKeySecurityScheme`, `httpAuthSecurityScheme`, `oauth2SecurityScheme`, `openIdConnectSecurityScheme`, `mtlsSecurityScheme`) nor a 0.3 one ({e})"
                ))
            })
    }
}

/// The 0.3 fields a "union" card carries beside the 1.0 ones.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UnionFields {
    #[serde(default, alias = "security_schemes")]
    security_schemes: Option<BTreeMap<String, AnyScheme>>,
    #[serde(default)]
    security: Option<Vec<SecurityRequirement>>,
    #[serde(default)]
    supports_authenticated_extended_card: Option<bool>,
    #[serde(default)]
    skills: Option<Vec<UnionSkill>>,
}

#[derive(Deserialize)]
struct UnionSkill {
    #[serde(default)]
    security: Option<Vec<SecurityRequirement>>,
}

fn has_supported_interfaces(object: &Object) -> bool {
    ["supportedInterfaces", "supported_interfaces"]
        .iter()
        .any(|key| {
            object
                .get(*key)
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
        })
}

impl AgentCard {
    /// Parses an agent card of A2A 0.2, 0.3 or 1.0, or a "union" card that carries 0.3 and
    /// 1.0 fields in one object (as the Python and JS SDKs serve them), into the 1.0 model.
    ///
    /// * A card with a non-empty `supportedInterfaces` is read as 1.0; its security schemes
    ///   may each be in the 1.0 shape or the 0.3 one, and where its 1.0 fields are empty, the
    ///   0.3 `security`, `supportsAuthenticatedExtendedCard` and per-skill `security` fill
    ///   them in.
    /// * Any other card is read as 0.2/0.3 and converted (`From<AgentCard> for
    ///   v1::AgentCard`).
    ///
    /// Errors name the JSON path of the bad field. A 0.1 card is not told apart (it may have
    /// every field a 0.2.0 card has): read a card with `authentication` and neither
    /// `securitySchemes` nor `protocolVersion` as 0.1 before calling this.
    ///
    /// ```
    /// use a2a_types::v0_3::AgentCard;
    ///
    /// // What a 1.0 server serves to a client that may speak 0.3 (Python SDK style).
    /// let card = AgentCard::from_json_lenient(r#"{
    ///     "name": "Echo", "description": "Repeats", "version": "1.0.0",
    ///     "supportedInterfaces": [
    ///         {"url": "https://echo.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
    ///         {"url": "https://echo.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
    ///     ],
    ///     "url": "https://echo.example.com/a2a", "preferredTransport": "JSONRPC", "protocolVersion": "0.3",
    ///     "capabilities": {}, "supportsAuthenticatedExtendedCard": true,
    ///     "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    ///     "security": [{"bearer": []}],
    ///     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
    /// }"#).unwrap();
    /// assert_eq!(card.supported_interfaces.len(), 2);
    /// assert_eq!(card.capabilities.extended_agent_card, Some(true));
    /// assert_eq!(card.security_requirements[0].schemes.keys().collect::<Vec<_>>(), ["bearer"]);
    /// assert!(matches!(card.security_schemes["bearer"], a2a_types::v1::SecurityScheme::HttpAuth(_)));
    /// ```
    pub fn from_json_lenient(text: &str) -> Result<v1::AgentCard, DecodeError> {
        let value: Value = json::from_str(text)?;
        Self::from_value_lenient(value)
    }

    /// As [`from_json_lenient`](Self::from_json_lenient), from a parsed JSON value.
    pub fn from_value_lenient(value: Value) -> Result<v1::AgentCard, DecodeError> {
        let Value::Object(object) = &value else {
            return json::from_value::<AgentCard>(value).map(Into::into);
        };
        if !has_supported_interfaces(object) {
            return json::from_value::<AgentCard>(value).map(Into::into);
        }
        let union: UnionFields = json::from_value(value.clone())?;
        let mut stripped = object.clone();
        stripped.remove("securitySchemes");
        stripped.remove("security_schemes");
        let mut card: v1::AgentCard = json::from_value(Value::Object(stripped))?;
        if let Some(schemes) = union.security_schemes {
            card.security_schemes = schemes
                .into_iter()
                .map(|(name, AnyScheme(scheme))| (name, scheme))
                .collect();
        }
        if card.security_requirements.is_empty() {
            card.security_requirements = union
                .security
                .unwrap_or_default()
                .into_iter()
                .map(requirement_to_v1)
                .collect();
        }
        if card.capabilities.extended_agent_card.is_none() {
            card.capabilities.extended_agent_card = union.supports_authenticated_extended_card;
        }
        for (skill, extra) in card.skills.iter_mut().zip(union.skills.unwrap_or_default()) {
            if skill.security_requirements.is_empty() {
                skill.security_requirements = extra
                    .security
                    .unwrap_or_default()
                    .into_iter()
                    .map(requirement_to_v1)
                    .collect();
            }
        }
        Ok(card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn versions() {
        assert_eq!(major_minor("0.3.0"), "0.3");
        assert_eq!(major_minor("0.2.5"), "0.2");
        assert_eq!(major_minor("0.3"), "0.3");
        assert_eq!(major_minor(""), "0.3");
        assert_eq!(major_minor("1"), "1.0");
        assert_eq!(major_minor(" 0.3.0-rc1 "), "0.3");
        assert_eq!(major_minor("latest"), "latest");
        assert_eq!(full_version("0.3"), "0.3.0");
        assert_eq!(full_version("0.2.5"), "0.2.0");
        assert_eq!(full_version(""), "0.3.0");
        assert_eq!(full_version("1"), "1.0.0");
        assert_eq!(full_version("latest"), "latest");
    }

    #[test]
    fn oauth_flows_pick_one() {
        let flows = OAuthFlows::new()
            .with_client_credentials(ClientCredentialsOAuthFlow::new("https://t", Scopes::new()))
            .with_password(PasswordOAuthFlow::new("https://p", Scopes::new()));
        assert!(matches!(
            v1::OAuthFlows::from(flows),
            v1::OAuthFlows::ClientCredentials(_)
        ));
        let none = v1::OAuthFlows::from(OAuthFlows::new());
        assert_eq!(OAuthFlows::from(none), OAuthFlows::new());
        let device = v1::OAuthFlows::from(v1::DeviceCodeOAuthFlow::new("d", "t", Scopes::new()));
        assert_eq!(OAuthFlows::from(device), OAuthFlows::new());
    }

    #[test]
    fn bad_union_scheme_names_the_path() {
        let err = AgentCard::from_value_lenient(json!({
            "name": "x", "description": "x", "version": "1",
            "supportedInterfaces": [{"url": "u", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": [],
            "securitySchemes": {"k": {"type": "magic"}}
        }))
        .unwrap_err();
        assert_eq!(err.path(), "securitySchemes.k");
        assert!(
            err.message()
                .contains("unknown SecurityScheme type `magic`"),
            "{err}"
        );
    }
}
