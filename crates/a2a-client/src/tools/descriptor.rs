//! Tool descriptors from an agent card, and their JSON in the shapes of the tool-calling APIs.

use a2a_types::v1::{AgentCard, AgentSkill};
use serde_json::{Value, json};

/// The longest tool name every target accepts: OpenAI-compatible and Anthropic-compatible APIs
/// take `^[a-zA-Z0-9_-]{1,64}$`, MCP up to 128 characters of `[A-Za-z0-9_.-]`.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// What a skill's input modes let a tool call send besides its `message` text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputKinds {
    /// Files (`files`: URLs or base64 bytes): a mode other than `text/plain` and JSON, or
    /// `*/*`.
    pub files: bool,
    /// Structured data (`data`: a JSON object): `application/json`, a `+json` type, or `*/*`.
    pub data: bool,
}

impl InputKinds {
    /// What the media types `modes` allow; no modes at all means text only. The mode names
    /// of early cards (`text`, `file`, `data`) count as their kinds.
    ///
    /// ```
    /// use a2a_client::tools::InputKinds;
    ///
    /// let kinds = InputKinds::from_modes(&["text/plain", "application/json"]);
    /// assert!(kinds.data && !kinds.files);
    /// let kinds = InputKinds::from_modes(&["image/png"]);
    /// assert!(kinds.files && !kinds.data);
    /// ```
    pub fn from_modes<S: AsRef<str>>(modes: &[S]) -> Self {
        let mut kinds = InputKinds::default();
        for mode in modes {
            // Parameters (`; charset=utf-8`) and case do not change the kind.
            let mode = mode.as_ref();
            let essence = mode.split(';').next().unwrap_or(mode).trim();
            let essence = essence.to_ascii_lowercase();
            match essence.as_str() {
                "*/*" | "*" => {
                    kinds.files = true;
                    kinds.data = true;
                }
                // `text`, `file` and `data`: the mode names of early (0.1/0.2) cards.
                "text/plain" | "text/*" | "text" | "" => {}
                "file" => kinds.files = true,
                "application/json" | "data" => kinds.data = true,
                other if other.ends_with("+json") => kinds.data = true,
                _ => kinds.files = true,
            }
        }
        kinds
    }
}

/// One tool: a skill of an agent (or the whole agent when its card lists no skill), as a
/// tool-calling API sees it.
///
/// Render it with [`to_openai`](Self::to_openai), [`to_anthropic`](Self::to_anthropic) or
/// [`to_mcp`](Self::to_mcp).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolDescriptor {
    /// The tool's name: the skill id made acceptable to every target (see
    /// [`sanitize_name`]), unique within its card or registry.
    pub name: String,
    /// A human-readable title: the skill's name.
    pub title: String,
    /// What the tool does: the skill's description, then its examples and tags.
    pub description: String,
    /// The JSON Schema of the tool's arguments (see [`input_schema`]).
    pub input_schema: Value,
    /// The id of the skill in the card (empty for an agent without skills).
    pub skill_id: String,
    /// The name of the agent whose skill this is.
    pub agent: String,
    /// What the arguments may carry besides the message.
    pub inputs: InputKinds,
}

impl ToolDescriptor {
    /// The descriptor as an OpenAI-compatible function tool (Chat Completions `tools` entry):
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    pub fn to_openai(&self) -> Value {
        json!({
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.input_schema,
            }
        })
    }

    /// The descriptor as an Anthropic-compatible tool (Messages API `tools` entry):
    /// `{"name", "description", "input_schema"}`.
    pub fn to_anthropic(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        })
    }

    /// The descriptor as an MCP tool (a `tools/list` entry): `{"name", "title",
    /// "description", "inputSchema", "annotations"}`; calling an agent reaches out to the
    /// world (`openWorldHint`) and is not read-only.
    pub fn to_mcp(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": {
                "title": self.title,
                "readOnlyHint": false,
                "openWorldHint": true,
            },
        })
    }
}

/// The shape to render descriptors in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolFormat {
    /// OpenAI-compatible function tools ([`ToolDescriptor::to_openai`]).
    OpenAi,
    /// Anthropic-compatible tools ([`ToolDescriptor::to_anthropic`]).
    Anthropic,
    /// MCP tools ([`ToolDescriptor::to_mcp`]).
    Mcp,
}

impl ToolFormat {
    /// The descriptors as a JSON array in this shape.
    pub fn render(self, tools: &[ToolDescriptor]) -> Value {
        Value::Array(
            tools
                .iter()
                .map(|tool| match self {
                    ToolFormat::OpenAi => tool.to_openai(),
                    ToolFormat::Anthropic => tool.to_anthropic(),
                    ToolFormat::Mcp => tool.to_mcp(),
                })
                .collect(),
        )
    }
}

impl std::str::FromStr for ToolFormat {
    type Err = String;

    /// `openai`, `anthropic` or `mcp` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "openai" => Ok(ToolFormat::OpenAi),
            "anthropic" => Ok(ToolFormat::Anthropic),
            "mcp" => Ok(ToolFormat::Mcp),
            _ => Err(format!(
                "unknown tool format `{s}`: expected openai, anthropic or mcp"
            )),
        }
    }
}

/// A name every tool-calling API accepts, from a skill id: each run of characters other than
/// ASCII letters, digits, `_` and `-` becomes one `_`, the ends lose their `_`, and the result
/// is cut to [`MAX_TOOL_NAME_LEN`]; nothing left gives `fallback`.
///
/// ```
/// use a2a_client::tools::sanitize_name;
///
/// assert_eq!(sanitize_name("route-optimizer traffic", "skill"), "route-optimizer_traffic");
/// assert_eq!(sanitize_name("météo/paris", "skill"), "m_t_o_paris");
/// assert_eq!(sanitize_name("???", "skill"), "skill");
/// ```
pub fn sanitize_name(id: &str, fallback: &str) -> String {
    let mut name = String::with_capacity(id.len());
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            name.push(c);
        } else if !name.ends_with('_') {
            name.push('_');
        }
    }
    let name = name.trim_matches('_');
    let name: String = name.chars().take(MAX_TOOL_NAME_LEN).collect();
    let name = name.trim_end_matches('_');
    if name.is_empty() {
        fallback.to_owned()
    } else {
        name.to_owned()
    }
}

/// Makes `name` unique among `taken` by appending `_2`, `_3`, ... (within
/// [`MAX_TOOL_NAME_LEN`]), and records it.
pub(crate) fn unique_name(name: String, taken: &mut Vec<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        let suffix = format!("_{n}");
        let keep = MAX_TOOL_NAME_LEN - suffix.len();
        let stem: String = name.chars().take(keep).collect();
        candidate = format!("{stem}{suffix}");
        n += 1;
    }
    taken.push(candidate.clone());
    candidate
}

/// The JSON Schema of a tool's arguments: a required `message` string; `files` and `data`
/// when `inputs` allow them; `taskId` and `contextId` to continue a task that asked for more
/// input. No other member is allowed.
pub fn input_schema(inputs: InputKinds) -> Value {
    let mut properties = serde_json::Map::new();
    properties.insert(
        "message".into(),
        json!({
            "type": "string",
            "description": "The request to the agent, in natural language."
        }),
    );
    if inputs.files {
        properties.insert(
            "files".into(),
            json!({
                "type": "array",
                "description": "Files to send with the message: each a URL or base64 bytes.",
                "items": {
                    "type": "object",
                    "properties": {
                        "url": {"type": "string", "description": "Where the file is."},
                        "bytes": {"type": "string", "description": "The file's content, base64."},
                        "name": {"type": "string", "description": "The file name."},
                        "mediaType": {"type": "string", "description": "The media type, e.g. image/png."}
                    },
                    "additionalProperties": false
                }
            }),
        );
    }
    if inputs.data {
        properties.insert(
            "data".into(),
            json!({
                "type": "object",
                "description": "Structured input for the agent, as a JSON object."
            }),
        );
    }
    properties.insert(
        "taskId".into(),
        json!({
            "type": "string",
            "description": "To answer an agent that asked for more input: the taskId of its tool result."
        }),
    );
    properties.insert(
        "contextId".into(),
        json!({
            "type": "string",
            "description": "To continue a conversation: the contextId of an earlier tool result."
        }),
    );
    json!({
        "type": "object",
        "properties": properties,
        "required": ["message"],
        "additionalProperties": false
    })
}

/// The description of a skill's tool: its description, then `Examples:` (one per line) and
/// `Tags:`, each only when present.
fn describe(agent: &str, description: &str, examples: &[String], tags: &[String]) -> String {
    let mut text = description.trim().to_owned();
    if text.is_empty() {
        text = format!("A skill of the agent {agent}.");
    }
    let examples: Vec<&str> = examples
        .iter()
        .map(|e| e.trim())
        .filter(|e| !e.is_empty())
        .collect();
    if !examples.is_empty() {
        text.push_str("\n\nExamples:");
        for example in examples {
            text.push_str("\n- ");
            text.push_str(example);
        }
    }
    let tags: Vec<&str> = tags
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .collect();
    if !tags.is_empty() {
        text.push_str("\n\nTags: ");
        text.push_str(&tags.join(", "));
    }
    text
}

fn skill_descriptor(
    card: &AgentCard,
    skill: &AgentSkill,
    taken: &mut Vec<String>,
) -> ToolDescriptor {
    let modes = if skill.input_modes.is_empty() {
        &card.default_input_modes
    } else {
        &skill.input_modes
    };
    let inputs = InputKinds::from_modes(modes);
    let fallback = sanitize_name(&skill.name, "skill");
    let name = unique_name(sanitize_name(&skill.id, &fallback), taken);
    let title = if skill.name.trim().is_empty() {
        skill.id.clone()
    } else {
        skill.name.trim().to_owned()
    };
    ToolDescriptor {
        name,
        title,
        description: describe(&card.name, &skill.description, &skill.examples, &skill.tags),
        input_schema: input_schema(inputs),
        skill_id: skill.id.clone(),
        agent: card.name.clone(),
        inputs,
    }
}

/// The tool descriptors of a card: one per skill, in the card's order, with names unique
/// within the card; a card without skills gives one tool for the whole agent, named after it
/// and described by its description.
pub fn descriptors(card: &AgentCard) -> Vec<ToolDescriptor> {
    descriptors_taking(card, &mut Vec::new())
}

/// [`descriptors`], with names unique among `taken` too (a registry's other tools).
pub(crate) fn descriptors_taking(card: &AgentCard, taken: &mut Vec<String>) -> Vec<ToolDescriptor> {
    if card.skills.is_empty() {
        let inputs = InputKinds::from_modes(&card.default_input_modes);
        let name = unique_name(sanitize_name(&card.name, "agent"), taken);
        return vec![ToolDescriptor {
            name,
            title: card.name.clone(),
            description: describe(&card.name, &card.description, &[], &[]),
            input_schema: input_schema(inputs),
            skill_id: String::new(),
            agent: card.name.clone(),
            inputs,
        }];
    }
    card.skills
        .iter()
        .map(|skill| skill_descriptor(card, skill, taken))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_and_made_unique() {
        let long = "a".repeat(80);
        assert_eq!(sanitize_name(&long, "x").len(), MAX_TOOL_NAME_LEN);
        let mut taken = Vec::new();
        assert_eq!(unique_name("echo".into(), &mut taken), "echo");
        assert_eq!(unique_name("echo".into(), &mut taken), "echo_2");
        assert_eq!(unique_name("echo".into(), &mut taken), "echo_3");
        let cut = unique_name(sanitize_name(&long, "x"), &mut taken);
        let again = unique_name(sanitize_name(&long, "x"), &mut taken);
        assert_eq!(again, format!("{}_2", "a".repeat(62)));
        assert_ne!(cut, again);
    }

    #[test]
    fn modes_decide_files_and_data() {
        assert_eq!(InputKinds::from_modes::<&str>(&[]), InputKinds::default());
        assert_eq!(
            InputKinds::from_modes(&["*/*"]),
            InputKinds {
                files: true,
                data: true
            }
        );
        assert_eq!(
            InputKinds::from_modes(&["text", "file"]),
            InputKinds {
                files: true,
                data: false
            }
        );
        assert_eq!(
            InputKinds::from_modes(&["Text/Plain; charset=utf-8", "application/ld+json"]),
            InputKinds {
                files: false,
                data: true
            }
        );
    }

    #[test]
    fn formats_parse_by_name() {
        assert_eq!("OpenAI".parse::<ToolFormat>(), Ok(ToolFormat::OpenAi));
        assert_eq!(
            "gemini".parse::<ToolFormat>(),
            Err("unknown tool format `gemini`: expected openai, anthropic or mcp".to_owned())
        );
    }
}
