//! Text the crates cut to a size: error texts, failure reasons, the first line of a body.

/// The longest prefix of `text` that takes at most `max` bytes and ends at a character
/// boundary.
///
/// ```
/// assert_eq!(a2a_types::text::prefix("ééé", 3), "é");
/// assert_eq!(a2a_types::text::prefix("abc", 10), "abc");
/// ```
pub fn prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` cut to at most `max` bytes at a character boundary, with `marker` appended when it was
/// cut (so the result may take `marker.len()` more).
///
/// ```
/// assert_eq!(a2a_types::text::truncated("short".to_owned(), 10, " ..."), "short");
/// assert_eq!(a2a_types::text::truncated("ééé".to_owned(), 3, " ..."), "é ...");
/// ```
pub fn truncated(mut text: String, max: usize, marker: &str) -> String {
    if text.len() > max {
        let end = prefix(&text, max).len();
        text.truncate(end);
        text.push_str(marker);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_at_character_boundaries() {
        assert_eq!(prefix("aé", 2), "a");
        assert_eq!(prefix("aé", 3), "aé");
        assert_eq!(prefix("", 0), "");
        assert_eq!(truncated("abcdef".to_owned(), 3, "…"), "abc…");
        assert_eq!(truncated("abc".to_owned(), 3, "…"), "abc");
    }
}
