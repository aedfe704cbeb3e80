//! A2A 0.3 (and 0.2.x) as the JSON-RPC wire carries it. Being written (issue 2).
