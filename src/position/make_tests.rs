//! The make's rules, and its three paths checked against one another on every legal move of
//! random and scrambled positions: the fast make (position/make.rs), the search's make, perft's
//! leaf counter (position/leaves.rs) and the general make (position/general.rs).

use super::{Effect, READ_SWITCHES, STANDARD_SWITCHES, has_standard_switches, with_row_len};
use crate::rng::SplitMix;
use crate::{Capture, Move, Position, Side, Sowing, Variant};

fn play(fen: &str, variant: Variant, hole: u8) -> (Position, Effect) {
    let mut pos = Position::parse_with(fen, variant).unwrap();
    let effect = pos.try_play(Move::hole(hole)).unwrap();
    assert_eq!(pos.key(), pos.compute_key());
    (pos, effect)
}

#[test]
fn first_stone_goes_back_into_the_origin() {
    let (pos, effect) = play(
        &Position::start(Variant::TOGYZ).to_string(),
        Variant::TOGYZ,
        1,
    );
    assert_eq!(pos.row(Side::South), &[1, 10, 10, 10, 10, 10, 10, 10, 10]);
    assert_eq!(pos.row(Side::North), &[9; 9]);
    assert_eq!((effect.landing_side, effect.landing_hole), (Side::South, 9));
}

#[test]
fn a_single_stone_moves_on() {
    let fen = "1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 80 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 1);
    assert_eq!(pos.row(Side::South)[..2], [0, 1]);
    assert_eq!(effect.landing_hole, 2);
}

#[test]
fn even_landing_captures_and_odd_does_not() {
    let (pos, effect) = play(
        &Position::start(Variant::TOGYZ).to_string(),
        Variant::TOGYZ,
        8,
    );
    assert_eq!(effect.captured, 10);
    assert_eq!(pos.kazan(Side::South), 10);
    assert_eq!(pos.stones(Side::North, 7), 0);
    // Hole 1's nine stones end on South's own hole 9: nothing happens.
    let (pos, effect) = play(
        &Position::start(Variant::TOGYZ).to_string(),
        Variant::TOGYZ,
        1,
    );
    assert_eq!(effect.captured, 0);
    assert_eq!(pos.kazan(Side::South), 0);
    // Landing on the opponent's side on an odd count captures nothing either.
    let (pos, effect) = play(
        "0,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w",
        Variant::TOGYZ.with_tuzdik(false),
        9,
    );
    assert_eq!(effect.captured, 0);
    assert_eq!(pos.stones(Side::North, 1), 3);
}

#[test]
fn landing_on_three_makes_a_tuzdik() {
    // Hole 9 with 2 stones lands on North's hole 1, which then holds 3.
    let fen = "0,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 9);
    assert!(effect.made_tuzdik);
    assert_eq!(pos.tuzdik(Side::South), Some(1));
    assert_eq!(pos.kazan(Side::South), 82);
    assert!(pos.is_tuzdik(Side::North, 1));
}

#[test]
fn tuzdik_exceptions_hold() {
    // Landing on North's hole 9 with 3 never makes a tuzdik.
    let fen = "0,0,0,0,0,0,0,0,10/0,0,0,0,0,0,0,0,2 70 80 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 9);
    assert_eq!((effect.landing_hole, effect.made_tuzdik), (9, false));
    assert_eq!(pos.stones(Side::North, 9), 3);
    // North's tuzdik on South's hole 1 forbids South's on North's hole 1.
    let fen = "X,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 9);
    assert!(!effect.made_tuzdik);
    assert_eq!(pos.stones(Side::North, 1), 3);
    // A second tuzdik is never made.
    let fen = "0,0,0,0,0,0,0,0,2/2,X,0,0,0,0,0,0,0 79 79 w";
    let (_, effect) = play(fen, Variant::TOGYZ, 9);
    assert!(!effect.made_tuzdik);
    // Without the switch nothing happens either.
    let variant = Variant::new(crate::Family::Bestemshchi);
    let (pos, effect) = play("0,0,0,0,2/2,0,0,0,0 23 23 w", variant, 5);
    assert!(!effect.made_tuzdik);
    assert_eq!(pos.stones(Side::North, 1), 3);
}

#[test]
fn stones_falling_into_a_tuzdik_go_to_its_owner() {
    // South owns a tuzdik on North's hole 2; South's hole 9 sows into it.
    let fen = "0,0,0,0,0,0,0,0,4/0,X,0,0,0,0,0,0,0 79 79 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 9);
    assert_eq!(pos.kazan(Side::South), 80);
    assert_eq!(pos.row(Side::North)[..3], [1, 0, 1]);
    assert_eq!((effect.landing_hole, effect.captured), (3, 0));
}

#[test]
fn long_sowings_lap_without_skipping_the_origin() {
    // 20 stones: 18 fill one lap, the 19th goes back into the origin, the 20th lands on the
    // next hole.
    let fen = "20,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 71 71 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 1);
    assert_eq!(pos.row(Side::South), &[2, 2, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(effect.landing_hole, 2);
    let (pos, _) = play(fen, Variant::TOGYZ.with_sowing(Sowing::SkipOrigin), 1);
    // Skip-origin: 17 holes, 20 stones = one lap plus 3.
    assert_eq!(pos.row(Side::South), &[0, 2, 2, 2, 1, 1, 1, 1, 1]);
}

#[test]
fn singleton_capture_needs_a_lone_stone() {
    let singleton = Variant::TOGYZ.with_capture(Capture::Singleton);
    let fen = "0,0,0,0,0,0,0,0,2/3,0,0,0,0,0,0,0,0 78 79 w";
    let (pos, effect) = play(fen, Variant::TOGYZ, 9);
    assert_eq!(effect.captured, 4);
    assert_eq!(pos.kazan(Side::South), 82);
    let (pos, effect) = play(fen, singleton, 9);
    assert_eq!(effect.captured, 0);
    assert_eq!(pos.stones(Side::North, 1), 4);
}

fn every_variant() -> Vec<Variant> {
    let mut all = Vec::new();
    for family in crate::Family::TOGUZ_FAMILY {
        for tuzdik in [false, true] {
            for sowing in [Sowing::Standard, Sowing::SkipOrigin] {
                for capture in [Capture::Standard, Capture::Singleton] {
                    all.push(
                        Variant::new(family)
                            .with_tuzdik(tuzdik)
                            .with_sowing(sowing)
                            .with_capture(capture),
                    );
                }
            }
        }
    }
    all
}

/// A random valid position: stones thrown unevenly into the holes (so that long, lapping
/// sowings occur), random kazans below the win line or just over it, and, where the
/// variant has them, random tuzdiks.
fn scrambled(variant: Variant, rng: &mut SplitMix) -> Option<Position> {
    let n = variant.holes_per_side();
    let total = variant.total_stones();
    let mut kazans = [0u32; 2];
    let mut left = total;
    for kazan in &mut kazans {
        *kazan = rng
            .below(variant.win_threshold() as usize + 2)
            .min(left as usize) as u32;
        left -= *kazan;
    }
    let mut tuzdiks = [None, None];
    if variant.tuzdik() {
        for tuzdik in &mut tuzdiks {
            if rng.below(2) == 0 {
                *tuzdik = Some(rng.below(n - 1) as u8 + 1);
            }
        }
    }
    let mut rows = [vec![0u8; n], vec![0u8; n]];
    let open: Vec<(usize, usize)> = (0..2)
        .flat_map(|side| (0..n).map(move |hole| (side, hole)))
        .filter(|&(side, hole)| tuzdiks[1 - side] != Some(hole as u8 + 1))
        .collect();
    // A few holes take most of the stones.
    let heavy = [open[rng.below(open.len())], open[rng.below(open.len())]];
    while left > 0 {
        let (side, hole) = if rng.below(3) == 0 {
            heavy[rng.below(2)]
        } else {
            open[rng.below(open.len())]
        };
        rows[side][hole] += 1;
        left -= 1;
    }
    let side = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    Position::from_parts(variant, &rows, kazans, tuzdiks, side).ok()
}

/// The legal moves counted hole by hole, for comparison.
fn naive_mask(pos: &Position) -> u16 {
    if pos.kazan(Side::South) >= pos.variant().win_threshold()
        || pos.kazan(Side::North) >= pos.variant().win_threshold()
    {
        return 0;
    }
    let mut mask = 0;
    for (bit, &count) in pos.row(pos.side_to_move()).iter().enumerate() {
        if count != 0 {
            mask |= 1 << bit;
        }
    }
    mask
}

/// Every shortcut of the register path against the general path, for every legal move.
fn check_all_moves(pos: &Position) {
    with_row_len!(pos.variant(), N => check_moves_n::<N>(pos));
}

fn check_moves_n<const N: usize>(pos: &Position) {
    let mask = pos.legal_mask();
    assert_eq!(mask, naive_mask(pos), "{pos:?}");
    assert_eq!(pos.legal_count(), mask.count_ones(), "{pos:?}");
    let leaves = pos.leaves::<N>();
    let mut bits = mask;
    while bits != 0 {
        let bit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let origin = pos.side_to_move().index() * N + bit;
        let mut general = *pos;
        let expected = general.sow_general::<true>(origin);
        let mut fast = *pos;
        assert_eq!(
            fast.make::<N, READ_SWITCHES, true>(origin),
            expected,
            "{pos:?} hole {}",
            bit + 1
        );
        assert_eq!(fast, general, "{pos:?} hole {}", bit + 1);
        assert_eq!(fast.key(), fast.compute_key(), "{pos:?} hole {}", bit + 1);
        let mut unhashed = *pos;
        assert_eq!(unhashed.make::<N, READ_SWITCHES, false>(origin), expected);
        assert_eq!(unhashed.to_string(), general.to_string());
        let mut searched = *pos;
        assert_eq!(
            searched.make_unhashed_moves::<N>(origin),
            general.legal_mask(),
            "{pos:?} hole {}",
            bit + 1
        );
        assert_eq!(searched.to_string(), general.to_string());
        assert_eq!(
            pos.count_after::<N, READ_SWITCHES>(&leaves, origin),
            general.legal_count(),
            "{pos:?} hole {}",
            bit + 1
        );
        assert_eq!(general.legal_mask(), naive_mask(&general));
        if has_standard_switches(pos.variant()) {
            let mut standard = *pos;
            assert_eq!(
                standard.make::<N, STANDARD_SWITCHES, true>(origin),
                expected
            );
            assert_eq!(standard, general);
            assert_eq!(
                pos.count_after::<N, STANDARD_SWITCHES>(&leaves, origin),
                general.legal_count()
            );
        }
    }
}

#[test]
#[ignore = "slow: about 12 s in a debug build; .ci/run runs it in release"]
fn register_path_matches_the_general_path() {
    let mut rng = SplitMix::new(0x5EED_1234_ABCD_0001);
    for variant in every_variant() {
        // Positions from random games.
        for _ in 0..40 {
            let mut pos = Position::start(variant);
            for _ in 0..200 {
                check_all_moves(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        // Scrambled positions, with long sowings and kazans near the line.
        let mut made = 0;
        while made < 400 {
            if let Some(pos) = scrambled(variant, &mut rng) {
                check_all_moves(&pos);
                made += 1;
            }
        }
    }
}
