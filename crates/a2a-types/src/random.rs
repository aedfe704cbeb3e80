//! Random bytes for identifiers: the operating system's random number generator, read a block at
//! a time.
//!
//! A server makes five random values per `SendMessage` (task, context and artifact ids, a trace
//! and a span id). Asking the kernel for each (`uuid::Uuid::new_v4` calls `getrandom(2)` every
//! time) cost five system calls per request; each thread now reads [`BLOCK`] bytes at once and
//! hands them out, so one system call serves a few dozen values. The bytes are the kernel's CSPRNG
//! output, unchanged: ids stay as unpredictable as before. Bytes handed out are zeroed in the
//! block, so that a later look at the thread's memory does not show ids already issued.
//!
//! A process that forks should not make ids in the child from a thread that made them before the
//! fork: the child's copy of that thread's block would repeat the parent's next ids. (Servers
//! built on tokio do not fork; a forked child that `exec`s starts afresh.)

use std::cell::RefCell;

/// The bytes one read of the operating system's generator fetches per thread: 32 UUIDs' worth.
const BLOCK: usize = 512;

struct Pool {
    bytes: [u8; BLOCK],
    /// How many bytes of `bytes`, from the start, were handed out (or never filled).
    used: usize,
}

thread_local! {
    static POOL: RefCell<Pool> = const { RefCell::new(Pool { bytes: [0; BLOCK], used: BLOCK }) };
}

/// Fills `out` with random bytes from the operating system's generator.
///
/// # Panics
///
/// When the operating system has no random number generator to read (as `Uuid::new_v4` does):
/// an identifier that might repeat is never made.
pub(crate) fn fill(out: &mut [u8]) {
    if out.len() > BLOCK / 4 {
        os_fill(out);
        return;
    }
    POOL.with(|pool| {
        let mut pool = pool.borrow_mut();
        if BLOCK - pool.used < out.len() {
            os_fill(&mut pool.bytes);
            pool.used = 0;
        }
        let start = pool.used;
        let taken = &mut pool.bytes[start..start + out.len()];
        out.copy_from_slice(taken);
        taken.fill(0);
        pool.used += out.len();
    });
}

fn os_fill(out: &mut [u8]) {
    if let Err(err) = getrandom::fill(out) {
        panic!("the operating system's random number generator cannot be read: {err}");
    }
}

/// `N` random bytes.
pub(crate) fn bytes<const N: usize>() -> [u8; N] {
    let mut out = [0; N];
    fill(&mut out);
    out
}

/// A new version 4 UUID.
pub(crate) fn uuid_v4() -> uuid::Uuid {
    uuid::Builder::from_random_bytes(bytes()).into_uuid()
}

/// A new version 4 UUID in its hyphenated lowercase form (36 characters), in one allocation.
pub(crate) fn uuid_v4_arc() -> std::sync::Arc<str> {
    let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
    (&*uuid_v4().hyphenated().encode_lower(&mut buf)).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn uuids_are_version_4_and_distinct_across_blocks() {
        // More than several blocks' worth, so that refills are crossed.
        let ids: HashSet<std::sync::Arc<str>> = (0..1000).map(|_| uuid_v4_arc()).collect();
        assert_eq!(ids.len(), 1000);
        for id in &ids {
            let parsed = uuid::Uuid::parse_str(id).unwrap();
            assert_eq!(parsed.get_version_num(), 4, "{id}");
            assert_eq!(parsed.get_variant(), uuid::Variant::RFC4122, "{id}");
            assert_eq!(id.len(), 36);
            assert_eq!(**id, id.to_lowercase());
        }
    }

    #[test]
    fn large_requests_and_odd_sizes_are_filled() {
        // Not all zeros (the chance of 256 zero bytes is nil), and odd sizes leave no gap.
        let mut big = [0u8; 256];
        fill(&mut big);
        assert_ne!(big, [0u8; 256]);
        let seen: HashSet<[u8; 7]> = (0..500).map(|_| bytes::<7>()).collect();
        assert_eq!(seen.len(), 500);
    }

    #[test]
    fn handed_out_bytes_are_cleared_from_the_block() {
        let _ = bytes::<16>();
        POOL.with(|pool| {
            let pool = pool.borrow();
            assert!(pool.bytes[..pool.used].iter().all(|b| *b == 0));
        });
    }
}
