//! The script of a [`MockAgent`](super::MockAgent): rules, what each matches, and the steps it
//! replies with; as Rust values or as a JSON or YAML document (`docs/mock.md`).

use std::fmt;
use std::time::Duration;

use a2a_types::v1::{AgentCard, Artifact, Message, Part, Struct, TaskState};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::error::A2aError;

/// A whole script: the agent's card, its rules (tried in order) and the steps for a message no
/// rule matches.
///
/// ```
/// use a2a_server::mock::Script;
///
/// let script = Script::from_yaml(
///     r#"
/// rules:
///   - match: { contains: weather }
///     reply:
///       - working: Looking outside
///       - artifact: { text: "Sunny, 21 °C" }
///   - match: { regex: "^order \\d+$" }
///     turns:
///       - [ { inputRequired: "Which size?" } ]
///       - [ { complete: "Ordered a {{text}} one" } ]
/// fallback:
///   - reply: "You said: {{text}}"
/// "#,
/// )
/// .unwrap();
/// assert_eq!(script.rules.len(), 2);
/// assert_eq!(script.rules[1].turns.len(), 2);
/// ```
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Script {
    /// The agent card, in any version's JSON (read by `a2a_types::card::parse_value`).
    /// Without one the mock serves [`MockAgent::default_card`](super::MockAgent::default_card).
    #[serde(default, deserialize_with = "card")]
    pub card: Option<AgentCard>,
    /// The rules, tried in order; the first that matches answers.
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// The steps for a message no rule matches. Without them such a message is refused with
    /// `UnsupportedOperationError` (-32004) naming the message, or, on a follow-up to a task,
    /// fails the task with that text.
    #[serde(default)]
    pub fallback: Option<Vec<Step>>,
}

impl Script {
    /// An empty script: no rules, no fallback.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a script from JSON.
    pub fn from_json(text: &str) -> Result<Self, ScriptError> {
        serde_json::from_str(text).map_err(|err| ScriptError(format!("JSON script: {err}")))
    }

    /// Reads a script from YAML (YAML 1.2 is a superset of JSON, so JSON reads as well).
    pub fn from_yaml(text: &str) -> Result<Self, ScriptError> {
        serde_yaml_ng::from_str(text).map_err(|err| ScriptError(format!("YAML script: {err}")))
    }

    /// Reads a script file: JSON when its name ends in `.json`, YAML otherwise.
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Self, ScriptError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|err| ScriptError(format!("cannot read {}: {err}", path.display())))?;
        let read = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        {
            Self::from_json(&text)
        } else {
            Self::from_yaml(&text)
        };
        read.map_err(|ScriptError(err)| ScriptError(format!("{}: {err}", path.display())))
    }

    /// Adds a rule after the others.
    #[must_use]
    pub fn rule(mut self, rule: Rule) -> Self {
        self.rules.push(rule);
        self
    }

    /// Sets the steps for a message no rule matches.
    #[must_use]
    pub fn fallback(mut self, steps: impl IntoIterator<Item = Step>) -> Self {
        self.fallback = Some(steps.into_iter().collect());
        self
    }

    /// Sets the agent card.
    #[must_use]
    pub fn card(mut self, card: AgentCard) -> Self {
        self.card = Some(card);
        self
    }
}

fn card<'de, D: Deserializer<'de>>(d: D) -> Result<Option<AgentCard>, D::Error> {
    let value = Option::<Value>::deserialize(d)?;
    value
        .map(|mut value| {
            // A card that names no endpoint is the card of this service, which lists its own
            // interfaces: read it as a 1.0 card, not as a 0.3 card without its `url`.
            if let Value::Object(card) = &mut value
                && !card.contains_key("url")
                && !card.contains_key("supportedInterfaces")
            {
                card.insert("supportedInterfaces".into(), Value::Array(Vec::new()));
            }
            a2a_types::card::parse_value(value)
                .map_err(|err| serde::de::Error::custom(format!("card: {err}")))
        })
        .transpose()
}

/// A script that cannot be read: the document and what is wrong with it (with its line and
/// column when the parser knows them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScriptError(pub(crate) String);

/// One rule: what it matches, and the turns it answers with.
///
/// `reply` is one turn; `turns` several: the first answers the message the rule matched, each
/// next one the follow-up message on the same task (after an `inputRequired` step). When a
/// rule has no turn left, a follow-up is matched against the rules like a new message.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(try_from = "RuleSpec")]
#[non_exhaustive]
pub struct Rule {
    /// The rule's name, as [`Received::rule`](super::Received::rule) reports it (default: `#N`,
    /// its index in the script).
    pub name: Option<String>,
    /// What the message must be like; every condition given must hold.
    pub matcher: Match,
    /// The turns, one per message of the task (at least one).
    pub turns: Vec<Vec<Step>>,
}

impl Rule {
    /// A rule matching what `matcher` matches, answering with one turn of `steps`.
    pub fn new(matcher: Match, steps: impl IntoIterator<Item = Step>) -> Self {
        Self {
            name: None,
            matcher,
            turns: vec![steps.into_iter().collect()],
        }
    }

    /// Names the rule.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Adds a turn: the steps that answer the next follow-up on the same task.
    #[must_use]
    pub fn then(mut self, steps: impl IntoIterator<Item = Step>) -> Self {
        self.turns.push(steps.into_iter().collect());
        self
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RuleSpec {
    #[serde(default)]
    name: Option<String>,
    #[serde(default, rename = "match")]
    matcher: Match,
    #[serde(default)]
    reply: Option<Vec<Step>>,
    #[serde(default)]
    turns: Option<Vec<Vec<Step>>>,
}

impl TryFrom<RuleSpec> for Rule {
    type Error = String;

    fn try_from(spec: RuleSpec) -> Result<Self, String> {
        let turns = match (spec.reply, spec.turns) {
            (Some(reply), None) => vec![reply],
            (None, Some(turns)) if !turns.is_empty() => turns,
            (None, Some(_)) => return Err("a rule's `turns` must hold at least one turn".into()),
            (Some(_), Some(_)) => {
                return Err("a rule has `reply` (one turn) or `turns` (several), not both".into());
            }
            (None, None) => return Err("a rule needs `reply` or `turns`".into()),
        };
        Ok(Self {
            name: spec.name,
            matcher: spec.matcher,
            turns,
        })
    }
}

/// What a rule matches. Every condition given must hold; an empty `Match` matches every
/// message.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Match {
    /// The message's text (its text parts joined with newlines) equals this.
    #[serde(default)]
    pub text: Option<String>,
    /// The message's text contains this.
    #[serde(default)]
    pub contains: Option<String>,
    /// The message's text matches this regular expression (`regex-lite` syntax; `(?i)` for
    /// case-insensitive).
    #[serde(default)]
    pub regex: Option<Pattern>,
    /// The message's `messageId` starts with this.
    #[serde(default)]
    pub message_id_prefix: Option<String>,
    /// The skill the message asks for: `skillId` (or `skill`) in the message's metadata, else in
    /// the request's.
    #[serde(default)]
    pub skill: Option<String>,
    /// Each of these keys is in the message's metadata (or else the request's) with this value.
    #[serde(default)]
    pub metadata: Struct,
}

impl Match {
    /// Matches every message.
    pub fn any() -> Self {
        Self::default()
    }

    /// The text equals `text`.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: Some(text.into()),
            ..Self::default()
        }
    }

    /// The text contains `needle`.
    pub fn contains(needle: impl Into<String>) -> Self {
        Self {
            contains: Some(needle.into()),
            ..Self::default()
        }
    }

    /// The text matches the regular expression `pattern`.
    pub fn regex(pattern: &str) -> Result<Self, ScriptError> {
        Ok(Self {
            regex: Some(Pattern::new(pattern)?),
            ..Self::default()
        })
    }

    /// And the message id starts with `prefix`.
    #[must_use]
    pub fn with_message_id_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.message_id_prefix = Some(prefix.into());
        self
    }

    /// And the message asks for the skill `skill`.
    #[must_use]
    pub fn with_skill(mut self, skill: impl Into<String>) -> Self {
        self.skill = Some(skill.into());
        self
    }

    /// And the metadata has `key` with `value`.
    #[must_use]
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    /// True when every condition holds for this message (and the request's metadata).
    pub fn matches(&self, message: &Message, request_metadata: Option<&Struct>) -> bool {
        let text = message.text();
        self.text.as_ref().is_none_or(|t| *t == text)
            && self
                .contains
                .as_ref()
                .is_none_or(|c| text.contains(c.as_str()))
            && self.regex.as_ref().is_none_or(|r| r.0.is_match(&text))
            && self
                .message_id_prefix
                .as_ref()
                .is_none_or(|p| message.message_id.as_str().starts_with(p.as_str()))
            && self.skill.as_ref().is_none_or(|skill| {
                skill_of(message, request_metadata).is_some_and(|asked| asked == skill)
            })
            && self.metadata.iter().all(|(key, want)| {
                metadata_value(message, request_metadata, key).is_some_and(|have| have == want)
            })
    }
}

fn metadata_value<'a>(
    message: &'a Message,
    request: Option<&'a Struct>,
    key: &str,
) -> Option<&'a Value> {
    message
        .metadata
        .as_ref()
        .and_then(|m| m.get(key))
        .or_else(|| request.and_then(|m| m.get(key)))
}

/// The skill a message asks for: `skillId` or `skill` in its metadata, else in the request's.
pub(crate) fn skill_of<'a>(message: &'a Message, request: Option<&'a Struct>) -> Option<&'a str> {
    ["skillId", "skill"]
        .iter()
        .find_map(|key| metadata_value(message, request, key).and_then(Value::as_str))
}

/// A compiled regular expression of a [`Match`].
#[derive(Clone)]
pub struct Pattern(regex_lite::Regex);

impl Pattern {
    /// Compiles `pattern`; an invalid one is an error naming it.
    pub fn new(pattern: &str) -> Result<Self, ScriptError> {
        regex_lite::Regex::new(pattern)
            .map(Self)
            .map_err(|err| ScriptError(format!("invalid regex `{pattern}`: {err}")))
    }

    /// The pattern's source.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.0.as_str()).finish()
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Pattern::new(&text).map_err(serde::de::Error::custom)
    }
}

/// One step of a turn. Texts may name the incoming message: `{{text}}`, `{{messageId}}`,
/// `{{taskId}}`, `{{contextId}}`, `{{skill}}`.
///
/// In a document a step is a map with one key: `status` (with an optional `text`), `working`,
/// `complete`, `fail`, `reject`, `inputRequired`, `authRequired` (each with a text or nothing),
/// `artifact`, `chunk`, `delay`, `reply`, `error` or `waitForCancel`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "StepSpec")]
#[non_exhaustive]
pub enum Step {
    /// A status update, with an optional agent message of one text part.
    Status {
        /// The new state.
        state: TaskState,
        /// The message's text.
        text: Option<String>,
    },
    /// A whole artifact.
    Artifact(ArtifactStep),
    /// One chunk of an artifact: the first chunk of an id in a turn starts it, the next ones
    /// append to it; `last` marks the last chunk.
    Chunk(ArtifactStep),
    /// A pause (ended early by a cancel, which ends the turn).
    Delay(Duration),
    /// A direct message and no task (only as the first step of a new request).
    Reply(String),
    /// A protocol error instead of a task (only as the first step of a new request).
    Error(A2aError),
    /// Waits until the task is canceled.
    WaitForCancel,
}

impl Step {
    /// A status step.
    pub fn status(state: TaskState, text: impl Into<Option<String>>) -> Self {
        Step::Status {
            state,
            text: text.into(),
        }
    }

    /// A whole text artifact.
    pub fn artifact_text(text: impl Into<String>) -> Self {
        Step::Artifact(ArtifactStep::new(vec![Part::text(text)]))
    }

    /// A text chunk of artifact `id`.
    pub fn chunk_text(id: impl Into<String>, text: impl Into<String>, last: bool) -> Self {
        let mut chunk = ArtifactStep::new(vec![Part::text(text)]);
        chunk.id = Some(id.into());
        chunk.last = last;
        Step::Chunk(chunk)
    }
}

/// An artifact, or a chunk of one, as a step makes it.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ArtifactStep {
    /// The artifact id (default: `artifact-N`, N counting the turn's artifacts from 0; a chunk
    /// without one continues the turn's last chunked artifact).
    pub id: Option<String>,
    /// The artifact's name.
    pub name: Option<String>,
    /// The artifact's description.
    pub description: Option<String>,
    /// Its parts (texts in them are rendered with the message's values).
    pub parts: Vec<Part>,
    /// On a chunk: the last one.
    pub last: bool,
}

impl ArtifactStep {
    /// An artifact of these parts.
    pub fn new(parts: Vec<Part>) -> Self {
        Self {
            parts,
            ..Self::default()
        }
    }

    pub(crate) fn build(&self, id: String, render: &dyn Fn(&str) -> String) -> Artifact {
        let parts = self
            .parts
            .iter()
            .map(|part| match part.as_text() {
                Some(text) => {
                    let mut rendered = part.clone();
                    rendered.content = a2a_types::v1::PartContent::Text(render(text));
                    rendered
                }
                None => part.clone(),
            })
            .collect();
        let mut artifact = Artifact::new(id, parts);
        artifact.name = self.name.clone();
        artifact.description = self.description.clone();
        artifact
    }
}

/// A step as a document writes it: exactly one action key.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StepSpec {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default, deserialize_with = "present")]
    working: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    complete: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    fail: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    reject: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    input_required: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    auth_required: Option<Option<String>>,
    #[serde(default)]
    artifact: Option<ArtifactSpec>,
    #[serde(default)]
    chunk: Option<ArtifactSpec>,
    #[serde(default)]
    delay: Option<DelaySpec>,
    #[serde(default)]
    reply: Option<String>,
    #[serde(default)]
    error: Option<ErrorSpec>,
    #[serde(default)]
    wait_for_cancel: Option<bool>,
}

/// A field that is there (even as `null`) is `Some`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ArtifactSpec {
    #[serde(default, alias = "artifactId")]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    data: Option<Value>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    media_type: Option<String>,
    #[serde(default)]
    filename: Option<String>,
    #[serde(default)]
    parts: Option<Vec<Part>>,
    #[serde(default)]
    last: bool,
}

impl ArtifactSpec {
    fn into_step(self, what: &str) -> Result<ArtifactStep, String> {
        let mut parts = self.parts.unwrap_or_default();
        let single = [
            self.text.map(Part::text),
            self.data.map(Part::data),
            self.url.map(Part::url),
        ];
        let given = single.iter().filter(|p| p.is_some()).count();
        if given > 1 {
            return Err(format!(
                "{what}: give one of `text`, `data`, `url` (or a `parts` list)"
            ));
        }
        if let Some(mut part) = single.into_iter().flatten().next() {
            part.media_type = self.media_type;
            part.filename = self.filename;
            parts.insert(0, part);
        }
        if parts.is_empty() {
            return Err(format!(
                "{what} needs content: `text`, `data`, `url` or `parts`"
            ));
        }
        Ok(ArtifactStep {
            id: self.id,
            name: self.name,
            description: self.description,
            parts,
            last: self.last,
        })
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum DelaySpec {
    Millis(u64),
    Text(String),
}

impl DelaySpec {
    fn duration(self) -> Result<Duration, String> {
        match self {
            DelaySpec::Millis(ms) => Ok(Duration::from_millis(ms)),
            DelaySpec::Text(text) => parse_duration(&text),
        }
    }
}

/// `250ms`, `2s`, `1.5s`, `1m`, or a bare number of milliseconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let bad = || format!("delay `{text}`: write milliseconds (250) or 250ms, 2s, 1.5s, 1m");
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 0.001)
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    Duration::try_from_secs_f64(value * scale).map_err(|_| bad())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ErrorSpec {
    code: CodeSpec,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    data: Option<Value>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CodeSpec {
    Number(i32),
    Name(String),
}

impl ErrorSpec {
    fn into_error(self) -> Result<A2aError, String> {
        use a2a_jsonrpc::ErrorCode;
        let code = match self.code {
            CodeSpec::Number(n) => ErrorCode(n),
            CodeSpec::Name(name) => ErrorCode::from_name(&name).ok_or_else(|| {
                format!("error code `{name}` is not an A2A error name (TaskNotFoundError, ...)")
            })?,
        };
        let message = self
            .message
            .or_else(|| code.name().map(|name| format!("{name} (mock)")))
            .unwrap_or_else(|| format!("error {} (mock)", code.0));
        let error = A2aError::with_code_info(code, message);
        Ok(match self.data {
            Some(Value::Array(details)) => details
                .into_iter()
                .fold(error, |error, detail| error.with_detail(detail)),
            Some(detail) => error.with_detail(detail),
            None => error,
        })
    }
}

fn state_named(name: &str) -> Result<TaskState, String> {
    if let Some(state) = TaskState::from_name(name) {
        return Ok(state);
    }
    let plain = name.to_ascii_lowercase().replace(['-', ' '], "_");
    let state = match plain.as_str() {
        "submitted" => TaskState::Submitted,
        "working" => TaskState::Working,
        "completed" | "complete" => TaskState::Completed,
        "failed" | "fail" => TaskState::Failed,
        "canceled" | "cancelled" => TaskState::Canceled,
        "input_required" => TaskState::InputRequired,
        "rejected" | "reject" => TaskState::Rejected,
        "auth_required" => TaskState::AuthRequired,
        _ => {
            return Err(format!(
                "status `{name}` is not a task state (working, input-required, completed, \
                 failed, canceled, rejected, auth-required, submitted)"
            ));
        }
    };
    Ok(state)
}

impl TryFrom<StepSpec> for Step {
    type Error = String;

    fn try_from(spec: StepSpec) -> Result<Self, String> {
        let mut steps = Vec::new();
        if let Some(state) = spec.status {
            steps.push(Step::status(state_named(&state)?, spec.text.clone()));
        } else if spec.text.is_some() {
            return Err("`text` goes with `status` (or write `working: TEXT` ...)".into());
        }
        for (state, text) in [
            (TaskState::Working, spec.working),
            (TaskState::Completed, spec.complete),
            (TaskState::Failed, spec.fail),
            (TaskState::Rejected, spec.reject),
            (TaskState::InputRequired, spec.input_required),
            (TaskState::AuthRequired, spec.auth_required),
        ] {
            if let Some(text) = text {
                steps.push(Step::status(state, text));
            }
        }
        if let Some(artifact) = spec.artifact {
            steps.push(Step::Artifact(artifact.into_step("artifact")?));
        }
        if let Some(chunk) = spec.chunk {
            steps.push(Step::Chunk(chunk.into_step("chunk")?));
        }
        if let Some(delay) = spec.delay {
            steps.push(Step::Delay(delay.duration()?));
        }
        if let Some(reply) = spec.reply {
            steps.push(Step::Reply(reply));
        }
        if let Some(error) = spec.error {
            steps.push(Step::Error(error.into_error()?));
        }
        if spec.wait_for_cancel == Some(true) {
            steps.push(Step::WaitForCancel);
        }
        match steps.len() {
            1 => Ok(steps.remove(0)),
            0 => Err(
                "a step needs one of status, working, complete, fail, reject, \
                      inputRequired, authRequired, artifact, chunk, delay, reply, error, \
                      waitForCancel"
                    .into(),
            ),
            _ => Err("a step does one thing: write each as its own list item".into()),
        }
    }
}
