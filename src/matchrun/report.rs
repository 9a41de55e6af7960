//! What a match counts and shows: per encounter the score, Elo and pentanomial; per engine a
//! ranking for tournaments; the SPRT; and the same as JSON (`--json`, and the per-game lines a
//! cluster worker prints).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use super::referee::FaultKind;
use super::schedule::GamePlan;
use super::stats::{self, Pentanomial, Sprt, SprtState, Trinomial};
use crate::record::Outcome;

/// One finished game, as counted.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Where it sits in the schedule.
    pub plan: GamePlan,
    /// Its result.
    pub outcome: Outcome,
    /// `[South, North]` names.
    pub names: [String; 2],
    /// The PGN Termination tag.
    pub termination: String,
    /// The adjudication, if any (`resign`, `draw`, `max plies`, `tablebase`).
    pub adjudication: Option<String>,
    /// The engine (index) that lost by a fault, and the fault.
    pub fault: Option<(usize, FaultKind)>,
    /// Plies in the game, opening moves included.
    pub plies: usize,
}

impl GameResult {
    /// The encounter's first engine's half points (0, 1 or 2).
    pub fn first_half_points(&self) -> u8 {
        let first_side_wins = if self.plan.first_is_south {
            Outcome::SouthWins
        } else {
            Outcome::NorthWins
        };
        match self.outcome {
            Outcome::Draw => 1,
            o if o == first_side_wins => 2,
            _ => 0,
        }
    }
}

/// The games between two engines, from the first one's point of view.
#[derive(Clone, Debug, Default)]
pub struct EncounterTally {
    /// The two engines.
    pub engines: (usize, usize),
    /// Wins, losses, draws of the first.
    pub trinomial: Trinomial,
    /// Its pair scores.
    pub pentanomial: Pentanomial,
    /// The first game of each pair still waiting for its twin: pair -> half points.
    open_pairs: HashMap<u64, u8>,
}

/// Everything counted so far.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Engine names.
    pub names: Vec<String>,
    /// One per encounter, in the schedule's order.
    pub encounters: Vec<EncounterTally>,
    /// Faults per engine.
    pub faults: Vec<BTreeMap<FaultKind, u64>>,
    /// Adjudications by kind.
    pub adjudicated: BTreeMap<String, u64>,
    /// The SPRT (one encounter only).
    pub sprt: Option<Sprt>,
    /// Every game counted, in the order counted.
    pub games: Vec<GameResult>,
}

impl Tally {
    /// An empty tally.
    pub fn new(names: Vec<String>, encounters: &[(usize, usize)], sprt: Option<Sprt>) -> Tally {
        Tally {
            faults: vec![BTreeMap::new(); names.len()],
            names,
            encounters: encounters
                .iter()
                .map(|&engines| EncounterTally {
                    engines,
                    ..EncounterTally::default()
                })
                .collect(),
            adjudicated: BTreeMap::new(),
            sprt,
            games: Vec::new(),
        }
    }

    /// Counts a game.
    pub fn add(&mut self, result: GameResult) {
        let half_points = result.first_half_points();
        let encounter = &mut self.encounters[result.plan.encounter];
        match half_points {
            2 => encounter.trinomial.wins += 1,
            1 => encounter.trinomial.draws += 1,
            _ => encounter.trinomial.losses += 1,
        }
        match encounter.open_pairs.remove(&result.plan.pair) {
            Some(first) => encounter.pentanomial.add(first, half_points),
            None => {
                encounter.open_pairs.insert(result.plan.pair, half_points);
            }
        }
        if let Some((engine, kind)) = result.fault {
            *self.faults[engine].entry(kind).or_default() += 1;
        }
        if let Some(kind) = &result.adjudication {
            *self.adjudicated.entry(kind.clone()).or_default() += 1;
        }
        self.games.push(result);
    }

    /// Games counted.
    pub fn played(&self) -> u64 {
        self.games.len() as u64
    }

    /// The SPRT's log-likelihood ratio.
    pub fn llr(&self) -> Option<f64> {
        let sprt = self.sprt?;
        Some(self.encounters[0].pentanomial.llr(sprt.elo0, sprt.elo1))
    }

    /// Where the SPRT stands.
    pub fn sprt_state(&self) -> Option<SprtState> {
        Some(self.sprt?.state(self.llr()?))
    }

    /// `Score of A vs B: W - L - D  [score] games` for an encounter.
    pub fn score_line(&self, encounter: usize) -> String {
        let e = &self.encounters[encounter];
        let t = &e.trinomial;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.names[e.engines.0],
            self.names[e.engines.1],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        )
    }

    fn encounter_lines(&self, encounter: usize, lines: &mut Vec<String>) {
        let e = &self.encounters[encounter];
        let t = &e.trinomial;
        lines.push(self.score_line(encounter));
        let elo = match t.elo() {
            Ok(elo) => format!("{elo} (95%)"),
            Err(why) => why,
        };
        lines.push(format!(
            "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %",
            t.los() * 100.0,
            t.draw_ratio() * 100.0
        ));
        let p = &e.pentanomial;
        if p.pairs() > 0 {
            let mut line = format!(
                "Ptnml(0-2): [{}], {} pair{}",
                p.0.iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                p.pairs(),
                if p.pairs() == 1 { "" } else { "s" }
            );
            match (p.elo(), p.normalized_elo()) {
                (Ok(elo), Ok(nelo)) => line.push_str(&format!(": Elo {elo}, nElo {nelo} (95%)")),
                (Ok(elo), Err(_)) => line.push_str(&format!(": Elo {elo} (95%)")),
                (Err(why), _) => line.push_str(&format!(": {why}")),
            }
            lines.push(line);
        }
    }

    /// The SPRT lines: the project's own, and fastchess's `LLR: x (lower, upper) [elo0, elo1]`.
    fn sprt_lines(&self, lines: &mut Vec<String>) {
        let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) else {
            return;
        };
        let (lower, upper) = sprt.bounds();
        let verdict = match sprt.state(llr) {
            SprtState::H1 => "H1 accepted",
            SprtState::H0 => "H0 accepted",
            SprtState::Continue => "no decision yet",
        };
        lines.push(format!(
            "SPRT: llr {} ({}%), lbound {:.2}, ubound {:.2} (nElo [{}, {}], alpha {}, beta {}) - {verdict}",
            stats::number(llr, 2),
            stats::number(llr / upper * 100.0, 1),
            lower,
            upper,
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta
        ));
        lines.push(format!(
            "LLR: {} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            stats::number(llr, 2),
            lower,
            upper,
            sprt.elo0,
            sprt.elo1
        ));
    }

    /// An engine's record against the field: wins, losses, draws.
    pub fn engine_record(&self, engine: usize) -> Trinomial {
        let mut total = Trinomial::default();
        for e in &self.encounters {
            let t = e.trinomial;
            if e.engines.0 == engine {
                total.wins += t.wins;
                total.losses += t.losses;
                total.draws += t.draws;
            } else if e.engines.1 == engine {
                total.wins += t.losses;
                total.losses += t.wins;
                total.draws += t.draws;
            }
        }
        total
    }

    /// Engines from best to worst score per game (ties: more games first, then name order).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            let (ra, rb) = (self.engine_record(a), self.engine_record(b));
            rb.score()
                .total_cmp(&ra.score())
                .then(rb.games().cmp(&ra.games()))
                .then(a.cmp(&b))
        });
        order
    }

    /// The ranking table: Elo against the field with its 95% interval, points, games, draws.
    pub fn ranking_table(&self) -> Vec<String> {
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut lines = vec![format!(
            "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>6}",
            "Rank", "Name", "Elo", "+/-", "Games", "Points", "Draw%"
        )];
        for (rank, engine) in self.ranking().into_iter().enumerate() {
            let t = self.engine_record(engine);
            let (elo, margin) = match t.elo() {
                Ok(e) => (stats::number(e.elo, 1), stats::number(e.margin, 1)),
                Err(_) => ("-".to_string(), "-".to_string()),
            };
            lines.push(format!(
                "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7.1} {:>5.1}%",
                rank + 1,
                self.names[engine],
                elo,
                margin,
                t.games(),
                t.wins as f64 + t.draws as f64 / 2.0,
                t.draw_ratio() * 100.0
            ));
        }
        if self
            .names
            .iter()
            .enumerate()
            .any(|(i, _)| self.engine_record(i).elo().is_err())
        {
            lines.push(format!(
                "(\"-\": too few games for an interval, fewer than {}, or all alike)",
                stats::MIN_GAMES_FOR_INTERVAL
            ));
        }
        lines
    }

    /// The result tables: every encounter, then (with more than two engines) the ranking.
    pub fn tables(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for encounter in 0..self.encounters.len() {
            self.encounter_lines(encounter, &mut lines);
        }
        if self.names.len() > 2 {
            lines.extend(self.ranking_table());
        }
        lines
    }

    /// The final summary.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = self.tables();
        self.sprt_lines(&mut lines);
        for (engine, faults) in self.faults.iter().enumerate() {
            if !faults.is_empty() {
                let list: Vec<String> = faults
                    .iter()
                    .map(|(kind, n)| format!("{} {n}", kind.name()))
                    .collect();
                lines.push(format!(
                    "Forfeits by {}: {}",
                    self.names[engine],
                    list.join(", ")
                ));
            }
        }
        for (kind, n) in &self.adjudicated {
            let what = if kind == "max plies" {
                "at --max-plies".to_string()
            } else {
                format!("by {kind}")
            };
            lines.push(format!("Adjudicated {what}: {n}"));
        }
        lines
    }

    /// The whole match as JSON: engines, every game, per-encounter totals with the
    /// pentanomial, the ranking and the SPRT state.
    pub fn to_json(&self, finished: bool) -> String {
        let mut out = String::from("{\n");
        let _ = writeln!(
            out,
            "  \"engines\": [{}],",
            self.names
                .iter()
                .map(|n| json_string(n))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(out, "  \"finished\": {finished},");
        let _ = writeln!(out, "  \"games\": [");
        for (i, game) in self.games.iter().enumerate() {
            let comma = if i + 1 < self.games.len() { "," } else { "" };
            let _ = writeln!(out, "    {}{comma}", game_json(game, None));
        }
        let _ = writeln!(out, "  ],");
        let _ = writeln!(out, "  \"encounters\": [");
        for (i, e) in self.encounters.iter().enumerate() {
            let t = &e.trinomial;
            let p = &e.pentanomial;
            let estimate = |r: Result<stats::Estimate, String>| match r {
                Ok(e) => format!(
                    "{{\"elo\": {}, \"margin\": {}}}",
                    json_number(e.elo),
                    json_number(e.margin)
                ),
                Err(why) => format!(
                    "{{\"elo\": null, \"margin\": null, \"why\": {}}}",
                    json_string(&why)
                ),
            };
            let comma = if i + 1 < self.encounters.len() {
                ","
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "    {{\"first\": {}, \"second\": {}, \"games\": {}, \"wins\": {}, \"losses\": {}, \
                 \"draws\": {}, \"score\": {}, \"elo\": {}, \"los\": {}, \"pentanomial\": [{}], \
                 \"pentanomial_elo\": {}, \"normalized_elo\": {}}}{comma}",
                json_string(&self.names[e.engines.0]),
                json_string(&self.names[e.engines.1]),
                t.games(),
                t.wins,
                t.losses,
                t.draws,
                json_number(t.score()),
                estimate(t.elo()),
                json_number(t.los()),
                p.0.iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                estimate(p.elo()),
                estimate(p.normalized_elo()),
            );
        }
        let _ = writeln!(out, "  ],");
        let ranking: Vec<String> = self
            .ranking()
            .into_iter()
            .map(|engine| {
                let t = self.engine_record(engine);
                let (elo, margin) = match t.elo() {
                    Ok(e) => (json_number(e.elo), json_number(e.margin)),
                    Err(_) => ("null".to_string(), "null".to_string()),
                };
                format!(
                    "{{\"name\": {}, \"elo\": {elo}, \"margin\": {margin}, \"games\": {}, \
                     \"points\": {}, \"draw_ratio\": {}}}",
                    json_string(&self.names[engine]),
                    t.games(),
                    json_number(t.wins as f64 + t.draws as f64 / 2.0),
                    json_number(t.draw_ratio())
                )
            })
            .collect();
        let _ = writeln!(out, "  \"ranking\": [{}],", ranking.join(", "));
        let sprt = match (self.sprt, self.llr()) {
            (Some(sprt), Some(llr)) => {
                let (lower, upper) = sprt.bounds();
                let state = match sprt.state(llr) {
                    SprtState::H0 => "H0",
                    SprtState::H1 => "H1",
                    SprtState::Continue => "continue",
                };
                format!(
                    "{{\"elo0\": {}, \"elo1\": {}, \"alpha\": {}, \"beta\": {}, \"llr\": {}, \
                     \"lower\": {}, \"upper\": {}, \"state\": \"{state}\"}}",
                    json_number(sprt.elo0),
                    json_number(sprt.elo1),
                    json_number(sprt.alpha),
                    json_number(sprt.beta),
                    json_number(llr),
                    json_number(lower),
                    json_number(upper)
                )
            }
            _ => "null".to_string(),
        };
        let _ = writeln!(out, "  \"sprt\": {sprt}");
        out.push_str("}\n");
        out
    }
}

/// One game as a JSON object (with its PGN text when given).
pub fn game_json(game: &GameResult, pgn: Option<&str>) -> String {
    let fault = match game.fault {
        Some((engine, kind)) => format!(
            "{{\"engine\": {engine}, \"kind\": {}}}",
            json_string(kind.name())
        ),
        None => "null".to_string(),
    };
    let mut text = format!(
        "{{\"index\": {}, \"round\": {}, \"pair\": {}, \"encounter\": {}, \"opening\": {}, \
         \"white\": {}, \"black\": {}, \"result\": {}, \"first_half_points\": {}, \
         \"termination\": {}, \"adjudication\": {}, \"fault\": {fault}, \"plies\": {}",
        game.plan.index,
        game.plan.index + 1,
        game.plan.pair,
        game.plan.encounter,
        game.plan.opening,
        json_string(&game.names[0]),
        json_string(&game.names[1]),
        json_string(game.outcome.token()),
        game.first_half_points(),
        json_string(&game.termination),
        game.adjudication
            .as_deref()
            .map_or("null".to_string(), json_string),
        game.plies
    );
    if let Some(pgn) = pgn {
        let _ = write!(text, ", \"pgn\": {}", json_string(pgn));
    }
    text.push('}');
    text
}

/// A JSON number (`null` for infinities and NaN, which JSON lacks).
pub fn json_number(value: f64) -> String {
    if value.is_finite() {
        let text = format!("{value}");
        if text == "-0" { "0".to_string() } else { text }
    } else {
        "null".to_string()
    }
}

/// A JSON string with the escapes JSON requires.
///
/// ```
/// use tuzdik::matchrun::report::json_string;
/// assert_eq!(json_string("a\"b\\\n\u{1}"), r#""a\"b\\\n\u0001""#);
/// ```
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
