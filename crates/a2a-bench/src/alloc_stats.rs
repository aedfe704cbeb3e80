//! The allocation counts `a2a-bench-server-counting` reports on its `--stats-addr`, and how the
//! driver reads them.

use std::io::Read as _;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};

/// The counting allocator's totals since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AllocStats {
    /// Calls to `alloc` and `realloc`.
    pub allocations: u64,
    /// Calls to `dealloc`.
    pub deallocations: u64,
    /// Bytes asked for by `alloc`.
    pub bytes_allocated: u64,
    /// Bytes given back by `dealloc`.
    pub bytes_deallocated: u64,
    /// Net growth of the blocks `realloc` resized (already in `bytes_allocated` and
    /// `bytes_deallocated`).
    pub bytes_reallocated: i64,
}

impl AllocStats {
    /// Counts: `alloc` and `realloc` calls, `dealloc` calls, bytes allocated, bytes freed, and
    /// the net growth of resized blocks.
    pub fn new(
        allocations: u64,
        deallocations: u64,
        bytes_allocated: u64,
        bytes_deallocated: u64,
        bytes_reallocated: i64,
    ) -> Self {
        Self {
            allocations,
            deallocations,
            bytes_allocated,
            bytes_deallocated,
            bytes_reallocated,
        }
    }

    /// The counts as one line of JSON, newline-terminated.
    pub fn to_line(&self) -> String {
        let mut line = json!({
            "allocations": self.allocations,
            "deallocations": self.deallocations,
            "bytes_allocated": self.bytes_allocated,
            "bytes_deallocated": self.bytes_deallocated,
            "bytes_reallocated": self.bytes_reallocated,
        })
        .to_string();
        line.push('\n');
        line
    }

    /// Parses a line of [`to_line`](Self::to_line).
    ///
    /// # Errors
    /// Not that JSON, or a count missing.
    pub fn parse(line: &str) -> Result<Self, String> {
        let value: Value =
            serde_json::from_str(line.trim()).map_err(|e| format!("alloc stats `{line}`: {e}"))?;
        let count = |name: &str| {
            value[name]
                .as_u64()
                .ok_or_else(|| format!("alloc stats `{line}`: no `{name}`"))
        };
        Ok(Self {
            allocations: count("allocations")?,
            deallocations: count("deallocations")?,
            bytes_allocated: count("bytes_allocated")?,
            bytes_deallocated: count("bytes_deallocated")?,
            bytes_reallocated: value["bytes_reallocated"]
                .as_i64()
                .ok_or_else(|| format!("alloc stats `{line}`: no `bytes_reallocated`"))?,
        })
    }

    /// Reads the counts of the server whose `--stats-addr` is `addr`.
    ///
    /// # Errors
    /// It cannot be reached in 5 s, or answers something else.
    pub fn fetch(addr: SocketAddr) -> Result<Self, String> {
        let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(5))
            .map_err(|e| format!("alloc stats at {addr}: {e}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .map_err(|e| e.to_string())?;
        let mut line = String::new();
        stream
            .read_to_string(&mut line)
            .map_err(|e| format!("alloc stats at {addr}: {e}"))?;
        Self::parse(&line)
    }

    /// The bytes held: allocated, less given back. `stats_alloc` already counts a `realloc`'s
    /// growth in `bytes_allocated` and its shrink in `bytes_deallocated`
    /// ([`bytes_reallocated`](Self::bytes_reallocated) is their net, not more bytes): adding
    /// it again counted every resize twice (a block allocated at 1 KiB and shrunk to 600
    /// bytes read as 176 bytes held).
    pub fn live_bytes(&self) -> i64 {
        i64::try_from(self.bytes_allocated).unwrap_or(i64::MAX)
            - i64::try_from(self.bytes_deallocated).unwrap_or(i64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::AllocStats;

    #[test]
    fn a_line_reads_back_as_written() {
        let stats = AllocStats {
            allocations: 12,
            deallocations: 7,
            bytes_allocated: 4096,
            bytes_deallocated: 1024,
            bytes_reallocated: -16,
        };
        let line = stats.to_line();
        assert_eq!(
            line,
            "{\"allocations\":12,\"bytes_allocated\":4096,\"bytes_deallocated\":1024,\
             \"bytes_reallocated\":-16,\"deallocations\":7}\n"
        );
        assert_eq!(AllocStats::parse(&line), Ok(stats));
        // The -16 of the resizes is in the 4096 and 1024 already.
        assert_eq!(stats.live_bytes(), 3072);
    }

    #[test]
    fn a_line_without_a_count_is_refused_by_name() {
        let err = AllocStats::parse("{\"allocations\":1}").unwrap_err();
        assert_eq!(err, "alloc stats `{\"allocations\":1}`: no `deallocations`");
    }
}
