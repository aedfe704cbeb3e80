//! Agents as tools (feature `tools`): tool descriptors from an agent card, in the JSON shapes of
//! the tool-calling APIs, and tool calls that send the message and turn the task into a tool
//! result. See `docs/tools.md`.
//!
//! * **Descriptors** ([`descriptors`]): one tool per skill of the card (one for the whole
//!   agent when it lists none). The name is the skill id made acceptable to every API
//!   ([`sanitize_name`]: `[a-zA-Z0-9_-]{1,64}`, unique within the card); the description is
//!   the skill's, then its examples and tags; the input schema ([`input_schema`]) has a
//!   required `message` string, `files` and `data` when the skill's input modes (else the
//!   card's) allow them, and `taskId`/`contextId` to continue a task.
//! * **Shapes**: [`ToolDescriptor::to_openai`] (OpenAI-compatible function tools),
//!   [`ToolDescriptor::to_anthropic`] (Anthropic-compatible tools), [`ToolDescriptor::to_mcp`]
//!   (MCP tools); [`ToolFormat::render`] for a list.
//! * **Calls** ([`AgentTools::call`]): the arguments become a user message; the task is
//!   streamed when the card says the agent can, else `SendMessage` is awaited (and an
//!   unfinished task polled). A task that asks for input ends the call with
//!   [`ToolOutcome::InputRequired`] and a result that tells the model to call again with the
//!   `taskId`. Artifacts become the result: text as text, data as JSON, files as references
//!   (a URL, or the artifact that holds the bytes). Each call has a timeout and may be
//!   canceled ([`AgentTools::call_until`]); either asks the agent to cancel the task.
//! * **Results** ([`ToolResult`]): [`to_openai`](ToolResult::to_openai) (a `tool` message),
//!   [`to_anthropic`](ToolResult::to_anthropic) (a `tool_result` block),
//!   [`to_mcp`](ToolResult::to_mcp) (a `CallToolResult`).
//! * **Registry** ([`ToolRegistry`]): the tools of several agents by card URL, names unique
//!   across them, cards refreshed with `If-None-Match`.
//!
//! ```
//! use a2a_client::tools::{ToolFormat, descriptors};
//! use a2a_types::v1::{AgentCard, AgentSkill};
//! use serde_json::json;
//!
//! let card = AgentCard::new("Weather", "Forecasts", "1.0").with_skills([AgentSkill::new(
//!     "forecast",
//!     "Forecast",
//!     "Weather forecasts for a city.",
//!     ["weather"],
//! )]);
//! let tools = descriptors(&card);
//! assert_eq!(
//!     ToolFormat::Anthropic.render(&tools),
//!     json!([{
//!         "name": "forecast",
//!         "description": "Weather forecasts for a city.\n\nTags: weather",
//!         "input_schema": {
//!             "type": "object",
//!             "properties": {
//!                 "message": {"type": "string", "description": "The request to the agent, in natural language."},
//!                 "taskId": {"type": "string", "description": "To answer an agent that asked for more input: the taskId of its tool result."},
//!                 "contextId": {"type": "string", "description": "To continue a conversation: the contextId of an earlier tool result."}
//!             },
//!             "required": ["message"],
//!             "additionalProperties": false
//!         }
//!     }])
//! );
//! ```

mod call;
mod descriptor;
mod registry;
mod result;

pub use call::{AgentTools, CallOptions, ToolError, ToolInput};
pub use descriptor::{
    InputKinds, MAX_TOOL_NAME_LEN, ToolDescriptor, ToolFormat, descriptors, input_schema,
    sanitize_name,
};
pub use registry::{MAX_CARD_BYTES, Refreshed, ToolRegistry};
pub use result::{FileRef, ToolContent, ToolOutcome, ToolResult};
