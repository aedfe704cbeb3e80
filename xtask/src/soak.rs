//! `cargo xtask soak [--secs N] [--settle N] [--store-cuts]`: the server under a mixed hostile
//! load, for a bounded time, with a verdict.
//!
//! Builds the `a2a-bench` crate in release mode and runs its soak driver (`a2a-bench-soak`),
//! which starts `a2a-bench-server --soak true` (short limits, a small store), runs
//! `a2a-bench-load soak` against it in two rounds of `N / 2` seconds (default `N` = 60), and
//! prints the server's RSS, open descriptors and CPU at the start, during the load and after
//! each round's settle time, then checks them against its budgets: descriptors and RSS back
//! near the start, no growth from round to round, an idle CPU, every hostile probe met by the
//! limit it hits. Not part of `ci`. The report also goes to `<target dir>/bench/soak.md`;
//! `docs/benchmarks.md` ("Soak") has the latest one and the budgets.
//!
//! `--store-cuts` serves from PostgreSQL (`A2A_TEST_POSTGRES_URL`, a schema of its own) behind
//! a fault proxy that cuts the database during each round, once longer than the server's
//! outage tolerance and then briefly again and again; the verdict adds the tasks: none the
//! probes were acknowledged is lost, none is left unfinished.

use std::path::Path;

use xtask::Workspace;

/// Builds and runs the soak driver with the checked `args`.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result<(), String> {
    let driver = driver_args(&workspace.target_dir.join("bench"), args)?;
    match crate::bench::build_and_run(workspace, "a2a-bench-soak", &driver, &[])? {
        Some(0) => Ok(()),
        Some(2) => Err("soak: a budget was not met (see the verdict above)".to_owned()),
        _ => Err("soak: the driver failed (see above)".to_owned()),
    }
}

/// The driver's arguments: `--out` (the report's folder), then `--secs N` and `--settle N` as
/// given, each a positive number of seconds, and `--store-cuts true` for `--store-cuts`.
fn driver_args(out: &Path, args: &[String]) -> Result<Vec<String>, String> {
    let mut driver = vec!["--out".to_owned(), out.display().to_string()];
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--secs" | "--settle" => {
                let value = it
                    .next()
                    .filter(|v| v.parse::<f64>().is_ok_and(|n| n > 0.0))
                    .ok_or_else(|| format!("soak: `{arg}` takes a number of seconds"))?;
                driver.extend([arg.clone(), value.clone()]);
            }
            "--store-cuts" => driver.extend(["--store-cuts".to_owned(), "true".to_owned()]),
            other => {
                return Err(format!(
                    "soak: unknown argument `{other}` (soak takes --secs N, --settle N and \
                     --store-cuts)"
                ));
            }
        }
    }
    Ok(driver)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| (*a).to_owned()).collect()
    }

    #[test]
    fn the_driver_gets_the_report_folder_and_the_times() {
        let out = Path::new("/t/bench");
        assert_eq!(
            driver_args(out, &args(&["--secs", "30", "--settle", "5"])),
            Ok(args(&[
                "--out", "/t/bench", "--secs", "30", "--settle", "5"
            ]))
        );
        assert_eq!(driver_args(out, &[]), Ok(args(&["--out", "/t/bench"])));
        assert_eq!(
            driver_args(out, &args(&["--secs", "120", "--store-cuts"])),
            Ok(args(&[
                "--out",
                "/t/bench",
                "--secs",
                "120",
                "--store-cuts",
                "true"
            ]))
        );
    }

    #[test]
    fn bad_arguments_are_named() {
        let out = Path::new("/t");
        assert_eq!(
            driver_args(out, &args(&["--secs", "-1"])),
            Err("soak: `--secs` takes a number of seconds".to_owned())
        );
        assert_eq!(
            driver_args(out, &args(&["--settle"])),
            Err("soak: `--settle` takes a number of seconds".to_owned())
        );
        assert_eq!(
            driver_args(out, &args(&["--fast"])),
            Err(
                "soak: unknown argument `--fast` (soak takes --secs N, --settle N and \
                 --store-cuts)"
                    .to_owned()
            )
        );
    }
}
