//! The progress display on stderr: an indicatif bar (or, with no known size, a counter) behind
//! the library's [`Progress`] callback, in MB/s (10^6 bytes, as in the summary).

use iribulk::engine::pipeline::Progress;
use std::sync::Mutex;

/// One bar per input, made when the input starts (its size decides bar or spinner).
#[derive(Default)]
pub struct Bar(Mutex<Option<indicatif::ProgressBar>>);

impl Bar {
    fn with(&self, f: impl FnOnce(&indicatif::ProgressBar)) {
        if let Some(b) = self.0.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            f(b);
        }
    }
}

fn style(t: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(t)
        .expect("valid template")
        .with_key(
            "mbps",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} MB/s", s.per_sec() / 1e6);
            },
        )
}

impl Progress for Bar {
    fn start(&self, total: Option<u64>) {
        let bar = match total {
            Some(n) => indicatif::ProgressBar::new(n).with_style(style(
                "{bar:40} {decimal_bytes}/{decimal_total_bytes} {mbps} eta {eta}",
            )),
            None => indicatif::ProgressBar::new_spinner()
                .with_style(style("{spinner} {decimal_bytes} read, {mbps}")),
        };
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar);
    }
    fn advance(&self, n: u64) {
        self.with(|b| b.inc(n));
    }
    fn set_position(&self, done: u64) {
        self.with(|b| b.set_position(done));
    }
    fn finish(&self) {
        if let Some(b) = self.0.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
        }
    }
}
