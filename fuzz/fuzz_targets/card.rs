//! Fuzzes agent card parsing: `a2a_types::card::parse` (any version's card to a 1.0
//! `AgentCard`), `card::version_of`, and the cards of each version decoded directly.

#![no_main]

use a2a_fuzz::{decode, stable};
use a2a_types::{card, v0_1, v0_3, v1};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match card::parse(text) {
            Ok(parsed) => stable(&parsed),
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = card::version_of(&value);
        if let Ok(parsed) = card::parse_value(value) {
            stable(&parsed);
        }
    }
    decode::<v1::AgentCard>(data);
    decode::<v0_3::AgentCard>(data);
    decode::<v0_1::AgentCard>(data);
});
