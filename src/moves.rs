//! Moves and their short form: the source hole (`1..N`), or `0000` for a pass. Notation that
//! needs a board (PlayOK's long form, checking a move against a position) is in
//! [`position::notation`](crate::position::notation).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The bit of [`Position::legal_mask`](crate::Position::legal_mask) that stands for the pass
/// (`0000`): one past the longest row's holes.
pub const PASS_BIT: u16 = 1 << 15;

/// [`PASS_BIT`]'s index.
const PASS_INDEX: u32 = PASS_BIT.trailing_zeros();

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

    /// The move for bit `bit` of [`Position::legal_mask`](crate::Position::legal_mask): hole
    /// `bit + 1`, or the pass for [`PASS_BIT`]'s bit.
    #[inline(always)]
    pub const fn from_mask_bit(bit: u32) -> Move {
        if bit >= PASS_INDEX {
            Move::PASS
        } else {
            Move(bit as u8 + 1)
        }
    }

    /// The bit of [`Position::legal_mask`](crate::Position::legal_mask) that stands for this
    /// move.
    #[inline(always)]
    pub const fn mask_bit(self) -> u32 {
        match self.0 {
            0 => PASS_INDEX,
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

/// Why a short-form move string was refused (a long form needs a position: see
/// [`Position::parse_move`](crate::Position::parse_move)).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a short move (expected a hole number 1..9, or 0000 for a pass)")]
pub struct MoveSyntaxError(pub String);

impl FromStr for Move {
    type Err = MoveSyntaxError;

    /// Parses the short form (`1`..`9`) or `0000`. Long forms need a position: see
    /// [`Position::parse_move`](crate::Position::parse_move).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.as_bytes() {
            b"0000" => Ok(Move::PASS),
            &[digit @ b'1'..=b'9'] => Ok(Move::hole(digit - b'0')),
            _ => Err(MoveSyntaxError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_parse_and_bad_ones_fail() {
        assert_eq!("1".parse::<Move>(), Ok(Move::hole(1)));
        assert_eq!("9".parse::<Move>(), Ok(Move::hole(9)));
        assert_eq!("0000".parse::<Move>(), Ok(Move::PASS));
        for bad in [
            "", "0", "10", "a", " 1", "1 ", "76", "7(3)", "000", "00000", "١",
        ] {
            assert_eq!(bad.parse::<Move>(), Err(MoveSyntaxError(bad.to_string())));
        }
    }

    #[test]
    fn mask_bits_round_trip() {
        for hole in 1..=9 {
            let mv = Move::hole(hole);
            assert_eq!(Move::from_mask_bit(mv.mask_bit()), mv);
        }
        assert_eq!(1u16 << Move::PASS.mask_bit(), PASS_BIT);
        assert_eq!(Move::from_mask_bit(Move::PASS.mask_bit()), Move::PASS);
    }
}
