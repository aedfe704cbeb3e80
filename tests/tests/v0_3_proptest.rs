//! Property tests of A2A 0.3:
//!
//! * arbitrary 0.3 values survive a JSON round trip unchanged;
//! * converting a 0.3 value to 1.0 and back gives the same value, for every type that crosses
//!   the wire, over the domain where the conversion is lossless. Where the generators stay out of
//!   a corner of the 0.3 value space, the comment says which row of the lossy table in
//!   `docs/versions.md` it is.

use a2a_types::v0_3::*;
use a2a_types::v1;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value};

fn text() -> impl Strategy<Value = String> {
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

fn object() -> impl Strategy<Value = Map<String, Value>> {
    // Keys of at most 12 characters: never `data_part_compat` (lossy table: a 0.3 data part
    // that carries the compat flag itself).
    btree_map(text(), json_value(), 0..3).prop_map(|m| m.into_iter().collect())
}

fn metadata() -> impl Strategy<Value = Option<Map<String, Value>>> {
    option::of(object())
}

fn part() -> impl Strategy<Value = Part> {
    let file = prop_oneof![
        (
            vec(any::<u8>(), 0..24),
            option::of(text()),
            option::of(text())
        )
            .prop_map(|(bytes, mime, name)| {
                let mut f = FileWithBytes::new(bytes);
                f.mime_type = mime;
                f.name = name;
                FileContent::from(f)
            }),
        (text(), option::of(text()), option::of(text())).prop_map(|(uri, mime, name)| {
            let mut f = FileWithUri::new(uri);
            f.mime_type = mime;
            f.name = name;
            FileContent::from(f)
        }),
    ];
    prop_oneof![
        (text(), metadata()).prop_map(|(t, m)| {
            let mut p = TextPart::new(t);
            p.metadata = m;
            Part::from(p)
        }),
        (file, metadata()).prop_map(|(f, m)| {
            let mut p = FilePart::new(f);
            p.metadata = m;
            Part::from(p)
        }),
        (object(), metadata()).prop_map(|(d, m)| {
            let mut p = DataPart::new(d);
            p.metadata = m;
            Part::from(p)
        }),
    ]
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
        role(),
        vec(part(), 0..3),
        option::of(text()),
        option::of(text()),
        vec(text(), 0..2),
        vec(text(), 0..2),
        metadata(),
    )
        .prop_map(|(id, role, parts, ctx, task, refs, ext, meta)| {
            let mut m = Message::new(id, role, parts)
                .with_reference_task_ids(refs)
                .with_extensions(ext);
            m.context_id = ctx;
            m.task_id = task;
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
        vec(text(), 0..2),
        metadata(),
    )
        .prop_map(|(id, name, desc, parts, ext, meta)| {
            let mut a = Artifact::new(id, parts).with_extensions(ext);
            a.name = name;
            a.description = desc;
            a.metadata = meta;
            a
        })
}

/// A timestamp as 1.0 writes it (lossy table: other spellings are normalized).
fn timestamp() -> impl Strategy<Value = String> {
    (-62_135_596_800i64..253_402_300_799, 0u32..1_000_000_000).prop_map(|(s, n)| {
        v1::Timestamp::from_unix(s, n)
            .expect("in range")
            .to_string()
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
            // An empty contextId stands for "none" in 1.0 and comes back empty.
            let mut t = Task::new(id, ctx.unwrap_or_default(), status)
                .with_artifacts(artifacts)
                .with_history(history);
            t.metadata = meta;
            t
        })
}

/// `final` as 1.0 → 0.3 sets it (lossy table: a `final` that disagrees with the state).
fn status_update() -> impl Strategy<Value = TaskStatusUpdateEvent> {
    (text(), text(), status(), metadata()).prop_map(|(t, c, s, m)| {
        let mut e = TaskStatusUpdateEvent::new(t, c, s);
        e.metadata = m;
        e
    })
}

fn artifact_update() -> impl Strategy<Value = TaskArtifactUpdateEvent> {
    (
        text(),
        text(),
        artifact(),
        any::<bool>(),
        any::<bool>(),
        metadata(),
    )
        .prop_map(|(t, c, a, ap, last, m)| {
            let mut e = TaskArtifactUpdateEvent::new(t, c, a)
                .with_append(ap)
                .with_last_chunk(last);
            e.metadata = m;
            e
        })
}

fn stream_event() -> impl Strategy<Value = SendStreamingMessageResult> {
    prop_oneof![
        task().prop_map(SendStreamingMessageResult::from),
        message().prop_map(SendStreamingMessageResult::from),
        status_update().prop_map(SendStreamingMessageResult::from),
        artifact_update().prop_map(SendStreamingMessageResult::from),
    ]
}

fn send_result() -> impl Strategy<Value = SendMessageResult> {
    prop_oneof![
        task().prop_map(SendMessageResult::from),
        message().prop_map(SendMessageResult::from),
    ]
}

/// At most one scheme (lossy table: 1.0 keeps the first of several).
fn authentication() -> impl Strategy<Value = PushNotificationAuthenticationInfo> {
    (vec(text(), 0..=1), option::of(text())).prop_map(|(schemes, creds)| {
        let mut a = PushNotificationAuthenticationInfo::new(schemes);
        a.credentials = creds;
        a
    })
}

fn push_config() -> impl Strategy<Value = PushNotificationConfig> {
    (
        option::of(text()),
        text(),
        option::of(text()),
        option::of(authentication()),
    )
        .prop_map(|(id, url, token, auth)| {
            let mut c = PushNotificationConfig::new(url);
            c.id = id;
            c.token = token;
            c.authentication = auth;
            c
        })
}

fn task_push_config() -> impl Strategy<Value = TaskPushNotificationConfig> {
    (option::of(text()), push_config())
        .prop_map(|(task, c)| TaskPushNotificationConfig::new(task.unwrap_or_default(), c))
}

/// `blocking` always set (lossy table: an absent `blocking` comes back as `true`).
fn send_params() -> impl Strategy<Value = MessageSendParams> {
    let config = (
        vec(text(), 0..2),
        any::<bool>(),
        option::of(any::<i32>()),
        option::of(push_config()),
    )
        .prop_map(|(modes, blocking, hl, push)| {
            let mut c = MessageSendConfiguration::default()
                .with_accepted_output_modes(modes)
                .with_blocking(blocking);
            c.history_length = hl;
            c.push_notification_config = push;
            c
        });
    (message(), option::of(config), metadata()).prop_map(|(m, c, meta)| {
        let mut p = MessageSendParams::new(m);
        p.configuration = c;
        p.metadata = meta;
        p
    })
}

fn scopes() -> impl Strategy<Value = Scopes> {
    btree_map(text(), text(), 0..3)
}

/// Exactly one OAuth flow (lossy table: 1.0 keeps one), with the URLs 1.0 has as optional
/// non-empty.
fn oauth_flows() -> impl Strategy<Value = OAuthFlows> {
    prop_oneof![
        (text(), text(), option::of(text()), scopes()).prop_map(|(a, t, r, s)| {
            let mut f = AuthorizationCodeOAuthFlow::new(a, t, s);
            f.refresh_url = r;
            OAuthFlows::new().with_authorization_code(f)
        }),
        (text(), option::of(text()), scopes()).prop_map(|(t, r, s)| {
            let mut f = ClientCredentialsOAuthFlow::new(t, s);
            f.refresh_url = r;
            OAuthFlows::new().with_client_credentials(f)
        }),
        (text(), option::of(text()), scopes()).prop_map(|(a, r, s)| {
            let mut f = ImplicitOAuthFlow::new(a, s);
            f.refresh_url = r;
            OAuthFlows::new().with_implicit(f)
        }),
        (text(), option::of(text()), scopes()).prop_map(|(t, r, s)| {
            let mut f = PasswordOAuthFlow::new(t, s);
            f.refresh_url = r;
            OAuthFlows::new().with_password(f)
        }),
        Just(OAuthFlows::new()),
    ]
}

fn security_scheme() -> impl Strategy<Value = SecurityScheme> {
    prop_oneof![
        (
            prop::sample::select(ApiKeyLocation::ALL.to_vec()),
            text(),
            option::of(text())
        )
            .prop_map(|(l, n, d)| {
                let mut s = ApiKeySecurityScheme::new(l, n);
                s.description = d;
                SecurityScheme::from(s)
            }),
        (text(), option::of(text()), option::of(text())).prop_map(|(scheme, b, d)| {
            let mut s = HttpAuthSecurityScheme::new(scheme);
            s.bearer_format = b;
            s.description = d;
            SecurityScheme::from(s)
        }),
        (oauth_flows(), option::of(text()), option::of(text())).prop_map(|(f, m, d)| {
            let mut s = OAuth2SecurityScheme::new(f);
            s.oauth2_metadata_url = m;
            s.description = d;
            SecurityScheme::from(s)
        }),
        (text(), option::of(text())).prop_map(|(u, d)| {
            let mut s = OpenIdConnectSecurityScheme::new(u);
            s.description = d;
            SecurityScheme::from(s)
        }),
        option::of(text()).prop_map(|d| {
            let mut s = MutualTlsSecurityScheme::new();
            s.description = d;
            SecurityScheme::from(s)
        }),
    ]
}

fn requirement() -> impl Strategy<Value = SecurityRequirement> {
    btree_map(text(), vec(text(), 0..2), 0..3)
}

fn skill() -> impl Strategy<Value = AgentSkill> {
    (
        (text(), text(), text(), vec(text(), 0..2)),
        vec(text(), 0..2),
        vec(text(), 0..2),
        vec(text(), 0..2),
        vec(requirement(), 0..2),
    )
        .prop_map(|((id, n, d, tags), ex, input, output, sec)| {
            AgentSkill::new(id, n, d, tags)
                .with_examples(ex)
                .with_input_modes(input)
                .with_output_modes(output)
                .with_security(sec)
        })
}

fn extension() -> impl Strategy<Value = AgentExtension> {
    (
        text(),
        option::of(text()),
        any::<bool>(),
        option::of(object()),
    )
        .prop_map(|(u, d, r, p)| {
            let mut e = AgentExtension::new(u).with_required(r);
            e.description = d;
            e.params = p;
            e
        })
}

/// A card in the shape 1.0 → 0.3 writes (lossy table): `protocolVersion` `X.Y.0`,
/// `preferredTransport` `JSONRPC`, `additionalInterfaces` empty or listing the main interface
/// first and then distinct others; no `stateTransitionHistory`.
fn agent_card() -> impl Strategy<Value = AgentCard> {
    let interfaces = vec(
        (
            prop::sample::select(vec![
                "JSONRPC",
                "GRPC",
                "HTTP+JSON",
                "https://example.com/t",
            ]),
            text(),
        ),
        0..3,
    );
    (
        (text(), text(), text(), text()),
        prop::sample::select(vec!["0.3.0", "0.2.0"]),
        interfaces,
        (
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            vec(extension(), 0..2),
        ),
        btree_map(text(), security_scheme(), 0..3),
        vec(requirement(), 0..2),
        (vec(text(), 0..2), vec(text(), 0..2), vec(skill(), 0..2)),
        (
            option::of(any::<bool>()),
            option::of((text(), text())),
            option::of(text()),
            option::of(text()),
        ),
        vec((text(), text(), option::of(object())), 0..2),
    )
        .prop_map(
            |(
                (name, desc, url, version),
                pv,
                others,
                (streaming, push, extensions),
                schemes,
                security,
                (input, output, skills),
                (extended, provider, icon, docs),
                signatures,
            )| {
                let main = AgentInterface::new(url.clone(), "JSONRPC");
                let others: Vec<AgentInterface> = others
                    .into_iter()
                    .enumerate()
                    .map(|(i, (t, u))| AgentInterface::new(format!("{u}/{i}"), t))
                    .collect();
                let additional = if others.is_empty() {
                    Vec::new()
                } else {
                    std::iter::once(main).chain(others).collect()
                };
                let mut card = AgentCard::new(name, desc, url, version)
                    .with_protocol_version(pv)
                    .with_preferred_transport("JSONRPC")
                    .with_additional_interfaces(additional)
                    .with_capabilities({
                        let mut c = AgentCapabilities::default().with_extensions(extensions);
                        c.streaming = streaming;
                        c.push_notifications = push;
                        c
                    })
                    .with_security(security)
                    .with_default_input_modes(input)
                    .with_default_output_modes(output)
                    .with_skills(skills)
                    .with_signatures(signatures.into_iter().map(|(p, s, h)| {
                        let mut sig = AgentCardSignature::new(p, s);
                        sig.header = h;
                        sig
                    }));
                card.security_schemes = schemes;
                card.supports_authenticated_extended_card = extended;
                card.provider = provider.map(|(o, u)| AgentProvider::new(o, u));
                card.icon_url = icon;
                card.documentation_url = docs;
                card
            },
        )
}

fn json_roundtrip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(value).unwrap();
    let back: T = a2a_types::json::from_str(&json)
        .map_err(|e| TestCaseError::fail(format!("{e} in {json}")))?;
    prop_assert_eq!(&back, value, "through {}", json);
    prop_assert_eq!(serde_json::to_string(&back).unwrap(), json);
    Ok(())
}

/// 0.3 → 1.0 → 0.3 is the identity; the 1.0 value also survives its own JSON round trip.
fn through_v1<T, V>(value: &T) -> Result<(), TestCaseError>
where
    T: Clone + PartialEq + std::fmt::Debug + From<V>,
    V: From<T> + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let v1 = V::from(value.clone());
    let json = serde_json::to_string(&v1).unwrap();
    let v1_back: V = a2a_types::json::from_str(&json)
        .map_err(|e| TestCaseError::fail(format!("{e} in {json}")))?;
    let back = T::from(v1_back);
    prop_assert_eq!(&back, value, "through 1.0 {}", json);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn messages(m in message()) {
        json_roundtrip(&m)?;
        through_v1::<Message, v1::Message>(&m)?;
    }

    #[test]
    fn tasks(t in task()) {
        json_roundtrip(&t)?;
        through_v1::<Task, v1::Task>(&t)?;
    }

    #[test]
    fn send_message_results(r in send_result()) {
        json_roundtrip(&r)?;
        through_v1::<SendMessageResult, v1::SendMessageResponse>(&r)?;
    }

    #[test]
    fn stream_events(e in stream_event()) {
        json_roundtrip(&e)?;
        through_v1::<SendStreamingMessageResult, v1::StreamResponse>(&e)?;
    }

    #[test]
    fn message_send_params(p in send_params()) {
        json_roundtrip(&p)?;
        through_v1::<MessageSendParams, v1::SendMessageRequest>(&p)?;
    }

    #[test]
    fn task_push_configs(c in task_push_config()) {
        json_roundtrip(&c)?;
        through_v1::<TaskPushNotificationConfig, v1::TaskPushNotificationConfig>(&c)?;
    }

    #[test]
    fn push_config_lists(list in vec(task_push_config(), 0..3)) {
        through_v1::<Vec<TaskPushNotificationConfig>, v1::ListTaskPushNotificationConfigsResponse>(&list)?;
    }

    #[test]
    fn task_params(id in text(), hl in option::of(any::<i32>()), meta in metadata(), config in option::of(text())) {
        // 1.0's GetTaskRequest, SubscribeToTaskRequest and the push config requests carry no
        // metadata (lossy table); CancelTaskRequest does.
        let mut query = TaskQueryParams::new(id.clone());
        query.history_length = hl;
        json_roundtrip(&query)?;
        through_v1::<TaskQueryParams, v1::GetTaskRequest>(&query)?;

        let mut cancel = TaskIdParams::new(id.clone());
        cancel.metadata = meta;
        json_roundtrip(&cancel)?;
        through_v1::<TaskIdParams, v1::CancelTaskRequest>(&cancel)?;
        through_v1::<TaskIdParams, v1::SubscribeToTaskRequest>(&TaskIdParams::new(id.clone()))?;

        let mut get = GetTaskPushNotificationConfigParams::new(id.clone());
        get.push_notification_config_id = config.clone();
        json_roundtrip(&get)?;
        through_v1::<GetTaskPushNotificationConfigParams, v1::GetTaskPushNotificationConfigRequest>(&get)?;

        let list = ListTaskPushNotificationConfigParams::new(id.clone());
        through_v1::<ListTaskPushNotificationConfigParams, v1::ListTaskPushNotificationConfigsRequest>(&list)?;

        let delete = DeleteTaskPushNotificationConfigParams::new(id, config.unwrap_or_default());
        json_roundtrip(&delete)?;
        through_v1::<DeleteTaskPushNotificationConfigParams, v1::DeleteTaskPushNotificationConfigRequest>(&delete)?;
    }

    #[test]
    fn security_schemes(s in security_scheme()) {
        json_roundtrip(&s)?;
        through_v1::<SecurityScheme, v1::SecurityScheme>(&s)?;
    }

    #[test]
    fn agent_cards(card in agent_card()) {
        json_roundtrip(&card)?;
        through_v1::<AgentCard, v1::AgentCard>(&card)?;
        // The lenient parser reads a 0.3 card as the conversion does.
        let lenient = AgentCard::from_value_lenient(serde_json::to_value(&card).unwrap())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(lenient, v1::AgentCard::from(card));
    }

    #[test]
    fn json_rpc_envelopes(p in send_params(), id in prop_oneof![text().prop_map(JsonRpcId::from), any::<i64>().prop_map(JsonRpcId::from)], r in send_result()) {
        let request = SendMessageRequest::new(id.clone(), p);
        json_roundtrip(&request)?;
        let any: A2ARequest = serde_json::from_value(serde_json::to_value(&request).unwrap()).unwrap();
        prop_assert_eq!(any, A2ARequest::SendMessage(request));
        json_roundtrip(&SendMessageSuccessResponse::new(Some(id), r))?;
    }
}

#[test]
fn the_generators_stay_in_the_lossless_domain_on_purpose() {
    // Values just outside the domain do change through 1.0: the lossy table in
    // docs/versions.md, spot-checked.
    let absent_blocking = MessageSendParams::new(Message::new("m", Role::User, vec![]))
        .with_configuration(MessageSendConfiguration::default());
    let back = MessageSendParams::from(v1::SendMessageRequest::from(absent_blocking));
    assert_eq!(back.configuration.unwrap().blocking, Some(true));

    let two_schemes = PushNotificationAuthenticationInfo::new(["Bearer", "Basic"]);
    let back = PushNotificationAuthenticationInfo::from(v1::AuthenticationInfo::from(two_schemes));
    assert_eq!(back.schemes, ["Bearer"]);

    let wrong_final =
        TaskStatusUpdateEvent::new("t", "c", TaskStatus::new(TaskState::Working)).with_final(true);
    let back = TaskStatusUpdateEvent::from(v1::TaskStatusUpdateEvent::from(wrong_final));
    assert!(!back.is_final);

    let mut flag = Map::new();
    flag.insert("data_part_compat".into(), Value::Bool(true));
    let mut data = Map::new();
    data.insert("value".into(), serde_json::json!({"a": 1}));
    let flagged = Part::from(DataPart::new(data).with_metadata(flag));
    let back = Part::from(v1::Part::from(flagged));
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::json!({"kind": "data", "data": {"a": 1}})
    );
}

// ---------------------------------------------------------------------------------------------
// 1.0 → 0.3 loses what it loses at once: converting the result to 1.0 and back to 0.3 again
// gives the same 0.3 value, for any 1.0 value.

mod from_v1 {
    use super::*;

    fn v1_part() -> impl Strategy<Value = v1::Part> {
        let content = prop_oneof![
            text().prop_map(v1::Part::text),
            vec(any::<u8>(), 0..24).prop_map(v1::Part::raw),
            text().prop_map(v1::Part::url),
            json_value().prop_map(v1::Part::data),
        ];
        (content, metadata(), option::of(text()), option::of(text())).prop_map(
            |(mut p, m, f, t)| {
                p.metadata = m;
                p.filename = f;
                p.media_type = t;
                p
            },
        )
    }

    fn v1_message() -> impl Strategy<Value = v1::Message> {
        (
            text(),
            prop::sample::select(v1::Role::ALL.to_vec()),
            vec(v1_part(), 0..3),
            option::of(text()),
            option::of(text()),
            vec(text(), 0..2),
            metadata(),
        )
            .prop_map(|(id, role, parts, ctx, task, refs, meta)| {
                let mut m = v1::Message::new(id, role, parts).with_reference_task_ids(refs);
                m.context_id = ctx.map(Into::into);
                m.task_id = task.map(Into::into);
                m.metadata = meta;
                m
            })
    }

    fn v1_status() -> impl Strategy<Value = v1::TaskStatus> {
        (
            prop::sample::select(v1::TaskState::ALL.to_vec()),
            option::of(v1_message()),
            option::of((-62_135_596_800i64..253_402_300_799, 0u32..1_000_000_000)),
        )
            .prop_map(|(state, m, t)| {
                let mut s = v1::TaskStatus::new(state);
                s.message = m;
                s.timestamp = t.and_then(|(s, n)| v1::Timestamp::from_unix(s, n));
                s
            })
    }

    fn v1_artifact() -> impl Strategy<Value = v1::Artifact> {
        (text(), option::of(text()), vec(v1_part(), 0..3), metadata()).prop_map(
            |(id, name, parts, meta)| {
                let mut a = v1::Artifact::new(id, parts);
                a.name = name;
                a.metadata = meta;
                a
            },
        )
    }

    fn v1_task() -> impl Strategy<Value = v1::Task> {
        (
            text(),
            option::of(text()),
            v1_status(),
            vec(v1_artifact(), 0..2),
            vec(v1_message(), 0..2),
        )
            .prop_map(|(id, ctx, status, artifacts, history)| {
                let mut t = v1::Task::new(id, "c", status)
                    .with_artifacts(artifacts)
                    .with_history(history);
                t.context_id = ctx.map(Into::into);
                t
            })
    }

    fn v1_stream() -> impl Strategy<Value = v1::StreamResponse> {
        prop_oneof![
            v1_task().prop_map(v1::StreamResponse::from),
            v1_message().prop_map(v1::StreamResponse::from),
            (text(), text(), v1_status())
                .prop_map(|(t, c, s)| v1::TaskStatusUpdateEvent::new(t, c, s).into()),
            (text(), text(), v1_artifact(), any::<bool>(), any::<bool>()).prop_map(
                |(t, c, a, ap, last)| v1::TaskArtifactUpdateEvent::new(t, c, a)
                    .with_append(ap)
                    .with_last_chunk(last)
                    .into()
            ),
        ]
    }

    fn v1_push() -> impl Strategy<Value = v1::TaskPushNotificationConfig> {
        (
            option::of(text()),
            option::of(text()),
            option::of(text()),
            text(),
            option::of(text()),
            option::of(("[A-Za-z]{0,6}", option::of(text()))),
        )
            .prop_map(|(tenant, id, task, url, token, auth)| {
                let mut c = v1::TaskPushNotificationConfig::new(url);
                c.tenant = tenant;
                c.id = id;
                c.task_id = task.map(Into::into);
                c.token = token;
                c.authentication = auth.map(|(scheme, creds)| {
                    let mut a = v1::AuthenticationInfo::new(scheme);
                    a.credentials = creds;
                    a
                });
                c
            })
    }

    fn v1_send() -> impl Strategy<Value = v1::SendMessageRequest> {
        (
            option::of(text()),
            v1_message(),
            option::of((
                vec(text(), 0..2),
                option::of(v1_push()),
                option::of(any::<i32>()),
                any::<bool>(),
            )),
            metadata(),
        )
            .prop_map(|(tenant, m, config, meta)| {
                let mut r = v1::SendMessageRequest::new(m);
                r.tenant = tenant;
                r.configuration = config.map(|(modes, push, hl, ri)| {
                    let mut c = v1::SendMessageConfiguration::default()
                        .with_accepted_output_modes(modes)
                        .with_return_immediately(ri);
                    c.task_push_notification_config = push;
                    c.history_length = hl;
                    c
                });
                r.metadata = meta;
                r
            })
    }

    fn v1_scopes() -> impl Strategy<Value = v1::Scopes> {
        btree_map(text(), text(), 0..2)
    }

    fn v1_scheme() -> impl Strategy<Value = v1::SecurityScheme> {
        let flows = prop_oneof![
            (
                text(),
                text(),
                option::of(text()),
                v1_scopes(),
                any::<bool>()
            )
                .prop_map(|(a, t, r, s, pkce)| {
                    let mut f =
                        v1::AuthorizationCodeOAuthFlow::new(a, t, s).with_pkce_required(pkce);
                    f.refresh_url = r;
                    v1::OAuthFlows::from(f)
                }),
            (text(), v1_scopes())
                .prop_map(|(t, s)| v1::OAuthFlows::from(v1::ClientCredentialsOAuthFlow::new(t, s))),
            (option::of(text()), v1_scopes()).prop_map(|(a, s)| {
                let mut f = v1::ImplicitOAuthFlow::new().with_scopes(s);
                f.authorization_url = a;
                v1::OAuthFlows::from(f)
            }),
            option::of(text()).prop_map(|t| {
                let mut f = v1::PasswordOAuthFlow::new();
                f.token_url = t;
                v1::OAuthFlows::from(f)
            }),
            (text(), text(), v1_scopes())
                .prop_map(|(d, t, s)| v1::OAuthFlows::from(v1::DeviceCodeOAuthFlow::new(d, t, s))),
        ];
        prop_oneof![
            (
                prop::sample::select(vec!["query", "HEADER", "cookie", "body"]),
                text()
            )
                .prop_map(|(l, n)| v1::SecurityScheme::from(v1::ApiKeySecurityScheme::new(l, n))),
            text().prop_map(|s| v1::SecurityScheme::from(v1::HttpAuthSecurityScheme::new(s))),
            flows.prop_map(|f| v1::SecurityScheme::from(v1::OAuth2SecurityScheme::new(f))),
            text().prop_map(|u| v1::SecurityScheme::from(v1::OpenIdConnectSecurityScheme::new(u))),
            Just(v1::SecurityScheme::from(v1::MutualTlsSecurityScheme::new())),
        ]
    }

    fn v1_card() -> impl Strategy<Value = v1::AgentCard> {
        (
            (text(), text(), text()),
            vec(
                (
                    prop::sample::select(vec!["https://a", "https://b"]),
                    prop::sample::select(vec!["JSONRPC", "GRPC", "HTTP+JSON"]),
                    prop::sample::select(vec!["1.0", "0.3", "0.2", "0.3.1", "", "2"]),
                    option::of(text()),
                ),
                0..4,
            ),
            (
                option::of(any::<bool>()),
                option::of(any::<bool>()),
                option::of(any::<bool>()),
            ),
            btree_map(text(), v1_scheme(), 0..3),
            vec(btree_map(text(), vec(text(), 0..2), 0..2), 0..2),
            vec(
                (
                    text(),
                    text(),
                    text(),
                    vec(text(), 0..2),
                    vec(btree_map(text(), vec(text(), 0..2), 0..2), 0..2),
                ),
                0..2,
            ),
            vec((option::of(text()), any::<bool>()), 0..2),
        )
            .prop_map(
                |((n, d, v), ifaces, (st, push, ext), schemes, reqs, skills, extensions)| {
                    let requirement = |r: BTreeMap<String, Vec<String>>| {
                        r.into_iter()
                            .fold(v1::SecurityRequirement::new(), |acc, (k, v)| {
                                acc.with_scheme(k, v)
                            })
                    };
                    let mut card = v1::AgentCard::new(n, d, v)
                        .with_supported_interfaces(ifaces.into_iter().map(|(u, b, pv, t)| {
                            let mut i = v1::AgentInterface::new(u, b, pv);
                            i.tenant = t;
                            i
                        }))
                        .with_capabilities({
                            let mut c = v1::AgentCapabilities::default().with_extensions(
                                extensions.into_iter().map(|(uri, required)| {
                                    let mut e =
                                        v1::AgentExtension::default().with_required(required);
                                    e.uri = uri;
                                    e
                                }),
                            );
                            c.streaming = st;
                            c.push_notifications = push;
                            c.extended_agent_card = ext;
                            c
                        })
                        .with_security_requirements(reqs.into_iter().map(requirement))
                        .with_skills(skills.into_iter().map(|(i, n, d, t, sec)| {
                            v1::AgentSkill::new(i, n, d, t)
                                .with_security_requirements(sec.into_iter().map(requirement))
                        }));
                    card.security_schemes = schemes;
                    card
                },
            )
    }

    /// 1.0 → 0.3 → 1.0 → 0.3 gives the first 0.3 value, which also survives JSON.
    fn idempotent<V, T>(value: V) -> Result<(), TestCaseError>
    where
        V: Clone + From<T>,
        T: From<V>
            + Clone
            + PartialEq
            + std::fmt::Debug
            + serde::Serialize
            + serde::de::DeserializeOwned,
    {
        let first = T::from(value);
        let again = T::from(V::from(first.clone()));
        prop_assert_eq!(&again, &first);
        json_roundtrip(&first)
    }

    use std::collections::BTreeMap;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn stream_responses(x in v1_stream()) {
            idempotent::<v1::StreamResponse, SendStreamingMessageResult>(x)?;
        }

        #[test]
        fn send_message_requests(x in v1_send()) {
            idempotent::<v1::SendMessageRequest, MessageSendParams>(x)?;
        }

        #[test]
        fn push_configs(x in v1_push()) {
            idempotent::<v1::TaskPushNotificationConfig, TaskPushNotificationConfig>(x)?;
        }

        #[test]
        fn agent_cards(x in v1_card()) {
            idempotent::<v1::AgentCard, AgentCard>(x)?;
        }

        #[test]
        fn requests(id in text(), tenant in option::of(text()), config in text(), hl in option::of(any::<i32>()), page in any::<i32>()) {
            let mut get = v1::GetTaskRequest::new(id.clone());
            get.tenant = tenant.clone();
            get.history_length = hl;
            idempotent::<v1::GetTaskRequest, TaskQueryParams>(get)?;
            idempotent::<v1::CancelTaskRequest, TaskIdParams>(v1::CancelTaskRequest::new(id.clone()))?;
            idempotent::<v1::SubscribeToTaskRequest, TaskIdParams>(v1::SubscribeToTaskRequest::new(id.clone()))?;
            idempotent::<v1::GetTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigParams>(
                v1::GetTaskPushNotificationConfigRequest::new(id.clone(), config.clone()))?;
            idempotent::<v1::GetTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigParams>(
                v1::GetTaskPushNotificationConfigRequest::new(id.clone(), ""))?;
            idempotent::<v1::DeleteTaskPushNotificationConfigRequest, DeleteTaskPushNotificationConfigParams>(
                v1::DeleteTaskPushNotificationConfigRequest::new(id.clone(), config))?;
            idempotent::<v1::ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigParams>(
                v1::ListTaskPushNotificationConfigsRequest::new(id).with_page_size(page))?;
        }
    }
}
