//! Typed decoding of `params`, with the JSON path of the bad field in the error.

use std::marker::PhantomData;

use serde::de::{DeserializeOwned, DeserializeSeed};
use serde_json::value::RawValue;

use crate::ErrorObject;

/// Decodes `params` into `P`, turning a failure into a -32602 error that names the bad field.
///
/// This is what [`Methods`](crate::Methods) does before calling a handler; a server that handles
/// a method itself (a streaming one, say) calls it to answer bad params the same way.
///
/// * **Paths.** A decoding error is reported with the path of the value that failed, as
///   `serde_path_to_error` tracks it (`message.parts[0].text`), both in the message
///   (`invalid params: message.role: unknown variant ...`) and as the `field` of a
///   `google.rpc.BadRequest` field violation in `data`. For a missing field the violation's
///   `field` is the path of the missing field itself (`message.messageId`), while the message
///   keeps serde's wording (`invalid params: message: missing field `messageId``).
///   serde_json's position suffix (`at line 1 column 9`) is dropped: it would count from the start
///   of `params`, not of the request.
/// * **Absent params** (`None`) decode as JSON `null` first, which suits `()`, `Option<T>` and
///   `serde_json::Value`; if `P` rejects `null`, they decode as `{}`, so a struct whose fields all
///   have defaults (A2A's `GetExtendedAgentCardRequest`) works with params omitted. When both fail,
///   the error of the `{}` attempt is reported (`missing field ...` is the useful one for a
///   struct).
///
/// ```
/// use a2a_jsonrpc::{decode_params, ErrorCode};
/// use serde::Deserialize;
/// use serde_json::value::RawValue;
///
/// #[derive(Debug, Deserialize)]
/// #[serde(rename_all = "camelCase")]
/// struct GetTask { id: String, history_length: Option<u32> }
///
/// let raw = RawValue::from_string(r#"{"id":"t-1","historyLength":-2}"#.to_owned()).unwrap();
/// let error = decode_params::<GetTask>(Some(&raw)).unwrap_err();
/// assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
/// assert_eq!(
///     error.message,
///     "invalid params: historyLength: invalid value: integer `-2`, expected u32"
/// );
/// assert_eq!(error.bad_request().unwrap().field_violations[0].field, "historyLength");
///
/// #[derive(Deserialize, Default)]
/// #[serde(default)]
/// struct Tenant { tenant: String }
/// assert!(decode_params::<Tenant>(None).is_ok());
/// ```
///
/// # Errors
///
/// A -32602 [`ErrorObject`] when `params` does not decode into `P`.
pub fn decode_params<P: DeserializeOwned>(params: Option<&RawValue>) -> Result<P, ErrorObject> {
    decode_params_seed(PhantomData::<P>, params)
}

/// Decodes `params` with `seed`, exactly as [`decode_params`] decodes a type: for params whose
/// type the method decides at run time (a server that reads the request message of the
/// operation a method name chose).
///
/// ```
/// use a2a_jsonrpc::decode_params_seed;
/// use serde::de::{Deserialize, DeserializeSeed, Deserializer};
/// use serde_json::value::RawValue;
///
/// /// Reads a number, or its text when the method asks for text.
/// #[derive(Clone, Copy)]
/// struct AsText(bool);
///
/// impl<'de> DeserializeSeed<'de> for AsText {
///     type Value = String;
///
///     fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
///         if self.0 { String::deserialize(d) } else { u32::deserialize(d).map(|n| n.to_string()) }
///     }
/// }
///
/// let raw = RawValue::from_string("7".to_owned()).unwrap();
/// assert_eq!(decode_params_seed(AsText(false), Some(&raw)).unwrap(), "7");
/// let error = decode_params_seed(AsText(true), Some(&raw)).unwrap_err();
/// assert_eq!(error.message, "invalid params: invalid type: integer `7`, expected a string");
/// ```
///
/// # Errors
///
/// A -32602 [`ErrorObject`] when `params` does not decode.
pub fn decode_params_seed<S, T>(seed: S, params: Option<&RawValue>) -> Result<T, ErrorObject>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
{
    match params {
        Some(raw) => decode_str(seed, raw.get()),
        None => decode_str(seed.clone(), "null").or_else(|_| decode_str(seed, "{}")),
    }
}

fn decode_str<S, T>(seed: S, json: &str) -> Result<T, ErrorObject>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
{
    // The fast path decodes without tracking the path; only a failure pays for decoding again
    // with `serde_path_to_error` to find where it failed. Decoding is deterministic, so the second
    // attempt fails at the same place.
    let mut deserializer = serde_json::Deserializer::from_str(json);
    match seed.clone().deserialize(&mut deserializer) {
        Ok(value) if deserializer.end().is_ok() => Ok(value),
        _ => decode_str_with_path(seed, json),
    }
}

fn decode_str_with_path<S, T>(seed: S, json: &str) -> Result<T, ErrorObject>
where
    S: for<'de> DeserializeSeed<'de, Value = T>,
{
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let mut track = serde_path_to_error::Track::new();
    let value = seed
        .deserialize(serde_path_to_error::Deserializer::new(
            &mut deserializer,
            &mut track,
        ))
        .map_err(|error| params_error(serde_path_to_error::Error::new(track.path(), error)))?;
    // `params` came from a parsed document, so nothing can trail it; checked all the same.
    deserializer
        .end()
        .map_err(|error| ErrorObject::invalid_params(strip_position(&error)))?;
    Ok(value)
}

/// Builds the -32602 error of a failed decode.
fn params_error(error: serde_path_to_error::Error<serde_json::Error>) -> ErrorObject {
    let path = error.path().to_string();
    let path = if path == "." { String::new() } else { path };
    let description = strip_position(error.inner());
    // serde reports a missing field at the path of the struct that misses it; the violation
    // names the field itself.
    let field = match missing_field(&description) {
        Some(name) if path.is_empty() => name.to_owned(),
        Some(name) => format!("{path}.{name}"),
        None => path.clone(),
    };
    let message = if path.is_empty() {
        format!("invalid params: {description}")
    } else {
        format!("invalid params: {path}: {description}")
    };
    let mut error = ErrorObject::invalid_params_at(field, description);
    error.message = message.into();
    error
}

/// serde_json's message without its ` at line L column C` suffix.
fn strip_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    if error.line() == 0 {
        return message;
    }
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&suffix) {
        Some(stripped) => stripped.to_owned(),
        None => message,
    }
}

/// The field name of serde's "missing field `name`" message.
fn missing_field(description: &str) -> Option<&str> {
    description
        .strip_prefix("missing field `")?
        .strip_suffix('`')
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::{Value, json};

    use super::*;
    use crate::ErrorCode;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Send {
        message: Message,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Message {
        message_id: String,
        role: Role,
        parts: Vec<Part>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Role {
        #[serde(rename = "ROLE_USER")]
        User,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Part {
        text: String,
    }

    fn raw(value: Value) -> Box<RawValue> {
        serde_json::value::to_raw_value(&value).unwrap()
    }

    fn decode(value: Value) -> Result<Send, ErrorObject> {
        decode_params(Some(&raw(value)))
    }

    #[test]
    fn unknown_variant_names_the_path() {
        let error = decode(json!({"message": {"messageId": "m", "role": "user", "parts": []}}))
            .unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "invalid params: message.role: unknown variant `user`, expected `ROLE_USER`"
        );
        assert_eq!(
            serde_json::to_value(&error.data).unwrap(),
            json!([{
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{
                    "field": "message.role",
                    "description": "unknown variant `user`, expected `ROLE_USER`"
                }]
            }])
        );
    }

    #[test]
    fn list_elements_are_indexed() {
        let error = decode(json!({"message": {
            "messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a"}, {"text": 5}]
        }}))
        .unwrap_err();
        assert_eq!(
            error.message,
            "invalid params: message.parts[1].text: invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            error.bad_request().unwrap().field_violations[0].field,
            "message.parts[1].text"
        );
    }

    #[test]
    fn missing_fields_name_the_field() {
        let error = decode(json!({"message": {"role": "ROLE_USER", "parts": []}})).unwrap_err();
        assert_eq!(
            error.message,
            "invalid params: message: missing field `messageId`"
        );
        assert_eq!(
            error.bad_request().unwrap().field_violations[0].field,
            "message.messageId"
        );

        let error = decode(json!({})).unwrap_err();
        assert_eq!(error.message, "invalid params: missing field `message`");
        assert_eq!(
            error.bad_request().unwrap().field_violations[0].field,
            "message"
        );
    }

    #[test]
    fn wrong_top_level_type() {
        let error = decode(json!("x")).unwrap_err();
        assert_eq!(
            error.message,
            r#"invalid params: invalid type: string "x", expected struct Send"#
        );
        assert_eq!(error.bad_request().unwrap().field_violations[0].field, "");
    }

    #[test]
    fn absent_params() {
        // null first.
        assert_eq!(decode_params::<()>(None).unwrap(), ());
        assert_eq!(decode_params::<Option<u8>>(None).unwrap(), None);
        assert_eq!(decode_params::<Value>(None).unwrap(), Value::Null);

        // Then {} for structs.
        #[derive(Debug, Deserialize, Default, PartialEq)]
        #[serde(default)]
        struct Tenant {
            tenant: String,
        }
        assert_eq!(decode_params::<Tenant>(None).unwrap(), Tenant::default());

        // Both fail: the {} error is reported.
        let error = decode_params::<Send>(None).unwrap_err();
        assert_eq!(error.message, "invalid params: missing field `message`");
    }

    #[test]
    fn arrays_as_params() {
        let params = raw(json!([1, "two"]));
        let (a, b): (u8, String) = decode_params(Some(&params)).unwrap();
        assert_eq!((a, b.as_str()), (1, "two"));
        let error = decode_params::<(u8, u8)>(Some(&params)).unwrap_err();
        assert_eq!(
            error.message,
            r#"invalid params: [1]: invalid type: string "two", expected u8"#
        );
    }

    #[test]
    fn position_suffix_is_dropped() {
        let raw = RawValue::from_string("{\n \"message\": 1}".to_owned()).unwrap();
        let error = decode_params::<Send>(Some(&raw)).unwrap_err();
        assert_eq!(
            error.message,
            "invalid params: message: invalid type: integer `1`, expected struct Message"
        );
    }
}
