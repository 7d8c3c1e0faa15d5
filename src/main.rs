//! The `iribulk` command: arguments → options → run; errors → exit codes.

use clap::Parser;
use iribulk::cli::{BenchArgs, Cli, Command, FormatArg, StatsArg};
use iribulk::pipeline::{self, Fatal};
use std::io::IsTerminal;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // clap exits with status 2 on usage errors and 0 for --help/--version.
    let cli = Cli::parse();
    if let Some(Command::Bench(b)) = &cli.command {
        return bench(b);
    }
    let mut opts = match cli.to_options() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("iribulk: {msg}");
            return ExitCode::from(2);
        }
    };
    opts.progress = !cli.quiet && std::io::stderr().is_terminal();
    if let Err(msg) = iribulk::output::check_outputs(&opts.output_options()) {
        eprintln!("iribulk: {msg}");
        return ExitCode::from(2);
    }
    if let Err(e) = iribulk::output::install_signal_cleanup() {
        eprintln!("iribulk: cannot watch for signals: {e}");
        return ExitCode::from(1);
    }
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
        Err(Fatal::Usage(msg)) => {
            eprintln!("iribulk: {msg}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("iribulk: {e}");
            ExitCode::from(1)
        }
    }
}

/// `iribulk bench`: every rung, the ladder and the conversions on the file, one thread, in
/// memory, against a plain copy in the same run.
fn bench(b: &BenchArgs) -> ExitCode {
    let data = match std::fs::read(&b.input) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("iribulk: cannot read input '{}': {e}", b.input.display());
            return ExitCode::from(1);
        }
    };
    let lines = iribulk::benchcmd::lines(&data);
    let rows = iribulk::benchcmd::run(&lines, b.runs);
    let text = match b.format {
        FormatArg::Table => iribulk::benchcmd::table(&rows),
        FormatArg::Csv => iribulk::benchcmd::csv(&rows),
        FormatArg::Json => iribulk::benchcmd::json(&rows),
    };
    print!("{text}");
    if let Some(p) = &b.plot {
        let title = format!(
            "iribulk bench: {} ({} lines)",
            b.input.display(),
            lines.len()
        );
        if let Err(e) = std::fs::write(p, iribulk::benchcmd::svg(&rows, &title)) {
            eprintln!("iribulk: cannot write plot '{}': {e}", p.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
