//! Certificates made at test time (rcgen, ring): a CA, a server certificate for 127.0.0.1 and
//! localhost, client certificates (by URI SAN, DNS SAN or CN alone), expired ones, and those of
//! another CA. Shared by the mutual-TLS tests of a2a-server, a2a-grpc and a2a-cli (the others
//! include this file by its path).

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose, SanType,
};

/// A certificate with its private key, as PEM.
#[derive(Clone, Debug)]
pub struct Identity {
    pub cert_pem: String,
    pub key_pem: String,
}

impl Identity {
    /// Writes `NAME.pem` and `NAME.key` into `dir`; their paths.
    pub fn write(&self, dir: &Path, name: &str) -> (PathBuf, PathBuf) {
        let cert = dir.join(format!("{name}.pem"));
        let key = dir.join(format!("{name}.key"));
        std::fs::write(&cert, &self.cert_pem).unwrap();
        std::fs::write(&key, &self.key_pem).unwrap();
        (cert, key)
    }
}

/// The names a client certificate carries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Names<'a> {
    pub uri: Option<&'a str>,
    pub dns: Option<&'a str>,
    pub cn: Option<&'a str>,
}

impl<'a> Names<'a> {
    /// A SPIFFE-style URI SAN (and a CN of the same name's last segment).
    pub fn uri(uri: &'a str) -> Self {
        Self {
            uri: Some(uri),
            cn: uri.rsplit('/').next(),
            ..Self::default()
        }
    }
}

/// A certificate authority.
pub struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl Ca {
    pub fn new(name: &str) -> Self {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        Self { issuer }
    }

    /// The CA's certificate, PEM.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A server certificate for 127.0.0.1 and localhost.
    pub fn server(&self) -> Identity {
        let mut params =
            CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).unwrap();
        params
            .distinguished_name
            .push(DnType::CommonName, "a2a-rs test server");
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        self.sign(params)
    }

    /// A client certificate with these names, valid now.
    pub fn client(&self, names: Names<'_>) -> Identity {
        self.sign(client_params(names))
    }

    /// A client certificate that expired in 2021.
    pub fn expired_client(&self, names: Names<'_>) -> Identity {
        let mut params = client_params(names);
        params.not_before = rcgen::date_time_ymd(2020, 1, 1);
        params.not_after = rcgen::date_time_ymd(2021, 1, 1);
        self.sign(params)
    }

    fn sign(&self, params: CertificateParams) -> Identity {
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Identity {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

fn client_params(names: Names<'_>) -> CertificateParams {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    if let Some(uri) = names.uri {
        params
            .subject_alt_names
            .push(SanType::URI(uri.try_into().unwrap()));
    }
    if let Some(dns) = names.dns {
        params
            .subject_alt_names
            .push(SanType::DnsName(dns.try_into().unwrap()));
    }
    // rcgen names every certificate `rcgen self signed cert` unless told otherwise.
    params.distinguished_name = rcgen::DistinguishedName::new();
    params
        .distinguished_name
        .push(DnType::OrganizationName, "a2a-rs tests");
    if let Some(cn) = names.cn {
        params.distinguished_name.push(DnType::CommonName, cn);
    }
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    params
}
