//! Version numbers as peers write them (`A2A-Version`, a card's `protocolVersion`), read once.

use std::fmt;

use super::ProtocolVersion;

/// A version number, `Major.Minor`, as written in an `A2A-Version` header, a card's
/// `protocolVersion` or an interface's: one to three dot-separated runs of ASCII digits
/// (`1` is 1.0; a patch part such as the `.5` of `0.2.5` is read and ignored), surrounding
/// whitespace ignored. The one parser of version text in the workspace.
///
/// ```
/// use a2a_types::protocol::{ProtocolVersion, VersionNumber};
///
/// let v = VersionNumber::parse(" 0.2.5 ").unwrap();
/// assert_eq!((v.major, v.minor), (0, 2));
/// assert_eq!(v.to_string(), "0.2");
/// assert_eq!(v.protocol_version(), Some(ProtocolVersion::V0_3));
/// assert_eq!(VersionNumber::parse("1").unwrap().protocol_version(), Some(ProtocolVersion::V1));
/// assert!(VersionNumber::parse("1.0") > VersionNumber::parse("0.3"));
/// assert_eq!(VersionNumber::parse("v1"), None);
/// assert_eq!(VersionNumber::parse("1..0"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct VersionNumber {
    /// The major version.
    pub major: u32,
    /// The minor version (0 when only the major one is written).
    pub minor: u32,
}

impl VersionNumber {
    /// `major.minor`.
    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }

    /// Reads a version number; `None` when `text` is not one (empty, a part that is not digits,
    /// more than three parts, a number past `u32`).
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.trim().split('.');
        let number = |part: &str| -> Option<u32> {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            part.parse().ok()
        };
        let major = number(parts.next()?)?;
        let minor = match parts.next() {
            Some(part) => number(part)?,
            None => 0,
        };
        if let Some(patch) = parts.next() {
            number(patch)?;
        }
        if parts.next().is_some() {
            return None;
        }
        Some(Self { major, minor })
    }

    /// The protocol version this number belongs to: 1.x is [`ProtocolVersion::V1`], 0.2 and
    /// 0.3 [`ProtocolVersion::V0_3`], 0.1 [`ProtocolVersion::V0_1`]; any other is none this
    /// workspace speaks.
    pub fn protocol_version(self) -> Option<ProtocolVersion> {
        match (self.major, self.minor) {
            (1, _) => Some(ProtocolVersion::V1),
            (0, 2 | 3) => Some(ProtocolVersion::V0_3),
            (0, 1) => Some(ProtocolVersion::V0_1),
            _ => None,
        }
    }

    /// True for a version before 1.0 (0.3, 0.2, 0.1).
    pub fn is_legacy(self) -> bool {
        self.major < 1
    }
}

impl fmt::Display for VersionNumber {
    /// `major.minor`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl std::str::FromStr for VersionNumber {
    type Err = InvalidVersion;

    fn from_str(text: &str) -> Result<Self, InvalidVersion> {
        Self::parse(text).ok_or_else(|| InvalidVersion {
            text: text.to_owned(),
        })
    }
}

/// Text that is not a version number.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidVersion {
    /// The text.
    pub text: String,
}

impl fmt::Display for InvalidVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a version number (Major.Minor, such as 1.0 or 0.3)",
            self.text
        )
    }
}

impl std::error::Error for InvalidVersion {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_as_peers_write_them() {
        let read = |t: &str| VersionNumber::parse(t).map(|v| (v.major, v.minor));
        assert_eq!(read("1.0"), Some((1, 0)));
        assert_eq!(read("1.0.1"), Some((1, 0)));
        assert_eq!(read(" 1.3 "), Some((1, 3)));
        assert_eq!(read("1"), Some((1, 0)));
        assert_eq!(read("0.3.0"), Some((0, 3)));
        assert_eq!(read("0.2.5"), Some((0, 2)));
        for bad in [
            "",
            " ",
            "1.",
            ".1",
            "1.0.0.0",
            "1.x",
            "v1.0",
            "1,0",
            "-1",
            "+1",
            "99999999999",
        ] {
            assert_eq!(read(bad), None, "{bad:?}");
        }
        assert_eq!(
            "1.x".parse::<VersionNumber>().unwrap_err().to_string(),
            "`1.x` is not a version number (Major.Minor, such as 1.0 or 0.3)"
        );
    }

    #[test]
    fn protocol_versions_and_order() {
        let pv = |t: &str| VersionNumber::parse(t).and_then(VersionNumber::protocol_version);
        assert_eq!(pv("1.9"), Some(ProtocolVersion::V1));
        assert_eq!(pv("0.3"), Some(ProtocolVersion::V0_3));
        assert_eq!(pv("0.2"), Some(ProtocolVersion::V0_3));
        assert_eq!(pv("0.1.0"), Some(ProtocolVersion::V0_1));
        assert_eq!(pv("0.4"), None);
        assert_eq!(pv("2.0"), None);
        let mut versions: Vec<VersionNumber> = ["0.3", "1.0", "0.1", "0.2", "1.1"]
            .iter()
            .filter_map(|t| VersionNumber::parse(t))
            .collect();
        versions.sort();
        let names: Vec<String> = versions.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["0.1", "0.2", "0.3", "1.0", "1.1"]);
        assert!(VersionNumber::new(0, 3).is_legacy());
        assert!(!VersionNumber::new(1, 0).is_legacy());
    }
}
