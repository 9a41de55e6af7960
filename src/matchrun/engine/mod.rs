//! Engine processes: the `--engine` spec, the child process, the handshake, and a reader
//! thread that turns the engine's output into time-stamped lines on a channel, so that every
//! wait has a deadline and no engine can block the referee.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::clock::TimeControl;
use crate::variant::{Capture, Family, Sowing, Variant};

/// The process groups of the engines now running, so that a second Ctrl-C can kill them
/// (and their own children) before the match exits.
static LIVE_GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Kills a process group (an engine and everything it started).
fn kill_group(group: u32) {
    #[cfg(target_os = "linux")]
    if let Ok(group) = libc::pid_t::try_from(group)
        && group > 1
    {
        // SAFETY: killpg only sends a signal; a group that is gone gives ESRCH.
        unsafe {
            libc::killpg(group, libc::SIGKILL);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = group;
}

/// Kills every engine still running and its children (for an exit that cannot wait for
/// the games to end, such as a second Ctrl-C).
pub fn kill_all_engines() {
    let groups = match LIVE_GROUPS.lock() {
        Ok(groups) => groups.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    for group in groups {
        kill_group(group);
    }
}

fn forget_group(group: u32) {
    let mut groups = match LIVE_GROUPS.lock() {
        Ok(groups) => groups,
        Err(poisoned) => poisoned.into_inner(),
    };
    groups.retain(|&g| g != group);
}

/// How long an engine may take to answer `uci`/`ugi` with `uciok`/`ugiok`.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `isready` with `readyok`.
pub const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// Engine output lines longer than this are cut (the rest of the line is dropped).
pub const MAX_LINE_BYTES: usize = 1 << 16;
/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(25);

/// The dialect spoken to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI: `uci`, `ucinewgame`, `go wtime/btime/winc/binc`.
    Uci,
    /// UGI: `ugi`, `uginewgame`, `go p1time/p2time/p1inc/p2inc`.
    Ugi,
}

/// One `--engine` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `name=`.
    pub name: Option<String>,
    /// `dir=`: the working directory (a relative program path is taken from it).
    pub dir: Option<PathBuf>,
    /// `proto=`.
    pub proto: Proto,
    /// `option.<Name>=<value>`, in the order given.
    pub options: Vec<(String, String)>,
    /// `tc=` or `st=`: this engine's own clock (time odds), over the match's.
    pub time: Option<TimeControl>,
    /// `depth=`: this engine's own depth limit.
    pub depth: Option<u32>,
    /// `nodes=`: this engine's own node limit.
    pub nodes: Option<u64>,
    /// `timemargin=` (ms): how late this engine's moves may come and still count.
    pub timemargin: Option<u64>,
}

/// The keys an engine spec takes, for messages.
pub const SPEC_KEYS: &str =
    "cmd, name, dir, proto, tc, st, depth, nodes, timemargin or option.<Name>";

fn positive<T: std::str::FromStr + PartialOrd + Default>(
    key: &str,
    value: &str,
) -> Result<T, String> {
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|v| *v > T::default())
        .ok_or_else(|| format!("{key}={value}: expected a whole number above 0"))
}

/// Splits a line into words as a POSIX shell would, without expansions: white space
/// separates words, `'...'` is literal, `"..."` keeps everything but `\"`, `\\`, `\$` and
/// `` \` `` (which lose their backslash), and outside quotes a backslash escapes the next
/// character.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in {text}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in {text}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in {text}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("a lone \\ ends {text}")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl EngineSpec {
    /// Parses `cmd="<command line>" [name=N] [dir=D] [proto=uci|ugi] [option.<Name>=<value>]...`,
    /// split like a shell line.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        EngineSpec::from_pairs(&split_words(text)?)
    }

    /// Builds a spec from `key=value` words (a shell already split them).
    pub fn from_pairs(words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            command: Vec::new(),
            name: None,
            dir: None,
            proto: Proto::Uci,
            options: Vec::new(),
            time: None,
            depth: None,
            nodes: None,
            timemargin: None,
        };
        let mut have_cmd = false;
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                // The usual first try is the program alone (`--engine ./tuzdik`).
                let hint = if have_cmd {
                    String::new()
                } else if word.contains(char::is_whitespace) {
                    format!(" (to run it, write cmd=\"{word}\")")
                } else {
                    format!(" (to run it, write cmd={word})")
                };
                return Err(format!("'{word}' is not key=value{hint}"));
            };
            if let Some(option) = key.strip_prefix("option.") {
                if option.trim().is_empty() {
                    return Err(format!("'{word}': the option has no name"));
                }
                spec.options
                    .push((option.trim().to_string(), value.to_string()));
                continue;
            }
            match key {
                "cmd" => {
                    spec.command = split_words(value).map_err(|e| format!("cmd: {e}"))?;
                    if spec.command.is_empty() {
                        return Err("cmd= is empty".to_string());
                    }
                    have_cmd = true;
                }
                "name" => {
                    if value.trim().is_empty() {
                        return Err("name= is empty".to_string());
                    }
                    spec.name = Some(value.trim().to_string());
                }
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.proto = match value.to_ascii_lowercase().as_str() {
                        "uci" => Proto::Uci,
                        "ugi" => Proto::Ugi,
                        _ => return Err(format!("proto={value}: expected uci or ugi")),
                    }
                }
                "tc" => {
                    spec.time = Some(
                        super::clock::parse_tc(value).map_err(|e| format!("tc={value}: {e}"))?,
                    )
                }
                "st" => {
                    let seconds: f64 = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
                        .ok_or_else(|| format!("st={value}: expected seconds per move above 0"))?;
                    spec.time = Some(TimeControl::MoveTime(
                        ((seconds * 1000.0).round() as u64).max(1),
                    ));
                }
                "depth" => spec.depth = Some(positive("depth", value)?),
                "nodes" => spec.nodes = Some(positive("nodes", value)?),
                "timemargin" => {
                    spec.timemargin = Some(value.trim().parse().map_err(|_| {
                        format!("timemargin={value}: expected milliseconds (a whole number)")
                    })?)
                }
                _ => {
                    return Err(format!("unknown key '{key}' (expected {SPEC_KEYS})"));
                }
            }
        }
        if !have_cmd {
            return Err("cmd=\"<command line>\" is missing".to_string());
        }
        Ok(spec)
    }

    /// The program to run: a relative path with a `/` is taken from `dir` when there is one.
    pub fn program(&self) -> PathBuf {
        let program = Path::new(&self.command[0]);
        match &self.dir {
            Some(dir) if program.is_relative() && self.command[0].contains('/') => {
                dir.join(program)
            }
            _ => program.to_path_buf(),
        }
    }

    /// A name for the engine when neither `name=` nor `id name` gives one.
    pub fn fallback_name(&self) -> String {
        Path::new(&self.command[0])
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.command[0].clone())
    }
}

/// What the reader thread sends.
enum Event {
    Line(Instant, String),
    Eof,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process could not be started.
    Start(String),
    /// The process died or closed its pipes.
    Crashed(String),
    /// No expected answer before the deadline.
    Silent {
        /// What was being waited for.
        waiting_for: &'static str,
        /// How long it waited.
        waited: Duration,
    },
    /// The match was stopped while waiting.
    Stopped,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Start(why) => write!(f, "could not start: {why}"),
            Failure::Crashed(why) => write!(f, "crashed ({why})"),
            Failure::Silent {
                waiting_for,
                waited,
            } => write!(f, "no {waiting_for} within {:.1} s", waited.as_secs_f64()),
            Failure::Stopped => f.write_str("the match was stopped"),
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move text after `bestmove` (`None` for a bare `bestmove`).
    pub text: Option<String>,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The score of the last `info ... score` line, as `+0.52` or `+M3` (the engine's view).
    pub score: Option<String>,
    /// The depth of the last `info ... depth` line.
    pub depth: Option<u32>,
    /// The same score as a number for adjudication: centipawns, a mate as
    /// ±([`MATE_SCORE`](super::adjudicate::MATE_SCORE) − moves).
    pub score_cp: Option<i64>,
}

/// A running engine.
pub struct Engine {
    label: String,
    proto: Proto,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    reader: Option<JoinHandle<()>>,
    debug: bool,
    /// `id name` from the handshake.
    pub id_name: Option<String>,
    /// `info string error` lines seen during the handshake (options the engine refused).
    pub warnings: Vec<String>,
}

/// Reads lines of at most [`MAX_LINE_BYTES`] (longer ones are cut); `None` at end of input.
fn read_line_bounded(reader: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let mut saw_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => &[],
        };
        if available.is_empty() {
            return saw_any.then(|| finish_line(line));
        }
        saw_any = true;
        let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..end], end + 1, true),
            None => (available, available.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if done {
            return Some(finish_line(line));
        }
    }
}

fn finish_line(bytes: Vec<u8>) -> String {
    let text = String::from_utf8_lossy(&bytes);
    text.trim_end_matches(['\r', '\n']).to_string()
}

fn read_lines(output: impl Read, sender: SyncSender<Event>) {
    let mut reader = BufReader::new(output);
    while let Some(line) = read_line_bounded(&mut reader) {
        if sender.send(Event::Line(Instant::now(), line)).is_err() {
            return;
        }
    }
    let _ = sender.send(Event::Eof);
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Reads `score` and `depth` from an `info` line.
fn parse_info(line: &str, score: &mut Option<String>, depth: &mut Option<u32>) -> Option<i64> {
    let mut value = None;
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        match *word {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|d| d.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => match (
                words.get(i + 1),
                words.get(i + 2).and_then(|v| v.parse::<i64>().ok()),
            ) {
                (Some(&"cp"), Some(cp)) => {
                    let sign = if cp < 0 { "-" } else { "+" };
                    *score = Some(format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100));
                    value = Some(cp);
                }
                (Some(&"mate"), Some(m)) => {
                    let sign = if m < 0 { "-" } else { "+" };
                    *score = Some(format!("{sign}M{}", m.abs()));
                    let distance = m.unsigned_abs().min(1000) as i64;
                    let magnitude = super::adjudicate::MATE_SCORE - distance;
                    value = Some(if m < 0 { -magnitude } else { magnitude });
                }
                _ => {}
            },
            _ => {}
        }
    }
    value
}

/// Describes how a process ended.
fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        format!("exit status {code}")
    } else if let Some(signal) = status.signal() {
        format!("killed by signal {signal}")
    } else {
        status.to_string()
    }
}

impl Engine {
    /// Starts the engine and completes the handshake: `uci`/`ugi`, the rule options for
    /// `variant` (only those that differ from Toguz Kumalak's defaults), the spec's options,
    /// then `isready`.
    pub fn start(
        spec: &EngineSpec,
        label: &str,
        variant: Variant,
        debug: bool,
        stop: &AtomicBool,
    ) -> Result<Engine, Failure> {
        let program = spec.program();
        let mut command = Command::new(&program);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // Its own process group: Ctrl-C at the terminal reaches the match, not the
            // engines, so the match can end its games cleanly.
            .process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe; it only asks the kernel to kill the engine
        // should the match die without cleaning up (SIGKILL, a crash).
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Failure::Start(format!("cannot run '{}': {e}", program.display())))?;
        match LIVE_GROUPS.lock() {
            Ok(mut groups) => groups.push(child.id()),
            Err(poisoned) => poisoned.into_inner().push(child.id()),
        }
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            forget_group(child.id());
            return Err(Failure::Start("no pipe to the engine's output".to_string()));
        };
        let (sender, lines) = sync_channel(4096);
        let reader = std::thread::Builder::new()
            .name(format!("{label}-reader"))
            .spawn(move || read_lines(stdout, sender))
            .map_err(|e| Failure::Start(format!("cannot start a reader thread: {e}")));
        let reader = match reader {
            Ok(handle) => handle,
            Err(e) => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                forget_group(child.id());
                return Err(e);
            }
        };
        let mut engine = Engine {
            label: label.to_string(),
            proto: spec.proto,
            child,
            stdin,
            lines,
            reader: Some(reader),
            debug,
            id_name: None,
            warnings: Vec::new(),
        };
        engine.handshake(spec, variant, stop)?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        spec: &EngineSpec,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<(), Failure> {
        let (hello, ok) = match self.proto {
            Proto::Uci => ("uci", "uciok"),
            Proto::Ugi => ("ugi", "ugiok"),
        };
        self.send(hello)?;
        let deadline = Instant::now() + START_TIMEOUT;
        let mut id_name = None;
        self.wait_for(ok, deadline, stop, |line| {
            if let Some(name) = line.trim().strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            }
        })?;
        self.id_name = id_name;
        let mut options: Vec<(String, String)> = Vec::new();
        if variant.family() != Family::Togyz {
            options.push(("UCI_Variant".into(), variant.family().name().into()));
        }
        if variant.tuzdik() != variant.family().tuzdik_by_default() {
            options.push(("Tuzdik".into(), variant.tuzdik().to_string()));
        }
        if variant.sowing() != Sowing::Standard {
            options.push(("Sowing".into(), variant.sowing().name().into()));
        }
        if variant.capture() != Capture::Standard {
            options.push(("Capture".into(), variant.capture().name().into()));
        }
        if variant.mangala_move() != crate::MangalaMove::Leftmost {
            options.push(("Mangala".into(), variant.mangala_move().name().into()));
        }
        options.extend(spec.options.iter().cloned());
        for (name, value) in &options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        let mut warnings = Vec::new();
        self.ready(stop, |line| {
            if line.trim_start().starts_with("info string error") {
                warnings.push(line.trim().to_string());
            }
        })?;
        self.warnings = warnings;
        Ok(())
    }

    /// `isready`, waiting for `readyok`.
    fn ready(&mut self, stop: &AtomicBool, observe: impl FnMut(&str)) -> Result<(), Failure> {
        self.send("isready")?;
        let deadline = Instant::now() + READY_TIMEOUT;
        self.wait_for("readyok", deadline, stop, observe)
            .map(|_| ())
    }

    /// `ucinewgame`/`uginewgame` then `isready`.
    pub fn new_game(&mut self, stop: &AtomicBool) -> Result<(), Failure> {
        self.send(match self.proto {
            Proto::Uci => "ucinewgame",
            Proto::Ugi => "uginewgame",
        })?;
        self.ready(stop, |_| {})
    }

    /// The dialect.
    pub fn proto(&self) -> Proto {
        self.proto
    }

    /// Writes one line; returns when it was flushed.
    pub fn send(&mut self, line: &str) -> Result<Instant, Failure> {
        if self.debug {
            eprintln!("{} > {line}", self.label);
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|_| stdin.write_all(b"\n"))
                .and_then(|_| stdin.flush()),
            None => Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        };
        match written {
            Ok(()) => Ok(Instant::now()),
            Err(_) => {
                self.stdin = None;
                Err(Failure::Crashed(self.exit_reason()))
            }
        }
    }

    /// Why the process is gone: its exit status if it exits within a moment.
    fn exit_reason(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return "it closed its output".to_string(),
            }
        }
    }

    /// Waits for a line whose first word is `word`; every other line goes to `observe`.
    fn wait_for(
        &mut self,
        word: &'static str,
        deadline: Instant,
        stop: &AtomicBool,
        mut observe: impl FnMut(&str),
    ) -> Result<(Instant, String), Failure> {
        let started = Instant::now();
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Silent {
                    waiting_for: word,
                    waited: now - started,
                });
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Line(at, line)) => {
                    if self.debug {
                        eprintln!("{} < {line}", self.label);
                    }
                    if first_word(&line) == word {
                        return Ok((at, line));
                    }
                    observe(&line);
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crashed(self.exit_reason()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Drops output left from earlier (a late `bestmove`, stray lines).
    fn drain(&mut self) -> Result<(), Failure> {
        loop {
            match self.lines.try_recv() {
                Ok(Event::Line(_, line)) => {
                    if self.debug {
                        eprintln!("{} < {line} (ignored)", self.label);
                    }
                }
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => {
                    return Err(Failure::Crashed(self.exit_reason()));
                }
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Sends the position and `go`, and waits up to `allowed` for `bestmove`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
        stop: &AtomicBool,
    ) -> Result<Reply, Failure> {
        self.drain()?;
        self.send(position)?;
        let started = self.send(go)?;
        let mut score = None;
        let mut depth = None;
        let mut score_cp = None;
        // A millisecond more than allowed, so that an answer just too late is a time loss
        // (judged by the clock) rather than silence.
        let deadline = started + allowed + Duration::from_millis(1);
        let (at, line) = self.wait_for("bestmove", deadline, stop, |line| {
            if first_word(line) == "info"
                && let Some(value) = parse_info(line, &mut score, &mut depth)
            {
                score_cp = Some(value);
            }
        })?;
        Ok(Reply {
            text: line.split_whitespace().nth(1).map(str::to_string),
            elapsed: at.saturating_duration_since(started),
            score,
            depth,
            score_cp,
        })
    }

    /// Sends `quit` and gives the engine a moment to exit before killing it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                // Drop kills what the engine left behind in its group.
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        // The whole group: the engine and any process it started (helpers, wrappers'
        // children), whether or not the engine itself has exited.
        kill_group(self.child.id());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        forget_group(self.child.id());
        // The reader ends at the pipe's end of file now that the process is gone (unless
        // a grandchild keeps the pipe open: then it is left to end by itself).
        if let Some(reader) = self.reader.take()
            && reader.is_finished()
        {
            let _ = reader.join();
        }
    }
}

#[cfg(test)]
mod tests;
