//! Tests of the plain Mangala IV implementation (`tests/plain/mangala.rs`) against RULES.md
//! ("Mangala IV"), with hand-worked moves for every rule, random playouts, and the `mangala4`
//! part of the perft suite.
//!
//! Ring indices: South holes 1..7 are 0..6, North holes 1..7 are 7..13.

mod plain;

use plain::mangala::{
    MAX_LIFTS, MAX_WALK_STEPS, MangalaPos, NORTH, PlainMangala, RING, Rng, SOUTH, TOTAL,
    board_counters, capture_walk, format, index_of, is_over, legal_moves, opposite, parse, perft,
    perft_divide, play, play_info, play_info_with_guard, random_board, start, suite_lines,
};

const LEFTMOST: PlainMangala = PlainMangala { free_choice: false };
const FREE: PlainMangala = PlainMangala { free_choice: true };

fn pos(s: &str) -> MangalaPos {
    parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Plays `hole` in `before` under both switch values (it must be legal in each) and checks the
/// resulting string.
fn check(before: &str, hole: usize, after: &str) {
    for rules in [LEFTMOST, FREE] {
        let p = pos(before);
        let q = play(&rules, &p, hole);
        assert_eq!(format(&q), after, "{}: {hole} in {before}", rules.spec());
    }
}

fn total(p: &MangalaPos) -> u32 {
    p.holes.iter().sum::<u32>() + p.captured[0] + p.captured[1]
}

#[test]
fn specs() {
    let r = |s: &str| PlainMangala::from_spec(s).unwrap();
    assert_eq!(r("mangala4"), LEFTMOST);
    assert_eq!(r("mangala4 mangala=leftmost"), LEFTMOST);
    assert_eq!(r("mangala4 mangala=free-choice"), FREE);
    assert_eq!(r("MANGALA4 Mangala=Free-Choice"), FREE);
    assert_eq!(r("mangala4 mangala=free-choice mangala=leftmost"), LEFTMOST);
    assert_eq!(LEFTMOST.spec(), "mangala4");
    assert_eq!(FREE.spec(), "mangala4 mangala=free-choice");
    for rules in [LEFTMOST, FREE] {
        assert_eq!(r(&rules.spec()), rules);
    }
    for bad in [
        "",
        "togyz",
        "kozdatu mangala=leftmost",
        "mangala4 mangala",
        "mangala4 mangala=random",
        "mangala4 tuzdik=on",
        "mangala4 sowing=skip-origin",
    ] {
        assert!(PlainMangala::from_spec(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn position_strings() {
    let s = "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 1";
    assert_eq!(pos(s), start());
    assert_eq!(format(&start()), s);
    assert_eq!(pos("7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w"), start());
    assert_eq!(pos("7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 31"), start());
    let p = pos("0,1,2,3,4,5,6/7,8,9,10,11,0,0 20 12 b 4");
    assert_eq!(p.holes[index_of(SOUTH, 2)], 1);
    assert_eq!(p.holes[index_of(NORTH, 5)], 11);
    assert_eq!(p.captured, [20, 12]);
    assert_eq!(p.side, NORTH);
    assert_eq!(format(&p), "0,1,2,3,4,5,6/7,8,9,10,11,0,0 20 12 b 1");
    for bad in [
        "",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 1 extra",
        "7,7,7,7,7,7,7/7,7,7,7,7,7 7 0 w 1",
        "7,7,7,7,7,7,7,7/7,7,7,7,7,7 0 0 w 1",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0 0 0 w 1",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7 1 0 w 1",
        "7,7,7,7,7,7,6/7,7,7,7,7,7,7 0 0 w 1",
        "7,7,7,7,7,7,X/7,7,7,7,7,7,14 0 0 w 1",
        "7,7,7,7,7,7,-7/7,7,7,7,7,7,21 0 0 w 1",
        "7,7,7,7,7,7,+7/7,7,7,7,7,7,7 0 0 w 1",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 s 1",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 0",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 x w 1",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,99999999999 0 0 w 1",
    ] {
        assert!(parse(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn opposite_holes() {
    // South k faces North 8 - k.
    for k in 1..=7 {
        assert_eq!(opposite(index_of(SOUTH, k)), index_of(NORTH, 8 - k));
        assert_eq!(opposite(index_of(NORTH, k)), index_of(SOUTH, 8 - k));
    }
    assert_eq!(opposite(0), 13);
    assert_eq!(opposite(6), 7);
}

#[test]
fn start_position_moves() {
    assert_eq!(legal_moves(&LEFTMOST, &start()), vec![1]);
    assert_eq!(legal_moves(&FREE, &start()), vec![1, 2, 3, 4, 5, 6, 7]);
    // Hole 1 (7): S2..S7 and N1 get one each; N1 holds 8: relay. Lift N1's 8: N2..N7 (8 each),
    // S1 (now 1), S2 (now 9): relay. Lift S2's 9: S3..S7 (9 each), N1 (1), N2..N4 (9 each): N4
    // holds 9, relay ... The counts stay high, so just check the invariants and the relays here.
    let (q, info) = play_info(&LEFTMOST, &start(), 1);
    assert!(info.lifted.len() > 2);
    assert_eq!(info.lifted[0], index_of(SOUTH, 1));
    assert_eq!(info.lifted[1], index_of(NORTH, 1));
    assert_eq!(info.lifted[2], index_of(SOUTH, 2));
    assert_eq!(total(&q), TOTAL);
    assert_eq!(q.side, NORTH);
}

#[test]
fn plain_sowing_ending_on_one() {
    // South hole 1 (2): S2 gets one (now 2, not the last), S3 gets the last (now 1): the move
    // ends with nothing more. No counter goes back into hole 1.
    check(
        "2,1,0,3,0,0,0/1,0,0,0,0,0,1 45 45 w 1",
        1,
        "0,2,1,3,0,0,0/1,0,0,0,0,0,1 45 45 b 1",
    );
    let (_, info) = play_info(&LEFTMOST, &pos("2,1,0,3,0,0,0/1,0,0,0,0,0,1 45 45 w 1"), 1);
    assert_eq!(info.lifted, vec![0]);
    assert_eq!(info.last_index, Some(index_of(SOUTH, 3)));
    assert_eq!(info.last_count, 1);
    assert_eq!(info.walk, None);
    // A single counter goes into the next hole; North's sowing runs N7 -> S1.
    check(
        "0,0,0,0,0,0,0/0,0,0,0,0,0,1 50 47 b 1",
        7,
        "1,0,0,0,0,0,0/0,0,0,0,0,0,0 50 47 w 1",
    );
    // South 7 -> North 1.
    check(
        "0,0,0,0,0,0,1/0,0,0,0,0,0,0 50 47 w 1",
        7,
        "0,0,0,0,0,0,0/1,0,0,0,0,0,0 50 47 b 1",
    );
}

#[test]
fn relay_on_three() {
    // S1 (1) -> S2 now 3: relay; S2's 3 -> S3, S4, S5 (now 1): end.
    check(
        "1,2,0,0,0,0,0/0,0,0,0,0,0,1 47 47 w 1",
        1,
        "0,0,1,1,1,0,0/0,0,0,0,0,0,1 47 47 b 1",
    );
    let (_, info) = play_info(&LEFTMOST, &pos("1,2,0,0,0,0,0/0,0,0,0,0,0,1 47 47 w 1"), 1);
    assert_eq!(info.lifted, vec![0, 1]);
    assert_eq!(info.last_count, 1);
}

#[test]
fn relay_on_five_and_more() {
    // S1 (2) -> S2 (1), S3 (now 5): relay; S3's 5 -> S4..S7, N1 (now 1): end.
    check(
        "2,0,4,0,0,0,0/0,0,0,0,0,0,0 46 46 w 1",
        1,
        "0,1,0,1,1,1,1/1,0,0,0,0,0,0 46 46 b 1",
    );
    // North 3 (1) -> N4 now 9: relay; 9 -> N5..N7, S1..S6: S6 held 0, now 1: end.
    check(
        "0,0,0,0,0,0,0/0,0,1,8,0,0,0 45 44 b 1",
        3,
        "1,1,1,1,1,1,0/0,0,0,0,1,1,1 45 44 w 1",
    );
    // Two relays, then a capture on 4: S1 (2) -> S2 (1), S3 (3): relay; 3 -> S4 (1), S5 (2),
    // S6 (5): relay; 5 -> S7 (1), N1 (1), N2 (2), N3 (1), N4 (4): capture N4 (4) and its
    // opposite S4 (1). The walk looks at N3 (1) and stops, although N2 holds 2.
    check(
        "2,0,2,0,1,4,0/0,1,0,3,0,0,0 40 45 w 1",
        1,
        "0,1,0,0,2,0,1/1,2,1,0,0,0,0 45 45 b 1",
    );
    let (_, info) = play_info(&LEFTMOST, &pos("2,0,2,0,1,4,0/0,1,0,3,0,0,0 40 45 w 1"), 1);
    assert_eq!(info.lifted, vec![0, 2, 5]);
    assert_eq!(info.last_count, 4);
    let walk = info.walk.unwrap();
    assert_eq!(walk.captured, 5);
    assert_eq!(walk.holes, vec![index_of(NORTH, 4), index_of(SOUTH, 4)]);
    assert_eq!(walk.steps, 1);
}

#[test]
fn capture_on_two_with_the_opposite_hole() {
    // South 5 (4) -> S6 (3), S7 (1), N1 (1), N2 (now 2): capture N2 (2) and its opposite S6
    // (3, whatever it holds). The walk looks at N1 (1) and stops. South captures 5.
    check(
        "0,0,0,0,4,2,0/0,1,0,0,0,0,0 40 51 w 1",
        5,
        "0,0,0,0,0,0,1/1,0,0,0,0,0,0 45 51 b 1",
    );
}

#[test]
fn capture_on_four_on_the_movers_own_row() {
    // North 1 (2) -> N2 (1), N3 (now 4): capture N3 (4) and its opposite S5 (6): North gets 10.
    // The walk looks at N2 (1) and stops.
    let before = "0,0,0,0,6,0,0/2,0,3,0,0,0,0 40 47 b 1";
    let after = "0,0,0,0,0,0,0/0,1,0,0,0,0,0 40 57 w 1";
    check(before, 1, after);
    let (_, info) = play_info(&LEFTMOST, &pos(before), 1);
    let walk = info.walk.unwrap();
    assert_eq!(walk.captured, 10);
    assert_eq!(walk.holes, vec![index_of(NORTH, 3), index_of(SOUTH, 5)]);
    assert_eq!(walk.steps, 1);
    // South's row is now empty: South must pass.
    assert_eq!(legal_moves(&LEFTMOST, &pos(after)), vec![0]);
    assert_eq!(legal_moves(&FREE, &pos(after)), vec![0]);
}

#[test]
fn an_empty_opposite_hole_is_captured_as_zero() {
    // South 1 (1) -> S2 now 2: capture S2 (2) and N6 (0). The walk looks at S1 (the origin, 0).
    check(
        "1,1,0,0,0,0,0/3,0,0,0,0,0,0 50 43 w 1",
        1,
        "0,0,0,0,0,0,0/3,0,0,0,0,0,0 52 43 b 1",
    );
}

#[test]
fn chain_stops_at_a_hole_that_is_not_two_or_four() {
    // South 1 (4) -> S2 (2), S3 (6), S4 (4), S5 (now 2): capture S5 (2) + N3 (7); walk: S4 holds
    // 4, capture it + N4 (2); S3 holds 6: stop. S2 (2) is not reached. South gets 15; North's
    // row is then empty.
    let before = "4,1,5,3,1,0,0/0,0,7,2,0,0,0 40 35 w 1";
    let after = "0,2,6,0,0,0,0/0,0,0,0,0,0,0 55 35 b 1";
    check(before, 1, after);
    let (_, info) = play_info(&LEFTMOST, &pos(before), 1);
    let walk = info.walk.unwrap();
    assert_eq!(walk.captured, 15);
    assert_eq!(
        walk.holes,
        vec![
            index_of(SOUTH, 5),
            index_of(NORTH, 3),
            index_of(SOUTH, 4),
            index_of(NORTH, 4)
        ]
    );
    assert_eq!(walk.steps, 2);
    assert_eq!(legal_moves(&FREE, &pos(after)), vec![0]);
}

#[test]
fn chain_walks_back_to_the_row_boundary_and_stops_there() {
    // North 5 (5) -> N6 (1), N7 (2), S1 (4), S2 (2), S3 (now 2): capture S3 (2) + N5 (0, the
    // origin); walk: S2 (2) + N6 (1); S1 (4) + N7 (2); the next hole back is N7, across the row
    // boundary. It held 2 before the captures but was just taken as S1's opposite, so it holds
    // 0 and the walk stops: the boundary holes S1/N7 (and S7/N1) face each other, so a chain
    // can never really continue into the other row. North gets 11.
    let before = "3,1,1,0,2,6,0/0,0,0,0,5,0,1 40 39 b 1";
    let after = "0,0,0,0,2,6,0/0,0,0,0,0,0,0 40 50 w 1";
    check(before, 5, after);
    let (_, info) = play_info(&LEFTMOST, &pos(before), 5);
    let walk = info.walk.unwrap();
    assert_eq!(walk.captured, 11);
    assert_eq!(
        walk.holes,
        vec![
            index_of(SOUTH, 3),
            index_of(NORTH, 5),
            index_of(SOUTH, 2),
            index_of(NORTH, 6),
            index_of(SOUTH, 1),
            index_of(NORTH, 7),
        ]
    );
    assert_eq!(walk.steps, 3);
}

#[test]
fn longest_chain_captures_the_whole_board() {
    // North 1 (13) -> N2..N7 and S1..S7 one each; the last lands on S7 (now 2): capture S7 + N1
    // (the origin, 0); walk S6, S5, ..., S1 (each now 2 or 4) with N2..N7; step 7 looks at N7,
    // already empty. All 34 counters go to North; the board is empty and the game is over.
    let before = "1,3,1,3,1,3,1/13,0,5,0,0,2,1 30 34 b 1";
    let after = "0,0,0,0,0,0,0/0,0,0,0,0,0,0 30 68 w 1";
    check(before, 1, after);
    let (q, info) = play_info(&LEFTMOST, &pos(before), 1);
    let walk = info.walk.unwrap();
    assert_eq!(walk.captured, 34);
    assert_eq!(walk.holes.len(), RING);
    assert_eq!(walk.steps, 7);
    assert!(is_over(&q));
    assert!(legal_moves(&LEFTMOST, &q).is_empty());
    assert!(legal_moves(&FREE, &q).is_empty());
    assert_eq!(perft(&FREE, &q, 1), 0);
    assert_eq!(perft(&FREE, &q, 3), 0);
}

#[test]
fn the_thirteen_step_cap_never_binds() {
    // The walk stops at an emptied hole at the latest when it comes back round to the opposite
    // of a hole it took. On the most favourable board (every hole 2 or 4 after the landing) the
    // walk from hole k of a row takes k steps and k pairs: so at most 7 steps, never 13.
    for fill in [2u32, 4] {
        for landing in 0..RING {
            let mut holes = [fill; RING];
            let walk = capture_walk(&mut holes, landing);
            let k = landing % 7 + 1;
            assert_eq!(walk.steps, k, "landing {landing}");
            assert_eq!(walk.holes.len(), 2 * k, "landing {landing}");
            assert!(walk.steps < MAX_WALK_STEPS);
            assert_eq!(walk.captured, fill * 2 * k as u32);
            // Every captured hole is on the landing row or opposite one on it.
            for &i in &walk.holes {
                assert_eq!(holes[i], 0);
            }
        }
    }
    // And on random boards.
    let mut rng = Rng::new(7);
    for _ in 0..20_000 {
        let mut holes = [0u32; RING];
        for h in holes.iter_mut() {
            *h = [0, 1, 2, 2, 3, 4, 4, 5, 6][rng.below(9)];
        }
        let landing = rng.below(RING);
        holes[landing] = 2 + 2 * rng.below(2) as u32;
        let before: u32 = holes.iter().sum();
        let walk = capture_walk(&mut holes, landing);
        assert!(walk.steps <= 7);
        assert_eq!(before, holes.iter().sum::<u32>() + walk.captured);
        // The walk stays on the landing row (the other row only loses opposites).
        for pair in walk.holes.chunks(2) {
            assert_eq!(pair[0] / 7, landing / 7);
            assert_eq!(pair[1], opposite(pair[0]));
        }
    }
}

#[test]
fn pass() {
    // South's row is empty, counters remain on North's: the pass is South's only move, and it
    // changes nothing but the side to move.
    let p = pos("0,0,0,0,0,0,0/3,0,1,0,2,0,5 40 47 w 1");
    assert_eq!(legal_moves(&LEFTMOST, &p), vec![0]);
    assert_eq!(legal_moves(&FREE, &p), vec![0]);
    check(
        "0,0,0,0,0,0,0/3,0,1,0,2,0,5 40 47 w 1",
        0,
        "0,0,0,0,0,0,0/3,0,1,0,2,0,5 40 47 b 1",
    );
    let (_, info) = play_info(&FREE, &p, 0);
    assert!(info.pass);
    assert!(info.lifted.is_empty());
    // North then plays on: leftmost hole 1, free choice 1, 3, 5, 7.
    let q = play(&FREE, &p, 0);
    assert_eq!(legal_moves(&LEFTMOST, &q), vec![1]);
    assert_eq!(legal_moves(&FREE, &q), vec![1, 3, 5, 7]);
    assert_eq!(perft(&FREE, &p, 1), 1);
    assert_eq!(perft(&FREE, &p, 2), 4);
    assert_eq!(perft_divide(&FREE, &p, 2), vec![(0, 4)]);
    // North passes too when its row is empty.
    let r = pos("0,0,2,0,0,0,0/0,0,0,0,0,0,0 48 48 b 1");
    assert_eq!(legal_moves(&FREE, &r), vec![0]);
    assert_eq!(
        format(&play(&LEFTMOST, &r, 0)),
        "0,0,2,0,0,0,0/0,0,0,0,0,0,0 48 48 w 1"
    );
    // The pass is not legal while the mover has a counter.
    assert!(!legal_moves(&FREE, &start()).contains(&0));
    // No moves at all on an empty board.
    let e = pos("0,0,0,0,0,0,0/0,0,0,0,0,0,0 50 48 w 1");
    assert!(legal_moves(&LEFTMOST, &e).is_empty());
    assert!(legal_moves(&FREE, &e).is_empty());
    assert_eq!(perft(&LEFTMOST, &e, 1), 0);
    assert_eq!(perft(&LEFTMOST, &e, 0), 1);
}

#[test]
#[should_panic(expected = "illegal move")]
fn a_pass_with_counters_on_the_row_panics() {
    play(&FREE, &start(), 0);
}

#[test]
fn leftmost_against_free_choice() {
    let p = pos("0,3,0,2,0,0,1/0,0,4,0,1,0,0 43 44 w 1");
    assert_eq!(legal_moves(&LEFTMOST, &p), vec![2]);
    assert_eq!(legal_moves(&FREE, &p), vec![2, 4, 7]);
    let n = MangalaPos { side: NORTH, ..p };
    assert_eq!(legal_moves(&LEFTMOST, &n), vec![3]);
    assert_eq!(legal_moves(&FREE, &n), vec![3, 5]);
    // Free choice may play hole 4: S5 (1), S6 (1): end.
    let q = play(&FREE, &p, 4);
    assert_eq!(format(&q), "0,3,0,0,1,1,1/0,0,4,0,1,0,0 43 44 b 1");
    // Hole 2, the leftmost one: S3 (1), S4 (3), S5 (1): end.
    check(
        "0,3,0,2,0,0,1/0,0,4,0,1,0,0 43 44 w 1",
        2,
        "0,0,1,3,1,0,1/0,0,4,0,1,0,0 43 44 b 1",
    );
    // Perft: leftmost is forced, free choice is not.
    assert_eq!(perft(&LEFTMOST, &p, 1), 1);
    assert_eq!(perft(&FREE, &p, 1), 3);
}

#[test]
#[should_panic(expected = "illegal move")]
fn leftmost_forbids_another_hole() {
    let p = pos("0,3,0,2,0,0,1/0,0,4,0,1,0,0 43 44 w 1");
    play(&LEFTMOST, &p, 4);
}

#[test]
fn long_sowings_lap_without_skipping_their_origin() {
    // South 2 (14): S3..S7, N1..N7, S1, and the 14th counter back into S2 itself (now 1): end.
    check(
        "0,14,0,0,0,1,0/0,0,5,0,0,0,0 40 38 w 1",
        2,
        "1,1,1,1,1,2,1/1,1,6,1,1,1,1 40 38 b 1",
    );
    // South 2 (16): S2 gets its 14th, S3 and S4 their 2nd and 15th/16th: S4 now 2: capture S4
    // (2) + N4 (3 + 1); walk: S3 (2) + N5 (1); S2 (1): stop. South gets 9.
    check(
        "0,16,0,0,0,0,0/0,0,0,3,0,0,0 40 39 w 1",
        2,
        "1,1,0,0,1,1,1/1,1,1,0,0,1,1 49 39 b 1",
    );
    // A relay that laps: S1 (1) -> S2 now 15: relay; 15 -> S3..S7, N1..N7, S1, S2 (its own
    // origin, now 1), S3 (now 2): capture S3 (2) + N5 (2 + 1); walk: S2 (1): stop.
    check(
        "1,14,0,0,0,0,0/0,0,0,0,2,0,0 40 41 w 1",
        1,
        "1,1,0,1,1,1,1/1,1,1,1,0,1,1 45 41 b 1",
    );
    let (_, info) = play_info(&LEFTMOST, &pos("1,14,0,0,0,0,0/0,0,0,0,2,0,0 40 41 w 1"), 1);
    assert_eq!(info.lifted, vec![0, 1]);
    // A North sowing of 29 laps twice: every hole but the origin gets 2, the origin gets 2 as
    // well (counters 14 and 28) and the 29th falls in N6 (0 + 3 = 3): relay; 3 -> N7 (3), S1
    // (3), S2 (now 3): relay; 3 -> S3 (3), S4 (3), S5 (now 3): relay ... keep it to invariants.
    let p = pos("0,0,0,0,0,0,0/0,0,0,0,29,0,0 35 34 b 1");
    let (q, info) = play_info(&LEFTMOST, &p, 5);
    assert_eq!(info.lifted[0], index_of(NORTH, 5));
    assert_eq!(info.lifted[1], index_of(NORTH, 6));
    assert_eq!(info.lifted[2], index_of(SOUTH, 2));
    assert_eq!(total(&q), TOTAL);
}

#[test]
fn relay_guard() {
    assert_eq!(MAX_LIFTS, 4096);
    assert_eq!(MAX_WALK_STEPS, 13);
    // The two-relay move of `relay_on_five_and_more` lifts S1, S3 and S6. With a guard of 2
    // lifts, the landing on S6 (now 5) would need a 3rd lift: the move ends there, with no
    // capture, and North moves.
    let p = pos("2,0,2,0,1,4,0/0,1,0,3,0,0,0 40 45 w 1");
    let (q, info) = play_info_with_guard(&LEFTMOST, &p, 1, 2);
    assert!(info.guard_stopped);
    assert_eq!(info.lifted, vec![0, 2]);
    assert_eq!(info.last_index, Some(index_of(SOUTH, 6)));
    assert_eq!(info.last_count, 5);
    assert_eq!(info.walk, None);
    assert_eq!(format(&q), "0,1,0,1,2,5,0/0,1,0,3,0,0,0 40 45 b 1");
    // A guard of 3 lets the move finish as usual; so does the real one.
    let (q3, info3) = play_info_with_guard(&LEFTMOST, &p, 1, 3);
    assert!(!info3.guard_stopped);
    assert_eq!(q3, play(&LEFTMOST, &p, 1));
    // A guard of 1 stops at the first relay: S3 holds 3 after the first sowing.
    let (q1, info1) = play_info_with_guard(&LEFTMOST, &p, 1, 1);
    assert!(info1.guard_stopped);
    assert_eq!(format(&q1), "0,1,3,0,1,4,0/0,1,0,3,0,0,0 40 45 b 1");
}

#[test]
fn perft_basics() {
    for d in 1..=30 {
        assert_eq!(perft(&LEFTMOST, &start(), d), 1, "depth {d}");
    }
    assert_eq!(perft(&FREE, &start(), 1), 7);
    let divide = perft_divide(&FREE, &start(), 3);
    assert_eq!(divide.len(), 7);
    assert_eq!(
        divide.iter().map(|(_, c)| c).sum::<u64>(),
        perft(&FREE, &start(), 3)
    );
    // Perft of the one-move-each example: 3 moves; each child counted by hand from its moves.
    let p = pos("0,3,0,2,0,0,1/0,0,4,0,1,0,0 43 44 w 1");
    let mut want = 0;
    for m in legal_moves(&FREE, &p) {
        want += legal_moves(&FREE, &play(&FREE, &p, m)).len() as u64;
    }
    assert_eq!(perft(&FREE, &p, 2), want);
}

/// Random playouts: counters are conserved, strings round-trip, the move lists are what the
/// rules say, and a game that ends has an empty board. Reports how many games are not over
/// after 1000 plies (they are not wrong: repetition and the ply limit end them in real games).
#[test]
#[ignore = "slow: about 4.5 s in a debug build; .ci/run runs it in release"]
fn random_playouts() {
    const GAMES: u64 = 150;
    const PLY_LIMIT: usize = 1000;
    let mut max_lifts = 0usize;
    let mut max_steps = 0usize;
    for rules in [FREE, LEFTMOST] {
        for from_random in [false, true] {
            let mut unfinished = 0;
            let mut repeated = 0;
            let mut lengths = Vec::new();
            for seed in 0..GAMES {
                let mut rng = Rng::new(seed * 31 + 5);
                let mut p = if from_random {
                    random_board(&mut rng, (seed % 2) as usize)
                } else {
                    start()
                };
                let mut seen = std::collections::HashSet::new();
                let mut ended = false;
                let mut cycled = false;
                for ply in 0..PLY_LIMIT {
                    assert_eq!(total(&p), TOTAL);
                    assert_eq!(parse(&format(&p)).unwrap(), p);
                    if !seen.insert((p.holes, p.side)) {
                        cycled = true;
                    }
                    let moves = legal_moves(&rules, &p);
                    if moves.is_empty() {
                        assert!(is_over(&p));
                        assert_eq!(p.captured[0] + p.captured[1], TOTAL);
                        lengths.push(ply);
                        ended = true;
                        break;
                    }
                    let own = (1..=7)
                        .filter(|&h| p.holes[index_of(p.side, h)] > 0)
                        .count();
                    if own == 0 {
                        assert_eq!(moves, vec![0]);
                    } else if rules.free_choice {
                        assert_eq!(moves.len(), own);
                    } else {
                        assert_eq!(moves.len(), 1);
                        for h in 1..moves[0] {
                            assert_eq!(p.holes[index_of(p.side, h)], 0);
                        }
                    }
                    let m = moves[rng.below(moves.len())];
                    let (q, info) = play_info(&rules, &p, m);
                    assert!(!info.guard_stopped);
                    max_lifts = max_lifts.max(info.lifted.len());
                    if let Some(w) = &info.walk {
                        max_steps = max_steps.max(w.steps);
                        assert_eq!(q.captured[p.side], p.captured[p.side] + w.captured);
                    } else {
                        assert_eq!(q.captured, p.captured);
                    }
                    assert_eq!(q.captured[1 - p.side], p.captured[1 - p.side]);
                    assert_eq!(q.side, 1 - p.side);
                    p = q;
                }
                if !ended {
                    unfinished += 1;
                }
                if cycled {
                    repeated += 1;
                }
            }
            lengths.sort_unstable();
            let median = match lengths.get(lengths.len() / 2) {
                Some(m) => format!("median length of the ended ones {m} plies"),
                None => "none ended".to_string(),
            };
            println!(
                "{} from {}: {unfinished}/{GAMES} games not over after {PLY_LIMIT} plies, \
                 {repeated} repeated a position (board, side), {median}",
                rules.spec(),
                if from_random {
                    "random boards"
                } else {
                    "the start"
                },
            );
        }
    }
    println!("longest relay chain {max_lifts} lifts, longest capture walk {max_steps} steps");
    assert!(max_lifts < MAX_LIFTS as usize);
    assert!(max_steps <= 7);
}

/// South and North swapped: rows, captured counts and the side to move.
fn mirror(p: &MangalaPos) -> MangalaPos {
    let mut holes = [0u32; RING];
    for (i, h) in holes.iter_mut().enumerate() {
        *h = p.holes[(i + 7) % RING];
    }
    MangalaPos {
        holes,
        captured: [p.captured[1], p.captured[0]],
        side: 1 - p.side,
    }
}

/// The rules do not care which player is which: every move of a position and of its mirror
/// image give mirror images, so the perft counts agree.
#[test]
fn mirror_symmetry() {
    for seed in 0..60 {
        let mut rng = Rng::new(1000 + seed);
        let mut p = random_board(&mut rng, (seed % 2) as usize);
        for _ply in 0..(seed as usize % 25) {
            let moves = legal_moves(&FREE, &p);
            if moves.is_empty() {
                break;
            }
            p = play(&FREE, &p, moves[rng.below(moves.len())]);
        }
        let m = mirror(&p);
        for rules in [LEFTMOST, FREE] {
            assert_eq!(legal_moves(&rules, &p), legal_moves(&rules, &m));
            for hole in legal_moves(&rules, &p) {
                assert_eq!(mirror(&play(&rules, &p, hole)), play(&rules, &m, hole));
            }
            assert_eq!(perft(&rules, &p, 3), perft(&rules, &m, 3));
        }
    }
}

/// The forced (leftmost) game from the start never ends: it comes back to a board it had with
/// the same side to move, and from there it repeats for ever.
#[test]
fn the_forced_game_from_the_start_cycles() {
    let mut p = start();
    let mut seen = std::collections::HashMap::new();
    for ply in 0..1000 {
        assert!(!is_over(&p));
        if let Some(first) = seen.insert((p.holes, p.side), ply) {
            println!("forced start game: board at ply {ply} repeats ply {first}");
            return;
        }
        p = play(&LEFTMOST, &p, legal_moves(&LEFTMOST, &p)[0]);
    }
    panic!("no repetition within 1000 plies");
}

#[test]
fn random_boards_hold_98_counters() {
    for seed in 0..200 {
        let p = random_board(&mut Rng::new(seed), SOUTH);
        assert_eq!(board_counters(&p), TOTAL);
        assert_eq!(total(&p), TOTAL);
    }
    // Deterministic.
    assert_eq!(
        random_board(&mut Rng::new(3), NORTH),
        random_board(&mut Rng::new(3), NORTH)
    );
}

/// The `mangala4` lines of positions/perft.txt (if any) agree with this implementation.
#[test]
fn plain_matches_the_mangala_suite_lines() {
    let path = plain::generate::suite_in_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = plain::generate::parse_suite(&text).unwrap();
    for e in entries.iter().filter(|e| e.spec.starts_with("mangala4")) {
        let rules = PlainMangala::from_spec(&e.spec).unwrap();
        let p = parse(&e.position).unwrap_or_else(|err| panic!("line {}: {err}", e.line));
        assert_eq!(format(&p), e.position, "line {}", e.line);
        assert!(!e.comment.is_empty(), "line {} has no comment", e.line);
        for (i, want) in e.counts.iter().take(4).enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(
                perft(&rules, &p, depth),
                *want,
                "line {} depth {depth}",
                e.line
            );
        }
    }
}

#[test]
#[ignore = "slow in debug builds; prints the mangala4 perft suite lines"]
fn print_mangala_suite() {
    let text = suite_lines();
    let entries = plain::generate::parse_suite(&text).unwrap();
    assert!(entries.len() >= 16);
    for e in &entries {
        assert!(!e.comment.is_empty());
        let rules = PlainMangala::from_spec(&e.spec).unwrap();
        let p = parse(&e.position).unwrap();
        assert_eq!(format(&p), e.position);
        if rules.free_choice {
            assert!(*e.counts.last().unwrap() <= 1_000_000);
        }
    }
    assert_eq!(text, suite_lines(), "the suite is deterministic");
    print!("{text}");
}
