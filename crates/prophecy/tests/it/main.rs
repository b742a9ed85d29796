//! The `prophecy` binary, run as a user runs it: arguments in, text or JSON and an exit status out.

mod board;
mod errors;
mod export;
mod odds;
mod outline;
mod pg;
mod proxy;
mod rolls;
mod serve;
mod story;

use std::process::Command;

/// What one run printed.
pub struct Run {
    /// The exit status.
    pub code: i32,
    /// Everything printed to stdout.
    pub stdout: String,
    /// Everything printed to stderr.
    pub stderr: String,
}

/// Runs the real binary with `args` (split on spaces).
pub fn prophecy(args: &str) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_prophecy"))
        .args(args.split_whitespace())
        .output()
        .expect("the binary runs");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 errors"),
    }
}

/// Runs and expects success with nothing on stderr.
pub fn ok(args: &str) -> String {
    let run = prophecy(args);
    assert_eq!(run.code, 0, "prophecy {args}: {}", run.stderr);
    assert_eq!(run.stderr, "", "prophecy {args}");
    run.stdout
}

/// Runs with `--json` appended and parses the output.
pub fn json(args: &str) -> serde_json::Value {
    serde_json::from_str(&ok(&format!("{args} --json"))).expect("valid JSON")
}
