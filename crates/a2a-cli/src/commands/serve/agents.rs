//! The agents of `a2a serve`: `--echo` (the default) and `--exec CMD`, a shell command run
//! for each message.

use std::process::Stdio;

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
/// artifact (streamed line by line), its exit status as completed or failed.
pub(crate) struct Exec {
    pub(crate) command: String,
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
                    stop(&mut child).await;
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
                stop(&mut child).await;
                return Ok(());
            }
            status = child.wait() => status.map_err(|err| AgentError::new(format!("`{}` did not finish: {err}", self.command)))?,
        };
        let stderr = stderr_task.await.unwrap_or_default();
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

/// Kills the command and, on Unix, every process of its group (what it started).
async fn stop(child: &mut tokio::process::Child) {
    #[cfg(unix)]
    if let Some(pid) = child.id() {
        // The group's id is the command's pid (`process_group(0)`); `kill` takes it negated.
        let _ = tokio::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .await;
    }
    let _ = child.kill().await;
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
