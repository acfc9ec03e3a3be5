//! `bpvm`: render Windsor contexts and Bluelink blueprints, test templates,
//! evaluate and benchmark expressions.
//!
//! Data flows one way, downward: `main` parses and dispatches; `commands`
//! holds one module per command; they use `load` (opening projects,
//! blueprints and `--env` files), `args` (argument groups several commands
//! share), `exit`, `paint`, `write`, `alloc`, `allow_env` and `watch` (`--watch`),
//! of which only `load` (on `args`), `exit` (on `paint`) and `watch` (on
//! `paint`, `exit` and `write`) import another.

mod alloc;
mod allow_env;
mod args;
mod commands;
mod exit;
mod load;
mod paint;
mod watch;
mod write;

use clap::Parser;
use commands::Cli;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

fn main() -> ExitCode {
    if let Err(e) = alloc::limit_from_env() {
        return exit::usage(&e);
    }
    // Jsonnet runs in worker processes of this executable, where its
    // memory and time can be limited.
    if let Ok(exe) = std::env::current_exe() {
        bpvm::windsor::jsonnet::set_runner(bpvm::windsor::jsonnet::Runner::Worker(exe));
    }
    let cli = Cli::parse();
    cli.apply_timeout();
    allow_env::apply(&cli.allow_env);
    match cli.command {
        Some(command) => command.run(),
        None => commands::teach(),
    }
}
