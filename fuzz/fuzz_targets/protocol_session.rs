//! Bytes fed line by line to a protocol session, as the input thread does (lossy UTF-8):
//! no panic, and the session ends cleanly. Options that allocate or read files by the
//! gigabyte (`Hash`, `Threads`, `TablePath`) are left out: they test the machine.
#![no_main]

use std::io::Write;
use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use tuzdik::protocol::{Output, Session};

/// Keeps the first 64 KiB of output; the rest is dropped.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let mut kept = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if kept.len() < 1 << 16 {
            kept.extend_from_slice(data);
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let sink = Sink::default();
    let mut session = Session::new(Output::new(sink.clone()));
    for line in data.split(|&b| b == b'\n').take(64) {
        let line = String::from_utf8_lossy(line);
        let lower = line.to_ascii_lowercase();
        if ["hash", "threads", "tablepath"].iter().any(|name| lower.contains(name)) {
            continue;
        }
        if !session.handle_line(line.trim_end_matches('\r')) {
            return;
        }
    }
    session.handle_line("stop");
    session.finish();
});
