//! The progress bar of workspace mode: functions analysed out of those known so far, and the
//! unit (crate) being checked. Shown only when the output is for a person: human format and a
//! terminal on stderr. Otherwise (JSON lines, CI logs, pipes) the bar is hidden and stderr gets
//! exactly the plain progress lines it always had.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether to draw a bar: only for human output on a terminal.
pub fn bar_wanted(human_format: bool, stderr_is_terminal: bool) -> bool {
    human_format && stderr_is_terminal
}

/// The bar (hidden when not wanted); cheap to clone into worker closures.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    visible: bool,
}

impl Progress {
    pub fn new(visible: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(0), if visible { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() });
        if let Ok(style) = ProgressStyle::with_template("   termcheck [{bar:30}] {pos}/{len} functions  {msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar, visible }
    }

    /// A plain progress line ("   termcheck TEXT"), printed above the bar when there is one.
    pub fn line(&self, text: &str) {
        let line = format!("   termcheck {text}");
        if self.visible {
            self.bar.println(line);
        } else {
            #[allow(clippy::print_stderr, reason = "the CLI reports its progress on stderr, like cargo")]
            {
                eprintln!("{line}");
            }
        }
    }

    /// A unit starts: its label and its number of functions to check.
    pub fn start_unit(&self, label: &str, functions: usize) {
        self.bar.inc_length(functions as u64);
        self.bar.set_message(label.to_string());
    }

    /// One function's report is known.
    pub fn function_done(&self) {
        self.bar.inc(1);
    }

    /// Removes the bar before the report is printed.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_is_drawn_only_for_human_output_on_a_terminal() {
        assert!(bar_wanted(true, true));
        assert!(!bar_wanted(false, true), "JSON lines never get a bar");
        assert!(!bar_wanted(true, false), "a pipe or CI log never gets a bar");
    }

    #[test]
    fn a_hidden_bar_still_counts() {
        let progress = Progress::new(false);
        progress.start_unit("a lib `a`", 2);
        progress.function_done();
        assert_eq!((progress.bar.position(), progress.bar.length()), (1, Some(2)));
        progress.finish();
    }
}
