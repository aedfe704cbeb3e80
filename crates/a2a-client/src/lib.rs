//! Call A2A agents.
//!
//! Not yet implemented: issue 6 builds card discovery, every 1.0 operation and resumable
//! streams. Until then this crate exports nothing.
