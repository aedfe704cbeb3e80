//! What the driver reads of a server process: CPU time and resident memory, from `/proc`.

use std::time::Duration;

/// User plus system CPU time of process `pid`, all its threads (living and exited), from
/// fields 14 and 15 of `/proc/<pid>/stat`.
///
/// # Errors
/// The process is gone, or the file does not parse.
pub fn cpu_time(pid: u32, clock_ticks: u64) -> Result<Duration, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // The command name (field 2) is in parentheses and may hold spaces: fields count from
    // after the last ')'. There, field 3 (state) is index 0, so utime (14) is index 11.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .ok_or_else(|| format!("/proc/{pid}/stat: no `)`"))?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| -> Result<u64, String> {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("/proc/{pid}/stat: field {} missing", i + 3))
    };
    let total = ticks(11)? + ticks(12)?;
    Ok(Duration::from_nanos(
        total.saturating_mul(1_000_000_000) / clock_ticks.max(1),
    ))
}

/// `VmRSS` of process `pid`, in bytes, from `/proc/<pid>/status`.
///
/// # Errors
/// The process is gone, or the line is missing.
pub fn rss_bytes(pid: u32) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| kib * 1024)
        .ok_or_else(|| format!("/proc/{pid}/status: no VmRSS"))
}

/// The open file descriptors of process `pid`: the entries of `/proc/<pid>/fd`.
///
/// # Errors
/// The process is gone, or its descriptors are not ours to read.
pub fn open_fds(pid: u32) -> Result<u64, String> {
    let dir =
        std::fs::read_dir(format!("/proc/{pid}/fd")).map_err(|e| format!("/proc/{pid}/fd: {e}"))?;
    Ok(dir.count() as u64)
}

/// The soft and hard `RLIMIT_NOFILE` of this process, from `/proc/self/limits`.
pub fn nofile_limits() -> Option<(u64, u64)> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let mut numbers = line["Max open files".len()..].split_whitespace();
    let parse = |s: Option<&str>| match s? {
        "unlimited" => Some(u64::MAX),
        n => n.parse().ok(),
    };
    Some((parse(numbers.next())?, parse(numbers.next())?))
}

/// `sysconf(_SC_CLK_TCK)` through `getconf` (no unsafe code); 100, Linux's value, if that fails.
pub fn clock_ticks() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100)
}

/// The machine: `nproc` and the CPU model name from `/proc/cpuinfo`.
pub fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or_else(String::new, |kib| {
            format!(", {} GiB", (kib + 512 * 1024) / (1024 * 1024))
        });
    format!("{cores} cores ({model}){mem}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process() {
        let pid = std::process::id();
        assert!(rss_bytes(pid).unwrap() > 0);
        cpu_time(pid, clock_ticks()).unwrap();
        // stdin, stdout, stderr at least.
        assert!(open_fds(pid).unwrap() >= 3);
        let (soft, hard) = nofile_limits().unwrap();
        assert!(soft <= hard);
    }
}
