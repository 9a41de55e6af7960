//! `tuzdik gui`'s server against the real engine and a misbehaving one
//! (tests/engines/misbehave.py): the page's requests sent over real HTTP, the engine's
//! answers read back as the page reads them, errors named in the answers.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `tuzdik gui --no-browser --port 0`, killed when dropped.
struct Gui {
    child: Child,
    address: String,
    /// Per session, the first event not read yet.
    read: RefCell<HashMap<String, u64>>,
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Gui {
    fn start(extra: &[&str]) -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tuzdik"))
            .args(["gui", "--no-browser", "--port", "0"])
            .args(extra)
            .env("TUZDIK_ENGINE", env!("CARGO_BIN_EXE_tuzdik"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tuzdik gui");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the address line");
        let start = line.find("http://").expect("an address") + "http://".len();
        let end = start + line[start..].find('/').expect("an address ending in /");
        Gui {
            child,
            address: line[start..end].to_string(),
            read: RefCell::default(),
        }
    }

    fn misbehaving(mode: &str, extra: &[&str]) -> Gui {
        let command = format!("python3 tests/engines/misbehave.py {mode}");
        let mut args = vec!["--engine", command.as_str()];
        args.extend_from_slice(extra);
        Gui::start(&args)
    }

    /// One request; answers the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read");
        let status = answer[9..12].parse().expect("a status code");
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_string())
    }

    fn post(&self, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        self.request("POST", path, &body.join("&"))
    }

    /// The events of `session` not read yet, up to the first that contains `wanted` (within
    /// `timeout`), in order.
    fn events_until(&self, session: &str, wanted: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut since = self.read.borrow().get(session).copied().unwrap_or(0);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            let (status, body) = self.request(
                "GET",
                &format!("/api/engine/events?session={session}&since={since}&wait=500"),
                "",
            );
            assert_eq!(status, 200, "{body}");
            let next: u64 = body
                .rsplit_once("\"next\":")
                .expect("next")
                .1
                .trim_end_matches('}')
                .parse()
                .expect("a number");
            for event in split_events(&body) {
                since += 1;
                let found = event.contains(wanted);
                seen.push(event);
                if found {
                    self.read.borrow_mut().insert(session.to_string(), since);
                    return seen;
                }
            }
            since = next;
        }
        panic!("no event with {wanted} within {timeout:?}; got {seen:#?}");
    }
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The top-level objects of the answer's `events` array (they hold no `[`/`]` inside strings
/// at the top level that matter here: objects are split by brace depth outside strings).
fn split_events(body: &str) -> Vec<String> {
    let start = body.find("\"events\":[").expect("events") + "\"events\":[".len();
    let mut events = Vec::new();
    let (mut depth, mut in_string, mut escaped, mut begin) = (0, false, false, 0);
    for (i, c) in body[start..].char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => {
                if depth == 0 {
                    begin = i;
                }
                depth += 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    events.push(body[start + begin..=start + i].to_string());
                }
            }
            ']' if depth == 0 => break,
            _ => {}
        }
    }
    events
}

fn search_id(body: &str) -> String {
    let id = body
        .strip_prefix("{\"search\":")
        .and_then(|rest| rest.strip_suffix('}'))
        .unwrap_or_else(|| panic!("not a search answer: {body}"));
    format!("\"search\":{id}")
}

fn go(gui: &Gui, session: &str, variant: &str, moves: &str, movetime: &str) -> String {
    let (status, body) = gui.post(
        "/api/engine/go",
        &[
            ("session", session),
            ("variant", variant),
            ("fen", ""),
            ("moves", moves),
            ("movetime", movetime),
        ],
    );
    assert_eq!(status, 200, "{body}");
    search_id(&body)
}

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn the_real_engine_answers_a_legal_move_with_playok_lines() {
    let gui = Gui::start(&[]);
    let (status, identity) = gui.post("/api/engine/start", &[("session", "a")]);
    assert_eq!(status, 200);
    assert!(identity.contains("\"name\":\"Tuzdik"), "{identity}");
    assert!(identity.contains("\"name\":\"MultiPV\""), "{identity}");
    let id = go(&gui, "a", "togyz", "87(10)", "200");
    let events = gui.events_until("a", "bestmove", WAIT);
    let best = events.iter().find(|e| e.contains("bestmove")).unwrap();
    assert!(best.contains(&id), "{best}");
    let text = best
        .rsplit_once("\"move\":\"")
        .unwrap()
        .1
        .trim_end_matches("\"}");
    // The move must be legal for North after 87(10), written in PlayOK's long form.
    let mut game = tuzdik::Game::new(tuzdik::Variant::TOGYZ);
    game.play_text("87").unwrap();
    game.play_text(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(text.len() >= 2, "{text} is not in the long form");
    assert!(
        events
            .iter()
            .any(|e| e.contains("\"type\":\"info\"") && e.contains("\"pv\":[\"")),
        "{events:?}"
    );
    // Tuzdik declares UCI_ShowWDL, so the page is given win/draw/loss chances.
    assert!(
        events
            .iter()
            .any(|e| e.contains("\"type\":\"info\"") && e.contains("\"wdl\":[")),
        "{events:?}"
    );
}

#[test]
fn an_analysis_runs_until_stopped_in_every_variant() {
    let gui = Gui::start(&[]);
    for (variant, moves) in [
        ("kozdatu tuzdik=on", "1"),
        ("bestemshchi capture=singleton", ""),
        ("mangala4 mangala=free-choice", "3"),
        ("togyz sowing=skip-origin", "9"),
    ] {
        let (status, body) = gui.post(
            "/api/engine/go",
            &[
                ("session", "b"),
                ("variant", variant),
                ("moves", moves),
                ("option.MultiPV", "2"),
            ],
        );
        assert_eq!(status, 200, "{variant}: {body}");
        let id = search_id(&body);
        let events = gui.events_until("b", "\"multipv\":2", WAIT);
        assert!(events.iter().any(|e| e.contains(&id)), "{variant}");
        let (status, _) = gui.post("/api/engine/stop", &[("session", "b")]);
        assert_eq!(status, 200);
        let events = gui.events_until("b", &format!("\"type\":\"bestmove\",{id}"), WAIT);
        assert!(
            !events.iter().any(|e| e.contains("\"error\"")),
            "{events:?}"
        );
    }
}

#[test]
fn an_illegal_or_garbled_bestmove_is_an_error_event() {
    for (mode, expected) in [
        (
            "illegal",
            "answered 'bestmove 0000', which is not a legal move here",
        ),
        ("garbage", "answered 'bestmove banana'"),
        ("bare", "answered 'bestmove' without a move"),
    ] {
        let gui = Gui::misbehaving(mode, &[]);
        let id = go(&gui, "c", "togyz", "", "100");
        let events = gui.events_until("c", expected, WAIT);
        let error = events.iter().find(|e| e.contains(expected)).unwrap();
        assert!(
            error.contains("\"type\":\"error\"") && error.contains(&id),
            "{error}"
        );
    }
}

#[test]
fn a_crash_is_reported_and_the_next_request_starts_the_engine_again() {
    let gui = Gui::misbehaving("crash 2", &[]);
    go(&gui, "d", "togyz", "", "50");
    gui.events_until("d", "bestmove", WAIT);
    go(&gui, "d", "togyz", "", "50");
    let events = gui.events_until("d", "the engine stopped (exit status: 3)", WAIT);
    assert!(events.iter().any(|e| e.contains("\"type\":\"error\"")));
    let id = go(&gui, "d", "togyz", "", "50");
    gui.events_until("d", &format!("\"type\":\"bestmove\",{id}"), WAIT);
}

#[test]
fn a_silent_engine_is_given_up_after_its_time_and_the_page_is_told() {
    let gui = Gui::misbehaving("silent", &[]);
    let id = go(&gui, "e", "togyz", "", "100");
    let started = Instant::now();
    let events = gui.events_until("e", "did not answer 'go movetime 100'", WAIT);
    assert!(
        started.elapsed() >= Duration::from_secs(4),
        "given up too early"
    );
    assert!(events.iter().any(|e| e.contains(&id)), "{events:?}");
}

#[test]
fn an_engine_that_never_answers_uci_is_refused_with_a_reason() {
    let gui = Gui::misbehaving("nostart", &["--handshake-timeout", "1"]);
    let (status, body) = gui.post("/api/engine/start", &[("session", "f")]);
    assert_eq!(status, 400);
    assert!(body.contains("did not answer 'uci' within 1 s"), "{body}");
    let (status, body) = gui.post("/api/engine/start", &[("session", "f")]);
    assert_eq!(status, 400, "{body}");
}

#[test]
fn an_engine_that_cannot_be_started_is_named() {
    let gui = Gui::start(&["--engine", "/nonexistent/engine --flag"]);
    let (status, body) = gui.post("/api/engine/start", &[("session", "g")]);
    assert_eq!(status, 400);
    assert!(
        body.contains("could not start the engine '/nonexistent/engine --flag'"),
        "{body}"
    );
}

#[test]
fn bad_requests_get_clear_errors_and_change_nothing() {
    let gui = Gui::start(&[]);
    type Fields<'a> = Vec<(&'a str, &'a str)>;
    let cases: [(&str, Fields, &str); 6] = [
        ("/api/game", vec![("variant", "chess")], "variant 'chess'"),
        (
            "/api/game",
            vec![("variant", "togyz"), ("moves", "87 86")],
            "move 2 '86'",
        ),
        (
            "/api/engine/go",
            vec![("session", "h"), ("variant", "togyz"), ("movetime", "soon")],
            "movetime 'soon'",
        ),
        (
            "/api/engine/go",
            vec![("session", "bad id!"), ("variant", "togyz")],
            "not a session id",
        ),
        (
            "/api/engine/go",
            vec![
                ("session", "h"),
                ("variant", "bestemshchi"),
                ("fen", "0,0,0,0,1/1,0,0,0,0 24 24 w"),
                ("moves", "5"),
            ],
            "the game is over",
        ),
        ("/api/setup", vec![("seed", "-1")], "seed '-1'"),
    ];
    for (path, fields, expected) in cases {
        let (status, body) = gui.post(path, &fields);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body.contains(expected), "{path}: {body}");
    }
    let (status, _) = gui.request("GET", "/nothing-here", "");
    assert_eq!(status, 404);
    let (status, body) = gui.request("POST", "/api/pgn/read", "[Event \"x\"]\n\n1. 87 {open");
    assert_eq!(status, 400);
    assert!(body.contains("comment is never closed"), "{body}");
    let (status, page) = gui.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"));
}

#[test]
fn two_tabs_have_their_own_engines() {
    let gui = Gui::start(&[]);
    let first = go(&gui, "tab-1", "togyz", "", "300");
    let second = go(&gui, "tab-2", "kozdatu", "", "300");
    let one = gui.events_until("tab-1", "bestmove", WAIT);
    let two = gui.events_until("tab-2", "bestmove", WAIT);
    assert!(
        one.iter()
            .all(|e| !e.contains("\"type\":\"info\"") || e.contains(&first))
    );
    assert!(
        two.iter()
            .any(|e| e.contains(&second) && e.contains("bestmove"))
    );
    // A closed tab's engine is ended; the tab's next request starts a new one.
    let (status, _) = gui.post("/api/engine/close", &[("session", "tab-1")]);
    assert_eq!(status, 200);
    go(&gui, "tab-1", "togyz", "", "50");
    gui.events_until("tab-1", "\"type\":\"engine\"", WAIT);
}

#[test]
fn a_refused_option_stops_the_search_before_it_starts_and_names_the_engine_message() {
    let gui = Gui::start(&[]);
    let (status, body) = gui.post(
        "/api/engine/go",
        &[
            ("session", "r"),
            ("variant", "togyz"),
            ("movetime", "100"),
            ("option.MultiPV", "99"),
        ],
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("the engine refused: error:"), "{body}");
    assert!(body.contains("MultiPV"), "{body}");
    // The engine is still there and the next search runs.
    let id = go(&gui, "r", "togyz", "", "100");
    gui.events_until("r", &format!("\"type\":\"bestmove\",{id}"), WAIT);
}

#[test]
fn a_level_is_set_through_the_options_the_engine_declares() {
    let gui = Gui::start(&["--engine", "python3 tests/engines/levels.py"]);
    let (status, identity) = gui.post("/api/engine/start", &[("session", "l")]);
    assert_eq!(status, 200);
    assert!(
        identity.contains(r#"{"name":"Skill Level","type":"spin","default":"20","min":0,"max":20"#),
        "{identity}"
    );
    let (status, body) = gui.post(
        "/api/engine/go",
        &[
            ("session", "l"),
            ("variant", "togyz"),
            ("movetime", "100"),
            ("option.Skill Level", "3"),
            ("option.No Such Option", "1"),
        ],
    );
    assert_eq!(status, 200, "{body}");
    let events = gui.events_until("l", "bestmove", WAIT);
    assert!(
        events.iter().any(|e| e.contains("level Skill Level = 3")),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| e.contains("No Such Option")),
        "{events:?}"
    );
}

#[test]
fn an_engine_that_dies_at_once_is_reported_with_its_last_words() {
    let gui = Gui::start(&["--engine", "sh -c 'echo cannot load weights >&2; exit 7'"]);
    let (status, body) = gui.post("/api/engine/start", &[("session", "w")]);
    assert_eq!(status, 400);
    // It may die before or after `uci` is written: either way the answer says so, with the
    // engine's last words.
    assert!(body.contains("the engine stopped"), "{body}");
    assert!(
        body.contains("its last words: cannot load weights"),
        "{body}"
    );
}

#[test]
fn the_real_engine_declares_its_levels_and_plays_at_one() {
    let gui = Gui::start(&[]);
    let (status, identity) = gui.post("/api/engine/start", &[("session", "v")]);
    assert_eq!(status, 200);
    assert!(
        identity
            .contains(r#"{"name":"UCI_Elo","type":"spin","default":"1500","min":800,"max":2700"#),
        "{identity}"
    );
    assert!(
        identity.contains(r#""name":"UCI_LimitStrength""#),
        "{identity}"
    );
    let at_elo = |elo: &str| {
        gui.post(
            "/api/engine/go",
            &[
                ("session", "v"),
                ("variant", "togyz"),
                ("movetime", "100"),
                ("option.UCI_LimitStrength", "true"),
                ("option.UCI_Elo", elo),
            ],
        )
    };
    let (status, body) = at_elo("5000");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("UCI_Elo"), "{body}");
    let (status, body) = at_elo("800");
    assert_eq!(status, 200, "{body}");
    let id = search_id(&body);
    let events = gui.events_until("v", &format!("\"type\":\"bestmove\",{id}"), WAIT);
    // The only error is the refused value's, from the first request.
    let errors: Vec<&String> = events
        .iter()
        .filter(|e| e.contains("\"error\":true"))
        .collect();
    assert!(errors.iter().all(|e| e.contains("'5000'")), "{errors:?}");
}
