//! Serde of the v1 `Task` and `Message` next to `serde_json::Value` on the same JSON documents.
//!
//! Run with `cargo bench -p a2a-types --bench serde`; the figures are in `docs/benchmarks.md`,
//! section "v1 types: serialize and deserialize". `Value` is the floor: any JSON endpoint parses
//! the body at least into a `Value`, and the typed decode also checks every field and enum, so
//! the ratio typed / `Value` is what typing costs (below 1 means typing is cheaper).
//!
//! Documents: `tests/fixtures/v1/Task.completed.json` (a completed task with an artifact and a
//! history message) and `tests/fixtures/v1/Message.agent-full.json` (a message with a text and
//! a data part, metadata, extensions and reference task ids).

use a2a_types::v1::{Message, Task};
use divan::{Bencher, black_box};
use serde_json::Value;

const TASK: &str = include_str!("../../../tests/fixtures/v1/Task.completed.json");
const MESSAGE: &str = include_str!("../../../tests/fixtures/v1/Message.agent-full.json");

fn main() {
    // Typed and `Value` write the same JSON for both documents: the comparison is like for like.
    let task: Task = serde_json::from_str(TASK).expect("a Task");
    let message: Message = serde_json::from_str(MESSAGE).expect("a Message");
    assert_eq!(
        serde_json::to_value(&task).expect("JSON"),
        serde_json::from_str::<Value>(TASK).expect("JSON")
    );
    assert_eq!(
        serde_json::to_value(&message).expect("JSON"),
        serde_json::from_str::<Value>(MESSAGE).expect("JSON")
    );
    divan::main();
}

/// The documents re-serialized compactly, as they travel on the wire.
fn compact(doc: &str) -> String {
    serde_json::to_string(&serde_json::from_str::<Value>(doc).expect("valid JSON")).expect("JSON")
}

#[divan::bench_group]
mod task {
    use super::*;

    #[divan::bench]
    fn deserialize_typed(bencher: Bencher<'_, '_>) {
        let doc = compact(TASK);
        bencher
            .counter(divan::counter::BytesCount::of_str(&doc))
            .bench(|| serde_json::from_str::<Task>(black_box(&doc)).expect("a Task"));
    }

    #[divan::bench]
    fn deserialize_value(bencher: Bencher<'_, '_>) {
        let doc = compact(TASK);
        bencher
            .counter(divan::counter::BytesCount::of_str(&doc))
            .bench(|| serde_json::from_str::<Value>(black_box(&doc)).expect("JSON"));
    }

    #[divan::bench]
    fn serialize_typed(bencher: Bencher<'_, '_>) {
        let task: Task = serde_json::from_str(TASK).expect("a Task");
        bencher.bench(|| serde_json::to_vec(black_box(&task)).expect("serializes"));
    }

    #[divan::bench]
    fn serialize_value(bencher: Bencher<'_, '_>) {
        let value: Value = serde_json::from_str(TASK).expect("JSON");
        bencher.bench(|| serde_json::to_vec(black_box(&value)).expect("serializes"));
    }
}

#[divan::bench_group]
mod message {
    use super::*;

    #[divan::bench]
    fn deserialize_typed(bencher: Bencher<'_, '_>) {
        let doc = compact(MESSAGE);
        bencher
            .counter(divan::counter::BytesCount::of_str(&doc))
            .bench(|| serde_json::from_str::<Message>(black_box(&doc)).expect("a Message"));
    }

    #[divan::bench]
    fn deserialize_value(bencher: Bencher<'_, '_>) {
        let doc = compact(MESSAGE);
        bencher
            .counter(divan::counter::BytesCount::of_str(&doc))
            .bench(|| serde_json::from_str::<Value>(black_box(&doc)).expect("JSON"));
    }

    #[divan::bench]
    fn serialize_typed(bencher: Bencher<'_, '_>) {
        let message: Message = serde_json::from_str(MESSAGE).expect("a Message");
        bencher.bench(|| serde_json::to_vec(black_box(&message)).expect("serializes"));
    }

    #[divan::bench]
    fn serialize_value(bencher: Bencher<'_, '_>) {
        let value: Value = serde_json::from_str(MESSAGE).expect("JSON");
        bencher.bench(|| serde_json::to_vec(black_box(&value)).expect("serializes"));
    }
}
