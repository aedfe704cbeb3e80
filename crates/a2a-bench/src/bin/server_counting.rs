//! `a2a-bench-server` on a counting allocator, for the allocation rows of `cargo xtask bench`.
//!
//! ```text
//! a2a-bench-server-counting --stats-addr 127.0.0.1:7432 --addr 127.0.0.1:7431 [server flags]
//! ```
//!
//! Every allocation goes through `stats_alloc`'s instrumented system allocator (a few atomic
//! additions each, so this binary is not the one whose CPU time the bench measures). Each
//! connection to `--stats-addr` gets one line of JSON with the counts so far (see
//! [`a2a_bench::alloc_stats`]) and is closed.

use std::alloc::System;
use std::io::Write as _;

use a2a_bench::alloc_stats::AllocStats;
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = a2a_bench::parse_flags(&args)?;
    let stats_addr: String = a2a_bench::flag(&flags, "stats-addr", "127.0.0.1:0".to_owned())?;
    let stats = std::net::TcpListener::bind(&stats_addr)
        .map_err(|e| format!("bind --stats-addr {stats_addr}: {e}"))?;
    std::thread::spawn(move || {
        for mut stream in stats.incoming().flatten() {
            let s = GLOBAL.stats();
            let line = AllocStats::new(
                (s.allocations + s.reallocations) as u64,
                s.deallocations as u64,
                s.bytes_allocated as u64,
                s.bytes_deallocated as u64,
                s.bytes_reallocated as i64,
            )
            .to_line();
            let _ = stream.write_all(line.as_bytes());
        }
    });
    a2a_bench::server::run(&args).await
}
