//! Mutual TLS (feature `tls`): the caller is the client certificate the TLS handshake verified.
//!
//! [`serve`](crate::serve) with [`ClientAuth`](crate::tls::ClientAuth) checks the certificate
//! (its chain to the configured CA, its validity dates, its key usage) during the handshake and
//! puts the verified chain into each request's extensions
//! ([`PeerCertificates`]); [`MtlsAuthenticator`] turns it into a
//! [`Principal`]. It checks nothing about the certificate itself: what reaches it was verified.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::{AuthError, AuthFuture, Authenticator, Principal};
use crate::tls::PeerCertificates;

/// The `WWW-Authenticate` challenge of a request without a client certificate.
///
/// No HTTP authentication scheme is registered for TLS client certificates (IANA's `Mutual` is
/// RFC 8120's password-based protocol, another thing), and the project answers every 401 with
/// a challenge. `MutualTLS` names the OpenAPI security scheme type (`mutualTLS`) the card's
/// `mtlsSecurityScheme` stands for, as the `ApiKey` challenge names `apiKey`: a client reading
/// it learns that no header helps, and that it must connect again with a certificate.
pub const MTLS_CHALLENGE: &str = "MutualTLS";

/// Which name of the client certificate is the principal's subject.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubjectName {
    /// The first URI subject alternative name (a SPIFFE ID such as
    /// `spiffe://example.org/agent/billing`), else the first DNS subject alternative name, else
    /// the subject's common name (`CN`; the last one, when the subject has several). The
    /// default.
    #[default]
    Automatic,
    /// The first URI subject alternative name only.
    Uri,
    /// The first DNS subject alternative name only.
    Dns,
    /// The subject's common name only.
    CommonName,
}

/// The names a client certificate carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Names {
    uris: Vec<String>,
    dns: Vec<String>,
    common_name: Option<String>,
}

impl Names {
    /// The names of a DER certificate, read with rustls' own parser (rustls-webpki).
    fn of(cert: &rustls::pki_types::CertificateDer<'_>) -> Result<Self, String> {
        let parsed = webpki::EndEntityCert::try_from(cert).map_err(|e| format!("{e:?}"))?;
        Ok(Self {
            uris: parsed.valid_uri_names().map(str::to_owned).collect(),
            dns: parsed.valid_dns_names().map(str::to_owned).collect(),
            common_name: common_name(parsed.subject()),
        })
    }

    /// The subject `source` picks, and what kind of name it is.
    fn subject(&self, source: SubjectName) -> Option<(&str, &'static str)> {
        let uri = || self.uris.first().map(|u| (u.as_str(), "uri"));
        let dns = || self.dns.first().map(|d| (d.as_str(), "dns"));
        let cn = || self.common_name.as_deref().map(|c| (c, "cn"));
        match source {
            SubjectName::Automatic => uri().or_else(dns).or_else(cn),
            SubjectName::Uri => uri(),
            SubjectName::Dns => dns(),
            SubjectName::CommonName => cn(),
        }
    }
}

/// Names the caller by its TLS client certificate (the `mtlsSecurityScheme` of a card).
///
/// * **Subject**: per [`SubjectName`], by default the first URI SAN, else the first DNS SAN,
///   else the subject's CN.
/// * **Tenant** and **scopes**: per subject, from [`tenant`](Self::tenant) and
///   [`scopes`](Self::scopes); a subject named in neither gets none, or is refused (403) with
///   [`refuse_unknown`](Self::refuse_unknown).
/// * **Claims**: `subject_name` (`uri`, `dns` or `cn`: where the subject came from), `uris`,
///   `dns_names` and `common_name`, as the certificate has them.
/// * **Refusals**: a request without a certificate (a connection that presented none, under
///   [`ClientAuth::Optional`](crate::tls::ClientAuth::Optional), or a server without TLS) gets
///   401 with `WWW-Authenticate: MutualTLS` ([`MTLS_CHALLENGE`]); a certificate without the
///   name asked for, 401 with the same challenge (another certificate would do).
///
/// Register it for the card's scheme with
/// [`SecurityRequirements::from_card`](crate::auth::SecurityRequirements::from_card), as any other:
///
/// ```
/// use std::sync::Arc;
/// use a2a_server::auth::{Authenticator, SecurityRequirements};
/// use a2a_server::auth::mtls::MtlsAuthenticator;
/// use a2a_types::v1::{AgentCard, MutualTlsSecurityScheme, SecurityRequirement};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let card = AgentCard::new("A", "An agent", "1.0.0")
///     .with_security_scheme("mtls", MutualTlsSecurityScheme::new())
///     .with_security_requirements([SecurityRequirement::new().with_scheme("mtls", Vec::<String>::new())]);
/// let mtls = MtlsAuthenticator::new()
///     .scopes("spiffe://example.org/billing", ["tasks:read", "tasks:write"])
///     .tenant("spiffe://example.org/billing", "billing");
/// let auth = SecurityRequirements::from_card(&card, [("mtls", Arc::new(mtls) as Arc<dyn Authenticator>)]).unwrap();
///
/// // A request on a connection without a client certificate.
/// let head = http::Request::post("/").body(()).unwrap().into_parts().0;
/// let refused = auth.authenticate(&head).await.unwrap_err();
/// assert_eq!(refused.status, 401);
/// assert_eq!(refused.message, "a client certificate is required (mutual TLS)");
/// assert_eq!(refused.challenge.as_deref(), Some("MutualTLS"));
/// # });
/// ```
#[derive(Clone, Default)]
pub struct MtlsAuthenticator {
    source: SubjectName,
    scopes: BTreeMap<String, Vec<String>>,
    tenants: BTreeMap<String, String>,
    refuse_unknown: bool,
}

impl fmt::Debug for MtlsAuthenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MtlsAuthenticator")
            .field("subject", &self.source)
            .field("scopes", &self.scopes)
            .field("tenants", &self.tenants)
            .field("refuse_unknown", &self.refuse_unknown)
            .finish()
    }
}

impl MtlsAuthenticator {
    /// Names callers by [`SubjectName::Automatic`], without tenants or scopes, accepting every
    /// subject the CA certified.
    pub fn new() -> Self {
        Self::default()
    }

    /// Which name of the certificate is the subject. Default [`SubjectName::Automatic`].
    #[must_use]
    pub fn with_subject_name(mut self, source: SubjectName) -> Self {
        self.source = source;
        self
    }

    /// Grants these scopes to the caller with this subject (added to any given before).
    #[must_use]
    pub fn scopes<I, S>(mut self, subject: impl Into<String>, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes
            .entry(subject.into())
            .or_default()
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Puts the caller with this subject in this tenant.
    #[must_use]
    pub fn tenant(mut self, subject: impl Into<String>, tenant: impl Into<String>) -> Self {
        self.tenants.insert(subject.into(), tenant.into());
        self
    }

    /// With `true`, refuses (403) a certificate whose subject is named by neither
    /// [`scopes`](Self::scopes) nor [`tenant`](Self::tenant): for a CA that certifies more
    /// clients than may call this agent. Default `false`.
    #[must_use]
    pub fn refuse_unknown(mut self, refuse: bool) -> Self {
        self.refuse_unknown = refuse;
        self
    }

    /// The principal of a verified chain.
    ///
    /// # Errors
    ///
    /// As [`Authenticator::authenticate`] refuses.
    pub fn principal(&self, peer: &PeerCertificates) -> Result<Principal, AuthError> {
        let names = Names::of(peer.leaf()).map_err(|e| {
            AuthError::unauthorized(
                format!("the client certificate cannot be read: {e}"),
                MTLS_CHALLENGE,
            )
        })?;
        let Some((subject, kind)) = names.subject(self.source) else {
            let wanted = match self.source {
                SubjectName::Automatic => "no URI or DNS subject alternative name and no CN",
                SubjectName::Uri => "no URI subject alternative name",
                SubjectName::Dns => "no DNS subject alternative name",
                SubjectName::CommonName => "no CN in its subject",
            };
            return Err(AuthError::unauthorized(
                format!("the client certificate has {wanted} to name the caller by"),
                MTLS_CHALLENGE,
            ));
        };
        let known = self.scopes.contains_key(subject) || self.tenants.contains_key(subject);
        if self.refuse_unknown && !known {
            return Err(AuthError::forbidden(format!(
                "the client certificate of `{subject}` is not one this agent accepts"
            )));
        }
        let mut claims = Map::new();
        claims.insert("subject_name".to_owned(), Value::from(kind));
        claims.insert("uris".to_owned(), Value::from(names.uris.clone()));
        claims.insert("dns_names".to_owned(), Value::from(names.dns.clone()));
        if let Some(cn) = &names.common_name {
            claims.insert("common_name".to_owned(), Value::from(cn.as_str()));
        }
        let mut principal = Principal::new(subject).with_claims(claims);
        if let Some(scopes) = self.scopes.get(subject) {
            principal = principal.with_scopes(scopes.iter().cloned());
        }
        if let Some(tenant) = self.tenants.get(subject) {
            principal = principal.with_tenant(tenant.clone());
        }
        Ok(principal)
    }
}

impl Authenticator for MtlsAuthenticator {
    fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
        let result = match head.extensions.get::<PeerCertificates>() {
            Some(peer) => self.principal(peer).map(Some),
            None => Err(AuthError::unauthorized(
                "a client certificate is required (mutual TLS)",
                MTLS_CHALLENGE,
            )),
        };
        Box::pin(std::future::ready(result))
    }
}

/// The OID of the common name attribute (2.5.4.3), DER-encoded.
const CN_OID: &[u8] = &[0x55, 0x04, 0x03];

/// The last common name of a DER `Name`'s contents (the `RDNSequence` inside its `SEQUENCE`),
/// when it is a UTF8String, PrintableString, IA5String or BMPString; `None` otherwise, and for
/// anything that is not DER.
fn common_name(mut name: &[u8]) -> Option<String> {
    let mut found = None;
    while !name.is_empty() {
        let (tag, mut set, rest) = tlv(name)?;
        name = rest;
        if tag != 0x31 {
            return None;
        }
        while !set.is_empty() {
            let (tag, attribute, rest) = tlv(set)?;
            set = rest;
            if tag != 0x30 {
                return None;
            }
            let (tag, oid, value) = tlv(attribute)?;
            if tag != 0x06 {
                return None;
            }
            if oid == CN_OID {
                let (tag, text, _) = tlv(value)?;
                found = decode_string(tag, text).or(found);
            }
        }
    }
    found
}

/// A DER string value as text.
fn decode_string(tag: u8, bytes: &[u8]) -> Option<String> {
    match tag {
        // UTF8String, PrintableString, IA5String.
        0x0C | 0x13 | 0x16 => std::str::from_utf8(bytes).ok().map(str::to_owned),
        // BMPString: UCS-2, big-endian.
        0x1E if bytes.len().is_multiple_of(2) => {
            let units = bytes
                .chunks_exact(2)
                .map(|pair| u16::from_be_bytes([pair[0], pair[1]]));
            char::decode_utf16(units)
                .collect::<Result<String, _>>()
                .ok()
        }
        _ => None,
    }
}

/// One DER element: its tag, its contents and what follows it. Lengths of up to four bytes;
/// `None` for anything truncated or malformed.
fn tlv(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let (bytes, rest) = rest.split_at(count);
        let len = bytes
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, rest)
    };
    if rest.len() < len {
        return None;
    }
    let (contents, rest) = rest.split_at(len);
    Some((tag, contents, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Name`'s RDNs: (OID bytes, string tag, value).
    fn name(rdns: &[(&[u8], u8, &[u8])]) -> Vec<u8> {
        let wrap = |tag: u8, contents: &[u8]| {
            let mut out = vec![tag, u8::try_from(contents.len()).unwrap()];
            out.extend_from_slice(contents);
            out
        };
        let mut out = Vec::new();
        for (oid, tag, value) in rdns {
            let mut attribute = wrap(0x06, oid);
            attribute.extend(wrap(*tag, value));
            out.extend(wrap(0x31, &wrap(0x30, &attribute)));
        }
        out
    }

    #[test]
    fn the_common_name_is_read_from_the_subject() {
        const O: &[u8] = &[0x55, 0x04, 0x0a];
        let subject = name(&[(O, 0x0C, b"Acme"), (CN_OID, 0x13, b"client-a")]);
        assert_eq!(common_name(&subject).as_deref(), Some("client-a"));
        let two = name(&[(CN_OID, 0x0C, b"first"), (CN_OID, 0x0C, b"last")]);
        assert_eq!(common_name(&two).as_deref(), Some("last"));
        let bmp = name(&[(CN_OID, 0x1E, &[0x00, b'h', 0x00, b'i'])]);
        assert_eq!(common_name(&bmp).as_deref(), Some("hi"));
        assert_eq!(common_name(&name(&[(O, 0x0C, b"Acme")])), None);
        // A T61String is not read; truncated or odd input is no name, and no panic.
        assert_eq!(common_name(&name(&[(CN_OID, 0x14, b"x")])), None);
        assert_eq!(common_name(&subject[..subject.len() - 1]), None);
        assert_eq!(common_name(&[0x31, 0x85, 1, 1, 1, 1, 1]), None);
        assert_eq!(common_name(&[0x30, 0x00]), None);
        assert_eq!(common_name(&[]), None);
    }

    #[test]
    fn the_subject_follows_its_source() {
        let names = Names {
            uris: vec!["spiffe://a/b".into()],
            dns: vec!["a.example".into()],
            common_name: Some("a".into()),
        };
        assert_eq!(
            names.subject(SubjectName::Automatic),
            Some(("spiffe://a/b", "uri"))
        );
        assert_eq!(names.subject(SubjectName::Dns), Some(("a.example", "dns")));
        assert_eq!(names.subject(SubjectName::CommonName), Some(("a", "cn")));
        let cn_only = Names {
            common_name: Some("a".into()),
            ..Names::default()
        };
        assert_eq!(cn_only.subject(SubjectName::Automatic), Some(("a", "cn")));
        assert_eq!(cn_only.subject(SubjectName::Uri), None);
    }
}
