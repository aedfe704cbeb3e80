//! Checks shared by the fuzz targets of `fuzz_targets/`.
//!
//! Besides the absence of panics, every decoder is held to "exact in what we send": a value that
//! decodes serializes, our own output decodes again, and serializing that gives the same bytes.

use std::any::type_name;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Decodes `bytes` as `T` with `a2a_types::json::from_slice` (the decoder servers and clients
/// use); when it decodes, checks the round trip of [`stable`]. A refusal must say something.
pub fn decode<T: DeserializeOwned + Serialize>(bytes: &[u8]) {
    match a2a_types::json::from_slice::<T>(bytes) {
        Ok(value) => stable(&value),
        Err(error) => assert!(!error.to_string().is_empty(), "an empty error message"),
    }
}

/// Serializes `value`, decodes the output as `T` again and checks that it serializes to the same
/// bytes.
pub fn stable<T: DeserializeOwned + Serialize>(value: &T) {
    let name = type_name::<T>();
    let first =
        serde_json::to_vec(value).unwrap_or_else(|e| panic!("{name} does not serialize: {e}"));
    let again: T = a2a_types::json::from_slice(&first).unwrap_or_else(|e| {
        panic!(
            "our own {name} does not decode: {e}\n{}",
            String::from_utf8_lossy(&first)
        )
    });
    let second =
        serde_json::to_vec(&again).unwrap_or_else(|e| panic!("{name} does not serialize: {e}"));
    assert_eq!(
        String::from_utf8_lossy(&first),
        String::from_utf8_lossy(&second),
        "{name} does not serialize the same after a round trip"
    );
}
