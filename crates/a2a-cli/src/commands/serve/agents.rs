//! The agents of `a2a serve`: `--echo` (the default) and `--exec CMD`, a shell command run
//! for each message.

use std::collections::HashSet;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::v1::{Artifact, Part};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};

/// Echoes each message back as an artifact: the same parts (text, files, data).
pub(crate) struct Echo;

impl Agent for Echo {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.working(None).await?;
        sink.artifact(Artifact::new("echo", ctx.message.parts.clone()).with_name("echo"))
            .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

/// Runs a shell command for each message: the message text on its stdin, its stdout as the
/// artifact (streamed line by line), its exit status as completed or failed. Each run leads a
/// process group of its own; a cancel ends the group (see [`end`]).
pub(crate) struct Exec {
    /// The command, run by `sh -c`.
    pub(crate) command: String,
    /// The commands running now, for the server's shutdown to end.
    pub(crate) running: Running,
    /// How long a command has after SIGTERM before SIGKILL: the handler's cancel grace.
    pub(crate) grace: Duration,
}

/// The commands running now, by their process group (the id of the command's `sh`, which leads
/// its group). Cloned, the same set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Running(Arc<Mutex<HashSet<u32>>>);

impl Running {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<u32>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a command's group. The groups left by agents dropped mid-command (see
    /// [`Registered`]) go once no process of theirs is alive: the set is bounded by the
    /// processes still running.
    fn add(&self, group: u32) {
        let mut running = self.lock();
        running.retain(|&left| group_alive(left));
        running.insert(group);
    }

    /// Ends every running command as a cancel does ([`end_group`]), all at once; returns when
    /// each group is gone (at most `grace` and a little after SIGKILL). For the server's
    /// shutdown, when no request can start another.
    pub(crate) async fn end_all(&self, grace: Duration) {
        let groups: Vec<u32> = self.lock().iter().copied().collect();
        futures_util::future::join_all(groups.into_iter().map(|group| end_group(group, grace)))
            .await;
    }
}

/// A command's place in [`Running`], left when dropped once the command is known to have
/// ended ([`Registered::settle`]). An agent dropped before that (its runtime ended with it:
/// `--runtime per-core` at shutdown) leaves its group in place, for [`Running::end_all`] to
/// end: dropping the command's handle kills only the command, not what it started.
struct Registered {
    running: Running,
    group: Option<u32>,
    settled: bool,
}

impl Registered {
    /// The command has ended (reaped, or its group ended by [`end`]): its group leaves the
    /// set when this is dropped.
    fn settle(&mut self) {
        self.settled = true;
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(group) = self.group.filter(|_| self.settled) {
            self.running.lock().remove(&group);
        }
    }
}

/// How many lines of stderr go into the status message of a failed task.
const STDERR_LINES: usize = 5;
/// How much of stderr is kept (its end).
const STDERR_KEEP: usize = 64 * 1024;

impl Agent for Exec {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.working(None).await?;
        let mut command = tokio::process::Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // A process group of its own, so that a cancel stops what the command started too.
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command
            .spawn()
            .map_err(|err| AgentError::new(format!("cannot run `{}`: {err}", self.command)))?;
        let group = child.id();
        if let Some(group) = group {
            self.running.add(group);
        }
        let mut registered = Registered {
            running: self.running.clone(),
            group,
            settled: false,
        };

        // The text goes in from its own task, so that a command that does not read its stdin
        // (or reads it slowly) cannot block the reading of its output.
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let text = ctx.text();
        tokio::spawn(async move {
            let _ = stdin.write_all(text.as_bytes()).await;
            // Dropping stdin closes it: the command sees the end of its input.
        });
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let stderr_task = tokio::spawn(async move {
            let mut kept = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > STDERR_KEEP {
                    kept.drain(..kept.len() - STDERR_KEEP);
                }
            }
            kept
        });

        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut output = Output::default();
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = tokio::select! {
                biased;
                () = ctx.cancelled() => {
                    end(&mut child, group, self.grace).await;
                    registered.settle();
                    return Ok(());
                }
                read = stdout.read_until(b'\n', &mut line) => read,
            };
            match read {
                Ok(0) => break,
                Ok(_) => {
                    output
                        .push(&sink, String::from_utf8_lossy(&line).into_owned())
                        .await?;
                }
                Err(err) => {
                    return Err(AgentError::new(format!(
                        "cannot read the output of `{}`: {err}",
                        self.command
                    )));
                }
            }
        }
        let status = tokio::select! {
            biased;
            () = ctx.cancelled() => {
                end(&mut child, group, self.grace).await;
                registered.settle();
                return Ok(());
            }
            status = child.wait() => status.map_err(|err| AgentError::new(format!("`{}` did not finish: {err}", self.command)))?,
        };
        // What the command started may hold its stderr open after it exited: a cancel (or the
        // shutdown) still ends them.
        let stderr = tokio::select! {
            biased;
            () = ctx.cancelled() => {
                end(&mut child, group, self.grace).await;
                registered.settle();
                return Ok(());
            }
            stderr = stderr_task => stderr.unwrap_or_default(),
        };
        // The command is reaped and its stderr closed: what it started and left running (a
        // daemon) is its own.
        registered.settle();
        output.finish(&sink, status.success()).await?;
        if status.success() {
            sink.complete(None).await?;
            return Ok(());
        }
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".to_owned(),
        };
        let stderr = String::from_utf8_lossy(&stderr);
        let tail: Vec<&str> = stderr
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        let tail = &tail[tail.len().saturating_sub(STDERR_LINES)..];
        let mut message = format!("`{}` {how}", self.command);
        if !tail.is_empty() {
            message.push_str(":\n");
            message.push_str(&tail.join("\n"));
        }
        sink.fail(message).await?;
        Ok(())
    }
}

/// How often an ending group is looked at.
const GROUP_POLL: Duration = Duration::from_millis(20);

/// Ends a canceled command and what it started: its process group (`group`, the command's id
/// when it started) gets SIGTERM, then SIGKILL once `grace` has passed with any of it left; the
/// command itself is reaped.
async fn end(child: &mut tokio::process::Child, group: Option<u32>, grace: Duration) {
    if let Some(group) = group {
        let deadline = tokio::time::Instant::now() + grace;
        signal_group(group, Signal::Term);
        // The command's own exit first (reaped here: as a zombie it would still be in its
        // group), then the rest of its group.
        let _ = tokio::time::timeout_at(deadline, child.wait()).await;
        end_group_by(group, deadline).await;
    }
    let _ = child.kill().await;
}

/// Ends a process group: SIGTERM, then SIGKILL once `grace` has passed with any of it left;
/// returns when it is gone, or right after the SIGKILL.
async fn end_group(group: u32, grace: Duration) {
    signal_group(group, Signal::Term);
    end_group_by(group, tokio::time::Instant::now() + grace).await;
}

/// Waits until the group is gone or `deadline`, then sends SIGKILL to what is left.
async fn end_group_by(group: u32, deadline: tokio::time::Instant) {
    while group_alive(group) {
        if tokio::time::Instant::now() >= deadline {
            signal_group(group, Signal::Kill);
            return;
        }
        tokio::time::sleep(GROUP_POLL).await;
    }
}

/// The signals a command's group is ended with.
#[derive(Clone, Copy, Debug)]
enum Signal {
    Term,
    Kill,
}

/// Sends `signal` to every process of the group (on Unix; elsewhere a command is its own
/// process, which `Child::kill` ends).
#[cfg(unix)]
fn signal_group(group: u32, signal: Signal) {
    use rustix::process::{Pid, Signal as Sig, kill_process_group};
    let Some(pid) = i32::try_from(group).ok().and_then(Pid::from_raw) else {
        return;
    };
    let signal = match signal {
        Signal::Term => Sig::TERM,
        Signal::Kill => Sig::KILL,
    };
    // ESRCH: the group is gone already.
    let _ = kill_process_group(pid, signal);
}

#[cfg(not(unix))]
fn signal_group(_group: u32, _signal: Signal) {}

/// Whether any process of the group is left.
#[cfg(unix)]
fn group_alive(group: u32) -> bool {
    use rustix::process::{Pid, test_kill_process_group};
    i32::try_from(group)
        .ok()
        .and_then(Pid::from_raw)
        .is_some_and(|pid| test_kill_process_group(pid).is_ok())
}

#[cfg(not(unix))]
fn group_alive(_group: u32) -> bool {
    false
}

/// The command's stdout as chunks of one artifact: each line goes out when the next one
/// arrives, so that the last line can carry `lastChunk`.
#[derive(Default)]
struct Output {
    held: Option<String>,
    sent: usize,
}

impl Output {
    async fn push(&mut self, sink: &EventSink, line: String) -> Result<(), AgentError> {
        if let Some(previous) = self.held.replace(line) {
            self.send(sink, previous, false).await?;
        }
        Ok(())
    }

    async fn finish(&mut self, sink: &EventSink, success: bool) -> Result<(), AgentError> {
        match self.held.take() {
            Some(last) => self.send(sink, last, true).await,
            // No output at all: a completed task still gets its (empty) artifact.
            None if success => self.send(sink, String::new(), true).await,
            None => Ok(()),
        }
    }

    async fn send(&mut self, sink: &EventSink, text: String, last: bool) -> Result<(), AgentError> {
        let artifact = Artifact::new("output", vec![Part::text(text)]).with_name("stdout");
        sink.artifact_chunk(artifact, self.sent > 0, last).await?;
        self.sent += 1;
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::Running;

    #[test]
    fn groups_with_no_process_left_go_when_another_is_added() {
        let running = Running::default();
        // A process that has exited and been reaped: its group has no process left.
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        running.lock().insert(dead);
        // This test's own group is alive.
        let alive = u32::try_from(rustix::process::getpgrp().as_raw_nonzero().get()).unwrap();
        running.add(alive);
        assert_eq!(running.lock().iter().copied().collect::<Vec<_>>(), [alive]);
    }
}
