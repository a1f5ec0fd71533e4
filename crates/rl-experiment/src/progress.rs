//! Progress reporting for the command line: a progress bar with rate and ETA on a terminal,
//! plain log lines otherwise.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use crate::{Progress, RunResult};

/// Reports an experiment's progress on standard error: an indicatif progress bar when standard
/// error is a terminal, one plain line per finished run otherwise (for logs and CI).
#[derive(Debug)]
pub struct TerminalProgress {
    bar: Option<ProgressBar>,
    runs: u64,
    finished: Mutex<u64>,
}

impl TerminalProgress {
    /// Progress for an experiment of `runs` runs, drawn as a bar if standard error is a
    /// terminal.
    pub fn new(runs: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40.cyan/blue} {human_pos}/{human_len} steps  {rate}  ETA {eta}  {msg}",
            ) {
                bar.set_style(style.with_key(
                    "rate",
                    |state: &indicatif::ProgressState, writer: &mut dyn std::fmt::Write| {
                        let _ = writer.write_str(&rate(state.per_sec()));
                    },
                ));
            }
            bar
        });
        TerminalProgress {
            bar,
            runs,
            finished: Mutex::new(0),
        }
    }

    /// The runs finished so far, those resumed from disk included: after an interruption,
    /// the runs saved.
    pub fn finished_runs(&self) -> u64 {
        self.finished.lock().map_or(0, |finished| *finished)
    }

    fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => {
                let _ = writeln!(std::io::stderr(), "{text}");
            }
        }
    }
}

/// `value` with `places` decimals, never as a negative zero (`-0.0000` prints as `0.0000`).
pub(crate) fn fixed(value: f64, places: usize) -> String {
    let text = format!("{value:.places$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_owned()
    } else {
        text
    }
}

/// A rate of learning steps as the progress bar shows it: whole steps per second with
/// thousands separated (`12,345 steps/s`), never decimals.
pub(crate) fn rate(steps_per_second: f64) -> String {
    if !steps_per_second.is_finite() || steps_per_second < 0.0 {
        return "- steps/s".to_owned();
    }
    let digits = format!("{:.0}", steps_per_second);
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{grouped} steps/s")
}

impl Progress for TerminalProgress {
    fn start(&self, total_steps: u64, resumed: u64) {
        if resumed > 0 {
            self.line(&format!(
                "resuming: {resumed} of {} runs already finished",
                self.runs
            ));
        }
        if let Some(bar) = &self.bar {
            bar.set_length(total_steps);
        }
        if let Ok(mut finished) = self.finished.lock() {
            *finished = resumed;
        }
    }

    fn advance(&self, steps: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(steps);
        }
    }

    fn run_finished(&self, result: &RunResult) {
        let done = match self.finished.lock() {
            Ok(mut finished) => {
                *finished += 1;
                *finished
            }
            Err(_) => 0,
        };
        let last = result.checks.last().map_or(f64::NAN, |c| c.episode_return);
        let message = format!(
            "run {} finished ({done}/{} runs): final evaluation return {}",
            result.run,
            self.runs,
            fixed(last, 4)
        );
        match &self.bar {
            Some(bar) => bar.set_message(format!("{done}/{} runs", self.runs)),
            None => self.line(&message),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{fixed, rate};

    #[test]
    fn numbers_never_show_a_negative_zero() {
        assert_eq!(fixed(-0.00001, 4), "0.0000");
        assert_eq!(fixed(-0.0, 2), "0.00");
        assert_eq!(fixed(-0.5, 2), "-0.50");
        assert_eq!(fixed(0.25, 1), "0.2");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "-inf");
    }

    #[test]
    fn the_rate_is_whole_steps_per_second() {
        assert_eq!(rate(0.0), "0 steps/s");
        assert_eq!(rate(999.4999), "999 steps/s");
        assert_eq!(rate(1234.5678), "1,235 steps/s");
        assert_eq!(rate(12_345_678.9), "12,345,679 steps/s");
        assert_eq!(rate(f64::NAN), "- steps/s");
    }
}
