//! base64url without padding (RFC 7515 §2), the encoding of every JOSE part.
//!
//! ```
//! assert_eq!(a2a_jose::b64::encode(b"{}"), "e30");
//! assert_eq!(a2a_jose::b64::decode("e30").unwrap(), b"{}");
//! ```

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The base64url text of `bytes`, without padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The bytes of base64url text (padding tolerated).
pub fn decode(text: &str) -> Result<Vec<u8>, base64::DecodeError> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('='))
}
