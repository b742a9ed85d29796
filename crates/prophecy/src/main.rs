//! `prophecy`: one binary for the Prophecy toolkit. This crate is glue: it parses the command
//! line (`cli`), calls the pure crates, and prints text or JSON (`commands`).

mod cli;
mod commands;

use clap::Parser;
use clap::error::ErrorKind;
use std::io::Write;
use std::process::ExitCode;

/// What went wrong, and so which exit status: bad input is 2, anything else 1.
#[derive(Debug)]
pub enum Failure {
    /// The user's input cannot be used; the text names the problem.
    Usage(String),
    /// The program could not do what was asked (e.g. no entropy for a seed).
    Runtime(String),
}

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return clap_failure(err),
    };
    match commands::run(cli.command) {
        Ok(output) => emit(&output),
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Runtime(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version go to stdout as clap prints them; every parse error becomes its first line
/// only (clap adds usage and tips below it), with status 2.
fn clap_failure(err: clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            // The first paragraph names the problem (and, for missing arguments, which ones on
            // the indented lines below it); usage and tips follow a blank line.
            let rendered = err.render().to_string();
            let problem: Vec<&str> = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", problem.join(" "));
            ExitCode::from(2)
        }
    }
}

/// Writes the output in one go; a closed pipe (`prophecy odds | head -3`) is not an error.
fn emit(output: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(output.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}
