//! The SSRF guard: which addresses a webhook may be at.
//!
//! A push config names a URL the agent will POST to; without a guard, any client could make the
//! agent call into its own network (`http://169.254.169.254/` metadata services, `localhost`
//! admin ports). The guard refuses, in IPv4 and IPv6 (and IPv4 inside IPv6: `::ffff:a.b.c.d`,
//! `64:ff9b::a.b.c.d`), addresses that are:
//!
//! | class | networks |
//! |---|---|
//! | unspecified | `0.0.0.0/8`, `::` |
//! | loopback | `127.0.0.0/8`, `::1` |
//! | private | `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, `100.64.0.0/10` (shared), `fc00::/7` (unique local), `fec0::/10` (site-local) |
//! | link-local | `169.254.0.0/16`, `fe80::/10` |
//! | multicast | `224.0.0.0/4`, `ff00::/8` |
//! | reserved | `240.0.0.0/4` (with `255.255.255.255`) |
//!
//! unless an allow list entry ([`IpNet`]) covers the address. It checks a config's URL when
//! the config is created (an IP literal, or every address its host name resolves to), and again
//! at each delivery: the connection goes only to resolved addresses the guard allows, so a name
//! that resolves elsewhere later (DNS rebinding) is still refused.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// An IP network: an address and a prefix length (`10.0.0.0/8`, `::1/128`); a bare address is
/// the network of that one address.
///
/// ```
/// use a2a_server::push::IpNet;
///
/// let net: IpNet = "127.0.0.0/8".parse().unwrap();
/// assert!(net.contains("127.1.2.3".parse().unwrap()));
/// assert!(!net.contains("128.0.0.1".parse().unwrap()));
/// assert!("::1".parse::<IpNet>().unwrap().contains("::1".parse().unwrap()));
/// assert_eq!(
///     "10.0.0.0/33".parse::<IpNet>().unwrap_err(),
///     "the prefix length of `10.0.0.0/33` is more than 32"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IpNet {
    addr: IpAddr,
    prefix: u8,
}

impl IpNet {
    /// The network of `addr` with a prefix of `prefix` bits; `None` when the prefix is longer
    /// than the address.
    pub fn new(addr: IpAddr, prefix: u8) -> Option<Self> {
        let max = if addr.is_ipv4() { 32 } else { 128 };
        (prefix <= max).then_some(Self { addr, prefix })
    }

    /// True when `ip` is in the network. An IPv4 network also holds the IPv4-mapped IPv6 form
    /// of its addresses.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => prefix_eq(
                u128::from(net.to_bits()) << 96,
                u128::from(ip.to_bits()) << 96,
                self.prefix,
            ),
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                prefix_eq(net.to_bits(), ip.to_bits(), self.prefix)
            }
            (IpAddr::V4(_), IpAddr::V6(ip)) => ip
                .to_ipv4_mapped()
                .is_some_and(|v4| self.contains(v4.into())),
            (IpAddr::V6(_), IpAddr::V4(ip)) => self.contains(ip.to_ipv6_mapped().into()),
        }
    }
}

fn prefix_eq(a: u128, b: u128, prefix: u8) -> bool {
    prefix == 0 || (a ^ b) >> (128 - u32::from(prefix)) == 0
}

impl FromStr for IpNet {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (addr, prefix) = match s.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (s, None),
        };
        let addr: IpAddr = addr
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not an IP address or network (a.b.c.d/n, x::y/n)"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .trim()
                .parse::<u8>()
                .map_err(|_| format!("the prefix length of `{s}` is not a number"))?,
        };
        Self::new(addr, prefix)
            .ok_or_else(|| format!("the prefix length of `{s}` is more than {max}"))
    }
}

impl fmt::Display for IpNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// The class of an address the guard refuses, or `None` for a public address.
pub(crate) fn refused_class(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_class(v4),
        IpAddr::V6(v6) => v6_class(v6),
    }
}

fn v4_class(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if a == 0 {
        Some("unspecified")
    } else if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Some("private")
    } else if ip.is_link_local() {
        Some("link-local")
    } else if ip.is_multicast() {
        Some("multicast")
    } else if a >= 240 {
        Some("reserved")
    } else {
        None
    }
}

fn v6_class(ip: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return v4_class(v4);
    }
    let segments = ip.segments();
    // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let bits = ip.to_bits() as u32;
        return v4_class(Ipv4Addr::from_bits(bits));
    }
    if ip.is_unspecified() {
        Some("unspecified")
    } else if ip.is_loopback() {
        Some("loopback")
    } else if segments[0] & 0xfe00 == 0xfc00 || segments[0] & 0xffc0 == 0xfec0 {
        Some("private")
    } else if segments[0] & 0xffc0 == 0xfe80 {
        Some("link-local")
    } else if ip.is_multicast() {
        Some("multicast")
    } else {
        None
    }
}

/// The guard: the classes above refused, unless an allow-list entry covers the address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Guard {
    allow: Vec<IpNet>,
}

impl Guard {
    pub(crate) fn new(allow: Vec<IpNet>) -> Self {
        Self { allow }
    }

    /// Why `ip` is refused, or `None` when it may be called.
    pub(crate) fn refusal(&self, ip: IpAddr) -> Option<String> {
        let class = refused_class(ip)?;
        if self.allow.iter().any(|net| net.contains(ip)) {
            return None;
        }
        Some(format!(
            "{ip} is a {class} address, which the SSRF guard refuses (allow it with \
             PushSettings::allow)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(ip: &str) -> Option<&'static str> {
        refused_class(ip.parse().unwrap())
    }

    #[test]
    fn every_class_in_both_families() {
        for (ip, expected) in [
            ("0.0.0.0", Some("unspecified")),
            ("0.1.2.3", Some("unspecified")),
            ("127.0.0.1", Some("loopback")),
            ("127.255.0.9", Some("loopback")),
            ("10.1.2.3", Some("private")),
            ("172.16.0.1", Some("private")),
            ("172.31.255.255", Some("private")),
            ("192.168.1.1", Some("private")),
            ("100.64.0.1", Some("private")),
            ("169.254.169.254", Some("link-local")),
            ("224.0.0.1", Some("multicast")),
            ("239.255.255.250", Some("multicast")),
            ("240.0.0.1", Some("reserved")),
            ("255.255.255.255", Some("reserved")),
            ("8.8.8.8", None),
            ("172.32.0.1", None),
            ("100.128.0.1", None),
            ("::", Some("unspecified")),
            ("::1", Some("loopback")),
            ("fc00::1", Some("private")),
            ("fd12:3456::1", Some("private")),
            ("fec0::1", Some("private")),
            ("fe80::1", Some("link-local")),
            ("ff02::1", Some("multicast")),
            ("::ffff:127.0.0.1", Some("loopback")),
            ("::ffff:10.0.0.1", Some("private")),
            ("::ffff:169.254.169.254", Some("link-local")),
            ("64:ff9b::7f00:1", Some("loopback")),
            ("2001:4860:4860::8888", None),
            ("::ffff:8.8.8.8", None),
        ] {
            assert_eq!(class(ip), expected, "{ip}");
        }
    }

    #[test]
    fn the_allow_list_opens_what_it_covers() {
        let guard = Guard::new(vec!["127.0.0.1".parse().unwrap()]);
        assert_eq!(guard.refusal("127.0.0.1".parse().unwrap()), None);
        assert_eq!(guard.refusal("::ffff:127.0.0.1".parse().unwrap()), None);
        assert_eq!(
            guard.refusal("127.0.0.2".parse().unwrap()).unwrap(),
            "127.0.0.2 is a loopback address, which the SSRF guard refuses (allow it with \
             PushSettings::allow)"
        );
        assert_eq!(guard.refusal("8.8.8.8".parse().unwrap()), None);
        let all: IpNet = "::/0".parse().unwrap();
        assert!(all.contains("fe80::1".parse().unwrap()));
        assert!(
            "0.0.0.0/0"
                .parse::<IpNet>()
                .unwrap()
                .contains("10.0.0.1".parse().unwrap())
        );
    }

    #[test]
    fn networks_parse_with_clear_errors() {
        assert_eq!(
            "10.0.0.0/8".parse::<IpNet>().unwrap().to_string(),
            "10.0.0.0/8"
        );
        assert_eq!(
            "example.com".parse::<IpNet>().unwrap_err(),
            "`example.com` is not an IP address or network (a.b.c.d/n, x::y/n)"
        );
        assert_eq!(
            "10.0.0.0/x".parse::<IpNet>().unwrap_err(),
            "the prefix length of `10.0.0.0/x` is not a number"
        );
        assert_eq!(
            "::1/129".parse::<IpNet>().unwrap_err(),
            "the prefix length of `::1/129` is more than 128"
        );
    }
}
