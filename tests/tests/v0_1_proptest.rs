//! Property tests of A2A 0.1 (`a2a_types::v0_1`):
//!
//! * every 0.1 value survives a JSON round trip unchanged;
//! * the lossless direction: 0.1 -> 1.0 -> 0.1 gives back the same value, for every value that
//!   avoids the documented losses (the strategies here generate exactly those);
//! * 1.0 -> 0.1 is total where it is `From` (and fails only as documented where it is
//!   `TryFrom`), gives 0.1 values that survive JSON, and loses everything it loses at once:
//!   1.0 -> 0.1 -> 1.0 -> 0.1 equals the first 0.1 value.

use a2a_types::v0_1::{self as v01, ConversionError};
use a2a_types::v1;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value};

fn text() -> impl Strategy<Value = String> {
    // Non-empty: 1.0 reads an empty optional string as absent.
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
    btree_map(text(), json_value(), 0..3).prop_map(|m| m.into_iter().collect())
}

fn metadata() -> impl Strategy<Value = Option<Map<String, Value>>> {
    option::of(object())
}

fn timestamp() -> impl Strategy<Value = v1::Timestamp> {
    (-62_135_596_800i64..253_402_300_799, 0u32..1_000_000_000)
        .prop_map(|(s, n)| v1::Timestamp::from_unix(s, n).expect("in range"))
}

// ------------------------------------------------------------------------------------------------
// 0.1 values. `lossless` restricts them to values 1.0 can carry without loss.

fn file_content(lossless: bool) -> BoxedStrategy<v01::FileContent> {
    let bytes_or_uri = prop_oneof![
        vec(any::<u8>(), 0..24).prop_map(v01::FileContent::from_bytes),
        text().prop_map(v01::FileContent::from_uri),
    ];
    let content = if lossless {
        bytes_or_uri.boxed()
    } else {
        prop_oneof![
            bytes_or_uri,
            Just(v01::FileContent::default()),
            (vec(any::<u8>(), 0..8), text()).prop_map(|(b, u)| {
                let mut f = v01::FileContent::from_bytes(b);
                f.uri = Some(u);
                f
            }),
        ]
        .boxed()
    };
    (content, option::of(text()), option::of(text()))
        .prop_map(|(mut f, name, mime)| {
            f.name = name;
            f.mime_type = mime;
            f
        })
        .boxed()
}

fn part(lossless: bool) -> impl Strategy<Value = v01::Part> {
    let content = prop_oneof![
        text().prop_map(v01::Part::text),
        file_content(lossless).prop_map(v01::Part::file),
        object().prop_map(v01::Part::data),
    ];
    (content, metadata()).prop_map(|(mut part, meta)| {
        match &mut part {
            v01::Part::Text(p) => p.metadata = meta,
            v01::Part::File(p) => p.metadata = meta,
            v01::Part::Data(p) => p.metadata = meta,
            _ => unreachable!("the strategy makes only these three"),
        }
        part
    })
}

fn role() -> impl Strategy<Value = v01::Role> {
    prop::sample::select(v01::Role::ALL.to_vec())
}

fn state() -> impl Strategy<Value = v01::TaskState> {
    prop::sample::select(v01::TaskState::ALL.to_vec())
}

fn message(lossless: bool) -> impl Strategy<Value = v01::Message> {
    (role(), vec(part(lossless), 0..3), metadata()).prop_map(|(role, parts, meta)| {
        let mut m = v01::Message::new(role, parts);
        m.metadata = meta;
        m
    })
}

/// An artifact; `streaming` adds `append` and `lastChunk`, which only events carry to 1.0.
fn artifact(lossless: bool, streaming: bool) -> impl Strategy<Value = v01::Artifact> {
    (
        option::of(text()),
        option::of(text()),
        vec(part(lossless), 0..3),
        any::<u32>(),
        any::<bool>(),
        any::<bool>(),
        metadata(),
    )
        .prop_map(move |(name, desc, parts, index, append, last, meta)| {
            let mut a = v01::Artifact::new(parts).with_index(index);
            a.name = name;
            a.description = desc;
            a.metadata = meta;
            if streaming || !lossless {
                a.append = append;
                a.last_chunk = last;
            }
            a
        })
}

fn status(lossless: bool) -> impl Strategy<Value = v01::TaskStatus> {
    (
        state(),
        option::of(message(lossless)),
        option::of(timestamp()),
    )
        .prop_map(|(s, m, t)| {
            let mut status = v01::TaskStatus::new(s);
            status.message = m;
            status.timestamp = t;
            status
        })
}

fn task(lossless: bool) -> impl Strategy<Value = v01::Task> {
    (
        text(),
        option::of(text()),
        status(lossless),
        vec(artifact(lossless, false), 0..3),
        vec(message(lossless), 0..3),
        metadata(),
    )
        .prop_map(|(id, session, status, artifacts, history, meta)| {
            let mut t = v01::Task::new(id, status)
                .with_artifacts(artifacts)
                .with_history(history);
            t.session_id = session.map(v1::ContextId::from);
            t.metadata = meta;
            t
        })
}

fn stream_event(lossless: bool) -> impl Strategy<Value = v01::StreamEvent> {
    prop_oneof![
        (text(), status(lossless), any::<bool>(), metadata()).prop_map(
            move |(id, status, fin, meta)| {
                let mut e = v01::TaskStatusUpdateEvent::new(id, status);
                if !lossless {
                    e.is_final = fin;
                }
                e.metadata = meta;
                v01::StreamEvent::from(e)
            }
        ),
        (text(), artifact(lossless, true), metadata()).prop_map(|(id, a, meta)| {
            let mut e = v01::TaskArtifactUpdateEvent::new(id, a);
            e.metadata = meta;
            v01::StreamEvent::from(e)
        }),
    ]
}

fn authentication_info(lossless: bool) -> impl Strategy<Value = v01::AuthenticationInfo> {
    let schemes = if lossless {
        vec(text(), 0..2).boxed()
    } else {
        vec(text(), 0..4).boxed()
    };
    (
        schemes,
        option::of(text()),
        if lossless {
            Just(Map::new()).boxed()
        } else {
            object().boxed()
        },
    )
        .prop_map(|(schemes, credentials, additional)| {
            let mut a = v01::AuthenticationInfo::new(schemes);
            a.credentials = credentials;
            a.additional = additional;
            a
        })
}

fn push_config(lossless: bool) -> impl Strategy<Value = v01::PushNotificationConfig> {
    (
        text(),
        option::of(text()),
        option::of(authentication_info(lossless)),
    )
        .prop_map(|(url, token, auth)| {
            let mut c = v01::PushNotificationConfig::new(url);
            c.token = token;
            c.authentication = auth;
            c
        })
}

fn send_params(lossless: bool) -> impl Strategy<Value = v01::TaskSendParams> {
    (
        text(),
        option::of(text()),
        message(lossless),
        option::of(push_config(lossless)),
        option::of(any::<i32>()),
        metadata(),
    )
        .prop_map(|(id, session, message, push, hl, meta)| {
            let mut p = v01::TaskSendParams::new(id, message);
            p.session_id = session.map(v1::ContextId::from);
            p.push_notification = push;
            p.history_length = hl;
            p.metadata = meta;
            p
        })
}

/// A 0.1 authentication scheme name that survives 1.0: anything but `public`, `none` and `""`.
fn scheme_name() -> impl Strategy<Value = String> {
    prop_oneof![
        text(),
        prop::sample::select(vec!["Bearer", "Basic", "OAuth2", "oauth2", "jwt", "Digest"])
            .prop_map(str::to_owned),
    ]
    .prop_filter("no-auth names", |s| {
        !matches!(s.to_ascii_lowercase().as_str(), "public" | "none")
    })
}

fn agent_card(lossless: bool) -> impl Strategy<Value = v01::AgentCard> {
    let authentication = if lossless {
        option::of(
            prop::collection::btree_set(scheme_name(), 1..4).prop_map(|names| {
                // Unique in the order generated (a set's order: deterministic).
                v01::AgentAuthentication::new(names)
            }),
        )
        .boxed()
    } else {
        option::of((vec(text(), 0..4), option::of(text())).prop_map(|(s, c)| {
            let mut a = v01::AgentAuthentication::new(s);
            a.credentials = c;
            a
        }))
        .boxed()
    };
    let modes = if lossless {
        vec(text(), 0..3).prop_map(Some).boxed()
    } else {
        option::of(vec(text(), 0..3)).boxed()
    };
    (
        (text(), option::of(text()), text(), text()),
        option::of((text(), option::of(text()))),
        option::of(text()),
        (
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            option::of(any::<bool>()),
        ),
        authentication,
        (modes.clone(), modes),
        vec(
            (
                text(),
                text(),
                option::of(text()),
                vec(text(), 0..3),
                vec(text(), 0..2),
                vec(text(), 0..2),
                vec(text(), 0..2),
            ),
            0..3,
        ),
    )
        .prop_map(
            move |(
                (name, desc, url, version),
                provider,
                docs,
                (st, push, sth),
                auth,
                (input, output),
                skills,
            )| {
                let mut card = v01::AgentCard::new(name, url, version);
                card.description = desc;
                card.provider = provider.map(|(o, u)| {
                    let mut p = v01::AgentProvider::new(o);
                    p.url = u;
                    p
                });
                card.documentation_url = docs;
                card.capabilities = v01::AgentCapabilities::default();
                card.capabilities.streaming = st;
                card.capabilities.push_notifications = push;
                if !lossless {
                    card.capabilities.state_transition_history = sth;
                }
                card.authentication = auth;
                card.default_input_modes = input;
                card.default_output_modes = output;
                card.skills = skills
                    .into_iter()
                    .map(|(id, name, desc, tags, examples, input, output)| {
                        let mut s = v01::AgentSkill::new(id, name)
                            .with_tags(tags)
                            .with_examples(examples)
                            .with_input_modes(input)
                            .with_output_modes(output);
                        s.description = desc;
                        s
                    })
                    .collect();
                card
            },
        )
}

// ------------------------------------------------------------------------------------------------
// 1.0 values, for the way back.

fn v1_part() -> impl Strategy<Value = v1::Part> {
    let content = prop_oneof![
        text().prop_map(v1::Part::text),
        vec(any::<u8>(), 0..24).prop_map(v1::Part::raw),
        text().prop_map(v1::Part::url),
        json_value().prop_map(v1::Part::data),
    ];
    (content, metadata(), option::of(text()), option::of(text())).prop_map(|(mut p, m, f, t)| {
        p.metadata = m;
        p.filename = f;
        p.media_type = t;
        p
    })
}

fn v1_message() -> impl Strategy<Value = v1::Message> {
    (
        text(),
        option::of(text()),
        option::of(text()),
        prop::sample::select(v1::Role::ALL.to_vec()),
        vec(v1_part(), 0..3),
        metadata(),
        vec(text(), 0..2),
    )
        .prop_map(|(id, ctx, task, role, parts, meta, ext)| {
            let mut m = v1::Message::new(id, role, parts).with_extensions(ext);
            m.context_id = ctx.map(v1::ContextId::from);
            m.task_id = task.map(v1::TaskId::from);
            m.metadata = meta;
            m
        })
}

fn v1_artifact() -> impl Strategy<Value = v1::Artifact> {
    (
        prop_oneof![text(), any::<u32>().prop_map(|i| format!("artifact-{i}"))],
        option::of(text()),
        vec(v1_part(), 0..3),
        metadata(),
    )
        .prop_map(|(id, name, parts, meta)| {
            let mut a = v1::Artifact::new(id, parts);
            a.name = name;
            a.metadata = meta;
            a
        })
}

fn v1_status() -> impl Strategy<Value = v1::TaskStatus> {
    (
        prop::sample::select(v1::TaskState::ALL.to_vec()),
        option::of(v1_message()),
        option::of(timestamp()),
    )
        .prop_map(|(s, m, t)| {
            let mut status = v1::TaskStatus::new(s);
            status.message = m;
            status.timestamp = t;
            status
        })
}

fn v1_task() -> impl Strategy<Value = v1::Task> {
    (
        text(),
        option::of(text()),
        v1_status(),
        vec(v1_artifact(), 0..3),
        vec(v1_message(), 0..2),
        metadata(),
    )
        .prop_map(|(id, ctx, status, artifacts, history, meta)| {
            let mut t = v1::Task::new(id, "x", status)
                .with_artifacts(artifacts)
                .with_history(history);
            t.context_id = ctx.map(v1::ContextId::from);
            t.metadata = meta;
            t
        })
}

fn v1_stream_response() -> impl Strategy<Value = v1::StreamResponse> {
    prop_oneof![
        v1_task().prop_map(v1::StreamResponse::from),
        v1_message().prop_map(v1::StreamResponse::from),
        (text(), text(), v1_status(), metadata()).prop_map(|(t, c, s, m)| {
            let mut e = v1::TaskStatusUpdateEvent::new(t, c, s);
            e.metadata = m;
            v1::StreamResponse::from(e)
        }),
        (
            text(),
            text(),
            v1_artifact(),
            any::<bool>(),
            any::<bool>(),
            metadata()
        )
            .prop_map(|(t, c, a, ap, last, m)| {
                let mut e = v1::TaskArtifactUpdateEvent::new(t, c, a)
                    .with_append(ap)
                    .with_last_chunk(last);
                e.metadata = m;
                v1::StreamResponse::from(e)
            }),
    ]
}

fn v1_push_config() -> impl Strategy<Value = v1::TaskPushNotificationConfig> {
    (
        option::of(text()),
        option::of(text()),
        option::of(text()),
        text(),
        option::of(text()),
        option::of((prop_oneof![Just(String::new()), text()], option::of(text()))),
    )
        .prop_map(|(tenant, id, task, url, token, auth)| {
            let mut c = v1::TaskPushNotificationConfig::new(url);
            c.tenant = tenant;
            c.id = id;
            c.task_id = task.map(v1::TaskId::from);
            c.token = token;
            c.authentication = auth.map(|(s, cred)| {
                let mut a = v1::AuthenticationInfo::new(s);
                a.credentials = cred;
                a
            });
            c
        })
}

fn v1_security_scheme() -> impl Strategy<Value = v1::SecurityScheme> {
    prop_oneof![
        text().prop_map(|s| v1::SecurityScheme::from(v1::HttpAuthSecurityScheme::new(s))),
        (text(), text())
            .prop_map(|(l, n)| v1::SecurityScheme::from(v1::ApiKeySecurityScheme::new(l, n))),
        text().prop_map(|t| v1::SecurityScheme::from(v1::OAuth2SecurityScheme::new(
            v1::ClientCredentialsOAuthFlow::new(t, v1::Scopes::new())
        ))),
        text().prop_map(|u| v1::SecurityScheme::from(v1::OpenIdConnectSecurityScheme::new(u))),
        Just(v1::SecurityScheme::from(v1::MutualTlsSecurityScheme::new())),
    ]
}

fn v1_agent_card() -> impl Strategy<Value = v1::AgentCard> {
    (
        (text(), prop_oneof![Just(String::new()), text()], text()),
        vec(
            (
                text(),
                prop::sample::select(vec!["JSONRPC", "GRPC", "HTTP+JSON"]),
                prop::sample::select(vec!["0.1", "0.3", "1.0"]),
            ),
            0..3,
        ),
        option::of((text(), prop_oneof![Just(String::new()), text()])),
        (option::of(any::<bool>()), option::of(any::<bool>())),
        btree_map(text(), v1_security_scheme(), 0..3),
        vec(btree_map(text(), vec(text(), 0..2), 1..3), 0..3),
        vec(text(), 0..3),
        vec((text(), text(), text(), vec(text(), 0..2)), 0..3),
    )
        .prop_map(
            |(
                (name, desc, version),
                ifaces,
                provider,
                (st, push),
                schemes,
                reqs,
                modes,
                skills,
            )| {
                let mut card = v1::AgentCard::new(name, desc, version)
                    .with_supported_interfaces(
                        ifaces
                            .into_iter()
                            .map(|(u, b, v)| v1::AgentInterface::new(u, b, v)),
                    )
                    .with_capabilities(
                        v1::AgentCapabilities::default()
                            .with_extended_agent_card(true)
                            .with_extensions([v1::AgentExtension::new("urn:x")]),
                    )
                    .with_security_requirements(reqs.into_iter().map(|r| {
                        r.into_iter()
                            .fold(v1::SecurityRequirement::new(), |acc, (k, v)| {
                                acc.with_scheme(k, v)
                            })
                    }))
                    .with_default_input_modes(modes.clone())
                    .with_default_output_modes(modes)
                    .with_skills(
                        skills
                            .into_iter()
                            .map(|(i, n, d, t)| v1::AgentSkill::new(i, n, d, t)),
                    );
                card.capabilities.streaming = st;
                card.capabilities.push_notifications = push;
                card.provider = provider.map(|(o, u)| v1::AgentProvider::new(o, u));
                card.security_schemes = schemes;
                card
            },
        )
}

// ------------------------------------------------------------------------------------------------

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    // --- 0.1 JSON ------------------------------------------------------------------------------

    #[test]
    fn tasks_round_trip_through_json(value in task(false)) {
        json_roundtrip(&value)?;
    }

    #[test]
    fn stream_events_round_trip_through_json(value in stream_event(false)) {
        json_roundtrip(&value)?;
        json_roundtrip(&v01::SendTaskStreamingResponse::success(Some(7.into()), value))?;
    }

    #[test]
    fn send_params_round_trip_through_json(value in send_params(false), id in any::<i64>()) {
        json_roundtrip(&value)?;
        let request = v01::SendTaskRequest::new(id, value);
        json_roundtrip(&request)?;
        json_roundtrip(&v01::A2aRequest::SendTask(request))?;
    }

    #[test]
    fn agent_cards_round_trip_through_json(value in agent_card(false)) {
        json_roundtrip(&value)?;
    }

    // --- 0.1 -> 1.0 -> 0.1 -------------------------------------------------------------------

    #[test]
    fn parts_survive_v1(value in part(true)) {
        prop_assert_eq!(v01::Part::from(v1::Part::from(value.clone())), value);
    }

    #[test]
    fn messages_survive_v1(value in message(true)) {
        prop_assert_eq!(v01::Message::from(v1::Message::from(value.clone())), value);
    }

    #[test]
    fn tasks_survive_v1(value in task(true)) {
        let v1 = v1::Task::from(value.clone());
        json_roundtrip(&v1)?;
        prop_assert_eq!(v01::Task::from(v1.clone()), value.clone());
        prop_assert_eq!(v01::Task::try_from(v1::SendMessageResponse::from(value.clone())).unwrap(), value);
    }

    #[test]
    fn stream_events_survive_v1(value in stream_event(true)) {
        let v1 = v1::StreamResponse::from(value.clone());
        json_roundtrip(&v1)?;
        prop_assert_eq!(v01::StreamEvent::try_from(v1).unwrap(), value);
    }

    #[test]
    fn send_params_survive_v1(value in send_params(true)) {
        let v1 = v1::SendMessageRequest::from(value.clone());
        json_roundtrip(&v1)?;
        prop_assert_eq!(v01::TaskSendParams::try_from(v1).unwrap(), value);
    }

    #[test]
    fn push_configs_survive_v1(config in push_config(true), id in text()) {
        prop_assert_eq!(
            v01::PushNotificationConfig::from(v1::TaskPushNotificationConfig::from(config.clone())),
            config.clone()
        );
        let task_config = v01::TaskPushNotificationConfig::new(id, config);
        let v1 = v1::TaskPushNotificationConfig::from(task_config.clone());
        prop_assert_eq!(v1.id.as_deref(), Some(task_config.id.as_str()));
        prop_assert_eq!(v01::TaskPushNotificationConfig::try_from(v1).unwrap(), task_config);
    }

    #[test]
    fn id_and_query_params_survive_v1(id in text(), meta in metadata(), hl in option::of(any::<i32>())) {
        let mut cancel = v01::TaskIdParams::new(id.clone());
        cancel.metadata = meta;
        prop_assert_eq!(v01::TaskIdParams::from(v1::CancelTaskRequest::from(cancel.clone())), cancel);
        let push_get = v01::TaskIdParams::new(id.clone());
        prop_assert_eq!(
            v01::TaskIdParams::from(v1::GetTaskPushNotificationConfigRequest::from(push_get.clone())),
            push_get
        );
        let mut get = v01::TaskQueryParams::new(id.clone());
        get.history_length = hl;
        prop_assert_eq!(v01::TaskQueryParams::from(v1::GetTaskRequest::from(get.clone())), get);
        let resubscribe = v01::TaskQueryParams::new(id);
        prop_assert_eq!(
            v01::TaskQueryParams::from(v1::SubscribeToTaskRequest::from(resubscribe.clone())),
            resubscribe
        );
    }

    #[test]
    fn agent_cards_survive_v1(value in agent_card(true)) {
        let v1 = v1::AgentCard::from(value.clone());
        json_roundtrip(&v1)?;
        prop_assert_eq!(v01::AgentCard::try_from(v1).unwrap(), value);
    }

    // --- 1.0 -> 0.1 ---------------------------------------------------------------------------

    #[test]
    fn v1_tasks_convert_once(value in v1_task()) {
        let first = v01::Task::from(value);
        json_roundtrip(&first)?;
        prop_assert_eq!(v01::Task::from(v1::Task::from(first.clone())), first);
    }

    #[test]
    fn v1_stream_responses_convert_once(value in v1_stream_response()) {
        match v01::StreamEvent::try_from(value.clone()) {
            Ok(first) => {
                json_roundtrip(&first)?;
                let again = v01::StreamEvent::try_from(v1::StreamResponse::from(first.clone())).unwrap();
                prop_assert_eq!(again, first);
            }
            Err(err) => {
                prop_assert_eq!(err, ConversionError::MessageEvent);
                prop_assert!(matches!(value, v1::StreamResponse::Message(_)));
            }
        }
    }

    #[test]
    fn v1_send_requests_convert_once(msg in v1_message(), hl in option::of(any::<i32>()), push in option::of(v1_push_config()), meta in metadata()) {
        let mut config = v1::SendMessageConfiguration::default().with_return_immediately(true);
        config.history_length = hl;
        config.task_push_notification_config = push;
        let mut request = v1::SendMessageRequest::new(msg.clone()).with_configuration(config);
        request.metadata = meta;
        match v01::TaskSendParams::try_from(request) {
            Ok(first) => {
                json_roundtrip(&first)?;
                prop_assert_eq!(v01::TaskSendParams::try_from(v1::SendMessageRequest::from(first.clone())).unwrap(), first);
            }
            Err(err) => {
                prop_assert_eq!(err, ConversionError::MissingTaskId { field: "message.taskId" });
                prop_assert!(msg.task_id.is_none());
            }
        }
    }

    #[test]
    fn v1_push_configs_convert_once(value in v1_push_config()) {
        match v01::TaskPushNotificationConfig::try_from(value.clone()) {
            Ok(first) => {
                json_roundtrip(&first)?;
                let again = v01::TaskPushNotificationConfig::try_from(v1::TaskPushNotificationConfig::from(first.clone())).unwrap();
                prop_assert_eq!(again, first);
            }
            Err(err) => {
                prop_assert_eq!(err, ConversionError::MissingTaskId { field: "taskId" });
                prop_assert!(value.task_id.is_none());
            }
        }
    }

    #[test]
    fn v1_agent_cards_convert_once(value in v1_agent_card()) {
        match v01::AgentCard::try_from(value.clone()) {
            Ok(first) => {
                json_roundtrip(&first)?;
                prop_assert_eq!(v01::AgentCard::try_from(v1::AgentCard::from(first.clone())).unwrap(), first);
            }
            Err(err) => {
                prop_assert_eq!(err, ConversionError::NoJsonRpcInterface);
                prop_assert!(value.supported_interfaces.iter().all(|i| i.protocol_binding != "JSONRPC"));
            }
        }
    }

    #[test]
    fn states_map_to_the_nearest(state in prop::sample::select(v1::TaskState::ALL.to_vec())) {
        let old = v01::TaskState::from(state);
        // Terminal stays terminal and interrupted stays interrupted.
        prop_assert_eq!(old.is_terminal(), state.is_terminal());
        prop_assert_eq!(old.is_final(), state.is_final());
    }
}
