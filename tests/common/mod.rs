//! The real binary driven through its stdin and stdout, for the integration tests that talk
//! the protocol (each test crate uses the part it needs).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long [`Engine::sync`] waits for `readyok`.
pub const SYNC_TIMEOUT: Duration = Duration::from_secs(30);

/// A protocol session driven line by line, reading the answers as they come. A session
/// still running when it is dropped (a test that failed half-way) is killed.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

/// The binary with no arguments (the protocol), stdin, stdout and stderr piped.
fn spawn() -> Child {
    Command::new(env!("CARGO_BIN_EXE_tuzdik"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tuzdik")
}

/// Fails if `stderr` shows a panic.
pub fn assert_no_panic(stderr: &str) {
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "the binary panicked:\n{stderr}"
    );
}

/// Reads `source` to its end on a thread of its own, so that a full pipe never blocks the
/// child.
pub fn collect_output(mut source: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = source.read_to_end(&mut bytes);
        bytes
    })
}

/// Waits for `child` at most `timeout`; kills it (and fails) if it does not exit in time.
pub fn wait_or_kill(child: &mut Child, timeout: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{what}: no exit within {timeout:?} (killed)");
            }
            Err(error) => panic!("{what}: {error}"),
        }
    }
}

/// Runs the binary with `args`, feeding `input` on stdin and then closing it; fails if it
/// does not exit within `timeout` or panics. Returns its exit status, stdout and stderr.
pub fn run_binary(args: &[&str], input: &[u8], timeout: Duration) -> (ExitStatus, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuzdik"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // The engine may stop reading (quit), so a broken pipe is not an error here.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = collect_output(child.stdout.take().unwrap());
    let stderr = collect_output(child.stderr.take().unwrap());
    let status = wait_or_kill(&mut child, timeout, &format!("tuzdik {args:?}"));
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&stdout.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap()).into_owned();
    assert_no_panic(&stderr);
    (status, stdout, stderr)
}

/// Feeds `script` to a fresh engine, closes its input and returns every line it printed;
/// the engine must exit successfully.
pub fn run_script(script: &str) -> Vec<String> {
    let mut child = spawn();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = spawn();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let stderr = Some(collect_output(child.stderr.take().unwrap()));
        Engine {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("sending '{line}': {e}"));
    }

    /// Reads lines until one satisfies `wanted`, and returns the lines read up to and
    /// including it. Fails after `timeout`.
    pub fn read_until(&mut self, wanted: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = wanted(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no wanted line within {timeout:?}; got {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output; got {seen:#?}")
                }
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.read_until(|line| line.starts_with(prefix), timeout)
    }

    /// Sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.read_until(|line| line == "readyok", SYNC_TIMEOUT);
        got.pop();
        got
    }

    /// Whatever arrives within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            seen.push(line);
        }
        seen
    }

    /// Closes stdin, waits for the exit, and returns it with the remaining output; fails if
    /// the engine panicked.
    pub fn finish(mut self, timeout: Duration) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let status = wait_or_kill(&mut self.child, timeout, "protocol session");
        let rest: Vec<String> = self.lines.iter().collect();
        let stderr = self.stderr.take().unwrap().join().unwrap();
        assert_no_panic(&String::from_utf8_lossy(&stderr));
        (status, rest)
    }

    /// Sends `quit`; the engine must exit successfully within 10 s.
    pub fn quit(mut self) {
        self.send("quit");
        let (status, _) = self.finish(Duration::from_secs(10));
        assert!(status.success(), "exit status {status}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Only a session that failed half-way is still running here.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The last line of `lines` that `wanted` accepts; fails, showing `lines`, if there is none.
pub fn last_line(lines: &[String], wanted: impl Fn(&str) -> bool) -> &str {
    lines
        .iter()
        .rev()
        .find(|line| wanted(line))
        .unwrap_or_else(|| panic!("no such line in {lines:#?}"))
}

/// The search's last `info depth` line: its final report before `bestmove`.
pub fn last_info(lines: &[String]) -> &str {
    last_line(lines, |line| line.starts_with("info depth"))
}

/// The word after `name` in a line of words.
pub fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        if word == name {
            return words.next();
        }
    }
    None
}
