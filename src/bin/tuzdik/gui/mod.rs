//! `tuzdik gui`: a local web server with a board page that plays and analyses with any
//! protocol engine. The page and the rules live here, in the binary; the engine is driven
//! only through the protocol (see `engine`), so the engine core knows nothing of it.

mod engine;
mod form;
mod json;
mod rules;

use std::collections::HashMap;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

use engine::{SearchRequest, Session, Timeouts};
use json::Object;

/// `tuzdik gui` arguments.
#[derive(clap::Args)]
pub struct GuiArgs {
    /// The port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 7474)]
    port: u16,
    /// The engine's command line (program and arguments, split at spaces; quote an argument
    /// with spaces); by default this program itself.
    #[arg(long)]
    engine: Option<String>,
    /// Do not open the page in a browser.
    #[arg(long)]
    no_browser: bool,
    /// Seconds the engine may take to answer `uci` or `isready`.
    #[arg(long, default_value_t = 10.0)]
    handshake_timeout: f64,
}

/// Tabs served at once (each runs its own engine).
const MAX_SESSIONS: usize = 16;
/// A tab that has not asked for events this long is taken as closed and its engine ended.
const IDLE_SESSION: Duration = Duration::from_secs(60);
/// The largest request body (a PGN file).
const MAX_BODY: u64 = 32 << 20;

struct App {
    command: Vec<String>,
    timeouts: Timeouts,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
}

/// Runs the server until the process is stopped.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let command = match &args.engine {
        Some(line) => split_command(line)?,
        None => vec![
            std::env::current_exe()
                .map_err(|e| format!("cannot find this program to run it as the engine: {e}"))?
                .to_string_lossy()
                .into_owned(),
        ],
    };
    if !(args.handshake_timeout > 0.0 && args.handshake_timeout <= 3600.0) {
        return Err(format!(
            "--handshake-timeout {} is outside (0, 3600] seconds",
            args.handshake_timeout
        ));
    }
    let server = Server::http(("127.0.0.1", args.port)).map_err(|e| {
        format!(
            "cannot listen on 127.0.0.1:{}: {e} (choose another with --port; 0 picks a free one)",
            args.port
        )
    })?;
    let address = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    let url = format!("http://{address}/");
    println!(
        "Tuzdik GUI at {url} (engine: {}); Ctrl-C stops it",
        command.join(" ")
    );
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    if !args.no_browser {
        open_browser(&url);
    }
    let app = Arc::new(App {
        command,
        timeouts: Timeouts {
            handshake: Duration::from_secs_f64(args.handshake_timeout),
            ..Timeouts::default()
        },
        sessions: Mutex::new(HashMap::new()),
    });
    let reaper = Arc::clone(&app);
    thread::spawn(move || {
        loop {
            thread::sleep(Duration::from_secs(5));
            reaper.end_idle_sessions();
        }
    });
    for request in server.incoming_requests() {
        let app = Arc::clone(&app);
        thread::spawn(move || app.handle(request));
    }
    Ok(())
}

fn open_browser(url: &str) {
    let opener: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(windows) {
        &["cmd", "/C", "start"]
    } else {
        &["xdg-open"]
    };
    let started = std::process::Command::new(opener[0])
        .args(&opener[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        println!("(could not open a browser: open {url} yourself)");
    }
}

/// Splits an engine command line at white space; `"..."` or `'...'` keep spaces in an
/// argument.
fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            (None, c) => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("--engine '{line}': the quote {q} is never closed"));
    }
    if in_word {
        words.push(current);
    }
    if words.is_empty() {
        return Err("--engine is empty".to_string());
    }
    Ok(words)
}

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

fn respond(request: Request, status: u16, content_type: &str, body: String) {
    let mut response = Response::from_string(body).with_status_code(status);
    for (name, value) in [
        ("Content-Type", content_type),
        ("Cache-Control", "no-store"),
    ] {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    // A closed tab may have gone away; there is no one to tell.
    let _ = request.respond(response);
}

impl App {
    fn handle(&self, mut request: Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let path = path.to_string();
        let query = form::parse(query);
        let method = request.method().clone();
        let static_file = match path.as_str() {
            "/" | "/index.html" => Some(("text/html; charset=utf-8", PAGE)),
            "/app.js" => Some(("text/javascript; charset=utf-8", SCRIPT)),
            "/style.css" => Some(("text/css; charset=utf-8", STYLE)),
            _ => None,
        };
        if let Some((kind, text)) = static_file {
            return respond(request, 200, kind, text.to_string());
        }
        if path == "/favicon.ico" {
            return respond(request, 204, "text/plain", String::new());
        }
        let mut body = String::new();
        if method == Method::Post {
            let mut bytes = Vec::new();
            let read = request
                .as_reader()
                .take(MAX_BODY + 1)
                .read_to_end(&mut bytes);
            if read.is_err() || bytes.len() as u64 > MAX_BODY {
                let message =
                    format!("the request body is unreadable or larger than {MAX_BODY} bytes");
                return respond(request, 400, "application/json", json::error(&message));
            }
            body = String::from_utf8_lossy(&bytes).into_owned();
        }
        let outcome = match (method, path.as_str()) {
            (Method::Post, "/api/pgn/read") => rules::pgn_games_json(&body),
            (Method::Post, path) => self.api_post(path, &form::parse(&body)),
            (Method::Get, "/api/engine/events") => self.events(&query),
            _ => {
                return respond(
                    request,
                    404,
                    "application/json",
                    json::error(&format!("no such page: {path}")),
                );
            }
        };
        match outcome {
            Ok(text) => respond(request, 200, "application/json", text),
            Err(message) => respond(request, 400, "application/json", json::error(&message)),
        }
    }

    fn api_post(&self, path: &str, form: &HashMap<String, String>) -> Result<String, String> {
        let field = |name: &str| form.get(name).map_or("", String::as_str);
        match path {
            "/api/game" => rules::game_from(field("variant"), field("fen"), field("moves"))
                .map(|game| rules::game_json(&game)),
            "/api/pgn/write" => {
                let game = rules::game_from(field("variant"), field("fen"), field("moves"))?;
                let tags: Vec<(&str, String)> = ["Event", "Site", "Date", "White", "Black"]
                    .into_iter()
                    .map(|name| (name, field(&name.to_ascii_lowercase()).to_string()))
                    .collect();
                let result = Some(field("result")).filter(|r| !r.is_empty());
                let text = rules::pgn_text(&game, &tags, result);
                Ok(Object::new().string("pgn", &text).finish())
            }
            "/api/setup" => {
                let seed: u64 = field("seed").trim().parse().map_err(|_| {
                    format!(
                        "seed '{}' is not a whole number from 0 to {}",
                        field("seed"),
                        u64::MAX
                    )
                })?;
                Ok(Object::new()
                    .string("fen", &rules::mangala_setup(seed))
                    .finish())
            }
            "/api/engine/start" => self.session(field("session"))?.start(),
            "/api/engine/close" => {
                let removed = self
                    .sessions
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .remove(field("session"));
                if let Some(session) = removed {
                    session.shutdown();
                }
                Ok("{}".to_string())
            }
            "/api/engine/stop" => {
                self.session(field("session"))?.stop()?;
                Ok("{}".to_string())
            }
            "/api/engine/go" => {
                let game = rules::game_from(field("variant"), field("fen"), field("moves"))?;
                let movetime = match field("movetime") {
                    "" => None,
                    text => Some(
                        text.parse::<u64>()
                            .ok()
                            .filter(|ms| (1..=3_600_000).contains(ms))
                            .ok_or_else(|| {
                                format!("movetime '{text}' is not a number of milliseconds from 1 to 3600000")
                            })?,
                    ),
                };
                let options = form
                    .iter()
                    .filter_map(|(key, value)| {
                        key.strip_prefix("option.")
                            .map(|name| (name.to_string(), value.clone()))
                    })
                    .collect();
                let id = self.session(field("session"))?.search(SearchRequest {
                    game,
                    movetime,
                    options,
                })?;
                Ok(Object::new().raw("search", id).finish())
            }
            _ => Err(format!("no such request: {path}")),
        }
    }

    fn events(&self, query: &HashMap<String, String>) -> Result<String, String> {
        let session = self.session(query.get("session").map_or("", String::as_str))?;
        let since = query.get("since").and_then(|s| s.parse::<u64>().ok());
        let wait = query
            .get("wait")
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(20_000)
            .min(30_000);
        let (events, next) = match since {
            Some(since) => session.events_since(since, Duration::from_millis(wait)),
            // No position yet: the page starts from now and ignores what came before it.
            None => (Vec::new(), session.next_event()),
        };
        Ok(Object::new()
            .raw("events", json::array(events))
            .raw("next", next)
            .finish())
    }

    fn session(&self, id: &str) -> Result<Arc<Session>, String> {
        if id.is_empty()
            || id.len() > 64
            || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return Err(format!("session '{id}' is not a session id"));
        }
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(session) = sessions.get(id) {
            return Ok(Arc::clone(session));
        }
        if sessions.len() >= MAX_SESSIONS {
            return Err(format!(
                "{MAX_SESSIONS} tabs already have an engine; close one and reload"
            ));
        }
        let session = Session::new(self.command.clone(), self.timeouts);
        sessions.insert(id.to_string(), Arc::clone(&session));
        Ok(session)
    }

    fn end_idle_sessions(&self) {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        sessions.retain(|_, session| {
            let idle = session
                .last_seen()
                .is_none_or(|seen| seen.elapsed() > IDLE_SESSION);
            if idle {
                session.shutdown();
            }
            !idle
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_command_lines_are_split_with_quotes() {
        assert_eq!(
            split_command(r#"python3 "my engine.py"  --x 'a b' """#).unwrap(),
            ["python3", "my engine.py", "--x", "a b", ""]
        );
        assert!(split_command("  ").is_err());
        assert!(
            split_command("run \"open")
                .unwrap_err()
                .contains("never closed")
        );
    }
}
