//! The scale phases of `cargo xtask bench` (a2a-rs only): the same figures at 1k, 10k, 100k and
//! 1M kept tasks, and idle subscribers at 10k and 50k.
//!
//! **Kept tasks** (`--scale 1k,10k,100k,1M`; `--scale none` skips them). For each size `N`, a
//! fresh `a2a-bench-server-counting` with `--max-tasks N` (and `--max-total-bytes` raised) is
//! filled with `N` blocking `SendMessage` requests through HTTP (64 concurrent connections: no
//! bench-only fill path), then measured with the store full at `N`:
//!
//! * RSS and the allocator's bytes held (allocated less freed): their growth over the last
//!   nine tenths of the fill divided by the growth of the kept tasks (the first tenth opens the
//!   64 connections and grows the allocator's arenas, costs paid once); and RSS from right
//!   after start divided by `N`, those costs included (a row without goal);
//! * server CPU per `SendMessage` over `max(2000, min(N, 20000))` more requests at
//!   concurrency 16 (each evicts the oldest task, so the store stays at `N`); the binary counts
//!   its allocations (a few atomic additions each), the same at every size, so the rows
//!   compare with each other, not with the request-rate rows;
//! * `ListTasks` latency, p50 and p99, over up to 200 sequential calls (`pageSize` 50, no
//!   filter: each call counts `totalSize` over every task) on one keep-alive connection,
//!   stopping after 20 s.
//!
//! **Idle subscribers** (`--subscribers 10000,50000`). For each count, a fresh
//! `a2a-bench-server`: one task held working, that many `SubscribeToTask` streams on it, RSS
//! growth per open stream. Both processes are started under `prlimit --nofile=N:N` when the
//! soft limit is lower (raising the hard limit needs root; when `prlimit` refuses, the row
//! says so and how many streams the limit allowed).

use std::io::{BufRead as _, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::alloc_stats::AllocStats;
use crate::process::{self, Server, free_addr};
use crate::procfs;

/// What the scale phases need to know.
#[derive(Clone, Debug)]
#[expect(
    clippy::exhaustive_structs,
    reason = "the bench driver builds it field by field"
)]
pub struct ScaleConfig {
    /// The store sizes, in kept tasks.
    pub sizes: Vec<u64>,
    /// The idle subscriber counts.
    pub subscribers: Vec<usize>,
    /// Where the bench binaries are.
    pub bin_dir: PathBuf,
    /// Where the servers' logs go (`logs/` below it).
    pub out_dir: PathBuf,
    /// Clock ticks per second, for `/proc/<pid>/stat`.
    pub clock_ticks: u64,
    /// The load generator's runtime threads.
    pub threads: usize,
}

/// The figures at one store size.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ScaleRow {
    /// Tasks kept (`ListTasks`' `totalSize` after the fill).
    pub tasks: u64,
    /// Seconds the fill took.
    pub fill_s: f64,
    /// RSS growth per kept task over the last nine tenths of the fill, bytes.
    pub rss_per_task: f64,
    /// RSS growth from start divided by the kept tasks (the fill's fixed costs included).
    pub rss_per_task_from_start: f64,
    /// The allocator's bytes held per kept task.
    pub alloc_per_task: f64,
    /// Server CPU per `SendMessage` with the store full, µs.
    pub cpu_us: f64,
    /// `ListTasks` latency, µs.
    pub list_p50_us: f64,
    /// `ListTasks` latency, µs.
    pub list_p99_us: f64,
    /// `ListTasks` calls measured.
    pub list_calls: usize,
}

/// The figures at one subscriber count.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SubscriberRow {
    /// The count asked for.
    pub asked: usize,
    /// Streams that got their first event.
    pub open: usize,
    /// RSS growth per open stream, bytes.
    pub rss_per_subscriber: f64,
    /// Why fewer than asked were opened, or what failed.
    pub note: Option<String>,
}

/// Parses `1k,10k,100k,1M` (`k` = 1000, `M` = 1,000,000; `none` or empty: no sizes).
///
/// # Errors
/// A size that is not a number with an optional `k` or `M`.
pub fn parse_sizes(list: &str) -> Result<Vec<u64>, String> {
    if list.trim().is_empty() || list.trim() == "none" {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|item| {
            let item = item.trim();
            let (digits, unit) = match item.strip_suffix(['k', 'K']) {
                Some(d) => (d, 1000),
                None => match item.strip_suffix('M') {
                    Some(d) => (d, 1_000_000),
                    None => (item, 1),
                },
            };
            digits
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .map(|n| n * unit)
                .ok_or_else(|| format!("bad size `{item}` (e.g. 1k,10k,100k,1M)"))
        })
        .collect()
}

/// Parses `10000,50000` (`none` or empty: no counts).
///
/// # Errors
/// A count that is not a number.
pub fn parse_counts(list: &str) -> Result<Vec<usize>, String> {
    if list.trim().is_empty() || list.trim() == "none" {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|c| {
            c.trim()
                .parse()
                .map_err(|_| format!("bad subscriber count `{c}`"))
        })
        .collect()
}

/// Runs the load generator; its last stdout line is JSON.
fn load(
    config: &ScaleConfig,
    addr: SocketAddr,
    what: &str,
    args: &[&str],
) -> Result<Value, String> {
    let output = Command::new(config.bin_dir.join("a2a-bench-load"))
        .arg(what)
        .args(["--addr", &addr.to_string()])
        .args(["--threads", &config.threads.to_string()])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start a2a-bench-load: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "a2a-bench-load {what}: {} {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let last = stdout.lines().last().unwrap_or_default();
    let out: Value =
        serde_json::from_str(last).map_err(|e| format!("a2a-bench-load {what}: {e}: {last}"))?;
    match out["errors"].as_u64().unwrap_or(0) {
        0 => Ok(out),
        n => Err(format!(
            "a2a-bench-load {what}: {n} errors, last: {}",
            out["last_error"]
        )),
    }
}

fn settle() {
    std::thread::sleep(Duration::from_millis(500));
}

/// The kept-task rows, one per size, each from its own process. A size that fails gives its
/// error instead of a row.
pub fn run_scale(config: &ScaleConfig) -> Vec<(u64, Result<ScaleRow, String>)> {
    config
        .sizes
        .iter()
        .map(|&n| {
            eprintln!("   scale: {n} kept tasks");
            let row = scale_row(config, n);
            match &row {
                Ok(r) => eprintln!(
                    "   {} tasks (filled in {:.0} s): RSS {:.0} B/task, allocator {:.0} B/task, \
                     CPU {:.1} µs/SendMessage, ListTasks p50 {:.0} µs p99 {:.0} µs ({} calls)",
                    r.tasks,
                    r.fill_s,
                    r.rss_per_task,
                    r.alloc_per_task,
                    r.cpu_us,
                    r.list_p50_us,
                    r.list_p99_us,
                    r.list_calls
                ),
                Err(e) => eprintln!("   scale {n}: FAILED: {e}"),
            }
            (n, row)
        })
        .collect()
}

fn scale_row(config: &ScaleConfig, n: u64) -> Result<ScaleRow, String> {
    let stats = free_addr()?;
    let addr = free_addr()?;
    let argv = vec![
        config
            .bin_dir
            .join("a2a-bench-server-counting")
            .display()
            .to_string(),
        "--stats-addr".into(),
        stats.to_string(),
        "--addr".into(),
        addr.to_string(),
        "--max-tasks".into(),
        n.to_string(),
        // Far above what N echo tasks hold: the count is the only limit.
        "--max-total-bytes".into(),
        (n.max(1000) * 64 * 1024).to_string(),
    ];
    let log = config.out_dir.join(format!("logs/a2a-rs-scale-{n}.log"));
    let server = process::start("a2a-rs", &argv, &[], addr, &log)?;
    settle();
    let rss_start = procfs::rss_bytes(server.pid)?;
    // The first tenth of the fill opens the 64 connections and grows the allocator's arenas:
    // the per-task figures are the growth over the other nine tenths.
    let warm = (n / 10).max(1);
    let fill = |requests: u64| {
        load(
            config,
            addr,
            "count",
            &["--concurrency", "64", "--requests", &requests.to_string()],
        )
    };
    let started = Instant::now();
    fill(warm)?;
    settle();
    let mut list = ListClient::connect(addr)?;
    let warm_tasks = list.total()?;
    let rss0 = procfs::rss_bytes(server.pid)?;
    let held0 = AllocStats::fetch(stats)?.live_bytes();
    fill(n - warm)?;
    let fill_s = started.elapsed().as_secs_f64();
    settle();
    let tasks = list.total()?;
    let rss1 = procfs::rss_bytes(server.pid)?;
    let held1 = AllocStats::fetch(stats)?.live_bytes();
    let grown = tasks.saturating_sub(warm_tasks).max(1) as f64;
    let per = |a: f64, b: f64| (b - a) / grown;
    let measured = n.clamp(2000, 20_000);
    let cpu0 = procfs::cpu_time(server.pid, config.clock_ticks)?;
    let out = load(
        config,
        addr,
        "count",
        &["--concurrency", "16", "--requests", &measured.to_string()],
    )?;
    let cpu1 = procfs::cpu_time(server.pid, config.clock_ticks)?;
    let requests = out["requests"].as_u64().unwrap_or(measured).max(1);
    let mut latencies = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while latencies.len() < 200 && Instant::now() < deadline {
        let t = Instant::now();
        list.total()?;
        latencies.push(t.elapsed().as_secs_f64() * 1e6);
    }
    latencies.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    drop(server);
    Ok(ScaleRow {
        tasks,
        fill_s,
        rss_per_task: per(rss0 as f64, rss1 as f64),
        rss_per_task_from_start: (rss1 as f64 - rss_start as f64) / tasks.max(1) as f64,
        alloc_per_task: per(held0 as f64, held1 as f64),
        cpu_us: (cpu1 - cpu0).as_secs_f64() * 1e6 / requests as f64,
        list_p50_us: pct(0.5),
        list_p99_us: pct(0.99),
        list_calls: latencies.len(),
    })
}

/// `ListTasks` (`pageSize` 50) over one blocking keep-alive HTTP/1.1 connection.
struct ListClient {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl ListClient {
    fn connect(addr: SocketAddr) -> Result<Self, String> {
        let stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(|e| e.to_string())?;
        let _ = stream.set_nodelay(true);
        Ok(Self {
            stream,
            buf: Vec::new(),
        })
    }

    /// One call; the `totalSize` it answered.
    fn total(&mut self) -> Result<u64, String> {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pageSize":50}}"#;
        let head = format!(
            "POST / HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\n\
             a2a-version: 1.0\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        self.stream
            .write_all(head.as_bytes())
            .and_then(|()| self.stream.write_all(body))
            .map_err(|e| format!("ListTasks: {e}"))?;
        let body = self.read_response()?;
        let value: Value = serde_json::from_slice(&body).map_err(|e| format!("ListTasks: {e}"))?;
        value["result"]["totalSize"].as_u64().ok_or_else(|| {
            format!(
                "ListTasks: no totalSize in {}",
                String::from_utf8_lossy(&body)
            )
        })
    }

    fn read_response(&mut self) -> Result<Vec<u8>, String> {
        let mut chunk = [0u8; 64 * 1024];
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill(&mut chunk)?;
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).to_ascii_lowercase();
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("ListTasks: no content-length in {head}"))?;
        while self.buf.len() < head_end + len {
            self.fill(&mut chunk)?;
        }
        let body = self.buf[head_end..head_end + len].to_vec();
        self.buf.drain(..head_end + len);
        Ok(body)
    }

    fn fill(&mut self, chunk: &mut [u8]) -> Result<(), String> {
        match self.stream.read(chunk) {
            Ok(0) => Err("ListTasks: connection closed".into()),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(())
            }
            Err(e) => Err(format!("ListTasks: {e}")),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The idle-subscriber rows, one per count, each from its own process.
pub fn run_subscribers(config: &ScaleConfig) -> Vec<SubscriberRow> {
    config
        .subscribers
        .iter()
        .map(|&n| {
            let row = subscriber_row(config, n).unwrap_or_else(|e| SubscriberRow {
                asked: n,
                note: Some(e),
                ..SubscriberRow::default()
            });
            eprintln!(
                "   {} of {} idle subscribers: {:.2} KiB each{}",
                row.open,
                row.asked,
                row.rss_per_subscriber / 1024.0,
                row.note
                    .as_deref()
                    .map_or(String::new(), |n| format!(" ({n})"))
            );
            row
        })
        .collect()
}

/// `prlimit --nofile=N:N --` when the soft limit is below `needed` and `prlimit` can raise it
/// (tried first on `true`); else no prefix and the number of descriptors there are, with why.
fn nofile(needed: u64) -> (Vec<String>, u64, Option<String>) {
    let Some((soft, hard)) = procfs::nofile_limits() else {
        return (Vec::new(), needed, None);
    };
    if soft >= needed {
        return (Vec::new(), needed, None);
    }
    let limit = format!("--nofile={needed}:{}", needed.max(hard));
    let works = Command::new("prlimit")
        .args([limit.as_str(), "--", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if works {
        return (vec!["prlimit".into(), limit, "--".into()], needed, None);
    }
    let why = format!(
        "RLIMIT_NOFILE is {soft} (hard {hard}) and `prlimit {limit}` was refused: at most {} streams",
        soft.saturating_sub(512)
    );
    (Vec::new(), soft, Some(why))
}

fn subscriber_row(config: &ScaleConfig, asked: usize) -> Result<SubscriberRow, String> {
    let (prefix, fds, why) = nofile(asked as u64 + 512);
    let n = usize::try_from(fds.saturating_sub(512))
        .unwrap_or(0)
        .min(asked);
    let addr = free_addr()?;
    let mut argv = prefix.clone();
    argv.extend([
        config
            .bin_dir
            .join("a2a-bench-server")
            .display()
            .to_string(),
        "--addr".into(),
        addr.to_string(),
        "--max-streams".into(),
        (n + 100).to_string(),
    ]);
    let log = config
        .out_dir
        .join(format!("logs/a2a-rs-subscribers-{asked}.log"));
    let server = process::start("a2a-rs", &argv, &[], addr, &log)?;
    let out = load(config, addr, "call", &["--what", "hold"])?;
    let body: Value = serde_json::from_str(out["body"].as_str().unwrap_or_default())
        .map_err(|e| format!("hold: {e}: {out}"))?;
    let task = body["result"]["task"]["id"]
        .as_str()
        .ok_or_else(|| format!("hold: no task id in {body}"))?
        .to_owned();
    settle();
    let rss0 = procfs::rss_bytes(server.pid)?;
    let (ready, summary, rss1) = subscribe(config, &prefix, &server, &task, n)?;
    let mut notes: Vec<String> = why.into_iter().collect();
    if summary["errors"].as_u64().unwrap_or(0) > 0 {
        notes.push(format!(
            "{} failed, last: {}",
            summary["errors"], summary["last_error"]
        ));
    }
    if ready == 0 {
        return Err(format!("no subscriber got its first event: {summary}"));
    }
    Ok(SubscriberRow {
        asked,
        open: ready,
        rss_per_subscriber: (rss1 as f64 - rss0 as f64) / ready as f64,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    })
}

/// Opens `n` streams with `a2a-bench-load subscribe`, reads the server's RSS once they are
/// open, then releases them: (open streams, the load generator's summary, RSS).
fn subscribe(
    config: &ScaleConfig,
    prefix: &[String],
    server: &Server,
    task: &str,
    n: usize,
) -> Result<(usize, Value, u64), String> {
    let mut argv = prefix.to_vec();
    argv.push(config.bin_dir.join("a2a-bench-load").display().to_string());
    argv.extend(
        [
            "subscribe",
            "--addr",
            &server.addr.to_string(),
            "--threads",
            &config.threads.to_string(),
            "--task",
            task,
            "--subscribers",
            &n.to_string(),
            "--timeout",
            "300",
        ]
        .map(str::to_owned),
    );
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start a2a-bench-load: {e}"))?;
    let mut stdout = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut line = String::new();
    let ready = loop {
        line.clear();
        if stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            let _ = child.wait();
            return Err("the load generator ended before `ready`".into());
        }
        if let Some(rest) = line.trim().strip_prefix("ready ") {
            break rest
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
        }
    };
    settle();
    let rss1 = procfs::rss_bytes(server.pid);
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"done\n");
    }
    let mut rest = String::new();
    let _ = stdout.read_to_string(&mut rest);
    let _ = child.wait();
    let summary: Value = rest
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_default();
    Ok((ready, summary, rss1?))
}

/// The report's rows: Markdown lines of the bench table (metric, floor, a2a-rs, ratio, goal,
/// met), the floor's column empty.
pub fn report_rows(
    scale: &[(u64, Result<ScaleRow, String>)],
    subscribers: &[SubscriberRow],
) -> Vec<String> {
    let mut rows = Vec::new();
    for (n, row) in scale {
        match row {
            Ok(r) => {
                let met = |ok: bool| if ok { "yes" } else { "**no**" };
                rows.push(format!(
                    "| scale {n}: RSS per kept task, bytes (the fill's last nine tenths) | | {:.0} | | ≤ 1024 B | {} |",
                    r.rss_per_task,
                    met(r.rss_per_task <= 1024.0)
                ));
                rows.push(format!(
                    "| scale {n}: the same from start (the fill's fixed costs included) | | {:.0} | | | |",
                    r.rss_per_task_from_start
                ));
                rows.push(format!(
                    "| scale {n}: allocator bytes held per kept task | | {:.0} | | ≤ 1024 B | {} |",
                    r.alloc_per_task,
                    met(r.alloc_per_task <= 1024.0)
                ));
                rows.push(format!(
                    "| scale {n}: server CPU µs per SendMessage, store full (counting binary) | | {:.1} | | flat | |",
                    r.cpu_us
                ));
                rows.push(format!(
                    "| scale {n}: ListTasks (pageSize 50) p50 / p99 µs ({} calls) | | {:.0} / {:.0} | | | |",
                    r.list_calls, r.list_p50_us, r.list_p99_us
                ));
            }
            Err(e) => rows.push(format!(
                "| scale {n}: FAILED | | {} | | | |",
                e.replace('|', "/")
            )),
        }
    }
    for r in subscribers {
        let note = r
            .note
            .as_deref()
            .map_or(String::new(), |n| format!(" ({})", n.replace('|', "/")));
        rows.push(format!(
            "| RSS per idle SSE subscriber, KiB ({} of {} subscribers){note} | | {:.2} | | ≤ 16 KiB | {} |",
            r.open,
            r.asked,
            r.rss_per_subscriber / 1024.0,
            if r.open > 0 && r.rss_per_subscriber <= 16.0 * 1024.0 {
                "yes"
            } else {
                "**no**"
            }
        ));
    }
    rows
}

/// The raw figures, for `results.json`.
pub fn to_json(scale: &[(u64, Result<ScaleRow, String>)], subscribers: &[SubscriberRow]) -> Value {
    json!({
        "kept_tasks": scale.iter().map(|(n, r)| match r {
            Ok(r) => json!({
                "size": n, "tasks": r.tasks, "fill_s": r.fill_s,
                "rss_bytes_per_task": r.rss_per_task,
                "rss_bytes_per_task_from_start": r.rss_per_task_from_start,
                "allocator_bytes_per_task": r.alloc_per_task,
                "cpu_us_per_request": r.cpu_us,
                "list_p50_us": r.list_p50_us, "list_p99_us": r.list_p99_us,
                "list_calls": r.list_calls,
            }),
            Err(e) => json!({"size": n, "error": e}),
        }).collect::<Vec<_>>(),
        "idle_subscribers": subscribers.iter().map(|r| json!({
            "asked": r.asked, "open": r.open,
            "rss_bytes_per_subscriber": r.rss_per_subscriber, "note": r.note,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_counts_parse() {
        assert_eq!(
            parse_sizes("1k,10k,100k,1M").unwrap(),
            [1000, 10_000, 100_000, 1_000_000]
        );
        assert_eq!(parse_sizes("500, 2K").unwrap(), [500, 2000]);
        assert_eq!(parse_sizes("none").unwrap(), Vec::<u64>::new());
        assert_eq!(
            parse_sizes("1G").unwrap_err(),
            "bad size `1G` (e.g. 1k,10k,100k,1M)"
        );
        assert_eq!(parse_counts("10000,50000").unwrap(), [10_000, 50_000]);
        assert_eq!(parse_counts("").unwrap(), Vec::<usize>::new());
        assert_eq!(parse_counts("x").unwrap_err(), "bad subscriber count `x`");
    }
}
