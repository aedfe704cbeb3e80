//! The server processes the drivers start: one per measurement, on a free port of 127.0.0.1,
//! killed when dropped.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One server process; killed when dropped.
#[derive(Debug)]
pub struct Server {
    child: Child,
    /// Its process id.
    pub pid: u32,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free port on 127.0.0.1 (free when asked: the server binds it a moment later).
///
/// # Errors
/// No port could be bound.
pub fn free_addr() -> Result<SocketAddr, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.local_addr().map_err(|e| e.to_string())
}

/// Starts `argv` with `env` added to its environment and its output in `log`, and waits (up to
/// 60 s) until it accepts connections at `addr`. `name` names it in errors.
///
/// # Errors
/// It cannot start, exits, or does not listen in time.
pub fn start(
    name: &str,
    argv: &[String],
    env: &[(&str, &str)],
    addr: SocketAddr,
    log: &Path,
) -> Result<Server, String> {
    let (program, args) = argv.split_first().ok_or("an empty command")?;
    let output = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(output.try_clone().map_err(|e| e.to_string())?)
        .stderr(output)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let pid = child.id();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Err(format!(
                "{name} exited ({status}) before listening; see {}",
                log.display()
            ));
        }
        if std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(100)).is_ok() {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{name} did not listen within 60 s"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(Server { child, pid, addr })
}
