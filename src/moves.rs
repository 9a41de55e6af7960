//! Moves and their two notations: the short form (the source hole, `1..N`) and PlayOK's long
//! form (`<from><landing>[X]`, optionally followed by `(k)`, the mover's kazan afterwards).

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{all_consuming, map, map_res, opt, value};
use nom::sequence::{delimited, tuple};
use thiserror::Error;

use crate::position::{PlayError, Position};

/// A move: the source hole (1-based, in the mover's numbering) or a pass.
///
/// ```
/// use tuzdik::Move;
/// let mv: Move = "7".parse().unwrap();
/// assert_eq!(mv, Move::hole(7));
/// assert_eq!(mv.to_string(), "7");
/// assert_eq!(Move::PASS.to_string(), "0000");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The pass, `0000` (Mangala IV only; never legal in the Toguz family).
    pub const PASS: Move = Move(0);

    /// The move from hole `hole` (1-based). Whether the hole exists is checked on play.
    pub const fn hole(hole: u8) -> Move {
        Move(hole)
    }

    /// The move for bit `bit` of [`Position::legal_mask`]: hole `bit + 1`, or the pass for
    /// [`PASS_BIT`](crate::position::PASS_BIT)'s bit.
    #[inline(always)]
    pub const fn from_mask_bit(bit: u32) -> Move {
        if bit >= 15 {
            Move::PASS
        } else {
            Move(bit as u8 + 1)
        }
    }

    /// The bit of [`Position::legal_mask`] that stands for this move.
    #[inline(always)]
    pub const fn mask_bit(self) -> u32 {
        match self.0 {
            0 => 15,
            hole => hole as u32 - 1,
        }
    }

    /// The source hole, or `None` for a pass.
    pub const fn source(self) -> Option<u8> {
        if self.0 == 0 { None } else { Some(self.0) }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source() {
            Some(hole) => write!(f, "{hole}"),
            None => f.write_str("0000"),
        }
    }
}

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

impl FromStr for Move {
    type Err = MoveError;

    /// Parses the short form (`1`..`9`) or `0000`. Long forms need a position: see
    /// [`Position::parse_move`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match parse_written(s)? {
            WrittenMove::Pass => Ok(Move::PASS),
            WrittenMove::Hole {
                from,
                landing: None,
                kazan: None,
                ..
            } => Ok(Move::hole(from)),
            WrittenMove::Hole { .. } => Err(MoveError::Syntax(s.to_string())),
        }
    }
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
    pub fn effect_of(&self, mv: Move) -> crate::Effect {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn short_forms_parse_and_bad_ones_fail() {
        assert_eq!("1".parse::<Move>(), Ok(Move::hole(1)));
        assert_eq!("0000".parse::<Move>(), Ok(Move::PASS));
        for bad in [
            "", "0", "10", "a", " 1", "1 ", "76", "7(3)", "000", "00000", "١",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
        }
    }

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
