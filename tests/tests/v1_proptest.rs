//! Property test: arbitrary A2A 1.0 values survive a JSON round trip unchanged.

use a2a_types::v1::*;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value};

fn text() -> impl Strategy<Value = String> {
    // Non-empty: ProtoJSON cannot tell an empty optional string from an absent one.
    "[a-zA-Z0-9 _.:/\u{e9}\u{4e16}\u{1f600}-]{1,12}"
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1.0e9f64..1.0e9).prop_map(Value::from),
        text().prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map(text(), inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn metadata() -> impl Strategy<Value = Option<Map<String, Value>>> {
    option::of(btree_map(text(), json_value(), 0..3).prop_map(|m| m.into_iter().collect()))
}

fn timestamp() -> impl Strategy<Value = Timestamp> {
    (-62_135_596_800i64..253_402_300_799, 0u32..1_000_000_000)
        .prop_map(|(s, n)| Timestamp::from_unix(s, n).expect("in range"))
}

fn part() -> impl Strategy<Value = Part> {
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

fn role() -> impl Strategy<Value = Role> {
    prop::sample::select(Role::ALL.to_vec())
}

fn state() -> impl Strategy<Value = TaskState> {
    prop::sample::select(TaskState::ALL.to_vec())
}

fn message() -> impl Strategy<Value = Message> {
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

fn artifact() -> impl Strategy<Value = Artifact> {
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

fn status() -> impl Strategy<Value = TaskStatus> {
    (state(), option::of(message()), option::of(timestamp())).prop_map(|(s, m, t)| {
        let mut status = TaskStatus::new(s);
        status.message = m;
        status.timestamp = t;
        status
    })
}

fn task() -> impl Strategy<Value = Task> {
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

fn stream_response() -> impl Strategy<Value = StreamResponse> {
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

fn scopes() -> impl Strategy<Value = Scopes> {
    btree_map(text(), text(), 0..3)
}

fn security_scheme() -> impl Strategy<Value = SecurityScheme> {
    let flows = prop_oneof![
        (text(), text(), option::of(text()), scopes(), any::<bool>()).prop_map(
            |(a, t, r, s, pkce)| {
                let mut f = AuthorizationCodeOAuthFlow::new(a, t, s).with_pkce_required(pkce);
                f.refresh_url = r;
                OAuthFlows::from(f)
            }
        ),
        (text(), scopes())
            .prop_map(|(t, s)| OAuthFlows::from(ClientCredentialsOAuthFlow::new(t, s))),
        scopes().prop_map(|s| OAuthFlows::from(ImplicitOAuthFlow::new().with_scopes(s))),
        text().prop_map(|t| OAuthFlows::from(PasswordOAuthFlow::new().with_token_url(t))),
        (text(), text(), scopes())
            .prop_map(|(d, t, s)| OAuthFlows::from(DeviceCodeOAuthFlow::new(d, t, s))),
    ];
    prop_oneof![
        (text(), text()).prop_map(|(l, n)| SecurityScheme::from(ApiKeySecurityScheme::new(l, n))),
        (text(), option::of(text())).prop_map(|(s, b)| {
            let mut h = HttpAuthSecurityScheme::new(s);
            h.bearer_format = b;
            SecurityScheme::from(h)
        }),
        flows.prop_map(|f| SecurityScheme::from(OAuth2SecurityScheme::new(f))),
        text().prop_map(|u| SecurityScheme::from(OpenIdConnectSecurityScheme::new(u))),
        option::of(text()).prop_map(|d| {
            let mut m = MutualTlsSecurityScheme::new();
            m.description = d;
            SecurityScheme::from(m)
        }),
    ]
}

fn agent_card() -> impl Strategy<Value = AgentCard> {
    (
        (text(), text(), text()),
        vec((text(), text(), option::of(text()), text()), 0..3),
        option::of((text(), text())),
        (
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            option::of(any::<bool>()),
        ),
        btree_map(text(), security_scheme(), 0..3),
        vec(btree_map(text(), vec(text(), 0..2), 0..2), 0..2),
        vec((text(), text(), text(), vec(text(), 0..2)), 0..2),
        option::of(text()),
    )
        .prop_map(
            |((n, d, v), ifaces, provider, (st, push, ext), schemes, reqs, skills, icon)| {
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
                        c
                    })
                    .with_security_requirements(reqs.into_iter().map(|r| {
                        r.into_iter()
                            .fold(SecurityRequirement::new(), |acc, (k, v)| {
                                acc.with_scheme(k, v)
                            })
                    }))
                    .with_skills(
                        skills
                            .into_iter()
                            .map(|(i, n, d, t)| AgentSkill::new(i, n, d, t)),
                    );
                card.provider = provider.map(|(o, u)| AgentProvider::new(o, u));
                card.security_schemes = schemes;
                card.icon_url = icon;
                card
            },
        )
}

fn list_tasks_request() -> impl Strategy<Value = ListTasksRequest> {
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

fn roundtrip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(value).unwrap();
    let back: T = a2a_types::json::from_str(&json)
        .map_err(|e| TestCaseError::fail(format!("{e} in {json}")))?;
    prop_assert_eq!(&back, value, "through {}", json);
    // Exact in what we send: the second encoding is byte-identical.
    prop_assert_eq!(serde_json::to_string(&back).unwrap(), json);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn stream_responses_round_trip(value in stream_response()) {
        roundtrip(&value)?;
    }

    #[test]
    fn send_message_requests_round_trip(
        msg in message(),
        hl in option::of(any::<i32>()),
        ri in any::<bool>(),
        modes in vec(text(), 0..3),
        meta in metadata(),
    ) {
        let mut config = SendMessageConfiguration::default().with_return_immediately(ri).with_accepted_output_modes(modes);
        config.history_length = hl;
        let mut req = SendMessageRequest::new(msg).with_configuration(config);
        req.metadata = meta;
        roundtrip(&req)?;
    }

    #[test]
    fn agent_cards_round_trip(card in agent_card()) {
        roundtrip(&card)?;
    }

    #[test]
    fn list_tasks_requests_round_trip(req in list_tasks_request()) {
        roundtrip(&req)?;
    }

    #[test]
    fn list_tasks_responses_round_trip(tasks in vec(task(), 0..3), token in "[a-z0-9]{0,8}", ps in any::<i32>(), total in any::<i32>()) {
        roundtrip(&ListTasksResponse::new(tasks, token, ps, total))?;
    }
}
