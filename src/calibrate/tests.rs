use super::*;

#[test]
fn newton_finds_a_known_minimum() {
    let found = minimise(
        |x: &[f64; 3]| (x[0] - 1.5).powi(2) + 3.0 * (x[1] + 2.0).powi(2) + (x[2] - x[0]).powi(4),
        [0.0; 3],
    );
    assert!((found[0] - 1.5).abs() < 1e-3, "{found:?}");
    assert!((found[1] + 2.0).abs() < 1e-3, "{found:?}");
    assert!((found[2] - 1.5).abs() < 0.1, "{found:?}");
}

#[test]
fn comments_give_internal_scores() {
    assert_eq!(comment_score("+3.58/12 0.005s"), Some(358));
    assert_eq!(comment_score("-0.06/12 0.006s"), Some(-6));
    assert_eq!(comment_score("+M5/12 0.01s"), None);
    assert_eq!(comment_score("book"), None);
}

#[test]
fn the_fit_recovers_the_margin_model_that_made_the_data() {
    // Data drawn from a known model plus noise: the fit must find margins close to it.
    let truth = Model {
        margin: [0.5, -0.8, 0.2],
        wdl: [1.0, 0.5, 1.2, 0.8],
        score_scale: 80.0,
    };
    let mut rng = SplitMix::new(7);
    let mut samples = Vec::new();
    for game in 0..4000 {
        let on_board = 10.0 + rng.below(150) as f64;
        let kazan_margin = rng.below(41) as f64 - 20.0;
        let material = Material {
            kazan_margin,
            on_board,
            all_stones: 162.0,
        };
        let internal = rng.below(4001) as i32 - 2000;
        let margin = truth.margin(internal, &material);
        let noise = rng.below(9) as f64 - 4.0;
        let final_margin = margin + noise;
        samples.push(Sample {
            material,
            internal,
            final_margin,
            game,
        });
    }
    let fitted = Model::HAND_CRAFTED.refit(&samples);
    let mean_gap = samples
        .iter()
        .map(|s| {
            (fitted.margin(s.internal, &s.material) - truth.margin(s.internal, &s.material)).abs()
        })
        .sum::<f64>()
        / samples.len() as f64;
    assert!(
        mean_gap < 1.0,
        "margins differ by {mean_gap} stones on average"
    );
}

#[test]
fn games_spread_evenly_over_the_folds() {
    let mut counts = [0; FOLDS];
    for game in 0..10_000 {
        counts[fold_of(game)] += 1;
    }
    assert!(
        counts.iter().all(|&c| (1_800..2_200).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn cross_validation_judges_every_sample_once_by_a_model_fitted_without_its_game() {
    let mut rng = SplitMix::new(3);
    let samples: Vec<Sample> = (0..600)
        .map(|i| {
            let internal = rng.below(2001) as i32 - 1000;
            Sample {
                material: Material {
                    kazan_margin: 0.0,
                    on_board: 100.0,
                    all_stones: 162.0,
                },
                internal,
                final_margin: f64::from(internal) / 100.0 + rng.below(5) as f64 - 2.0,
                game: i / 6,
            }
        })
        .collect();
    let judged = cross_validate(&samples, &Model::NET);
    assert_eq!(judged.len(), samples.len());
    let mut seen: Vec<(usize, i32)> = judged
        .iter()
        .map(|j| (j.sample.game, j.sample.internal))
        .collect();
    let mut expected: Vec<(usize, i32)> = samples.iter().map(|s| (s.game, s.internal)).collect();
    seen.sort_unstable();
    expected.sort_unstable();
    assert_eq!(seen, expected);
    // Fold 0's samples are judged by the model of folds 1-4, not by one fitted on all.
    let rest: Vec<Sample> = samples
        .iter()
        .copied()
        .filter(|s| fold_of(s.game) != 0)
        .collect();
    let without = Model::NET.refit(&rest);
    let first = judged
        .iter()
        .find(|j| fold_of(j.sample.game) == 0)
        .expect("fold 0 has games");
    assert_eq!(first.margin, without.sample_margin(&first.sample));
}
