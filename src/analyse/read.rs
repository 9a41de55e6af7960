//! A PGN file read game by game: a game that cannot be read or replayed is set aside with the
//! reason, and reading goes on at the next game.

use crate::game::Game;
use crate::record::{Record, RecordReader};

/// A game left out of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// Its number in the file, from 1.
    pub game: usize,
    /// The line it starts on.
    pub line: usize,
    /// What is wrong with it.
    pub error: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {} (line {}): {}", self.game, self.line, self.error)
    }
}

/// The first line at or after `from` (0-based) that starts a game: a tag after a blank line or
/// at the top of the file.
fn next_game_start(lines: &[&[u8]], from: usize) -> Option<usize> {
    (from..lines.len()).find(|&index| {
        lines[index].starts_with(b"[")
            && (index == 0 || lines[index - 1].iter().all(u8::is_ascii_whitespace))
    })
}

/// Every game of the file, replayed, or why not. After a game that cannot be read the reader
/// starts again at the next game's tags; the lines before are blanked, so that line numbers
/// stay those of the file.
pub(crate) fn games(bytes: &[u8]) -> Vec<Result<(Record, Game), Skipped>> {
    let lines: Vec<&[u8]> = bytes.split(|&byte| byte == b'\n').collect();
    let mut out = Vec::new();
    let mut start = 0;
    loop {
        let mut text = vec![b'\n'; start];
        text.extend_from_slice(&lines[start..].join(&b'\n'));
        let mut resume = None;
        for item in RecordReader::new(text.as_slice()) {
            let game = out.len() + 1;
            match item {
                Ok(record) => out.push(match record.replay() {
                    Ok(replayed) => Ok((record, replayed)),
                    Err(error) => Err(Skipped {
                        game,
                        line: record.line,
                        error: error.to_string(),
                    }),
                }),
                Err(failure) => {
                    out.push(Err(Skipped {
                        game,
                        line: failure.line,
                        error: failure.error.to_string(),
                    }));
                    // The reader stops at its first error: go on after the failed game's first
                    // line.
                    resume = Some(failure.line.max(start + 1));
                    break;
                }
            }
        }
        match resume.and_then(|from| next_game_start(&lines, from)) {
            Some(next) if next > start => start = next,
            _ => return out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Games of each kind: one that reads and replays, and ways of being wrong.
    const KINDS: [(&str, bool); 5] = [
        ("[Event \"good\"]\n\n1. 87(10) 87(10) 2. 22 *\n", true),
        ("[Event \"token\"]\n\n1. 87(10) zz *\n", false),
        (
            "[Event \"landing\"]\n\n1. 87(10) 87(10) 2. 87(10) *\n",
            false,
        ),
        ("[Event \"tag\"]\n[Event no quotes]\n\n1. 76 *\n", false),
        ("[Event \"comment\"]\n\n1. 76 {never closed\n", false),
    ];

    proptest! {
        /// Whatever mix of good and bad games a file holds, each game gives one entry, in
        /// order, read when it is good and set aside when it is not, on its own first line.
        #[test]
        fn every_game_gives_one_entry_in_order(kinds in proptest::collection::vec(0..KINDS.len(), 1..12)) {
            let mut text = String::new();
            let mut starts = Vec::new();
            for &kind in &kinds {
                starts.push(text.lines().count() + 1);
                text.push_str(KINDS[kind].0);
                text.push('\n');
            }
            let games = games(text.as_bytes());
            prop_assert_eq!(games.len(), kinds.len(), "{}", text);
            for (index, (entry, &kind)) in games.iter().zip(&kinds).enumerate() {
                prop_assert_eq!(entry.is_ok(), KINDS[kind].1, "game {}: {:?}\n{}", index + 1, entry, text);
                match entry {
                    Ok((record, _)) => prop_assert_eq!(record.line, starts[index]),
                    Err(skipped) => {
                        prop_assert_eq!(skipped.game, index + 1);
                        prop_assert_eq!(skipped.line, starts[index], "{}", text);
                    }
                }
            }
        }
    }

    const GOOD: &str = "[Event \"a\"]\n\n1. 87(10) 87(10) *\n";

    #[test]
    fn a_bad_game_is_set_aside_and_the_next_ones_are_read() {
        let text = format!(
            "{GOOD}\n[Event \"b\"]\n\n1. 87(10) zz *\n\n[Event \"c\"]\n\n1. 11 11 11 *\n\n{GOOD}"
        );
        let games = games(text.as_bytes());
        assert_eq!(games.len(), 4, "{games:?}");
        assert!(games[0].is_ok());
        let bad = games[1].as_ref().unwrap_err();
        assert_eq!((bad.game, bad.line), (2, 5));
        assert!(bad.error.contains("line 7"), "{bad}");
        let illegal = games[2].as_ref().unwrap_err();
        assert_eq!((illegal.game, illegal.line), (3, 9));
        let (last, _) = games[3].as_ref().unwrap();
        assert_eq!(last.line, 13);
        assert_eq!(last.tag("Event"), Some("a"));
    }

    #[test]
    fn a_file_of_good_games_reads_whole() {
        let text = format!("{GOOD}\n{GOOD}");
        let games = games(text.as_bytes());
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(Result::is_ok));
        assert!(super::games(b"").is_empty());
    }
}
