//! Decoding with the JSON path of the first bad field in the error.
//!
//! `serde_json` reports where in the *text* a document went wrong (`line 1 column 42`); a peer
//! debugging a rejected request wants to know *which field* (`message.parts[0].raw`). These
//! helpers decode any type of this crate and name the field.
//!
//! ```
//! use a2a_types::{json, v1::Task};
//!
//! let err = json::from_str::<Task>(r#"{"id":"t1","status":{"state":"done"}}"#).unwrap_err();
//! assert_eq!(err.path(), "status.state");
//! assert!(err.to_string().starts_with("status.state: unknown enum value `done` for TaskState"));
//! ```

use std::fmt;

use serde::de::DeserializeOwned;

/// A JSON document that did not decode into the requested type.
#[derive(Debug)]
pub struct DecodeError {
    path: String,
    inner: serde_json::Error,
}

impl DecodeError {
    /// The JSON path of the value that failed (`status.state`, `parts[1].raw`); `.` for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The message without the path (serde's own text, without `at line … column …`).
    pub fn message(&self) -> String {
        strip_position(&self.inner.to_string())
    }

    /// True when the input was not JSON at all (or was cut short), as opposed to JSON of the wrong shape.
    pub fn is_syntax(&self) -> bool {
        matches!(
            self.inner.classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        )
    }

    /// The underlying `serde_json` error.
    pub fn into_inner(self) -> serde_json::Error {
        self.inner
    }

    /// The error of a document decoded as the member `parent` of a larger one: its path taken
    /// from there (`status.state` within `result` is `result.status.state`).
    ///
    /// ```
    /// let err = a2a_types::json::from_str::<a2a_types::v1::Task>(r#"{"id":1}"#).unwrap_err();
    /// assert_eq!(err.within("result").path(), "result.id");
    /// let err = a2a_types::json::from_str::<a2a_types::v1::Task>("[]").unwrap_err();
    /// assert_eq!(err.within("result").path(), "result");
    /// ```
    #[must_use]
    pub fn within(mut self, parent: &str) -> Self {
        self.path = match self.path.as_str() {
            "." => parent.to_owned(),
            path if path.starts_with('[') => format!("{parent}{path}"),
            path => format!("{parent}.{path}"),
        };
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message())
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.inner)
    }
}

fn strip_position(text: &str) -> String {
    match text.rfind(" at line ") {
        Some(i) if text[i..].contains(" column ") => text[..i].to_owned(),
        _ => text.to_owned(),
    }
}

fn wrap(err: serde_path_to_error::Error<serde_json::Error>) -> DecodeError {
    let path = err.path().to_string();
    DecodeError {
        path,
        inner: err.into_inner(),
    }
}

/// Decodes `T` from JSON text, naming the bad field on failure.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    from_slice(text.as_bytes())
}

/// Decodes `T` from JSON bytes, naming the bad field on failure.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(wrap)?;
    de.end().map_err(|inner| DecodeError {
        path: ".".to_owned(),
        inner,
    })?;
    Ok(value)
}

/// Decodes with `seed` (a value whose type is chosen at run time, such as the reply of an
/// operation: `a2a_types::protocol::Reply::deserialize`) from JSON bytes, naming the bad field on
/// failure.
pub fn from_slice_seed<'de, S: serde::de::DeserializeSeed<'de>>(
    seed: S,
    bytes: &'de [u8],
) -> Result<S::Value, DecodeError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let mut track = serde_path_to_error::Track::new();
    let value = seed
        .deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
        .map_err(|inner| DecodeError {
            path: track.path().to_string(),
            inner,
        })?;
    de.end().map_err(|inner| DecodeError {
        path: ".".to_owned(),
        inner,
    })?;
    Ok(value)
}

/// Decodes `T` from an already parsed [`serde_json::Value`], naming the bad field on failure.
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, DecodeError> {
    serde_path_to_error::deserialize(value).map_err(wrap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_garbage_is_a_syntax_error_at_the_root() {
        let err = from_str::<serde_json::Value>("{} x").unwrap_err();
        assert_eq!(err.path(), ".");
        assert!(err.is_syntax());
        assert_eq!(
            err.to_string(),
            ". : trailing characters".replace(" :", ":")
        );
    }

    #[test]
    fn wrong_type_names_the_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Outer {
            inner: Vec<Inner>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Inner {
            n: u32,
        }
        let err = from_str::<Outer>(r#"{"inner":[{"n":1},{"n":"x"}]}"#).unwrap_err();
        assert_eq!(err.path(), "inner[1].n");
        assert_eq!(
            err.to_string(),
            r#"inner[1].n: invalid type: string "x", expected u32"#
        );
        assert!(!err.is_syntax());
    }

    #[test]
    fn seeds_name_the_field_and_paths_nest() {
        let seed = std::marker::PhantomData::<Vec<u32>>;
        assert_eq!(from_slice_seed(seed, b"[1, 2]").unwrap(), [1, 2]);
        let err = from_slice_seed(seed, br#"[1, "x"]"#).unwrap_err();
        assert_eq!(err.path(), "[1]");
        assert_eq!(err.within("result").path(), "result[1]");
        let err = from_slice_seed(seed, b"[1] x").unwrap_err();
        assert!(err.is_syntax());
        assert_eq!(err.within("result").path(), "result");
    }
}
