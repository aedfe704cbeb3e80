//! Security schemes in the OpenAPI 3 style of 0.3 (`{"type": "http", "scheme": "bearer"}`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ApiKeyLocation;
use super::consts::{ApiKeyType, HttpType, MutualTlsType, OAuth2Type, OpenIdConnectType};
use super::util::{self, Object};

/// How a client authenticates with an agent: one of five scheme kinds, told apart by `type`.
///
/// A scheme without `type` is read by its shape (`in` for API keys, `scheme` for HTTP,
/// `flows` for OAuth 2.0, `openIdConnectUrl` for OpenID Connect).
///
/// ```
/// use a2a_types::v0_3::SecurityScheme;
///
/// let scheme: SecurityScheme =
///     serde_json::from_str(r#"{"type":"http","scheme":"bearer","bearerFormat":"JWT"}"#).unwrap();
/// assert!(matches!(scheme, SecurityScheme::Http(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
#[expect(
    clippy::large_enum_variant,
    reason = "a card holds a handful of schemes; boxing the OAuth 2.0 one would burden every match"
)]
pub enum SecurityScheme {
    /// An API key in a header, a query parameter or a cookie (`"type": "apiKey"`).
    ApiKey(ApiKeySecurityScheme),
    /// HTTP authentication (`"type": "http"`).
    Http(HttpAuthSecurityScheme),
    /// OAuth 2.0 (`"type": "oauth2"`).
    OAuth2(OAuth2SecurityScheme),
    /// OpenID Connect (`"type": "openIdConnect"`).
    OpenIdConnect(OpenIdConnectSecurityScheme),
    /// Mutual TLS (`"type": "mutualTLS"`, new in 0.3).
    MutualTls(MutualTlsSecurityScheme),
}

impl SecurityScheme {
    /// The `type` of the scheme.
    pub const fn scheme_type(&self) -> &'static str {
        match self {
            SecurityScheme::ApiKey(_) => ApiKeyType::VALUE,
            SecurityScheme::Http(_) => HttpType::VALUE,
            SecurityScheme::OAuth2(_) => OAuth2Type::VALUE,
            SecurityScheme::OpenIdConnect(_) => OpenIdConnectType::VALUE,
            SecurityScheme::MutualTls(_) => MutualTlsType::VALUE,
        }
    }
}

impl From<ApiKeySecurityScheme> for SecurityScheme {
    fn from(scheme: ApiKeySecurityScheme) -> Self {
        SecurityScheme::ApiKey(scheme)
    }
}

impl From<HttpAuthSecurityScheme> for SecurityScheme {
    fn from(scheme: HttpAuthSecurityScheme) -> Self {
        SecurityScheme::Http(scheme)
    }
}

impl From<OAuth2SecurityScheme> for SecurityScheme {
    fn from(scheme: OAuth2SecurityScheme) -> Self {
        SecurityScheme::OAuth2(scheme)
    }
}

impl From<OpenIdConnectSecurityScheme> for SecurityScheme {
    fn from(scheme: OpenIdConnectSecurityScheme) -> Self {
        SecurityScheme::OpenIdConnect(scheme)
    }
}

impl From<MutualTlsSecurityScheme> for SecurityScheme {
    fn from(scheme: MutualTlsSecurityScheme) -> Self {
        SecurityScheme::MutualTls(scheme)
    }
}

impl<'de> Deserialize<'de> for SecurityScheme {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let object = Object::deserialize(d)?;
        let has = |key: &str| object.contains_key(key);
        let kind = match util::tag(&object, "type") {
            Some(kind) => kind.to_owned(),
            None if has("in") => ApiKeyType::VALUE.to_owned(),
            None if has("scheme") => HttpType::VALUE.to_owned(),
            None if has("flows") => OAuth2Type::VALUE.to_owned(),
            None if has("openIdConnectUrl") => OpenIdConnectType::VALUE.to_owned(),
            None => {
                return Err(serde::de::Error::custom(
                    "SecurityScheme needs `type` (apiKey, http, oauth2, openIdConnect or mutualTLS)",
                ));
            }
        };
        let value = Value::Object(object);
        match kind.as_str() {
            ApiKeyType::VALUE => util::from_value(value).map(SecurityScheme::ApiKey),
            HttpType::VALUE => util::from_value(value).map(SecurityScheme::Http),
            OAuth2Type::VALUE => util::from_value(value).map(SecurityScheme::OAuth2),
            OpenIdConnectType::VALUE => util::from_value(value).map(SecurityScheme::OpenIdConnect),
            MutualTlsType::VALUE => util::from_value(value).map(SecurityScheme::MutualTls),
            other => Err(serde::de::Error::custom(format_args!(
                "unknown SecurityScheme type `{other}`, expected one of apiKey, http, oauth2, openIdConnect, mutualTLS"
            ))),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for SecurityScheme {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SecurityScheme".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_3::SecurityScheme".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<ApiKeySecurityScheme>(),
                generator.subschema_for::<HttpAuthSecurityScheme>(),
                generator.subschema_for::<OAuth2SecurityScheme>(),
                generator.subschema_for::<OpenIdConnectSecurityScheme>(),
                generator.subschema_for::<MutualTlsSecurityScheme>(),
            ]
        })
    }
}

/// An API key (`APIKeySecurityScheme`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schemars",
    schemars(rename = "APIKeySecurityScheme", transform = crate::schema::wire)
)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ApiKeySecurityScheme {
    /// Always `"apiKey"` (read as such when absent).
    #[serde(rename = "type", default)]
    pub scheme_type: ApiKeyType,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `in`: where the key goes. Required.
    #[serde(rename = "in")]
    pub location: ApiKeyLocation,
    /// The name of the header, query parameter or cookie. Required.
    pub name: String,
}

impl ApiKeySecurityScheme {
    /// A scheme with the required fields.
    pub fn new(location: ApiKeyLocation, name: impl Into<String>) -> Self {
        Self {
            scheme_type: ApiKeyType,
            description: None,
            location,
            name: name.into(),
        }
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
    }
}

/// HTTP authentication (`HTTPAuthSecurityScheme`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schemars",
    schemars(rename = "HTTPAuthSecurityScheme", transform = crate::schema::wire)
)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HttpAuthSecurityScheme {
    /// Always `"http"` (read as such when absent).
    #[serde(rename = "type", default)]
    pub scheme_type: HttpType,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The HTTP authentication scheme (`bearer`, `basic`; RFC 7235 names). Required.
    pub scheme: String,
    /// A hint at the bearer token's format (`JWT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_format: Option<String>,
}

impl HttpAuthSecurityScheme {
    /// A scheme with the required fields.
    pub fn new(scheme: impl Into<String>) -> Self {
        Self {
            scheme: scheme.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the bearer format.
        with_bearer_format(bearer_format): opt String;
    }
}

/// OAuth 2.0 (`OAuth2SecurityScheme`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OAuth2SecurityScheme {
    /// Always `"oauth2"` (read as such when absent).
    #[serde(rename = "type", default)]
    pub scheme_type: OAuth2Type,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The supported flows. Required.
    pub flows: OAuthFlows,
    /// The URL of the authorization server metadata (RFC 8414; new in 0.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth2_metadata_url: Option<String>,
}

impl OAuth2SecurityScheme {
    /// A scheme with the required fields.
    pub fn new(flows: OAuthFlows) -> Self {
        Self {
            flows,
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the metadata URL.
        with_oauth2_metadata_url(oauth2_metadata_url): opt String;
    }
}

/// OpenID Connect (`OpenIdConnectSecurityScheme`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OpenIdConnectSecurityScheme {
    /// Always `"openIdConnect"` (read as such when absent).
    #[serde(rename = "type", default)]
    pub scheme_type: OpenIdConnectType,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The OpenID Connect discovery URL. Required.
    pub open_id_connect_url: String,
}

impl OpenIdConnectSecurityScheme {
    /// A scheme with the required fields.
    pub fn new(open_id_connect_url: impl Into<String>) -> Self {
        Self {
            open_id_connect_url: open_id_connect_url.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
    }
}

/// Mutual TLS (`MutualTLSSecurityScheme`, new in 0.3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schemars",
    schemars(rename = "MutualTLSSecurityScheme", transform = crate::schema::wire)
)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MutualTlsSecurityScheme {
    /// Always `"mutualTLS"` (read as such when absent).
    #[serde(rename = "type", default)]
    pub scheme_type: MutualTlsType,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl MutualTlsSecurityScheme {
    /// A scheme without description.
    pub fn new() -> Self {
        Self::default()
    }

    crate::v1::setters! {
        /// Sets the description.
        with_description(description): opt String;
    }
}

/// OAuth scopes: scope name to description.
pub type Scopes = BTreeMap<String, String>;

/// The OAuth 2.0 flows a scheme supports: any of four (unlike 1.0, which allows exactly one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OAuthFlows {
    /// The authorization code flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_code: Option<AuthorizationCodeOAuthFlow>,
    /// The client credentials flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_credentials: Option<ClientCredentialsOAuthFlow>,
    /// The implicit flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implicit: Option<ImplicitOAuthFlow>,
    /// The resource owner password flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<PasswordOAuthFlow>,
}

impl OAuthFlows {
    /// No flows.
    pub fn new() -> Self {
        Self::default()
    }

    crate::v1::setters! {
        /// Sets the authorization code flow.
        with_authorization_code(authorization_code): opt AuthorizationCodeOAuthFlow;
        /// Sets the client credentials flow.
        with_client_credentials(client_credentials): opt ClientCredentialsOAuthFlow;
        /// Sets the implicit flow.
        with_implicit(implicit): opt ImplicitOAuthFlow;
        /// Sets the password flow.
        with_password(password): opt PasswordOAuthFlow;
    }
}

/// The OAuth 2.0 authorization code flow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AuthorizationCodeOAuthFlow {
    /// The authorization URL. Required.
    pub authorization_url: String,
    /// The token URL. Required.
    pub token_url: String,
    /// The refresh URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    pub scopes: Scopes,
}

impl AuthorizationCodeOAuthFlow {
    /// A flow with the required fields.
    pub fn new(
        authorization_url: impl Into<String>,
        token_url: impl Into<String>,
        scopes: Scopes,
    ) -> Self {
        Self {
            authorization_url: authorization_url.into(),
            token_url: token_url.into(),
            refresh_url: None,
            scopes,
        }
    }

    crate::v1::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
    }
}

/// The OAuth 2.0 client credentials flow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClientCredentialsOAuthFlow {
    /// The token URL. Required.
    pub token_url: String,
    /// The refresh URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    pub scopes: Scopes,
}

impl ClientCredentialsOAuthFlow {
    /// A flow with the required fields.
    pub fn new(token_url: impl Into<String>, scopes: Scopes) -> Self {
        Self {
            token_url: token_url.into(),
            refresh_url: None,
            scopes,
        }
    }

    crate::v1::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
    }
}

/// The OAuth 2.0 implicit flow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImplicitOAuthFlow {
    /// The authorization URL. Required.
    pub authorization_url: String,
    /// The refresh URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    pub scopes: Scopes,
}

impl ImplicitOAuthFlow {
    /// A flow with the required fields.
    pub fn new(authorization_url: impl Into<String>, scopes: Scopes) -> Self {
        Self {
            authorization_url: authorization_url.into(),
            refresh_url: None,
            scopes,
        }
    }

    crate::v1::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
    }
}

/// The OAuth 2.0 resource owner password flow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PasswordOAuthFlow {
    /// The token URL. Required.
    pub token_url: String,
    /// The refresh URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    pub scopes: Scopes,
}

impl PasswordOAuthFlow {
    /// A flow with the required fields.
    pub fn new(token_url: impl Into<String>, scopes: Scopes) -> Self {
        Self {
            token_url: token_url.into(),
            refresh_url: None,
            scopes,
        }
    }

    crate::v1::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
    }
}
