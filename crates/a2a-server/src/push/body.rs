//! What a delivery's body is: the event in the shape of the version its config was
//! registered through.
//!
//! | version | body | `Content-Type` |
//! |---|---|---|
//! | 1.0 | one `StreamResponse`: `{"task":..}`, `{"statusUpdate":..}`, `{"artifactUpdate":..}` (spec 1.0 §4.3.3) | `application/a2a+json` |
//! | 0.3 / 0.2 | the bare 0.3 event, told by its `kind`: a `Task`, `TaskStatusUpdateEvent` or `TaskArtifactUpdateEvent` (as the JS SDK's 0.3 compat layer sends) | `application/json` |
//! | 0.1 | the bare 0.1 object: the `Task`, a `TaskStatusUpdateEvent` (`id`, `status`, `final`) or a `TaskArtifactUpdateEvent` (`id`, `artifact`) | `application/json` |

use a2a_types::protocol::{ProtocolVersion, content_type};
use a2a_types::v1::StreamResponse;
use a2a_types::{v0_1, v0_3};
use bytes::Bytes;

/// A rendered body and its media type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Body {
    pub(crate) bytes: Bytes,
    pub(crate) content_type: &'static str,
}

/// The body of `event` for a config of `protocol_version`; the reason when the version has no
/// shape for it.
pub(crate) fn render(
    event: &StreamResponse,
    protocol_version: ProtocolVersion,
) -> Result<Body, String> {
    let json = |value: Result<Vec<u8>, serde_json::Error>| {
        value.map_err(|e| format!("the event does not serialize: {e}"))
    };
    match protocol_version {
        ProtocolVersion::V0_3 => Ok(Body {
            bytes: json(serde_json::to_vec(&v0_3::SendStreamingMessageResult::from(
                event.clone(),
            )))?
            .into(),
            content_type: content_type::JSON,
        }),
        ProtocolVersion::V0_1 => {
            let bytes = match event.clone() {
                StreamResponse::Task(task) => serde_json::to_vec(&v0_1::Task::from(task)),
                StreamResponse::StatusUpdate(update) => {
                    serde_json::to_vec(&v0_1::TaskStatusUpdateEvent::from(update))
                }
                StreamResponse::ArtifactUpdate(update) => {
                    serde_json::to_vec(&v0_1::TaskArtifactUpdateEvent::from(update))
                }
                other => {
                    return Err(format!(
                        "A2A 0.1 has no push body for this event: {}",
                        serde_json::to_string(&other).unwrap_or_default()
                    ));
                }
            };
            Ok(Body {
                bytes: json(bytes)?.into(),
                content_type: content_type::JSON,
            })
        }
        _ => Ok(Body {
            // A config's version is 1.0 for a 1.1 caller too: no generations (1.0's bytes).
            bytes: json(a2a_types::protocol::generations::hidden(|| {
                serde_json::to_vec(event)
            }))?
            .into(),
            content_type: content_type::A2A_JSON,
        }),
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{
        Artifact, Part, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
    };

    use super::*;

    fn text(body: &Body) -> &str {
        std::str::from_utf8(&body.bytes).unwrap()
    }

    #[test]
    fn each_version_has_its_shape() {
        let status = StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            "t-1",
            "c-1",
            TaskStatus::new(TaskState::Completed),
        ));
        let v1 = render(&status, ProtocolVersion::V1).unwrap();
        assert_eq!(
            text(&v1),
            r#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}}"#
        );
        assert_eq!(v1.content_type, "application/a2a+json");
        let v03 = render(&status, ProtocolVersion::V0_3).unwrap();
        assert_eq!(
            text(&v03),
            r#"{"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"state":"completed"},"final":true}"#
        );
        assert_eq!(v03.content_type, "application/json");
        assert_eq!(
            text(&render(&status, ProtocolVersion::V0_1).unwrap()),
            r#"{"id":"t-1","status":{"state":"completed"},"final":true}"#
        );

        let task = StreamResponse::Task(Task::new(
            "t-1",
            "c-1",
            TaskStatus::new(TaskState::Submitted),
        ));
        assert_eq!(
            text(&render(&task, ProtocolVersion::V1).unwrap()),
            r#"{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_SUBMITTED"}}}"#
        );
        assert_eq!(
            text(&render(&task, ProtocolVersion::V0_3).unwrap()),
            r#"{"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"submitted"}}"#
        );
        assert_eq!(
            text(&render(&task, ProtocolVersion::V0_1).unwrap()),
            r#"{"id":"t-1","sessionId":"c-1","status":{"state":"submitted"}}"#
        );

        let artifact = StreamResponse::ArtifactUpdate(
            TaskArtifactUpdateEvent::new(
                "t-1",
                "c-1",
                Artifact::new("a-1", vec![Part::text("hi")]),
            )
            .with_last_chunk(true),
        );
        assert_eq!(
            text(&render(&artifact, ProtocolVersion::V1).unwrap()),
            r#"{"artifactUpdate":{"taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","parts":[{"text":"hi"}]},"lastChunk":true}}"#
        );
        assert_eq!(
            text(&render(&artifact, ProtocolVersion::V0_3).unwrap()),
            r#"{"kind":"artifact-update","taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","parts":[{"kind":"text","text":"hi"}]},"lastChunk":true}"#
        );
    }
}
