//! A task or the answer of a send on stdout (the protocol's JSON, or the text fields with the
//! command that continues the task), and how it turned out on stderr.

use a2a_types::v1::{SendMessageResponse, StreamResponse, Task};

use crate::connect::Agent;
use crate::diag::Diag;
use crate::output::Out;
use crate::wait;

/// Prints a task (the `Task` type in JSON), with the resume command in text, and says how it
/// turned out on stderr.
pub(crate) fn print_task(
    out: &mut Out,
    diag: &Diag,
    agent: &Agent,
    task: &Task,
    report: bool,
    history: bool,
) {
    if out.json() {
        out.value(task);
    } else {
        out.task(task, wait::resume(agent, task).as_deref(), history);
    }
    if report {
        wait::outcome(diag, agent, task);
    }
}

/// Prints the answer of a send: the `SendMessageResponse` (`-o json`), one `StreamResponse`
/// line (`-o json --stream`), or the fields of the task or message.
pub(crate) fn print_answer(
    out: &mut Out,
    diag: &Diag,
    agent: &Agent,
    answer: &SendMessageResponse,
    lines: bool,
) {
    match answer {
        SendMessageResponse::Task(task) => {
            if out.json() {
                if lines {
                    out.line(&StreamResponse::Task(task.clone()));
                } else {
                    out.value(answer);
                }
            } else {
                out.task(task, wait::resume(agent, task).as_deref(), false);
            }
            wait::outcome(diag, agent, task);
        }
        SendMessageResponse::Message(message) => {
            if out.json() {
                if lines {
                    out.line(&StreamResponse::Message(message.clone()));
                } else {
                    out.value(answer);
                }
            } else {
                out.message(message);
            }
        }
        _ => {}
    }
}
