//! `a2a auth login|logout`: OAuth 2 tokens for agents whose card declares an OAuth 2 scheme,
//! by the device-code flow (RFC 8628: a person approves in a browser) or the client-credentials
//! flow (a program with its own id and secret).
//!
//! The token goes to the token store ([`crate::tokens`]), keyed by the agent's origin; `auth
//! logout` removes it.

use std::collections::BTreeMap;
use std::time::Duration;

use a2a_types::v1::{AgentCard, OAuthFlows, SecurityScheme};
use base64::Engine as _;
use bytes::Bytes;
use clap::{Args, Subcommand};
use serde_json::Value;

use crate::connect;
use crate::diag::Diag;
use crate::error::{CliError, Code, quote};
use crate::options::Common;
use crate::output::Out;
use crate::tokens::{Stored, agent_key, now, read_store, store_path, write_store};

/// The `auth` commands.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum AuthCommand {
    /// Get an OAuth 2 token for the agent (device code, or client credentials) and store it
    /// for later commands.
    Login(LoginArgs),
    /// Forget the token stored for the agent.
    Logout(LogoutArgs),
}

/// The arguments of `auth login`.
#[derive(Args, Debug, Clone)]
pub(crate) struct LoginArgs {
    /// The OAuth 2 scheme of the card to use, by name (default: the first OAuth 2 scheme).
    #[arg(long, value_name = "NAME")]
    pub(crate) scheme: Option<String>,
    /// The OAuth client id.
    #[arg(long = "client-id", env = "A2ACLI_CLIENT_ID", value_name = "ID")]
    pub(crate) client_id: Option<String>,
    /// The OAuth client secret (client credentials; confidential device-code clients). Prefer
    /// A2ACLI_CLIENT_SECRET: a flag's value is visible in the process table.
    #[arg(
        long = "client-secret",
        env = "A2ACLI_CLIENT_SECRET",
        hide_env_values = true,
        value_name = "SECRET"
    )]
    pub(crate) client_secret: Option<String>,
    /// A scope to ask for (repeatable; default: every scope the flow lists).
    #[arg(long = "scope", value_name = "SCOPE")]
    pub(crate) scopes: Vec<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The arguments of `auth logout`.
#[derive(Args, Debug, Clone)]
pub(crate) struct LogoutArgs {
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Form encoding (`application/x-www-form-urlencoded`).
fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", connect::encode(k), connect::encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Runs an `auth` command.
pub(crate) async fn run(command: &AuthCommand, diag: &Diag) -> Result<(), CliError> {
    match command {
        AuthCommand::Login(args) => login(args, diag).await,
        AuthCommand::Logout(args) => logout(&args.common, diag).await,
    }
}

async fn logout(opts: &Common, diag: &Diag) -> Result<(), CliError> {
    let card = connect::resolve(opts, diag).await?;
    let key = agent_key(&card.card)
        .ok_or_else(|| CliError::new(Code::CardInvalid, "the agent card lists no interface"))?;
    let path = store_path();
    let mut store = read_store(&path).map_err(|m| CliError::new(Code::Internal, m))?;
    let mut out = Out::new(opts.output, false, false);
    let removed = store.tokens.remove(&key).is_some();
    if removed {
        write_store(&path, &store)?;
    } else {
        diag.note(&format!("no token was stored for {key}"));
    }
    if out.json() {
        out.value(&serde_json::json!({"agent": key, "removed": removed}));
    } else {
        out.field("Agent", &key);
        out.field("Removed", if removed { "yes" } else { "no" });
    }
    Ok(())
}

/// The scheme to log in with: an OAuth 2 scheme with its flows, or an OpenID Connect one with
/// its discovery URL.
enum Picked<'c> {
    OAuth(&'c OAuthFlows),
    Oidc(&'c str),
}

/// The OAuth 2 or OpenID Connect scheme to log in with.
fn pick_scheme<'c>(
    card: &'c AgentCard,
    wanted: Option<&str>,
) -> Result<(&'c str, Picked<'c>), CliError> {
    let oauth = card
        .security_schemes
        .iter()
        .filter_map(|(name, scheme)| match scheme {
            SecurityScheme::OAuth2(oauth) => Some((name.as_str(), Picked::OAuth(&oauth.flows))),
            SecurityScheme::OpenIdConnect(oidc) => Some((
                name.as_str(),
                Picked::Oidc(oidc.open_id_connect_url.as_str()),
            )),
            _ => None,
        });
    let found = match wanted {
        Some(wanted) => oauth.clone().find(|(name, _)| *name == wanted),
        None => oauth.clone().next(),
    };
    found.ok_or_else(|| {
        let names: Vec<&str> = oauth.map(|(n, _)| n).collect();
        let message = match (wanted, names.is_empty()) {
            (_, true) => {
                "the agent's card declares no OAuth 2 or OpenID Connect scheme to log in with"
                    .to_owned()
            }
            (Some(w), false) => format!(
                "the card has no OAuth 2 or OpenID Connect scheme `{w}`; it has {}",
                names.join(", ")
            ),
            (None, false) => unreachable!("a scheme is found when there is one"),
        };
        CliError::usage(message).hint("`a2a card get` lists the agent's security schemes")
    })
}

/// The flows an OpenID Connect provider offers, from its discovery document: client
/// credentials when a client secret is given, else the device-code flow.
async fn discover(
    builder: &a2a_client::ClientBuilder,
    url: &str,
    args: &LoginArgs,
) -> Result<OAuthFlows, CliError> {
    let unusable = |why: String| {
        CliError::new(
            Code::CardInvalid,
            format!("the OpenID Connect discovery document {url} {why}"),
        )
    };
    let request = http::Request::get(url)
        .header(http::header::ACCEPT, "application/json")
        .body(Bytes::new())
        .map_err(|err| unusable(format!("is not a usable URL: {err}")))?;
    let (head, bytes) = builder
        .send_http("OAuth", request)
        .await
        .map_err(|error| CliError::from_client(&error, &crate::error::Context::default()))?;
    if !head.status.is_success() {
        return Err(unusable(format!("answered HTTP {}", head.status)));
    }
    let document: Value =
        serde_json::from_slice(&bytes).map_err(|err| unusable(format!("is not JSON: {err}")))?;
    let endpoint = |name: &str| {
        document
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let token_url =
        endpoint("token_endpoint").ok_or_else(|| unusable("names no token_endpoint".to_owned()))?;
    // OpenID Connect's own scope; `--scope` asks for others.
    let offered = BTreeMap::from([("openid".to_owned(), String::new())]);
    if args.client_secret.is_some() {
        return Ok(OAuthFlows::ClientCredentials(
            a2a_types::v1::ClientCredentialsOAuthFlow::new(token_url, offered),
        ));
    }
    let device = endpoint("device_authorization_endpoint").ok_or_else(|| {
        unusable(
            "names no device_authorization_endpoint; log in with --client-id and \
             A2ACLI_CLIENT_SECRET (client credentials) instead"
                .to_owned(),
        )
    })?;
    Ok(OAuthFlows::DeviceCode(
        a2a_types::v1::DeviceCodeOAuthFlow::new(device, token_url, offered),
    ))
}

async fn login(args: &LoginArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let card = connect::resolve(opts, diag).await?;
    let key = agent_key(&card.card)
        .ok_or_else(|| CliError::new(Code::CardInvalid, "the agent card lists no interface"))?;
    let (scheme, picked) = pick_scheme(&card.card, args.scheme.as_deref())?;
    if let Some(secret) = &args.client_secret {
        diag.secret(secret);
    }
    let builder = connect::logged(connect::builder(opts, diag)?, diag);
    let discovered;
    let flows = match picked {
        Picked::OAuth(flows) => flows,
        Picked::Oidc(url) => {
            discovered = discover(&builder, url, args).await?;
            &discovered
        }
    };
    let client_id = args.client_id.as_deref().unwrap_or("a2a-cli");
    let (token_url, scopes, token) = match flows {
        OAuthFlows::DeviceCode(flow) => {
            let scopes = scopes(args, flow.scopes.keys());
            let token = device_code(
                &builder,
                diag,
                opts,
                &flow.device_authorization_url,
                &flow.token_url,
                client_id,
                args.client_secret.as_deref(),
                &scopes,
            )
            .await?;
            (flow.token_url.clone(), scopes, token)
        }
        OAuthFlows::ClientCredentials(flow) => {
            let (Some(id), Some(secret)) = (&args.client_id, &args.client_secret) else {
                return Err(CliError::usage(format!(
                    "the scheme `{scheme}` is the client-credentials flow: it needs --client-id and \
                     --client-secret (or A2ACLI_CLIENT_ID and A2ACLI_CLIENT_SECRET)"
                )));
            };
            let scopes = scopes(args, flow.scopes.keys());
            let mut pairs = vec![("grant_type", "client_credentials")];
            let joined = scopes.join(" ");
            if !joined.is_empty() {
                pairs.push(("scope", joined.as_str()));
            }
            let basic = base64::engine::general_purpose::STANDARD.encode(format!(
                "{}:{}",
                connect::encode(id),
                connect::encode(secret)
            ));
            diag.secret(&basic);
            let (status, body) =
                post_form(&builder, &flow.token_url, &form(&pairs), Some(&basic)).await?;
            let token = token_answer(status, &body, &flow.token_url)?;
            (flow.token_url.clone(), scopes, token)
        }
        _ => {
            return Err(CliError::new(
                Code::Internal,
                format!(
                    "the scheme `{scheme}` uses an OAuth 2 flow `a2a auth login` does not run (it \
                     runs the device-code and client-credentials flows)"
                ),
            )
            .hint("get a token another way and pass it with A2ACLI_BEARER (or --bearer)"));
        }
    };
    diag.secret(&token.access_token);
    let expires_at = token.expires_in.map(|s| now() + s);
    let path = store_path();
    let mut store = read_store(&path).map_err(|m| CliError::new(Code::Internal, m))?;
    store.tokens.insert(
        key.clone(),
        Stored {
            access_token: token.access_token,
            token_type: token.token_type.clone(),
            expires_at,
            scheme: scheme.to_owned(),
        },
    );
    write_store(&path, &store)?;
    diag.debug(&format!(
        "token from {token_url} stored in {}",
        path.display()
    ));
    let mut out = Out::new(opts.output, false, false);
    let expires =
        expires_at.map_or_else(|| "unknown".to_owned(), |at| format!("{at} (unix seconds)"));
    if out.json() {
        out.value(&serde_json::json!({
            "agent": key, "scheme": scheme, "tokenType": token.token_type,
            "scopes": scopes, "expiresAt": expires_at, "store": path.display().to_string(),
        }));
    } else {
        out.field("Agent", &key);
        out.field("Scheme", scheme);
        out.field("Token-Type", &token.token_type);
        out.field("Scopes", &scopes.join(" "));
        out.field("Expires", &expires);
        out.field("Stored", &path.display().to_string());
    }
    Ok(())
}

fn scopes<'a>(args: &LoginArgs, offered: impl Iterator<Item = &'a String>) -> Vec<String> {
    if args.scopes.is_empty() {
        offered.cloned().collect()
    } else {
        args.scopes.clone()
    }
}

/// A token endpoint's answer.
struct Token {
    access_token: String,
    token_type: String,
    expires_in: Option<u64>,
}

async fn post_form(
    builder: &a2a_client::ClientBuilder,
    url: &str,
    body: &str,
    basic: Option<&str>,
) -> Result<(http::StatusCode, Value), CliError> {
    let mut request = http::Request::post(url)
        .header(
            http::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .header(http::header::ACCEPT, "application/json");
    if let Some(basic) = basic {
        request = request.header(http::header::AUTHORIZATION, format!("Basic {basic}"));
    }
    let request = request.body(Bytes::from(body.to_owned())).map_err(|err| {
        CliError::new(
            Code::CardInvalid,
            format!("the OAuth URL `{url}` is not usable: {err}"),
        )
    })?;
    let (head, bytes) = builder
        .send_http("OAuth", request)
        .await
        .map_err(|error| match error {
            a2a_client::Error::Config(message) => CliError::new(
                Code::CardInvalid,
                format!("the card's OAuth URL is not usable: {message}"),
            ),
            other => CliError::from_client(&other, &crate::error::Context::default()),
        })?;
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((head.status, value))
}

/// A successful token answer, or the refusal as an error.
fn token_answer(status: http::StatusCode, body: &Value, url: &str) -> Result<Token, CliError> {
    if status.is_success()
        && let Some(access_token) = body.get("access_token").and_then(Value::as_str)
    {
        return Ok(Token {
            access_token: access_token.to_owned(),
            token_type: body
                .get("token_type")
                .and_then(Value::as_str)
                .unwrap_or("Bearer")
                .to_owned(),
            expires_in: body.get("expires_in").and_then(Value::as_u64),
        });
    }
    let error = body
        .get("error")
        .and_then(Value::as_str)
        .unwrap_or("no token in the answer");
    let description = body
        .get("error_description")
        .and_then(Value::as_str)
        .map(|d| format!(" ({d})"))
        .unwrap_or_default();
    Err(CliError::new(
        Code::AuthFailed,
        format!("the token endpoint {url} answered HTTP {status}: {error}{description}"),
    )
    .hint("check the client id and secret, and the scopes asked for"))
}

#[allow(clippy::too_many_arguments)]
async fn device_code(
    builder: &a2a_client::ClientBuilder,
    diag: &Diag,
    opts: &Common,
    authorization_url: &str,
    token_url: &str,
    client_id: &str,
    secret: Option<&str>,
    scopes: &[String],
) -> Result<Token, CliError> {
    let joined = scopes.join(" ");
    let mut pairs = vec![("client_id", client_id)];
    if !joined.is_empty() {
        pairs.push(("scope", joined.as_str()));
    }
    let (status, body) = post_form(builder, authorization_url, &form(&pairs), None).await?;
    let field = |name: &str| body.get(name).and_then(Value::as_str).map(str::to_owned);
    let (Some(device_code), Some(user_code), Some(uri)) = (
        field("device_code"),
        field("user_code"),
        field("verification_uri"),
    ) else {
        return Err(CliError::new(
            Code::AuthFailed,
            format!(
                "the device authorization endpoint {authorization_url} answered HTTP {status} without a device code"
            ),
        ));
    };
    diag.secret(&device_code);
    let complete = field("verification_uri_complete")
        .map(|c| format!(" (or open {c})"))
        .unwrap_or_default();
    diag.note(&format!(
        "to log in, open {uri} and enter the code {user_code}{complete}; waiting for the approval"
    ));
    let mut interval =
        Duration::from_secs(body.get("interval").and_then(Value::as_u64).unwrap_or(5))
            .max(Duration::from_millis(10));
    let lifetime = body
        .get("expires_in")
        .and_then(Value::as_u64)
        .map(Duration::from_secs);
    let deadline = tokio::time::Instant::now() + lifetime.unwrap_or(opts.timeout).min(opts.timeout);
    let mut pairs = vec![
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ("device_code", device_code.as_str()),
        ("client_id", client_id),
    ];
    if let Some(secret) = secret {
        pairs.push(("client_secret", secret));
    }
    let body = form(&pairs);
    loop {
        tokio::select! {
            () = tokio::time::sleep(interval) => {}
            () = tokio::time::sleep_until(deadline) => {
                return Err(CliError::new(Code::Timeout, "the login was not approved in time")
                    .hint(format!("run `a2a auth login -a {}` again", quote(opts.agent_card.as_deref().unwrap_or_default()))));
            }
        }
        let (status, answer) = post_form(builder, token_url, &body, None).await?;
        match answer.get("error").and_then(Value::as_str) {
            Some("authorization_pending") => diag.debug("the login is not approved yet"),
            Some("slow_down") => interval += Duration::from_secs(5),
            _ => return token_answer(status, &answer, token_url),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_oauth_error() {
        let body = serde_json::json!({"error": "access_denied", "error_description": "no"});
        let error = token_answer(http::StatusCode::BAD_REQUEST, &body, "http://t/token")
            .err()
            .unwrap();
        assert_eq!(error.code, Code::AuthFailed);
        assert_eq!(
            error.message,
            "the token endpoint http://t/token answered HTTP 400 Bad Request: access_denied (no)"
        );
        let good = serde_json::json!({"access_token": "t", "expires_in": 60});
        let token = token_answer(http::StatusCode::OK, &good, "u").ok().unwrap();
        assert_eq!(
            (token.token_type.as_str(), token.expires_in),
            ("Bearer", Some(60))
        );
    }
}
