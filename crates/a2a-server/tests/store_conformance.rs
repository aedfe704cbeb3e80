//! The store conformance suite (feature `store-conformance`) against the in-memory store.
#![cfg(feature = "store-conformance")]

use std::sync::Arc;

use a2a_server::store::{InMemoryTaskStore, TaskStore};

async fn fresh() -> Arc<dyn TaskStore> {
    Arc::new(InMemoryTaskStore::new())
}

a2a_server::store_conformance_tests!(fresh);
