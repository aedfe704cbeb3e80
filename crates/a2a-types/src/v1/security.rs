//! Security schemes (OpenAPI 3.2 style) and security requirements of an agent card.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::oneof::oneof_enum;
use crate::serde_util as su;

oneof_enum! {
    /// How a client authenticates with an agent: one of five scheme kinds.
    ///
    /// ```
    /// use a2a_types::v1::{HttpAuthSecurityScheme, SecurityScheme};
    ///
    /// let scheme = SecurityScheme::from(HttpAuthSecurityScheme::new("Bearer").with_bearer_format("JWT"));
    /// assert_eq!(
    ///     serde_json::to_string(&scheme).unwrap(),
    ///     r#"{"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}}"#
    /// );
    /// ```
    SecurityScheme as "scheme" {
        /// An API key in a header, a query parameter or a cookie.
        ApiKey(ApiKeySecurityScheme) = "apiKeySecurityScheme" | "api_key_security_scheme",
        /// HTTP authentication (Basic, Bearer, ...).
        HttpAuth(HttpAuthSecurityScheme) = "httpAuthSecurityScheme" | "http_auth_security_scheme",
        /// OAuth 2.0.
        OAuth2(OAuth2SecurityScheme) = "oauth2SecurityScheme" | "oauth2_security_scheme",
        /// OpenID Connect.
        OpenIdConnect(OpenIdConnectSecurityScheme) = "openIdConnectSecurityScheme" | "open_id_connect_security_scheme",
        /// Mutual TLS.
        Mtls(MutualTlsSecurityScheme) = "mtlsSecurityScheme" | "mtls_security_scheme",
    }
}

/// An API key (`APIKeySecurityScheme` in the proto).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "APIKeySecurityScheme"))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ApiKeySecurityScheme {
    /// A description.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
    /// Where the key goes: `query`, `header` or `cookie`. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub location: String,
    /// The name of the header, query parameter or cookie. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub name: String,
}

impl ApiKeySecurityScheme {
    /// A scheme with the required fields.
    pub fn new(location: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            description: None,
            location: location.into(),
            name: name.into(),
        }
    }

    super::setters! {
        /// Sets the description.
        with_description(description): opt String;
    }
}

/// HTTP authentication (`HTTPAuthSecurityScheme` in the proto).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "HTTPAuthSecurityScheme"))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HttpAuthSecurityScheme {
    /// A description.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
    /// The HTTP authentication scheme (`Bearer`, `Basic`). Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub scheme: String,
    /// A hint at the bearer token's format (`JWT`).
    #[serde(
        alias = "bearer_format",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub bearer_format: Option<String>,
}

impl HttpAuthSecurityScheme {
    /// A scheme with the required fields.
    pub fn new(scheme: impl Into<String>) -> Self {
        Self {
            description: None,
            scheme: scheme.into(),
            bearer_format: None,
        }
    }

    super::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the bearer format.
        with_bearer_format(bearer_format): opt String;
    }
}

/// OAuth 2.0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OAuth2SecurityScheme {
    /// A description.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
    /// The supported flow. Required.
    pub flows: OAuthFlows,
    /// The URL of the authorization server metadata (RFC 8414).
    #[serde(
        alias = "oauth2_metadata_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub oauth2_metadata_url: Option<String>,
}

impl OAuth2SecurityScheme {
    /// A scheme with the required fields.
    pub fn new(flows: impl Into<OAuthFlows>) -> Self {
        Self {
            description: None,
            flows: flows.into(),
            oauth2_metadata_url: None,
        }
    }

    super::setters! {
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the metadata URL.
        with_oauth2_metadata_url(oauth2_metadata_url): opt String;
    }
}

/// OpenID Connect.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OpenIdConnectSecurityScheme {
    /// A description.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
    /// The OpenID Connect discovery URL. Required.
    #[serde(
        alias = "open_id_connect_url",
        default,
        deserialize_with = "su::nullable"
    )]
    pub open_id_connect_url: String,
}

impl OpenIdConnectSecurityScheme {
    /// A scheme with the required fields.
    pub fn new(open_id_connect_url: impl Into<String>) -> Self {
        Self {
            description: None,
            open_id_connect_url: open_id_connect_url.into(),
        }
    }

    super::setters! {
        /// Sets the description.
        with_description(description): opt String;
    }
}

/// Mutual TLS.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MutualTlsSecurityScheme {
    /// A description.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
}

impl MutualTlsSecurityScheme {
    /// A scheme without description.
    pub fn new() -> Self {
        Self::default()
    }

    super::setters! {
        /// Sets the description.
        with_description(description): opt String;
    }
}

oneof_enum! {
    /// The OAuth 2.0 flow an [`OAuth2SecurityScheme`] supports.
    OAuthFlows as "flow" {
        /// Authorization code (with PKCE).
        AuthorizationCode(AuthorizationCodeOAuthFlow) = "authorizationCode" | "authorization_code",
        /// Client credentials.
        ClientCredentials(ClientCredentialsOAuthFlow) = "clientCredentials" | "client_credentials",
        /// Implicit (deprecated by the spec).
        Implicit(ImplicitOAuthFlow) = "implicit",
        /// Resource owner password (deprecated by the spec).
        Password(PasswordOAuthFlow) = "password",
        /// Device code (RFC 8628).
        DeviceCode(DeviceCodeOAuthFlow) = "deviceCode" | "device_code",
    }
}

/// OAuth scopes: scope name to description.
pub type Scopes = BTreeMap<String, String>;

/// The OAuth 2.0 authorization code flow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AuthorizationCodeOAuthFlow {
    /// The authorization URL. Required.
    #[serde(
        alias = "authorization_url",
        default,
        deserialize_with = "su::nullable"
    )]
    pub authorization_url: String,
    /// The token URL. Required.
    #[serde(alias = "token_url", default, deserialize_with = "su::nullable")]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        alias = "refresh_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub scopes: Scopes,
    /// True when PKCE (RFC 7636) is required.
    #[serde(
        alias = "pkce_required",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "su::is_false"
    )]
    pub pkce_required: bool,
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
            pkce_required: false,
        }
    }

    super::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
        /// Sets `pkceRequired`.
        with_pkce_required(pkce_required): val bool;
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
    #[serde(alias = "token_url", default, deserialize_with = "su::nullable")]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        alias = "refresh_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    #[serde(default, deserialize_with = "su::nullable")]
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

    super::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
    }
}

/// The OAuth 2.0 implicit flow (deprecated by the spec).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImplicitOAuthFlow {
    /// The authorization URL.
    #[serde(
        alias = "authorization_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub authorization_url: Option<String>,
    /// The refresh URL.
    #[serde(
        alias = "refresh_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub refresh_url: Option<String>,
    /// The available scopes.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub scopes: Scopes,
}

impl ImplicitOAuthFlow {
    /// A flow with nothing set.
    pub fn new() -> Self {
        Self::default()
    }

    super::setters! {
        /// Sets the authorization URL.
        with_authorization_url(authorization_url): opt String;
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
        /// Sets the scopes.
        with_scopes(scopes): val Scopes;
    }
}

/// The OAuth 2.0 resource owner password flow (deprecated by the spec).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PasswordOAuthFlow {
    /// The token URL.
    #[serde(
        alias = "token_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub token_url: Option<String>,
    /// The refresh URL.
    #[serde(
        alias = "refresh_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub refresh_url: Option<String>,
    /// The available scopes.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub scopes: Scopes,
}

impl PasswordOAuthFlow {
    /// A flow with nothing set.
    pub fn new() -> Self {
        Self::default()
    }

    super::setters! {
        /// Sets the token URL.
        with_token_url(token_url): opt String;
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
        /// Sets the scopes.
        with_scopes(scopes): val Scopes;
    }
}

/// The OAuth 2.0 device code flow (RFC 8628).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DeviceCodeOAuthFlow {
    /// The device authorization URL. Required.
    #[serde(
        alias = "device_authorization_url",
        default,
        deserialize_with = "su::nullable"
    )]
    pub device_authorization_url: String,
    /// The token URL. Required.
    #[serde(alias = "token_url", default, deserialize_with = "su::nullable")]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        alias = "refresh_url",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub refresh_url: Option<String>,
    /// The available scopes. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub scopes: Scopes,
}

impl DeviceCodeOAuthFlow {
    /// A flow with the required fields.
    pub fn new(
        device_authorization_url: impl Into<String>,
        token_url: impl Into<String>,
        scopes: Scopes,
    ) -> Self {
        Self {
            device_authorization_url: device_authorization_url.into(),
            token_url: token_url.into(),
            refresh_url: None,
            scopes,
        }
    }

    super::setters! {
        /// Sets the refresh URL.
        with_refresh_url(refresh_url): opt String;
    }
}

/// A list of strings (the scopes of a [`SecurityRequirement`] entry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StringList {
    /// The strings.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub list: Vec<String>,
}

impl<S: Into<String>> FromIterator<S> for StringList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        Self {
            list: iter.into_iter().map(Into::into).collect(),
        }
    }
}

/// The security schemes (by name) and the scopes each needs, all of which a request must satisfy.
///
/// ```
/// use a2a_types::v1::SecurityRequirement;
///
/// let req = SecurityRequirement::new().with_scheme("oauth", ["read", "write"]);
/// assert_eq!(
///     serde_json::to_string(&req).unwrap(),
///     r#"{"schemes":{"oauth":{"list":["read","write"]}}}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SecurityRequirement {
    /// Scheme name to required scopes.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub schemes: BTreeMap<String, StringList>,
}

impl SecurityRequirement {
    /// A requirement with no schemes.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a scheme with its scopes.
    #[must_use]
    pub fn with_scheme<I>(mut self, name: impl Into<String>, scopes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.schemes
            .insert(name.into(), scopes.into_iter().collect());
        self
    }
}
