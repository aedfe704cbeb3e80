//! Certificates made at test time (rcgen, ring): a CA, a server certificate for 127.0.0.1 and
//! localhost, client certificates (by URI SAN, DNS SAN or CN alone), expired ones, and those of
//! another CA; and an agent that tells who called it, behind mutual TLS. Shared by the
//! mutual-TLS tests of a2a-server, a2a-client and a2a-grpc (the others include this file by its
//! path).

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::auth::mtls::MtlsAuthenticator;
use a2a_server::auth::{Authenticator, SecurityRequirements};
use a2a_types::v1::{
    AgentCapabilities, AgentCard, Artifact, MutualTlsSecurityScheme, Part, SecurityRequirement,
};

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

/// Answers every message with who sent it: the principal's subject, or `anonymous`.
pub struct WhoAmI;

impl Agent for WhoAmI {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let who = ctx
            .principal
            .as_ref()
            .map_or_else(|| "anonymous".to_owned(), |p| p.subject().to_owned());
        sink.artifact(Artifact::new("who", vec![Part::text(who)]))
            .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

/// [`WhoAmI`] at `public_url` with a card whose only scheme is mutual TLS, and the
/// [`MtlsAuthenticator`] that requires it.
pub fn mtls_service(public_url: &str) -> A2aService {
    mtls_builder(public_url).build()
}

/// The builder of [`mtls_service`], for bindings added beside (gRPC).
pub fn mtls_builder(public_url: &str) -> a2a_server::ServiceBuilder {
    let card = AgentCard::new("Mutual", "Knows its callers by certificate", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_security_scheme("mtls", MutualTlsSecurityScheme::new())
        .with_security_requirements([
            SecurityRequirement::new().with_scheme("mtls", Vec::<String>::new())
        ]);
    let mtls: Arc<dyn Authenticator> = Arc::new(MtlsAuthenticator::new());
    let auth = SecurityRequirements::from_card(&card, [("mtls", mtls)]).unwrap();
    A2aService::builder(WhoAmI, card)
        .public_url(public_url)
        .authenticator(auth)
}
