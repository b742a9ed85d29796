//! `prophecy`: one binary for the Prophecy toolkit. This crate is glue: it parses the command
//! line (`cli`), calls the pure crates, and prints text or JSON (`commands`).

mod cli;
mod commands;
mod files;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};
use std::io::Write;
use std::process::ExitCode;

/// mimalloc instead of the system's allocator: under load the web table spent about a fifth of
/// its CPU in glibc's malloc and free (perf, loadgen at 1,500 players), views being JSON trees.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

/// Help and version go to stdout as clap prints them. Every parse error becomes one line with
/// status 2: clap's first paragraph (the problem, and for missing arguments which ones), and
/// any "did you mean" suggestion; clap's usage and other tips are left out.
fn clap_failure(err: clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("error: {}", missing_command(std::env::args().skip(1)));
            ExitCode::from(2)
        }
        _ => {
            let rendered = err.render().to_string();
            let problem: Vec<&str> = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}{}", problem.join(" "), suggestion(&err));
            ExitCode::from(2)
        }
    }
}

/// " (did you mean 'roll'?)": clap's most similar subcommand, flag or value (it lists them
/// from the least similar), or nothing when clap has no suggestion.
fn suggestion(err: &clap::Error) -> String {
    [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    .find_map(|kind| match err.get(kind) {
        Some(ContextValue::String(best)) => Some(best.clone()),
        Some(ContextValue::Strings(similar)) => similar.last().cloned(),
        _ => None,
    })
    .map(|best| format!(" (did you mean '{best}'?)"))
    .unwrap_or_default()
}

/// A command that needs a subcommand was given none (`prophecy`, `prophecy challenge`): name
/// the ones it has. `args` are exactly the words of the command, since clap answers this way
/// only when nothing follows them.
fn missing_command(args: impl Iterator<Item = String>) -> String {
    let mut command = cli::Cli::command();
    let mut path = vec![command.get_name().to_owned()];
    for arg in args {
        match command.find_subcommand(&arg) {
            Some(sub) => {
                path.push(sub.get_name().to_owned());
                command = sub.clone();
            }
            None => break,
        }
    }
    let path = path.join(" ");
    let names: Vec<&str> = command
        .get_subcommands()
        .map(clap::Command::get_name)
        .filter(|name| *name != "help")
        .collect();
    format!(
        "{path} needs a command: {} ({path} --help says what each does)",
        names.join(", ")
    )
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
