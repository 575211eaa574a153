//! Progress of a long run on the terminal: one bar over all the steps the run will take, and
//! a message naming the scene, engine, thread count and repeat being run.
//!
//! The bar is drawn on standard error, only when both standard output and standard error
//! are terminals and the output is the readable table: with `--json`, or when either stream
//! is redirected to a file or a pipe, nothing is drawn and nothing but the results is written.
//! Lines of results are printed through [`Progress::print`], which lifts the bar, writes the
//! line, and draws the bar again below it.
//!
//! The bar is advanced between steps, outside the timed `step` call, and drawn at most a few
//! times a second (indicatif's rate limit) on the calling thread: no ticking thread runs
//! beside the engines. Everything the bar does runs in an uncounted scope of the counting
//! allocator ([`crate::alloc_count::uncounted`]), so drawing it never changes a measured
//! world's bytes.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressStyle};

use crate::alloc_count::uncounted;

/// The run's progress display: a bar on a terminal, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

const TEMPLATE: &str =
    "{elapsed_precise} [{bar:32}] {percent:>3}% of {len} steps, eta {eta}  {msg}";

/// Whether a bar should be drawn: table output, and both output streams on a terminal.
pub fn wanted(json: bool) -> bool {
    !json && std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
}

impl Progress {
    /// A bar over `total_steps` steps if `show`, else a display that draws nothing.
    pub fn new(show: bool, total_steps: u64) -> Self {
        let bar = show.then(|| {
            uncounted(|| {
                let bar = ProgressBar::new(total_steps);
                if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
                    bar.set_style(style.progress_chars("=> "));
                }
                bar
            })
        });
        Self { bar }
    }

    /// Names what is being run now.
    pub fn set_message(&self, message: impl FnOnce() -> String) {
        if let Some(bar) = &self.bar {
            uncounted(|| bar.set_message(message()));
        }
    }

    /// One more step done.
    pub fn step(&self) {
        if let Some(bar) = &self.bar {
            uncounted(|| bar.inc(1));
        }
    }

    /// Runs `print` (which writes result lines) with the bar lifted off the terminal.
    pub fn print<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => uncounted(|| bar.suspend(print)),
            None => print(),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            uncounted(|| {
                bar.finish_and_clear();
                drop(bar);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// JSON output never shows a bar, and neither does a test run (its output is captured,
    /// not a terminal).
    #[test]
    fn quiet_with_json_or_without_a_terminal() {
        assert!(!wanted(true));
        if !std::io::stdout().is_terminal() || !std::io::stderr().is_terminal() {
            assert!(!wanted(false));
        }
        let hidden = Progress::new(false, 100);
        assert!(hidden.bar.is_none());
        hidden.step();
        assert_eq!(hidden.print(|| 7), 7);
    }

    /// A shown bar counts the steps it is told of and hands back what the printing closure
    /// returns.
    #[test]
    fn a_shown_bar_counts_steps() {
        let progress = Progress::new(true, 10);
        assert!(progress.bar.is_some());
        for _ in 0..4 {
            progress.step();
        }
        progress.set_message(|| "large_pyramid · prism · 1 thr · repeat 1/1".to_string());
        assert_eq!(progress.bar.as_ref().map(ProgressBar::position), Some(4));
        assert_eq!(progress.print(|| 3), 3);
    }
}
