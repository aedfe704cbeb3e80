//! Running the tests against an agent: the card, the bindings it declares, each test's steps
//! on each binding (ACTS §4, §6, §7, §8, §9), and a result per test and binding.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use a2a_jsonrpc::ErrorCode;
use a2a_types::protocol::{Operation, rest};
use futures_util::StreamExt as _;
use serde_json::{Map, Value, json};

use crate::load::{Suite, TestCase};
use crate::matcher::{Mismatch, check, compact, lookup, select};
use crate::report::{KnownFailures, Outcome, Report, TestResult};
use crate::webhook::{PushConfig, Receiver, WebhookOptions};
use crate::wire::{Answer, Http};

/// The client of the gRPC binding (feature `grpc`).
#[cfg(feature = "grpc")]
type GrpcClient = a2a_client::A2aClient;
/// Without the feature, gRPC tests are skipped.
#[cfg(not(feature = "grpc"))]
type GrpcClient = ();

/// A binding of the protocol, as ACTS names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Binding {
    /// JSON-RPC 2.0 (`jsonrpc`; the card's `JSONRPC`).
    JsonRpc,
    /// HTTP+JSON (`rest`; the card's `HTTP+JSON`).
    Rest,
    /// gRPC (`grpc`; the card's `GRPC`).
    Grpc,
}

impl Binding {
    /// Every binding.
    pub const ALL: [Binding; 3] = [Binding::JsonRpc, Binding::Rest, Binding::Grpc];

    /// The ACTS name: `jsonrpc`, `rest` or `grpc`.
    pub fn acts_name(self) -> &'static str {
        match self {
            Binding::JsonRpc => "jsonrpc",
            Binding::Rest => "rest",
            Binding::Grpc => "grpc",
        }
    }

    /// The card's `protocolBinding`.
    pub fn card_name(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::Rest => "HTTP+JSON",
            Binding::Grpc => "GRPC",
        }
    }

    /// The binding of an ACTS or card name (`rest`, `HTTP+JSON`, `http-json`, ...).
    pub fn parse(name: &str) -> Option<Binding> {
        match name.to_ascii_lowercase().as_str() {
            "jsonrpc" | "json-rpc" => Some(Binding::JsonRpc),
            "rest" | "http+json" | "http-json" | "httpjson" => Some(Binding::Rest),
            "grpc" => Some(Binding::Grpc),
            _ => None,
        }
    }
}

/// How to run a suite.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The bindings to run on; `None`: each the card declares.
    pub bindings: Option<Vec<Binding>>,
    /// Known failures (reported XFAIL, or XPASS when they pass).
    pub known_failures: KnownFailures,
    /// Variables the documents' own cannot give (`webhookUrl`, tokens); `SUT_BASE_URL` is the
    /// agent's URL unless given here.
    pub variables: HashMap<String, String>,
    /// The behaviour prefixes (ACTS §11) the agent implements; `None`: the standard contract.
    pub behaviors: Option<Vec<String>>,
    /// The time one request (or one stream) may take, unless the test says otherwise.
    pub timeout: Duration,
    /// How many tests run at once (results are still reported in suite order).
    pub concurrency: usize,
    /// The runner's webhook receiver (ACTS §3.2 `webhook_endpoint`): started for the run
    /// unless this is `None` or `webhookUrl` is among the [`variables`](Self::variables).
    pub webhook: Option<WebhookOptions>,
}

impl Options {
    /// Runs on these bindings only (default: each the card declares).
    #[must_use]
    pub fn with_bindings(mut self, bindings: impl IntoIterator<Item = Binding>) -> Self {
        self.bindings = Some(bindings.into_iter().collect());
        self
    }

    /// Known failures, reported XFAIL (XPASS when they pass).
    #[must_use]
    pub fn with_known_failures(mut self, known: KnownFailures) -> Self {
        self.known_failures = known;
        self
    }

    /// A variable for the suite (`webhookUrl`, tokens, `SUT_BASE_URL`).
    #[must_use]
    pub fn with_variable(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.variables.insert(name.into(), value.into());
        self
    }

    /// The behaviour prefixes the agent implements (default: the standard contract).
    #[must_use]
    pub fn with_behaviors(mut self, behaviors: impl IntoIterator<Item = String>) -> Self {
        self.behaviors = Some(behaviors.into_iter().collect());
        self
    }

    /// The time one request or stream may take (default 10 s).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many tests run at once (default 8).
    #[must_use]
    pub fn with_concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// The runner's webhook receiver: where it listens, the URL the agent is given, how long a
    /// test waits for a delivery (default: [`WebhookOptions::default`]).
    #[must_use]
    pub fn with_webhook(mut self, webhook: WebhookOptions) -> Self {
        self.webhook = Some(webhook);
        self
    }

    /// No webhook receiver: the tests that need one are skipped.
    #[must_use]
    pub fn without_webhook(mut self) -> Self {
        self.webhook = None;
        self
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bindings: None,
            known_failures: KnownFailures::default(),
            variables: HashMap::new(),
            behaviors: None,
            timeout: Duration::from_secs(10),
            concurrency: 8,
            webhook: Some(WebhookOptions::default()),
        }
    }
}

/// A run that could not start: the agent's card could not be read, or the webhook receiver
/// could not listen.
#[derive(Debug)]
#[non_exhaustive]
pub struct RunError {
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunError {}

/// Runs `suite` against the agent at `agent` (its base URL, or its card's URL), every test on
/// every binding (in test order), calling `progress` with each result as it is known.
///
/// Client tests (ACTS §10) are skipped here: they run against a client.
///
/// Unless `webhookUrl` is given, the runner's webhook receiver ([`Options::webhook`]) serves
/// for the run: each test's `webhookUrl` is its URL (with `/{test id}/{binding}` appended),
/// and a test that needs a receiver (ACTS §3.2 `webhook_endpoint`, or a `runner-special` push
/// test that sets a config on `{{webhookUrl}}`) passes only when the deliveries for its task
/// arrive and are what A2A 1.0 §4.3.3 says (see [`WebhookOptions`]).
pub async fn run(
    suite: &Suite,
    agent: &str,
    options: &Options,
    progress: &mut (dyn FnMut(&TestResult) + Send),
) -> Result<Report, RunError> {
    let http = Http::new();
    let (base, card_url) = card_location(agent);
    let answer = http
        .send(
            "GET",
            &card_url,
            &[("accept".into(), "application/json".into())],
            None,
            options.timeout,
        )
        .await
        .map_err(|e| RunError {
            message: format!("the agent card could not be read: {e}"),
        })?;
    if answer.status != 200 {
        return Err(RunError {
            message: format!("the agent card at {card_url} answered {}", answer.status),
        });
    }
    let card = answer.json();
    if !card.is_object() {
        return Err(RunError {
            message: format!("the agent card at {card_url} is not a JSON object"),
        });
    }
    let receiver = match &options.webhook {
        Some(webhook) if !options.variables.contains_key("webhookUrl") => Some(
            Receiver::start(webhook)
                .await
                .map_err(|message| RunError { message })?,
        ),
        _ => None,
    };
    let interfaces = interfaces(&card);
    let bindings = options
        .bindings
        .clone()
        .unwrap_or_else(|| interfaces.iter().map(|(b, _)| *b).collect());
    let mut report = Report {
        agent: agent.to_owned(),
        results: Vec::new(),
    };
    let grpc = grpc_client(&bindings, &interfaces, &card_url, suite).await;
    let jobs: Vec<(&TestCase, Binding)> = suite
        .tests
        .iter()
        .flat_map(|test| bindings.iter().map(move |&b| (test, b)))
        .collect();
    let (http, card, base, card_url, grpc, interfaces, receiver) = (
        &http,
        &card,
        &base,
        &card_url,
        &grpc,
        &interfaces,
        receiver.as_ref(),
    );
    // Tests share no state (ACTS §4): up to `concurrency` run at once, reported in order.
    let mut results = futures_util::stream::iter(jobs)
        .map(|(test, binding)| async move {
            let started = Instant::now();
            let endpoint = interfaces
                .iter()
                .find(|(b, _)| *b == binding)
                .map(|(_, url)| url.clone());
            let grpc_missing = match (binding, grpc) {
                (Binding::Grpc, Err(reason)) => Some(reason.clone()),
                _ => None,
            };
            let reason = skip_reason(test, binding, endpoint.as_deref(), card, options, receiver)
                .or(grpc_missing);
            let verdict = match reason {
                Some(reason) => Verdict::skip(reason),
                None => {
                    let mut ctx = Ctx {
                        http,
                        binding,
                        endpoint: endpoint.unwrap_or_default(),
                        base: base.clone(),
                        card_url: card_url.clone(),
                        test,
                        options,
                        captures: HashMap::new(),
                        rpc_id: 0,
                        grpc: grpc.as_ref().ok(),
                        webhook: receiver,
                        push_configs: Vec::new(),
                    };
                    ctx.run().await
                }
            };
            let result = TestResult {
                id: test.id.clone(),
                name: test.name.clone(),
                suite: test.suite.clone(),
                level: test.level,
                binding: binding.acts_name().to_owned(),
                outcome: verdict.outcome,
                step: verdict.step,
                message: verdict.message,
                mismatch: verdict.mismatch.map(|m| *m),
                duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            };
            known_failure(result, &options.known_failures)
        })
        .buffered(options.concurrency.max(1));
    while let Some(result) = results.next().await {
        progress(&result);
        report.results.push(result);
    }
    Ok(report)
}

/// A result as the known failures see it: a listed failure is XFAIL, a listed pass XPASS.
pub(crate) fn known_failure(mut result: TestResult, known: &KnownFailures) -> TestResult {
    let Some(known) = known.find(&result.id, &result.binding) else {
        return result;
    };
    let reason = match &known.spec {
        Some(spec) => format!("{} ({spec})", known.reason),
        None => known.reason.clone(),
    };
    match result.outcome {
        Outcome::Fail => {
            let got = result.message.take().unwrap_or_default();
            result.outcome = Outcome::Xfail;
            result.message = Some(format!("known failure: {reason}; {got}"));
        }
        Outcome::Pass => {
            result.outcome = Outcome::Xpass;
            result.message = Some(format!("listed as a known failure but passed: {reason}"));
        }
        _ => {}
    }
    result
}

/// The gRPC client, when a gRPC interface is to be run; else why gRPC tests are skipped.
#[cfg(feature = "grpc")]
async fn grpc_client(
    bindings: &[Binding],
    interfaces: &[(Binding, String)],
    card_url: &str,
    suite: &Suite,
) -> Result<GrpcClient, String> {
    if !bindings.contains(&Binding::Grpc) || !interfaces.iter().any(|(b, _)| *b == Binding::Grpc) {
        return Err("the card declares no 1.0 GRPC interface".into());
    }
    let version = suite
        .tests
        .first()
        .map_or("1.0", |t| t.spec_version.as_str());
    crate::grpc::connect(card_url, if version.is_empty() { "1.0" } else { version }).await
}

/// Without the feature `grpc`, gRPC tests are skipped.
#[cfg(not(feature = "grpc"))]
async fn grpc_client(
    _bindings: &[Binding],
    _interfaces: &[(Binding, String)],
    _card_url: &str,
    _suite: &Suite,
) -> Result<GrpcClient, String> {
    Err("this runner was built without its gRPC driver (feature `grpc` of a2a-acts)".into())
}

/// The agent's base URL and its card's URL, from either.
fn card_location(agent: &str) -> (String, String) {
    let agent = agent.trim_end_matches('/');
    if let Some(i) = agent.find("/.well-known/") {
        (agent[..i].to_owned(), agent.to_owned())
    } else if agent.ends_with(".json") {
        let base = agent.rsplit_once('/').map_or(agent, |(b, _)| b);
        (base.to_owned(), agent.to_owned())
    } else {
        (
            agent.to_owned(),
            format!("{agent}{}", a2a_types::protocol::paths::AGENT_CARD),
        )
    }
}

/// The 1.0 interfaces of the card, in its order, one per binding.
fn interfaces(card: &Value) -> Vec<(Binding, String)> {
    let mut out: Vec<(Binding, String)> = Vec::new();
    for interface in card["supportedInterfaces"].as_array().into_iter().flatten() {
        let version = interface["protocolVersion"].as_str().unwrap_or("1.0");
        if !version.starts_with('1') {
            continue;
        }
        let (Some(binding), Some(url)) = (
            interface["protocolBinding"]
                .as_str()
                .and_then(Binding::parse),
            interface["url"].as_str(),
        ) else {
            continue;
        };
        if !out.iter().any(|(b, _)| *b == binding) {
            out.push((binding, url.to_owned()));
        }
    }
    out
}

/// Why `test` is not run on `binding`, if it is not.
fn skip_reason(
    test: &TestCase,
    binding: Binding,
    endpoint: Option<&str>,
    card: &Value,
    options: &Options,
    receiver: Option<&Receiver>,
) -> Option<String> {
    if test.is_client_test() {
        return Some("a client test (ACTS §10): it runs against a client, not an agent".into());
    }
    if needs_receiver(test) {
        if test.tags.iter().any(|t| t == "client") {
            return Some(format!(
                "a requirement on the webhook receiver, i.e. the client ({}; 1.0 §13.2: clients \
                 MUST validate webhook authenticity): the agent plays no part in it, and the \
                 receiver here is the runner's own",
                test.spec_ref.as_deref().unwrap_or("1.0 §13.2")
            ));
        }
        if receiver.is_none() {
            return Some(if options.variables.contains_key("webhookUrl") {
                "webhookUrl is given, so the deliveries go to that webhook, not the runner's \
                 receiver, and cannot be checked (advertise the runner's receiver instead: \
                 --webhook-url)"
                    .into()
            } else {
                "the runner's webhook receiver is off (ACTS §3.2 webhook_endpoint)".into()
            });
        }
    }
    if let Some(list) = &test.transport
        && !list.iter().any(|t| Binding::parse(t) == Some(binding))
    {
        return Some(format!("the test is for {} only", list.join(", ")));
    }
    if endpoint.is_none() {
        return Some(format!(
            "the card declares no 1.0 {} interface",
            binding.card_name()
        ));
    }
    if binding == Binding::Grpc && test.steps.iter().any(|s| s.get("raw").is_some()) {
        return Some("a raw HTTP step cannot run on gRPC".into());
    }
    for requirement in &test.runner_requirements {
        match requirement.as_str() {
            "header_inspection" => {}
            "webhook_endpoint" if receiver.is_some() => {}
            "auth_credentials" if options.variables.keys().any(|k| k.ends_with("Token")) => {}
            other => {
                return Some(format!(
                    "the runner requirement `{other}` is not provided (ACTS §3.2)"
                ));
            }
        }
    }
    if let Some(behaviors) = &options.behaviors
        && let Some(missing) = test
            .requires_behaviors
            .iter()
            .find(|b| !behaviors.contains(b))
    {
        return Some(format!(
            "the agent does not implement the behaviour `{missing}`"
        ));
    }
    if let Some(pre) = &test.preconditions {
        // A capability the card leaves out is false (proto3's default).
        let mut declared = card.get("capabilities").cloned().unwrap_or(json!({}));
        if let (Some(wanted), Some(map)) = (
            pre.get("capabilities").and_then(Value::as_object),
            declared.as_object_mut(),
        ) {
            for (name, value) in wanted {
                if value.is_boolean() {
                    map.entry(name.clone()).or_insert(Value::Bool(false));
                }
            }
        }
        if let Some(capabilities) = pre.get("capabilities")
            && let Err(m) = check(capabilities, Some(&declared), "$.capabilities")
        {
            return Some(format!("precondition: the card's {m}"));
        }
        for skill in pre["skills"].as_array().into_iter().flatten() {
            let id = skill["id"].as_str().unwrap_or_default();
            let declared = card["skills"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["id"] == id));
            if !declared {
                return Some(format!("precondition: the card has no skill `{id}`"));
            }
        }
        if let Some(list) = pre["transport"].as_array()
            && !list
                .iter()
                .any(|t| t.as_str().and_then(Binding::parse) == Some(binding))
        {
            return Some("precondition: another transport".into());
        }
        for uri in pre["extensions"].as_array().into_iter().flatten() {
            let declared = card["capabilities"]["extensions"]
                .as_array()
                .is_some_and(|e| e.iter().any(|e| &e["uri"] == uri));
            if !declared {
                return Some(format!(
                    "precondition: the card declares no extension {uri}"
                ));
            }
        }
    }
    None
}

/// Whether `test` needs the runner's webhook receiver: ACTS §3.2 `webhook_endpoint`, or (the
/// draft declares no runner requirements) a `runner-special` push test, whose description has
/// the runner verify the deliveries, that sets a push config on `{{webhookUrl}}`.
fn needs_receiver(test: &TestCase) -> bool {
    let tagged = |tag: &str| test.tags.iter().any(|t| t == tag);
    test.runner_requirements
        .iter()
        .any(|r| r == "webhook_endpoint")
        || (tagged("runner-special")
            && tagged("push")
            && test.steps.iter().any(|step| {
                step["operation"].as_str().and_then(operation)
                    == Some(Operation::CreateTaskPushNotificationConfig)
                    && step["params"].to_string().contains("{{webhookUrl}}")
            }))
}

/// How a test went, before known failures are applied.
struct Verdict {
    outcome: Outcome,
    step: Option<String>,
    message: Option<String>,
    mismatch: Option<Box<Mismatch>>,
}

impl Verdict {
    fn skip(reason: String) -> Self {
        Verdict {
            outcome: Outcome::Skip,
            step: None,
            message: Some(reason),
            mismatch: None,
        }
    }
}

/// A step's failure.
#[derive(Debug)]
struct Failure {
    message: String,
    mismatch: Option<Box<Mismatch>>,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            mismatch: None,
        }
    }
}

impl From<Mismatch> for Failure {
    fn from(m: Mismatch) -> Self {
        Failure {
            message: m.to_string(),
            mismatch: Some(Box::new(m)),
        }
    }
}

/// What a step answered, unwrapped: the domain object or the error, and the HTTP answer.
struct Outcome1 {
    answer: Answer,
    /// The assertion root (ACTS §4.2) of a success.
    root: Option<Value>,
    /// The error, as `{error_type, code, message, details}`.
    error: Option<Value>,
    /// The events of a stream, each the `StreamResponse` (or an error).
    events: Option<Vec<Value>>,
}

/// One test on one binding.
struct Ctx<'a> {
    http: &'a Http,
    binding: Binding,
    endpoint: String,
    base: String,
    card_url: String,
    test: &'a TestCase,
    options: &'a Options,
    /// `step.var` and `step.response` of the steps run so far.
    captures: HashMap<String, Value>,
    rpc_id: u64,
    /// The gRPC client (for the gRPC binding).
    #[cfg_attr(not(feature = "grpc"), allow(dead_code))]
    grpc: Option<&'a GrpcClient>,
    /// The runner's webhook receiver.
    webhook: Option<&'a Receiver>,
    /// The push configs the test set on the receiver, to check the deliveries against.
    push_configs: Vec<PushConfig>,
}

impl Ctx<'_> {
    async fn run(&mut self) -> Verdict {
        let test = self.test;
        for step in &test.steps {
            let id = step["id"].as_str().unwrap_or("?").to_owned();
            if let Err(f) = self.step(step).await {
                return Verdict {
                    outcome: Outcome::Fail,
                    step: Some(id),
                    message: Some(f.message),
                    mismatch: f.mismatch,
                };
            }
        }
        for assertion in &test.assertions {
            if let Err(f) = self.named_assertion(assertion) {
                return Verdict {
                    outcome: Outcome::Fail,
                    step: Some("assertions".into()),
                    message: Some(f.message),
                    mismatch: f.mismatch,
                };
            }
        }
        if let (true, Some(receiver)) = (needs_receiver(test), self.webhook) {
            let checked = if self.push_configs.is_empty() {
                Err("the test set no push config on the runner's webhook".to_owned())
            } else {
                receiver
                    .verify(&test.id, self.binding.acts_name(), &self.push_configs)
                    .await
            };
            if let Err(message) = checked {
                return Verdict {
                    outcome: Outcome::Fail,
                    step: Some("webhook".into()),
                    message: Some(message),
                    mismatch: None,
                };
            }
        }
        Verdict {
            outcome: Outcome::Pass,
            step: None,
            message: None,
            mismatch: None,
        }
    }

    async fn step(&mut self, step: &Value) -> Result<(), Failure> {
        let id = step["id"].as_str().unwrap_or("?").to_owned();
        if let Some(ms) = step["delay_ms"].as_u64() {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        if let Some(assertion) = step.get("assertion") {
            return self.named_assertion(assertion);
        }
        if step.get("client_response").is_some() {
            return Err("a client step (ACTS §10) in a server test"
                .to_owned()
                .into());
        }
        let repeat = step.get("repeat");
        let attempts = repeat
            .and_then(|r| r["max_attempts"].as_u64())
            .unwrap_or(if repeat.is_some() { 10 } else { 1 });
        let delay = repeat.and_then(|r| r["delay_ms"].as_u64()).unwrap_or(1000);
        let backoff = repeat.and_then(|r| r["backoff"].as_str()).unwrap_or("none");
        let mut attempt = 0;
        let outcome = loop {
            attempt += 1;
            let outcome = self.execute(step).await?;
            let Some(until) = repeat.and_then(|r| r["until"].as_str()) else {
                break outcome;
            };
            let root = outcome.root.clone().unwrap_or(Value::Null);
            if until_holds(until, &root)? {
                break outcome;
            }
            if attempt >= attempts {
                return Err(format!(
                    "`{until}` did not hold after {attempts} attempts (last: {})",
                    compact(&root)
                )
                .into());
            }
            let wait = match backoff {
                "linear" => delay * attempt,
                "exponential" => delay.saturating_mul(1 << attempt.min(10)),
                _ => delay,
            };
            tokio::time::sleep(Duration::from_millis(wait.min(5000))).await;
        };
        // The response is kept before the expectations: a failing step's answer is in its
        // message, a passing one's in `{{id.response}}`.
        let response = outcome
            .root
            .clone()
            .or_else(|| outcome.events.clone().map(Value::Array))
            .or_else(|| outcome.error.clone())
            .unwrap_or(Value::Null);
        self.captures.insert(format!("{id}.response"), response);
        self.expectations(step, &outcome)?;
        if let Some(capture) = step["capture"].as_object() {
            let root = outcome.root.clone().unwrap_or(Value::Null);
            for (name, path) in capture {
                let path = path.as_str().unwrap_or_default();
                let value = lookup(&root, path).cloned().ok_or_else(|| {
                    format!(
                        "capture `{name}`: nothing at `{path}` in {}",
                        compact(&root)
                    )
                })?;
                self.captures.insert(format!("{id}.{name}"), value);
            }
        }
        for assertion in step["assertions"].as_array().into_iter().flatten() {
            self.named_assertion(assertion)?;
        }
        Ok(())
    }

    fn expectations(&self, step: &Value, outcome: &Outcome1) -> Result<(), Failure> {
        if let Some(expected) = step.get("expect_error") {
            let expected = self.interpolate(expected)?;
            let Some(error) = &outcome.error else {
                return Err(format!(
                    "expected an error, the call succeeded: {}",
                    compact(&outcome.root.clone().unwrap_or(Value::Null))
                )
                .into());
            };
            check(&error_expectation(expected), Some(error), "$.error")?;
        }
        if let Some(expected) = step.get("expect") {
            let expected = self.interpolate(expected)?;
            let raw = step.get("raw").is_some();
            // `status: error` (or an `error` assertion) expects the call to fail.
            let wants_error =
                expected.get("status") == Some(&json!("error")) || expected.get("error").is_some();
            if !raw
                && !wants_error
                && let Some(error) = &outcome.error
            {
                return Err(format!("the call failed: {}", compact(error)).into());
            }
            match expected.get("status") {
                Some(Value::String(s)) if s == "error" && outcome.error.is_none() => {
                    return Err("expected the call to fail, it succeeded".to_owned().into());
                }
                Some(Value::String(s)) if s == "error" => {}
                Some(status) => check(status, Some(&json!(outcome.answer.status)), "$status")?,
                None => {}
            }
            // Keys besides status, headers and body are assertions on the answer itself
            // (`task: ...`, `error: ...`), as the suite writes them.
            let direct: Map<String, Value> = expected
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| !["status", "headers", "body"].contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !direct.is_empty() {
                let answer = match (&outcome.error, raw) {
                    (Some(error), false) => json!({"error": error}),
                    _ if raw => outcome.answer.json(),
                    _ => outcome.root.clone().unwrap_or(Value::Null),
                };
                check(&Value::Object(direct), Some(&answer), "$")?;
            }
            if let Some(headers) = expected.get("headers").and_then(Value::as_object) {
                let got = outcome.answer.headers_json();
                for (name, assertion) in headers {
                    let name = name.to_ascii_lowercase();
                    check(assertion, got.get(&name), &format!("$headers.{name}"))?;
                }
            }
            if let Some(body) = expected.get("body") {
                let root = if step.get("raw").is_some() {
                    outcome.answer.json()
                } else {
                    outcome.root.clone().unwrap_or(Value::Null)
                };
                check(body, Some(&root), "$")?;
            }
        }
        if let Some(expected) = step.get("expect_stream") {
            let expected = event_keys(self.interpolate(expected)?);
            let Some(events) = &outcome.events else {
                return Err(match &outcome.error {
                    Some(error) => {
                        format!("expected a stream, the call failed: {}", compact(error))
                    }
                    None => "expected a stream, the answer was not text/event-stream".into(),
                }
                .into());
            };
            stream_expectations(&expected, events)?;
        }
        Ok(())
    }

    /// Sends a step's request and unwraps the answer.
    async fn execute(&mut self, step: &Value) -> Result<Outcome1, Failure> {
        if let Some(raw) = step.get("raw") {
            return self.raw(&self.interpolate(raw)?).await;
        }
        let name = step["operation"]
            .as_str()
            .ok_or_else(|| "a step with neither `operation`, `raw` nor `assertion`".to_owned())?;
        let params = self.interpolate(step.get("params").unwrap_or(&json!({})))?;
        let timeout = step["expect_stream"]["timeout_ms"]
            .as_u64()
            .map_or(self.options.timeout, Duration::from_millis);
        // `get_agent_card` with `extended: true` is the extended card (the suite's spelling).
        let name = if name == "get_agent_card" && params.get("extended") == Some(&json!(true)) {
            "get_extended_agent_card"
        } else {
            name
        };
        let params = match (name, params) {
            ("get_extended_agent_card", Value::Object(mut map)) => {
                map.remove("extended");
                Value::Object(map)
            }
            (_, params) => params,
        };
        if name == "get_agent_card" {
            let answer = self
                .http
                .send("GET", &self.card_url, &[], None, timeout)
                .await?;
            let root = answer.json();
            return Ok(Outcome1 {
                root: (answer.status == 200).then_some(root),
                error: (answer.status != 200).then(|| json!({"status": answer.status})),
                answer,
                events: None,
            });
        }
        let operation =
            operation(name).ok_or_else(|| format!("unknown operation `{name}` (ACTS §4.1)"))?;
        let params = request_params(operation, params);
        if operation == Operation::CreateTaskPushNotificationConfig
            && let Some(receiver) = self.webhook
            && params["url"].as_str()
                == Some(&receiver.url_for(&self.test.id, self.binding.acts_name()))
            && let Some(config) = PushConfig::of(&params)
        {
            self.push_configs.push(config);
        }
        let version = if self.test.spec_version.is_empty() {
            "1.0"
        } else {
            &self.test.spec_version
        };
        let mut headers = vec![("a2a-version".to_owned(), version.to_owned())];
        let answer = match self.binding {
            Binding::JsonRpc => {
                self.rpc_id += 1;
                let body = json!({"jsonrpc": "2.0", "id": self.rpc_id, "method": operation.method(), "params": params});
                headers.push(("content-type".into(), "application/json".into()));
                if operation.is_streaming() {
                    headers.push(("accept".into(), "text/event-stream".into()));
                }
                self.http
                    .send(
                        "POST",
                        &self.endpoint,
                        &headers,
                        Some(body.to_string().into_bytes()),
                        timeout,
                    )
                    .await?
            }
            Binding::Rest => {
                let (method, url, body) = rest_request(&self.endpoint, operation, &params);
                if body.is_some() {
                    headers.push(("content-type".into(), "application/json".into()));
                }
                if operation.is_streaming() {
                    headers.push(("accept".into(), "text/event-stream".into()));
                }
                self.http
                    .send(method, &url, &headers, body, timeout)
                    .await?
            }
            Binding::Grpc => return self.grpc_call(operation, &params, timeout).await,
        };
        Ok(unwrap(self.binding, answer))
    }

    #[cfg(feature = "grpc")]
    async fn grpc_call(
        &self,
        operation: Operation,
        params: &Value,
        timeout: Duration,
    ) -> Result<Outcome1, Failure> {
        let client = self.grpc.ok_or_else(|| "no gRPC client".to_owned())?;
        let answer = crate::grpc::call(client, operation, params, timeout).await?;
        Ok(Outcome1 {
            answer: Answer {
                status: if answer.error.is_some() { 0 } else { 200 },
                headers: Vec::new(),
                body: bytes::Bytes::new(),
                events: None,
            },
            root: answer.root,
            error: answer.error,
            events: answer.events,
        })
    }

    #[cfg(not(feature = "grpc"))]
    async fn grpc_call(
        &self,
        operation: Operation,
        _params: &Value,
        _timeout: Duration,
    ) -> Result<Outcome1, Failure> {
        Err(format!("{operation}: this runner was built without its gRPC driver").into())
    }

    async fn raw(&self, raw: &Value) -> Result<Outcome1, Failure> {
        let method = raw["method"].as_str().unwrap_or("GET");
        let path = raw["path"].as_str().unwrap_or("/");
        let url = if path == "/" {
            self.endpoint.clone()
        } else if path.starts_with("/.well-known/") {
            format!("{}{path}", self.base)
        } else {
            format!("{}{path}", self.endpoint.trim_end_matches('/'))
        };
        let headers: Vec<(String, String)> = raw["headers"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(n, v)| {
                (
                    n.clone(),
                    v.as_str().map_or_else(|| v.to_string(), str::to_owned),
                )
            })
            .collect();
        let body = match (raw.get("body_raw"), raw.get("body")) {
            (Some(text), _) => Some(text.as_str().unwrap_or_default().as_bytes().to_vec()),
            (None, Some(body)) => Some(with_message_id(body.clone()).to_string().into_bytes()),
            (None, None) => None,
        };
        let answer = self
            .http
            .send(method, &url, &headers, body, self.options.timeout)
            .await?;
        let json = answer.json();
        let error = json
            .get("error")
            .map(|e| normalize_error(self.binding, answer.status, e));
        let events = answer.events.as_ref().map(|events| {
            events
                .iter()
                .map(|d| serde_json::from_str(d).unwrap_or_else(|_| Value::String(d.clone())))
                .collect()
        });
        Ok(Outcome1 {
            root: Some(json),
            error,
            events,
            answer,
        })
    }

    /// Resolves the `{{...}}` references of `value` (ACTS §8, §12.2).
    fn interpolate(&self, value: &Value) -> Result<Value, Failure> {
        Ok(match value {
            Value::String(s) => self.text(s)?,
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| self.interpolate(i))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| Ok((k.clone(), self.interpolate(v)?)))
                    .collect::<Result<Map<_, _>, Failure>>()?,
            ),
            other => other.clone(),
        })
    }

    /// A string with its references resolved; a string that is one reference to a captured
    /// value becomes that value (a number stays a number).
    fn text(&self, s: &str) -> Result<Value, Failure> {
        if !s.contains("{{") {
            return Ok(Value::String(s.to_owned()));
        }
        let trimmed = s.trim();
        if trimmed.starts_with("{{")
            && trimmed.ends_with("}}")
            && trimmed.matches("{{").count() == 1
        {
            let name = trimmed[2..trimmed.len() - 2].trim();
            return self.variable(name, 0);
        }
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let end = rest[start..]
                .find("}}")
                .ok_or_else(|| format!("an unclosed `{{{{` in {s:?}"))?;
            let name = rest[start + 2..start + end].trim();
            match self.variable(name, 0)? {
                Value::String(v) => out.push_str(&v),
                other => out.push_str(&other.to_string()),
            }
            rest = &rest[start + end + 2..];
        }
        out.push_str(rest);
        Ok(Value::String(out))
    }

    fn variable(&self, name: &str, depth: u8) -> Result<Value, Failure> {
        if depth > 8 {
            return Err(format!("the variable `{name}` refers to itself").into());
        }
        if let Some(v) = self.captures.get(name) {
            return Ok(v.clone());
        }
        // The runner's receiver, a URL per test and binding (given only when the caller gave
        // no webhookUrl).
        if name == "webhookUrl"
            && let Some(receiver) = self.webhook
        {
            return Ok(Value::String(
                receiver.url_for(&self.test.id, self.binding.acts_name()),
            ));
        }
        if let Some(v) = self.options.variables.get(name) {
            return Ok(Value::String(v.clone()));
        }
        if name == "SUT_BASE_URL" {
            return Ok(Value::String(self.base.clone()));
        }
        if let Some(v) = self.test.variables.get(name) {
            let trimmed = v.trim();
            if trimmed.starts_with("{{") && trimmed.ends_with("}}") {
                return self.variable(trimmed[2..trimmed.len() - 2].trim(), depth + 1);
            }
            return self.text(v);
        }
        if let Some(env) = name.strip_prefix("env.") {
            return std::env::var(env)
                .map(Value::String)
                .map_err(|_| format!("the environment variable `{env}` is not set").into());
        }
        if name == "$uuid" {
            return Ok(Value::String(uuid::Uuid::new_v4().to_string()));
        }
        Err(format!("the variable `{name}` is not defined (ACTS §12.2)").into())
    }

    /// A named or inline assertion (ACTS §5.5).
    fn named_assertion(&self, assertion: &Value) -> Result<(), Failure> {
        let source = match &assertion["source"] {
            Value::String(s) => self.text(s)?,
            other => other.clone(),
        };
        let root = match assertion["path"].as_str() {
            Some(path) => lookup(&source, path).cloned().unwrap_or(Value::Null),
            None => source,
        };
        if let Some(expected) = assertion.get("match") {
            check(&self.interpolate(expected)?, Some(&root), "$")?;
        }
        for (kind, collection) in ["any", "all", "none"]
            .into_iter()
            .filter_map(|k| assertion.get(k).map(|c| (k, c)))
        {
            let path = collection["path"].as_str().unwrap_or_default();
            let expected = self.interpolate(&collection["match"])?;
            let items = select(&root, path)?;
            let results: Vec<Result<(), Mismatch>> = items
                .iter()
                .map(|item| check(&expected, Some(item), path))
                .collect();
            let passed = results.iter().filter(|r| r.is_ok()).count();
            let ok = match kind {
                "any" => passed > 0,
                "all" => passed == items.len(),
                _ => passed == 0,
            };
            if !ok {
                return Err(format!(
                    "`{kind}` of {} element(s) at `{path}`: {passed} match {}",
                    items.len(),
                    compact(&expected)
                )
                .into());
            }
        }
        Ok(())
    }
}

/// The operation of an ACTS name (and the names the suite uses besides §4.1's).
fn operation(name: &str) -> Option<Operation> {
    Some(match name {
        "send_message" => Operation::SendMessage,
        "send_streaming_message" => Operation::SendStreamingMessage,
        "get_task" => Operation::GetTask,
        "list_tasks" => Operation::ListTasks,
        "cancel_task" => Operation::CancelTask,
        "subscribe_to_task" => Operation::SubscribeToTask,
        "get_extended_agent_card" => Operation::GetExtendedAgentCard,
        "create_push_config" | "set_push_notification_config" => {
            Operation::CreateTaskPushNotificationConfig
        }
        "get_push_config" | "get_push_notification_config" => {
            Operation::GetTaskPushNotificationConfig
        }
        "list_push_configs" | "list_push_notification_configs" => {
            Operation::ListTaskPushNotificationConfigs
        }
        "delete_push_config" | "delete_push_notification_config" => {
            Operation::DeleteTaskPushNotificationConfig
        }
        other => Operation::from_method(other)?,
    })
}

/// The 1.0 request of the abstract params (ACTS §4.3): a message gets a `messageId` and its
/// role, a send's `taskId` / `contextId` go into its message, a push config's
/// `pushNotificationConfig` is flattened into the `TaskPushNotificationConfig`.
fn request_params(operation: Operation, params: Value) -> Value {
    let Value::Object(mut params) = params else {
        return params;
    };
    match operation {
        Operation::SendMessage | Operation::SendStreamingMessage => {
            let task_id = params.remove("taskId");
            let context_id = params.remove("contextId");
            if let Some(Value::Object(message)) = params.get_mut("message") {
                message
                    .entry("messageId")
                    .or_insert_with(|| Value::String(uuid::Uuid::new_v4().to_string()));
                message
                    .entry("role")
                    .or_insert_with(|| Value::String("ROLE_USER".into()));
                if let Some(id) = task_id {
                    message.entry("taskId").or_insert(id);
                }
                if let Some(id) = context_id {
                    message.entry("contextId").or_insert(id);
                }
            }
        }
        Operation::CreateTaskPushNotificationConfig => {
            if let Some(Value::Object(config)) = params.remove("pushNotificationConfig") {
                for (k, v) in config {
                    params.entry(k).or_insert(v);
                }
            }
        }
        _ => {}
    }
    Value::Object(params)
}

/// A raw body's message (a JSON-RPC request's `params.message`, or a REST send's `message`)
/// with a `messageId` when it has none: ACTS §12.4 has the runner generate one for every
/// request with a message, raw ones included (the specification requires it of a message).
fn with_message_id(mut body: Value) -> Value {
    let message = if body.get("jsonrpc").is_some() {
        body.get_mut("params").and_then(|p| p.get_mut("message"))
    } else {
        body.get_mut("message")
    };
    if let Some(Value::Object(message)) = message {
        message
            .entry("messageId")
            .or_insert_with(|| Value::String(uuid::Uuid::new_v4().to_string()));
    }
    body
}

/// The REST request of an operation: method, URL (path and query) and body.
fn rest_request(
    endpoint: &str,
    operation: Operation,
    params: &Value,
) -> (&'static str, String, Option<Vec<u8>>) {
    let route = operation.rest_route();
    let text = |k: &str| params.get(k).and_then(Value::as_str);
    let (task_id, config_id) = match operation {
        Operation::CreateTaskPushNotificationConfig
        | Operation::GetTaskPushNotificationConfig
        | Operation::ListTaskPushNotificationConfigs
        | Operation::DeleteTaskPushNotificationConfig => (text("taskId"), text("id")),
        _ => (text("id"), None),
    };
    let path = rest::path(operation, text("tenant"), task_id, config_id);
    let mut url = format!("{}{path}", endpoint.trim_end_matches('/'));
    let body = if route.method == "GET" || route.method == "DELETE" {
        let mut query = String::new();
        for (k, v) in params.as_object().into_iter().flatten() {
            if ["id", "taskId", "tenant"].contains(&k.as_str()) {
                continue;
            }
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            query.push(if query.is_empty() { '?' } else { '&' });
            rest::encode_query_component(k, &mut query);
            query.push('=');
            rest::encode_query_component(&v, &mut query);
        }
        url.push_str(&query);
        None
    } else {
        Some(params.to_string().into_bytes())
    };
    (route.method, url, body)
}

/// The answer of an operation, unwrapped (ACTS §4.2): the JSON-RPC `result` or the REST body, an
/// error in one shape, the events of a stream.
fn unwrap(binding: Binding, answer: Answer) -> Outcome1 {
    let event = |data: &String| -> Value {
        let value: Value =
            serde_json::from_str(data).unwrap_or_else(|_| Value::String(data.clone()));
        match binding {
            Binding::JsonRpc => match (value.get("result"), value.get("error")) {
                (Some(result), _) => result.clone(),
                (None, Some(error)) => json!({"error": normalize_error(binding, 200, error)}),
                _ => value,
            },
            _ => match value.get("error") {
                Some(error) => json!({"error": normalize_error(binding, 200, error)}),
                None => value,
            },
        }
    };
    if let Some(events) = &answer.events {
        let events: Vec<Value> = events.iter().map(event).collect();
        // A stream whose only event is an error is the call's error.
        let error = match events.as_slice() {
            [only] => only.get("error").cloned(),
            _ => None,
        };
        return Outcome1 {
            events: error.is_none().then_some(events),
            root: None,
            error,
            answer,
        };
    }
    let json = answer.json();
    let (root, error) = match binding {
        Binding::JsonRpc => match (json.get("result"), json.get("error")) {
            (Some(result), _) => (Some(result.clone()), None),
            (None, Some(error)) => (None, Some(normalize_error(binding, answer.status, error))),
            _ => (
                None,
                Some(
                    json!({"error_type": "InvalidResponse", "message": format!("HTTP {}: {}", answer.status, compact(&json))}),
                ),
            ),
        },
        _ if (200..300).contains(&answer.status) => (Some(json), None),
        _ => {
            let error = json.get("error").cloned().unwrap_or(json);
            (None, Some(normalize_error(binding, answer.status, &error)))
        }
    };
    Outcome1 {
        answer,
        root,
        error,
        events: None,
    }
}

/// An error as `{error_type, message, details, status}`: the catalogue's name of its JSON-RPC
/// code, or of the `ErrorInfo` reason of a `google.rpc.Status`.
fn normalize_error(binding: Binding, status: u16, error: &Value) -> Value {
    let details = error
        .get("details")
        .or_else(|| error.get("data"))
        .cloned()
        .unwrap_or(Value::Null);
    let reason = details
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|d| d.get("reason").and_then(Value::as_str))
        .and_then(ErrorCode::from_reason);
    let code = match binding {
        Binding::JsonRpc => error
            .get("code")
            .and_then(Value::as_i64)
            .and_then(|c| i32::try_from(c).ok())
            .map(ErrorCode::from)
            .or(reason),
        _ => reason,
    };
    let name = code
        .and_then(ErrorCode::name)
        .map(str::to_owned)
        .unwrap_or_else(|| format!("HTTP {status}"));
    json!({
        "error_type": name,
        "message": error.get("message").cloned().unwrap_or(Value::Null),
        "details": details,
        "status": status,
    })
}

/// An `expect_error` block in the terms of [`normalize_error`]'s view: ACTS's error names
/// mapped to the specification's, and the suite's JSON-RPC spellings of the fields (`code` for
/// `error_type`, `data` for `details`: JSON-RPC's `error.data` is the `details` of the
/// other bindings' google.rpc.Status, 1.0 §9.5 and §11.6) to those of ACTS §6.2.
fn error_expectation(expected: Value) -> Value {
    let mut expected = canonical_error_names(expected);
    if let Some(map) = expected.as_object_mut() {
        for (suite, ours) in [("code", "error_type"), ("data", "details")] {
            if !map.contains_key(ours)
                && let Some(value) = map.remove(suite)
            {
                map.insert(ours.into(), value);
            }
        }
    }
    expected
}

/// ACTS's error names where the specification's catalogue names them otherwise (ACTS §6.2 defers
/// to the specification).
fn canonical_error_names(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(
            match s.as_str() {
                "ExtendedCardNotSupportedError" => "ExtendedAgentCardNotConfiguredError",
                "StreamingNotSupportedError" => "UnsupportedOperationError",
                "JSONParseError" => "JSONParseError",
                other => other,
            }
            .to_owned(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(canonical_error_names).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, canonical_error_names(v)))
                .collect(),
        ),
        other => other,
    }
}

/// ACTS's snake-case event kinds as the 1.0 JSON names them.
fn event_keys(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(event_keys).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let k = match k.as_str() {
                        "status_update" => "statusUpdate".to_owned(),
                        "artifact_update" => "artifactUpdate".to_owned(),
                        _ => k,
                    };
                    (k, event_keys(v))
                })
                .collect(),
        ),
        other => other,
    }
}

/// The payload of a `StreamResponse` (the task, message, status or artifact update in it).
fn payload(event: &Value) -> Option<&Value> {
    ["task", "message", "statusUpdate", "artifactUpdate"]
        .into_iter()
        .find_map(|k| event.get(k))
}

/// An event assertion holds on the `StreamResponse` (`statusUpdate: {...}`) or on its payload
/// (`status: {...}`).
fn check_event(assertion: &Value, event: &Value, path: &str) -> Result<(), Mismatch> {
    match check(assertion, Some(event), path) {
        Ok(()) => Ok(()),
        Err(first) => match payload(event) {
            Some(inner) => check(assertion, Some(inner), path).map_err(|_| first),
            None => Err(first),
        },
    }
}

fn stream_expectations(expected: &Value, events: &[Value]) -> Result<(), Failure> {
    if let Some(error) = events.iter().find_map(|e| e.get("error")) {
        return Err(format!("the stream carried an error: {}", compact(error)).into());
    }
    let n = events.len();
    if let Some(min) = expected["min_count"].as_u64()
        && (n as u64) < min
    {
        return Err(format!("{n} events, at least {min} expected").into());
    }
    if let Some(max) = expected["max_count"].as_u64()
        && (n as u64) > max
    {
        return Err(format!("{n} events, at most {max} expected").into());
    }
    for (i, assertion) in expected["events"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let mut assertion = assertion.clone();
        let (any, index) = match assertion.as_object_mut() {
            Some(map) => {
                map.remove("description");
                let any = map
                    .remove("match")
                    .and_then(|m| m.as_str().map(str::to_owned))
                    == Some("any_position".into());
                let index = map.remove("index").and_then(|i| i.as_u64());
                (any, index.map_or(i, |i| i as usize))
            }
            None => (false, i),
        };
        if any {
            if !events
                .iter()
                .any(|e| check_event(&assertion, e, "$").is_ok())
            {
                return Err(
                    format!("no event matches {} (of {n} events)", compact(&assertion)).into(),
                );
            }
        } else {
            let event = events
                .get(index)
                .ok_or_else(|| format!("no event #{index} ({n} events)"))?;
            check_event(&assertion, event, &format!("$events[{index}]"))?;
        }
    }
    if let Some(each) = expected.get("each_event") {
        for (i, e) in events.iter().enumerate() {
            check_event(each, e, &format!("$events[{i}]"))?;
        }
    }
    if let Some(last) = expected.get("final_event") {
        let event = events
            .last()
            .ok_or_else(|| "the stream had no event".to_owned())?;
        check_event(last, event, &format!("$events[{}]", n.saturating_sub(1)))?;
    }
    if expected["ordering"] == "monotonic_state" {
        monotonic(events)?;
    }
    Ok(())
}

/// ACTS §7.1: no state after a terminal one, nothing back to SUBMITTED.
fn monotonic(events: &[Value]) -> Result<(), Failure> {
    const TERMINAL: [&str; 4] = [
        "TASK_STATE_COMPLETED",
        "TASK_STATE_FAILED",
        "TASK_STATE_CANCELED",
        "TASK_STATE_REJECTED",
    ];
    let mut previous: Option<&str> = None;
    for (i, event) in events.iter().enumerate() {
        let Some(state) = payload(event).and_then(|p| p["status"]["state"].as_str()) else {
            continue;
        };
        if let Some(prev) = previous {
            if TERMINAL.contains(&prev) && state != prev {
                return Err(format!("event #{i}: {state} after the terminal {prev}").into());
            }
            if state == "TASK_STATE_SUBMITTED" && prev != "TASK_STATE_SUBMITTED" {
                return Err(format!("event #{i}: back to SUBMITTED from {prev}").into());
            }
        }
        previous = Some(state);
    }
    Ok(())
}

/// ACTS §9.1: `path == value`, `path != value`, `path in [a, b]`.
fn until_holds(expression: &str, root: &Value) -> Result<bool, Failure> {
    let value_text = |path: &str| {
        lookup(root, path.trim()).map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
    };
    let unquote = |s: &str| s.trim().trim_matches('"').trim_matches('\'').to_owned();
    if let Some((path, list)) = expression.split_once(" in ") {
        let list = list.trim().trim_start_matches('[').trim_end_matches(']');
        let got = value_text(path);
        return Ok(list.split(',').map(unquote).any(|v| Some(v) == got));
    }
    if let Some((path, value)) = expression.split_once("!=") {
        return Ok(value_text(path) != Some(unquote(value)));
    }
    if let Some((path, value)) = expression.split_once("==") {
        return Ok(value_text(path) == Some(unquote(value)));
    }
    Err(
        format!("the `until` expression `{expression}` is none of ==, != and in (ACTS §9.1)")
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_map_per_binding_to_one_name() {
        let rpc = json!({"code": -32001, "message": "task t not found"});
        assert_eq!(
            normalize_error(Binding::JsonRpc, 200, &rpc)["error_type"],
            "TaskNotFoundError"
        );
        let status = json!({"code": 404, "status": "NOT_FOUND", "message": "task t not found",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]});
        assert_eq!(
            normalize_error(Binding::Rest, 404, &status)["error_type"],
            "TaskNotFoundError"
        );
        assert_eq!(
            normalize_error(Binding::Rest, 502, &json!({"message": "bad gateway"}))["error_type"],
            "HTTP 502"
        );
        // expect_error's `code` (or `error_type`), with ACTS's names.
        let expected = canonical_error_names(
            json!({"error_type": {"one_of": ["TaskNotFoundError", "ExtendedCardNotSupportedError"]}}),
        );
        assert_eq!(
            expected,
            json!({"error_type": {"one_of": ["TaskNotFoundError", "ExtendedAgentCardNotConfiguredError"]}})
        );
    }

    #[test]
    fn expect_error_data_is_held_against_the_error_details() {
        // CORE-ERR-007's block: JSON-RPC's `error.data` (an array of Any, 1.0 §9.5) is what the
        // view calls `details`, on every binding; the mismatch names what the agent sent.
        let rpc = json!({"code": -32001, "message": "Task not found", "data": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND",
             "domain": "a2a-protocol.org"}]});
        let status = json!({"code": 404, "status": "NOT_FOUND", "message": "Task not found",
            "details": rpc["data"].clone()});
        for (binding, http, error) in [(Binding::JsonRpc, 200, &rpc), (Binding::Rest, 404, &status)]
        {
            let view = normalize_error(binding, http, error);
            let object =
                error_expectation(json!({"code": "TaskNotFoundError", "data": {"type": "object"}}));
            assert_eq!(
                object,
                json!({"error_type": "TaskNotFoundError", "details": {"type": "object"}})
            );
            let mismatch = check(&object, Some(&view), "$.error").unwrap_err();
            assert_eq!(mismatch.path, "$.error.details");
            assert_eq!(mismatch.got, Some(rpc["data"].clone()));
            let array = error_expectation(json!({"code": "TaskNotFoundError",
                "data": {"type": "array", "count_gte": 1}}));
            assert_eq!(check(&array, Some(&view), "$.error"), Ok(()));
        }
        // A block that names `details` itself keeps it.
        assert_eq!(
            error_expectation(json!({"details": {"type": "array"}, "data": 1})),
            json!({"details": {"type": "array"}, "data": 1})
        );
    }

    #[test]
    fn rest_requests_from_abstract_params() {
        let (method, url, body) = rest_request(
            "http://h:1/",
            Operation::GetTask,
            &json!({"id": "a b", "historyLength": 0}),
        );
        assert_eq!(
            (method, url.as_str(), body),
            ("GET", "http://h:1/tasks/a%20b?historyLength=0", None)
        );
        let params = request_params(
            Operation::CreateTaskPushNotificationConfig,
            json!({"taskId": "t", "pushNotificationConfig": {"url": "https://w/"}}),
        );
        let (method, url, body) = rest_request(
            "http://h:1",
            Operation::CreateTaskPushNotificationConfig,
            &params,
        );
        assert_eq!(
            (method, url.as_str()),
            ("POST", "http://h:1/tasks/t/pushNotificationConfigs")
        );
        assert_eq!(
            serde_json::from_slice::<Value>(&body.unwrap()).unwrap(),
            json!({"taskId": "t", "url": "https://w/"})
        );
        let send = request_params(
            Operation::SendMessage,
            json!({"taskId": "t", "message": {"parts": [{"text": "x"}], "messageId": "m"}}),
        );
        assert_eq!(
            send,
            json!({"message": {"parts": [{"text": "x"}], "messageId": "m", "role": "ROLE_USER", "taskId": "t"}})
        );
    }

    #[test]
    fn stream_expectations_from_a_literal_acts_snippet() {
        let expected: Value = event_keys(
            yaml_serde::from_str(
                r#"
min_count: 2
ordering: monotonic_state
events:
  - match: any_position
    artifact:
      exists: true
final_event:
  one_of:
    - status_update:
        status:
          state: TASK_STATE_COMPLETED
"#,
            )
            .unwrap(),
        );
        let events = vec![
            json!({"task": {"id": "t", "status": {"state": "TASK_STATE_SUBMITTED"}}}),
            json!({"artifactUpdate": {"taskId": "t", "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}}),
            json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}}}),
        ];
        assert!(stream_expectations(&expected, &events).is_ok());
        let regressed = vec![
            events[2].clone(),
            json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING"}}}),
        ];
        assert_eq!(
            monotonic(&regressed).unwrap_err().message,
            "event #1: TASK_STATE_WORKING after the terminal TASK_STATE_COMPLETED"
        );
        assert_eq!(
            stream_expectations(&expected, &events[..1])
                .unwrap_err()
                .message,
            "1 events, at least 2 expected"
        );
    }

    #[test]
    fn until_expressions() {
        let root = json!({"status": {"state": "TASK_STATE_WORKING"}});
        assert!(until_holds("status.state == TASK_STATE_WORKING", &root).unwrap());
        assert!(
            !until_holds(
                "status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]",
                &root
            )
            .unwrap()
        );
        assert!(until_holds("status.state != TASK_STATE_FAILED", &root).unwrap());
        assert!(until_holds("status.state ~ x", &root).is_err());
    }
}
