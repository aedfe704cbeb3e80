//! Golden fixtures of A2A 1.0: every document under `tests/fixtures/v1/` (but `invalid/`)
//! decodes into the type its file name starts with and encodes back to the same JSON; the
//! compact one-line fixtures encode back to the exact bytes. Every document under
//! `tests/fixtures/v1/invalid/` is rejected with an error that names the bad field.

use std::collections::BTreeSet;
use std::path::Path;

use a2a_tests::{V1_PROTO_TYPES, fixture_files_recursive, v1_roundtrip};
use pretty_assertions::assert_eq;
use serde_json::Value;

fn proto_name(path: &Path) -> String {
    let file = path.file_name().unwrap().to_str().unwrap();
    file.split('.').next().unwrap().to_owned()
}

fn valid_fixtures() -> Vec<std::path::PathBuf> {
    fixture_files_recursive("v1")
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "invalid"))
        .collect()
}

#[test]
fn every_fixture_round_trips() {
    let files = valid_fixtures();
    assert!(
        files.len() >= 60,
        "expected the v1 fixtures, found {}",
        files.len()
    );
    let mut exact = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = proto_name(path);
        let encoded = v1_roundtrip(&name, &text)
            .unwrap_or_else(|| panic!("{}: no Rust type for `{name}`", path.display()))
            .unwrap_or_else(|e| panic!("{}: does not decode: {e}", path.display()));
        let original: Value = serde_json::from_str(&text).unwrap();
        let again: Value = serde_json::from_str(&encoded).unwrap();
        assert_eq!(
            again,
            original,
            "{} changed in a round trip",
            path.display()
        );
        if text.trim_end().lines().count() == 1 {
            assert_eq!(encoded, text.trim_end(), "{}: bytes differ", path.display());
            exact += 1;
        }
    }
    assert!(
        exact >= 50,
        "expected most hand-written fixtures to be byte-exact, got {exact}"
    );
}

#[test]
fn every_proto_type_and_oneof_member_has_a_fixture() {
    let files = valid_fixtures();
    let covered: BTreeSet<String> = files.iter().map(|p| proto_name(p)).collect();
    let missing: Vec<_> = V1_PROTO_TYPES
        .iter()
        .filter(|t| !matches!(**t, "TaskState" | "Role"))
        .filter(|t| !covered.contains(**t))
        .collect();
    assert!(
        missing.is_empty(),
        "messages without a fixture: {missing:?}"
    );

    let oneofs: &[(&str, &[&str])] = &[
        ("Part", &["text", "raw", "url", "data"]),
        ("SendMessageResponse", &["task", "message"]),
        (
            "StreamResponse",
            &["task", "message", "statusUpdate", "artifactUpdate"],
        ),
        (
            "SecurityScheme",
            &[
                "apiKeySecurityScheme",
                "httpAuthSecurityScheme",
                "oauth2SecurityScheme",
                "openIdConnectSecurityScheme",
                "mtlsSecurityScheme",
            ],
        ),
        (
            "OAuthFlows",
            &[
                "authorizationCode",
                "clientCredentials",
                "implicit",
                "password",
                "deviceCode",
            ],
        ),
    ];
    for (owner, members) in oneofs {
        let seen: BTreeSet<String> = files
            .iter()
            .filter(|p| proto_name(p) == *owner)
            .flat_map(|p| {
                let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                v.as_object().unwrap().keys().cloned().collect::<Vec<_>>()
            })
            .collect();
        for member in *members {
            assert!(
                seen.contains(*member),
                "no {owner} fixture uses member `{member}`"
            );
        }
    }
}

#[test]
fn every_invalid_fixture_is_rejected_naming_the_field() {
    let files = fixture_files_recursive("v1/invalid");
    assert!(
        files.len() >= 15,
        "expected the invalid fixtures, found {}",
        files.len()
    );
    for path in &files {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let name = case["type"].as_str().unwrap();
        let document = serde_json::to_string(&case["document"]).unwrap();
        let err = match v1_roundtrip(name, &document).expect("known type") {
            Ok(out) => panic!("{}: accepted, re-encoded as {out}", path.display()),
            Err(e) => e,
        };
        assert_eq!(
            err.path(),
            case["path"].as_str().unwrap(),
            "{}: path of {err}",
            path.display()
        );
        assert_eq!(
            err.message(),
            case["message"].as_str().unwrap(),
            "{}: message",
            path.display()
        );
    }
}
