//! How far the analysis is: a bar on a terminal, plain lines elsewhere. Both go to stderr, so
//! that the outputs on stdout stay clean.

use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    started: Instant,
}

impl Progress {
    /// Progress over `total` positions: a bar when `terminal`, plain lines otherwise.
    pub(crate) fn new(total: u64, terminal: bool) -> Progress {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:24} {pos}/{len} positions, {msg}, {elapsed} gone, {eta} left",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            total,
            done: 0,
            started: Instant::now(),
        }
    }

    pub(crate) fn start_game(&mut self, number: usize, games: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("game {number}/{games}"));
        }
    }

    /// One more position searched.
    pub(crate) fn tick(&mut self) {
        self.done += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// A line for the person watching (above the bar on a terminal), with the positions done
    /// so far when there is no bar.
    pub(crate) fn say(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!(
                "{text} [{}/{} positions, {:.0} s]",
                self.done,
                self.total,
                self.started.elapsed().as_secs_f64()
            ),
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
