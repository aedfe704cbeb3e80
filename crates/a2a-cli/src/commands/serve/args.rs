//! The option groups of `a2a serve`: push delivery, card signing, authentication, TLS and the
//! task store, each turned into the settings a2a-server takes.

use std::path::PathBuf;
use std::sync::Arc;

use a2a_server::auth::jwt::{JwtAuthenticator, JwtConfig, KeySource};
use a2a_server::auth::mtls::MtlsAuthenticator;
use a2a_server::auth::{
    ApiKeyAuthenticator, ApiKeyLocation, Authenticator, Principal, SecurityRequirements,
};
use a2a_server::card::CardSigning;
use a2a_server::push::{Algorithm, IpNet, PushSettings, SigningKey};
use a2a_server::tls::{CaBundle, ClientAuth, TlsSettings};
use a2a_store_sql::{Dialect, SqlConfig, SqlStore};
use a2a_types::v1::{
    AgentCard, ApiKeySecurityScheme, HttpAuthSecurityScheme, MutualTlsSecurityScheme,
    OpenIdConnectSecurityScheme, SecurityRequirement,
};

use crate::error::{CliError, Code};

/// The push-notification options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct PushArgs {
    /// Deliver push notifications: the card declares them, and every task event is POSTed to
    /// the task's push configs (retried with backoff; docs/push.md).
    #[arg(long)]
    push: bool,
    /// Let webhooks be in this network despite the SSRF guard, e.g. 127.0.0.1 for a receiver
    /// on this machine, or 10.0.0.0/8 (repeatable; implies --push).
    #[arg(long, value_name = "NET")]
    push_allow: Vec<String>,
    /// Sign deliveries with this ES256 key (a PKCS#8 PEM file), and serve its JWKS at
    /// /.well-known/jwks.json (implies --push).
    #[arg(long, value_name = "PEM")]
    push_key: Option<std::path::PathBuf>,
    /// Sign deliveries with a new ES256 key made at start (implies --push).
    #[arg(long, conflicts_with = "push_key")]
    push_sign: bool,
}

impl PushArgs {
    /// What the banner says of push delivery.
    pub(crate) fn describe(&self) -> String {
        if !(self.push || !self.push_allow.is_empty() || self.push_key.is_some() || self.push_sign)
        {
            return "off".to_owned();
        }
        let mut text = "on".to_owned();
        if self.push_key.is_some() || self.push_sign {
            text.push_str(", signed (ES256, JWKS at /.well-known/jwks.json)");
        }
        if !self.push_allow.is_empty() {
            text.push_str(&format!(
                ", webhooks allowed in {}",
                self.push_allow.join(", ")
            ));
        }
        text
    }

    /// The push settings the options ask for; `None` without push.
    pub(crate) fn settings(&self) -> Result<Option<PushSettings>, String> {
        if !(self.push || !self.push_allow.is_empty() || self.push_key.is_some() || self.push_sign)
        {
            return Ok(None);
        }
        let mut settings = PushSettings::default();
        for net in &self.push_allow {
            let net: IpNet = net.parse().map_err(|e| format!("--push-allow: {e}"))?;
            settings = settings.allow(net);
        }
        let key = match &self.push_key {
            Some(path) => {
                let pem = std::fs::read_to_string(path)
                    .map_err(|e| format!("--push-key: cannot read {}: {e}", path.display()))?;
                Some(
                    SigningKey::from_pkcs8_pem(Algorithm::Es256, &pem)
                        .map_err(|e| format!("--push-key {}: {e}", path.display()))?,
                )
            }
            None if self.push_sign => Some(
                SigningKey::generate(Algorithm::Es256).map_err(|e| format!("--push-sign: {e}"))?,
            ),
            None => None,
        };
        if let Some(key) = key {
            settings = settings.sign_with(key);
        }
        Ok(Some(settings))
    }
}

/// The card-signing options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct CardSignArgs {
    /// Sign the agent card with this key (a PKCS#8 PEM file: ES256 on P-256, Ed25519, or RS256
    /// on an RSA key of 2048 to 8192 bits), and list its public key in the JWKS at /.well-known/jwks.json, which the signature's `jku`
    /// names.
    #[arg(long, value_name = "PEM")]
    card_key: Option<std::path::PathBuf>,
    /// Sign the agent card with a new ES256 key made at start.
    #[arg(long, conflicts_with = "card_key")]
    card_sign: bool,
    /// The key id (`kid`) of the card's signing key (default: its RFC 7638 thumbprint).
    #[arg(long, value_name = "KID")]
    card_kid: Option<String>,
}

impl CardSignArgs {
    /// How the card is signed; `None` when it is not.
    pub(crate) fn signing(&self) -> Result<Option<CardSigning>, String> {
        let key = match &self.card_key {
            Some(path) => {
                let pem = std::fs::read_to_string(path)
                    .map_err(|e| format!("--card-key: cannot read {}: {e}", path.display()))?;
                SigningKey::from_pkcs8_pem(Algorithm::Es256, &pem)
                    .or_else(|_| SigningKey::from_pkcs8_pem(Algorithm::EdDsa, &pem))
                    .or_else(|_| SigningKey::from_pkcs8_pem(Algorithm::Rs256, &pem))
                    .map_err(|e| {
                        format!(
                            "--card-key {}: not a PKCS#8 PEM key for ES256 (P-256), EdDSA \
                             (Ed25519) or RS256 (RSA, 2048 to 8192 bits): {e}",
                            path.display()
                        )
                    })?
            }
            None if self.card_sign => {
                SigningKey::generate(Algorithm::Es256).map_err(|e| format!("--card-sign: {e}"))?
            }
            None if self.card_kid.is_some() => {
                return Err("--card-kid names the key of --card-key or --card-sign".to_owned());
            }
            None => return Ok(None),
        };
        let key = match &self.card_kid {
            Some(kid) => key.with_kid(kid.clone()),
            None => key,
        };
        Ok(Some(CardSigning::new(key)))
    }
}

/// The authentication options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct AuthArgs {
    /// Require a bearer JWT whose signature verifies with a key of this JWKS URL (refreshed
    /// when a token names an unknown key); requests without one get 401 with
    /// `WWW-Authenticate: Bearer`. The card declares the Bearer scheme.
    #[arg(long, value_name = "URL", conflicts_with = "oidc_issuer")]
    jwks: Option<String>,
    /// Require a bearer JWT of this OpenID Connect issuer (keys found through its discovery
    /// document; `iss` must be the issuer). The card declares the OpenID Connect scheme.
    #[arg(long = "oidc-issuer", value_name = "URL")]
    oidc_issuer: Option<String>,
    /// The `aud` tokens must carry (repeatable: any of them).
    #[arg(long, value_name = "AUD")]
    audience: Vec<String>,
    /// The `iss` tokens must carry (with --jwks).
    #[arg(long, value_name = "ISS")]
    issuer: Option<String>,
    /// Accept this API key in the `X-API-Key` header, as `NAME=KEY` (the caller is NAME) or
    /// `KEY` (the caller is `api-key-N`); repeatable. With a token option too, either one
    /// suffices. Prefer A2A_SERVE_API_KEY: a flag's value is visible in the process table.
    #[arg(
        long = "api-key",
        env = "A2A_SERVE_API_KEY",
        hide_env_values = true,
        value_name = "KEY"
    )]
    api_key: Vec<String>,
    /// Mutual TLS (with --tls-cert): ask clients for a certificate issued by a CA of this PEM
    /// file. The card declares an mtlsSecurityScheme; the caller is the certificate's first URI
    /// SAN, else its first DNS SAN, else its subject CN; a request without a certificate gets
    /// 401 with `WWW-Authenticate: MutualTLS` (an untrusted or expired one fails the handshake).
    #[arg(long = "client-ca", value_name = "PEM", requires = "tls_cert")]
    client_ca: Option<PathBuf>,
    /// With --client-ca: refuse the TLS handshake of a client without a valid certificate, so
    /// that none of its requests (the card's included) reaches the agent.
    #[arg(long = "client-cert-required", requires = "client_ca")]
    client_cert_required: bool,
}

impl AuthArgs {
    /// What the banner says of the callers' authentication.
    pub(crate) fn describe(&self) -> String {
        let mut schemes = Vec::new();
        if let Some(jwks) = &self.jwks {
            schemes.push(format!("bearer JWT (keys of {jwks})"));
        }
        if let Some(issuer) = &self.oidc_issuer {
            schemes.push(format!("OpenID Connect (issuer {issuer})"));
        }
        if !self.api_key.is_empty() {
            let n = self.api_key.len();
            schemes.push(format!(
                "API key ({n} key{})",
                if n == 1 { "" } else { "s" }
            ));
        }
        if let Some(ca) = &self.client_ca {
            let required = if self.client_cert_required {
                ", required in the handshake"
            } else {
                ""
            };
            schemes.push(format!(
                "client certificate (CA {}{required})",
                ca.display()
            ));
        }
        if schemes.is_empty() {
            "none (every caller is anonymous)".to_owned()
        } else {
            schemes.join(" or ")
        }
    }

    /// Whether any caller check is asked for.
    pub(crate) fn any(&self) -> bool {
        self.jwks.is_some()
            || self.oidc_issuer.is_some()
            || !self.api_key.is_empty()
            || self.client_ca.is_some()
    }

    /// The client certificates `--client-ca` and `--client-cert-required` ask for, if any.
    pub(crate) fn client_auth(&self) -> Result<Option<ClientAuth>, String> {
        let Some(path) = &self.client_ca else {
            return Ok(None);
        };
        let pem =
            std::fs::read(path).map_err(|e| format!("--client-ca {}: {e}", path.display()))?;
        let bundle =
            CaBundle::from_pem(pem).map_err(|e| format!("--client-ca {}: {e}", path.display()))?;
        Ok(Some(if self.client_cert_required {
            ClientAuth::Required(bundle)
        } else {
            ClientAuth::Optional(bundle)
        }))
    }

    /// Declares the schemes in the card and builds the authenticator that follows its
    /// security requirements (any one scheme suffices); `None` without any option.
    pub(crate) fn apply(
        &self,
        card: AgentCard,
    ) -> Result<(AgentCard, Option<SecurityRequirements>), String> {
        if !self.any() {
            return Ok((card, None));
        }
        let mut card = card;
        let mut schemes: Vec<(&str, Arc<dyn Authenticator>)> = Vec::new();
        let mut config = JwtConfig::new();
        for audience in &self.audience {
            config = config.with_audience(audience.clone());
        }
        if let Some(issuer) = &self.issuer {
            config = config.with_issuer(issuer.clone());
        }
        if let Some(url) = &self.jwks {
            let jwt = JwtAuthenticator::new(KeySource::JwksUrl(url.clone()), config.clone())
                .map_err(|e| format!("--jwks: {e}"))?;
            card = card.with_security_scheme(
                "bearer",
                HttpAuthSecurityScheme::new("Bearer").with_bearer_format("JWT"),
            );
            schemes.push(("bearer", Arc::new(jwt)));
        }
        if let Some(issuer) = &self.oidc_issuer {
            let jwt = JwtAuthenticator::new(KeySource::OidcIssuer(issuer.clone()), config)
                .map_err(|e| format!("--oidc-issuer: {e}"))?;
            card = card.with_security_scheme(
                "oidc",
                OpenIdConnectSecurityScheme::new(format!(
                    "{}/.well-known/openid-configuration",
                    issuer.trim_end_matches('/')
                )),
            );
            schemes.push(("oidc", Arc::new(jwt)));
        }
        if !self.api_key.is_empty() {
            let mut keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "X-API-Key");
            for (n, given) in self.api_key.iter().enumerate() {
                let (name, key) = match given.split_once('=') {
                    Some((name, key)) if !name.is_empty() => (name.to_owned(), key),
                    _ => (format!("api-key-{}", n + 1), given.as_str()),
                };
                if key.is_empty() {
                    return Err(format!("--api-key `{name}=`: the key is empty"));
                }
                keys = keys.key(key, Principal::new(name));
            }
            card = card
                .with_security_scheme("apiKey", ApiKeySecurityScheme::new("header", "X-API-Key"));
            schemes.push(("apiKey", Arc::new(keys)));
        }
        if self.client_ca.is_some() {
            card = card.with_security_scheme(
                "mtls",
                MutualTlsSecurityScheme::new()
                    .with_description("A client certificate issued by the agent's client CA"),
            );
            schemes.push(("mtls", Arc::new(MtlsAuthenticator::new())));
        }
        card.security_requirements = schemes
            .iter()
            .map(|(name, _)| SecurityRequirement::new().with_scheme(*name, Vec::<String>::new()))
            .collect();
        let auth = SecurityRequirements::from_card(&card, schemes)?;
        Ok((card, Some(auth)))
    }
}

/// HTTPS for `a2a serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct TlsArgs {
    /// Serve HTTPS (and gRPC over TLS) with this certificate chain: a PEM file with the
    /// server's certificate first, then its intermediates; with --tls-key. The card's
    /// interfaces are then https URLs. HTTP/2 or HTTP/1.1 is chosen by ALPN.
    #[arg(long = "tls-cert", value_name = "PEM", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert: a PEM file (PKCS#8, RSA or EC).
    #[arg(long = "tls-key", value_name = "PEM", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
}

impl TlsArgs {
    /// What the banner says of TLS.
    pub(crate) fn describe(&self) -> String {
        match &self.tls_cert {
            Some(cert) => format!("on (certificate {})", cert.display()),
            None => "off".to_owned(),
        }
    }

    /// The TLS settings, with `client_auth`; `None` without --tls-cert.
    pub(crate) fn settings(
        &self,
        client_auth: Option<ClientAuth>,
    ) -> Result<Option<TlsSettings>, String> {
        let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) else {
            return Ok(None);
        };
        let read = |flag: &str, path: &PathBuf| {
            std::fs::read(path).map_err(|e| format!("{flag} {}: {e}", path.display()))
        };
        let settings = TlsSettings::from_pem(read("--tls-cert", cert)?, read("--tls-key", key)?)
            .map_err(|e| {
                format!(
                    "--tls-cert {} --tls-key {}: {e}",
                    cert.display(),
                    key.display()
                )
            })?;
        Ok(Some(match client_auth {
            Some(client_auth) => settings.with_client_auth(client_auth),
            None => settings,
        }))
    }
}

/// The task store options of `a2a serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct StoreArgs {
    /// Where tasks live: `memory` (the default; lost when the server stops),
    /// `sqlite://PATH` (a file, created when missing), or `postgres://USER@HOST/DB` (several
    /// replicas of one agent may share it: docs/replicas.md).
    #[arg(
        id = "store",
        long = "store",
        value_name = "URL",
        default_value = "memory"
    )]
    pub(crate) url: String,
    /// With a PostgreSQL store: the schema its tables live in (created when missing).
    #[arg(id = "store_schema", long = "store-schema", value_name = "NAME")]
    pub(crate) schema: Option<String>,
    /// With a SQLite or PostgreSQL store: how long a running task stays leased to this
    /// server without a renewal; when the server dies, its running tasks end FAILED once
    /// their lease ran out (docs/replicas.md).
    #[arg(
        id = "store_lease",
        long = "store-lease",
        value_name = "SECONDS",
        default_value_t = 30.0
    )]
    pub(crate) lease: f64,
    /// With a PostgreSQL store: carry every task's events to the replicas over NATS
    /// JetStream at this URL (`nats://HOST:4222`) instead of PostgreSQL's NOTIFY: tasks stay
    /// in PostgreSQL (docs/replicas.md).
    #[arg(id = "events", long = "events", value_name = "NATS_URL")]
    pub(crate) events: Option<String>,
}

/// The store `a2a serve` keeps its tasks in, as the options named it.
pub(crate) enum OpenStore {
    /// SQLite or PostgreSQL.
    Sql(SqlStore),
    /// PostgreSQL, its events over NATS JetStream (`--events`).
    Nats(a2a_store_nats::NatsEvents<SqlStore>),
}

impl OpenStore {
    /// Hands the store to `builder`; on PostgreSQL (shared by replicas) an agent here stops
    /// when another replica cancels its task.
    pub(crate) fn install(self, builder: a2a_server::ServiceBuilder) -> a2a_server::ServiceBuilder {
        use a2a_server::HandlerConfig;
        match self {
            OpenStore::Sql(store) => {
                let shared = store.dialect() == Dialect::Postgres;
                builder
                    .handler_config(HandlerConfig::default().with_shared_store(shared))
                    .store(store)
            }
            OpenStore::Nats(store) => builder
                .handler_config(HandlerConfig::default().with_shared_store(true))
                .store(store),
        }
    }
}

impl StoreArgs {
    /// What the banner says of the store: its URL without a password, and what it keeps.
    pub(crate) fn describe(&self) -> String {
        if self.url == "memory" {
            return "memory (the tasks end with the server)".to_owned();
        }
        let mut text = without_password(&self.url);
        if let Some(schema) = &self.schema {
            text.push_str(&format!(", schema {schema}"));
        }
        if let Some(events) = &self.events {
            text.push_str(&format!(
                ", events over NATS JetStream at {}",
                without_password(events)
            ));
        }
        text.push_str(&format!(", running tasks leased for {} s", self.lease));
        text
    }

    /// The SQL store the options name (connected and migrated); `None` for `memory`.
    pub(crate) async fn open(&self) -> Result<Option<OpenStore>, CliError> {
        if self.url == "memory" {
            if self.events.is_some() {
                return Err(CliError::usage(
                    "--events needs --store postgres://...".to_owned(),
                ));
            }
            if self.schema.is_some() {
                return Err(CliError::usage(
                    "--store-schema needs --store postgres://...".to_owned(),
                ));
            }
            return Ok(None);
        }
        let dialect =
            Dialect::of(&self.url).map_err(|err| CliError::usage(format!("--store: {err}")))?;
        let lease = std::time::Duration::try_from_secs_f64(self.lease)
            .ok()
            .filter(|lease| !lease.is_zero())
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--store-lease must be a positive number of seconds, got {}",
                    self.lease
                ))
            })?;
        if self.events.is_some() && dialect != Dialect::Postgres {
            return Err(CliError::usage(
                "--events needs --store postgres://...".to_owned(),
            ));
        }
        let mut config = SqlConfig::new(&self.url)
            .with_lease(Some(lease))
            .with_log_notify(self.events.is_none());
        match (&self.schema, dialect) {
            (Some(schema), Dialect::Postgres) => config = config.with_schema(schema),
            (Some(_), _) => {
                return Err(CliError::usage(
                    "--store-schema needs --store postgres://...".to_owned(),
                ));
            }
            (None, _) => {}
        }
        let sql = SqlStore::connect(config)
            .await
            .map_err(|err| CliError::new(Code::Unreachable, format!("--store: {err}")))?;
        let Some(events) = &self.events else {
            return Ok(Some(OpenStore::Sql(sql)));
        };
        a2a_store_nats::NatsEvents::connect(sql, a2a_store_nats::NatsConfig::new(events))
            .await
            .map(|store| Some(OpenStore::Nats(store)))
            .map_err(|err| CliError::new(Code::Unreachable, format!("--events: {err}")))
    }
}

/// A URL with the password of its user info (`user:password@`) shown as `***`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_urls_are_shown_without_their_password() {
        assert_eq!(
            without_password("postgres://a2a:secret@db.internal:5432/agents?sslmode=require"),
            "postgres://a2a:***@db.internal:5432/agents?sslmode=require"
        );
        assert_eq!(
            without_password("postgres://postgres@127.0.0.1/test"),
            "postgres://postgres@127.0.0.1/test"
        );
        assert_eq!(
            without_password("sqlite:///tmp/a:b@c.db"),
            "sqlite:///tmp/a:b@c.db"
        );
        let store = StoreArgs {
            url: "postgres://u:p@h/db".to_owned(),
            schema: Some("echo".to_owned()),
            lease: 30.0,
            events: None,
        };
        assert_eq!(
            store.describe(),
            "postgres://u:***@h/db, schema echo, running tasks leased for 30 s"
        );
        let store = StoreArgs {
            events: Some("nats://u:p@n:4222".to_owned()),
            ..store
        };
        assert_eq!(
            store.describe(),
            "postgres://u:***@h/db, schema echo, events over NATS JetStream at \
             nats://u:***@n:4222, running tasks leased for 30 s"
        );
    }
}
