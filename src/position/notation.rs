//! Notation that needs a board: PlayOK's long form (`<from><landing>[X]`, optionally followed
//! by `(k)`, the mover's kazan afterwards), checked against the position it is played in, and
//! what a move does ([`Effect`]). The short form, which needs none, is [`Move`]'s own.

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{all_consuming, map, map_res, opt, value};
use nom::sequence::{delimited, tuple};
use thiserror::Error;

use super::{Effect, PlayError, Position};
use crate::moves::Move;

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in either notation.
    #[error(
        "'{0}' is not a move (expected a hole number like 7, a long move like 76, 68X or 76(10), or 0000)"
    )]
    Syntax(String),
    /// The move is not legal in the position.
    #[error("illegal move '{text}': {reason}")]
    Illegal {
        /// The move as written.
        text: String,
        /// Why it is illegal.
        reason: PlayError,
    },
    /// The long form's landing hole is not where the last stone falls.
    #[error(
        "move '{text}' says the last stone lands in hole {written}, but it lands in hole {actual}"
    )]
    Landing {
        /// The move as written.
        text: String,
        /// The landing hole written.
        written: u8,
        /// The landing hole the move really reaches.
        actual: u8,
    },
    /// The tuzdik mark disagrees with what the move does.
    #[error("move '{text}' {} a tuzdik mark, but the move {}", if *.written { "has" } else { "lacks" }, if *.written { "makes no tuzdik" } else { "makes a tuzdik" })]
    TuzdikMark {
        /// The move as written.
        text: String,
        /// Whether an `X` was written.
        written: bool,
    },
    /// The `(k)` annotation disagrees with the mover's kazan after the move.
    #[error("move '{text}' says the mover's kazan is {written} afterwards, but it is {actual}")]
    Kazan {
        /// The move as written.
        text: String,
        /// The kazan written.
        written: u32,
        /// The real kazan after the move.
        actual: u32,
    },
}

/// A move as written, before it is checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WrittenMove {
    Pass,
    Hole {
        from: u8,
        landing: Option<u8>,
        tuzdik: bool,
        kazan: Option<u32>,
    },
}

fn hole_digit(input: &str) -> nom::IResult<&str, u8> {
    map(satisfy(|c| ('1'..='9').contains(&c)), |c| c as u8 - b'0')(input)
}

fn kazan_annotation(input: &str) -> nom::IResult<&str, u32> {
    delimited(char('('), map_res(digit1, str::parse::<u32>), char(')'))(input)
}

fn parse_written(text: &str) -> Result<WrittenMove, MoveError> {
    let pass = value(WrittenMove::Pass, tag("0000"));
    let hole = map(
        tuple((
            hole_digit,
            opt(tuple((hole_digit, opt(one_of("Xx"))))),
            opt(kazan_annotation),
        )),
        |(from, landing, kazan)| WrittenMove::Hole {
            from,
            landing: landing.map(|(hole, _)| hole),
            tuzdik: matches!(landing, Some((_, Some(_)))),
            kazan,
        },
    );
    all_consuming(alt((pass, hole)))(text)
        .map(|(_, written)| written)
        .map_err(|_| MoveError::Syntax(text.to_string()))
}

impl Position {
    /// Parses a move in either notation and checks it against this position: legality, and
    /// for the long form the landing hole, the tuzdik mark and any `(k)` annotation.
    ///
    /// ```
    /// use tuzdik::{Move, MoveError, Position, Variant};
    /// let pos = Position::start(Variant::TOGYZ);
    /// assert_eq!(pos.parse_move("8").unwrap(), Move::hole(8));
    /// assert_eq!(pos.parse_move("87(10)").unwrap(), Move::hole(8));
    /// assert!(matches!(pos.parse_move("86"), Err(MoveError::Landing { written: 6, actual: 7, .. })));
    /// assert!(matches!(pos.parse_move("87(9)"), Err(MoveError::Kazan { written: 9, actual: 10, .. })));
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let written = parse_written(text)?;
        let mv = match written {
            WrittenMove::Pass => Move::PASS,
            WrittenMove::Hole { from, .. } => Move::hole(from),
        };
        let after = self.after(mv).map_err(|reason| MoveError::Illegal {
            text: text.to_string(),
            reason,
        })?;
        if let WrittenMove::Hole {
            landing,
            tuzdik,
            kazan,
            ..
        } = written
        {
            let effect = self.effect_of(mv);
            if let Some(landing) = landing {
                if landing != effect.landing_hole {
                    return Err(MoveError::Landing {
                        text: text.to_string(),
                        written: landing,
                        actual: effect.landing_hole,
                    });
                }
                if tuzdik != effect.made_tuzdik {
                    return Err(MoveError::TuzdikMark {
                        text: text.to_string(),
                        written: tuzdik,
                    });
                }
            }
            if let Some(kazan) = kazan {
                let actual = after.kazan(self.side_to_move());
                if kazan != actual {
                    return Err(MoveError::Kazan {
                        text: text.to_string(),
                        written: kazan,
                        actual,
                    });
                }
            }
        }
        Ok(mv)
    }

    /// What a legal move does, without changing `self`.
    pub fn effect_of(&self, mv: Move) -> Effect {
        let mut copy = *self;
        copy.play_unchecked(mv)
    }

    /// PlayOK long notation of a legal move: source hole, landing hole, `X` for a new tuzdik,
    /// and with `with_kazan` the mover's kazan afterwards in parentheses.
    ///
    /// ```
    /// use tuzdik::{Move, Position, Variant};
    /// let pos = Position::start(Variant::TOGYZ);
    /// assert_eq!(pos.long_notation(Move::hole(7), false), "76");
    /// assert_eq!(pos.long_notation(Move::hole(8), true), "87(10)");
    /// ```
    pub fn long_notation(&self, mv: Move, with_kazan: bool) -> String {
        let Some(from) = mv.source() else {
            return mv.to_string();
        };
        let mut after = *self;
        let effect = after.play_unchecked(mv);
        let mut text = format!("{from}{}", effect.landing_hole);
        if effect.made_tuzdik {
            text.push('X');
        }
        if with_kazan {
            text.push_str(&format!("({})", after.kazan(self.side_to_move())));
        }
        text
    }

    /// A move as game records write it: the long form, with the mover's kazan in parentheses
    /// after an even capture (PlayOK's `87(10)`).
    ///
    /// ```
    /// use tuzdik::{Move, Position, Variant};
    /// let pos = Position::start(Variant::TOGYZ);
    /// assert_eq!(pos.record_notation(Move::hole(1)), "19");
    /// assert_eq!(pos.record_notation(Move::hole(8)), "87(10)");
    /// ```
    pub fn record_notation(&self, mv: Move) -> String {
        let effect = self.effect_of(mv);
        self.long_notation(mv, effect.captured > 0 && !effect.made_tuzdik)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn long_forms_are_checked() {
        let pos = Position::start(Variant::TOGYZ);
        assert_eq!(pos.parse_move("76"), Ok(Move::hole(7)));
        assert_eq!(pos.parse_move("19"), Ok(Move::hole(1)));
        assert!(matches!(
            pos.parse_move("11"),
            Err(MoveError::Landing {
                written: 1,
                actual: 9,
                ..
            })
        ));
        assert!(matches!(
            pos.parse_move("76X"),
            Err(MoveError::TuzdikMark { written: true, .. })
        ));
        assert!(matches!(
            pos.parse_move("0000"),
            Err(MoveError::Illegal {
                reason: PlayError::Pass,
                ..
            })
        ));
    }
}
