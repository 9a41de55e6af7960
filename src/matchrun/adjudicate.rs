//! Adjudication by the engines' own scores, as cutechess-cli does it: a resignation when both
//! engines agree, for some moves in a row, that one side is lost, and a draw when both agree,
//! late enough in the game, that the position is level.
//!
//! Scores are what each engine reported last before its `bestmove` (`score cp`, or `score
//! mate`, which counts as beyond every threshold), from its own point of view. A move without
//! a score breaks a run.

use crate::position::Side;

/// What a `score mate N` counts as (minus N, so that nearer mates weigh more).
pub const MATE_SCORE: i64 = 1_000_000;

/// `--resign movecount=M score=R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Moves in a row of each engine.
    pub moves: usize,
    /// The loser's score is at most `-score`, the winner's at least `score`.
    pub score: i64,
}

/// `--draw movenumber=K movecount=M score=D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The earliest full move number at which a draw is adjudicated.
    pub after_move: usize,
    /// Moves in a row of each engine.
    pub moves: usize,
    /// Both scores are at most this far from 0.
    pub score: i64,
}

/// Reads `key=value` words (separated by spaces or commas) with the keys allowed.
fn pairs(
    flag: &str,
    words: &[String],
    keys: &[&str],
) -> Result<std::collections::HashMap<String, i64>, String> {
    let mut values = std::collections::HashMap::new();
    for part in words
        .iter()
        .flat_map(|w| w.split([',', ' ']))
        .filter(|p| !p.is_empty())
    {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("{flag}: '{part}' is not key=value"))?;
        let key = key.trim().to_ascii_lowercase();
        if !keys.contains(&key.as_str()) {
            return Err(format!(
                "{flag}: unknown key '{key}' (expected {})",
                keys.join(", ")
            ));
        }
        let number: i64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v| *v >= 0)
            .ok_or_else(|| format!("{flag}: {key}={value} is not a whole number of 0 or more"))?;
        values.insert(key, number);
    }
    for key in keys {
        if !values.contains_key(*key) {
            return Err(format!("{flag}: {key}= is missing"));
        }
    }
    Ok(values)
}

impl ResignRule {
    /// Parses `movecount=M score=R` (R in the engines' centipawns, M at least 1).
    ///
    /// ```
    /// use tuzdik::matchrun::adjudicate::ResignRule;
    /// let rule = ResignRule::parse(&["movecount=3".into(), "score=600".into()]).unwrap();
    /// assert_eq!((rule.moves, rule.score), (3, 600));
    /// assert!(ResignRule::parse(&["score=600".into()]).is_err());
    /// ```
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        let values = pairs("--resign", words, &["movecount", "score"])?;
        let rule = ResignRule {
            moves: values["movecount"] as usize,
            score: values["score"],
        };
        if rule.moves == 0 {
            return Err("--resign: movecount must be at least 1".to_string());
        }
        Ok(rule)
    }

    /// The side that resigns, given each side's scores so far (its own view).
    pub fn loser(&self, scores: &[Vec<Option<i64>>; 2]) -> Option<Side> {
        for loser in Side::BOTH {
            let lost = last_all(&scores[loser.index()], self.moves, |s| s <= -self.score);
            let won = last_all(&scores[loser.opponent().index()], self.moves, |s| {
                s >= self.score
            });
            if lost && won {
                return Some(loser);
            }
        }
        None
    }
}

impl DrawRule {
    /// Parses `movenumber=K movecount=M score=D`.
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let values = pairs("--draw", words, &["movenumber", "movecount", "score"])?;
        let rule = DrawRule {
            after_move: values["movenumber"] as usize,
            moves: values["movecount"] as usize,
            score: values["score"],
        };
        if rule.moves == 0 {
            return Err("--draw: movecount must be at least 1".to_string());
        }
        Ok(rule)
    }

    /// Whether the game is drawn, given each side's scores so far and the plies played.
    pub fn holds(&self, scores: &[Vec<Option<i64>>; 2], plies: usize) -> bool {
        plies >= 2 * self.after_move
            && scores
                .iter()
                .all(|side| last_all(side, self.moves, |s| s.abs() <= self.score))
    }
}

/// Whether the last `count` scores are all there and all pass `test`.
fn last_all(scores: &[Option<i64>], count: usize, test: impl Fn(i64) -> bool) -> bool {
    scores.len() >= count
        && scores[scores.len() - count..]
            .iter()
            .all(|s| s.is_some_and(&test))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn resignation_needs_both_engines_for_the_whole_run() {
        let rule = ResignRule::parse(&words("movecount=2 score=300")).unwrap();
        let s = |v: &[Option<i64>]| v.to_vec();
        // North agrees it is lost only on its last move: no resignation yet.
        let scores = [
            s(&[Some(50), Some(400), Some(500)]),
            s(&[Some(-100), Some(-350)]),
        ];
        assert_eq!(rule.loser(&scores), None);
        let scores = [s(&[Some(400), Some(500)]), s(&[Some(-320), Some(-350)])];
        assert_eq!(rule.loser(&scores), Some(Side::North));
        // A one-sided view is not enough, and a missing score breaks the run.
        let scores = [s(&[Some(0), Some(0)]), s(&[Some(-900), Some(-900)])];
        assert_eq!(rule.loser(&scores), None);
        let scores = [s(&[Some(-900), None]), s(&[Some(900), Some(900)])];
        assert_eq!(rule.loser(&scores), None);
        let scores = [
            s(&[Some(-MATE_SCORE + 3), Some(-400)]),
            s(&[Some(900), Some(300)]),
        ];
        assert_eq!(rule.loser(&scores), Some(Side::South));
    }

    #[test]
    fn draws_wait_for_the_move_number() {
        let rule = DrawRule::parse(&words("movenumber=10 movecount=2 score=5")).unwrap();
        let level = [vec![Some(3), Some(-5)], vec![Some(0), Some(1)]];
        assert!(!rule.holds(&level, 19));
        assert!(rule.holds(&level, 20));
        let not = [vec![Some(3), Some(-6)], vec![Some(0), Some(1)]];
        assert!(!rule.holds(&not, 40));
    }

    #[test]
    fn bad_rules_say_why() {
        for (text, says) in [
            ("movecount=0 score=1", "at least 1"),
            ("movecount=x score=1", "not a whole number"),
            ("movecount=2", "score= is missing"),
            ("movecount=2 score=1 foo=2", "unknown key 'foo'"),
            ("movecount", "not key=value"),
        ] {
            let error = ResignRule::parse(&words(text)).unwrap_err();
            assert!(error.contains(says), "{text}: {error}");
        }
        assert!(DrawRule::parse(&words("movecount=2,score=3")).is_err());
        assert!(DrawRule::parse(&words("movenumber=0,movecount=2,score=3")).is_ok());
    }
}
