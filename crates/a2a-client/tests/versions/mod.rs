//! The golden fixtures of an older version (`tests/fixtures/v0_3`, `tests/fixtures/v0_1`:
//! the spec's and the seeds' JSON-RPC documents, each with its 1.0 form in `expected-v1/`), as
//! a scripted server answers with them and a test compares what the client sent.

#![allow(dead_code, unreachable_pub)]

use serde_json::{Value, json};

use crate::common::{self, Scripted, Seen};

/// The fixtures of one version: `Fixtures("v0_3")`.
pub struct Fixtures(pub &'static str);

impl Fixtures {
    /// The document `name` (`expected-v1/<name>` for the 1.0 form).
    pub fn get(&self, name: &str) -> Value {
        let path = format!(
            "{}/../../tests/fixtures/{}/{name}.json",
            env!("CARGO_MANIFEST_DIR"),
            self.0
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    /// The 1.0 form of `name`, decoded.
    pub fn v1<T: serde::de::DeserializeOwned>(&self, name: &str) -> T {
        serde_json::from_value(self.get(&format!("expected-v1/{name}"))).unwrap()
    }

    /// The 1.0 form of `name`, as JSON.
    pub fn v1_json(&self, name: &str) -> Value {
        self.get(&format!("expected-v1/{name}"))
    }

    /// Asserts that `got`, written as 1.0 ProtoJSON, is the 1.0 form of `name`.
    #[track_caller]
    pub fn assert_v1<T: serde::Serialize>(&self, got: &T, name: &str) {
        pretty_assertions::assert_eq!(serde_json::to_value(got).unwrap(), self.v1_json(name));
    }

    /// The response `name`, with the id of the request it answers.
    pub fn answer(&self, seen: &Seen, name: &str) -> common::Answer {
        let mut response = self.get(name);
        response["id"] = seen.json()["id"].clone();
        common::json(200, &response.to_string())
    }

    /// An SSE stream of these responses (SSE ids 1, 2, ...), with the request's id.
    pub fn events(&self, seen: &Seen, names: &[&str]) -> common::Answer {
        let mut body = String::new();
        for (n, name) in names.iter().enumerate() {
            let mut response = self.get(name);
            response["id"] = seen.json()["id"].clone();
            body.push_str(&format!("id: {}\ndata: {response}\n\n", n + 1));
        }
        common::sse(body.as_bytes())
    }

    /// The request `name` as a client sends it: without its `id` (every request has its own),
    /// with `"jsonrpc": "2.0"` (which some seed examples leave out).
    pub fn request(&self, name: &str) -> Value {
        let mut body = self.get(name);
        let object = body.as_object_mut().unwrap();
        object.remove("id");
        object.insert("jsonrpc".to_owned(), json!("2.0"));
        body
    }
}

/// The JSON-RPC requests the server saw, without their ids.
pub fn calls(server: &Scripted) -> Vec<Value> {
    server
        .seen()
        .iter()
        .map(|seen| {
            let mut body = seen.json();
            body.as_object_mut().unwrap().remove("id");
            body
        })
        .collect()
}
