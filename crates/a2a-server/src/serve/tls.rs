//! The TLS handshake of a connection (feature `tls`): under its deadline, the protocol ALPN
//! chose, and the client's verified certificate chain.
//!
//! The handshake runs in the connection's own task, never in the accept loop: a client that
//! stalls or fails it holds nothing but its own connection slot, and that only until the
//! deadline.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;
use tokio_util::sync::CancellationToken;

use super::ServeConfig;
use super::connection::Protocol;
use crate::tls::PeerCertificates;

/// What every TLS connection of one server shares.
pub(crate) struct Handshakes {
    acceptor: TlsAcceptor,
    timeout: Duration,
}

impl Handshakes {
    /// `None` when the server does not terminate TLS.
    ///
    /// # Errors
    ///
    /// Settings that make no rustls configuration (`InvalidInput`, naming the problem).
    pub(super) fn new(config: &ServeConfig) -> io::Result<Option<Self>> {
        let Some(settings) = &config.tls else {
            return Ok(None);
        };
        let server_config = settings
            .server_config()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        Ok(Some(Self {
            acceptor: TlsAcceptor::from(server_config),
            timeout: config.tls_handshake_timeout,
        }))
    }

    /// The handshake within the timeout: the protocol (`h2` by ALPN, else HTTP/1.1), the TLS
    /// stream and the client's chain. `None` when it failed, timed out or the server is
    /// shutting down: the connection is closed.
    pub(super) async fn accept(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
        closing: &CancellationToken,
    ) -> Option<(Protocol, TlsStream<TcpStream>, Option<PeerCertificates>)> {
        let handshake = tokio::time::timeout(self.timeout, self.acceptor.accept(stream));
        let done = tokio::select! {
            biased;
            () = closing.cancelled() => return None,
            done = handshake => done,
        };
        let stream = match done {
            Ok(Ok(stream)) => stream,
            Ok(Err(err)) => {
                tracing::debug!(%peer, %err, "TLS handshake failed");
                return None;
            }
            Err(_) => {
                tracing::debug!(%peer, "TLS handshake not completed within the handshake timeout; closing");
                return None;
            }
        };
        let (_, connection) = stream.get_ref();
        let protocol = match connection.alpn_protocol() {
            Some(b"h2") => Protocol::Http2,
            _ => Protocol::Http1,
        };
        let chain = connection
            .peer_certificates()
            .map(|chain| chain.iter().map(|c| c.clone().into_owned()).collect())
            .and_then(PeerCertificates::new);
        Some((protocol, stream, chain))
    }
}
