//! Proto enums as ProtoJSON writes them: the full value name on output; the name or the
//! number on input. An unknown name is an error, not a silent `*_UNSPECIFIED`.

macro_rules! proto_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $num:literal => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant = $num, )+
        }

        impl $name {
            /// Every value, in the order of their numbers.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The full proto name, as ProtoJSON writes it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $wire, )+
                }
            }

            /// True for the `*_UNSPECIFIED` value (number 0), which ProtoJSON omits.
            pub const fn is_unspecified(&self) -> bool {
                (*self as i32) == 0
            }

            /// The proto number.
            pub const fn number(self) -> i32 {
                self as i32
            }

            /// The value with this proto number, if any.
            pub fn from_number(number: i32) -> Option<Self> {
                match number {
                    $( $num => Some($name::$variant), )+
                    _ => None,
                }
            }

            /// The value with this full proto name, if any.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $( $wire => Some($name::$variant), )+
                    _ => None,
                }
            }
        }

        impl Default for $name {
            /// The `*_UNSPECIFIED` value (number 0), listed first.
            fn default() -> Self {
                Self::ALL[0]
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = crate::v1::UnknownEnumValue;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::from_name(s).ok_or_else(|| crate::v1::UnknownEnumValue {
                    enum_name: stringify!($name),
                    value: s.to_owned(),
                })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $name;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " name or number"))
                    }

                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        $name::from_name(v).ok_or_else(|| {
                            E::custom(format_args!(
                                "unknown enum value `{v}` for {}, expected one of {}",
                                stringify!($name),
                                [$($wire),+].join(", ")
                            ))
                        })
                    }

                    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<$name, E> {
                        i32::try_from(v)
                            .ok()
                            .and_then($name::from_number)
                            .ok_or_else(|| {
                                E::custom(format_args!(
                                    "unknown enum number {v} for {}",
                                    stringify!($name)
                                ))
                            })
                    }

                    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<$name, E> {
                        i64::try_from(v).map_or_else(
                            |_| Err(E::custom(format_args!("unknown enum number {v} for {}", stringify!($name)))),
                            |v| self.visit_i64(v),
                        )
                    }
                }
                d.deserialize_any(V)
            }
        }

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!("a2a_types::v1::", stringify!($name)).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "enum": [$($wire),+],
                })
            }
        }
    };
}

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

proto_enum! {
    /// The lifecycle state of a [`Task`](super::Task).
    ///
    /// Terminal states ([`is_terminal`](Self::is_terminal)) end the task; interrupted states
    /// ([`is_interrupted`](Self::is_interrupted)) wait for the client.
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

proto_enum! {
    /// Who sent a [`Message`](super::Message).
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
