//! proptest strategies for every message of A2A 1.0 (`a2a_types::v1`), shared by the property
//! tests: the JSON round trips (`tests/v1_proptest.rs`) and the protobuf ones of the gRPC binding
//! (`tests/grpc_proptest.rs`).

use a2a_types::v1::*;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Non-empty text from a mixed alphabet (ProtoJSON and protobuf cannot tell an empty optional
/// string from an absent one).
pub fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _.:/\u{e9}\u{4e16}\u{1f600}-]{1,12}"
}

/// A JSON scalar.
pub fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1.0e9f64..1.0e9).prop_map(Value::from),
        text().prop_map(Value::String),
    ]
}

/// Any JSON value, nested up to three levels.
pub fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map(text(), inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An optional `Struct` (metadata, params).
pub fn metadata() -> impl Strategy<Value = Option<Map<String, Value>>> {
    option::of(btree_map(text(), json_value(), 0..3).prop_map(|m| m.into_iter().collect()))
}

/// A timestamp within 0001-01-01..9999-12-31, with nanoseconds.
pub fn timestamp() -> impl Strategy<Value = Timestamp> {
    (-62_135_596_800i64..253_402_300_799, 0u32..1_000_000_000)
        .prop_map(|(s, n)| Timestamp::from_unix(s, n).expect("in range"))
}

/// A part of any content, with or without metadata, filename and media type.
pub fn part() -> impl Strategy<Value = Part> {
    let content = prop_oneof![
        text().prop_map(Part::text),
        vec(any::<u8>(), 0..24).prop_map(Part::raw),
        text().prop_map(Part::url),
        json_value().prop_map(Part::data),
    ];
    (content, metadata(), option::of(text()), option::of(text())).prop_map(|(mut p, m, f, t)| {
        p.metadata = m;
        p.filename = f;
        p.media_type = t;
        p
    })
}

/// Any role.
pub fn role() -> impl Strategy<Value = Role> {
    prop::sample::select(Role::ALL.to_vec())
}

/// Any task state.
pub fn state() -> impl Strategy<Value = TaskState> {
    prop::sample::select(TaskState::ALL.to_vec())
}

/// A message with every field set or not.
pub fn message() -> impl Strategy<Value = Message> {
    (
        text(),
        option::of(text()),
        option::of(text()),
        role(),
        vec(part(), 0..3),
        metadata(),
        vec(text(), 0..2),
        vec(text(), 0..2),
    )
        .prop_map(|(id, ctx, task, role, parts, meta, ext, refs)| {
            let mut m = Message::new(id, role, parts)
                .with_extensions(ext)
                .with_reference_task_ids(refs);
            m.context_id = ctx.map(ContextId::from);
            m.task_id = task.map(TaskId::from);
            m.metadata = meta;
            m
        })
}

/// An artifact with every field set or not.
pub fn artifact() -> impl Strategy<Value = Artifact> {
    (
        text(),
        option::of(text()),
        option::of(text()),
        vec(part(), 0..3),
        metadata(),
        vec(text(), 0..2),
    )
        .prop_map(|(id, name, desc, parts, meta, ext)| {
            let mut a = Artifact::new(id, parts).with_extensions(ext);
            a.name = name;
            a.description = desc;
            a.metadata = meta;
            a
        })
}

/// A task status.
pub fn status() -> impl Strategy<Value = TaskStatus> {
    (state(), option::of(message()), option::of(timestamp())).prop_map(|(s, m, t)| {
        let mut status = TaskStatus::new(s);
        status.message = m;
        status.timestamp = t;
        status
    })
}

/// A task.
pub fn task() -> impl Strategy<Value = Task> {
    (
        text(),
        option::of(text()),
        status(),
        vec(artifact(), 0..2),
        vec(message(), 0..2),
        metadata(),
    )
        .prop_map(|(id, ctx, status, artifacts, history, meta)| {
            let mut t = Task::new(id, "x", status)
                .with_artifacts(artifacts)
                .with_history(history);
            t.context_id = ctx.map(ContextId::from);
            t.metadata = meta;
            t
        })
}

/// Any `StreamResponse`: a task, a message, a status or an artifact update.
pub fn stream_response() -> impl Strategy<Value = StreamResponse> {
    prop_oneof![
        task().prop_map(StreamResponse::from),
        message().prop_map(StreamResponse::from),
        (text(), text(), status(), metadata()).prop_map(|(t, c, s, m)| {
            let mut e = TaskStatusUpdateEvent::new(t, c, s);
            e.metadata = m;
            StreamResponse::from(e)
        }),
        (
            text(),
            text(),
            artifact(),
            any::<bool>(),
            any::<bool>(),
            metadata()
        )
            .prop_map(|(t, c, a, ap, last, m)| {
                let mut e = TaskArtifactUpdateEvent::new(t, c, a)
                    .with_append(ap)
                    .with_last_chunk(last);
                e.metadata = m;
                StreamResponse::from(e)
            }),
    ]
}

/// OAuth scopes.
pub fn scopes() -> impl Strategy<Value = Scopes> {
    btree_map(text(), text(), 0..3)
}

/// Any OAuth flow, every optional field set or not.
pub fn oauth_flows() -> impl Strategy<Value = OAuthFlows> {
    prop_oneof![
        (text(), text(), option::of(text()), scopes(), any::<bool>()).prop_map(
            |(a, t, r, s, pkce)| {
                let mut f = AuthorizationCodeOAuthFlow::new(a, t, s).with_pkce_required(pkce);
                f.refresh_url = r;
                OAuthFlows::from(f)
            }
        ),
        (text(), option::of(text()), scopes()).prop_map(|(t, r, s)| {
            let mut f = ClientCredentialsOAuthFlow::new(t, s);
            f.refresh_url = r;
            OAuthFlows::from(f)
        }),
        (option::of(text()), option::of(text()), scopes()).prop_map(|(a, r, s)| {
            let mut f = ImplicitOAuthFlow::new().with_scopes(s);
            f.authorization_url = a;
            f.refresh_url = r;
            OAuthFlows::from(f)
        }),
        (option::of(text()), option::of(text()), scopes()).prop_map(|(t, r, s)| {
            let mut f = PasswordOAuthFlow::new().with_scopes(s);
            f.token_url = t;
            f.refresh_url = r;
            OAuthFlows::from(f)
        }),
        (text(), text(), option::of(text()), scopes()).prop_map(|(d, t, r, s)| {
            let mut f = DeviceCodeOAuthFlow::new(d, t, s);
            f.refresh_url = r;
            OAuthFlows::from(f)
        }),
    ]
}

/// Any security scheme, every OAuth flow included, descriptions set or not.
pub fn security_scheme() -> impl Strategy<Value = SecurityScheme> {
    let described = option::of(text());
    let scheme = prop_oneof![
        (text(), text()).prop_map(|(l, n)| SecurityScheme::from(ApiKeySecurityScheme::new(l, n))),
        (text(), option::of(text())).prop_map(|(s, b)| {
            let mut h = HttpAuthSecurityScheme::new(s);
            h.bearer_format = b;
            SecurityScheme::from(h)
        }),
        (oauth_flows(), option::of(text())).prop_map(|(f, url)| {
            let mut o = OAuth2SecurityScheme::new(f);
            o.oauth2_metadata_url = url;
            SecurityScheme::from(o)
        }),
        text().prop_map(|u| SecurityScheme::from(OpenIdConnectSecurityScheme::new(u))),
        Just(SecurityScheme::from(MutualTlsSecurityScheme::new())),
    ];
    (scheme, described).prop_map(|(mut scheme, d)| {
        match &mut scheme {
            SecurityScheme::ApiKey(s) => s.description = d,
            SecurityScheme::HttpAuth(s) => s.description = d,
            SecurityScheme::OAuth2(s) => s.description = d,
            SecurityScheme::OpenIdConnect(s) => s.description = d,
            SecurityScheme::Mtls(s) => s.description = d,
            _ => {}
        }
        scheme
    })
}

/// A security requirement: scheme names and their scopes.
pub fn security_requirement() -> impl Strategy<Value = SecurityRequirement> {
    btree_map(text(), vec(text(), 0..2), 0..2).prop_map(|r| {
        r.into_iter()
            .fold(SecurityRequirement::new(), |acc, (k, v)| {
                acc.with_scheme(k, v)
            })
    })
}

/// A skill with every field set or not.
pub fn agent_skill() -> impl Strategy<Value = AgentSkill> {
    (
        (text(), text(), text(), vec(text(), 0..2)),
        vec(text(), 0..2),
        vec(text(), 0..2),
        vec(text(), 0..2),
        vec(security_requirement(), 0..2),
    )
        .prop_map(|((i, n, d, t), examples, input, output, security)| {
            let mut skill = AgentSkill::new(i, n, d, t);
            skill.examples = examples;
            skill.input_modes = input;
            skill.output_modes = output;
            skill.security_requirements = security;
            skill
        })
}

/// An extension declaration.
pub fn agent_extension() -> impl Strategy<Value = AgentExtension> {
    (
        option::of(text()),
        option::of(text()),
        any::<bool>(),
        metadata(),
    )
        .prop_map(|(uri, description, required, params)| {
            let mut e = AgentExtension::default();
            e.uri = uri;
            e.description = description;
            e.required = required;
            e.params = params;
            e
        })
}

/// A card signature.
pub fn agent_card_signature() -> impl Strategy<Value = AgentCardSignature> {
    (text(), text(), metadata()).prop_map(|(p, s, h)| {
        let mut signature = AgentCardSignature::new(p, s);
        signature.header = h;
        signature
    })
}

/// An agent card with every field set or not.
pub fn agent_card() -> impl Strategy<Value = AgentCard> {
    let base = (
        (text(), text(), text()),
        vec((text(), text(), option::of(text()), text()), 0..3),
        option::of((text(), text())),
        (
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            vec(agent_extension(), 0..2),
        ),
        btree_map(text(), security_scheme(), 0..3),
        vec(security_requirement(), 0..2),
        vec(agent_skill(), 0..2),
        option::of(text()),
    )
        .prop_map(
            |((n, d, v), ifaces, provider, (st, push, ext, exts), schemes, reqs, skills, icon)| {
                let mut card = AgentCard::new(n, d, v)
                    .with_supported_interfaces(ifaces.into_iter().map(|(u, b, t, pv)| {
                        let mut i = AgentInterface::new(u, b, pv);
                        i.tenant = t;
                        i
                    }))
                    .with_capabilities({
                        let mut c = AgentCapabilities::default();
                        c.streaming = st;
                        c.push_notifications = push;
                        c.extended_agent_card = ext;
                        c.extensions = exts;
                        c
                    })
                    .with_security_requirements(reqs)
                    .with_skills(skills);
                card.provider = provider.map(|(o, u)| AgentProvider::new(o, u));
                card.security_schemes = schemes;
                card.icon_url = icon;
                card
            },
        );
    (
        base,
        option::of(text()),
        vec(text(), 0..2),
        vec(text(), 0..2),
        vec(agent_card_signature(), 0..2),
    )
        .prop_map(|(mut card, docs, input, output, signatures)| {
            card.documentation_url = docs;
            card.default_input_modes = input;
            card.default_output_modes = output;
            card.signatures = signatures;
            card
        })
}

/// A push notification config, every field set or not.
pub fn push_config() -> impl Strategy<Value = TaskPushNotificationConfig> {
    (
        (option::of(text()), option::of(text()), option::of(text())),
        text(),
        option::of(text()),
        option::of((text(), option::of(text()))),
    )
        .prop_map(|((tenant, id, task), url, token, auth)| {
            let mut c = TaskPushNotificationConfig::new(url);
            c.tenant = tenant;
            c.id = id;
            c.task_id = task.map(TaskId::from);
            c.token = token;
            c.authentication = auth.map(|(scheme, credentials)| {
                let mut a = AuthenticationInfo::new(scheme);
                a.credentials = credentials;
                a
            });
            c
        })
}

/// A `SendMessageRequest` with or without a configuration (push config included).
pub fn send_message_request() -> impl Strategy<Value = SendMessageRequest> {
    let configuration = (
        vec(text(), 0..3),
        option::of(push_config()),
        option::of(any::<i32>()),
        any::<bool>(),
    )
        .prop_map(|(modes, push, hl, ri)| {
            let mut config = SendMessageConfiguration::default()
                .with_return_immediately(ri)
                .with_accepted_output_modes(modes);
            config.task_push_notification_config = push;
            config.history_length = hl;
            config
        });
    (
        option::of(text()),
        message(),
        option::of(configuration),
        metadata(),
    )
        .prop_map(|(tenant, message, configuration, meta)| {
            let mut req = SendMessageRequest::new(message);
            req.tenant = tenant;
            req.configuration = configuration;
            req.metadata = meta;
            req
        })
}

/// A `SendMessageResponse`: a task or a message.
pub fn send_message_response() -> impl Strategy<Value = SendMessageResponse> {
    prop_oneof![
        task().prop_map(SendMessageResponse::from),
        message().prop_map(SendMessageResponse::from),
    ]
}

/// The fields of the requests that name a task: (tenant, id, history length, metadata).
pub type TaskRequestFields = (
    Option<String>,
    String,
    Option<i32>,
    Option<Map<String, Value>>,
);

/// The requests that name a task: `GetTaskRequest`, `CancelTaskRequest`,
/// `SubscribeToTaskRequest`.
pub fn task_request_fields() -> impl Strategy<Value = TaskRequestFields> {
    (
        option::of(text()),
        text(),
        option::of(any::<i32>()),
        metadata(),
    )
}

/// The push config requests that name a task and a config, as (tenant, task id, config id).
pub fn config_request_fields() -> impl Strategy<Value = (Option<String>, String, String)> {
    (option::of(text()), text(), text())
}

/// A `ListTaskPushNotificationConfigsRequest`.
pub fn list_push_configs_request() -> impl Strategy<Value = ListTaskPushNotificationConfigsRequest>
{
    (option::of(text()), text(), any::<i32>(), option::of(text())).prop_map(
        |(tenant, task, size, token)| {
            let mut r = ListTaskPushNotificationConfigsRequest::new(task);
            r.tenant = tenant;
            r.page_size = size;
            r.page_token = token;
            r
        },
    )
}

/// A `ListTaskPushNotificationConfigsResponse`.
pub fn list_push_configs_response() -> impl Strategy<Value = ListTaskPushNotificationConfigsResponse>
{
    (vec(push_config(), 0..3), option::of(text()))
        .prop_map(|(configs, token)| ListTaskPushNotificationConfigsResponse::new(configs, token))
}

/// A `ListTasksResponse`.
pub fn list_tasks_response() -> impl Strategy<Value = ListTasksResponse> {
    (
        vec(task(), 0..3),
        "[a-z0-9]{0,8}",
        any::<i32>(),
        any::<i32>(),
    )
        .prop_map(|(tasks, token, ps, total)| ListTasksResponse::new(tasks, token, ps, total))
}

/// A `ListTasksRequest`.
pub fn list_tasks_request() -> impl Strategy<Value = ListTasksRequest> {
    (
        option::of(text()),
        option::of(text()),
        state(),
        option::of(any::<i32>()),
        option::of(text()),
        option::of(any::<i32>()),
        option::of(timestamp()),
        option::of(any::<bool>()),
    )
        .prop_map(|(tenant, ctx, st, ps, pt, hl, after, inc)| {
            let mut r = ListTasksRequest::new().with_status(st);
            r.tenant = tenant;
            r.context_id = ctx.map(ContextId::from);
            r.page_size = ps;
            r.page_token = pt;
            r.history_length = hl;
            r.status_timestamp_after = after;
            r.include_artifacts = inc;
            r
        })
}
