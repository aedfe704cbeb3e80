//! A2A 1.1 (a draft: the specification's branch `dev-1.1` at commit
//! `28491879ff41a9c230fb51f3f7bd6096b80cc341`): task generations, written only to a peer that
//! speaks 1.1.
//!
//! The 1.1 fields live on the 1.0 types ([`Task::generation`](crate::v1::Task::generation),
//! the events' `generation`, [`GetTaskRequest::current_generation`](crate::v1::GetTaskRequest),
//! [`SendMessageConfiguration::if_generation_match`](crate::v1::SendMessageConfiguration)):
//! 1.1 is 1.0 with these five fields. A generation is written whenever it is known (not 0),
//! except inside [`hidden`], where the wire of a 1.0 peer is written: its bytes are those of
//! 1.0. A request read from a 1.0 peer drops the 1.1 fields ([`Call::strip_generations`]).
//!
//! ```
//! use a2a_types::protocol::generations;
//! use a2a_types::v1::{Task, TaskState, TaskStatus};
//!
//! let mut task = Task::new("t-1", "c-1", TaskStatus::new(TaskState::Working));
//! task.generation = 2;
//! let v1_1 = serde_json::to_string(&task).unwrap();
//! let v1_0 = generations::hidden(|| serde_json::to_string(&task).unwrap());
//! assert!(v1_1.ends_with(r#","generation":"2"}"#));
//! assert!(!v1_0.contains("generation"));
//! ```

use std::cell::Cell;

use super::{Call, Request, StreamRequest};

/// The `A2A-Version` of the 1.1 draft.
pub const VERSION_1_1: &str = "1.1";

thread_local! {
    static HIDDEN: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a serialization) with generations not written: the 1.0 wire.
pub fn hidden<R>(f: impl FnOnce() -> R) -> R {
    written(false, f)
}

/// Runs `f` with generations written (`shown`) or not: the wire of a 1.1 or a 1.0 peer.
pub fn written<R>(shown: bool, f: impl FnOnce() -> R) -> R {
    /// Restores the outer setting, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            HIDDEN.with(|h| h.set(self.0));
        }
    }
    let _restore = Restore(HIDDEN.with(|h| h.replace(!shown)));
    f()
}

/// Whether generations are written here: false inside [`hidden`] (and inside
/// [`written`]`(false, ..)`), true elsewhere. For encoders outside serde that follow the same
/// rule (the protobuf conversions of the gRPC binding).
pub fn shown() -> bool {
    !HIDDEN.with(Cell::get)
}

/// Whether a generation is left out: unknown (0), or inside [`hidden`].
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
pub(crate) fn skip(generation: &i64) -> bool {
    *generation == 0 || HIDDEN.with(Cell::get)
}

impl Request {
    /// Drops the 1.1 fields (`currentGeneration`, `ifGenerationMatch`): the request as a 1.0
    /// peer means it.
    pub fn strip_generations(&mut self) {
        match self {
            Request::SendMessage(request) => {
                if let Some(configuration) = &mut request.configuration {
                    configuration.if_generation_match = None;
                }
            }
            Request::GetTask(request) => request.current_generation = None,
            _ => {}
        }
    }
}

impl StreamRequest {
    /// Drops the 1.1 field `ifGenerationMatch`: the request as a 1.0 peer means it.
    pub fn strip_generations(&mut self) {
        if let StreamRequest::SendStreamingMessage(request) = self
            && let Some(configuration) = &mut request.configuration
        {
            configuration.if_generation_match = None;
        }
    }
}

impl Call {
    /// Drops the 1.1 fields of the request: the call as a 1.0 peer means it.
    pub fn strip_generations(&mut self) {
        match self {
            Call::Unary(request) => request.strip_generations(),
            Call::Stream(request) => request.strip_generations(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{
        GetTaskRequest, Message, Part, Role, SendMessageConfiguration, SendMessageRequest,
    };

    #[test]
    fn hidden_nests_and_requests_strip() {
        let mut task = crate::v1::Task::new(
            "t",
            "c",
            crate::v1::TaskStatus::new(crate::v1::TaskState::Working),
        );
        task.generation = 1;
        let shown =
            |task: &crate::v1::Task| serde_json::to_value(task).unwrap()["generation"].clone();
        assert!(super::shown());
        hidden(|| {
            assert!(!super::shown());
            assert_eq!(shown(&task), serde_json::Value::Null);
            written(true, || assert_eq!(shown(&task), "1"));
            assert_eq!(shown(&task), serde_json::Value::Null);
        });
        assert!(super::shown());
        assert_eq!(shown(&task), "1");

        let mut call = Call::Unary(Request::GetTask(
            GetTaskRequest::new("t").with_current_generation(3),
        ));
        call.strip_generations();
        let Call::Unary(request) = &call else {
            unreachable!()
        };
        assert_eq!(
            serde_json::to_value(request).unwrap(),
            serde_json::json!({"id": "t"})
        );
        let send = SendMessageRequest::new(Message::new("m", Role::User, vec![Part::text("x")]))
            .with_configuration(SendMessageConfiguration::default().with_if_generation_match(2));
        let mut call = Call::Stream(StreamRequest::SendStreamingMessage(Box::new(send)));
        call.strip_generations();
        let Call::Stream(StreamRequest::SendStreamingMessage(send)) = call else {
            unreachable!()
        };
        assert_eq!(send.configuration.unwrap().if_generation_match, None);
    }
}
