//! Proto enums as ProtoJSON writes them: the full value name on output; the name or the
//! number on input. An unknown name is an error, not a silent `*_UNSPECIFIED`.

/// A string that names no value of a proto enum.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownEnumValue {
    /// The Rust name of the enum (`TaskState`).
    pub enum_name: &'static str,
    /// The string that was given.
    pub value: String,
}

impl std::fmt::Display for UnknownEnumValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown enum value `{}` for {}",
            self.value, self.enum_name
        )
    }
}

impl std::error::Error for UnknownEnumValue {}

crate::macros::string_enum! {
    /// The lifecycle state of a [`Task`](super::Task).
    ///
    /// Terminal states ([`is_terminal`](Self::is_terminal)) end the task; interrupted states
    /// ([`is_interrupted`](Self::is_interrupted)) wait for the client.
    #[non_exhaustive]
    TaskState {
        /// Unknown or indeterminate (`TASK_STATE_UNSPECIFIED`).
        Unspecified = 0 => "TASK_STATE_UNSPECIFIED",
        /// Submitted and acknowledged.
        Submitted = 1 => "TASK_STATE_SUBMITTED",
        /// Being processed by the agent.
        Working = 2 => "TASK_STATE_WORKING",
        /// Finished successfully (terminal).
        Completed = 3 => "TASK_STATE_COMPLETED",
        /// Finished with an error (terminal).
        Failed = 4 => "TASK_STATE_FAILED",
        /// Canceled before completion (terminal).
        Canceled = 5 => "TASK_STATE_CANCELED",
        /// The agent needs more input from the user (interrupted).
        InputRequired = 6 => "TASK_STATE_INPUT_REQUIRED",
        /// The agent decided not to perform the task (terminal).
        Rejected = 7 => "TASK_STATE_REJECTED",
        /// The agent needs the client to authenticate (interrupted).
        AuthRequired = 8 => "TASK_STATE_AUTH_REQUIRED",
    }
}

impl TaskState {
    /// Completed, failed, canceled or rejected: the task will never change again.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
        )
    }

    /// Input required or auth required: the task waits for the client.
    pub const fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }

    /// Terminal or interrupted: where a blocking SendMessage returns and a stream closes.
    pub const fn is_final(self) -> bool {
        self.is_terminal() || self.is_interrupted()
    }
}

crate::macros::string_enum! {
    /// Who sent a [`Message`](super::Message).
    #[non_exhaustive]
    Role {
        /// Unspecified (`ROLE_UNSPECIFIED`).
        Unspecified = 0 => "ROLE_UNSPECIFIED",
        /// From the client to the agent.
        User = 1 => "ROLE_USER",
        /// From the agent to the client.
        Agent = 2 => "ROLE_AGENT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_out_names_and_numbers_in() {
        assert_eq!(
            serde_json::to_string(&TaskState::InputRequired).unwrap(),
            r#""TASK_STATE_INPUT_REQUIRED""#
        );
        assert_eq!(
            serde_json::from_str::<TaskState>(r#""TASK_STATE_CANCELED""#).unwrap(),
            TaskState::Canceled
        );
        assert_eq!(
            serde_json::from_str::<TaskState>("3").unwrap(),
            TaskState::Completed
        );
        assert_eq!(serde_json::from_str::<Role>("2").unwrap(), Role::Agent);
    }

    #[test]
    fn unknown_values_are_errors() {
        let err = serde_json::from_str::<TaskState>(r#""completed""#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown enum value `completed` for TaskState, expected one of TASK_STATE_UNSPECIFIED, "),
            "{err}"
        );
        let err = serde_json::from_str::<Role>("9").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown enum number 9 for Role"),
            "{err}"
        );
        assert!(serde_json::from_str::<Role>("true").is_err());
        assert_eq!(
            "TASK_STATE_CANCELLED"
                .parse::<TaskState>()
                .unwrap_err()
                .to_string(),
            "unknown enum value `TASK_STATE_CANCELLED` for TaskState"
        );
    }

    #[test]
    fn terminal_and_interrupted() {
        let terminal: Vec<_> = TaskState::ALL.iter().filter(|s| s.is_terminal()).collect();
        assert_eq!(
            terminal,
            [
                &TaskState::Completed,
                &TaskState::Failed,
                &TaskState::Canceled,
                &TaskState::Rejected
            ]
        );
        let interrupted: Vec<_> = TaskState::ALL
            .iter()
            .filter(|s| s.is_interrupted())
            .collect();
        assert_eq!(
            interrupted,
            [&TaskState::InputRequired, &TaskState::AuthRequired]
        );
        for state in TaskState::ALL {
            assert_eq!(TaskState::from_number(state.number()), Some(*state));
            assert_eq!(TaskState::from_name(state.as_str()), Some(*state));
        }
    }
}
