//! The hasher of the maps the server looks up on every request (tasks, executions, pins,
//! deadlines, the per-task lock stripes): foldhash, seeded per map from a per-process random
//! seed, instead of std's SipHash-1-3. Measured (docs/benchmarks.md, "Issue 33, continued"):
//! SipHash took ~4k instructions of each blocking `SendMessage` (32 hashes of 36-byte ids).
//! The keys are ids the server made, principals an authenticator vouched for and tenants; a
//! map that any client could fill with keys of its choosing without a bound does not exist here
//! (every kept task counts against the store's limits), and the seed is random per process, so
//! the weaker flooding resistance of a fast hasher buys an attacker nothing that the bounds do
//! not already stop.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

/// The hasher state of [`IdMap`] and [`stripe`].
pub(crate) type IdHasher = foldhash::fast::RandomState;

/// A `HashMap` with [`IdHasher`].
pub(crate) type IdMap<K, V> = HashMap<K, V, IdHasher>;

/// A hash of `key` for picking one of a fixed set of stripes (seeded once per process).
pub(crate) fn stripe(key: &impl Hash) -> u64 {
    static SEED: std::sync::LazyLock<IdHasher> = std::sync::LazyLock::new(IdHasher::default);
    SEED.hash_one(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_key_hashes_alike_and_maps_find_it() {
        assert_eq!(stripe(&"task-1"), stripe(&"task-1"));
        let mut map: IdMap<String, u32> = IdMap::default();
        map.insert("task-1".to_owned(), 1);
        assert_eq!(map.get("task-1"), Some(&1));
        assert_eq!(map.get("task-2"), None);
    }
}
