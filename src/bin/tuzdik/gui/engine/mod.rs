//! The page's engine, driven only through the protocol, as any third-party GUI would drive it:
//! `uci`, `setoption`, `isready`, `position`, `go`, `stop`, `quit`. Whatever the engine does
//! (crashes, refuses a command, answers an illegal move or nothing at all) becomes an event
//! the page shows; nothing it writes can crash the server.
//!
//! One [`Session`] per browser tab owns one engine process, started on first use and started
//! again after a crash. A reader thread turns the engine's lines into events as they come; the
//! page fetches them by long polling ([`Session::events_since`]).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use tuzdik::{Family, Game, Variant};

use super::json::{Object, array, quote};
use super::rules::notation;

/// How long the engine may take before the page is told it does not answer.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For `uciok` after `uci`, and `readyok` after `isready`.
    pub handshake: Duration,
    /// Beyond a timed search's `movetime`, and for the `bestmove` after `stop`.
    pub answer: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            answer: Duration::from_secs(5),
        }
    }
}

/// An option the engine declared in its `uci` answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name, as the engine spells it.
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: String,
    /// The default value, when given.
    pub default: Option<String>,
    /// A spin's range.
    pub min: Option<i64>,
    /// A spin's range.
    pub max: Option<i64>,
    /// A combo's values.
    pub values: Vec<String>,
}

impl EngineOption {
    /// Reads `option name <name> type <kind> [default <d>] [min <m>] [max <m>] [var <v>]...`.
    pub fn parse(line: &str) -> Option<EngineOption> {
        let rest = line.strip_prefix("option")?;
        let words: Vec<&str> = rest.split_whitespace().collect();
        let keywords = ["name", "type", "default", "min", "max", "var"];
        let mut option = EngineOption::default();
        let mut index = 0;
        while index < words.len() {
            let key = words[index];
            let end = words[index + 1..]
                .iter()
                .position(|w| keywords.contains(w))
                .map_or(words.len(), |offset| index + 1 + offset);
            let value = words[index + 1..end].join(" ");
            match key {
                "name" => option.name = value,
                "type" => option.kind = value,
                "default" => option.default = Some(value),
                "min" => option.min = value.parse().ok(),
                "max" => option.max = value.parse().ok(),
                "var" => option.values.push(value),
                _ => {}
            }
            index = end;
        }
        (!option.name.is_empty()).then_some(option)
    }

    fn json(&self) -> String {
        let mut object = Object::new()
            .string("name", &self.name)
            .string("type", &self.kind);
        if let Some(default) = &self.default {
            object = object.string("default", default);
        }
        if let Some(min) = self.min {
            object = object.raw("min", min);
        }
        if let Some(max) = self.max {
            object = object.raw("max", max);
        }
        object
            .raw("values", array(self.values.iter().map(|v| quote(v))))
            .finish()
    }
}

/// What the page asks the engine to search.
pub struct SearchRequest {
    /// The game up to the position to search (the engine sees its history, for repetition).
    pub game: Game,
    /// A timed search, or `None` for an analysis that runs until stopped.
    pub movetime: Option<u64>,
    /// Options to set first (`MultiPV`, a level), each only if the engine declared it.
    pub options: Vec<(String, String)>,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
}

/// The search the engine is running: its `info` and `bestmove` lines are read against it.
struct Search {
    id: u64,
    game: Game,
}

#[derive(Default)]
struct State {
    /// Events in order, each with its sequence number; the oldest are dropped past a limit.
    events: VecDeque<(u64, String)>,
    next_event: u64,
    process: Option<Process>,
    /// Counts engine starts: a reader thread of an earlier process is ignored.
    generation: u64,
    name: String,
    options: Vec<EngineOption>,
    started: bool,
    uciok: bool,
    readyok: u64,
    /// `info string error` lines seen so far, and the last one.
    refusals: u64,
    last_refusal: String,
    search: Option<Search>,
    next_search: u64,
    /// The variant and option values the engine has been given.
    sent_variant: Option<Variant>,
    sent_options: Vec<(String, String)>,
    stderr_tail: VecDeque<String>,
    last_seen: Option<Instant>,
}

const KEPT_EVENTS: usize = 2000;

/// One tab's engine.
pub struct Session {
    command: Vec<String>,
    timeouts: Timeouts,
    state: Mutex<State>,
    changed: Condvar,
    /// Held through each command sequence (start, configure, go, stop), so that two requests
    /// of one tab never interleave their lines.
    commands: Mutex<()>,
}

impl Session {
    /// A session that will run `command` (program and arguments) when first needed.
    pub fn new(command: Vec<String>, timeouts: Timeouts) -> Arc<Session> {
        Arc::new(Session {
            command,
            timeouts,
            state: Mutex::new(State {
                last_seen: Some(Instant::now()),
                ..State::default()
            }),
            changed: Condvar::new(),
            commands: Mutex::new(()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn push_event(state: &mut State, event: String) {
        let seq = state.next_event;
        state.next_event += 1;
        state.events.push_back((seq, event));
        while state.events.len() > KEPT_EVENTS {
            state.events.pop_front();
        }
    }

    fn error_event(state: &mut State, search: Option<u64>, message: &str) {
        let mut object = Object::new()
            .string("type", "error")
            .string("message", message);
        if let Some(id) = search {
            object = object.raw("search", id);
        }
        Session::push_event(state, object.finish());
    }

    /// The events after `since` (all kept ones if `since` is older), waiting up to `wait` for
    /// one to come; with the next sequence number to ask from. A `since` beyond the last
    /// event comes from a page whose earlier session was ended (an idle tab woken up): it
    /// gets this session's events from the first.
    pub fn events_since(&self, since: u64, wait: Duration) -> (Vec<String>, u64) {
        let deadline = Instant::now() + wait;
        let mut state = self.lock();
        let since = if since > state.next_event { 0 } else { since };
        loop {
            state.last_seen = Some(Instant::now());
            let events: Vec<String> = state
                .events
                .iter()
                .filter(|(seq, _)| *seq >= since)
                .map(|(_, event)| event.clone())
                .collect();
            let now = Instant::now();
            if !events.is_empty() || now >= deadline {
                return (events, state.next_event);
            }
            state = self
                .changed
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
    }

    /// The sequence number the next event will have.
    pub fn next_event(&self) -> u64 {
        self.lock().next_event
    }

    /// When the page last asked for events.
    pub fn last_seen(&self) -> Option<Instant> {
        self.lock().last_seen
    }

    /// Starts the engine if it is not running and answers its name and options.
    pub fn start(self: &Arc<Self>) -> Result<String, String> {
        let _commands = self.commands.lock().unwrap_or_else(|p| p.into_inner());
        let state = self.lock();
        let state = self.ensure_started(state)?;
        Ok(identity_json(&state))
    }

    /// Starts a search; answers its id, which its `info`, `bestmove` and error events carry.
    pub fn search(self: &Arc<Self>, request: SearchRequest) -> Result<u64, String> {
        if let Some(end) = request.game.termination() {
            return Err(format!("the game is over ({})", end.describe()));
        }
        let _commands = self.commands.lock().unwrap_or_else(|p| p.into_inner());
        let mut state = self.lock();
        state = self.ensure_started(state)?;
        state = self.stop_locked(state)?;
        let mut lines = variant_commands(&state, request.game.variant())?;
        let mut options = request.options;
        // An engine that can report win/draw/loss chances is asked to: the page shows them.
        if find_option(&state.options, "UCI_ShowWDL").is_some()
            && !options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("UCI_ShowWDL"))
        {
            options.push(("UCI_ShowWDL".to_string(), "true".to_string()));
        }
        for (name, value) in &options {
            let Some(option) = find_option(&state.options, name) else {
                continue;
            };
            let already = state
                .sent_options
                .iter()
                .any(|(n, v)| n.eq_ignore_ascii_case(name) && v == value);
            if !already {
                lines.push(format!("setoption name {} value {value}", option.name));
            }
        }
        lines.push(format!("position {}", position_command(&request.game)));
        let refusals = state.refusals;
        for line in &lines {
            state = self.write(state, line)?;
        }
        state = self.wait_ready(state)?;
        if state.refusals != refusals {
            state.sent_variant = None;
            state.sent_options.clear();
            return Err(format!("the engine refused: {}", state.last_refusal));
        }
        state.sent_variant = Some(request.game.variant());
        for (name, value) in options {
            state
                .sent_options
                .retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
            state.sent_options.push((name, value));
        }
        let go = match request.movetime {
            Some(ms) => format!("go movetime {ms}"),
            None => "go infinite".to_string(),
        };
        state = self.write(state, &go)?;
        state.next_search += 1;
        let id = state.next_search;
        state.search = Some(Search {
            id,
            game: request.game,
        });
        if let Some(ms) = request.movetime {
            let session = Arc::clone(self);
            let generation = state.generation;
            let limit = Duration::from_millis(ms) + self.timeouts.answer;
            thread::spawn(move || {
                thread::sleep(limit);
                session.expire(generation, id, &go, limit);
            });
        }
        Ok(id)
    }

    /// Stops the running search, if any; its `bestmove` still comes as an event.
    pub fn stop(self: &Arc<Self>) -> Result<(), String> {
        let _commands = self.commands.lock().unwrap_or_else(|p| p.into_inner());
        let state = self.lock();
        self.stop_locked(state).map(|_| ())
    }

    /// Ends the engine: `quit`, then a kill if it is still there a moment later.
    pub fn shutdown(&self) {
        let mut state = self.lock();
        state.generation += 1;
        state.search = None;
        state.started = false;
        if let Some(mut process) = state.process.take() {
            let _ = writeln!(process.stdin, "quit");
            let _ = process.stdin.flush();
            drop(state);
            thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_millis(500);
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = process.child.try_wait() {
                        return;
                    }
                    thread::sleep(Duration::from_millis(20));
                }
                let _ = process.child.kill();
                let _ = process.child.wait();
            });
        }
    }

    fn ensure_started<'a>(
        self: &Arc<Self>,
        mut state: MutexGuard<'a, State>,
    ) -> Result<MutexGuard<'a, State>, String> {
        if state.process.is_some() && state.started {
            return Ok(state);
        }
        let Some((program, args)) = self.command.split_first() else {
            return Err("no engine command".to_string());
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!(
                    "could not start the engine '{}': {e}",
                    self.command.join(" ")
                )
            })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err("the engine's pipes could not be opened".to_string());
        };
        state.generation += 1;
        let generation = state.generation;
        state.process = Some(Process { child, stdin });
        state.uciok = false;
        state.name.clear();
        state.options.clear();
        state.sent_variant = None;
        state.sent_options.clear();
        state.stderr_tail.clear();
        let session = Arc::clone(self);
        thread::spawn(move || session.read_output(generation, stdout));
        let session = Arc::clone(self);
        thread::spawn(move || session.read_errors(generation, stderr));
        state = self.write(state, "uci")?;
        let deadline = Instant::now() + self.timeouts.handshake;
        state = self.wait_until(state, deadline, |s| s.uciok || s.generation != generation);
        if state.generation != generation || state.process.is_none() {
            return Err(format!(
                "the engine stopped while starting{}",
                stderr_note(&state)
            ));
        }
        if !state.uciok {
            self.kill_locked(&mut state);
            return Err(format!(
                "the engine did not answer 'uci' within {} s; it was stopped",
                self.timeouts.handshake.as_secs_f64()
            ));
        }
        state = self.wait_ready(state)?;
        state.started = true;
        let identity = identity_json(&state);
        let event = Object::new()
            .string("type", "engine")
            .raw("engine", identity)
            .finish();
        Session::push_event(&mut state, event);
        self.changed.notify_all();
        Ok(state)
    }

    fn wait_until<'a>(
        &self,
        mut state: MutexGuard<'a, State>,
        deadline: Instant,
        done: impl Fn(&State) -> bool,
    ) -> MutexGuard<'a, State> {
        while !done(&state) {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            state = self
                .changed
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        state
    }

    fn wait_ready<'a>(
        &self,
        mut state: MutexGuard<'a, State>,
    ) -> Result<MutexGuard<'a, State>, String> {
        let generation = state.generation;
        let target = state.readyok + 1;
        state = self.write(state, "isready")?;
        let deadline = Instant::now() + self.timeouts.handshake;
        state = self.wait_until(state, deadline, |s| {
            s.readyok >= target || s.generation != generation
        });
        if state.generation != generation {
            return Err(format!("the engine stopped{}", stderr_note(&state)));
        }
        if state.readyok < target {
            self.kill_locked(&mut state);
            return Err(format!(
                "the engine did not answer 'isready' within {} s; it was stopped",
                self.timeouts.handshake.as_secs_f64()
            ));
        }
        Ok(state)
    }

    fn stop_locked<'a>(
        &self,
        mut state: MutexGuard<'a, State>,
    ) -> Result<MutexGuard<'a, State>, String> {
        let Some(id) = state.search.as_ref().map(|s| s.id) else {
            return Ok(state);
        };
        state = self.write(state, "stop")?;
        let deadline = Instant::now() + self.timeouts.answer;
        state = self.wait_until(state, deadline, |s| {
            s.search.as_ref().is_none_or(|search| search.id != id)
        });
        if state.search.as_ref().is_some_and(|search| search.id == id) {
            let message = format!(
                "the engine did not answer 'stop' within {} s; it was stopped and will be started again",
                self.timeouts.answer.as_secs_f64()
            );
            Session::error_event(&mut state, Some(id), &message);
            self.kill_locked(&mut state);
            return Err(message);
        }
        Ok(state)
    }

    fn write<'a>(
        &self,
        mut state: MutexGuard<'a, State>,
        line: &str,
    ) -> Result<MutexGuard<'a, State>, String> {
        let Some(process) = state.process.as_mut() else {
            return Err(format!("the engine is not running{}", stderr_note(&state)));
        };
        let written = writeln!(process.stdin, "{line}").and_then(|()| process.stdin.flush());
        if let Err(e) = written {
            // The engine has gone: its error output and exit status, given a moment to come
            // in, say why.
            let deadline = Instant::now() + Duration::from_millis(100);
            state = self.wait_until(state, deadline, |_| false);
            let status = state
                .process
                .as_mut()
                .and_then(|process| process.child.try_wait().ok().flatten())
                .map_or_else(String::new, |status| format!(" ({status})"));
            let message = format!(
                "the engine stopped{status}: could not send '{line}' to it: {e}{}",
                stderr_note(&state)
            );
            self.kill_locked(&mut state);
            return Err(message);
        }
        Ok(state)
    }

    fn kill_locked(&self, state: &mut State) {
        state.generation += 1;
        state.started = false;
        state.search = None;
        if let Some(mut process) = state.process.take() {
            let _ = process.child.kill();
            let _ = process.child.wait();
        }
        self.changed.notify_all();
    }

    /// A timed search whose `bestmove` is overdue: the page is told and the engine restarted
    /// on next use.
    fn expire(&self, generation: u64, id: u64, go: &str, limit: Duration) {
        let mut state = self.lock();
        let pending = state.generation == generation
            && state.search.as_ref().is_some_and(|search| search.id == id);
        if pending {
            let message = format!(
                "the engine did not answer '{go}' within {:.1} s; it was stopped and will be started again",
                limit.as_secs_f64()
            );
            Session::error_event(&mut state, Some(id), &message);
            self.kill_locked(&mut state);
        }
    }

    fn read_output(self: Arc<Self>, generation: u64, stdout: impl Read) {
        for_each_line(stdout, |line| {
            let mut state = self.lock();
            if state.generation != generation {
                return false;
            }
            handle_line(&mut state, line.trim());
            self.changed.notify_all();
            true
        });
        // Let the error output of a crash come in first: it goes into the message.
        thread::sleep(Duration::from_millis(100));
        let mut state = self.lock();
        if state.generation != generation {
            return;
        }
        let status = state.process.as_mut().map(|process| {
            // The pipe closed; give the process a moment to be reaped for its status.
            for _ in 0..50 {
                if let Ok(Some(status)) = process.child.try_wait() {
                    return status.to_string();
                }
                thread::sleep(Duration::from_millis(10));
            }
            let _ = process.child.kill();
            "closed its output".to_string()
        });
        let search = state.search.as_ref().map(|s| s.id);
        let message = format!(
            "the engine stopped ({}){}; it will be started again on the next request",
            status.unwrap_or_else(|| "gone".to_string()),
            stderr_note(&state)
        );
        state.process = None;
        state.generation += 1;
        state.started = false;
        state.search = None;
        Session::error_event(&mut state, search, &message);
        self.changed.notify_all();
    }

    fn read_errors(self: Arc<Self>, generation: u64, stderr: impl Read) {
        // Read to the end, so that the engine never blocks on a full pipe; only the last
        // lines are kept, for the crash message.
        for_each_line(stderr, |line| {
            let mut state = self.lock();
            if state.generation == generation {
                state.stderr_tail.push_back(line.to_string());
                if state.stderr_tail.len() > 5 {
                    state.stderr_tail.pop_front();
                }
            }
            true
        });
    }
}

/// Calls `line` with each line of `input` (invalid UTF-8 replaced, the line end removed)
/// until the input ends or `line` answers false.
fn for_each_line(input: impl Read, mut line: impl FnMut(&str) -> bool) {
    let mut reader = BufReader::new(input);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !line(String::from_utf8_lossy(&bytes).trim_end()) {
                    return;
                }
            }
        }
    }
}

fn stderr_note(state: &State) -> String {
    if state.stderr_tail.is_empty() {
        String::new()
    } else {
        let tail: Vec<&str> = state.stderr_tail.iter().map(String::as_str).collect();
        format!("; its last words: {}", tail.join(" / "))
    }
}

fn identity_json(state: &State) -> String {
    Object::new()
        .string("name", &state.name)
        .raw(
            "options",
            array(state.options.iter().map(EngineOption::json)),
        )
        .finish()
}

fn find_option<'a>(options: &'a [EngineOption], name: &str) -> Option<&'a EngineOption> {
    options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The `setoption` lines that give the engine `variant`, or why it cannot play it.
fn variant_commands(state: &State, variant: Variant) -> Result<Vec<String>, String> {
    if state.sent_variant == Some(variant) {
        return Ok(Vec::new());
    }
    let family = variant.family();
    let default = Variant::new(family);
    let mut wanted: Vec<(&str, String)> = Vec::new();
    if find_option(&state.options, "UCI_Variant").is_some() {
        wanted.push(("UCI_Variant", family.name().to_string()));
    } else if family != Family::Togyz {
        return Err(format!(
            "the engine declares no UCI_Variant option, so it cannot play {}",
            family.name()
        ));
    }
    if variant.tuzdik() != default.tuzdik() {
        wanted.push(("Tuzdik", variant.tuzdik().to_string()));
    }
    if variant.sowing() != default.sowing() {
        wanted.push(("Sowing", variant.sowing().name().to_string()));
    }
    if variant.capture() != default.capture() {
        wanted.push(("Capture", variant.capture().name().to_string()));
    }
    if variant.mangala_move() != default.mangala_move() {
        wanted.push(("Mangala", variant.mangala_move().name().to_string()));
    }
    wanted
        .into_iter()
        .map(|(name, value)| match find_option(&state.options, name) {
            Some(option) => Ok(format!("setoption name {} value {value}", option.name)),
            None if name == "UCI_Variant" => Ok(format!("setoption name {name} value {value}")),
            None => Err(format!(
                "the engine declares no {name} option, so it cannot play {variant}"
            )),
        })
        .collect()
}

/// `fen <start> [moves ...]` in the short form every protocol engine reads.
fn position_command(game: &Game) -> String {
    let mut text = format!("fen {}", game.start().to_fen(game.start_fullmove()));
    if !game.moves().is_empty() {
        text.push_str(" moves");
        for mv in game.moves() {
            text.push_str(&format!(" {mv}"));
        }
    }
    text
}

mod lines;
use lines::handle_line;
#[cfg(test)]
use lines::info_event;

#[cfg(test)]
mod tests;
