//! The `iribulk` command: arguments → options → run; errors → exit codes.

use clap::Parser;
use iribulk::cli::{Cli, StatsArg};
use iribulk::pipeline::{self, Fatal};
use std::io::IsTerminal;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // clap exits with status 2 on usage errors and 0 for --help/--version.
    let cli = Cli::parse();
    let mut opts = match cli.to_options() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("iribulk: {msg}");
            return ExitCode::from(2);
        }
    };
    opts.progress = !cli.quiet && std::io::stderr().is_terminal();
    match pipeline::run(&opts) {
        Ok(summary) => {
            if !cli.quiet {
                match cli.stats {
                    StatsArg::Text => eprint!("{}", summary.text()),
                    StatsArg::Json => eprint!("{}", summary.json()),
                }
            }
            if summary.stats.error_lines > 0 {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(Fatal::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("iribulk: {e}");
            ExitCode::from(1)
        }
    }
}
