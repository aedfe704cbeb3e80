//! Serde models of the Agent2Agent (A2A) protocol.
//!
//! | module | version | wire |
//! |---|---|---|
//! | [`v1`] | A2A 1.0 (1.0.1), the core model | ProtoJSON of `lf.a2a.v1` |
//! | [`v0_3`] | A2A 0.3, also reading 0.2.x | `kind`-tagged JSON-RPC, lowercase kebab-case enums |
//! | [`v0_1`] | A2A 0.1 | `tasks/send`, `sessionId`, `type`-tagged parts |
//! | [`flat`] | PromptKit's dialect: 0.3 method names, 1.0 shapes | lowercase enums, bare results (JSON rewrites, no types) |
//!
//! [`v0_3`] and [`v0_1`] convert to and from [`v1`] with `From`/`TryFrom`; [`card::parse`]
//! reads an agent card of any version as a 1.0 card; `docs/versions.md` lists what each
//! conversion loses.
//!
//! The types carry no I/O: they read and write JSON with `serde_json`, and, with the
//! `schemars` feature, describe themselves as JSON Schema.
//!
//! ```
//! use a2a_types::v1::{Message, Part, Role, SendMessageRequest};
//!
//! let request = SendMessageRequest::new(Message::new("m-1", Role::User, vec![Part::text("hello")]));
//! let json = serde_json::to_string(&request).unwrap();
//! assert_eq!(json, r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}"#);
//!
//! let back: SendMessageRequest = a2a_types::json::from_str(&json).unwrap();
//! assert_eq!(back, request);
//! ```
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `uuid` | yes | random ids: `TaskId::random()`, `Message::user_text("hi")` |
//! | `schemars` | no | `schemars::JsonSchema` for every wire type, describing exactly what serde writes |
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod card;
pub mod flat;
pub mod json;
mod macros;
pub mod protocol;
#[cfg(feature = "uuid")]
mod random;
#[cfg(feature = "schemars")]
mod schema;
mod serde_util;
pub mod text;
pub mod trace;
pub mod v0_1;
pub mod v0_3;
pub mod v1;
