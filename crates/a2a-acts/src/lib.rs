//! A runner of ACTS, the A2A Conformance Test Specification (a draft: A2A PR #1882), against a
//! live agent: it reads ACTS YAML documents ([`Suite::load`]), runs each test on each binding
//! the agent's card declares ([`run`]), and reports a [`TestResult`] per test and binding
//! (PASS, FAIL with the first mismatch, SKIP with its reason, XFAIL and XPASS against
//! [`KnownFailures`]) as a serializable [`Report`] (JSON, JUnit XML, summary lines).
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let suite = a2a_acts::Suite::load("../shared/spec/acts")?;
//! let report = a2a_acts::run(&suite, "http://127.0.0.1:7420", &a2a_acts::Options::default(), &mut |r| {
//!     println!("{}", r.line());
//! })
//! .await?;
//! assert!(report.conformant(a2a_acts::Level::Must));
//! # Ok(())
//! # }
//! ```
//!
//! What it drives: JSON-RPC and HTTP+JSON over plain HTTP/1.1, and gRPC through a2a-client's
//! gRPC transport with the feature `grpc`. Tests that need a webhook (ACTS §3.2
//! `webhook_endpoint`, and the push delivery tests) get the runner's own receiver
//! ([`WebhookOptions`]), which checks what arrives. Client tests (ACTS §10), and tests needing
//! a runner capability it lacks (reconnection, concurrent streams, credentials) are skipped
//! with the reason, never passed.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "client")]
mod client;
#[cfg(feature = "grpc")]
mod grpc;
mod load;
pub mod matcher;
mod report;
mod run;
mod webhook;
mod wire;

#[cfg(feature = "client")]
pub use client::run_client_tests;
pub use load::{Level, LoadError, Suite, TestCase};
pub use report::{Counts, KnownFailure, KnownFailures, Outcome, Report, TestResult};
pub use run::{Binding, Options, RunError, run};
pub use webhook::WebhookOptions;
