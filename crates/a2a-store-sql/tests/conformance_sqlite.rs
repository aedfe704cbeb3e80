//! The store conformance suite on SQLite (a temporary file per test).
#![cfg(feature = "sqlite")]

mod common;

use std::sync::Arc;

use a2a_server::store::TaskStore;

async fn fresh() -> Arc<dyn TaskStore> {
    Arc::new(common::connect(common::sqlite_config()).await)
}

a2a_server::store_conformance_tests!(fresh);
