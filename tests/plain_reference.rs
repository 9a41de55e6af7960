//! Tests of the plain rules implementation (`tests/plain/`) against RULES.md, and of the perft
//! suite `positions/perft.txt` it generates.

mod plain;

use plain::generate::{generate_suite, parse_suite, suite_in_path, suite_out_path};
use plain::{
    PlainPos, PlainRules, final_scores, format, is_over, landing, legal_moves, long_move, parse,
    perft, perft_divide, play, start,
};

fn rules(spec: &str) -> PlainRules {
    PlainRules::from_spec(spec).unwrap()
}

fn pos(r: &PlainRules, s: &str) -> PlainPos {
    parse(r, s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Plays `hole` in position `before` and checks the resulting string and the landing.
fn check_move(spec: &str, before: &str, hole: usize, after: &str, land: (usize, bool)) {
    let r = rules(spec);
    let p = pos(&r, before);
    assert_eq!(landing(&r, &p, hole), land, "landing of {hole} in {before}");
    let q = play(&r, &p, hole);
    assert_eq!(format(&r, &q), after, "{spec}: {hole} in {before}");
}

#[test]
fn reference_perft_table() {
    let table: [(&str, [u64; 6]); 3] = [
        ("togyz", [9, 73, 613, 5199, 43184, 360035]),
        ("kozdatu", [7, 43, 274, 1775, 11262, 72125]),
        ("bestemshchi", [5, 21, 91, 407, 1761, 7782]),
    ];
    for (spec, counts) in table {
        let r = rules(spec);
        let p = start(&r);
        for (i, want) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&r, &p, depth), *want, "{spec} perft {depth}");
        }
    }
}

#[test]
fn perft_edges() {
    let r = rules("togyz");
    let p = start(&r);
    assert_eq!(perft(&r, &p, 0), 1);
    let divide = perft_divide(&r, &p, 2);
    assert_eq!(divide.len(), 9);
    assert_eq!(divide.iter().map(|(_, c)| c).sum::<u64>(), 73);
    // A finished position: 1 at depth 0, 0 deeper.
    let done = pos(&r, "1,1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0,0 82 71 b 1");
    assert!(is_over(&r, &done));
    assert!(legal_moves(&r, &done).is_empty());
    assert_eq!(perft(&r, &done, 0), 1);
    assert_eq!(perft(&r, &done, 1), 0);
    assert_eq!(perft(&r, &done, 3), 0);
}

#[test]
fn specs() {
    let t = rules("togyz");
    assert_eq!((t.n, t.stones_per_hole, t.tuzdik), (9, 9, true));
    assert!(!t.skip_origin && !t.singleton);
    assert_eq!((t.total(), t.win_threshold()), (162, 82));
    let k = rules("kozdatu");
    assert_eq!((k.n, k.stones_per_hole, k.tuzdik), (7, 7, false));
    assert_eq!((k.total(), k.win_threshold()), (98, 50));
    let b = rules("bestemshchi");
    assert_eq!((b.n, b.stones_per_hole, b.tuzdik), (5, 5, false));
    assert_eq!((b.total(), b.win_threshold()), (50, 26));

    assert!(!rules("togyz tuzdik=off").tuzdik);
    assert!(rules("kozdatu tuzdik=on").tuzdik);
    let s = rules("bestemshchi sowing=skip-origin capture=singleton");
    assert!(s.skip_origin && s.singleton && !s.tuzdik);
    let back = rules("togyz sowing=standard capture=standard tuzdik=on");
    assert_eq!(back, t);
    for spec in [
        "togyz",
        "togyz tuzdik=off",
        "kozdatu tuzdik=on sowing=skip-origin",
        "bestemshchi capture=singleton",
    ] {
        assert_eq!(rules(spec).spec(), spec);
        assert_eq!(rules(&rules(spec).spec()), rules(spec));
    }
    for bad in [
        "",
        "chess",
        "mangala4",
        "togyz tuzdik",
        "togyz tuzdik=maybe",
        "togyz sowing=fast",
        "togyz capture=all",
        "togyz colour=red",
    ] {
        assert!(PlainRules::from_spec(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn position_strings() {
    let t = rules("togyz");
    let s = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1";
    assert_eq!(pos(&t, s), start(&t));
    assert_eq!(format(&t, &start(&t)), s);
    // Fullmove is optional; format always writes 1.
    let p = pos(&t, "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b");
    assert_eq!(p.side, 1);
    assert_eq!(
        format(&t, &p),
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 1"
    );
    assert_eq!(
        pos(&t, "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 57"),
        start(&t)
    );

    // An X on South's row is North's tuzdik and the other way round.
    let p = pos(&t, "9,X,9,9,9,9,9,9,9/9,9,9,9,X,9,9,9,9 9 9 w 1");
    assert_eq!(p.tuzdik, [Some(9 + 4), Some(1)]);
    assert_eq!(
        format(&t, &p),
        "9,X,9,9,9,9,9,9,9/9,9,9,9,X,9,9,9,9 9 9 w 1"
    );

    let cases: [(&str, &str, &str); 17] = [
        (
            "togyz",
            "9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 9 0 w 1",
            "holes",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 0 0 w 1",
            "holes",
        ),
        ("togyz", "9,9,9,9,9,9,9,9,9 0 0 w 1", "two rows"),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/0 0 0 w 1",
            "two rows",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 1 0 w 1",
            "add up",
        ),
        (
            "togyz",
            "X,X,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 18 0 w 1",
            "two tuzdiks",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,X/9,9,9,9,9,9,9,9,9 0 9 w 1",
            "hole 9",
        ),
        (
            "togyz",
            "X,9,9,9,9,9,9,9,9/X,9,9,9,9,9,9,9,9 9 9 w 1",
            "symmetric",
        ),
        (
            "togyz tuzdik=off",
            "X,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 w 1",
            "without",
        ),
        ("kozdatu", "X,7,7,7,7,7,7/7,7,7,7,7,7,7 0 7 w 1", "without"),
        (
            "kozdatu tuzdik=on",
            "7,7,7,7,7,7,7/7,7,7,7,7,7,X 7 0 w 1",
            "hole 7",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 x 1",
            "side",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 0",
            "fullmove",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w one",
            "fullmove",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,+9/9,9,9,9,9,9,9,9,9 0 0 w 1",
            "hole count",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 -0 0 w 1",
            "kazan",
        ),
        (
            "togyz",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1 extra",
            "too many",
        ),
    ];
    for (spec, s, reason) in cases {
        match parse(&rules(spec), s) {
            Ok(_) => panic!("{spec}: {s} accepted"),
            Err(e) => assert!(e.contains(reason), "{s}: '{e}' should mention '{reason}'"),
        }
    }
    // The same tuzdik is fine where the switches allow it.
    let k = rules("kozdatu tuzdik=on");
    assert_eq!(
        pos(&k, "X,7,7,7,7,7,7/7,7,7,7,7,7,7 0 7 w 1").tuzdik,
        [None, Some(0)]
    );
    // Finished positions are valid.
    assert!(is_over(
        &t,
        &pos(&t, "0,0,0,0,0,0,0,0,0/9,9,9,9,9,9,9,9,9 81 0 w 1")
    ));
    assert!(is_over(
        &t,
        &pos(&t, "0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0,0 82 78 w 1")
    ));
}

#[test]
fn sowing_standard() {
    // Several stones: the first goes back into the origin.
    check_move(
        "togyz",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
        1,
        "1,10,10,10,10,10,10,10,10/9,9,9,9,9,9,9,9,9 0 0 b 1",
        (9, false),
    );
    // Last stone on North 8 makes 10: even capture.
    check_move(
        "togyz",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,10,10,10,10,10,0,9 10 0 b 1",
        (8, false),
    );
    // One stone: it goes to the next hole, the origin stays empty.
    check_move(
        "togyz",
        "0,0,1,0,0,0,0,0,0/9,9,9,9,9,9,9,9,9 40 40 w 1",
        3,
        "0,0,0,1,0,0,0,0,0/9,9,9,9,9,9,9,9,9 40 40 b 1",
        (4, false),
    );
    // North sows over its hole 9 into South's row and captures there.
    check_move(
        "togyz",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,3,9 0 6 b 1",
        8,
        "0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,1,10 0 16 w 1",
        (1, false),
    );
    // 19 stones: the 19th lands back in the origin (later laps do not skip it).
    check_move(
        "togyz",
        "19,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,8 0 0 w 1",
        1,
        "2,10,10,10,10,10,10,10,1/10,10,10,10,10,10,10,10,9 0 0 b 1",
        (1, false),
    );
}

#[test]
fn sowing_skip_origin() {
    // The first stone goes into the next hole; the origin is skipped on every lap.
    check_move(
        "togyz sowing=skip-origin",
        "19,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,8 0 0 w 1",
        1,
        "0,11,11,10,10,10,10,10,1/10,10,10,10,10,10,10,10,9 0 0 b 1",
        (3, false),
    );
    check_move(
        "togyz sowing=skip-origin",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
        1,
        "0,10,10,10,10,10,10,10,10/0,9,9,9,9,9,9,9,9 10 0 b 1",
        (1, false),
    );
    // A one-stone move is unchanged.
    check_move(
        "bestemshchi sowing=skip-origin",
        "0,0,0,0,1/5,5,5,5,5 12 12 w 1",
        5,
        "0,0,0,0,0/0,5,5,5,5 18 12 b 1",
        (1, false),
    );
}

#[test]
fn stones_into_a_tuzdik() {
    // A stone passing North's tuzdik on South 2 goes to North's kazan.
    check_move(
        "togyz",
        "3,X,0,0,0,0,0,0,0/9,9,9,9,9,9,9,9,9 40 38 w 1",
        1,
        "1,X,1,0,0,0,0,0,0/9,9,9,9,9,9,9,9,9 40 39 b 1",
        (3, false),
    );
    // The last stone falls into South's own tuzdik on North 2: to South's kazan, nothing more
    // (North 1 now holds 10 but was not the landing hole).
    check_move(
        "togyz",
        "0,0,0,0,0,0,0,0,3/9,X,9,9,9,9,9,9,9 40 47 w 1",
        9,
        "0,0,0,0,0,0,0,0,1/10,X,9,9,9,9,9,9,9 41 47 b 1",
        (2, false),
    );
    let r = rules("togyz");
    let p = pos(&r, "0,0,0,0,0,0,0,0,3/9,X,9,9,9,9,9,9,9 40 47 w 1");
    assert_eq!(long_move(&r, &p, 9), "92");
}

#[test]
fn tuzdik_creation_and_its_limits() {
    // Making 3 on North 3: South's tuzdik, 3 stones to South's kazan.
    check_move(
        "togyz",
        "9,9,9,9,9,9,9,9,4/9,9,2,9,9,9,9,9,9 6 6 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,X,9,9,9,9,9,9 9 6 b 1",
        (3, true),
    );
    let r = rules("togyz");
    let p = pos(&r, "9,9,9,9,9,9,9,9,4/9,9,2,9,9,9,9,9,9 6 6 w 1");
    assert_eq!(long_move(&r, &p, 9), "93X");
    // Without tuzdiks nothing happens.
    check_move(
        "togyz tuzdik=off",
        "9,9,9,9,9,9,9,9,4/9,9,2,9,9,9,9,9,9 6 6 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,3,9,9,9,9,9,9 6 6 b 1",
        (3, false),
    );
    // (a) South already has a tuzdik.
    check_move(
        "togyz",
        "9,9,9,9,9,9,9,9,4/9,9,2,9,X,9,9,9,9 15 6 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,3,9,X,9,9,9,9 15 6 b 1",
        (3, false),
    );
    // (b) North's hole 9.
    check_move(
        "togyz",
        "9,9,9,9,9,9,9,9,10/9,9,9,9,9,9,9,9,2 4 2 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,10,10,10,10,10,10,3 4 2 b 1",
        (9, false),
    );
    // (b) in Kozdatu with tuzdiks: hole 7.
    check_move(
        "kozdatu tuzdik=on",
        "7,7,7,7,7,7,8/7,7,7,7,7,7,2 2 2 w 1",
        7,
        "7,7,7,7,7,7,1/8,8,8,8,8,8,3 2 2 b 1",
        (7, false),
    );
    // (c) North's tuzdik on South 3 forbids South's on North 3...
    check_move(
        "togyz",
        "9,9,X,9,9,9,9,9,4/9,9,2,9,9,9,9,9,9 6 15 w 1",
        9,
        "9,9,X,9,9,9,9,9,1/10,10,3,9,9,9,9,9,9 6 15 b 1",
        (3, false),
    );
    // ... but not on another number.
    check_move(
        "togyz",
        "9,9,9,X,9,9,9,9,4/9,9,2,9,9,9,9,9,9 6 15 w 1",
        9,
        "9,9,9,X,9,9,9,9,1/10,10,X,9,9,9,9,9,9 9 15 b 1",
        (3, true),
    );
    // North makes a tuzdik on South 4 (a 3 on the mover's own side does nothing).
    check_move(
        "togyz",
        "9,9,9,2,9,9,9,9,9/9,9,9,9,9,9,9,9,5 6 5 b 1",
        9,
        "10,10,10,X,9,9,9,9,9/9,9,9,9,9,9,9,9,1 6 8 w 1",
        (4, true),
    );
}

#[test]
fn singleton_capture() {
    // 10 on North 8 is even but not 2: no capture under singleton.
    check_move(
        "togyz capture=singleton",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,10,10,10,10,10,10,9 0 0 b 1",
        (8, false),
    );
    // Landing on a lone stone (now 2) captures, in both modes.
    for spec in ["togyz", "togyz capture=singleton"] {
        check_move(
            spec,
            "9,9,9,9,9,9,9,9,2/1,9,9,9,9,9,9,9,9 8 7 w 1",
            9,
            "9,9,9,9,9,9,9,9,1/0,9,9,9,9,9,9,9,9 10 7 b 1",
            (1, false),
        );
    }
    // Tuzdik creation is unchanged.
    check_move(
        "togyz capture=singleton",
        "9,9,9,9,9,9,9,9,4/9,9,2,9,9,9,9,9,9 6 6 w 1",
        9,
        "9,9,9,9,9,9,9,9,1/10,10,X,9,9,9,9,9,9 9 6 b 1",
        (3, true),
    );
}

#[test]
fn end_of_game_and_scores() {
    let t = rules("togyz");
    // (a) a kazan past half.
    let p = pos(&t, "1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1 82 62 w 1");
    assert!(is_over(&t, &p));
    assert_eq!(final_scores(&t, &p), [91, 71]);
    // 81 is not enough.
    let p = pos(&t, "1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1 81 63 w 1");
    assert!(!is_over(&t, &p));
    assert_eq!(legal_moves(&t, &p).len(), 9);
    // (b) the side to move has no stones; the other side keeps its own.
    let p = pos(&t, "0,0,0,0,0,0,0,0,0/3,0,0,4,0,0,0,0,0 80 75 w 1");
    assert!(is_over(&t, &p));
    assert_eq!(final_scores(&t, &p), [80, 82]);
    // The same board with North to move is not over.
    let p = pos(&t, "0,0,0,0,0,0,0,0,0/3,0,0,4,0,0,0,0,0 80 75 b 1");
    assert!(!is_over(&t, &p));
    assert_eq!(legal_moves(&t, &p), vec![1, 4]);
    // A move that leaves the next player without stones ends the game.
    let b = rules("bestemshchi");
    let p = pos(&b, "0,0,0,0,0/0,0,0,0,1 24 25 b 1");
    let q = play(&b, &p, 5);
    assert_eq!(format(&b, &q), "1,0,0,0,0/0,0,0,0,0 24 25 w 1");
    assert!(!is_over(&b, &q));
    let q = play(&b, &q, 1);
    assert!(is_over(&b, &q));
    assert_eq!(final_scores(&b, &q), [25, 25]);
}

#[test]
fn random_playouts_keep_invariants() {
    let mut seed: u64 = 0x1234_5678;
    for spec in [
        "togyz",
        "togyz sowing=skip-origin capture=singleton",
        "kozdatu tuzdik=on",
        "bestemshchi tuzdik=on sowing=skip-origin",
        "bestemshchi",
    ] {
        let r = rules(spec);
        for _game in 0..20 {
            let mut p = start(&r);
            for _ply in 0..300 {
                let moves = legal_moves(&r, &p);
                if moves.is_empty() {
                    assert!(is_over(&r, &p));
                    let scores = final_scores(&r, &p);
                    assert_eq!(scores[0] + scores[1], r.total());
                    break;
                }
                let total: u32 = p.holes.iter().sum::<u32>() + p.kazan[0] + p.kazan[1];
                assert_eq!(total, r.total());
                for (owner, t) in p.tuzdik.iter().enumerate() {
                    if let Some(i) = *t {
                        assert_eq!(p.holes[i], 0);
                        assert_eq!(i / r.n, 1 - owner);
                    }
                }
                assert_eq!(parse(&r, &format(&r, &p)).unwrap(), p);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[(seed % moves.len() as u64) as usize];
                p = play(&r, &p, m);
            }
        }
    }
}

/// The suite is checked to this depth here (debug builds are slow); the engine's own tests go
/// deeper.
const SUITE_CHECK_DEPTH: usize = 4;

#[test]
fn plain_matches_suite() {
    let path = suite_in_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = parse_suite(&text).unwrap();
    assert!(
        entries.len() >= 60,
        "only {} positions in {path}",
        entries.len()
    );
    let mut variants = std::collections::BTreeSet::new();
    // Mangala IV lines are checked by tests/plain_mangala.rs.
    for e in entries.iter().filter(|e| !e.spec.starts_with("mangala4")) {
        let r =
            PlainRules::from_spec(&e.spec).unwrap_or_else(|err| panic!("line {}: {err}", e.line));
        variants.insert(r.variant_name());
        let p = parse(&r, &e.position).unwrap_or_else(|err| panic!("line {}: {err}", e.line));
        assert!(!e.comment.is_empty(), "line {} has no comment", e.line);
        for (i, want) in e.counts.iter().take(SUITE_CHECK_DEPTH).enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(
                perft(&r, &p, depth),
                *want,
                "line {}: {} ; {} at depth {depth}",
                e.line,
                e.spec,
                e.position
            );
        }
    }
    let want: std::collections::BTreeSet<&str> =
        ["togyz", "kozdatu", "bestemshchi"].into_iter().collect();
    assert_eq!(variants, want);
}

#[test]
#[ignore = "writes positions/perft.txt; run in release"]
fn generate_perft_suite() {
    let text = format!("{}\n{}", generate_suite(), plain::mangala::suite_lines());
    let path = suite_out_path();
    if let Some(dir) = std::path::Path::new(&path).parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(&path, &text).unwrap();
    let entries = parse_suite(&text).unwrap();
    let nodes: u64 = entries.iter().flat_map(|e| e.counts.iter()).sum();
    println!("wrote {path}: {} positions, {nodes} nodes", entries.len());
}
