//! The TLS settings of a client beyond the defaults (feature `tls`): CA certificates trusted
//! besides the webpki roots ([`ClientBuilder::add_root_certificate`]) and a client certificate
//! for mutual TLS ([`ClientBuilder::client_identity`]). Every transport of the client uses them:
//! the HTTP ones through [`crate::http`], others (gRPC) through [`TransportTarget`].
//!
//! [`ClientBuilder::add_root_certificate`]: crate::ClientBuilder::add_root_certificate
//! [`ClientBuilder::client_identity`]: crate::ClientBuilder::client_identity
//! [`TransportTarget`]: crate::TransportTarget

use std::sync::Arc;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::Error;

/// The certificates of a PEM document, refusing one without any. `what` names it in errors.
fn certificates(pem: &[u8], what: &str) -> Result<Vec<CertificateDer<'static>>, Error> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::Config(format!("{what}: not a PEM certificate list: {e}")))?;
    if certs.is_empty() {
        return Err(Error::Config(format!(
            "{what}: no `-----BEGIN CERTIFICATE-----` block"
        )));
    }
    Ok(certs)
}

/// The rustls ring provider every TLS configuration of the client uses.
pub(crate) fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A client certificate chain and its key, as given (PEM, for transports that take PEM) and
/// as rustls reads them.
#[derive(Clone)]
pub(crate) struct Identity {
    pub(crate) cert_pem: Arc<[u8]>,
    pub(crate) key_pem: Arc<[u8]>,
    chain: Vec<CertificateDer<'static>>,
    key: Arc<PrivateKeyDer<'static>>,
}

impl Identity {
    /// Reads the chain and key, and checks that the key is the first certificate's.
    pub(crate) fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Self, Error> {
        let chain = certificates(cert_pem, "the client certificate")?;
        let key = PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| {
            Error::Config(format!(
                "the client certificate's key: no PEM private key (PKCS#8, RSA or EC): {e}"
            ))
        })?;
        let identity = Self {
            cert_pem: cert_pem.into(),
            key_pem: key_pem.into(),
            chain,
            key: Arc::new(key),
        };
        // A configuration made once checks the key against the certificate.
        TlsMaterial {
            identity: Some(identity.clone()),
            ..TlsMaterial::default()
        }
        .config(true, None)?;
        Ok(identity)
    }
}

/// What the builder adds to the default TLS settings.
#[derive(Clone, Default)]
pub(crate) struct TlsMaterial {
    /// Extra trusted CAs: each as given (PEM) and read.
    pub(crate) roots_pem: Vec<Arc<[u8]>>,
    roots: Vec<CertificateDer<'static>>,
    pub(crate) identity: Option<Identity>,
}

impl std::fmt::Debug for TlsMaterial {
    /// How many roots, and whether there is a client certificate; never the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsMaterial")
            .field("added_roots", &self.roots.len())
            .field("client_identity", &self.identity.is_some())
            .finish()
    }
}

impl TlsMaterial {
    /// Trusts the CA certificates of `pem` too.
    pub(crate) fn add_roots(&mut self, pem: &[u8]) -> Result<(), Error> {
        let certs = certificates(pem, "the root certificate")?;
        let mut check = rustls::RootCertStore::empty();
        for (n, cert) in certs.iter().enumerate() {
            check.add(cert.clone()).map_err(|e| {
                Error::Config(format!(
                    "the root certificate {} is not a usable CA: {e}",
                    n + 1
                ))
            })?;
        }
        self.roots.extend(certs);
        self.roots_pem.push(pem.into());
        Ok(())
    }

    /// Whether nothing was added to the defaults.
    pub(crate) fn is_default(&self) -> bool {
        self.roots.is_empty() && self.identity.is_none()
    }

    /// The rustls configuration: the webpki roots and the added ones (or, with `verify` false,
    /// the verifier `any`, which accepts any certificate), and the client certificate if any.
    /// ALPN is left to the caller.
    pub(crate) fn config(
        &self,
        verify: bool,
        any: Option<Arc<dyn rustls::client::danger::ServerCertVerifier>>,
    ) -> Result<rustls::ClientConfig, Error> {
        let tls_error = |err: rustls::Error| Error::Config(format!("cannot set up TLS: {err}"));
        let builder = rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(tls_error)?;
        let builder = match any.filter(|_| !verify) {
            Some(any) => builder.dangerous().with_custom_certificate_verifier(any),
            None => {
                let mut roots = rustls::RootCertStore::empty();
                roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
                for cert in &self.roots {
                    roots.add(cert.clone()).map_err(tls_error)?;
                }
                builder.with_root_certificates(roots)
            }
        };
        match &self.identity {
            None => Ok(builder.with_no_client_auth()),
            Some(identity) => builder
                .with_client_auth_cert(identity.chain.clone(), identity.key.clone_key())
                .map_err(|e| match e {
                    rustls::Error::InconsistentKeys(_) => Error::Config(
                        "the client certificate's key is not the key of the certificate (the \
                         first of the chain)"
                            .to_owned(),
                    ),
                    other => Error::Config(format!("the client certificate: {other}")),
                }),
        }
    }
}
