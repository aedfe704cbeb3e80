//! a2a-server with the bench agent, as a separate process for `cargo xtask bench` (see
//! [`a2a_bench::server`]).

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    a2a_bench::server::run(&args).await
}
