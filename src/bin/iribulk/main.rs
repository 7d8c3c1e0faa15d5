//! The `iribulk` command: arguments → options → run; errors → exit codes.
//!
//! The binary's own modules: [`cli`] (clap arguments, the options table, exit status),
//! [`bench`] (`iribulk bench`) and [`progress`] (the indicatif display of the library's
//! progress callback). clap, indicatif and mimalloc are used here only (the `cli` feature).

mod bench;
mod cli;
mod progress;

use cli::{BenchArgs, Cli, Command, FormatArg, StatsArg};
use iribulk::engine::input::{self, Source};
use iribulk::engine::output::Output;
use iribulk::engine::pipeline::{self, Fatal};
use iribulk::engine::report::Summary;
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

/// `eprintln!` that never panics: a stderr that cannot be written (`2>/dev/full`, a closed
/// pipe) turned a failed run into a panic, status 101 (found by a QA sweep). The message is
/// lost then; the exit status still says what happened.
macro_rules! say {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // clap exits with status 2 on usage errors and 0 for --help/--version.
    let (cli, given) = Cli::parse_with_sources();
    if let Some(Command::Bench(b)) = &cli.command {
        return bench(b);
    }
    let given = |id: &str| given.iter().any(|g| g == id);
    // Before the options are checked: that check creates and removes a probe file beside
    // each output, which a signal must not leave behind (found by a QA sweep).
    if let Err(e) = iribulk::engine::output::install_signal_cleanup()
        .and_then(|()| iribulk::engine::sigbus::install())
    {
        say!("iribulk: cannot watch for signals: {e}");
        return ExitCode::from(1);
    }
    let opts = match cli.to_options(&given) {
        Ok(o) => o,
        Err(msg) => {
            say!("iribulk: {msg}");
            return ExitCode::from(2);
        }
    };
    let bar = (!cli.quiet && std::io::stderr().is_terminal()).then(progress::Bar::default);
    if let Err(msg) = check_files(&cli, &opts) {
        say!("iribulk: {msg}");
        return ExitCode::from(2);
    }
    // What goes to stdout: the converted lines, the report (`--errors -` with `--out FILE`),
    // the summary (`--stats-file -`). Each is lost in a closed stdout (the report and the
    // summary were lost without a word: a QA sweep).
    let mut on_stdout = Vec::new();
    if opts.output.as_deref().is_none_or(input::names_stdout) {
        on_stdout.push("the converted lines".to_string());
    }
    let named =
        |what: &str, opt: &str, p: &std::path::Path| format!("{what} ({opt} {})", p.display());
    if let Some(e) = opts.errors.as_deref() {
        if opts.errors_to_stdout() || (e.as_os_str() != "-" && input::names_stdout(e)) {
            on_stdout.push(named("the error report", "--errors", e));
        }
    }
    if let Some(p) = cli.stats_file.as_deref().filter(|p| input::names_stdout(p)) {
        on_stdout.push(named("the summary", "--stats-file", p));
    }
    // A stdout or stderr held for reading only (`1< f`, a pipe's read end): Rust's standard
    // streams take a write's "Bad file descriptor" for success, so what went there vanished
    // with status 0 (found by a QA sweep). Refused before any input is read; the summary on
    // stderr counts too (README: a stderr that cannot take it is not a success).
    if !on_stdout.is_empty() && input::descriptor_read_only(1) {
        say!(
            "iribulk: standard output is open for reading only: {} would be lost",
            on_stdout.join(" and ")
        );
        return ExitCode::from(2);
    }
    let summary_on_stderr = (!cli.quiet || given("stats")) && cli.stats_file.is_none();
    if (opts.errors_to_stderr() || summary_on_stderr) && input::descriptor_read_only(2) {
        return ExitCode::from(2);
    }
    if !on_stdout.is_empty() && stdout_was_closed() {
        say!(
            "iribulk: warning: stdout is /dev/null opened for reading and writing, which is what \
             a closed stdout (>&-) becomes when a program starts: {} would be lost. Give a \
             file, or send stdout to /dev/null with '>' to silence this",
            on_stdout.join(" and ")
        );
    }
    // An explicit --stats or --stats-file asks for the summary even with --quiet. A closed
    // output pipe (`| head`) ends quietly, with status 0 (README "Shell habits"): the summary
    // only where it is asked for (the report was finished). Written before the output is
    // renamed into place (`run_with_hook`): a summary that cannot be written leaves an
    // existing --out as it was.
    let mut write_summary = |summary: &Summary| {
        let quiet = cli.quiet || summary.output_closed;
        if !quiet || given("stats") || cli.stats_file.is_some() {
            write_stats(&cli, summary)?;
        }
        Ok(())
    };
    let progress = bar.as_ref().map(|b| b as &dyn pipeline::Progress);
    match pipeline::run_with_hook(&opts, progress, &mut write_summary) {
        Ok(summary) => {
            if summary.output_closed {
                return ExitCode::SUCCESS;
            }
            // Which line stopped the run, even with --quiet (found by a QA sweep: `-q
            // --on-error fail` as a validator said nothing but its status); the text
            // summary on stderr says it already.
            let summary_said_it =
                !cli.quiet && matches!(cli.stats, StatsArg::Text) && cli.stats_file.is_none();
            if let (Some(by), false) = (&summary.stopped_by, summary_said_it) {
                say!("iribulk: stopped at the first error (--on-error fail): {by}");
            }
            ExitCode::from(cli::exit_status(&summary, &opts.engine, cli.exit_zero))
        }
        Err(Fatal::BrokenPipe) => ExitCode::SUCCESS,
        Err(Fatal::Usage(msg)) => {
            say!("iribulk: {msg}");
            ExitCode::from(2)
        }
        Err(e) => {
            say!("iribulk: {e}");
            ExitCode::from(1)
        }
    }
}

/// The file options checked before any input is read (README "Same file twice"): no two
/// outputs the same file, the summary file included (`--stats-file r.txt --out r.txt` left
/// r.txt holding only the summary: found by a QA sweep), nor the summary file the stderr that
/// carries the report (`--errors -` with the lines on stdout); and neither the report nor the
/// summary file an input (`pipeline::run` checks `--errors` the same way; `--out` may name an
/// input: converted in place).
fn check_files(cli: &Cli, opts: &pipeline::RunOptions) -> Result<(), String> {
    use iribulk::engine::output::{check_not_inputs, check_outputs};
    use std::path::Path;
    let stats = cli.stats_file.as_deref();
    let mut outs = opts.output_options();
    if stats.is_some() {
        outs.push(("--stats-file", stats));
    }
    check_outputs(&outs)?;
    if let Some(s) = stats.filter(|s| s.as_os_str() != "-") {
        if opts.errors_to_stderr() {
            check_outputs(&[
                ("--errors - (stderr)", Some(Path::new("/dev/stderr"))),
                ("--stats-file", Some(s)),
            ])?;
        }
    }
    let inputs: Vec<Option<&Path>> = if opts.inputs.is_empty() {
        vec![None]
    } else {
        opts.inputs.iter().map(|p| Some(p.as_path())).collect()
    };
    // `--out` on a descriptor held for reading only (`--out /dev/fd/3` with `3< f`); the
    // side files are checked so with the other file options (`cli::check_writable`).
    if let Some(p) = opts
        .output
        .as_deref()
        .filter(|p| iribulk::engine::input::names_read_only_descriptor(p))
    {
        return Err(format!(
            "--out '{}' names a descriptor open for reading only",
            p.display()
        ));
    }
    check_not_inputs(&[("--stats-file", stats)], &inputs)?;
    // The same outputs: those written through a descriptor (stdout, `/dev/fd/N`) may not
    // be an input either.
    iribulk::engine::output::check_stdout_not_input(&outs, opts.errors_to_stderr(), &inputs)
}

/// True when fd 1 looks like a stdout that was closed when the program started: the Rust
/// runtime then opens `/dev/null` read-write in its place (std's `sanitize_standard_fds`), so
/// every write succeeds and the output vanishes without an error (`cat` would say "Bad file
/// descriptor"). A shell's `>/dev/null` opens it write-only, so the access mode tells them
/// apart; a parent that passes `/dev/null` read-write on purpose (Python's
/// `subprocess.DEVNULL`) gets the warning too, which is why it is one and not an error.
/// Linux only (`/proc/self`); elsewhere false.
fn stdout_was_closed() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target.as_os_str() != "/dev/null" {
        return false;
    }
    // O_RDWR = 2.
    input::descriptor_access_mode(1) == Some(2)
}

/// Writes the summary where `--stats-file` says (stderr by default).
fn write_stats(cli: &Cli, summary: &Summary) -> Result<(), String> {
    let text = match cli.stats {
        StatsArg::Text => summary.text(),
        StatsArg::Json => summary.json(),
    };
    match &cli.stats_file {
        // A closed stderr pipe (`2>&1 >/dev/null | head -1`) ends the summary quietly, as a
        // closed output pipe ends the output; any other failure (`2>/dev/full`) is status 1.
        None => match std::io::stderr().write_all(text.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("cannot write the summary to stderr: {e}"))
            }
            _ => Ok(()),
        },
        Some(p) if p.as_os_str() == "-" => {
            let mut o = std::io::stdout().lock();
            o.write_all(text.as_bytes())
                .and_then(|()| o.flush())
                .map_err(|e| format!("cannot write the summary to stdout: {e}"))
        }
        // Written as the report is (README "Shell habits"): a temporary file renamed into
        // place, compressed by a `.gz`/`.zst` name, `/dev/stdout` through the descriptor held.
        // `std::fs::write` truncated the file first (a full disk left it empty).
        Some(p) => {
            let write = || {
                let mut o = Output::open(Some(p))?;
                if let Err(e) = o.writer().write_all(text.as_bytes()) {
                    o.abort();
                    return Err(e);
                }
                // Renamed with the report and the output, all at once (`run_with_hook`).
                o.finish_deferred()
            };
            write().map_err(|e| format!("cannot write --stats-file '{}': {e}", p.display()))
        }
    }
}

/// Reads the whole bench input as the main command opens it (mapped, gz/zst, `-` for stdin).
fn read_all(b: &BenchArgs) -> std::io::Result<Vec<u8>> {
    let (source, _) = input::open(Some(&b.input), false)?;
    match source {
        Source::Mapped(m) => Ok(m.bytes().to_vec()),
        Source::Stream(mut r) => {
            let mut v = Vec::new();
            r.read_to_end(&mut v)?;
            Ok(v)
        }
    }
}

/// `iribulk bench`: every rung, the ladder and the conversions on the file, one thread, in
/// memory, against a plain copy in the same run.
fn bench(b: &BenchArgs) -> ExitCode {
    let name = if b.input.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        format!("'{}'", b.input.display())
    };
    // Paths first: a wrong --plot must not cost a whole measurement, and --plot naming the
    // input would replace it with the chart (found by a QA sweep).
    if let Some(p) = &b.plot {
        let input = Some(b.input.as_path());
        let checked = cli::check_writable("--plot", p).and_then(|()| {
            iribulk::engine::output::check_not_inputs(&[("--plot", Some(p))], &[input])
        });
        if let Err(msg) = checked {
            say!("iribulk: {msg}");
            return ExitCode::from(2);
        }
    }
    // The table (or `--plot -`'s chart) on stdout appended to the input would change it
    // (found by a QA sweep: `bench --in f >> f`).
    if let Err(msg) = iribulk::engine::output::check_stdout_not_input(
        &[("bench's table", None)],
        false,
        &[Some(b.input.as_path())],
    ) {
        say!("iribulk: {msg}");
        return ExitCode::from(2);
    }
    // `--plot -`: the chart is stdout (`- is stdout for every file option`), so the table
    // goes to stderr instead of mixing with it.
    let plot_stdout = b.plot.as_ref().is_some_and(|p| p.as_os_str() == "-");
    if b.runs == 0 {
        say!("iribulk: --runs must be at least 1");
        return ExitCode::from(2);
    }
    let data = match read_all(b) {
        Ok(d) => d,
        Err(e) => {
            say!("iribulk: cannot read input {name}: {e}");
            return ExitCode::from(1);
        }
    };
    let lines = bench::lines(&data);
    if lines.iter().all(|l| l.is_empty()) {
        say!("iribulk: input {name} holds no line with text: nothing to measure");
        return ExitCode::from(1);
    }
    let rows = bench::run(&data, b.runs);
    let text = match b.format {
        FormatArg::Table => bench::table(&rows),
        FormatArg::Csv => bench::csv(&rows),
        FormatArg::Json => bench::json(&rows),
    };
    if plot_stdout {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    if let Some(p) = &b.plot {
        let caption = bench::Caption::now(&name, lines.len(), b.runs);
        let svg = bench::svg(&rows, &caption);
        let written = if plot_stdout {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            o.write_all(svg.as_bytes()).and_then(|()| o.flush())
        } else {
            std::fs::write(p, svg)
        };
        if let Err(e) = written {
            say!("iribulk: cannot write plot '{}': {e}", p.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
