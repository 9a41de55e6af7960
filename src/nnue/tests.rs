use proptest::prelude::*;

use super::data::{NO_SCORE, RECORD_BYTES, Record};
use super::datagen::{self, is_quiet};
use super::train::{self, Adam, FloatNet, Sample};
use super::*;
use crate::game::Game;

/// The positions of a random game of `plies` plies from the start (fewer if it ends).
fn random_game(seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = SplitMix::new(seed);
    let mut game = Game::new(Variant::TOGYZ);
    for _ in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.try_play(legal[rng.below(legal.len())]).unwrap();
    }
    game.positions().to_vec()
}

#[test]
fn inputs_are_in_range_and_one_per_slot_kind() {
    for pos in random_game(5, 200) {
        for side in Side::BOTH {
            let slots = features(&pos, side);
            for (slot, input) in slots.iter().enumerate() {
                if let Some(input) = input {
                    assert!(usize::from(*input) < INPUTS);
                    if slot < 2 * HOLES {
                        assert_eq!(usize::from(*input) / COUNT_BUCKETS, slot);
                    }
                }
            }
            // Kazans are always present; a hole is empty exactly when it is a tuzdik.
            assert!(slots[20].is_some() && slots[21].is_some());
            let tuzdiks = slots[18..20].iter().flatten().count();
            let holes = slots[..18].iter().flatten().count();
            assert_eq!(holes + tuzdiks, 18);
        }
    }
}

#[test]
fn the_two_views_mirror_each_other() {
    // South's view of a position equals North's view of the position with rows swapped.
    for pos in random_game(9, 120) {
        let rows = [pos.row(Side::North).to_vec(), pos.row(Side::South).to_vec()];
        let swapped = Position::from_parts(
            Variant::TOGYZ,
            &rows,
            [pos.kazan(Side::North), pos.kazan(Side::South)],
            [pos.tuzdik(Side::North), pos.tuzdik(Side::South)],
            pos.side_to_move().opponent(),
        )
        .unwrap();
        assert_eq!(features(&pos, Side::South), features(&swapped, Side::North));
    }
}

#[test]
fn count_buckets_cap_large_counts() {
    assert_eq!(count_bucket(0), 0);
    assert_eq!(count_bucket(15), 15);
    assert_eq!(count_bucket(16), 16);
    assert_eq!(count_bucket(24), 17);
    assert_eq!(count_bucket(31), 18);
    assert_eq!(count_bucket(32), 19);
    assert_eq!(count_bucket(162), 19);
}

#[test]
fn every_instruction_set_gives_the_same_sums_and_scores() {
    let net = Network::seeded(11);
    let paths = simd::available();
    assert!(paths.contains(&simd::Path::Scalar));
    for pos in random_game(21, 150) {
        let reference = Accumulator::refresh_with(&net, &pos, simd::Path::Scalar);
        let score = net.evaluate_with(&reference, &pos, simd::Path::Scalar);
        for &path in &paths {
            let acc = Accumulator::refresh_with(&net, &pos, path);
            assert_eq!(acc, reference, "{path:?}");
            assert_eq!(net.evaluate_with(&acc, &pos, path), score, "{path:?}");
        }
    }
}

#[test]
fn a_weight_change_changes_the_score() {
    let mut net = Network::seeded(3);
    let pos = Position::start(Variant::TOGYZ);
    let before = net.evaluate_position(&pos);
    net.output_bias += QA * QB;
    assert_eq!(net.evaluate_position(&pos), before + EVAL_SCALE);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn incremental_updates_equal_a_refresh(seed in any::<u64>()) {
        let net = Network::seeded(seed);
        let positions = random_game(seed, 160);
        for path in simd::available() {
            let mut acc = Accumulator::refresh_with(&net, &positions[0], path);
            for pos in &positions[1..] {
                let changed = acc.update_with(&net, pos, path);
                prop_assert!(changed <= 2 * SLOTS);
                prop_assert_eq!(&acc, &Accumulator::refresh_with(&net, pos, simd::Path::Scalar));
            }
            // A jump to an unrelated position (another game, tuzdiks gone) is an update too.
            for pos in random_game(seed ^ 1, 90).iter().rev().step_by(7) {
                acc.update_with(&net, pos, path);
                prop_assert_eq!(&acc, &Accumulator::refresh_with(&net, pos, simd::Path::Scalar));
            }
        }
    }

    /// `update_from` a parent equals the parent cloned and updated, on every path: from the
    /// position just before (a move), from one two plies back (a sibling's stale
    /// accumulator), and into an accumulator that held anything before.
    #[test]
    fn updates_from_a_parent_equal_a_refresh(seed in any::<u64>()) {
        let net = Network::seeded(seed);
        let positions = random_game(seed, 160);
        let stranger = Accumulator::refresh(&net, random_game(seed ^ 3, 40).last().unwrap());
        for path in simd::available() {
            for back in [1, 2] {
                for window in positions.windows(back + 1) {
                    let parent = Accumulator::refresh_with(&net, &window[0], path);
                    let pos = &window[back];
                    let mut child = stranger.clone();
                    let changed = child.update_from_with(&parent, &net, pos, path);
                    let mut expected = parent.clone();
                    prop_assert_eq!(changed, expected.update_with(&net, pos, path));
                    prop_assert_eq!(&child, &expected);
                    prop_assert_eq!(&child, &Accumulator::refresh_with(&net, pos, simd::Path::Scalar));
                }
            }
        }
    }

    #[test]
    fn records_round_trip(seed in any::<u64>(), score in any::<i16>(), margin in any::<i16>(), game in any::<u32>(), result in -1i8..=1) {
        for position in random_game(seed, 100) {
            let record = Record { position, result, score: (score != NO_SCORE).then_some(score), margin, game };
            prop_assert_eq!(Record::from_bytes(&record.to_bytes()).unwrap(), record);
        }
    }
}

#[test]
fn net_files_round_trip_and_wrong_files_are_refused_by_name() {
    let net = Network::seeded(8);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    assert!(bytes.len() < 2 << 20, "the net must stay well under 2 MB");

    assert!(matches!(
        Network::from_bytes(b"PK\x03\x04 zip"),
        Err(NetError::Magic)
    ));
    assert!(matches!(Network::from_bytes(&[]), Err(NetError::Magic)));
    let mut version = bytes.clone();
    version[4] = 9;
    assert!(matches!(
        Network::from_bytes(&version),
        Err(NetError::Version { found: 9 })
    ));
    let mut shape = bytes.clone();
    shape[13] = 0;
    assert!(matches!(
        Network::from_bytes(&shape),
        Err(NetError::Shape { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 1]),
        Err(NetError::Length { .. })
    ));
    let mut damaged = bytes.clone();
    damaged[HEADER_BYTES + 100] ^= 1;
    let error = Network::from_bytes(&damaged).unwrap_err();
    assert!(matches!(error, NetError::Hash { .. }));
    assert!(error.to_string().contains("does not match"));
    let missing = Network::load(Path::new("/nonexistent/net.nnue")).unwrap_err();
    assert!(missing.to_string().contains("/nonexistent/net.nnue"));
}

#[test]
fn bad_records_are_refused_with_the_reason() {
    let record = Record {
        position: Position::start(Variant::TOGYZ),
        result: 0,
        score: None,
        margin: 0,
        game: 0,
    };
    let mut bytes = record.to_bytes();
    bytes[22] = 2;
    assert!(
        Record::from_bytes(&bytes)
            .unwrap_err()
            .contains("side to move")
    );
    let mut bytes = record.to_bytes();
    bytes[23] = 5;
    assert!(Record::from_bytes(&bytes).unwrap_err().contains("result"));
    let mut bytes = record.to_bytes();
    bytes[0] = 200;
    assert!(
        Record::from_bytes(&bytes)
            .unwrap_err()
            .contains("not a valid position")
    );

    let dir = std::env::temp_dir().join(format!("tuzdik-nnue-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("odd.bin");
    std::fs::write(&path, [0u8; RECORD_BYTES + 3]).unwrap();
    assert!(data::read_file(&path).unwrap_err().contains("whole number"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quiet_means_no_capture_is_possible() {
    // The start: 9 stones from hole 9 land... every move sows 9; some capture (even counts).
    let start = Position::start(Variant::TOGYZ);
    assert!(!is_quiet(&start));
    let mut quiet_seen = false;
    for pos in random_game(2, 200) {
        let captures = pos.legal_moves().iter().any(|&mv| {
            let effect = pos.clone().play(mv);
            effect.captured > 0 || effect.made_tuzdik
        });
        assert_eq!(is_quiet(&pos), !captures);
        quiet_seen |= !captures;
    }
    assert!(quiet_seen);
}

#[test]
fn self_play_games_are_deterministic_and_resume_continues_them() {
    let text = "startpos\n";
    let book = crate::matchrun::openings::parse(text, Variant::TOGYZ, "test").unwrap();
    let mut engine = crate::search::Engine::new();
    engine.set_hash_mib(1).unwrap();
    let first = datagen::play_game(4, 7, 300, &book, &mut engine).unwrap();
    let again = datagen::play_game(4, 7, 300, &book, &mut engine).unwrap();
    assert_eq!(first, again);
    assert!(!first.is_empty());
    for record in &first {
        assert_eq!(record.game, 4);
        assert!(is_quiet(&record.position));
        assert!(record.score.is_some());
        assert_eq!(i16::from(record.result), record.margin.signum());
    }

    let dir = std::env::temp_dir().join(format!("tuzdik-nnue-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("data.bin");
    assert_eq!(datagen::prepare_resume(&path, 10).unwrap(), 0);
    let game_three: Vec<u8> = datagen::play_game(3, 7, 300, &book, &mut engine)
        .unwrap()
        .iter()
        .flat_map(Record::to_bytes)
        .collect();
    let game_four: Vec<u8> = first.iter().flat_map(Record::to_bytes).collect();
    // A stop cut game 4 in the middle of a record.
    let mut cut = game_three.clone();
    cut.extend_from_slice(&game_four[..game_four.len() / 2 + 5]);
    std::fs::write(&path, &cut).unwrap();
    // Asking for fewer games than the file holds changes nothing.
    assert!(
        datagen::prepare_resume(&path, 4)
            .unwrap_err()
            .contains("more than --games 4")
    );
    assert_eq!(std::fs::read(&path).unwrap(), cut);
    assert_eq!(datagen::prepare_resume(&path, 10).unwrap(), 4);
    assert_eq!(std::fs::read(&path).unwrap(), game_three);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pgn_games_convert_with_their_result_and_no_score() {
    let text = "[Event \"t\"]\n[Result \"0-1\"]\n\n1. 7 7 2. 4 0-1\n\n[Event \"u\"]\n[Result \"*\"]\n\n1. 7 *\n";
    let (records, games) = datagen::convert_pgn(text, 10).unwrap();
    assert_eq!(games, 1);
    assert!(!records.is_empty());
    for record in &records {
        assert_eq!(record.score, None);
        assert_eq!(record.game, 10);
        let expected = if record.position.side_to_move() == Side::North {
            1
        } else {
            -1
        };
        assert_eq!(record.result, expected);
    }
    assert!(datagen::convert_pgn("[Event \"x\"\n1. 99 *", 0).is_err());
}

/// Synthetic records: random positions labelled by the kazan difference (a pattern the net can
/// learn), spread over games.
fn synthetic(count: usize) -> Vec<Record> {
    let mut records = Vec::new();
    let mut seed = 0;
    while records.len() < count {
        seed += 1;
        for position in random_game(seed, 120).into_iter().skip(10) {
            let us = position.side_to_move();
            let lead = position.kazan(us) as i32 - position.kazan(us.opponent()) as i32;
            records.push(Record {
                position,
                result: lead.signum() as i8,
                score: Some((lead * 60).clamp(-3000, 3000) as i16),
                margin: lead as i16,
                game: seed as u32,
            });
        }
    }
    records.truncate(count);
    records
}

#[test]
fn training_lowers_the_validation_loss_and_the_quantised_net_agrees() {
    let records = synthetic(3000);
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for record in &records {
        let sample = Sample::from_record(record, 0.8);
        if train::is_validation(0, record.game, 1, 20) {
            validation.push((sample, record.position));
        } else {
            training.push(sample);
        }
    }
    assert!(!validation.is_empty() && !training.is_empty());
    let validation_samples: Vec<Sample> = validation.iter().map(|(s, _)| *s).collect();
    let mut net = FloatNet::seeded(1);
    let mut adam = Adam::new();
    let before = net.loss(&validation_samples);
    let order: Vec<usize> = (0..training.len()).collect();
    for _ in 0..4 {
        train::train_epoch(&mut net, &mut adam, &training, &order, 128, 0.003);
    }
    let after = net.loss(&validation_samples);
    assert!(after < before * 0.8, "validation loss {before} -> {after}");

    let quantised = net.quantise();
    let mut worst = 0.0f32;
    for (sample, position) in &validation {
        let float = net.forward(sample);
        let integer = quantised.evaluate_position(position) as f32 / EVAL_SCALE as f32;
        worst = worst.max((float - integer).abs());
    }
    // 0.05 of a logit is 20 hundredths of a stone.
    assert!(worst < 0.05, "float and quantised logits differ by {worst}");

    let loaded = Network::from_bytes(&quantised.to_bytes()).unwrap();
    assert_eq!(loaded, quantised);
}

#[test]
fn checkpoints_round_trip_and_training_is_the_same_whatever_the_threads() {
    let records = synthetic(600);
    let samples: Vec<Sample> = records
        .iter()
        .map(|r| Sample::from_record(r, 0.5))
        .collect();
    let order: Vec<usize> = (0..samples.len()).rev().collect();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut net = FloatNet::seeded(5);
            let mut adam = Adam::new();
            train::train_epoch(&mut net, &mut adam, &samples, &order, 100, 0.001);
            (net, adam)
        })
    };
    let (one, adam) = run(1);
    let (two, _) = run(2);
    assert_eq!(one, two);

    let dir = std::env::temp_dir().join(format!("tuzdik-nnue-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.ckpt");
    train::save_checkpoint(&path, &one, &adam, 3).unwrap();
    let (net, loaded_adam, epochs) = train::load_checkpoint(&path).unwrap();
    assert_eq!((net, loaded_adam, epochs), (one, adam, 3));
    std::fs::write(&path, b"TZNN not a checkpoint").unwrap();
    assert!(
        train::load_checkpoint(&path)
            .unwrap_err()
            .contains("not a tuzdik training checkpoint")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
