//! TLS for [`serve`](crate::serve) (feature `tls`): the server's certificate, client
//! certificates checked against a CA ([`ClientAuth`]), and the verified chain a client
//! presented ([`PeerCertificates`]), which every request of its connection carries in its
//! `http::Extensions` for an [`Authenticator`](crate::auth::Authenticator) to read (as
//! [`MtlsAuthenticator`](crate::auth::mtls::MtlsAuthenticator) does).
//!
//! ```no_run
//! use a2a_server::ServeConfig;
//! use a2a_server::tls::{CaBundle, ClientAuth, TlsSettings};
//!
//! # fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let tls = TlsSettings::from_pem(
//!     std::fs::read("server-chain.pem")?,
//!     std::fs::read("server-key.pem")?,
//! )?
//! .with_client_auth(ClientAuth::Required(CaBundle::from_pem(std::fs::read("clients-ca.pem")?)?));
//! let config = ServeConfig::default().with_tls(tls);
//! # let _ = config;
//! # Ok(())
//! # }
//! ```
//!
//! The provider is rustls' ring provider (no aws-lc), with rustls' safe defaults: TLS 1.3 and
//! 1.2. ALPN offers `h2` and `http/1.1`, and the protocol the client picks is the one served
//! (no ALPN: HTTP/1.1). The handshake is bounded by
//! [`ServeConfig::tls_handshake_timeout`](crate::ServeConfig::tls_handshake_timeout).

use std::fmt;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

/// The protocols offered by ALPN, HTTP/2 first.
pub(crate) const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// What went wrong with the TLS material: a PEM file that holds no certificate or key, a key
/// that does not belong to the certificate, a CA that rustls refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsError(String);

impl TlsError {
    fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TlsError {}

/// The certificates of a PEM document (every `CERTIFICATE` block, in order), refusing one
/// that holds none. `what` names the document in errors.
pub(crate) fn certificates_from_pem(
    pem: &[u8],
    what: &str,
) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::new(format!("{what}: not a PEM certificate list: {e}")))?;
    if certs.is_empty() {
        return Err(TlsError::new(format!(
            "{what}: no `-----BEGIN CERTIFICATE-----` block"
        )));
    }
    Ok(certs)
}

/// The rustls ring provider, which every TLS configuration of the crate uses.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The CA certificates client certificates must chain to (a PEM bundle of one or more).
#[derive(Clone)]
pub struct CaBundle {
    roots: Arc<RootCertStore>,
}

impl fmt::Debug for CaBundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CaBundle({} certificates)", self.roots.len())
    }
}

impl CaBundle {
    /// Every `CERTIFICATE` block of `pem` as a trusted CA.
    ///
    /// # Errors
    ///
    /// The document holds no certificate, or one that rustls cannot use as a trust anchor
    /// (each named by its place, 1-based).
    pub fn from_pem(pem: impl AsRef<[u8]>) -> Result<Self, TlsError> {
        let certs = certificates_from_pem(pem.as_ref(), "the client CA bundle")?;
        let mut roots = RootCertStore::empty();
        for (n, cert) in certs.into_iter().enumerate() {
            roots.add(cert).map_err(|e| {
                TlsError::new(format!(
                    "the client CA bundle: certificate {} is not a usable CA: {e}",
                    n + 1
                ))
            })?;
        }
        Ok(Self {
            roots: Arc::new(roots),
        })
    }

    /// How many CA certificates it holds.
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether it holds none (never, for one read by [`from_pem`](Self::from_pem)).
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }
}

/// Whether, and how, clients present certificates. Either way a certificate that is
/// presented must chain to the [`CaBundle`] and be valid now (not expired, not yet valid),
/// with the `clientAuth` extended key usage if it has one, or the handshake fails.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ClientAuth {
    /// Every client presents a valid certificate: a handshake without one fails, and no
    /// request of such a client reaches the service.
    Required(CaBundle),
    /// A client may present one: a client without a certificate is served anonymously (its
    /// requests carry no [`PeerCertificates`]) and the service's authenticator decides (an
    /// [`MtlsAuthenticator`](crate::auth::mtls::MtlsAuthenticator) refuses it with 401).
    Optional(CaBundle),
}

/// The TLS side of [`serve`](crate::serve): the server's certificate chain and key (or a
/// ready rustls configuration), and whether clients present certificates. Give it to
/// [`ServeConfig::with_tls`](crate::ServeConfig::with_tls).
#[derive(Clone)]
#[non_exhaustive]
pub struct TlsSettings {
    source: Source,
    client_auth: Option<ClientAuth>,
}

#[derive(Clone)]
enum Source {
    Pem {
        chain: Vec<CertificateDer<'static>>,
        key: Arc<PrivateKeyDer<'static>>,
    },
    Config(Arc<rustls::ServerConfig>),
}

impl fmt::Debug for TlsSettings {
    /// The chain's length and the client authentication; never the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match &self.source {
            Source::Pem { chain, .. } => format!("{} certificates from PEM", chain.len()),
            Source::Config(_) => "a rustls ServerConfig".to_owned(),
        };
        f.debug_struct("TlsSettings")
            .field("source", &source)
            .field("client_auth", &self.client_auth)
            .finish()
    }
}

impl TlsSettings {
    /// The server's certificate chain (PEM `CERTIFICATE` blocks, the server's own first, then
    /// its intermediates) and its private key (PEM: PKCS#8 `PRIVATE KEY`, `RSA PRIVATE KEY` or
    /// `EC PRIVATE KEY`). No client certificates are asked for until
    /// [`with_client_auth`](Self::with_client_auth).
    ///
    /// # Errors
    ///
    /// No certificate in `cert_chain_pem`, no key in `key_pem`, a key rustls cannot use, or a
    /// key that is not the certificate's.
    pub fn from_pem(
        cert_chain_pem: impl AsRef<[u8]>,
        key_pem: impl AsRef<[u8]>,
    ) -> Result<Self, TlsError> {
        let chain = certificates_from_pem(cert_chain_pem.as_ref(), "the certificate chain")?;
        let key = PrivateKeyDer::from_pem_slice(key_pem.as_ref()).map_err(|e| {
            TlsError::new(format!(
                "the private key: no PEM private key (PKCS#8, RSA or EC): {e}"
            ))
        })?;
        let settings = Self {
            source: Source::Pem {
                chain,
                key: Arc::new(key),
            },
            client_auth: None,
        };
        // Building it once checks the key against the certificate.
        settings.server_config()?;
        Ok(settings)
    }

    /// A ready rustls configuration, for what the PEM form does not cover (several
    /// certificates by SNI, session tickets, a verifier of your own). Its client certificate
    /// verifier is its own: [`with_client_auth`](Self::with_client_auth) does not apply. Its
    /// ALPN protocols are kept when it names some; without any, `h2` and `http/1.1` are offered.
    /// The verified client chain reaches the requests as [`PeerCertificates`] all the same.
    pub fn from_config(config: rustls::ServerConfig) -> Self {
        let mut config = config;
        if config.alpn_protocols.is_empty() {
            config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
        }
        Self {
            source: Source::Config(Arc::new(config)),
            client_auth: None,
        }
    }

    /// Asks clients for certificates checked against a CA: [`ClientAuth::Required`] or
    /// [`ClientAuth::Optional`]. For settings read with [`from_pem`](Self::from_pem); a
    /// configuration given to [`from_config`](Self::from_config) keeps its own verifier (and
    /// [`serve_with_shutdown`](crate::serve_with_shutdown) refuses to start with both).
    #[must_use]
    pub fn with_client_auth(mut self, client_auth: ClientAuth) -> Self {
        self.client_auth = Some(client_auth);
        self
    }

    /// The client authentication asked for, if any.
    pub fn client_auth(&self) -> Option<&ClientAuth> {
        self.client_auth.as_ref()
    }

    /// The rustls configuration the server's handshakes use.
    pub(crate) fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, TlsError> {
        let (chain, key) = match &self.source {
            Source::Config(config) => {
                if self.client_auth.is_some() {
                    return Err(TlsError::new(
                        "TlsSettings::with_client_auth was given for a ready rustls ServerConfig; \
                         set its client certificate verifier instead",
                    ));
                }
                return Ok(Arc::clone(config));
            }
            Source::Pem { chain, key } => (chain.clone(), key.clone_key()),
        };
        let builder = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::new(format!("cannot set up TLS: {e}")))?;
        let builder = match &self.client_auth {
            None => builder.with_no_client_auth(),
            Some(ClientAuth::Required(ca)) | Some(ClientAuth::Optional(ca)) => {
                let verifier =
                    WebPkiClientVerifier::builder_with_provider(Arc::clone(&ca.roots), provider());
                let verifier = match &self.client_auth {
                    Some(ClientAuth::Optional(_)) => verifier.allow_unauthenticated(),
                    _ => verifier,
                };
                let verifier = verifier.build().map_err(|e| {
                    TlsError::new(format!(
                        "the client CA bundle cannot verify certificates: {e}"
                    ))
                })?;
                builder.with_client_cert_verifier(verifier)
            }
        };
        let mut config = builder.with_single_cert(chain, key).map_err(|e| match e {
            rustls::Error::InconsistentKeys(_) => TlsError::new(
                "the private key is not the key of the certificate (the first of the chain)",
            ),
            other => TlsError::new(format!(
                "the private key cannot serve the certificate chain: {other}"
            )),
        })?;
        config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
        Ok(Arc::new(config))
    }
}

/// The certificate chain a client presented in the TLS handshake, verified by rustls against
/// the configured [`CaBundle`] (or the verifier of a ready configuration): the client's own
/// certificate first, then the intermediates it sent, as DER.
///
/// [`serve`](crate::serve) puts it into the `http::Extensions` of every request of the
/// connection (each HTTP/2 stream's too, gRPC's included), so an
/// [`Authenticator`](crate::auth::Authenticator) reads it from the request head:
///
/// ```
/// use a2a_server::auth::{AuthError, Principal};
/// use a2a_server::tls::PeerCertificates;
///
/// let by_certificate = |head: &http::request::Parts| match head.extensions.get::<PeerCertificates>() {
///     Some(peer) => Ok(Some(Principal::new(format!("cert-of-{}-bytes", peer.leaf().len())))),
///     None => Err(AuthError::unauthorized("a client certificate is required", "Mutual")),
/// };
/// # fn is_authenticator(_: impl a2a_server::auth::Authenticator) {}
/// # is_authenticator(by_certificate);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct PeerCertificates(Arc<[CertificateDer<'static>]>);

impl PeerCertificates {
    /// The chain, the client's certificate first; `None` for an empty one.
    pub fn new(chain: Vec<CertificateDer<'static>>) -> Option<Self> {
        (!chain.is_empty()).then(|| Self(chain.into()))
    }

    /// The client's own certificate (DER).
    pub fn leaf(&self) -> &CertificateDer<'static> {
        &self.0[0]
    }

    /// The whole chain as presented, the client's certificate first (DER).
    pub fn chain(&self) -> &[CertificateDer<'static>] {
        &self.0
    }
}

impl fmt::Debug for PeerCertificates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PeerCertificates({} certificates)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_pem_is_named() {
        let error = TlsSettings::from_pem("nothing here", "nor here").unwrap_err();
        assert_eq!(
            error.to_string(),
            "the certificate chain: no `-----BEGIN CERTIFICATE-----` block"
        );
        let error = CaBundle::from_pem("").unwrap_err();
        assert_eq!(
            error.to_string(),
            "the client CA bundle: no `-----BEGIN CERTIFICATE-----` block"
        );
        assert!(PeerCertificates::new(Vec::new()).is_none());
    }
}
