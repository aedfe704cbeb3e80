//! `a2a task download`: a task's artifacts saved as files.
//!
//! * The text parts of an artifact go together into `<artifact>.txt`, each data part into
//!   `<artifact>.json`, each file part under its file name (else `<artifact>-<n>.bin`).
//! * A file part that is a URL (`http` or `https`) is fetched: a plain `GET` with no credential
//!   of the agent's (`--bearer`, `--api-key`, `-H`, `--svc-param` stay with the agent), at most
//!   `--max-size` bytes (64 MiB by default), within `--timeout`, following at most
//!   [`MAX_REDIRECTS`] redirects and only to `http` or `https` URLs. A URL of another scheme is
//!   listed on stderr, not fetched.
//! * Names come from the agent, so they are made safe: only the last path segment, no leading
//!   dots, no control characters; a name taken twice gets `-2`, `-3`...; nothing is written
//!   outside `--dir`, nor through a symbolic link there. Files that exist are kept unless
//!   `--force`; then nothing is written at all.

use std::path::{Path, PathBuf};

use a2a_client::A2aClient;
use a2a_types::v1::{GetTaskRequest, PartContent, Task};
use bytes::Bytes;
use clap::Args;

use crate::connect;
use crate::diag::{Diag, FILE_CALL};
use crate::error::{CliError, Code};
use crate::options::{Common, TaskIdArg, parse_size, show_size, task_id};
use crate::output::Out;
use crate::wait::Waiter;

/// The most redirects followed for one file.
pub(crate) const MAX_REDIRECTS: usize = 5;

/// The arguments of `task download`.
#[derive(Args, Debug, Clone)]
pub(crate) struct DownloadArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// The folder to save into (created if missing).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub(crate) dir: PathBuf,
    /// Only this artifact (by id; repeatable).
    #[arg(long = "artifact", value_name = "ARTIFACT_ID")]
    pub(crate) artifacts: Vec<String>,
    /// Replace files that exist.
    #[arg(long)]
    pub(crate) force: bool,
    /// The largest file fetched from a URL an artifact names (http and https only, no
    /// credentials sent, redirects followed to http and https only).
    #[arg(long = "max-size", value_name = "SIZE", default_value = "64MiB", value_parser = parse_size)]
    pub(crate) max_size: usize,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// A file name from an agent, made safe: no folders, no `..`, no control characters.
fn safe_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let cleaned: String = base
        .chars()
        .map(|c| if c.is_control() || c == ':' { '_' } else { c })
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_owned();
    (!cleaned.is_empty()).then_some(cleaned)
}

/// A name not yet taken: `name`, `name-2`, `name-3`... (before the extension).
fn unique(taken: &mut Vec<String>, name: String) -> String {
    let mut candidate = name.clone();
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem.to_owned(), format!(".{ext}")),
        _ => (name.clone(), String::new()),
    };
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{stem}-{n}{extension}");
        n += 1;
    }
    taken.push(candidate.clone());
    candidate
}

/// What a file holds: bytes the task carries, or a URL to fetch.
#[derive(Debug, PartialEq, Eq)]
enum Content {
    Bytes(Vec<u8>),
    Url(String),
}

/// A file to write.
#[derive(Debug)]
struct Saved {
    name: String,
    content: Content,
    /// Where it comes from, for messages: `artifact A part N`.
    origin: String,
}

/// The last path segment of a URL, as a file name.
fn url_name(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.split(['?', '#']).next().unwrap_or("");
    path.split_once('/')
        .and_then(|(_, path)| path.rsplit('/').next())
        .filter(|name| !name.is_empty())
}

/// The files of a task's artifacts (see the module docs).
fn files_of(task: &Task, only: &[String], diag: &Diag) -> Vec<Saved> {
    let mut taken = Vec::new();
    let mut files = Vec::new();
    for artifact in &task.artifacts {
        let id = artifact.artifact_id.as_str();
        if !only.is_empty() && !only.iter().any(|o| o == id) {
            continue;
        }
        let base = safe_name(id).unwrap_or_else(|| "artifact".to_owned());
        if artifact.parts.iter().any(|p| p.as_text().is_some()) {
            let name = unique(&mut taken, format!("{base}.txt"));
            files.push(Saved {
                name,
                content: Content::Bytes(artifact.text().into_bytes()),
                origin: format!("artifact {id}"),
            });
        }
        for (i, part) in artifact.parts.iter().enumerate() {
            let origin = format!("artifact {id} part {}", i + 1);
            let file_name = |given: Option<&str>| {
                let named = given.and_then(safe_name);
                if let (Some(given), Some(named)) = (given, &named)
                    && given != named
                {
                    diag.note(&format!(
                        "{origin} is named `{given}`; saved as `{named}` (files stay in --dir)"
                    ));
                }
                named.unwrap_or_else(|| format!("{base}-{}.bin", i + 1))
            };
            match &part.content {
                PartContent::Raw(bytes) => {
                    let name = unique(&mut taken, file_name(part.filename.as_deref()));
                    files.push(Saved {
                        name,
                        content: Content::Bytes(bytes.clone()),
                        origin,
                    });
                }
                PartContent::Data(value) => {
                    let name = unique(&mut taken, format!("{base}.json"));
                    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
                    bytes.push(b'\n');
                    files.push(Saved {
                        name,
                        content: Content::Bytes(bytes),
                        origin,
                    });
                }
                PartContent::Url(url) if is_http(url) => {
                    let given = part.filename.as_deref().or_else(|| url_name(url));
                    let name = unique(&mut taken, file_name(given));
                    files.push(Saved {
                        name,
                        content: Content::Url(url.clone()),
                        origin,
                    });
                }
                PartContent::Url(url) => diag.note(&format!(
                    "{origin} is a reference to {url}: not downloaded (only http and https \
                     URLs are fetched)"
                )),
                _ => {}
            }
        }
    }
    files
}

/// An `http` or `https` URL.
fn is_http(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Where a redirect's `Location` leads from `base`: an absolute URL, `//host/path`, `/path`, or
/// a path relative to `base`'s folder.
fn resolve(base: &str, location: &str) -> String {
    let location = location.trim();
    if location.contains("://") {
        return location.to_owned();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("http", base));
    if let Some(authority_path) = location.strip_prefix("//") {
        return format!("{scheme}://{authority_path}");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    if location.starts_with('/') {
        return format!("{scheme}://{authority}{location}");
    }
    let path = rest[authority.len()..]
        .split(['?', '#'])
        .next()
        .unwrap_or("");
    let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
    format!("{scheme}://{authority}{folder}/{location}")
}

/// Fetches a file: `GET`, redirects followed to http(s) URLs only, at most `max` bytes.
async fn fetch(client: &a2a_client::ClientBuilder, url: &str, max: usize) -> Result<Bytes, String> {
    let mut current = url.to_owned();
    for _ in 0..=MAX_REDIRECTS {
        let request = http::Request::get(current.as_str())
            .body(Bytes::new())
            .map_err(|err| format!("`{current}` is not a URL: {err}"))?;
        let (head, body) = client
            .send_http_bounded(FILE_CALL, request, max)
            .await
            .map_err(|err| match err {
                a2a_client::Error::Protocol(_) => {
                    format!("the file is larger than {} (--max-size)", show_size(max))
                }
                other => other.to_string(),
            })?;
        if head.status.is_redirection() {
            let Some(location) = head
                .headers
                .get(http::header::LOCATION)
                .and_then(|v| v.to_str().ok())
            else {
                return Err(format!("HTTP {} without a Location", head.status));
            };
            let next = resolve(&current, location);
            if !is_http(&next) {
                return Err(format!(
                    "redirected to `{next}`, which is not http or https: not followed"
                ));
            }
            current = next;
            continue;
        }
        if !head.status.is_success() {
            return Err(format!("HTTP {}", head.status));
        }
        return Ok(body);
    }
    Err(format!("more than {MAX_REDIRECTS} redirects"))
}

/// The refusal to write through a symbolic link (it could lead out of `--dir`).
fn symlink(path: &Path, done: &str) -> CliError {
    CliError::usage(format!(
        "{} is a symbolic link, which files are never written through; {done}",
        path.display()
    ))
    .hint("remove the link, or pass --dir to save elsewhere")
}

/// Writes `bytes` to `path`, never through a symbolic link.
fn write(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(symlink(path, "it was not written"));
    }
    std::fs::write(path, bytes).map_err(|err| {
        CliError::new(
            Code::Internal,
            format!("cannot write {}: {err}", path.display()),
        )
    })
}

/// Runs `task download`.
pub(crate) async fn run(args: &DownloadArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let id = task_id(&args.id)?;
    let agent = connect::connect(opts, diag, connect::Trust::Lenient).await?;
    let waiter = Waiter::new(&agent, opts, diag);
    let task = waiter
        .call(
            agent
                .client
                .get_task(GetTaskRequest::new(id).with_history_length(0)),
        )
        .await?;
    for wanted in &args.artifacts {
        if !task
            .artifacts
            .iter()
            .any(|a| a.artifact_id.as_str() == wanted)
        {
            return Err(CliError::usage(format!(
                "task {} has no artifact {wanted}",
                task.id
            )));
        }
    }
    let files = files_of(&task, &args.artifacts, diag);
    std::fs::create_dir_all(&args.dir).map_err(|err| {
        CliError::new(
            Code::Internal,
            format!("cannot create {}: {err}", args.dir.display()),
        )
    })?;
    for path in files.iter().map(|f| args.dir.join(&f.name)) {
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        if meta.file_type().is_symlink() {
            return Err(symlink(&path, "nothing was written"));
        }
        if !args.force {
            return Err(
                CliError::usage(format!("{} exists; nothing was written", path.display()))
                    .hint("pass --force to replace it, or --dir to save elsewhere"),
            );
        }
    }
    // Files are fetched without the agent's credentials or headers: a client of its own.
    // `--ca-cert` still applies (a file may live on a host of the same private CA); the client
    // certificate, a credential, does not.
    let fetcher = connect::logged(
        connect::roots(
            A2aClient::builder()
                .timeout(opts.timeout)
                .danger_accept_invalid_certs(opts.insecure),
            opts,
        )?,
        diag,
    );
    let mut out = Out::new(opts.output, false, opts.verbose);
    let mut saved: Vec<(PathBuf, usize, Option<&str>)> = Vec::new();
    for file in &files {
        let path = args.dir.join(&file.name);
        let (bytes, from) = match &file.content {
            Content::Bytes(bytes) => (Bytes::from(bytes.clone()), None),
            Content::Url(url) => {
                diag.debug(&format!(
                    "fetching {url} ({}) into {}",
                    file.origin,
                    path.display()
                ));
                let fetched = waiter
                    .bounded(async { Ok(fetch(&fetcher, url, args.max_size).await) })
                    .await?;
                let bytes = fetched.map_err(|why| {
                    let done = if saved.is_empty() {
                        "nothing was written".to_owned()
                    } else {
                        let names: Vec<String> = saved
                            .iter()
                            .map(|(p, ..)| p.display().to_string())
                            .collect();
                        format!("saved before it: {}", names.join(", "))
                    };
                    CliError::new(
                        Code::Internal,
                        format!("cannot download {url} ({}): {why}; {done}", file.origin),
                    )
                })?;
                (bytes, Some(url.as_str()))
            }
        };
        write(&path, &bytes)?;
        saved.push((path, bytes.len(), from));
    }
    if out.json() {
        out.value(&task);
        for (path, size, from) in &saved {
            let from = from.map(|u| format!(" from {u}")).unwrap_or_default();
            diag.note(&format!("saved {} ({size} bytes{from})", path.display()));
        }
    } else {
        out.task_head(&task);
        for (path, size, from) in &saved {
            let from = from.map(|u| format!(", from {u}")).unwrap_or_default();
            out.field("Saved", &format!("{} ({size} bytes{from})", path.display()));
        }
    }
    if files.is_empty() {
        diag.note(&format!("task {} has no artifact content to save", task.id));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{Artifact, Part, TaskState, TaskStatus};

    #[test]
    fn names_from_agents_are_made_safe() {
        assert_eq!(safe_name("../../etc/passwd"), Some("passwd".into()));
        assert_eq!(safe_name("C:\\x\\report.pdf"), Some("report.pdf".into()));
        assert_eq!(safe_name(".hidden"), Some("hidden".into()));
        assert_eq!(safe_name("a\u{1b}b"), Some("a_b".into()));
        assert_eq!(safe_name(".."), None);
        let mut taken = Vec::new();
        assert_eq!(unique(&mut taken, "a.txt".into()), "a.txt");
        assert_eq!(unique(&mut taken, "a.txt".into()), "a-2.txt");
    }

    #[test]
    fn artifacts_become_files() {
        let task = Task::new("t", "c", TaskStatus::new(TaskState::Completed)).with_artifacts([
            Artifact::new("out", vec![Part::text("Hel"), Part::text("lo")]),
            Artifact::new(
                "img",
                vec![
                    Part::raw(vec![1, 2]).with_filename("../a.png"),
                    Part::data(serde_json::json!({"k": 1})),
                    Part::url("https://files.example/d/report.pdf?v=2"),
                    Part::url("https://files.example/x").with_filename("../../up.bin"),
                    Part::url("ftp://files.example/old.txt"),
                ],
            ),
        ]);
        let files = files_of(&task, &[], &Diag::new(false));
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["out.txt", "a.png", "img.json", "report.pdf", "up.bin"]
        );
        assert_eq!(files[0].content, Content::Bytes(b"Hello".to_vec()));
        assert_eq!(
            files[2].content,
            Content::Bytes(b"{\n  \"k\": 1\n}\n".to_vec())
        );
        assert_eq!(
            files[3].content,
            Content::Url("https://files.example/d/report.pdf?v=2".into())
        );
        assert_eq!(files[4].origin, "artifact img part 4");
        let only = files_of(&task, &["out".to_owned()], &Diag::new(false));
        assert_eq!(only.len(), 1);
    }

    #[test]
    fn redirects_resolve_against_the_url() {
        let base = "https://h.example:8443/a/b/file.pdf?x=1";
        assert_eq!(
            resolve(base, "http://other.example/c"),
            "http://other.example/c"
        );
        assert_eq!(resolve(base, "//cdn.example/c"), "https://cdn.example/c");
        assert_eq!(
            resolve(base, "/root.pdf"),
            "https://h.example:8443/root.pdf"
        );
        assert_eq!(
            resolve(base, "next.pdf"),
            "https://h.example:8443/a/b/next.pdf"
        );
        assert_eq!(resolve(base, "ftp://x/y"), "ftp://x/y");
        assert!(!is_http("ftp://x/y"));
        assert!(is_http("HTTPS://x/y"));
        assert_eq!(url_name("https://h/a/b.pdf?x#y"), Some("b.pdf"));
        assert_eq!(url_name("https://h/"), None);
        assert_eq!(url_name("https://h"), None);
    }
}
