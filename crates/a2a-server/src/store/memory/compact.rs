//! The compact form of an ended task: the whole of what the in-memory store keeps for it (the
//! task, its log in short form, the artifacts the log refers to) in one heap allocation.
//!
//! An ended task that nobody pins is rarely read again, and may not change (a later edit thaws
//! it first). Kept as live values it costs ~18 heap blocks scattered over the heap (ids,
//! strings, lists, boxes), freed cold when it is evicted; kept compact it costs one block of
//! about its JSON's size. Reads decode what they need: [`Frozen::task`] the task alone (the
//! JSON comes first), [`Frozen::thaw`] everything, for the log. The state, the last sequence
//! number and the context id are readable without decoding, for `ListTasks`' filters.
//!
//! Layout: the state's number (1 byte), the log's length (4 bytes, little-endian), the context
//! id (a varint of its length + 1, 0 for none, then its bytes), then the payload: the task's
//! JSON with its ids cut out (below), the status message's index in the history, the log, the
//! slots and the task's artifact slots (see [`Live`]).
//!
//! The task's id and its context id each appear in its JSON once for the task and once more in
//! every message (`taskId`, `contextId`): four copies of ~50 bytes in an echo task. They are
//! taken out of the task before it is written and put back when it is read: the task's id is
//! the store's key and the context id is in the header, and a flag per message (history first,
//! then the status message; two bits: the task id, the context id) says which of its ids were
//! the task's (a different or empty one stays in the JSON). The task's JSON is stored as the
//! number of flag bytes (a varint), the flag bytes, its length in 4 bytes, then the JSON. The
//! rest is not compressed: an echo task's JSON compresses by too little to pay for a compressor (see
//! `docs/benchmarks.md`, "Memory per kept task and scale").

use a2a_types::v1::{Artifact, ContextId, StreamResponse, Task, TaskId, TaskState, Timestamp};

use super::{Header, Live, Logged, Slot, SlotArtifact};
use crate::store::StoreError;

/// An ended task in compact form.
#[derive(Debug)]
pub(super) struct Frozen(Box<[u8]>);

/// Where the context id starts: after the state and the log's length.
const CONTEXT_AT: usize = 5;

impl Frozen {
    /// The compact form of `live`; `None` (the task stays live) for a state whose number does
    /// not fit the header's byte, which no state of the protocol has.
    pub(super) fn freeze(live: &mut Live) -> Option<Self> {
        let number = u8::try_from(live.task.status.state.number()).ok()?;
        SCRATCH.with(|scratch| {
            let mut out = scratch.borrow_mut();
            out.clear();
            Self::write(live, number, &mut out);
            // One allocation of exactly its size (an echo task: ~420 bytes); the scratch
            // buffer keeps its capacity for the next task, unless a big task grew it.
            let frozen = Self(Box::from(&out[..]));
            if out.capacity() > MAX_SCRATCH {
                *out = Vec::new();
            }
            Some(frozen)
        })
    }

    fn write(live: &mut Live, number: u8, out: &mut Vec<u8>) {
        out.push(number);
        out.extend_from_slice(&super::index(live.log.len()).to_le_bytes());
        match &live.task.context_id {
            Some(c) => {
                varint(out, c.as_str().len() as u64 + 1);
                out.extend_from_slice(c.as_str().as_bytes());
            }
            None => varint(out, 0),
        }
        task_json(out, &mut live.task);
        opt_index(out, live.status_message);
        varint(out, live.log.len() as u64);
        for logged in &live.log {
            write_logged(out, logged);
        }
        varint(out, live.slots.len() as u64);
        for slot in &live.slots {
            varint(out, u64::from(slot.origin));
            match &slot.artifact {
                SlotArtifact::Live(i) => {
                    out.push(0);
                    varint(out, u64::from(*i));
                }
                SlotArtifact::Retired(artifact) => {
                    out.push(1);
                    json(out, &**artifact);
                }
            }
        }
        varint(out, live.artifact_slots.len() as u64);
        for slot in &live.artifact_slots {
            varint(out, u64::from(*slot));
        }
    }

    /// The bytes of the compact form.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// The task's state.
    pub(super) fn state(&self) -> TaskState {
        // `freeze` stores only numbers of known states.
        TaskState::from_number(i32::from(self.0[0])).unwrap_or(TaskState::Unspecified)
    }

    /// The sequence number of the last logged event.
    pub(super) fn last_seq(&self) -> u64 {
        let mut len = [0u8; 4];
        len.copy_from_slice(&self.0[1..CONTEXT_AT]);
        u64::from(u32::from_le_bytes(len))
    }

    /// The task's context id, as its bytes (`None` when it has none).
    pub(super) fn context_id(&self) -> Option<&[u8]> {
        let mut reader = Reader::new(&self.0[CONTEXT_AT..]);
        let len = reader.varint().ok()?;
        let len = usize::try_from(len.checked_sub(1)?).ok()?;
        reader.take(len).ok()
    }

    /// The header's context id, when the task has a non-empty one.
    fn context(&self) -> Result<Option<ContextId>, StoreError> {
        match self.context_id() {
            None | Some([]) => Ok(None),
            Some(bytes) => std::str::from_utf8(bytes)
                .map(|c| Some(ContextId::from(c)))
                .map_err(|_| corrupt("context id")),
        }
    }

    fn payload(&self) -> Result<Reader<'_>, StoreError> {
        let mut reader = Reader::new(&self.0[CONTEXT_AT..]);
        let len = reader.varint()?;
        if let Some(len) = len.checked_sub(1) {
            reader.take(usize::try_from(len).map_err(|_| corrupt("context id length"))?)?;
        }
        Ok(reader)
    }

    /// The task alone (its JSON comes first: the log is not decoded). `id` is the task's id,
    /// which the form does not repeat.
    pub(super) fn task(&self, id: &TaskId) -> Result<Task, StoreError> {
        self.payload()?.task_json(id, self.context()?)
    }

    /// Everything, as it was before it was frozen. `id` is the task's id.
    pub(super) fn thaw(&self, id: &TaskId) -> Result<Live, StoreError> {
        let mut r = self.payload()?;
        let task: Task = r.task_json(id, self.context()?)?;
        let status_message = r.opt_index()?;
        let count = r.len()?;
        let mut log = Vec::with_capacity(count);
        for _ in 0..count {
            log.push(read_logged(&mut r)?);
        }
        let count = r.len()?;
        let mut slots = Vec::with_capacity(count);
        for _ in 0..count {
            let origin = r.index()?;
            let artifact = match r.byte()? {
                0 => SlotArtifact::Live(r.index()?),
                1 => SlotArtifact::Retired(Box::new(r.json::<Artifact>()?)),
                other => return Err(corrupt(&format!("slot kind {other}"))),
            };
            slots.push(Slot { artifact, origin });
        }
        let count = r.len()?;
        let mut artifact_slots = Vec::with_capacity(count);
        for _ in 0..count {
            artifact_slots.push(r.index()?);
        }
        if !r.rest.is_empty() {
            return Err(corrupt("bytes after the artifact slots"));
        }
        Ok(Live {
            task,
            log,
            slots,
            artifact_slots,
            status_message,
        })
    }
}

fn corrupt(what: &str) -> StoreError {
    StoreError::Corrupt(format!("a compact task in memory: {what}"))
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn opt_index(out: &mut Vec<u8>, i: Option<u32>) {
    varint(out, i.map_or(0, |i| u64::from(i) + 1));
}

thread_local! {
    /// Where `freeze` writes a form before it is copied into its own allocation.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The most capacity the scratch buffer keeps between tasks.
const MAX_SCRATCH: usize = 64 * 1024;

/// The task's JSON without the ids its messages share with it (see the module docs): the
/// flags, then the JSON. The task is left as it was.
fn task_json(out: &mut Vec<u8>, task: &mut Task) {
    let messages = task.history.len() + usize::from(task.status.message.is_some());
    let flag_bytes = messages.div_ceil(4);
    varint(out, flag_bytes as u64);
    let flags_at = out.len();
    out.resize(flags_at + flag_bytes, 0);
    let id = std::mem::take(&mut task.id);
    let context = task.context_id.take_if(|c| !c.is_empty());
    let history = task.history.iter_mut();
    for (i, message) in history.chain(task.status.message.as_mut()).enumerate() {
        let own_task = message.task_id.as_ref() == Some(&id) && !id.is_empty();
        let own_context = context.is_some() && message.context_id == context;
        if own_task {
            message.task_id = None;
        }
        if own_context {
            message.context_id = None;
        }
        out[flags_at + i / 4] |= (u8::from(own_task) | u8::from(own_context) << 1) << (2 * (i % 4));
    }
    json(out, &*task);
    // Back as they were.
    let flags = flags_at..flags_at + flag_bytes;
    restore_ids(task, &out[flags], &id, context.as_ref());
    task.id = id;
    task.context_id = context.or(task.context_id.take());
}

/// Puts the ids the `flags` say were taken out of `task`'s messages back: `id` and `context`.
fn restore_ids(task: &mut Task, flags: &[u8], id: &TaskId, context: Option<&ContextId>) {
    let history = task.history.iter_mut();
    for (i, message) in history.chain(task.status.message.as_mut()).enumerate() {
        let bits = flags.get(i / 4).map_or(0, |b| b >> (2 * (i % 4)));
        if bits & 1 != 0 {
            message.task_id = Some(id.clone());
        }
        if bits & 2 != 0 {
            message.context_id = context.cloned();
        }
    }
}

/// The JSON of `value`, after its length (4 bytes, little-endian, written once the JSON is:
/// one serialization, no copy).
fn json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    // Writing to a Vec cannot fail, and our types always serialize.
    let _ = serde_json::to_writer(&mut *out, value);
    let len = u32::try_from(out.len() - at - 4).unwrap_or(u32::MAX);
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

fn state_number(state: TaskState) -> u64 {
    u64::try_from(state.number()).unwrap_or(0)
}

fn timestamp(out: &mut Vec<u8>, t: Option<Timestamp>) {
    match t {
        None => out.push(0),
        Some(t) => {
            out.push(1);
            out.extend_from_slice(&t.unix_seconds().to_le_bytes());
            out.extend_from_slice(&t.subsec_nanos().to_le_bytes());
        }
    }
}

fn write_logged(out: &mut Vec<u8>, logged: &Logged) {
    match logged {
        Logged::Event(event) => {
            out.push(0);
            json(out, &**event);
        }
        Logged::Snapshot {
            state,
            timestamp: t,
            history,
        } => {
            out.push(1);
            varint(out, state_number(*state));
            timestamp(out, *t);
            varint(out, u64::from(*history));
        }
        Logged::Status {
            state,
            timestamp: t,
            message,
        } => {
            out.push(2);
            varint(out, state_number(*state));
            timestamp(out, *t);
            opt_index(out, *message);
        }
        Logged::Artifact {
            slot,
            start,
            end,
            header,
            append,
            last_chunk,
        } => {
            out.push(3);
            varint(out, u64::from(*slot));
            varint(out, u64::from(*start));
            varint(out, u64::from(*end));
            out.push(u8::from(*append) | (u8::from(*last_chunk) << 1));
            match header {
                Header::Slot => out.push(0),
                Header::Bare => out.push(1),
                Header::Own(artifact) => {
                    out.push(2);
                    json(out, &**artifact);
                }
            }
        }
    }
}

fn read_logged(r: &mut Reader<'_>) -> Result<Logged, StoreError> {
    Ok(match r.byte()? {
        0 => Logged::Event(Box::new(r.json::<StreamResponse>()?)),
        1 => Logged::Snapshot {
            state: r.state()?,
            timestamp: r.timestamp()?,
            history: r.index()?,
        },
        2 => Logged::Status {
            state: r.state()?,
            timestamp: r.timestamp()?,
            message: r.opt_index()?,
        },
        3 => {
            let slot = r.index()?;
            let start = r.index()?;
            let end = r.index()?;
            let flags = r.byte()?;
            let header = match r.byte()? {
                0 => Header::Slot,
                1 => Header::Bare,
                2 => Header::Own(Box::new(r.json::<Artifact>()?)),
                other => return Err(corrupt(&format!("artifact header kind {other}"))),
            };
            Logged::Artifact {
                slot,
                start,
                end,
                header,
                append: flags & 1 != 0,
                last_chunk: flags & 2 != 0,
            }
        }
        other => return Err(corrupt(&format!("event kind {other}"))),
    })
}

/// Reads the compact form front to back; every read checks the bounds.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], StoreError> {
        if n > self.rest.len() {
            return Err(corrupt("truncated"));
        }
        let (head, rest) = self.rest.split_at(n);
        self.rest = rest;
        Ok(head)
    }

    fn byte(&mut self) -> Result<u8, StoreError> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> Result<u64, StoreError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(corrupt("varint too long"))
    }

    fn index(&mut self) -> Result<u32, StoreError> {
        u32::try_from(self.varint()?).map_err(|_| corrupt("index out of range"))
    }

    fn len(&mut self) -> Result<usize, StoreError> {
        let n = usize::try_from(self.varint()?).map_err(|_| corrupt("length"))?;
        // Each counted item takes at least a byte: a corrupt count cannot reserve much.
        if n > self.rest.len() {
            return Err(corrupt("count past the end"));
        }
        Ok(n)
    }

    fn opt_index(&mut self) -> Result<Option<u32>, StoreError> {
        let n = self.varint()?;
        match n.checked_sub(1) {
            None => Ok(None),
            Some(i) => u32::try_from(i)
                .map(Some)
                .map_err(|_| corrupt("index out of range")),
        }
    }

    fn state(&mut self) -> Result<TaskState, StoreError> {
        let n = i32::try_from(self.varint()?).map_err(|_| corrupt("state"))?;
        TaskState::from_number(n).ok_or_else(|| corrupt(&format!("state {n}")))
    }

    fn timestamp(&mut self) -> Result<Option<Timestamp>, StoreError> {
        match self.byte()? {
            0 => Ok(None),
            1 => {
                let mut seconds = [0u8; 8];
                seconds.copy_from_slice(self.take(8)?);
                let mut nanos = [0u8; 4];
                nanos.copy_from_slice(self.take(4)?);
                Timestamp::from_unix(i64::from_le_bytes(seconds), u32::from_le_bytes(nanos))
                    .map(Some)
                    .ok_or_else(|| corrupt("timestamp"))
            }
            other => Err(corrupt(&format!("timestamp kind {other}"))),
        }
    }

    /// The task written by [`task_json`], its ids put back: `id` (the store's key) and
    /// `context` (the header's).
    fn task_json(&mut self, id: &TaskId, context: Option<ContextId>) -> Result<Task, StoreError> {
        let flag_bytes = self.len()?;
        let flags = self.take(flag_bytes)?;
        let mut task: Task = self.json()?;
        task.id = id.clone();
        if context.is_some() {
            task.context_id = context.clone();
        }
        let messages = task.history.len() + usize::from(task.status.message.is_some());
        if flags.len() != messages.div_ceil(4) {
            return Err(corrupt("the message flags do not match the messages"));
        }
        restore_ids(&mut task, flags, id, context.as_ref());
        Ok(task)
    }

    fn json<T: serde::de::DeserializeOwned>(&mut self) -> Result<T, StoreError> {
        let mut len = [0u8; 4];
        len.copy_from_slice(self.take(4)?);
        let len = usize::try_from(u32::from_le_bytes(len)).map_err(|_| corrupt("JSON length"))?;
        let bytes = self.take(len)?;
        serde_json::from_slice(bytes).map_err(|e| corrupt(&format!("JSON: {e}")))
    }
}
