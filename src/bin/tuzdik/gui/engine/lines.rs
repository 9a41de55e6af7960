//! What the engine says, line by line: `id`, `option`, `readyok`, `info` and `bestmove` turned
//! into the page's events.

use super::*;

pub(super) fn handle_line(state: &mut State, line: &str) {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("uciok" | "ugiok") => state.uciok = true,
        Some("readyok") => state.readyok += 1,
        Some("id") if words.next() == Some("name") => {
            state.name = words.collect::<Vec<_>>().join(" ");
        }
        Some("option") if !state.uciok => {
            if let Some(option) = EngineOption::parse(line) {
                state.options.push(option);
            }
        }
        Some("info") => {
            let rest = line["info".len()..].trim_start();
            if let Some(text) = rest.strip_prefix("string") {
                let text = text.trim();
                let refused = text.starts_with("error");
                if refused {
                    state.refusals += 1;
                    state.last_refusal = text.to_string();
                }
                let event = Object::new()
                    .string("type", "message")
                    .raw("error", refused)
                    .string("text", text)
                    .finish();
                Session::push_event(state, event);
            } else if let Some(search) = &state.search
                && let Some(event) = info_event(search, rest)
            {
                Session::push_event(state, event);
            }
        }
        Some("bestmove") => {
            let Some(search) = state.search.take() else {
                return;
            };
            let event = match words.next() {
                None => Err("the engine answered 'bestmove' without a move".to_string()),
                Some(text) => {
                    let mut game = search.game.clone();
                    let before = *game.position();
                    match game.play_text(text) {
                        Ok(_) => Ok(Object::new()
                            .string("type", "bestmove")
                            .raw("search", search.id)
                            .string(
                                "move",
                                &notation(&before, game.moves()[game.moves().len() - 1]),
                            )
                            .finish()),
                        Err(e) => Err(format!(
                            "the engine answered 'bestmove {text}', which is not a legal move here: {e}"
                        )),
                    }
                }
            };
            match event {
                Ok(event) => Session::push_event(state, event),
                Err(message) => Session::error_event(state, Some(search.id), &message),
            }
        }
        _ => {}
    }
}

/// An `info` line of the running search as an event: depth, score (from the side to move),
/// WDL, nodes, and the pv in PlayOK notation (cut at the first move that is not legal).
pub(super) fn info_event(search: &Search, rest: &str) -> Option<String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut object = Object::new()
        .string("type", "info")
        .raw("search", search.id);
    let mut has_score = false;
    let mut pv: Vec<String> = Vec::new();
    let mut index = 0;
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
    while index < words.len() {
        match words[index] {
            key @ ("depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull") => {
                if let Some(value) = number(index + 1) {
                    object = object.raw(key, value);
                }
                index += 2;
            }
            "score" => {
                let kind = words.get(index + 1).copied();
                if let (Some(kind @ ("cp" | "mate")), Some(value)) = (kind, number(index + 2)) {
                    object = object.raw(kind, value);
                    has_score = true;
                }
                index += 3;
                if let Some(bound @ ("lowerbound" | "upperbound")) = words.get(index).copied() {
                    object = object.raw(bound, true);
                    index += 1;
                }
            }
            "wdl" => {
                if let (Some(w), Some(d), Some(l)) =
                    (number(index + 1), number(index + 2), number(index + 3))
                {
                    object = object.raw("wdl", format!("[{w},{d},{l}]"));
                }
                index += 4;
            }
            "pv" => {
                let mut game = search.game.clone();
                for text in &words[index + 1..] {
                    let before = *game.position();
                    if game.play_text(text).is_err() {
                        break;
                    }
                    pv.push(notation(&before, game.moves()[game.moves().len() - 1]));
                }
                index = words.len();
            }
            "currmove" | "currmovenumber" | "tbhits" | "cpuload" | "refutation" | "currline" => {
                // Root progress and counters the page does not show.
                if words[index] == "refutation" || words[index] == "currline" {
                    break;
                }
                index += 2;
            }
            _ => index += 1,
        }
    }
    if !has_score || pv.is_empty() {
        return None;
    }
    Some(
        object
            .raw("pv", array(pv.iter().map(|m| quote(m))))
            .finish(),
    )
}
