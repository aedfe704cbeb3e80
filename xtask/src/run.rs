//! Running a command while reading its output line by line: what `ci` logs and follows, and
//! what `features` scans for warnings.

use std::fmt::Display;
use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How often the waiting loop looks at the child (and calls `tick`).
const POLL: Duration = Duration::from_millis(100);

/// How long the output may go on after the child exited: a process it started and left
/// running (a server in the background) can hold the output pipe open for ever.
const DRAIN: Duration = Duration::from_secs(10);

/// Runs `command` with its stdout and stderr on one pipe (so their lines keep the order they
/// were written in), handing every line, with its line end, to `on_line` on a reader thread,
/// and calling `tick` about every 100 ms while the command runs. Returns its exit status once
/// it has exited and its output is read (or after 10 s more, when something it started still
/// holds the pipe).
pub(crate) fn with_lines(
    command: &mut Command,
    on_line: impl FnMut(&[u8]) + Send + 'static,
    mut tick: impl FnMut(),
) -> Result<ExitStatus, String> {
    let (reader, writer) = std::io::pipe().map_err(|e| format!("cannot make a pipe: {e}"))?;
    let err = writer
        .try_clone()
        .map_err(|e| format!("cannot make a pipe: {e}"))?;
    command.stdout(writer).stderr(err);
    let spawned = command.spawn();
    // The command keeps its copies of the pipe's write end: close them, so that the reader
    // sees the end of the output when the child (and what it started) is done.
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child =
        spawned.map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))?;
    let lines = thread::spawn(move || read_lines(reader, on_line));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {
                tick();
                thread::sleep(POLL);
            }
            Err(e) => return Err(format!("cannot wait for {:?}: {e}", command.get_program())),
        }
    };
    let drained = Instant::now();
    while !lines.is_finished() && drained.elapsed() < DRAIN {
        thread::sleep(POLL / 4);
    }
    if lines.is_finished() {
        let _ = lines.join();
    }
    Ok(status)
}

/// One line on stdout (a task's report; in `ci`, its log). A closed stdout loses it.
pub(crate) fn say(line: impl Display) {
    let _ = writeln!(std::io::stdout(), "{line}");
}

fn read_lines(reader: std::io::PipeReader, mut on_line: impl FnMut(&[u8])) {
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => on_line(&line),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    #[test]
    fn stdout_and_stderr_lines_come_in_order() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let lines = Arc::clone(&seen);
        let mut command = Command::new("sh");
        command.args(["-c", "echo one; echo two >&2; printf three"]);
        let status = with_lines(
            &mut command,
            move |line| lines.lock().unwrap().push(line.to_vec()),
            || {},
        )
        .unwrap();
        assert!(status.success());
        assert_eq!(
            *seen.lock().unwrap(),
            [b"one\n".to_vec(), b"two\n".to_vec(), b"three".to_vec()]
        );
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let mut command = Command::new("/nonexistent/xtask-test-program");
        let err = with_lines(&mut command, |_| {}, || {}).unwrap_err();
        assert!(
            err.starts_with("cannot start \"/nonexistent/xtask-test-program\": "),
            "{err}"
        );
    }
}
