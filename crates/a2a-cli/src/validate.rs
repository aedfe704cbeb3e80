//! `card get --validate`: a card document checked against the A2A 1.0 schema of `AgentCard`
//! (the JSON types of each member, the members the proto marks REQUIRED, one member in each
//! oneof), plus what the schema cannot say: security requirements naming declared schemes,
//! API-key locations, absolute interface URLs.
//!
//! Errors make the card invalid. Warnings do not: members the 1.0 schema does not define (the
//! 0.3 members of the "union" cards SDKs serve, `url`, `preferredTransport`...), proto
//! field names (`supported_interfaces`) where the JSON names are camelCase, unknown bindings.

use serde_json::{Map, Value};

/// The top-level members a 0.3, 0.2 or 0.1 client reads, which a "union" card carries beside the
/// 1.0 ones (docs/versions.md): accepted without a warning.
const LEGACY_CARD_FIELDS: &[&str] = &[
    "url",
    "preferredTransport",
    "protocolVersion",
    "additionalInterfaces",
    "supportsAuthenticatedExtendedCard",
    "security",
    "authentication",
];

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Severity {
    /// The card is invalid.
    Error,
    /// Worth knowing; the card is still valid.
    Warning,
}

/// One finding: where (a JSON path) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// Error or warning.
    pub(crate) severity: Severity,
    /// `supportedInterfaces[0].url`.
    pub(crate) path: String,
    /// What is wrong.
    pub(crate) message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.path.is_empty() {
            write!(f, "{severity}: {}", self.message)
        } else {
            write!(f, "{severity}: {}: {}", self.path, self.message)
        }
    }
}

/// The JSON type of a member.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Str,
    Bool,
    /// A message of the table.
    Msg(&'static Message),
    /// A list of strings.
    Strings,
    /// A list of messages.
    List(&'static Message),
    /// An object of string keys to messages.
    MapOf(&'static Message),
    /// An object of string keys to strings.
    StringMap,
    /// `google.protobuf.Struct`: any object.
    Struct,
}

/// A member of a message: JSON name, type, REQUIRED.
#[derive(Clone, Copy, Debug)]
struct Field(&'static str, Kind, bool);

/// A message: its members; a oneof message has exactly one.
#[derive(Debug)]
struct Message {
    fields: &'static [Field],
    oneof: bool,
}

use Kind::{Bool, List, MapOf, Msg, Str, StringMap, Strings};

static CARD: Message = Message {
    fields: &[
        Field("name", Str, true),
        Field("description", Str, true),
        Field("supportedInterfaces", List(&INTERFACE), true),
        Field("provider", Msg(&PROVIDER), false),
        Field("version", Str, true),
        Field("documentationUrl", Str, false),
        Field("capabilities", Msg(&CAPABILITIES), true),
        Field("securitySchemes", MapOf(&SCHEME), false),
        Field("securityRequirements", List(&REQUIREMENT), false),
        Field("defaultInputModes", Strings, true),
        Field("defaultOutputModes", Strings, true),
        Field("skills", List(&SKILL), true),
        Field("signatures", List(&SIGNATURE), false),
        Field("iconUrl", Str, false),
    ],
    oneof: false,
};
static INTERFACE: Message = Message {
    fields: &[
        Field("url", Str, true),
        Field("protocolBinding", Str, true),
        Field("tenant", Str, false),
        Field("protocolVersion", Str, true),
    ],
    oneof: false,
};
static PROVIDER: Message = Message {
    fields: &[Field("url", Str, true), Field("organization", Str, true)],
    oneof: false,
};
static CAPABILITIES: Message = Message {
    fields: &[
        Field("streaming", Bool, false),
        Field("pushNotifications", Bool, false),
        Field("extensions", List(&EXTENSION), false),
        Field("extendedAgentCard", Bool, false),
    ],
    oneof: false,
};
static EXTENSION: Message = Message {
    fields: &[
        Field("uri", Str, false),
        Field("description", Str, false),
        Field("required", Bool, false),
        Field("params", Kind::Struct, false),
    ],
    oneof: false,
};
static SKILL: Message = Message {
    fields: &[
        Field("id", Str, true),
        Field("name", Str, true),
        Field("description", Str, true),
        Field("tags", Strings, true),
        Field("examples", Strings, false),
        Field("inputModes", Strings, false),
        Field("outputModes", Strings, false),
        Field("securityRequirements", List(&REQUIREMENT), false),
    ],
    oneof: false,
};
static SIGNATURE: Message = Message {
    fields: &[
        Field("protected", Str, true),
        Field("signature", Str, true),
        Field("header", Kind::Struct, false),
    ],
    oneof: false,
};
static REQUIREMENT: Message = Message {
    fields: &[Field("schemes", MapOf(&STRING_LIST), false)],
    oneof: false,
};
static STRING_LIST: Message = Message {
    fields: &[Field("list", Strings, false)],
    oneof: false,
};
static SCHEME: Message = Message {
    fields: &[
        Field("apiKeySecurityScheme", Msg(&API_KEY), false),
        Field("httpAuthSecurityScheme", Msg(&HTTP_AUTH), false),
        Field("oauth2SecurityScheme", Msg(&OAUTH2), false),
        Field("openIdConnectSecurityScheme", Msg(&OIDC), false),
        Field("mtlsSecurityScheme", Msg(&MTLS), false),
    ],
    oneof: true,
};
static API_KEY: Message = Message {
    fields: &[
        Field("description", Str, false),
        Field("location", Str, true),
        Field("name", Str, true),
    ],
    oneof: false,
};
static HTTP_AUTH: Message = Message {
    fields: &[
        Field("description", Str, false),
        Field("scheme", Str, true),
        Field("bearerFormat", Str, false),
    ],
    oneof: false,
};
static OAUTH2: Message = Message {
    fields: &[
        Field("description", Str, false),
        Field("flows", Msg(&FLOWS), true),
        Field("oauth2MetadataUrl", Str, false),
    ],
    oneof: false,
};
static OIDC: Message = Message {
    fields: &[
        Field("description", Str, false),
        Field("openIdConnectUrl", Str, true),
    ],
    oneof: false,
};
static MTLS: Message = Message {
    fields: &[Field("description", Str, false)],
    oneof: false,
};
static FLOWS: Message = Message {
    fields: &[
        Field("authorizationCode", Msg(&AUTH_CODE), false),
        Field("clientCredentials", Msg(&CLIENT_CREDENTIALS), false),
        Field("implicit", Msg(&IMPLICIT), false),
        Field("password", Msg(&PASSWORD), false),
        Field("deviceCode", Msg(&DEVICE_CODE), false),
    ],
    oneof: true,
};
static AUTH_CODE: Message = Message {
    fields: &[
        Field("authorizationUrl", Str, true),
        Field("tokenUrl", Str, true),
        Field("refreshUrl", Str, false),
        Field("scopes", StringMap, true),
        Field("pkceRequired", Bool, false),
    ],
    oneof: false,
};
static CLIENT_CREDENTIALS: Message = Message {
    fields: &[
        Field("tokenUrl", Str, true),
        Field("refreshUrl", Str, false),
        Field("scopes", StringMap, true),
    ],
    oneof: false,
};
static IMPLICIT: Message = Message {
    fields: &[
        Field("authorizationUrl", Str, false),
        Field("refreshUrl", Str, false),
        Field("scopes", StringMap, false),
    ],
    oneof: false,
};
static PASSWORD: Message = Message {
    fields: &[
        Field("tokenUrl", Str, false),
        Field("refreshUrl", Str, false),
        Field("scopes", StringMap, false),
    ],
    oneof: false,
};
static DEVICE_CODE: Message = Message {
    fields: &[
        Field("deviceAuthorizationUrl", Str, true),
        Field("tokenUrl", Str, true),
        Field("refreshUrl", Str, false),
        Field("scopes", StringMap, true),
    ],
    oneof: false,
};

/// `snake_case` as `camelCase`.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

struct Check {
    problems: Vec<Problem>,
}

impl Check {
    fn error(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            severity: Severity::Error,
            path: path.to_owned(),
            message: message.into(),
        });
    }

    fn warn(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            severity: Severity::Warning,
            path: path.to_owned(),
            message: message.into(),
        });
    }

    fn message(&mut self, path: &str, value: &Value, message: &'static Message) {
        let Value::Object(object) = value else {
            self.error(
                path,
                format!("expected an object, found {}", type_name(value)),
            );
            return;
        };
        let join = |name: &str| {
            if path.is_empty() {
                name.to_owned()
            } else {
                format!("{path}.{name}")
            }
        };
        // Members by their JSON name; proto names are read too, with a warning.
        let mut members: Map<String, Value> = Map::new();
        for (key, member) in object {
            let known = message.fields.iter().any(|f| f.0 == key);
            let as_camel = camel(key);
            if !known && key.contains('_') && message.fields.iter().any(|f| f.0 == as_camel) {
                self.warn(
                    &join(key),
                    format!("a proto field name: the JSON name is `{as_camel}`"),
                );
                members.insert(as_camel, member.clone());
            } else if known {
                members.insert(key.clone(), member.clone());
            } else if path.is_empty() && LEGACY_CARD_FIELDS.contains(&key.as_str()) {
                // A union card: the 0.3/0.2/0.1 fields beside the 1.0 ones, for older clients
                // (as the official SDKs serve it); not a 1.0 member, and not a problem either.
            } else {
                self.warn(&join(key), "not a member of the A2A 1.0 schema");
            }
        }
        let mut set = 0;
        for Field(name, kind, required) in message.fields {
            let path = join(name);
            match members.get(*name) {
                None | Some(Value::Null) => {
                    if *required {
                        self.error(&path, "required, missing");
                    }
                }
                Some(member) => {
                    set += 1;
                    self.member(&path, member, *kind, *required);
                }
            }
        }
        if message.oneof && set != 1 {
            let names: Vec<&str> = message.fields.iter().map(|f| f.0).collect();
            self.error(
                path,
                format!(
                    "exactly one of {} must be set, found {set}",
                    names.join(", ")
                ),
            );
        }
    }

    fn member(&mut self, path: &str, value: &Value, kind: Kind, required: bool) {
        match kind {
            Str => match value {
                Value::String(s) if s.trim().is_empty() && required => {
                    self.error(path, "required, empty");
                }
                Value::String(_) => {}
                other => self.error(
                    path,
                    format!("expected a string, found {}", type_name(other)),
                ),
            },
            Bool => {
                if !value.is_boolean() {
                    self.error(
                        path,
                        format!("expected true or false, found {}", type_name(value)),
                    );
                }
            }
            Msg(message) => self.message(path, value, message),
            Kind::Struct => {
                if !value.is_object() {
                    self.error(
                        path,
                        format!("expected an object, found {}", type_name(value)),
                    );
                }
            }
            Strings => self.list(path, value, required, |check, path, item| {
                if !item.is_string() {
                    check.error(
                        path,
                        format!("expected a string, found {}", type_name(item)),
                    );
                }
            }),
            List(message) => self.list(path, value, required, |check, path, item| {
                check.message(path, item, message);
            }),
            MapOf(message) => self.map(path, value, |check, path, item| {
                check.message(path, item, message);
            }),
            StringMap => self.map(path, value, |check, path, item| {
                if !item.is_string() {
                    check.error(
                        path,
                        format!("expected a string, found {}", type_name(item)),
                    );
                }
            }),
        }
    }

    fn list(
        &mut self,
        path: &str,
        value: &Value,
        required: bool,
        each: impl Fn(&mut Self, &str, &Value),
    ) {
        let Value::Array(items) = value else {
            self.error(path, format!("expected a list, found {}", type_name(value)));
            return;
        };
        if items.is_empty() && required {
            self.error(path, "required, empty");
        }
        for (i, item) in items.iter().enumerate() {
            each(self, &format!("{path}[{i}]"), item);
        }
    }

    fn map(&mut self, path: &str, value: &Value, each: impl Fn(&mut Self, &str, &Value)) {
        let Value::Object(map) = value else {
            self.error(
                path,
                format!("expected an object, found {}", type_name(value)),
            );
            return;
        };
        for (key, item) in map {
            each(self, &format!("{path}.{key}"), item);
        }
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Checks a card document; returns every problem found.
pub(crate) fn validate(document: &[u8]) -> Vec<Problem> {
    let mut check = Check {
        problems: Vec::new(),
    };
    let value: Value = match serde_json::from_slice(document) {
        Ok(value) => value,
        Err(err) => {
            check.error("", format!("not JSON: {err}"));
            return check.problems;
        }
    };
    let protocol_version = a2a_types::card::version_of(&value);
    if protocol_version != a2a_types::card::ProtocolVersion::V1 {
        check.error(
            "",
            format!(
                "a card of {protocol_version} (no supportedInterfaces): the 1.0 schema requires them"
            ),
        );
    }
    check.message("", &value, &CARD);
    semantics(&mut check, &value);
    check.problems
}

/// What the schema cannot say.
fn semantics(check: &mut Check, card: &Value) {
    let get = |v: &Value, camel_name: &str, snake: &str| {
        v.get(camel_name).or_else(|| v.get(snake)).cloned()
    };
    if let Some(Value::Array(interfaces)) = get(card, "supportedInterfaces", "supported_interfaces")
    {
        for (i, interface) in interfaces.iter().enumerate() {
            let path = format!("supportedInterfaces[{i}]");
            let binding = get(interface, "protocolBinding", "protocol_binding");
            let binding = binding.as_ref().and_then(Value::as_str).unwrap_or("");
            let known = ["JSONRPC", "HTTP+JSON", "GRPC"];
            if !binding.is_empty() && !known.contains(&binding) {
                check.warn(
                    &format!("{path}.protocolBinding"),
                    format!(
                        "`{binding}` is none of the bindings A2A defines (JSONRPC, HTTP+JSON, GRPC)"
                    ),
                );
            }
            if let Some(url) = interface.get("url").and_then(Value::as_str) {
                let absolute = url.starts_with("http://") || url.starts_with("https://");
                if binding != "GRPC" && !url.is_empty() && !absolute {
                    check.warn(&format!("{path}.url"), "not an absolute http(s) URL");
                }
            }
            let version = get(interface, "protocolVersion", "protocol_version");
            if let Some(version) = version.as_ref().and_then(Value::as_str) {
                let numeric = version
                    .split('.')
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
                if !version.is_empty() && !numeric {
                    check.warn(
                        &format!("{path}.protocolVersion"),
                        format!("`{version}` is not a version such as 1.0"),
                    );
                }
            }
        }
    }
    let schemes = get(card, "securitySchemes", "security_schemes");
    let declared: Vec<String> = schemes
        .as_ref()
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(Value::Object(schemes)) = &schemes {
        for (name, scheme) in schemes {
            if let Some(api) = scheme.get("apiKeySecurityScheme")
                && let Some(location) = api.get("location").and_then(Value::as_str)
                && !["header", "query", "cookie"].contains(&location)
            {
                check.error(
                    &format!("securitySchemes.{name}.apiKeySecurityScheme.location"),
                    format!("`{location}` is none of header, query, cookie"),
                );
            }
        }
    }
    let mut requirements = Vec::new();
    if let Some(Value::Array(list)) = get(card, "securityRequirements", "security_requirements") {
        requirements.push(("securityRequirements".to_owned(), list));
    }
    if let Some(Value::Array(skills)) = card.get("skills") {
        for (i, skill) in skills.iter().enumerate() {
            if let Some(Value::Array(list)) =
                get(skill, "securityRequirements", "security_requirements")
            {
                requirements.push((format!("skills[{i}].securityRequirements"), list));
            }
        }
    }
    for (path, list) in requirements {
        for (i, requirement) in list.iter().enumerate() {
            if let Some(Value::Object(names)) = requirement.get("schemes") {
                for name in names.keys() {
                    if !declared.contains(name) {
                        check.error(
                            &format!("{path}[{i}].schemes.{name}"),
                            "names a scheme securitySchemes does not declare",
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(card: &str) -> Vec<String> {
        validate(card.as_bytes())
            .into_iter()
            .map(|p| p.to_string())
            .collect()
    }

    const GOOD: &str = r#"{"name":"A","description":"d","version":"1",
        "supportedInterfaces":[{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
        "capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
        "skills":[{"id":"s","name":"S","description":"x","tags":["t"]}]}"#;

    #[test]
    fn a_good_card_has_no_problem() {
        assert_eq!(errors(GOOD), Vec::<String>::new());
    }

    #[test]
    fn problems_name_their_path() {
        let card = r#"{"name":"","description":"d","version":1,
            "supportedInterfaces":[{"url":"/rel","protocolBinding":"SOAP"}],
            "capabilities":{"streaming":"yes"},"defaultInputModes":[],"defaultOutputModes":["x"],
            "skills":[],"url":"http://legacy/","zone":"x",
            "securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"body","name":"k"}},
                               "two":{"apiKeySecurityScheme":{"location":"header","name":"a"},
                                      "mtlsSecurityScheme":{}}},
            "securityRequirements":[{"schemes":{"nope":{"list":[]}}}]}"#;
        assert_eq!(
            errors(card),
            [
                "warning: zone: not a member of the A2A 1.0 schema",
                "error: name: required, empty",
                "error: supportedInterfaces[0].protocolVersion: required, missing",
                "error: version: expected a string, found a number",
                "error: capabilities.streaming: expected true or false, found a string",
                "error: securitySchemes.two: exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme must be set, found 2",
                "error: defaultInputModes: required, empty",
                "error: skills: required, empty",
                "warning: supportedInterfaces[0].protocolBinding: `SOAP` is none of the bindings A2A defines (JSONRPC, HTTP+JSON, GRPC)",
                "warning: supportedInterfaces[0].url: not an absolute http(s) URL",
                "error: securitySchemes.k.apiKeySecurityScheme.location: `body` is none of header, query, cookie",
                "error: securityRequirements[0].schemes.nope: names a scheme securitySchemes does not declare",
            ]
        );
    }

    #[test]
    fn legacy_cards_and_proto_names() {
        let legacy = r#"{"name":"Old","description":"d","url":"https://o/","version":"1",
            "protocolVersion":"0.3.0","capabilities":{},"defaultInputModes":["t"],
            "defaultOutputModes":["t"],"skills":[]}"#;
        let found = errors(legacy);
        assert_eq!(
            found[0],
            "error: a card of A2A 0.2/0.3 (no supportedInterfaces): the 1.0 schema requires them"
        );
        let snake = GOOD.replace("supportedInterfaces", "supported_interfaces");
        assert_eq!(
            errors(&snake),
            [
                "warning: supported_interfaces: a proto field name: the JSON name is `supportedInterfaces`"
            ]
        );
        assert_eq!(
            errors("[1]"),
            [
                "error: a card of A2A 0.2/0.3 (no supportedInterfaces): the 1.0 schema requires them",
                "error: expected an object, found a list"
            ]
        );
    }
}
