//! How many bytes a task holds: the estimate every store accounts (see the module docs of
//! [`store`](super)), and the JSON size of a task as a page presents it.
//!
//! The estimate follows the heap the content takes in this crate's types: a string or a file
//! counts its length, a struct its size, a list its elements, and a `data` part its
//! `serde_json::Value` tree, whose every JSON object is a B-tree node of ~600 bytes however few
//! keys it has (a `{"i":1}` of 7 bytes of JSON takes ~670 bytes). Lengths, not capacities: the
//! count is the same whichever way the content was built, and a SQL store can keep the same one.

use std::mem::size_of;

use a2a_types::v1::{
    Artifact, Message, Part, PartContent, StreamResponse, Struct, Task, TaskPushNotificationConfig,
    TaskStatus,
};
use serde_json::Value;

use super::TaskEdit;

/// What one logged event costs besides its content (the log entry and its share of the
/// store's indexes).
pub(super) const EVENT_BYTES: u64 = 64;

/// What a stored task costs besides its content: the task and its store entry, the id in the
/// store's maps and indexes.
const TASK_BYTES: u64 = 512;

/// What an ended task kept in compact form by the in-memory store costs besides that form: its
/// store entry (64 bytes and the allocator's header), the id (one shared allocation), its slot
/// in the map and its places in the time and eviction orders; ~340 bytes of RSS measured per
/// echo task at 20,000 tasks (`docs/benchmarks.md`), rounded up.
const COMPACT_ENTRY_BYTES: u64 = 352;

/// The bytes the in-memory store's total counts for an ended task kept in compact form of
/// `len` bytes: the form and [`COMPACT_ENTRY_BYTES`].
pub(super) fn compact_bytes(len: usize) -> u64 {
    COMPACT_ENTRY_BYTES.saturating_add(self::len(len))
}

/// How many entries a B-tree node of a JSON object holds (std's `BTreeMap` node capacity).
const NODE_CAPACITY: usize = 11;

/// How full a JSON object's B-tree nodes are, on average, in entries per node.
const NODE_FILL: usize = 8;

fn len(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn string(s: &str) -> u64 {
    len(s.len())
}

fn opt_string(s: Option<&str>) -> u64 {
    s.map_or(0, string)
}

fn strings<S: AsRef<str>>(list: &[S]) -> u64 {
    list.iter()
        .map(|s| len(size_of::<String>()).saturating_add(string(s.as_ref())))
        .fold(0, u64::saturating_add)
}

/// The heap of a JSON value, beyond its own slot.
fn value(v: &Value) -> u64 {
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
        Value::String(s) => string(s),
        Value::Array(items) => items
            .iter()
            .map(|item| len(size_of::<Value>()).saturating_add(value(item)))
            .fold(0, u64::saturating_add),
        Value::Object(map) => object(map),
    }
}

/// The heap of a JSON object: its B-tree nodes, its keys and its values' own heaps.
fn object(map: &Struct) -> u64 {
    if map.is_empty() {
        return 0;
    }
    let node = NODE_CAPACITY * (size_of::<String>() + size_of::<Value>()) + 16;
    let nodes = map.len().div_ceil(NODE_FILL);
    map.iter()
        .map(|(k, v)| string(k).saturating_add(value(v)))
        .fold(len(nodes * node), u64::saturating_add)
}

fn metadata(m: Option<&Struct>) -> u64 {
    m.map_or(0, |m| len(size_of::<Struct>()).saturating_add(object(m)))
}

fn part(p: &Part) -> u64 {
    let content = match &p.content {
        PartContent::Text(s) | PartContent::Url(s) => string(s),
        PartContent::Raw(bytes) => len(bytes.len()),
        PartContent::Data(v) => value(v),
        // A content kind added later: at least its slot.
        _ => 0,
    };
    len(size_of::<Part>())
        .saturating_add(content)
        .saturating_add(metadata(p.metadata.as_ref()))
        .saturating_add(opt_string(p.filename.as_deref()))
        .saturating_add(opt_string(p.media_type.as_deref()))
}

fn parts(list: &[Part]) -> u64 {
    list.iter().map(part).fold(0, u64::saturating_add)
}

/// The bytes of a message: its slot in a list, its ids, parts and metadata.
pub(super) fn message(m: &Message) -> u64 {
    len(size_of::<Message>())
        .saturating_add(string(m.message_id.as_str()))
        .saturating_add(opt_string(m.context_id.as_ref().map(|c| c.as_str())))
        .saturating_add(opt_string(m.task_id.as_ref().map(|t| t.as_str())))
        .saturating_add(parts(&m.parts))
        .saturating_add(metadata(m.metadata.as_ref()))
        .saturating_add(strings(&m.extensions))
        .saturating_add(strings(&m.reference_task_ids))
}

/// The bytes of an artifact: its slot in a list, its ids, parts and metadata.
pub(super) fn artifact(a: &Artifact) -> u64 {
    len(size_of::<Artifact>())
        .saturating_add(string(a.artifact_id.as_str()))
        .saturating_add(opt_string(a.name.as_deref()))
        .saturating_add(opt_string(a.description.as_deref()))
        .saturating_add(parts(&a.parts))
        .saturating_add(metadata(a.metadata.as_ref()))
        .saturating_add(strings(&a.extensions))
}

fn status(s: &TaskStatus) -> u64 {
    s.message.as_ref().map_or(0, message)
}

/// The bytes a store accounts to a task as created: the task with its history, artifacts,
/// status message and metadata, its entry in the store, and its first event.
pub fn task_bytes(task: &Task) -> u64 {
    TASK_BYTES
        .saturating_add(EVENT_BYTES)
        .saturating_add(string(task.id.as_str()).saturating_mul(3))
        .saturating_add(opt_string(task.context_id.as_ref().map(|c| c.as_str())))
        .saturating_add(status(&task.status))
        .saturating_add(
            task.history
                .iter()
                .map(message)
                .fold(0, u64::saturating_add),
        )
        .saturating_add(
            task.artifacts
                .iter()
                .map(artifact)
                .fold(0, u64::saturating_add),
        )
        .saturating_add(metadata(task.metadata.as_ref()))
}

/// [`TaskEdit::bytes`].
pub(super) fn edit_bytes(edit: &TaskEdit) -> u64 {
    match edit {
        TaskEdit::Message(m) => message(m),
        // The message joins the history and stays in the status until the next one.
        TaskEdit::Status(s) => EVENT_BYTES.saturating_add(status(s).saturating_mul(2)),
        TaskEdit::Restate(_) => EVENT_BYTES,
        TaskEdit::Artifact { artifact: a, .. } => EVENT_BYTES.saturating_add(artifact(a)),
    }
}

/// What one outbox delivery costs besides its event and configuration: its record, its place in
/// the queue and the store's indexes.
const DELIVERY_BYTES: u64 = 256;

/// The bytes a store accounts to one outbox delivery (see
/// [`OutboxLimits`](super::OutboxLimits)): the event's content counted as task content is, the
/// configuration's strings, and a fixed overhead.
pub fn delivery_bytes(event: &StreamResponse, config: &TaskPushNotificationConfig) -> u64 {
    let content = match event {
        StreamResponse::Task(task) => task_bytes(task),
        StreamResponse::Message(m) => message(m),
        StreamResponse::StatusUpdate(update) => {
            status(&update.status).saturating_add(metadata(update.metadata.as_ref()))
        }
        StreamResponse::ArtifactUpdate(update) => {
            artifact(&update.artifact).saturating_add(metadata(update.metadata.as_ref()))
        }
        // A kind of event added later: its JSON is a fair estimate.
        other => len(json_len(other)),
    };
    let auth = config.authentication.as_ref().map_or(0, |a| {
        string(&a.scheme).saturating_add(opt_string(a.credentials.as_deref()))
    });
    DELIVERY_BYTES
        .saturating_add(content)
        .saturating_add(string(&config.url))
        .saturating_add(opt_string(config.id.as_deref()))
        .saturating_add(opt_string(config.token.as_deref()))
        .saturating_add(auth)
}

/// The length of `value`'s compact JSON, without writing it anywhere.
pub fn json_len<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail, and our types always serialize.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// A copy of what a client is shown of `task`: at most `history_length` of its latest
/// messages, and its artifacts only with `include_artifacts`. Copies nothing it leaves out.
pub fn present_task(task: &Task, history_length: Option<usize>, include_artifacts: bool) -> Task {
    let keep = history_length.unwrap_or(usize::MAX).min(task.history.len());
    let mut shown = Task::new(task.id.clone(), String::new(), task.status.clone());
    shown.context_id.clone_from(&task.context_id);
    shown.history = task.history[task.history.len() - keep..].to_vec();
    if include_artifacts {
        shown.artifacts.clone_from(&task.artifacts);
    }
    shown.metadata.clone_from(&task.metadata);
    shown.generation = task.generation;
    shown
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{Role, TaskState};

    use super::*;

    #[test]
    fn text_and_files_count_their_length() {
        let text = Message::new("m", Role::User, vec![Part::text("x".repeat(10_000))]);
        let file = Message::new("m", Role::User, vec![Part::raw(vec![0u8; 10_000])]);
        for m in [&text, &file] {
            let bytes = message(m);
            assert!((10_000..10_400).contains(&bytes), "{bytes}");
        }
    }

    #[test]
    fn json_objects_count_their_tree() {
        let items: Vec<Value> = (0..1000).map(|i| serde_json::json!({ "i": i })).collect();
        let m = Message::new("m", Role::User, vec![Part::data(items)]);
        // 1000 objects of one key: a node, a key and a list slot each.
        let per_object = (message(&m) - message(&Message::new("m", Role::User, vec![]))) / 1000;
        assert!((600..800).contains(&per_object), "{per_object}");
    }

    #[test]
    fn present_task_copies_what_is_shown() {
        let mut task = Task::new("t", "c", TaskStatus::new(TaskState::Completed));
        task.history = (0..4)
            .map(|i| Message::new(format!("m{i}"), Role::User, vec![]))
            .collect();
        task.artifacts
            .push(Artifact::new("a", vec![Part::text("x")]));
        let shown = present_task(&task, Some(1), false);
        assert_eq!(
            serde_json::to_string(&shown).unwrap(),
            r#"{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"history":[{"messageId":"m3","role":"ROLE_USER","parts":[]}]}"#
        );
        assert_eq!(present_task(&task, None, true), task);
        assert_eq!(
            json_len(&shown),
            serde_json::to_string(&shown).unwrap().len()
        );
    }
}
