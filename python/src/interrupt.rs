//! Long calls run on a worker thread with the GIL released, while the calling thread wakes
//! every 50 ms to let Python handle signals: Ctrl-C stops a perft or a search instead of
//! hanging the interpreter until it ends.

use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Runs `work` without the GIL. On a Python signal (KeyboardInterrupt) it calls `stop`, waits
/// for `work` to return and raises the signal's exception.
pub fn run_interruptible<T: Send>(
    py: Python<'_>,
    stop: impl Fn(),
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        scope.spawn(move || {
            let _ = sender.send(work());
        });
        // Only this thread receives; the lock makes the receiver shareable with `detach`.
        let receiver = Mutex::new(receiver);
        let wait = |timeout: Option<Duration>| {
            let receiver = receiver
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match timeout {
                Some(timeout) => receiver.recv_timeout(timeout),
                None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
            }
        };
        loop {
            match py.detach(|| wait(Some(Duration::from_millis(50)))) {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        stop();
                        let _ = py.detach(|| wait(None));
                        return Err(signal);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the engine's worker thread failed"));
                }
            }
        }
    })
}
