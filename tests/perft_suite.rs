//! The fast rules against `positions/perft.txt` (made by the plain implementation in
//! `tests/plain/`) and against the plain implementation move by move on random games.

mod plain;

use proptest::prelude::*;
use tuzdik::perft::{PerftOptions, perft, perft_with};
use tuzdik::{Move, Position, Side, Variant};

fn suite() -> Vec<plain::generate::SuiteEntry> {
    let text = std::fs::read_to_string(plain::generate::suite_in_path()).expect("perft suite");
    plain::generate::parse_suite(&text).expect("suite format")
}

#[test]
fn fast_perft_matches_the_whole_suite() {
    let entries = suite();
    assert!(entries.len() >= 60);
    for entry in &entries {
        let variant: Variant = entry.spec.parse().expect("variant spec");
        let pos = Position::parse_with(&entry.position, variant)
            .unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
        assert_eq!(pos.to_fen(1), entry.position, "line {}", entry.line);
        for (index, &expected) in entry.counts.iter().enumerate() {
            let depth = index as u32 + 1;
            assert_eq!(
                perft(&pos, depth),
                expected,
                "line {} ({}) depth {depth}",
                entry.line,
                entry.spec
            );
        }
    }
}

#[test]
fn threaded_and_cached_perft_match_the_suite() {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let options = PerftOptions {
        threads: 2,
        cache_entries: 1 << 14,
    };
    for entry in suite().iter().step_by(7) {
        let variant: Variant = entry.spec.parse().unwrap();
        let pos = Position::parse_with(&entry.position, variant).unwrap();
        let depth = entry.counts.len().min(5);
        assert_eq!(
            perft_with(&pos, depth as u32, &options, &stop),
            Ok(entry.counts[depth - 1]),
            "line {}",
            entry.line
        );
    }
}

const SPECS: [&str; 8] = [
    "togyz",
    "togyz tuzdik=off",
    "togyz sowing=skip-origin",
    "togyz capture=singleton",
    "kozdatu",
    "kozdatu tuzdik=on sowing=skip-origin",
    "bestemshchi",
    "bestemshchi tuzdik=on capture=singleton",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every move of a random game does the same in both implementations: the same position
    /// string, landing hole and tuzdik mark, the same legal moves and the same end; the
    /// incremental key always equals the recomputed one; stones are conserved.
    #[test]
    fn fast_and_plain_agree_move_by_move(spec in 0..SPECS.len(), choices in prop::collection::vec(0usize..9, 0..400)) {
        let spec = SPECS[spec];
        let variant: Variant = spec.parse().unwrap();
        let rules = plain::PlainRules::from_spec(spec).unwrap();
        let mut fast = Position::start(variant);
        let mut slow = plain::start(&rules);
        for choice in choices {
            let fast_moves: Vec<usize> = fast.legal_moves().iter().map(|m| m.source().unwrap() as usize).collect();
            prop_assert_eq!(&fast_moves, &plain::legal_moves(&rules, &slow));
            prop_assert_eq!(fast.is_over(), plain::is_over(&rules, &slow));
            if fast_moves.is_empty() {
                prop_assert_eq!(fast.final_scores(), Some(plain::final_scores(&rules, &slow)));
                break;
            }
            let hole = fast_moves[choice % fast_moves.len()];
            let long = fast.long_notation(Move::hole(hole as u8), false);
            prop_assert_eq!(&long, &plain::long_move(&rules, &slow, hole));
            prop_assert_eq!(fast.parse_move(&long), Ok(Move::hole(hole as u8)));
            fast.try_play(Move::hole(hole as u8)).unwrap();
            slow = plain::play(&rules, &slow, hole);
            prop_assert_eq!(fast.to_fen(1), plain::format(&rules, &slow));
            prop_assert_eq!(fast.key(), fast.compute_key());
            prop_assert_eq!(
                fast.stones_on_board() + fast.kazan(Side::South) + fast.kazan(Side::North),
                variant.total_stones()
            );
            prop_assert_eq!(Position::parse_with(&fast.to_string(), variant), Ok(fast));
        }
    }
}

const MANGALA_SPECS: [&str; 2] = ["mangala4", "mangala4 mangala=free-choice"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Mangala IV move by move against the plain implementation, from the start or a random
    /// set-up: the same moves (passes included), the same positions, keys kept, counters
    /// conserved.
    #[test]
    fn mangala_fast_and_plain_agree(spec in 0..2usize, seed in prop::option::of(0u64..1000), choices in prop::collection::vec(0usize..7, 0..300)) {
        let variant: Variant = MANGALA_SPECS[spec].parse().unwrap();
        let rules = plain::mangala::PlainMangala::from_spec(MANGALA_SPECS[spec]).unwrap();
        let mut fast = match seed {
            Some(seed) => Position::parse_with(&Position::random_mangala(seed).to_string(), variant).unwrap(),
            None => Position::start(variant),
        };
        let mut slow = plain::mangala::parse(&fast.to_string()).unwrap();
        for choice in choices {
            let fast_moves: Vec<usize> = fast
                .legal_moves()
                .iter()
                .map(|m| m.source().map_or(0, usize::from))
                .collect();
            prop_assert_eq!(&fast_moves, &plain::mangala::legal_moves(&rules, &slow));
            if fast_moves.is_empty() {
                prop_assert!(fast.is_over());
                break;
            }
            let hole = fast_moves[choice % fast_moves.len()];
            let mv = if hole == 0 { Move::PASS } else { Move::hole(hole as u8) };
            fast.try_play(mv).unwrap();
            slow = plain::mangala::play(&rules, &slow, hole);
            prop_assert_eq!(fast.to_fen(1), plain::mangala::format(&slow));
            prop_assert_eq!(fast.key(), fast.compute_key());
            prop_assert_eq!(fast.stones_on_board() + fast.kazan(Side::South) + fast.kazan(Side::North), 98);
        }
    }
}
