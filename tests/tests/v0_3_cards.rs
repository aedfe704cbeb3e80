//! Agent cards across versions: a 1.0 card served to 0.3 peers, and the "union" cards the
//! Python and JS SDKs serve (0.3 and 1.0 fields in one object) read into the 1.0 model.

use a2a_types::{v0_3, v1};
use pretty_assertions::assert_eq;
use serde_json::json;

/// A 1.0 server that speaks JSON-RPC 1.0 and 0.3 on one URL and REST 1.0 on another.
fn server_card() -> v1::AgentCard {
    let mut flows = v1::Scopes::new();
    flows.insert("read".into(), "Read".into());
    v1::AgentCard::new("Echo", "Repeats", "2.0.0")
        .with_supported_interfaces([
            v1::AgentInterface::new("https://echo.example.com/a2a", v1::binding::JSONRPC, "1.0"),
            v1::AgentInterface::new("https://echo.example.com/a2a", v1::binding::JSONRPC, "0.3"),
            v1::AgentInterface::new(
                "https://echo.example.com/rest",
                v1::binding::HTTP_JSON,
                "1.0",
            ),
        ])
        .with_capabilities(
            v1::AgentCapabilities::default()
                .with_streaming(true)
                .with_extended_agent_card(true),
        )
        .with_security_scheme("bearer", v1::HttpAuthSecurityScheme::new("Bearer"))
        .with_security_scheme(
            "device",
            v1::OAuth2SecurityScheme::new(v1::DeviceCodeOAuthFlow::new(
                "https://auth.example.com/device",
                "https://auth.example.com/token",
                flows,
            )),
        )
        .with_security_requirements([
            v1::SecurityRequirement::new().with_scheme("bearer", [] as [&str; 0])
        ])
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_skills([v1::AgentSkill::new("echo", "Echo", "Echoes", ["echo"])])
}

#[test]
fn a_1_0_card_served_to_0_3_peers_points_at_the_0_3_interface() {
    let card = v0_3::AgentCard::from(&server_card());
    assert_eq!(
        serde_json::to_value(&card).unwrap(),
        json!({
            "protocolVersion": "0.3.0",
            "name": "Echo",
            "description": "Repeats",
            "url": "https://echo.example.com/a2a",
            "preferredTransport": "JSONRPC",
            "version": "2.0.0",
            "capabilities": {"streaming": true},
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "Bearer"},
                // The device code flow does not exist in 0.3.
                "device": {"type": "oauth2", "flows": {}}
            },
            "security": [{"bearer": []}],
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"]}],
            "supportsAuthenticatedExtendedCard": true
        })
    );
}

#[test]
fn without_a_0_x_interface_the_first_json_rpc_one_is_the_url_and_listed_first() {
    let card = v1::AgentCard::new("A", "B", "1").with_supported_interfaces([
        v1::AgentInterface::new("grpc.example.com:443", v1::binding::GRPC, "1.0"),
        v1::AgentInterface::new("https://example.com/rpc", v1::binding::JSONRPC, "1.0")
            .with_tenant("t1"),
    ]);
    let old = v0_3::AgentCard::from(card);
    assert_eq!(old.url, "https://example.com/rpc");
    assert_eq!(old.preferred_transport.as_deref(), Some("JSONRPC"));
    assert_eq!(old.protocol_version, "1.0.0");
    assert_eq!(
        old.additional_interfaces,
        [
            v0_3::AgentInterface::new("https://example.com/rpc", "JSONRPC"),
            v0_3::AgentInterface::new("grpc.example.com:443", "GRPC"),
        ]
    );

    let empty = v0_3::AgentCard::from(v1::AgentCard::new("A", "B", "1"));
    assert_eq!(empty.url, "");
    assert_eq!(empty.preferred_transport, None);
    assert_eq!(empty.protocol_version, "0.3.0");
}

#[test]
fn a_python_style_union_card_reads_as_its_1_0_self() {
    // a2a-sdk 1.3.0 serves the 1.0 card and deep-merges the 0.3 fields into it, security
    // schemes included.
    let served = json!({
        "name": "Echo", "description": "Repeats", "version": "2.0.0",
        "supportedInterfaces": [
            {"url": "https://echo.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "https://echo.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
        ],
        "capabilities": {"streaming": true, "extendedAgentCard": true},
        "securitySchemes": {"bearer": {
            "httpAuthSecurityScheme": {"scheme": "Bearer"},
            "type": "http", "scheme": "Bearer"
        }},
        "securityRequirements": [{"schemes": {"bearer": {}}}],
        "security": [{"bearer": []}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"]}],
        "url": "https://echo.example.com/a2a", "preferredTransport": "JSONRPC", "protocolVersion": "0.3",
        "supportsAuthenticatedExtendedCard": true
    });
    let card = v0_3::AgentCard::from_value_lenient(served.clone()).unwrap();
    let mut pure = served.as_object().unwrap().clone();
    for legacy in [
        "url",
        "preferredTransport",
        "protocolVersion",
        "security",
        "supportsAuthenticatedExtendedCard",
    ] {
        pure.remove(legacy);
    }
    let pure: v1::AgentCard = serde_json::from_value(pure.into()).unwrap();
    assert_eq!(card, pure);
}

#[test]
fn a_js_style_0_3_card_with_supported_interfaces_fills_in_the_1_0_fields() {
    // @a2a-js/sdk 1.3.0 serves a 0.3-shaped card, with supportedInterfaces embedded, to
    // clients without an A2A-Version header.
    let served = json!({
        "protocolVersion": "0.3.0",
        "name": "Echo", "description": "Repeats", "version": "2.0.0",
        "url": "https://echo.example.com/a2a", "preferredTransport": "JSONRPC",
        "supportedInterfaces": [
            {"url": "https://echo.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            {"url": "https://echo.example.com/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": true, "stateTransitionHistory": false},
        "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        "security": [{"key": []}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"],
                    "security": [{"key": []}]}],
        "supportsAuthenticatedExtendedCard": false
    });
    let card = v0_3::AgentCard::from_value_lenient(served).unwrap();
    assert_eq!(card.supported_interfaces.len(), 2);
    assert_eq!(card.supported_interfaces[1].protocol_version, "1.0");
    assert_eq!(
        serde_json::to_value(&card.security_schemes).unwrap(),
        json!({"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}})
    );
    assert_eq!(
        card.security_requirements,
        [v1::SecurityRequirement::new().with_scheme("key", [] as [&str; 0])]
    );
    assert_eq!(
        card.skills[0].security_requirements,
        card.security_requirements
    );
    assert_eq!(card.capabilities.extended_agent_card, Some(false));
}

#[test]
fn pure_cards_of_either_version_read_as_the_plain_parsers_do() {
    let v1_card = server_card();
    let text = serde_json::to_string(&v1_card).unwrap();
    assert_eq!(v0_3::AgentCard::from_json_lenient(&text).unwrap(), v1_card);

    let old = v0_3::AgentCard::from(&v1_card);
    let text = serde_json::to_string(&old).unwrap();
    assert_eq!(
        v0_3::AgentCard::from_json_lenient(&text).unwrap(),
        v1::AgentCard::from(old)
    );
}

#[test]
fn lenient_errors_name_the_field() {
    let err = v0_3::AgentCard::from_json_lenient(r#"{"description":"x"}"#).unwrap_err();
    assert_eq!(err.to_string(), ".: missing field `name`");

    let err = v0_3::AgentCard::from_json_lenient(r#""a card""#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#".: invalid type: string "a card", expected struct AgentCard"#
    );

    let err = v0_3::AgentCard::from_json_lenient(
        r#"{"name":"x","description":"x","version":"1","url":"u","capabilities":{},
            "defaultInputModes":[],"defaultOutputModes":[],"skills":[{"id":"s"}]}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "skills[0]");
    assert_eq!(err.message(), "missing field `name`");
}

#[test]
fn a_0_3_card_becomes_one_interface_per_url_and_transport() {
    let card: v0_3::AgentCard = serde_json::from_value(json!({
        "protocolVersion": "0.3.0",
        "name": "x", "description": "x", "version": "1",
        "url": "https://a.example.com", "preferredTransport": "GRPC",
        "additionalInterfaces": [
            {"url": "https://a.example.com", "transport": "GRPC"},
            {"url": "https://a.example.com", "transport": "JSONRPC"},
            {"url": "https://a.example.com", "transport": "JSONRPC"}
        ],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []
    }))
    .unwrap();
    let card = v1::AgentCard::from(card);
    assert_eq!(
        card.supported_interfaces,
        [
            v1::AgentInterface::new("https://a.example.com", "GRPC", "0.3"),
            v1::AgentInterface::new("https://a.example.com", "JSONRPC", "0.3"),
        ]
    );
}
