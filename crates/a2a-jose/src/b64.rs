//! base64url without padding (RFC 7515 §2), the encoding of every JOSE part.
//!
//! ```
//! assert_eq!(a2a_jose::b64::encode(b"{}"), "e30");
//! assert_eq!(a2a_jose::b64::decode("e30").unwrap(), b"{}");
//! let err = a2a_jose::b64::decode("e3*").unwrap_err();
//! assert_eq!(err.to_string(), "Invalid symbol 42, offset 2.");
//! ```

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The base64url text of `bytes`, without padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The bytes of base64url text (padding tolerated).
pub fn decode(text: &str) -> Result<Vec<u8>, DecodeError> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .map_err(DecodeError)
}

/// Text that is not base64url: its message names the first bad symbol or the bad length.
///
/// A type of this crate, so that the `base64` crate stays out of its API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(base64::DecodeError);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DecodeError {}
