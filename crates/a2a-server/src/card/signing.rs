//! Signed agent cards (feature `signing`): [`CardSigning`].

use std::fmt;
use std::sync::Arc;

use a2a_jose::{Jwk, SigningKey};
use a2a_types::v1::{AgentCard, AgentCardSignature};

/// How the service signs its card (A2A 1.0 §8.4; feature `signing`, on by default): the service
/// signs the card it serves with a key of yours, a JWS with a detached payload over the card's canonical
/// (RFC 8785) 1.0 form without `signatures`, and publishes the public key in its JWKS at
/// `/.well-known/jwks.json`, which the signature's `jku` names (`docs/security.md`).
///
/// ```
/// use a2a_server::{A2aService, agent::agent_fn, card::CardSigning};
/// use a2a_jose::{Algorithm, SigningKey};
/// use a2a_types::v1::AgentCard;
///
/// let key = SigningKey::generate(Algorithm::Es256).unwrap().with_kid("card-2026");
/// let agent = agent_fn(|_ctx, sink| async move { sink.complete(None).await.map_err(Into::into) });
/// let service = A2aService::builder(agent, AgentCard::new("A", "An agent", "1.0.0"))
///     .public_url("https://agent.example")
///     .sign_card(CardSigning::new(key))
///     .build();
/// let signature = &service.card().signatures[0];
/// let header = a2a_jose::card::Signature::new(&signature.protected, &signature.signature).header().unwrap();
/// assert_eq!(header.kid.as_deref(), Some("card-2026"));
/// assert_eq!(header.jku.as_deref(), Some("https://agent.example/.well-known/jwks.json"));
/// ```
///
/// The card is signed when the service is built, as served at its
/// [`public_url`](crate::ServiceBuilder::public_url), and again whenever what is served
/// changes. A service without a public URL serves its card unsigned (and says so in a
/// warning): without one, each request's `Host` header names the agent's URL, and signing a
/// card that names whatever host a caller sent would hand out signed cards pointing anywhere.
#[derive(Clone)]
pub struct CardSigning {
    key: Arc<SigningKey>,
    jku: Jku,
    header: Option<a2a_types::v1::Struct>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Jku {
    /// The service's own JWKS, at its public URL.
    Served,
    Url(String),
    None,
}

impl fmt::Debug for CardSigning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CardSigning")
            .field("key", &self.key)
            .field("jku", &self.jku)
            .finish_non_exhaustive()
    }
}

impl CardSigning {
    /// Signs with `key` (ES256, EdDSA or RS256; its `kid` names it), naming the service's own JWKS
    /// (`{public_url}/.well-known/jwks.json`) as `jku`.
    pub fn new(key: SigningKey) -> Self {
        Self {
            key: Arc::new(key),
            jku: Jku::Served,
            header: None,
        }
    }

    /// Names this JWKS URL as `jku` instead (where the key is published elsewhere).
    #[must_use]
    pub fn jku(mut self, url: impl Into<String>) -> Self {
        self.jku = Jku::Url(url.into());
        self
    }

    /// Names no `jku`: verifiers find the key by its `kid` among keys they hold.
    #[must_use]
    pub fn without_jku(mut self) -> Self {
        self.jku = Jku::None;
        self
    }

    /// An unprotected header to send with the signature (not covered by it).
    #[must_use]
    pub fn unprotected_header(mut self, header: a2a_types::v1::Struct) -> Self {
        self.header = Some(header);
        self
    }

    /// The signing key.
    pub fn key(&self) -> &SigningKey {
        &self.key
    }

    /// The public key, as the service's JWKS lists it.
    pub fn public_jwk(&self) -> Jwk {
        self.key.public_jwk()
    }

    /// The `jku` of a card served at `base`.
    fn jku_at(&self, base: &str) -> Option<String> {
        match &self.jku {
            Jku::Served => Some(format!(
                "{}{}",
                base.trim_end_matches('/'),
                a2a_jose::push::JWKS_PATH
            )),
            Jku::Url(url) => Some(url.clone()),
            Jku::None => None,
        }
    }

    /// `card` (as served at `base`) with one signature, this key's, in place of any it had.
    ///
    /// What is signed is the card as a client reads it back from the document the service
    /// serves (`render` makes that document, the 1.0 card with the legacy versions' fields
    /// merged in): so the payload a verifier rebuilds from the document is the payload signed.
    pub(crate) fn sign(
        &self,
        card: &AgentCard,
        base: &str,
        render: impl Fn(&AgentCard) -> Vec<u8>,
    ) -> AgentCard {
        let mut card = card.clone();
        card.signatures.clear();
        // The card as a reader of the served document sees it (a fixpoint after one round).
        if let Ok(read_back) = a2a_types::card::parse_slice(&render(&card)) {
            card = read_back;
            card.signatures.clear();
        }
        let value = serde_json::to_value(&card).expect("an agent card serializes");
        let signature = a2a_jose::card::sign(&value, &self.key, self.jku_at(base).as_deref())
            .expect("a serialized card is a JSON object");
        let mut signature = AgentCardSignature::new(signature.protected, signature.signature);
        signature.header.clone_from(&self.header);
        card.signatures = vec![signature];
        card
    }
}
