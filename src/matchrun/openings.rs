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

/// Reads the openings of a PGN file: each game's start position and its first `plies`
/// moves (all of them when `None`). Every game must replay under `variant`'s rules and
/// leave a game still to play.
///
/// ```
/// use tuzdik::matchrun::openings::from_pgn;
/// use tuzdik::Variant;
/// let pgn = "[Event \"x\"]\n\n1. 87(10) 87(10) 2. 22 *\n";
/// let book = from_pgn(pgn, Variant::TOGYZ, "book.pgn", Some(2)).unwrap();
/// assert_eq!(book[0].game.moves().len(), 2);
/// ```
pub fn from_pgn(
    text: &str,
    variant: Variant,
    name: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, String> {
    let records = crate::record::Record::parse_all(text).map_err(|e| format!("{name}: {e}"))?;
    let mut openings = Vec::new();
    for (number, record) in records.iter().enumerate() {
        let source = format!("{name}: game {}", number + 1);
        let recorded = record.variant().map_err(|e| format!("{source}: {e}"))?;
        if recorded != variant {
            return Err(format!(
                "{source}: a {recorded} game, but the match plays {variant}"
            ));
        }
        let full = record.replay().map_err(|e| format!("{source}: {e}"))?;
        let mut game = record.start().map_err(|e| format!("{source}: {e}"))?;
        for &mv in full.moves().iter().take(plies.unwrap_or(usize::MAX)) {
            game.try_play(mv).map_err(|e| format!("{source}: {e}"))?;
        }
        if game.termination().is_some() || game.legal_moves().is_empty() {
            return Err(format!(
                "{source}: the game is over after {} plies (give a smaller plies=)",
                game.moves().len()
            ));
        }
        openings.push(Opening { game, source });
    }
    if openings.is_empty() {
        return Err(format!("{name}: no games in the file"));
    }
    Ok(openings)
}

/// How the book is used, from `--openings file=F [format=pgn|epd] [order=random|sequential]
/// [plies=N] [start=N]` (or `--openings F` alone: a position file, or PGN when `F` ends in
/// `.pgn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    /// The file.
    pub file: std::path::PathBuf,
    /// PGN (`true`) or one position string per line.
    pub pgn: bool,
    /// Shuffled (with `--seed`, 0 when none is given) rather than in file order.
    pub random: bool,
    /// PGN: moves taken from each game (all when `None`).
    pub plies: Option<usize>,
    /// The first opening used, counted from 1.
    pub start: usize,
}

impl BookSpec {
    /// Parses the words after `--openings`.
    pub fn parse(words: &[String]) -> Result<BookSpec, String> {
        let mut file = None;
        let mut format = None;
        let mut random = false;
        let mut plies = None;
        let mut start = 1;
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                if file.is_none() && words.len() == 1 {
                    file = Some(std::path::PathBuf::from(word));
                    continue;
                }
                return Err(format!("--openings: '{word}' is not key=value"));
            };
            let number = |what: &str| -> Result<usize, String> {
                value
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| {
                        format!("--openings: {what}={value} is not a whole number above 0")
                    })
            };
            match key {
                "file" => file = Some(std::path::PathBuf::from(value)),
                "format" => match value.to_ascii_lowercase().as_str() {
                    "pgn" => format = Some(true),
                    "epd" | "fen" | "txt" | "positions" => format = Some(false),
                    _ => return Err(format!("--openings: format={value}: expected pgn or epd")),
                },
                "order" => match value.to_ascii_lowercase().as_str() {
                    "random" => random = true,
                    "sequential" => random = false,
                    _ => {
                        return Err(format!(
                            "--openings: order={value}: expected random or sequential"
                        ));
                    }
                },
                "plies" => plies = Some(number("plies")?),
                "start" => start = number("start")?,
                // cutechess's policy: every opening is played as a colour-swapped pair here.
                "policy" => {}
                _ => {
                    return Err(format!(
                        "--openings: unknown key '{key}' (expected file, format, order, plies, start)"
                    ));
                }
            }
        }
        let file = file.ok_or("--openings: file= is missing")?;
        let pgn = format.unwrap_or_else(|| {
            file.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        });
        if plies.is_some() && !pgn {
            return Err("--openings: plies= applies to PGN books only".to_string());
        }
        Ok(BookSpec {
            file,
            pgn,
            random,
            plies,
            start,
        })
    }

    /// Reads the book.
    pub fn load(&self, variant: Variant) -> Result<Vec<Opening>, String> {
        let name = self.file.display().to_string();
        let text =
            std::fs::read_to_string(&self.file).map_err(|e| format!("--openings {name}: {e}"))?;
        let book = if self.pgn {
            from_pgn(&text, variant, &name, self.plies)?
        } else {
            parse(&text, variant, &name)?
        };
        if self.start > book.len() {
            return Err(format!(
                "--openings: start={} but {name} has {} openings",
                self.start,
                book.len()
            ));
        }
        Ok(book)
    }
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

pub use crate::rng::SplitMix;

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
    fn book_specs_parse() {
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let spec = BookSpec::parse(&words("file=a.pgn order=random plies=4 start=3")).unwrap();
        assert!(spec.pgn && spec.random);
        assert_eq!((spec.plies, spec.start), (Some(4), 3));
        let plain = BookSpec::parse(&words("book.txt")).unwrap();
        assert!(!plain.pgn && !plain.random);
        for (bad, says) in [
            ("file=a.txt plies=3", "PGN books only"),
            ("order=random", "file= is missing"),
            ("file=a.pgn order=shuffled", "order=shuffled"),
            ("file=a.pgn start=0", "start=0"),
            ("a.txt b.txt", "not key=value"),
        ] {
            let error = BookSpec::parse(&words(bad)).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
        let over = "[Event \"x\"]\n\n1. 87(10) 87(10) *\n";
        assert!(from_pgn(over, Variant::TOGYZ, "b", None).is_ok());
        assert!(from_pgn("", Variant::TOGYZ, "b", None).is_err());
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
