//! The perft suite `positions/perft.txt`: its reader, and its generator (seeded random playouts
//! with the plain rules, so the file comes out the same on every run).
//!
//! Line format (`#` comments and blank lines allowed):
//! `<variant spec> ; <position string> ; <perft d1> <perft d2> ... <perft dk>`

use super::{
    MoveInfo, PlainPos, PlainRules, format, is_over, legal_moves, parse, perft, play, play_info,
    row_stones, start,
};
use std::collections::HashSet;

/// Where the suite lives unless `PERFT_SUITE_IN` / `PERFT_SUITE_OUT` say otherwise.
pub const DEFAULT_SUITE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/perft.txt");

/// The path the suite is read from: `$PERFT_SUITE_IN`, else `positions/perft.txt` of the crate.
pub fn suite_in_path() -> String {
    match std::env::var("PERFT_SUITE_IN") {
        Ok(p) if !p.is_empty() => p,
        _ => DEFAULT_SUITE_PATH.to_string(),
    }
}

/// The path the suite is written to: `$PERFT_SUITE_OUT`, else `positions/perft.txt` of the crate.
pub fn suite_out_path() -> String {
    match std::env::var("PERFT_SUITE_OUT") {
        Ok(p) if !p.is_empty() => p,
        _ => DEFAULT_SUITE_PATH.to_string(),
    }
}

/// One line of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The `#` comment lines just above the entry (without the `#`).
    pub comment: Vec<String>,
    pub spec: String,
    pub position: String,
    /// `counts[d - 1]` is perft at depth `d`.
    pub counts: Vec<u64>,
}

/// Reads the suite text. Only the format is checked here, not the rules.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut entries = Vec::new();
    let mut comment: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            comment.clear();
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            comment.push(rest.trim().to_string());
            continue;
        }
        let parts: Vec<&str> = line.split(';').collect();
        if parts.len() != 3 {
            return Err(format!("line {}: expected 3 ';'-separated fields", i + 1));
        }
        let mut counts = Vec::new();
        for word in parts[2].split_whitespace() {
            match word.parse::<u64>() {
                Ok(c) => counts.push(c),
                Err(_) => return Err(format!("line {}: bad count '{word}'", i + 1)),
            }
        }
        if counts.is_empty() {
            return Err(format!("line {}: no perft counts", i + 1));
        }
        entries.push(SuiteEntry {
            line: i + 1,
            comment: std::mem::take(&mut comment),
            spec: parts[0].trim().to_string(),
            position: parts[1].trim().to_string(),
            counts,
        });
    }
    Ok(entries)
}

/// SplitMix64, a tiny seeded generator (enough for picking random moves).
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..k` (k > 0).
    pub fn below(&mut self, k: usize) -> usize {
        (self.next_u64() % k as u64) as usize
    }
}

/// How the random playouts choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    /// Every legal move equally likely.
    Uniform,
    /// Mostly the smallest non-empty hole, so big holes build up.
    Hoarder,
}

impl Policy {
    fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform",
            Policy::Hoarder => "hoarding",
        }
    }
}

fn choose_move(rules: &PlainRules, pos: &PlainPos, rng: &mut SplitMix64, policy: Policy) -> usize {
    let moves = legal_moves(rules, pos);
    if policy == Policy::Hoarder && rng.below(4) != 0 {
        let mut best = moves[0];
        for &m in &moves {
            let here = pos.holes[pos.side * rules.n + m - 1];
            let best_here = pos.holes[pos.side * rules.n + best - 1];
            if here < best_here {
                best = m;
            }
        }
        return best;
    }
    moves[rng.below(moves.len())]
}

/// Where a position found by a search came from.
struct Found {
    pos: PlainPos,
    seed: u64,
    ply: usize,
}

const MAX_PLIES: usize = 600;
const MAX_SEEDS: u64 = 20_000;

/// Plays random games from the start, seeds `seed0, seed0 + 1, ...`, and returns the first
/// position (at ply >= `min_ply`) that `accept` likes. With `want_over`, only finished positions
/// are offered to `accept`; otherwise only unfinished ones.
fn search(
    rules: &PlainRules,
    seed0: u64,
    policy: Policy,
    min_ply: usize,
    want_over: bool,
    accept: &dyn Fn(&PlainPos) -> bool,
) -> Found {
    for seed in seed0..seed0 + MAX_SEEDS {
        let mut rng = SplitMix64::new(seed);
        let mut pos = start(rules);
        for ply in 0..MAX_PLIES {
            let over = is_over(rules, &pos);
            if ply >= min_ply && over == want_over && accept(&pos) {
                return Found { pos, seed, ply };
            }
            if over {
                break;
            }
            let m = choose_move(rules, &pos, &mut rng, policy);
            pos = play(rules, &pos, m);
        }
    }
    panic!(
        "no position found for {} (seeds {seed0}..{})",
        rules.spec(),
        seed0 + MAX_SEEDS
    );
}

/// A random playout stopped after exactly `plies` plies (a seed whose game ends sooner is
/// passed over for the next one).
fn playout(rules: &PlainRules, seed0: u64, policy: Policy, plies: usize) -> Found {
    let found = search(rules, seed0, policy, plies, false, &|_| true);
    assert_eq!(found.ply, plies);
    found
}

fn plies_word(plies: usize) -> &'static str {
    if plies == 1 { "ply" } else { "plies" }
}

fn side_name(side: usize) -> &'static str {
    if side == 0 { "South" } else { "North" }
}

/// A short description of a position for the comment line.
fn describe(rules: &PlainRules, pos: &PlainPos) -> String {
    let n = rules.n;
    let mut parts = vec![format!("{} to move", side_name(pos.side))];
    for p in 0..2 {
        if let Some(t) = pos.tuzdik[p] {
            parts.push(format!(
                "{} tuzdik on {} {}",
                side_name(p),
                side_name(t / n),
                t % n + 1
            ));
        }
    }
    let biggest = pos.holes.iter().copied().max().unwrap_or(0);
    let board = row_stones(rules, pos, 0) + row_stones(rules, pos, 1);
    parts.push(format!("largest hole {biggest}"));
    parts.push(format!("{board} stones on the board"));
    parts.push(format!("kazans {}-{}", pos.kazan[0], pos.kazan[1]));
    parts.join(", ")
}

/// Why a tuzdik was not made on a 3-landing, if the move had one.
fn blocked_reason(rules: &PlainRules, pos: &PlainPos, info: &MoveInfo) -> Option<char> {
    if !rules.tuzdik || !info.three_without_tuzdik {
        return None;
    }
    let n = rules.n;
    let mover = pos.side;
    let has_one = pos.tuzdik[mover].is_some();
    let last_hole = info.last_index % n == n - 1;
    match (has_one, last_hole) {
        (true, false) => Some('a'),
        (false, true) => Some('b'),
        (false, false) => Some('c'),
        (true, true) => Some('+'),
    }
}

fn root_infos(rules: &PlainRules, pos: &PlainPos) -> Vec<(usize, MoveInfo)> {
    let mut out = Vec::new();
    for m in legal_moves(rules, pos) {
        let (_, info) = play_info(rules, pos, m);
        out.push((m, info));
    }
    out
}

/// Largest count at the last depth for depths 6 and 7 (depths 1..5 are always written).
const DEEP_CAP: u64 = 1_000_000;
const MIN_DEPTH: u32 = 5;
const MAX_DEPTH: u32 = 7;

/// The perft counts written for a position: depths 1..5, then 6 and 7 while the count stays
/// under `DEEP_CAP` (a finished position gets five zeros).
fn suite_counts(rules: &PlainRules, pos: &PlainPos) -> Vec<u64> {
    let mut counts: Vec<u64> = Vec::new();
    for depth in 1..=MAX_DEPTH {
        if depth > MIN_DEPTH && counts[counts.len() - 1] == 0 {
            break;
        }
        if depth > MIN_DEPTH {
            // Skip a depth that will clearly be too big without computing it.
            let last = counts[counts.len() - 1];
            let before = counts[counts.len() - 2].max(1);
            if last.saturating_mul(last) / before > 3 * DEEP_CAP {
                break;
            }
        }
        let c = perft(rules, pos, depth);
        if depth > MIN_DEPTH && c > DEEP_CAP {
            break;
        }
        counts.push(c);
    }
    counts
}

struct Builder {
    body: String,
    positions: usize,
    nodes: u64,
    seen: HashSet<String>,
    variants: HashSet<&'static str>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            body: String::new(),
            positions: 0,
            nodes: 0,
            seen: HashSet::new(),
            variants: HashSet::new(),
        }
    }

    fn section(&mut self, title: &str) {
        self.body.push_str("\n# ==== ");
        self.body.push_str(title);
        self.body.push_str(" ====\n");
    }

    fn add(&mut self, what: &str, rules: &PlainRules, pos: &PlainPos) {
        let text = format(rules, pos);
        // The string must read back as the same position.
        let back = parse(rules, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&back, pos, "round trip of {text}");
        let key = format!("{} ; {}", rules.spec(), text);
        assert!(self.seen.insert(key.clone()), "duplicate suite line {key}");

        let counts = suite_counts(rules, pos);
        let words: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        self.nodes += counts.iter().sum::<u64>();
        self.positions += 1;
        self.variants.insert(rules.variant_name());

        self.body
            .push_str(&format!("\n# {what}\n# ({})\n", describe(rules, pos)));
        self.body
            .push_str(&format!("{key} ; {}\n", words.join(" ")));
    }

    fn add_found(&mut self, what: &str, rules: &PlainRules, found: &Found, policy: Policy) {
        let what = format!(
            "{what}; {} playout seed {}, ply {}",
            policy.name(),
            found.seed,
            found.ply
        );
        self.add(&what, rules, &found.pos);
    }
}

fn rules(spec: &str) -> PlainRules {
    PlainRules::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn hand_made(spec: &str, position: &str) -> (PlainRules, PlainPos) {
    let r = rules(spec);
    let p = parse(&r, position).unwrap_or_else(|e| panic!("{position}: {e}"));
    (r, p)
}

/// Every switch combination of a variant, defaults first.
fn all_combinations(variant: &str) -> Vec<PlainRules> {
    let mut out = Vec::new();
    for tuzdik in ["", " tuzdik=on", " tuzdik=off"] {
        for sowing in ["", " sowing=skip-origin"] {
            for capture in ["", " capture=singleton"] {
                let r = rules(&format!("{variant}{tuzdik}{sowing}{capture}"));
                if tuzdik.is_empty() || r.tuzdik != r.default_tuzdik() {
                    out.push(r);
                }
            }
        }
    }
    out
}

/// Builds the whole suite file. Deterministic.
pub fn generate_suite() -> String {
    let mut b = Builder::new();
    let variants = ["togyz", "kozdatu", "bestemshchi"];

    b.section("start positions, every variant and switch combination");
    for v in variants {
        for r in all_combinations(v) {
            let what = if r.spec() == v {
                format!("{v} start position, default switches (RULES.md reference figures)")
            } else {
                format!("start position, {}", r.spec())
            };
            b.add(&what, &r, &start(&r));
        }
    }

    b.section("mid-game positions from random playouts, default switches");
    for (vi, v) in variants.iter().enumerate() {
        let r = rules(v);
        for (i, plies) in [1usize, 4, 9, 16, 25, 40].iter().enumerate() {
            let seed = 1000 + 100 * vi as u64 + 10 * i as u64;
            let found = playout(&r, seed, Policy::Uniform, *plies);
            let what = format!("{v} mid-game after {plies} {}", plies_word(*plies));
            b.add_found(&what, &r, &found, Policy::Uniform);
        }
    }

    b.section("mid-game positions with the rule switches");
    for (vi, v) in variants.iter().enumerate() {
        let flip = if *v == "togyz" {
            "tuzdik=off"
        } else {
            "tuzdik=on"
        };
        let specs = [
            format!("{v} {flip}"),
            format!("{v} sowing=skip-origin"),
            format!("{v} capture=singleton"),
            format!("{v} sowing=skip-origin capture=singleton"),
            format!("{v} {flip} sowing=skip-origin capture=singleton"),
        ];
        for (i, spec) in specs.iter().enumerate() {
            let r = rules(spec);
            let plies = [11usize, 18, 23, 30, 14][i];
            let seed = 2000 + 100 * vi as u64 + 10 * i as u64;
            let found = playout(&r, seed, Policy::Uniform, plies);
            b.add_found(
                &format!("{spec} mid-game after {plies} plies"),
                &r,
                &found,
                Policy::Uniform,
            );
        }
    }

    b.section("tuzdiks on the board");
    {
        let cases: [(&str, &str, u64, usize); 8] = [
            ("togyz", "South has a tuzdik, North none", 3000, 1),
            ("togyz", "North has a tuzdik, South none", 3100, 2),
            ("togyz", "both sides have a tuzdik", 3200, 3),
            (
                "togyz sowing=skip-origin",
                "both sides have a tuzdik",
                3300,
                3,
            ),
            (
                "togyz capture=singleton",
                "both sides have a tuzdik",
                3400,
                3,
            ),
            ("kozdatu tuzdik=on", "both sides have a tuzdik", 3500, 3),
            ("bestemshchi tuzdik=on", "one side has a tuzdik", 3600, 4),
            ("bestemshchi tuzdik=on", "both sides have a tuzdik", 3700, 3),
        ];
        for (spec, what, seed, kind) in cases {
            let r = rules(spec);
            let accept = move |p: &PlainPos| match kind {
                1 => p.tuzdik[0].is_some() && p.tuzdik[1].is_none(),
                2 => p.tuzdik[0].is_none() && p.tuzdik[1].is_some(),
                3 => p.tuzdik[0].is_some() && p.tuzdik[1].is_some(),
                _ => p.tuzdik[0].is_some() != p.tuzdik[1].is_some(),
            };
            let found = search(&r, seed, Policy::Uniform, 10, false, &accept);
            b.add_found(&format!("{spec}: {what}"), &r, &found, Policy::Uniform);
        }
    }

    b.section("tuzdik edge cases at the root");
    {
        let cases: [(&str, &str, u64, char); 7] = [
            ("togyz", "a root move makes a tuzdik", 4000, 'T'),
            (
                "togyz",
                "a root move lands 3 but the mover already has a tuzdik (2a)",
                4100,
                'a',
            ),
            (
                "togyz",
                "a root move lands 3 on the opponent's hole 9 (2b)",
                4200,
                'b',
            ),
            (
                "togyz",
                "a root move lands 3 opposite-numbered to the opponent's tuzdik (2c)",
                4300,
                'c',
            ),
            (
                "togyz",
                "a root move's last stone falls into a tuzdik",
                4400,
                'K',
            ),
            (
                "kozdatu tuzdik=on",
                "a root move lands 3 on the opponent's hole 7 (2b)",
                4500,
                'b',
            ),
            (
                "bestemshchi",
                "a root move lands 3 on the opponent's side, no tuzdiks in the variant",
                4600,
                'n',
            ),
        ];
        for (spec, what, seed, kind) in cases {
            let r = rules(spec);
            let rr = r.clone();
            let accept = move |p: &PlainPos| {
                root_infos(&rr, p).iter().any(|(_, info)| match kind {
                    'T' => info.made_tuzdik,
                    'K' => p.tuzdik.contains(&Some(info.last_index)),
                    'n' => info.three_without_tuzdik,
                    c => blocked_reason(&rr, p, info) == Some(c),
                })
            };
            let found = search(&r, seed, Policy::Uniform, 2, false, &accept);
            b.add_found(&format!("{spec}: {what}"), &r, &found, Policy::Uniform);
        }
    }

    b.section("long sowings that lap the ring, big holes");
    {
        // (spec, what, seed, smallest hole count of the side to move that must be present)
        let cases: [(&str, &str, u64, u32); 6] = [
            ("togyz", "the mover has a hole of 19+ stones", 5000, 19),
            ("togyz", "the mover has a hole of 28+ stones", 5100, 28),
            (
                "togyz sowing=skip-origin",
                "the mover has a hole of 19+ stones",
                5200,
                19,
            ),
            ("kozdatu", "the mover has a hole of 15+ stones", 5300, 15),
            (
                "bestemshchi",
                "the mover has a hole of 11+ stones",
                5400,
                11,
            ),
            (
                "bestemshchi sowing=skip-origin capture=singleton",
                "the mover has a hole of 11+ stones",
                5500,
                11,
            ),
        ];
        for (spec, what, seed, big) in cases {
            let r = rules(spec);
            let n = r.n;
            let accept = move |p: &PlainPos| {
                p.holes[p.side * n..p.side * n + n]
                    .iter()
                    .any(|&c| c >= big)
            };
            let found = search(&r, seed, Policy::Hoarder, 4, false, &accept);
            b.add_found(&format!("{spec}: {what}"), &r, &found, Policy::Hoarder);
        }
        let crafted: [(&str, &str, &str); 5] = [
            (
                "togyz",
                "hand-made: South hole 1 holds 19, the last stone falls back into it",
                "19,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,8 0 0 w 1",
            ),
            (
                "togyz",
                "hand-made: South hole 2 holds 40 (two laps and more), North holes thin",
                "5,40,5,5,5,5,5,5,5/3,3,3,3,3,3,3,3,3 38 17 w 1",
            ),
            (
                "togyz sowing=skip-origin",
                "hand-made: North hole 5 holds 37, skip-origin sowing skips it twice",
                "4,4,4,4,4,4,4,4,4/4,4,4,4,37,4,4,4,4 40 17 b 1",
            ),
            (
                "kozdatu",
                "hand-made: South hole 7 holds 29 (two full laps plus one)",
                "1,1,1,1,1,1,29/2,2,2,2,2,2,2 25 24 w 1",
            ),
            (
                "bestemshchi tuzdik=on",
                "hand-made: North hole 1 holds 21 and laps over both tuzdiks",
                "1,X,1,1,1/21,1,1,X,1 12 10 b 1",
            ),
        ];
        for (spec, what, position) in crafted {
            let (r, p) = hand_made(spec, position);
            b.add(what, &r, &p);
        }
    }

    b.section("near the end: few stones on the board, a kazan near the win line");
    {
        // (spec, what, seed, kind, limit)
        let cases: [(&str, &str, u64, u8, u32); 11] = [
            ("togyz", "at most 12 stones on the board", 6000, 0, 12),
            ("togyz", "a kazan within 3 of the win line (82)", 6100, 1, 3),
            ("togyz", "the side not to move has an empty row", 6200, 2, 0),
            ("kozdatu", "at most 8 stones on the board", 6300, 0, 8),
            (
                "kozdatu",
                "a kazan within 3 of the win line (50)",
                6400,
                1,
                3,
            ),
            ("bestemshchi", "at most 6 stones on the board", 6500, 0, 6),
            (
                "bestemshchi",
                "a kazan within 2 of the win line (26)",
                6600,
                1,
                2,
            ),
            (
                "bestemshchi",
                "the side not to move has an empty row",
                6700,
                2,
                0,
            ),
            (
                "togyz capture=singleton",
                "at most 14 stones on the board",
                6800,
                0,
                14,
            ),
            (
                "togyz",
                "the side not to move has an empty row, some moves feed it",
                6900,
                3,
                0,
            ),
            (
                "kozdatu",
                "the side not to move has an empty row, some moves feed it",
                6950,
                3,
                0,
            ),
        ];
        for (spec, what, seed, kind, limit) in cases {
            let r = rules(spec);
            let rr = r.clone();
            let accept = move |p: &PlainPos| {
                let board = row_stones(&rr, p, 0) + row_stones(&rr, p, 1);
                match kind {
                    0 => board <= limit,
                    1 => p.kazan[0].max(p.kazan[1]) + limit >= rr.win_threshold(),
                    2 => row_stones(&rr, p, 1 - p.side) == 0,
                    _ => {
                        row_stones(&rr, p, 1 - p.side) == 0
                            && legal_moves(&rr, p)
                                .iter()
                                .any(|&m| !is_over(&rr, &play(&rr, p, m)))
                    }
                }
            };
            let found = search(&r, seed, Policy::Uniform, 10, false, &accept);
            b.add_found(&format!("{spec}: {what}"), &r, &found, Policy::Uniform);
        }
    }

    b.section("finished positions (no legal moves: perft 0)");
    {
        let cases: [(&str, &str, u64, bool); 4] = [
            (
                "togyz",
                "game over: a kazan past the win line (3a)",
                7000,
                true,
            ),
            (
                "togyz",
                "game over: the side to move has no stones (3b)",
                7100,
                false,
            ),
            (
                "kozdatu",
                "game over: a kazan past the win line (3a)",
                7200,
                true,
            ),
            (
                "bestemshchi",
                "game over: the side to move has no stones (3b)",
                7300,
                false,
            ),
        ];
        for (spec, what, seed, by_kazan) in cases {
            let r = rules(spec);
            let rr = r.clone();
            let accept = move |p: &PlainPos| {
                let won = p.kazan[0].max(p.kazan[1]) >= rr.win_threshold();
                won == by_kazan
            };
            let found = search(&r, seed, Policy::Uniform, 0, true, &accept);
            b.add_found(&format!("{spec}: {what}"), &r, &found, Policy::Uniform);
        }
    }

    assert_eq!(b.variants.len(), 3, "every variant covered");
    let mut out = String::new();
    out.push_str(
        "# tuzdik perft suite. Generated by the plain implementation in tests/plain/ (test\n",
    );
    out.push_str("# generate_perft_suite in tests/plain_reference.rs); do not edit by hand. Regenerate with\n");
    out.push_str(
        "#   cargo test --release --test plain_reference -- --ignored generate_perft_suite\n",
    );
    out.push_str(
        "# Format: <variant spec> ; <position string> ; <perft d1> <perft d2> ... <perft dk>\n",
    );
    out.push_str(
        "# Perft counts move sequences by RULES.md 3a/3b only (repetition ignored); a finished\n",
    );
    out.push_str("# position has perft 0 at every depth >= 1.\n");
    out.push_str(&format!(
        "# {} Toguz-family positions, {} nodes in all (the sum of every count on every line).\n",
        b.positions, b.nodes
    ));
    out.push_str(&b.body);
    out
}
