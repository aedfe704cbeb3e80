//! Proto `oneof`s as ProtoJSON writes them: flat, no wrapper, no discriminator. Exactly one
//! member key appears; none or two is an error. Unknown keys beside the member are ignored.

/// The error for an object that holds two members of one oneof.
pub(crate) fn two_members<E: serde::de::Error>(
    owner: &str,
    oneof: &str,
    first: &str,
    second: &str,
) -> E {
    E::custom(format_args!(
        "{owner} holds both `{first}` and `{second}`, but oneof `{oneof}` allows exactly one"
    ))
}

/// The error for an object that holds no member of a oneof.
pub(crate) fn no_member<E: serde::de::Error>(owner: &str, oneof: &str, members: &[&str]) -> E {
    E::custom(format_args!(
        "{owner} needs exactly one of `{}` (oneof `{oneof}`), found none",
        members.join("`, `")
    ))
}

/// JSON Schema of an object whose `members` form a oneof, beside optional `extra` properties.
#[cfg(feature = "schemars")]
pub(crate) fn schema(
    members: Vec<(&'static str, schemars::Schema)>,
    extra: Vec<(&'static str, schemars::Schema)>,
) -> schemars::Schema {
    let mut properties = serde_json::Map::new();
    let mut one_of = Vec::new();
    for (name, schema) in members {
        properties.insert(name.to_owned(), schema.into());
        one_of.push(serde_json::json!({ "required": [name] }));
    }
    for (name, schema) in extra {
        properties.insert(name.to_owned(), schema.into());
    }
    schemars::json_schema!({
        "type": "object",
        "properties": properties,
        "oneOf": one_of,
    })
}

/// A Rust enum for a message that holds nothing but one oneof.
macro_rules! oneof_enum {
    (
        $(#[$meta:meta])*
        $name:ident as $oneof:literal {
            $( $(#[$vmeta:meta])* $variant:ident($ty:ty) = $json:literal $(| $alias:literal)?, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant($ty), )+
        }

        impl $name {
            /// The JSON key of the member this value holds.
            pub const fn member_name(&self) -> &'static str {
                match self {
                    $( $name::$variant(_) => $json, )+
                }
            }
        }

        $(
            impl From<$ty> for $name {
                fn from(value: $ty) -> Self {
                    $name::$variant(value)
                }
            }
        )+

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap as _;
                let mut map = s.serialize_map(Some(1))?;
                match self {
                    $( $name::$variant(v) => map.serialize_entry($json, v)?, )+
                }
                map.end()
            }
        }

        const _: () = {
            #[allow(non_camel_case_types)]
            enum Field { $( $variant, )+ Other }

            impl<'de> serde::Deserialize<'de> for Field {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    struct V;
                    impl serde::de::Visitor<'_> for V {
                        type Value = Field;
                        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                            f.write_str("a field name")
                        }
                        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Field, E> {
                            Ok(match v {
                                $( $json $(| $alias)? => Field::$variant, )+
                                _ => Field::Other,
                            })
                        }
                    }
                    d.deserialize_identifier(V)
                }
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    struct V;
                    impl<'de> serde::de::Visitor<'de> for V {
                        type Value = $name;

                        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                            f.write_str(concat!("a ", stringify!($name), " object"))
                        }

                        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$name, A::Error> {
                            let mut found: Option<$name> = None;
                            while let Some(field) = map.next_key::<Field>()? {
                                match field {
                                    $(
                                        Field::$variant => {
                                            // ProtoJSON: a `null` member is an absent member.
                                            if let Some(v) = map.next_value::<Option<$ty>>()? {
                                                if let Some(prev) = &found {
                                                    return Err($crate::v1::oneof::two_members(
                                                        stringify!($name), $oneof, prev.member_name(), $json,
                                                    ));
                                                }
                                                found = Some($name::$variant(v));
                                            }
                                        }
                                    )+
                                    Field::Other => {
                                        map.next_value::<serde::de::IgnoredAny>()?;
                                    }
                                }
                            }
                            found.ok_or_else(|| {
                                $crate::v1::oneof::no_member(stringify!($name), $oneof, &[$($json),+])
                            })
                        }
                    }
                    d.deserialize_map(V)
                }
            }
        };

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!("a2a_types::v1::", stringify!($name)).into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                $crate::v1::oneof::schema(
                    vec![$( ($json, generator.subschema_for::<$ty>()), )+],
                    vec![],
                )
            }
        }
    };
}

pub(crate) use oneof_enum;
