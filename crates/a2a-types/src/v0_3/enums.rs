//! The string enums of the 0.3 wire: lowercase, kebab-case values.

/// A closed string enum: its wire values out, only those values in (an unknown value is an
/// error that lists the expected ones).
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $name:ident (schema: $schema_name:literal, inline: $inline:literal) {
            $( $(#[$vmeta:meta])* $variant:ident => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in the order of the specification.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as the wire carries it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $wire, )+
                }
            }

            /// The value with this wire name, if any.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $( $wire => Some($name::$variant), )+
                    _ => None,
                }
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
                        f.write_str(concat!("a ", stringify!($name), " string"))
                    }

                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        $name::from_name(v).ok_or_else(|| {
                            E::custom(format_args!(
                                "unknown value `{v}` for {}, expected one of {}",
                                stringify!($name),
                                [$($wire),+].join(", ")
                            ))
                        })
                    }
                }
                d.deserialize_str(V)
            }
        }

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                $inline
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                $schema_name.into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!("a2a_types::v0_3::", stringify!($name)).into()
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

wire_enum! {
    /// The lifecycle state of a [`Task`](super::Task) (`TaskState` in `a2a.json`).
    TaskState (schema: "TaskState", inline: false) {
        /// Submitted and acknowledged.
        Submitted => "submitted",
        /// Being processed by the agent.
        Working => "working",
        /// The agent needs more input from the user (interrupted).
        InputRequired => "input-required",
        /// Finished successfully (terminal).
        Completed => "completed",
        /// Canceled before completion (terminal).
        Canceled => "canceled",
        /// Finished with an error (terminal).
        Failed => "failed",
        /// The agent decided not to perform the task (terminal).
        Rejected => "rejected",
        /// The agent needs the client to authenticate (interrupted).
        AuthRequired => "auth-required",
        /// Unknown or indeterminate.
        Unknown => "unknown",
    }
}

impl TaskState {
    /// Completed, canceled, failed or rejected: the task will never change again.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Canceled | TaskState::Failed | TaskState::Rejected
        )
    }

    /// Input required or auth required: the task waits for the client.
    pub const fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }

    /// Terminal or interrupted: the value of `final` on a status update in this state.
    pub const fn is_final(self) -> bool {
        self.is_terminal() || self.is_interrupted()
    }
}

wire_enum! {
    /// Who sent a [`Message`](super::Message) (the inline enum of `Message.role` in `a2a.json`).
    Role (schema: "Role", inline: true) {
        /// From the agent to the client.
        Agent => "agent",
        /// From the client to the agent.
        User => "user",
    }
}

wire_enum! {
    /// The transport protocols the specification defines (`TransportProtocol` in `a2a.json`).
    ///
    /// [`AgentCard::preferred_transport`](super::AgentCard::preferred_transport) and
    /// [`AgentInterface::transport`](super::AgentInterface::transport) are open strings (custom
    /// transports are allowed); this enum names the three core ones.
    TransportProtocol (schema: "TransportProtocol", inline: false) {
        /// JSON-RPC 2.0 over HTTP.
        JsonRpc => "JSONRPC",
        /// gRPC.
        Grpc => "GRPC",
        /// HTTP+JSON (REST).
        HttpJson => "HTTP+JSON",
    }
}

wire_enum! {
    /// Where an API key goes (the inline enum of `APIKeySecurityScheme.in` in `a2a.json`).
    ApiKeyLocation (schema: "ApiKeyLocation", inline: true) {
        /// A cookie.
        Cookie => "cookie",
        /// A header.
        Header => "header",
        /// A query parameter.
        Query => "query",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_values() {
        assert_eq!(
            serde_json::to_string(&TaskState::InputRequired).unwrap(),
            r#""input-required""#
        );
        assert_eq!(
            serde_json::from_str::<TaskState>(r#""auth-required""#).unwrap(),
            TaskState::AuthRequired
        );
        let err = serde_json::from_str::<TaskState>(r#""TASK_STATE_WORKING""#).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "unknown value `TASK_STATE_WORKING` for TaskState, expected one of submitted, "
            ),
            "{err}"
        );
        assert_eq!("user".parse::<Role>().unwrap(), Role::User);
        assert!("USER".parse::<Role>().is_err());
        assert_eq!(TransportProtocol::HttpJson.as_str(), "HTTP+JSON");
        for state in TaskState::ALL {
            assert_eq!(TaskState::from_name(state.as_str()), Some(*state));
        }
    }

    #[test]
    fn final_states() {
        let finals: Vec<_> = TaskState::ALL.iter().filter(|s| s.is_final()).collect();
        assert_eq!(
            finals,
            [
                &TaskState::InputRequired,
                &TaskState::Completed,
                &TaskState::Canceled,
                &TaskState::Failed,
                &TaskState::Rejected,
                &TaskState::AuthRequired
            ]
        );
    }
}
