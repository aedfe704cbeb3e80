//! Not an example: a target that `cargo xtask` builds beside the `xtask-spec` binary (see
//! `xtask::workspace::BUILD_ARGS`). Building any example makes cargo resolve features with the
//! dev-dependencies, as `cargo test` does, so that the build reuses the artifacts of the test
//! step of `cargo xtask ci` instead of compiling `a2a-types` and its dependents again.

fn main() {}
