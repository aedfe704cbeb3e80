//! A2A 0.1 as the JSON-RPC wire carries it. Being written (issue 2).
