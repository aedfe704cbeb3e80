//! The macros the wire types of every version share: literal tags ([`const_str!`]) and string
//! enums ([`string_enum!`]), each written once.

/// Unit types that each stand for exactly one JSON string: they write that string, read only
/// that string (anything else is an error naming the expected value), and describe themselves
/// in JSON Schema as `{"type": "string", "const": "..."}` (inlined, never a `$ref`), which is
/// how `a2a.json` writes such fields (0.1's `type` of a part, 0.3's `kind` tags, the `jsonrpc`
/// version, the method names).
macro_rules! const_str {
    ($( $(#[$meta:meta])* $name:ident = $value:literal; )+) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[expect(
            clippy::exhaustive_structs,
            reason = "a unit marker for one fixed JSON string; it will never have fields"
        )]
        pub struct $name;

        impl $name {
            /// The JSON string this type stands for.
            pub const VALUE: &'static str = $value;

            /// The JSON string this type stands for.
            pub const fn as_str(self) -> &'static str {
                $value
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($value)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($value)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $name;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("the string \"", $value, "\""))
                    }

                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        if v == $value {
                            Ok($name)
                        } else {
                            Err(E::custom(format_args!(
                                concat!("expected \"", $value, "\", found \"{}\""),
                                v
                            )))
                        }
                    }
                }
                d.deserialize_str(V)
            }
        }

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!(module_path!(), "::", stringify!($name)).into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "const": $value })
            }
        }
    )+};
}
pub(crate) use const_str;

/// A closed string enum of the wire: its values out, only those in (an unknown one is an error
/// that lists the expected ones), `ALL`, `as_str`, `from_name`, `Display`, `FromStr` and a
/// JSON Schema `enum`. Two forms:
///
/// * `Name (inline: bool) { Variant => "value", ... }`: a string enum (0.1, 0.3); `inline` says
///   whether `a2a.json` declares it inline rather than as a definition;
/// * `Name { Variant = number => "NAME", ... }`: a proto enum as ProtoJSON writes it (1.0): the
///   full name out, the name or the number in, `number`, `from_number`, `is_unspecified`, and
///   `Default` (the `*_UNSPECIFIED` value, listed first).
///
/// The caller gives the enum's attributes: `#[non_exhaustive]` for an enum that may grow, or an
/// `expect` of `clippy::exhaustive_enums` for a frozen version's.
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $name:ident (inline: $inline:literal) {
            $( $(#[$vmeta:meta])* $variant:ident => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        $crate::macros::string_enum!(@common $name, $inline, [$($variant => $wire),+]);

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_str($crate::macros::string_enum!(@visitor $name, "string"))
            }
        }
    };
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $num:literal => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant = $num, )+
        }

        $crate::macros::string_enum!(@common $name, false, [$($variant => $wire),+]);

        impl $name {
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
        }

        impl Default for $name {
            /// The `*_UNSPECIFIED` value (number 0), listed first.
            fn default() -> Self {
                Self::ALL[0]
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any($crate::macros::string_enum!(@visitor $name, "name or number", numbers))
            }
        }
    };
    (@common $name:ident, $inline:literal, [$($variant:ident => $wire:literal),+]) => {
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

            /// The wire names, comma-separated, for errors.
            fn expected() -> String {
                [$($wire),+].join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::v1::UnknownEnumValue;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::from_name(s).ok_or_else(|| $crate::v1::UnknownEnumValue {
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

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                $inline
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!(module_path!(), "::", stringify!($name)).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "enum": [$($wire),+],
                })
            }
        }
    };
    (@visitor $name:ident, $what:literal $(, $numbers:ident)?) => {{
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = $name;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!("a ", stringify!($name), " ", $what))
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                $name::from_name(v).ok_or_else(|| {
                    E::custom(format_args!(
                        "unknown enum value `{v}` for {}, expected one of {}",
                        stringify!($name),
                        $name::expected()
                    ))
                })
            }

            $(
                fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<$name, E> {
                    let _ = stringify!($numbers);
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
                    match i64::try_from(v) {
                        Ok(v) => self.visit_i64(v),
                        Err(_) => Err(E::custom(format_args!(
                            "unknown enum number {v} for {}",
                            stringify!($name)
                        ))),
                    }
                }
            )?
        }
        V
    }};
}
pub(crate) use string_enum;
