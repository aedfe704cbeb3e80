//! Literal tags of the 0.3 wire: the `kind` discriminators, the `type` of security schemes, the
//! `"jsonrpc": "2.0"` tag and the error codes of the typed errors.
//!
//! Each is a unit type that serializes as its one value, accepts nothing else, and describes
//! itself in JSON Schema as `{"type": "string", "const": "<value>"}` (inlined, never a `$ref`),
//! which is how `a2a.json` writes these properties.

crate::macros::const_str! {
    /// `"kind": "task"` of a [`Task`](super::Task).
    TaskKind = "task";
    /// `"kind": "message"` of a [`Message`](super::Message).
    MessageKind = "message";
    /// `"kind": "status-update"` of a [`TaskStatusUpdateEvent`](super::TaskStatusUpdateEvent).
    StatusUpdateKind = "status-update";
    /// `"kind": "artifact-update"` of a [`TaskArtifactUpdateEvent`](super::TaskArtifactUpdateEvent).
    ArtifactUpdateKind = "artifact-update";
    /// `"kind": "text"` of a [`TextPart`](super::TextPart).
    TextKind = "text";
    /// `"kind": "file"` of a [`FilePart`](super::FilePart).
    FileKind = "file";
    /// `"kind": "data"` of a [`DataPart`](super::DataPart).
    DataKind = "data";
    /// `"type": "apiKey"` of an [`ApiKeySecurityScheme`](super::ApiKeySecurityScheme).
    ApiKeyType = "apiKey";
    /// `"type": "http"` of an [`HttpAuthSecurityScheme`](super::HttpAuthSecurityScheme).
    HttpType = "http";
    /// `"type": "oauth2"` of an [`OAuth2SecurityScheme`](super::OAuth2SecurityScheme).
    OAuth2Type = "oauth2";
    /// `"type": "openIdConnect"` of an [`OpenIdConnectSecurityScheme`](super::OpenIdConnectSecurityScheme).
    OpenIdConnectType = "openIdConnect";
    /// `"type": "mutualTLS"` of a [`MutualTlsSecurityScheme`](super::MutualTlsSecurityScheme).
    MutualTlsType = "mutualTLS";
    /// `"jsonrpc": "2.0"` of every JSON-RPC envelope.
    JsonRpcVersion = "2.0";
}

/// The constant error code `N` of one of the typed errors ([`TaskNotFoundError`](super::TaskNotFoundError)
/// has `ErrorCodeConst<-32001>`): serializes as the number, accepts nothing else, and describes
/// itself as `{"type": "integer", "const": N}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a unit marker whose only value is the constant"
)]
pub struct ErrorCodeConst<const N: i32>;

impl<const N: i32> ErrorCodeConst<N> {
    /// The code.
    pub const VALUE: i32 = N;
}

impl<const N: i32> serde::Serialize for ErrorCodeConst<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i32(N)
    }
}

impl<'de, const N: i32> serde::Deserialize<'de> for ErrorCodeConst<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = i64::deserialize(d)?;
        if code == i64::from(N) {
            Ok(Self)
        } else {
            Err(serde::de::Error::custom(format_args!(
                "expected error code {N}, found {code}"
            )))
        }
    }
}

#[cfg(feature = "schemars")]
impl<const N: i32> schemars::JsonSchema for ErrorCodeConst<N> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("ErrorCodeConst{N}").into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "const": N })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_accept_only_themselves() {
        assert_eq!(serde_json::to_string(&TaskKind).unwrap(), r#""task""#);
        assert_eq!(
            serde_json::from_str::<TaskKind>(r#""task""#).unwrap(),
            TaskKind
        );
        let err = serde_json::from_str::<TaskKind>(r#""message""#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(r#"expected "task", found "message""#),
            "{err}"
        );
        assert_eq!(
            serde_json::to_string(&ErrorCodeConst::<-32001>).unwrap(),
            "-32001"
        );
        assert!(serde_json::from_str::<ErrorCodeConst<-32001>>("-32002").is_err());
        assert!(serde_json::from_str::<ErrorCodeConst<-32001>>("-32001").is_ok());
    }
}
