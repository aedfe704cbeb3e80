//! a2a-server with the bench agent, as a separate process for `cargo xtask bench` (see
//! [`a2a_bench::server`]), on mimalloc as `a2a` is (the library crates leave the allocator to
//! the binary; measured in docs/benchmarks.md, "Issue 33").

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    a2a_bench::server::run(&args).await
}
