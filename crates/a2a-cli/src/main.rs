//! The `a2a` command.
fn main() {}
