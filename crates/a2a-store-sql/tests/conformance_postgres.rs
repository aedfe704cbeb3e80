//! The store conformance suite on PostgreSQL (127.0.0.1:5432, a schema per test).
#![cfg(feature = "postgres")]

mod common;

use std::sync::Arc;

use a2a_server::store::TaskStore;

async fn fresh() -> Arc<dyn TaskStore> {
    Arc::new(common::connect(common::postgres_config()).await)
}

a2a_server::store_conformance_tests!(fresh);
