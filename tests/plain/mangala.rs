//! A deliberately plain, independent implementation of Mangala IV (`mangala4`, RULES.md section
//! "Mangala IV"), with its `Mangala` switch (`leftmost`, the default, or `free-choice`).
//!
//! Like the rest of `tests/plain/`, it exists only so the tests can cross-check the fast engine in
//! `src/`, and shares no code with it: a fixed array, simple loops, one counter sown at a time.
//! Speed is not a goal; obviousness is.
//!
//! Board layout: `holes` is the sowing ring, South holes 1..7 at indices 0..7, then North holes
//! 1..7 at indices 7..14. Ring index `i` belongs to player `i / 7` and is that player's hole
//! number `i % 7 + 1`. The hole opposite South's hole k is North's hole 8 - k (and back).
//!
//! Decisions where RULES.md leaves room (the tests in `tests/plain_mangala.rs` pin each one):
//! - A move lifts the chosen hole, then sows one counter into each following hole, starting with
//!   the next one; a relay lifts the landing hole (all of it, the counter just dropped included)
//!   and goes on the same way from the hole after it. No hole is ever skipped, so a sowing of 14
//!   or more counters puts one back into the hole it was lifted from.
//! - The landing count decides: 3 or 5+ relays; 1 ends the move; 2 or 4 ends it with a capture.
//! - Capture: the landing hole and its opposite are emptied into the mover's store, whatever the
//!   opposite holds (0 included). The backward walk then looks at the previous hole of the ring,
//!   one *step* per hole looked at; a hole holding 2 or 4 (after the captures so far) is captured
//!   with its opposite and the walk goes on; anything else stops it. At most 13 steps are taken
//!   (the 14th would look at the landing hole again). The cap can never bind: the two holes at
//!   each row boundary (S7/N1 and N7/S1) are opposite each other, so once the walk has captured
//!   a hole 1 (or landed on it) the next hole it looks at, the other row's hole 7, is already
//!   empty. The walk therefore never really crosses to the other row and takes at most 7 steps
//!   (6 captures, landing on a hole 7 and capturing back to hole 1 of the same row).
//! - Pass: the only legal move of a player whose row is empty while the board is not; it changes
//!   nothing but the side to move. Both rows cannot be empty unless the board is, so passes
//!   never follow each other. A board with no counters at all has no legal moves (perft 0).
//! - Relay guard: a move lifts at most [`MAX_LIFTS`] times, the lift of the chosen hole being the
//!   first. If the last counter of the 4096th lift lands on 3 or 5+, the move ends right there
//!   (there is no capture: that hole holds neither 2 nor 4) and the opponent moves.
//! - Repetition and the 1000-ply limit are game-level rules and are not part of perft.

// This module is pulled into several test binaries with `mod plain;`, and not every binary uses
// every function.
#![allow(dead_code)]

use std::collections::HashSet;

pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;
/// Holes per row.
pub const ROW: usize = 7;
/// Holes on the board (the sowing ring).
pub const RING: usize = 14;
/// Counters in the game.
pub const TOTAL: u32 = 98;
/// Counters per hole in `startpos`.
pub const START_COUNT: u32 = 7;
/// Most lifts in one move (the first lift included).
pub const MAX_LIFTS: u32 = 4096;
/// Most holes the backward capture walk looks at.
pub const MAX_WALK_STEPS: usize = 13;

/// The rules: Mangala IV with its one switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainMangala {
    /// `Mangala = free-choice` (any occupied hole); `false` is the default `leftmost`.
    pub free_choice: bool,
}

impl PlainMangala {
    /// Parses `mangala4`, `mangala4 mangala=leftmost` or `mangala4 mangala=free-choice`
    /// (case-insensitive, like the Toguz specs).
    pub fn from_spec(spec: &str) -> Result<PlainMangala, String> {
        let mut tokens = spec.split_whitespace();
        let name = match tokens.next() {
            Some(t) => t.to_ascii_lowercase(),
            None => return Err("empty variant spec".to_string()),
        };
        if name != "mangala4" {
            return Err(format!("variant '{name}' is not mangala4"));
        }
        let mut rules = PlainMangala { free_choice: false };
        for token in tokens {
            let lower = token.to_ascii_lowercase();
            let (key, value) = match lower.split_once('=') {
                Some(kv) => kv,
                None => return Err(format!("switch '{token}' is not of the form key=value")),
            };
            match (key, value) {
                ("mangala", "leftmost") => rules.free_choice = false,
                ("mangala", "free-choice") => rules.free_choice = true,
                _ => return Err(format!("unknown mangala4 switch or value '{token}'")),
            }
        }
        Ok(rules)
    }

    /// A spec that `from_spec` turns back into these rules (the default switch is left out).
    pub fn spec(&self) -> String {
        if self.free_choice {
            "mangala4 mangala=free-choice".to_string()
        } else {
            "mangala4".to_string()
        }
    }
}

/// A position: the 14 holes, each player's captured counters and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MangalaPos {
    /// South holes 1..7 then North holes 1..7 (the sowing ring).
    pub holes: [u32; RING],
    /// Counters captured so far, `[South, North]` (the two kazan fields of the string).
    pub captured: [u32; 2],
    /// 0 South, 1 North.
    pub side: usize,
}

/// Ring index of `player`'s hole `hole` (1..7).
pub fn index_of(player: usize, hole: usize) -> usize {
    player * ROW + hole - 1
}

/// The player whose row ring index `index` is on.
pub fn owner_of(index: usize) -> usize {
    index / ROW
}

/// The hole number (1..7, in its owner's numbering) of ring index `index`.
pub fn hole_number(index: usize) -> usize {
    index % ROW + 1
}

/// The ring index of the hole opposite `index`: South k faces North 8 - k.
pub fn opposite(index: usize) -> usize {
    let other = 1 - owner_of(index);
    index_of(other, ROW + 1 - hole_number(index))
}

/// The next hole in sowing order.
pub fn next_index(index: usize) -> usize {
    (index + 1) % RING
}

/// The previous hole in sowing order.
pub fn previous_index(index: usize) -> usize {
    (index + RING - 1) % RING
}

/// The start position: 7 counters in every hole, South to move.
pub fn start() -> MangalaPos {
    MangalaPos {
        holes: [START_COUNT; RING],
        captured: [0, 0],
        side: SOUTH,
    }
}

/// Parses a non-negative decimal number made of ASCII digits only (no sign, no spaces).
fn number(text: &str, what: &str) -> Result<u32, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad {what} '{text}'"));
    }
    match text.parse::<u32>() {
        Ok(v) => Ok(v),
        Err(_) => Err(format!("{what} '{text}' is too large")),
    }
}

/// Parses `<S1..S7>/<N1..N7> <South captured> <North captured> <w|b> [fullmove]`.
/// Counts only (Mangala IV has no tuzdik `X`); everything must add up to 98.
pub fn parse(s: &str) -> Result<MangalaPos, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("position string '{s}' has too few fields"));
    }
    if fields.len() > 5 {
        return Err(format!("position string '{s}' has too many fields"));
    }

    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 2 {
        return Err(format!("board '{}' must have exactly two rows", fields[0]));
    }
    let mut holes = [0u32; RING];
    for (player, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != ROW {
            return Err(format!(
                "row '{row}' has {} holes, mangala4 has {ROW}",
                cells.len()
            ));
        }
        for (k, cell) in cells.iter().enumerate() {
            if cell.eq_ignore_ascii_case("x") {
                return Err("mangala4 has no tuzdiks ('X')".to_string());
            }
            holes[index_of(player, k + 1)] = number(cell, "hole count")?;
        }
    }

    let south = number(fields[1], "South captured count")?;
    let north = number(fields[2], "North captured count")?;
    let side = match fields[3] {
        "w" => SOUTH,
        "b" => NORTH,
        other => return Err(format!("bad side to move '{other}'")),
    };
    if fields.len() == 5 {
        let fullmove = number(fields[4], "fullmove number")?;
        if fullmove == 0 {
            return Err("fullmove number must be at least 1".to_string());
        }
    }

    let mut sum: u64 = 0;
    for h in holes {
        sum += u64::from(h);
    }
    sum += u64::from(south) + u64::from(north);
    if sum != u64::from(TOTAL) {
        return Err(format!("counters add up to {sum}, mangala4 has {TOTAL}"));
    }

    Ok(MangalaPos {
        holes,
        captured: [south, north],
        side,
    })
}

/// Writes a position string (fullmove number 1).
pub fn format(pos: &MangalaPos) -> String {
    let mut rows: Vec<String> = Vec::new();
    for player in [SOUTH, NORTH] {
        let mut cells: Vec<String> = Vec::new();
        for hole in 1..=ROW {
            cells.push(pos.holes[index_of(player, hole)].to_string());
        }
        rows.push(cells.join(","));
    }
    let side = if pos.side == SOUTH { "w" } else { "b" };
    format!(
        "{}/{} {} {} {} 1",
        rows[0], rows[1], pos.captured[SOUTH], pos.captured[NORTH], side
    )
}

/// Counters on `player`'s row.
pub fn row_counters(pos: &MangalaPos, player: usize) -> u32 {
    let mut sum = 0;
    for hole in 1..=ROW {
        sum += pos.holes[index_of(player, hole)];
    }
    sum
}

/// Counters on the whole board.
pub fn board_counters(pos: &MangalaPos) -> u32 {
    row_counters(pos, SOUTH) + row_counters(pos, NORTH)
}

/// The game is over when every hole is empty (repetition and the ply limit are game-level).
pub fn is_over(pos: &MangalaPos) -> bool {
    board_counters(pos) == 0
}

/// Legal moves: 1-based holes of the side to move; `vec![0]` (the pass) when that row is empty
/// but the board is not; empty when the board is empty. With `leftmost`, at most one hole.
pub fn legal_moves(rules: &PlainMangala, pos: &MangalaPos) -> Vec<usize> {
    let mut moves = Vec::new();
    if is_over(pos) {
        return moves;
    }
    for hole in 1..=ROW {
        if pos.holes[index_of(pos.side, hole)] > 0 {
            moves.push(hole);
            if !rules.free_choice {
                break;
            }
        }
    }
    if moves.is_empty() {
        moves.push(0);
    }
    moves
}

/// What the backward capture walk did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// Counters captured (landing pair included).
    pub captured: u32,
    /// Ring indices emptied, in order: landing, its opposite, then each pair of the walk.
    pub holes: Vec<usize>,
    /// Holes looked at by the backward walk (the one that stopped it included).
    pub steps: usize,
}

/// The capture of a move ending on ring index `landing` (which must hold 2 or 4): empties the
/// landing hole and its opposite, then walks backwards as RULES.md 4 says.
pub fn capture_walk(holes: &mut [u32; RING], landing: usize) -> Walk {
    let mut walk = Walk {
        captured: 0,
        holes: Vec::new(),
        steps: 0,
    };
    let take = |holes: &mut [u32; RING], walk: &mut Walk, index: usize| {
        walk.captured += holes[index];
        holes[index] = 0;
        walk.holes.push(index);
    };
    take(holes, &mut walk, landing);
    take(holes, &mut walk, opposite(landing));
    let mut at = landing;
    while walk.steps < MAX_WALK_STEPS {
        walk.steps += 1;
        at = previous_index(at);
        let here = holes[at];
        if here == 2 || here == 4 {
            take(holes, &mut walk, at);
            take(holes, &mut walk, opposite(at));
        } else {
            break;
        }
    }
    walk
}

/// What a move did, besides the new position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MangalaMoveInfo {
    /// The move was the pass `0000`.
    pub pass: bool,
    /// Ring indices lifted, in order (the chosen hole first; one more per relay).
    pub lifted: Vec<usize>,
    /// Ring index where the last counter fell (`None` for a pass).
    pub last_index: Option<usize>,
    /// What that hole held just after the last counter fell (before any capture).
    pub last_count: u32,
    /// The capture, if the move ended on 2 or 4.
    pub walk: Option<Walk>,
    /// The relay guard ended the move (a 4097th lift was due).
    pub guard_stopped: bool,
}

impl MangalaMoveInfo {
    /// Counters captured by the move.
    pub fn captured(&self) -> u32 {
        match &self.walk {
            Some(w) => w.captured,
            None => 0,
        }
    }
}

/// Plays `hole` (1..7 of the side to move, or 0 for the pass) and tells what happened.
/// Panics if the move is not legal.
pub fn play_info(
    rules: &PlainMangala,
    pos: &MangalaPos,
    hole: usize,
) -> (MangalaPos, MangalaMoveInfo) {
    play_info_with_guard(rules, pos, hole, MAX_LIFTS)
}

/// [`play_info`] with another relay guard: at most `max_lifts` lifts (>= 1) in the move.
/// Only the tests use another value, to see the guard work.
pub fn play_info_with_guard(
    rules: &PlainMangala,
    pos: &MangalaPos,
    hole: usize,
    max_lifts: u32,
) -> (MangalaPos, MangalaMoveInfo) {
    assert!(max_lifts >= 1);
    assert!(
        legal_moves(rules, pos).contains(&hole),
        "illegal move {hole} in {} ({})",
        format(pos),
        rules.spec()
    );
    let mover = pos.side;
    let mut next = *pos;
    next.side = 1 - mover;
    let mut info = MangalaMoveInfo {
        pass: hole == 0,
        lifted: Vec::new(),
        last_index: None,
        last_count: 0,
        walk: None,
        guard_stopped: false,
    };
    if hole == 0 {
        return (next, info);
    }

    let mut from = index_of(mover, hole);
    loop {
        // Lift everything from `from` and sow it one by one, starting with the next hole.
        let in_hand = next.holes[from];
        next.holes[from] = 0;
        info.lifted.push(from);
        let mut at = from;
        for _ in 0..in_hand {
            at = next_index(at);
            next.holes[at] += 1;
        }
        let now = next.holes[at];
        info.last_index = Some(at);
        info.last_count = now;
        if now == 3 || now >= 5 {
            if info.lifted.len() as u32 >= max_lifts {
                info.guard_stopped = true;
                break;
            }
            from = at; // relay
            continue;
        }
        // Now 1, 2 or 4 (never 0: a counter just fell here).
        if now == 2 || now == 4 {
            let walk = capture_walk(&mut next.holes, at);
            next.captured[mover] += walk.captured;
            info.walk = Some(walk);
        }
        break;
    }
    (next, info)
}

/// Plays `hole` (1..7, or 0 for the pass). Panics if the move is not legal.
pub fn play(rules: &PlainMangala, pos: &MangalaPos, hole: usize) -> MangalaPos {
    play_info(rules, pos, hole).0
}

/// Counts the move sequences of length `depth` (an empty board has none at depth >= 1).
pub fn perft(rules: &PlainMangala, pos: &MangalaPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut count = 0;
    for m in legal_moves(rules, pos) {
        count += perft(rules, &play(rules, pos, m), depth - 1);
    }
    count
}

/// Perft split by root move: `(hole or 0, count)` for every legal move.
pub fn perft_divide(rules: &PlainMangala, pos: &MangalaPos, depth: u32) -> Vec<(usize, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for m in legal_moves(rules, pos) {
        out.push((m, perft(rules, &play(rules, pos, m), depth - 1)));
    }
    out
}

/// A tiny seeded generator (xorshift64*), used for random boards and random playouts.
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread small seeds over the state; the state must never be 0.
        let mut state = (seed ^ 0x6A09_E667_F3BC_C909).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if state == 0 {
            state = 1;
        }
        let mut rng = Rng { state };
        for _ in 0..4 {
            rng.next_u64();
        }
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..k` (k > 0).
    pub fn below(&mut self, k: usize) -> usize {
        ((self.next_u64() >> 11) % k as u64) as usize
    }
}

/// All 98 counters dropped one at a time into uniformly random holes, nothing captured yet.
pub fn random_board(rng: &mut Rng, side: usize) -> MangalaPos {
    let mut holes = [0u32; RING];
    for _ in 0..TOTAL {
        holes[rng.below(RING)] += 1;
    }
    MangalaPos {
        holes,
        captured: [0, 0],
        side,
    }
}

// ---------------------------------------------------------------------------------------------
// The perft suite lines for positions/perft.txt.

/// Free-choice lines always go to this depth (at most 7^6 = 117,649 nodes at the last one) ...
const FREE_DEPTH: u32 = 6;
/// ... and deeper, up to this depth, while the count at the last depth stays under `DEEP_CAP`.
const FREE_MAX_DEPTH: u32 = 10;
const DEEP_CAP: u64 = 1_000_000;
/// Leftmost lines (one legal move in every position, so perft is 1 until the forced game ends
/// and 0 after) go to this depth, or to the first 0 when the game ends by `LEFTMOST_MAX_DEPTH`.
const LEFTMOST_DEPTH: u32 = 12;
const LEFTMOST_MAX_DEPTH: u32 = 40;
/// A finished position gets this many zeros.
const OVER_DEPTH: u32 = 5;
/// Random playouts used to find suite positions stop after this many plies.
const PLAYOUT_PLIES: usize = 1000;
const PLAYOUT_SEEDS: u64 = 20_000;

fn side_name(side: usize) -> &'static str {
    if side == SOUTH { "South" } else { "North" }
}

fn plies_word(plies: u32) -> &'static str {
    if plies == 1 { "ply" } else { "plies" }
}

/// The forced game of the leftmost rules from `pos`: its position after `plies` plies (or where
/// it ended) and the ply at which it ended, if it did within `plies`.
fn forced_line(pos: &MangalaPos, plies: u32) -> (MangalaPos, Option<u32>) {
    let rules = PlainMangala { free_choice: false };
    let mut p = *pos;
    for ply in 0..plies {
        let moves = legal_moves(&rules, &p);
        if moves.is_empty() {
            return (p, Some(ply));
        }
        p = play(&rules, &p, moves[0]);
    }
    if legal_moves(&rules, &p).is_empty() {
        return (p, Some(plies));
    }
    (p, None)
}

/// The perft counts written for a position.
fn suite_counts(rules: &PlainMangala, pos: &MangalaPos) -> Vec<u64> {
    if is_over(pos) {
        return vec![0; OVER_DEPTH as usize];
    }
    if !rules.free_choice {
        let max = match forced_line(pos, LEFTMOST_MAX_DEPTH).1 {
            Some(end) if end >= LEFTMOST_DEPTH => end + 1,
            _ => LEFTMOST_DEPTH,
        };
        return (1..=max).map(|d| perft(rules, pos, d)).collect();
    }
    let mut counts: Vec<u64> = (1..=FREE_DEPTH).map(|d| perft(rules, pos, d)).collect();
    while (counts.len() as u32) < FREE_MAX_DEPTH {
        let last = counts[counts.len() - 1];
        let before = counts[counts.len() - 2].max(1);
        if last == 0 || last.saturating_mul(last) / before > 2 * DEEP_CAP {
            break; // the next depth would clearly be too big (or the game is over anyway)
        }
        let c = perft(rules, pos, counts.len() as u32 + 1);
        if c > DEEP_CAP {
            break;
        }
        counts.push(c);
    }
    counts
}

/// A short description of a position for the comment line.
fn describe(rules: &PlainMangala, pos: &MangalaPos) -> String {
    let moves = legal_moves(rules, pos);
    let mut parts = vec![format!("{} to move", side_name(pos.side))];
    parts.push(format!("{} counters on the board", board_counters(pos)));
    parts.push(format!(
        "rows {}-{}",
        row_counters(pos, SOUTH),
        row_counters(pos, NORTH)
    ));
    parts.push(format!(
        "largest hole {}",
        pos.holes.iter().max().unwrap_or(&0)
    ));
    parts.push(format!("captured {}-{}", pos.captured[0], pos.captured[1]));
    if moves == [0] {
        parts.push("must pass".to_string());
    } else if moves.is_empty() {
        parts.push("no legal moves".to_string());
    } else {
        let words: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        parts.push(format!("legal {}", words.join(",")));
    }
    parts.join(", ")
}

struct Found {
    pos: MangalaPos,
    seed: u64,
    ply: usize,
}

/// Where a search starts its playouts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StartFrom {
    Start,
    RandomBoard,
}

/// Plays uniformly random games (under `rules`; the leftmost rules leave no choice) with seeds
/// `seed0, seed0 + 1, ...` from the start or from a random board of the same seed, and returns the
/// first position at ply >= `min_ply` that `accept` likes. Finished positions are offered too.
fn search(
    rules: &PlainMangala,
    from: StartFrom,
    seed0: u64,
    min_ply: usize,
    accept: &dyn Fn(&MangalaPos) -> bool,
) -> Found {
    for seed in seed0..seed0 + PLAYOUT_SEEDS {
        let mut rng = Rng::new(seed);
        let mut pos = match from {
            StartFrom::Start => start(),
            StartFrom::RandomBoard => random_board(&mut rng, SOUTH),
        };
        for ply in 0..=PLAYOUT_PLIES {
            if ply >= min_ply && accept(&pos) {
                return Found { pos, seed, ply };
            }
            let moves = legal_moves(rules, &pos);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos = play(rules, &pos, m);
        }
    }
    panic!(
        "no position found for {} (seeds {seed0}..{})",
        rules.spec(),
        seed0 + PLAYOUT_SEEDS
    );
}

struct Builder {
    body: String,
    positions: usize,
    nodes: u64,
    seen: HashSet<String>,
}

impl Builder {
    fn section(&mut self, title: &str) {
        self.body.push_str(&format!("\n# ==== {title} ====\n"));
    }

    fn add(&mut self, what: &str, rules: &PlainMangala, pos: &MangalaPos) {
        let text = format(pos);
        let back = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&back, pos, "round trip of {text}");
        let key = format!("{} ; {}", rules.spec(), text);
        assert!(self.seen.insert(key.clone()), "duplicate suite line {key}");

        let counts = suite_counts(rules, pos);
        self.nodes += counts.iter().sum::<u64>();
        self.positions += 1;
        let words: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        self.body
            .push_str(&format!("\n# {what}\n# ({})\n", describe(rules, pos)));
        if !rules.free_choice && !is_over(pos) {
            let depth = counts.len() as u32;
            let (after, end) = forced_line(pos, depth);
            match end {
                Some(ply) => self.body.push_str(&format!(
                    "# (the forced game ends after {ply} {}: {})\n",
                    plies_word(ply),
                    format(&after)
                )),
                None => self.body.push_str(&format!(
                    "# (after {depth} forced plies: {})\n",
                    format(&after)
                )),
            }
        }
        self.body
            .push_str(&format!("{key} ; {}\n", words.join(" ")));
    }

    fn add_found(&mut self, what: &str, rules: &PlainMangala, found: &Found) {
        let what = format!("{what}; playout seed {}, ply {}", found.seed, found.ply);
        self.add(&what, rules, &found.pos);
    }

    /// The same position under both switch values.
    fn add_both(&mut self, what: &str, pos: &MangalaPos) {
        self.add(&format!("{what} (leftmost)"), &LEFTMOST, pos);
        self.add(&format!("{what} (free choice)"), &FREE, pos);
    }

    fn add_found_both(&mut self, what: &str, found: &Found) {
        self.add_found(&format!("{what} (leftmost)"), &LEFTMOST, found);
        self.add_found(&format!("{what} (free choice)"), &FREE, found);
    }
}

const LEFTMOST: PlainMangala = PlainMangala { free_choice: false };
const FREE: PlainMangala = PlainMangala { free_choice: true };

fn hand_made(position: &str) -> MangalaPos {
    parse(position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

/// At least `counters` on the board and `moves` legal moves under free choice.
fn rich(counters: u32, moves: usize) -> impl Fn(&MangalaPos) -> bool {
    move |p: &MangalaPos| board_counters(p) >= counters && legal_moves(&FREE, p).len() >= moves
}

/// The `mangala4` lines of the perft suite, ready to be appended to positions/perft.txt:
/// `<variant spec> ; <position string> ; <d1> <d2> ...`, each with `#` comment lines above.
/// Deterministic (seeded playouts with this module's own generator).
pub fn suite_lines() -> String {
    let mut b = Builder {
        body: String::new(),
        positions: 0,
        nodes: 0,
        seen: HashSet::new(),
    };

    b.section("mangala4: start position");
    b.add(
        "mangala4 start position (leftmost: every move is forced; this game never ends)",
        &LEFTMOST,
        &start(),
    );
    b.add("mangala4 start position, free choice", &FREE, &start());
    let north_start = MangalaPos {
        side: NORTH,
        ..start()
    };
    b.add_both("mangala4 start board with North to move", &north_start);

    b.section("mangala4: random distributions of the 98 counters");
    for (i, seed) in [11u64, 12, 13, 14].iter().enumerate() {
        let side = if i % 2 == 0 { SOUTH } else { NORTH };
        let p = random_board(&mut Rng::new(*seed), side);
        b.add_both(
            &format!(
                "random distribution, seed {seed}: 98 counters dropped into uniformly random holes, {} to move",
                side_name(side)
            ),
            &p,
        );
    }

    b.section("mangala4: mid-game positions from random free-choice playouts");
    {
        // (seed, from, least ply, least counters on the board, least legal moves)
        let cases: [(u64, StartFrom, usize, u32, usize); 7] = [
            (100, StartFrom::Start, 4, 60, 6),
            (110, StartFrom::Start, 10, 40, 5),
            (120, StartFrom::Start, 20, 25, 4),
            (130, StartFrom::Start, 40, 15, 3),
            (140, StartFrom::Start, 50, 10, 2),
            (200, StartFrom::RandomBoard, 7, 50, 6),
            (210, StartFrom::RandomBoard, 30, 20, 3),
        ];
        for (i, (seed, from, ply, counters, moves)) in cases.into_iter().enumerate() {
            let found = search(&FREE, from, seed, ply, &rich(counters, moves));
            let origin = if from == StartFrom::Start {
                "the start"
            } else {
                "a random board"
            };
            let what = format!(
                "mid-game from {origin}: {ply}+ random plies, {counters}+ counters on the board"
            );
            if i % 2 == 0 {
                b.add_found_both(&what, &found);
            } else {
                b.add_found(&what, &FREE, &found);
            }
        }
        let (p, end) = forced_line(&start(), 20);
        assert!(end.is_none());
        b.add(
            "the forced (leftmost) game from the start after 20 plies",
            &LEFTMOST,
            &p,
        );
        let found = search(&LEFTMOST, StartFrom::RandomBoard, 300, 15, &|p| {
            board_counters(p) >= 30
        });
        b.add_found(
            "the forced game from a random board after 15+ plies, 30+ counters left",
            &LEFTMOST,
            &found,
        );
    }

    b.section("mangala4: passes");
    {
        let must_pass = |p: &MangalaPos| legal_moves(&FREE, p) == [0] && board_counters(p) >= 8;
        let found = search(&FREE, StartFrom::Start, 400, 4, &must_pass);
        b.add_found_both(
            "the side to move has an empty row and must pass (free-choice playout)",
            &found,
        );
        let feeds_a_pass = |p: &MangalaPos| {
            board_counters(p) >= 12
                && legal_moves(&FREE, p).len() >= 3
                && legal_moves(&FREE, p)
                    .iter()
                    .any(|&m| legal_moves(&FREE, &play(&FREE, p, m)) == [0])
        };
        let found = search(&FREE, StartFrom::Start, 500, 4, &feeds_a_pass);
        b.add_found(
            "some root move leaves the opponent a pass (free-choice playout)",
            &FREE,
            &found,
        );
        let p = hand_made("0,0,0,0,0,0,0/3,0,1,0,2,0,5 40 47 w 1");
        b.add_both(
            "hand-made: South's row is empty, South passes, North plays on",
            &p,
        );
    }

    b.section("mangala4: few counters left");
    {
        let few = |limit: u32| move |p: &MangalaPos| !is_over(p) && board_counters(p) <= limit;
        let found = search(&FREE, StartFrom::Start, 600, 10, &few(10));
        b.add_found_both(
            "at most 10 counters on the board (free-choice playout)",
            &found,
        );
        let found = search(&FREE, StartFrom::RandomBoard, 700, 10, &few(4));
        b.add_found(
            "at most 4 counters on the board (free-choice playout from a random board)",
            &FREE,
            &found,
        );
        let found = search(&LEFTMOST, StartFrom::RandomBoard, 800, 10, &|p| {
            !is_over(p) && forced_line(p, LEFTMOST_MAX_DEPTH - 1).1.is_some()
        });
        b.add_found(
            "the forced game from a random board, close to its end",
            &LEFTMOST,
            &found,
        );
        let p = hand_made("0,0,0,0,0,0,1/0,0,0,0,0,0,1 48 48 w 1");
        b.add_both("hand-made: two lone counters, one on each row", &p);
    }

    b.section("mangala4: finished positions (every hole empty: perft 0)");
    {
        let p = hand_made("0,0,0,0,0,0,0/0,0,0,0,0,0,0 50 48 w 1");
        b.add("hand-made: every hole empty", &LEFTMOST, &p);
        let found = search(&FREE, StartFrom::Start, 900, 1, &is_over);
        b.add_found(
            "a free-choice game that ended with the board cleared",
            &FREE,
            &found,
        );
    }

    b.section("mangala4: hand-made rule cases at the root");
    {
        let p = hand_made("0,2,40,0,3,1,0/4,2,0,5,0,1,2 20 18 w 1");
        b.add_both(
            "hand-made: South hole 3 holds 40 (sowings lap the ring and refill their origin)",
            &p,
        );
        let p = hand_made("1,3,1,3,1,3,1/13,0,5,0,0,2,1 30 34 b 1");
        b.add_both(
            "hand-made: North hole 1 (13) lands on South 7 and captures the whole board",
            &p,
        );
        let p = hand_made("3,1,1,0,2,6,0/0,0,0,0,5,0,1 40 39 b 1");
        b.add_both(
            "hand-made: a capture chain walks back to the row boundary and stops there",
            &p,
        );
        let p = hand_made("2,0,2,0,1,4,0/0,1,0,3,0,0,0 40 45 w 1");
        b.add_both("hand-made: two relays in one move, then a capture on 4", &p);
    }

    let mut out = String::new();
    out.push_str(
        "\n# ==== mangala4 (Mangala IV), generated by suite_lines() in tests/plain/mangala.rs ====\n",
    );
    out.push_str("# Regenerate with\n");
    out.push_str(
        "#   cargo test --release --test plain_mangala -- --ignored --nocapture print_mangala_suite\n",
    );
    out.push_str(&format!(
        "# {} mangala4 positions, {} nodes in all. Leftmost positions have one legal move each, so\n",
        b.positions, b.nodes
    ));
    out.push_str("# their perft is 1 until the forced game ends and 0 after.\n");
    out.push_str(&b.body);
    out
}
