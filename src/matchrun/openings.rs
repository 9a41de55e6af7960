//! Opening books: one position string per line (or `startpos`); `#` starts a comment
//! anywhere on a line, and blank lines are ignored. Each opening is played twice, the engines swapping colours.

use crate::game::Game;
use crate::position::Position;
use crate::variant::Variant;

/// The built-in set (Toguz Kumalak, standard rules).
pub const BUILTIN: &str = include_str!("../../positions/openings.txt");

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The game it starts (no moves yet).
    pub game: Game,
    /// Where it came from (`file:line`), for messages.
    pub source: String,
}

impl Opening {
    /// Whether it is the variant's start position (sent as `position startpos`).
    pub fn is_startpos(&self) -> bool {
        self.game.start_fullmove() == 1
            && *self.game.start() == Position::start(self.game.variant())
    }
}

/// Reads a book; every bad line is an error naming the file, the line and the reason.
pub fn parse(text: &str, variant: Variant, name: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let source = format!("{name}:{}", index + 1);
        let game = if line.eq_ignore_ascii_case("startpos") {
            Game::new(variant)
        } else {
            Game::from_fen(line, variant)
                .map_err(|e| format!("{source}: '{line}' is not a {variant} position: {e}"))?
        };
        if game.termination().is_some() || game.legal_moves().is_empty() {
            return Err(format!("{source}: '{line}': the game is already over"));
        }
        openings.push(Opening { game, source });
    }
    if openings.is_empty() {
        return Err(format!("{name}: no openings in the file"));
    }
    Ok(openings)
}

/// The openings to use when `--openings` is not given: the built-in set for Toguz Kumalak
/// with its standard rules, the start position for anything else.
pub fn default_for(variant: Variant) -> Result<Vec<Opening>, String> {
    if variant == Variant::TOGYZ {
        parse(BUILTIN, variant, "positions/openings.txt (built in)")
    } else {
        Ok(vec![Opening {
            game: Game::new(variant),
            source: "start position".to_string(),
        }])
    }
}

/// A small, fixed pseudo-random generator (SplitMix64), so that a seed gives the same
/// order on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// The order in which the openings are used: file order, or shuffled by `seed`
/// (Fisher-Yates).
pub fn order(count: usize, seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(seed) = seed {
        let mut rng = SplitMix::new(seed);
        for i in (1..count).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;

    #[test]
    fn the_builtin_book_is_valid_and_large_enough() {
        let book = default_for(Variant::TOGYZ).unwrap();
        assert!(book.len() >= 30, "{} openings", book.len());
        assert!(book.iter().all(|o| !o.is_startpos()));
        let kozdatu = default_for(Variant::new(Family::Kozdatu)).unwrap();
        assert_eq!(kozdatu.len(), 1);
        assert!(kozdatu[0].is_startpos());
    }

    /// The shipped test books: every line a distinct, playable opening that the holes in
    /// its comment reach from the start, as its header says.
    #[test]
    fn the_random_books_replay_from_their_comments() {
        for (name, text, count, plies) in [
            (
                "openings-random.txt",
                include_str!("../../positions/openings-random.txt"),
                1000,
                6,
            ),
            (
                "openings-wide.txt",
                include_str!("../../positions/openings-wide.txt"),
                10000,
                8,
            ),
        ] {
            let book = parse(text, Variant::TOGYZ, name).unwrap();
            assert_eq!(book.len(), count, "{name}");
            let distinct: std::collections::HashSet<Position> =
                book.iter().map(|o| *o.game.position()).collect();
            assert_eq!(distinct.len(), count, "{name} repeats an opening");
            let lines: Vec<&str> = text.lines().collect();
            for opening in &book {
                // The opening's source is `name:line`, its line in the file.
                let (_, number) = opening.source.rsplit_once(':').unwrap();
                let line = lines[number.parse::<usize>().unwrap() - 1];
                let (_, comment) = line.split_once('#').unwrap();
                let holes: Vec<&str> = comment.split_whitespace().take(plies).collect();
                let mut game = Game::new(Variant::TOGYZ);
                for hole in &holes {
                    game.play_text(hole).unwrap();
                }
                assert_eq!(game.position(), opening.game.position(), "{name}: {line}");
                let score: i32 = comment.split_whitespace().last().unwrap().parse().unwrap();
                assert!(score.abs() <= 150, "{name}: {line}");
            }
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let text = "# comment\n\nstartpos # the start\n9,9,9/9,9,9 0 0 w\n";
        let error = parse(text, Variant::TOGYZ, "book.txt").unwrap_err();
        assert!(
            error.starts_with("book.txt:4: '9,9,9/9,9,9 0 0 w'"),
            "{error}"
        );
        let over = "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 80 81 w\n";
        assert!(
            parse(over, Variant::TOGYZ, "b")
                .unwrap_err()
                .contains("already over")
        );
        assert!(
            parse("# nothing\n", Variant::TOGYZ, "b")
                .unwrap_err()
                .contains("no openings")
        );
    }

    #[test]
    fn a_seed_shuffles_reproducibly() {
        assert_eq!(order(5, None), vec![0, 1, 2, 3, 4]);
        let a = order(40, Some(7));
        assert_eq!(a, order(40, Some(7)));
        assert_ne!(a, order(40, Some(8)));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..40).collect::<Vec<_>>());
    }
}
