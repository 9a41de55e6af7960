//! A deliberately plain, independent implementation of the Toguz Kumalak family rules
//! (`togyz`, `kozdatu`, `bestemshchi`, with the `Tuzdik`, `Sowing` and `Capture` switches of
//! RULES.md; not `mangala4`).
//!
//! It exists only so the tests can cross-check the fast engine in `src/`. It shares no code with
//! it: plain `Vec`s, simple loops, and sowing done one stone at a time. Speed is not a goal;
//! obviousness is.
//!
//! Board layout: `holes` is the sowing ring, South holes 1..n at indices 0..n, then North holes
//! 1..n at indices n..2n. Ring index `i` belongs to player `i / n` and is that player's hole
//! number `i % n + 1`.

// This module is pulled into several test binaries with `mod plain;`, and not every binary uses
// every function, so some items are unused in some of them.
#![allow(dead_code)]

pub mod generate;
pub mod mangala;

pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;

/// The rules of one variant with its switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainRules {
    /// Holes per row.
    pub n: usize,
    /// Stones in every hole at the start.
    pub stones_per_hole: u32,
    /// Whether tuzdiks can be made.
    pub tuzdik: bool,
    /// `Sowing = skip-origin`.
    pub skip_origin: bool,
    /// `Capture = singleton`.
    pub singleton: bool,
}

impl PlainRules {
    /// Parses a variant spec such as `togyz`, `kozdatu tuzdik=on` or
    /// `bestemshchi sowing=skip-origin capture=singleton`.
    pub fn from_spec(spec: &str) -> Result<PlainRules, String> {
        let mut tokens = spec.split_whitespace();
        let name = match tokens.next() {
            Some(t) => t.to_ascii_lowercase(),
            None => return Err("empty variant spec".to_string()),
        };
        let mut rules = match name.as_str() {
            "togyz" => PlainRules {
                n: 9,
                stones_per_hole: 9,
                tuzdik: true,
                skip_origin: false,
                singleton: false,
            },
            "kozdatu" => PlainRules {
                n: 7,
                stones_per_hole: 7,
                tuzdik: false,
                skip_origin: false,
                singleton: false,
            },
            "bestemshchi" => PlainRules {
                n: 5,
                stones_per_hole: 5,
                tuzdik: false,
                skip_origin: false,
                singleton: false,
            },
            "mangala4" => {
                return Err("mangala4 is not covered by the plain implementation".to_string());
            }
            other => return Err(format!("unknown variant '{other}'")),
        };
        for token in tokens {
            let lower = token.to_ascii_lowercase();
            let (key, value) = match lower.split_once('=') {
                Some(kv) => kv,
                None => return Err(format!("switch '{token}' is not of the form key=value")),
            };
            match (key, value) {
                ("tuzdik", "on") => rules.tuzdik = true,
                ("tuzdik", "off") => rules.tuzdik = false,
                ("sowing", "standard") => rules.skip_origin = false,
                ("sowing", "skip-origin") => rules.skip_origin = true,
                ("capture", "standard") => rules.singleton = false,
                ("capture", "singleton") => rules.singleton = true,
                _ => return Err(format!("unknown switch or value '{token}'")),
            }
        }
        Ok(rules)
    }

    /// The variant name (`togyz`, `kozdatu` or `bestemshchi`).
    pub fn variant_name(&self) -> &'static str {
        match self.n {
            9 => "togyz",
            7 => "kozdatu",
            5 => "bestemshchi",
            _ => "unknown",
        }
    }

    /// Whether the variant has tuzdiks when no switch is given.
    pub fn default_tuzdik(&self) -> bool {
        self.n == 9
    }

    /// A spec that `from_spec` turns back into these rules: the variant name followed by only
    /// the switches that differ from the variant's defaults.
    pub fn spec(&self) -> String {
        let mut s = self.variant_name().to_string();
        if self.tuzdik != self.default_tuzdik() {
            if self.tuzdik {
                s.push_str(" tuzdik=on");
            } else {
                s.push_str(" tuzdik=off");
            }
        }
        if self.skip_origin {
            s.push_str(" sowing=skip-origin");
        }
        if self.singleton {
            s.push_str(" capture=singleton");
        }
        s
    }

    /// All stones in the game.
    pub fn total(&self) -> u32 {
        2 * self.n as u32 * self.stones_per_hole
    }

    /// A kazan with at least this many stones has won (more than half of all stones).
    pub fn win_threshold(&self) -> u32 {
        self.total() / 2 + 1
    }
}

/// A position: board, kazans, tuzdiks and side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlainPos {
    /// 2n entries: South holes 1..n then North holes 1..n (the sowing ring).
    pub holes: Vec<u32>,
    /// `[South, North]`.
    pub kazan: [u32; 2],
    /// `tuzdik[p]` is the ring index of the hole owned BY player `p` as its tuzdik (it sits on
    /// the opponent's row).
    pub tuzdik: [Option<usize>; 2],
    /// 0 South, 1 North.
    pub side: usize,
}

/// The start position of the rules.
pub fn start(rules: &PlainRules) -> PlainPos {
    PlainPos {
        holes: vec![rules.stones_per_hole; 2 * rules.n],
        kazan: [0, 0],
        tuzdik: [None, None],
        side: SOUTH,
    }
}

/// Parses a non-negative decimal number made of ASCII digits only (no sign, no spaces).
fn parse_number(text: &str, what: &str) -> Result<u32, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad {what} '{text}'"));
    }
    match text.parse::<u32>() {
        Ok(v) => Ok(v),
        Err(_) => Err(format!("{what} '{text}' is too large")),
    }
}

/// Parses a position string
/// `<South holes 1..N>/<North holes 1..N> <South kazan> <North kazan> <w|b> [fullmove]`.
pub fn parse(rules: &PlainRules, s: &str) -> Result<PlainPos, String> {
    let n = rules.n;
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

    let mut holes = vec![0u32; 2 * n];
    let mut tuzdik: [Option<usize>; 2] = [None, None];
    for (row_owner, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != n {
            return Err(format!(
                "row '{row}' has {} holes, the variant has {n}",
                cells.len()
            ));
        }
        for (k, cell) in cells.iter().enumerate() {
            let index = row_owner * n + k;
            if *cell == "X" {
                // A tuzdik on this row belongs to the other player.
                let owner = 1 - row_owner;
                if !rules.tuzdik {
                    return Err("a tuzdik in a variant without tuzdiks".to_string());
                }
                if tuzdik[owner].is_some() {
                    return Err("two tuzdiks for one player".to_string());
                }
                if k == n - 1 {
                    return Err(format!("a tuzdik on hole {n}"));
                }
                tuzdik[owner] = Some(index);
            } else {
                holes[index] = parse_number(cell, "hole count")?;
            }
        }
    }
    if let (Some(a), Some(b)) = (tuzdik[SOUTH], tuzdik[NORTH])
        && a % n == b % n
    {
        return Err(format!("symmetric tuzdiks on hole {}", a % n + 1));
    }

    let south_kazan = parse_number(fields[1], "South kazan")?;
    let north_kazan = parse_number(fields[2], "North kazan")?;

    let side = match fields[3] {
        "w" => SOUTH,
        "b" => NORTH,
        other => return Err(format!("bad side to move '{other}'")),
    };

    if fields.len() == 5 {
        let fullmove = parse_number(fields[4], "fullmove number")?;
        if fullmove == 0 {
            return Err("fullmove number must be at least 1".to_string());
        }
    }

    let mut sum: u64 = 0;
    for h in &holes {
        sum += u64::from(*h);
    }
    sum += u64::from(south_kazan);
    sum += u64::from(north_kazan);
    if sum != u64::from(rules.total()) {
        return Err(format!(
            "stones add up to {sum}, the variant has {}",
            rules.total()
        ));
    }

    Ok(PlainPos {
        holes,
        kazan: [south_kazan, north_kazan],
        tuzdik,
        side,
    })
}

/// Writes a position string (fullmove number 1).
pub fn format(rules: &PlainRules, pos: &PlainPos) -> String {
    let n = rules.n;
    let mut rows: Vec<String> = Vec::new();
    for row_owner in 0..2 {
        let mut cells: Vec<String> = Vec::new();
        for k in 0..n {
            let index = row_owner * n + k;
            // A tuzdik on this row belongs to the other player.
            if pos.tuzdik[1 - row_owner] == Some(index) {
                cells.push("X".to_string());
            } else {
                cells.push(pos.holes[index].to_string());
            }
        }
        rows.push(cells.join(","));
    }
    let side = if pos.side == SOUTH { "w" } else { "b" };
    format!(
        "{}/{} {} {} {} 1",
        rows[0], rows[1], pos.kazan[SOUTH], pos.kazan[NORTH], side
    )
}

/// Stones on the row of `player`.
pub fn row_stones(rules: &PlainRules, pos: &PlainPos, player: usize) -> u32 {
    let mut sum = 0;
    for k in 0..rules.n {
        sum += pos.holes[player * rules.n + k];
    }
    sum
}

/// The game is over when a kazan holds more than half of all stones, or the side to move has
/// no stone on its row.
pub fn is_over(rules: &PlainRules, pos: &PlainPos) -> bool {
    if pos.kazan[SOUTH] >= rules.win_threshold() || pos.kazan[NORTH] >= rules.win_threshold() {
        return true;
    }
    row_stones(rules, pos, pos.side) == 0
}

/// Legal moves as 1-based hole numbers of the side to move; empty when the game is over.
pub fn legal_moves(rules: &PlainRules, pos: &PlainPos) -> Vec<usize> {
    let mut moves = Vec::new();
    if is_over(rules, pos) {
        return moves;
    }
    for hole in 1..=rules.n {
        if pos.holes[pos.side * rules.n + hole - 1] > 0 {
            moves.push(hole);
        }
    }
    moves
}

/// Whether ring index `index` is somebody's tuzdik; returns the owner.
fn tuzdik_owner(pos: &PlainPos, index: usize) -> Option<usize> {
    if pos.tuzdik[SOUTH] == Some(index) {
        Some(SOUTH)
    } else if pos.tuzdik[NORTH] == Some(index) {
        Some(NORTH)
    } else {
        None
    }
}

/// What a move did, besides the new position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// Ring index of the hole where the last stone fell (possibly a tuzdik).
    pub last_index: usize,
    /// Stones captured by an even capture (0 if none).
    pub captured: u32,
    /// Whether the move made a tuzdik.
    pub made_tuzdik: bool,
    /// Whether the last stone made exactly 3 on the opponent's side but no tuzdik was made
    /// (tuzdiks off, or one of the rules 2a/2b/2c forbade it).
    pub three_without_tuzdik: bool,
}

/// Plays `hole` (1-based, of the side to move) and tells what happened.
/// Panics if the move is not legal.
pub fn play_info(rules: &PlainRules, pos: &PlainPos, hole: usize) -> (PlainPos, MoveInfo) {
    let n = rules.n;
    let ring = 2 * n;
    assert!(
        legal_moves(rules, pos).contains(&hole),
        "illegal move {hole} in {}",
        format(rules, pos)
    );
    let mover = pos.side;
    let opponent = 1 - mover;
    let origin = mover * n + hole - 1;

    let mut next = pos.clone();
    let stones = next.holes[origin];
    next.holes[origin] = 0;

    // Sow one stone at a time.
    let mut current = origin;
    for i in 0..stones {
        let target = if i == 0 && stones > 1 && !rules.skip_origin {
            // Standard sowing: the first of several stones goes back into the origin.
            origin
        } else {
            let mut t = (current + 1) % ring;
            if rules.skip_origin && t == origin {
                t = (t + 1) % ring;
            }
            t
        };
        match tuzdik_owner(&next, target) {
            Some(owner) => next.kazan[owner] += 1,
            None => next.holes[target] += 1,
        }
        current = target;
    }

    let last = current;
    let mut info = MoveInfo {
        last_index: last,
        captured: 0,
        made_tuzdik: false,
        three_without_tuzdik: false,
    };

    let on_opponent_side = last / n == opponent;
    if on_opponent_side && tuzdik_owner(&next, last).is_none() {
        let count = next.holes[last];
        let even = count.is_multiple_of(2);
        let capture = if rules.singleton { count == 2 } else { even };
        if capture {
            next.kazan[mover] += count;
            next.holes[last] = 0;
            info.captured = count;
        } else if count == 3 {
            let number = last % n; // 0-based hole number on the opponent's row
            let already_has_one = next.tuzdik[mover].is_some();
            let is_last_hole = number == n - 1;
            let mirrored = next.tuzdik[opponent] == Some(mover * n + number);
            if rules.tuzdik && !already_has_one && !is_last_hole && !mirrored {
                next.tuzdik[mover] = Some(last);
                next.kazan[mover] += 3;
                next.holes[last] = 0;
                info.made_tuzdik = true;
            } else {
                info.three_without_tuzdik = true;
            }
        }
    }

    next.side = opponent;
    (next, info)
}

/// Plays `hole` (1-based, of the side to move). Panics if the move is not legal.
pub fn play(rules: &PlainRules, pos: &PlainPos, hole: usize) -> PlainPos {
    play_info(rules, pos, hole).0
}

/// Where the last stone of `hole` falls (hole number 1..n in its owner's numbering) and whether
/// the move makes a tuzdik: the two parts of the PlayOK long notation.
pub fn landing(rules: &PlainRules, pos: &PlainPos, hole: usize) -> (usize, bool) {
    let (_, info) = play_info(rules, pos, hole);
    (info.last_index % rules.n + 1, info.made_tuzdik)
}

/// The PlayOK long form of a move, e.g. `76`, `68X` (without the `(k)` suffix).
pub fn long_move(rules: &PlainRules, pos: &PlainPos, hole: usize) -> String {
    let (to, made) = landing(rules, pos, hole);
    if made {
        format!("{hole}{to}X")
    } else {
        format!("{hole}{to}")
    }
}

/// Counts the move sequences of length `depth` (a finished position has none at depth >= 1).
pub fn perft(rules: &PlainRules, pos: &PlainPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut count = 0;
    for hole in legal_moves(rules, pos) {
        let next = play(rules, pos, hole);
        count += perft(rules, &next, depth - 1);
    }
    count
}

/// Perft split by root move: `(hole, count)` for every legal move.
pub fn perft_divide(rules: &PlainRules, pos: &PlainPos, depth: u32) -> Vec<(usize, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for hole in legal_moves(rules, pos) {
        let next = play(rules, pos, hole);
        out.push((hole, perft(rules, &next, depth - 1)));
    }
    out
}

/// Final scores `[South, North]` of a finished position by rule 3a/3b: the kazans plus the
/// stones left on each row, added to that row's owner.
pub fn final_scores(rules: &PlainRules, pos: &PlainPos) -> [u32; 2] {
    [
        pos.kazan[SOUTH] + row_stones(rules, pos, SOUTH),
        pos.kazan[NORTH] + row_stones(rules, pos, NORTH),
    ]
}
