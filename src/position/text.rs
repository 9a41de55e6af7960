//! Position strings (PROTOCOL-CONTRACT.md):
//! `<South holes 1..N>/<North holes 1..N> <South kazan> <North kazan> <w|b> [fullmove]`.
//!
//! Parsing goes field by field so that every rejection names the field and the reason.

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, map, map_res};
use thiserror::Error;

use super::{NO_TUZDIK, Position, Side, zobrist::MAX_RING};
use crate::variant::Variant;

/// Why a position string or a set of position parts was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The string does not have the four or five fields of a position string.
    #[error(
        "expected '<South holes>/<North holes> <South kazan> <North kazan> <w|b> [fullmove]', found {found} field(s)"
    )]
    FieldCount {
        /// How many whitespace-separated fields there were.
        found: usize,
    },
    /// The board field has no `/` between the rows, or more than one.
    #[error("board '{0}': expected two rows separated by one '/'")]
    Rows(String),
    /// A row has the wrong number of holes for the variant.
    #[error("{side} row: {found} holes, but {variant} has {expected}")]
    HoleCount {
        /// The row.
        side: Side,
        /// Holes found.
        found: usize,
        /// Holes the variant has.
        expected: usize,
        /// The variant.
        variant: Variant,
    },
    /// A hole is neither a number of stones nor `X`.
    #[error("{side} hole {hole}: '{text}' is not a number of stones or X")]
    Hole {
        /// The row.
        side: Side,
        /// The hole number (1-based).
        hole: usize,
        /// The text found.
        text: String,
    },
    /// A kazan is not a number.
    #[error("{side} kazan: '{text}' is not a number of stones")]
    Kazan {
        /// Whose kazan.
        side: Side,
        /// The text found.
        text: String,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move: '{0}' is not w (South) or b (North)")]
    SideToMove(String),
    /// The fullmove number is not a positive number.
    #[error("fullmove number: '{0}' is not a number from 1 up")]
    Fullmove(String),
    /// The stones do not add up to the variant's total.
    #[error("stones: holes and kazans hold {found}, but {variant} has {expected}")]
    Total {
        /// Stones found.
        found: u64,
        /// Stones the variant has.
        expected: u32,
        /// The variant.
        variant: Variant,
    },
    /// A tuzdik where the rules have none.
    #[error("tuzdik on {side} hole {hole}: {variant} is played without tuzdiks")]
    TuzdikNotAllowed {
        /// The row it sits on.
        side: Side,
        /// Its hole.
        hole: usize,
        /// The variant.
        variant: Variant,
    },
    /// Two tuzdiks on one row would mean two for one player.
    #[error("{side} row has two tuzdiks, but {} may own only one", .side.opponent())]
    TwoTuzdiks {
        /// The row with two marks.
        side: Side,
    },
    /// A tuzdik on a row's last hole, which the rules forbid.
    #[error("tuzdik on {side} hole {hole}: a tuzdik is never made on the last hole")]
    TuzdikOnLastHole {
        /// The row.
        side: Side,
        /// The hole (N).
        hole: usize,
    },
    /// Both tuzdiks on the same hole number, which the rules forbid.
    #[error("tuzdiks on both rows' hole {hole}: the second one could never have been made")]
    SymmetricTuzdiks {
        /// The shared hole number.
        hole: usize,
    },
    /// A tuzdik hole given with stones in [`Position::from_parts`].
    #[error("tuzdik on {side} hole {hole} holds {stones} stones (a tuzdik is always empty)")]
    TuzdikNotEmpty {
        /// The row.
        side: Side,
        /// The hole.
        hole: usize,
        /// Stones given.
        stones: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Stones(u32),
    Tuzdik,
}

fn count(input: &str) -> nom::IResult<&str, u32> {
    map_res(digit1, str::parse::<u32>)(input)
}

fn cell(input: &str) -> nom::IResult<&str, Cell> {
    alt((map(count, Cell::Stones), map(char('X'), |_| Cell::Tuzdik)))(input)
}

fn parse_whole<'a, T>(
    parser: impl FnMut(&'a str) -> nom::IResult<&'a str, T>,
    text: &'a str,
) -> Option<T> {
    all_consuming(parser)(text).ok().map(|(_, value)| value)
}

fn parse_row(side: Side, text: &str) -> Result<Vec<Cell>, PositionError> {
    text.split(',')
        .enumerate()
        .map(|(index, item)| {
            parse_whole(cell, item).ok_or_else(|| PositionError::Hole {
                side,
                hole: index + 1,
                text: item.to_string(),
            })
        })
        .collect()
}

/// Parses a position string for `variant`, returning the position and its fullmove number
/// (1 when the field is absent).
///
/// ```
/// use tuzdik::{Variant, position::text::parse};
/// let (pos, fullmove) = parse("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 7", Variant::TOGYZ).unwrap();
/// assert_eq!(fullmove, 7);
/// assert_eq!(pos.legal_moves().len(), 9);
/// ```
pub fn parse(text: &str, variant: Variant) -> Result<(Position, u32), PositionError> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if !(4..=5).contains(&fields.len()) {
        return Err(PositionError::FieldCount {
            found: fields.len(),
        });
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 2 {
        return Err(PositionError::Rows(fields[0].to_string()));
    }
    let cells = [
        parse_row(Side::South, rows[0])?,
        parse_row(Side::North, rows[1])?,
    ];
    let mut kazans = [0u32; 2];
    for side in Side::BOTH {
        let text = fields[1 + side.index()];
        kazans[side.index()] = parse_whole(count, text).ok_or_else(|| PositionError::Kazan {
            side,
            text: text.to_string(),
        })?;
    }
    let side = match fields[3] {
        "w" => Side::South,
        "b" => Side::North,
        other => return Err(PositionError::SideToMove(other.to_string())),
    };
    let fullmove = match fields.get(4) {
        None => 1,
        Some(text) => parse_whole(count, text)
            .filter(|&n| n >= 1)
            .ok_or_else(|| PositionError::Fullmove(text.to_string()))?,
    };

    let n = variant.holes_per_side();
    let mut stones: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut tuzdiks = [None, None];
    for row_side in Side::BOTH {
        let row = &cells[row_side.index()];
        if row.len() != n {
            return Err(PositionError::HoleCount {
                side: row_side,
                found: row.len(),
                expected: n,
                variant,
            });
        }
        for (index, cell) in row.iter().enumerate() {
            match *cell {
                Cell::Stones(count) => stones[row_side.index()].push(count),
                Cell::Tuzdik => {
                    let owner = row_side.opponent().index();
                    if tuzdiks[owner].is_some() {
                        return Err(PositionError::TwoTuzdiks { side: row_side });
                    }
                    tuzdiks[owner] = Some(index as u8 + 1);
                    stones[row_side.index()].push(0);
                }
            }
        }
    }
    let pos = build(variant, &stones, kazans, tuzdiks, side)?;
    Ok((pos, fullmove))
}

/// Checks parts given by hole counts (u8, as [`Position::from_parts`] takes them).
pub(super) fn validate(
    variant: Variant,
    rows: &[Vec<u8>; 2],
    kazans: [u32; 2],
    tuzdiks: [Option<u8>; 2],
    side: Side,
) -> Result<Position, PositionError> {
    let n = variant.holes_per_side();
    for row_side in Side::BOTH {
        let found = rows[row_side.index()].len();
        if found != n {
            return Err(PositionError::HoleCount {
                side: row_side,
                found,
                expected: n,
                variant,
            });
        }
    }
    let wide = [
        rows[0].iter().map(|&c| u32::from(c)).collect::<Vec<_>>(),
        rows[1].iter().map(|&c| u32::from(c)).collect::<Vec<_>>(),
    ];
    for owner in Side::BOTH {
        if let Some(hole) = tuzdiks[owner.index()] {
            let row_side = owner.opponent();
            let hole = hole as usize;
            if hole == 0 || hole > n {
                return Err(PositionError::Hole {
                    side: row_side,
                    hole,
                    text: "X".to_string(),
                });
            }
            let stones = wide[row_side.index()][hole - 1];
            if stones != 0 {
                return Err(PositionError::TuzdikNotEmpty {
                    side: row_side,
                    hole,
                    stones,
                });
            }
        }
    }
    build(variant, &wide, kazans, tuzdiks, side)
}

fn build(
    variant: Variant,
    stones: &[Vec<u32>; 2],
    kazans: [u32; 2],
    tuzdiks: [Option<u8>; 2],
    side: Side,
) -> Result<Position, PositionError> {
    let n = variant.holes_per_side();
    for owner in Side::BOTH {
        let Some(hole) = tuzdiks[owner.index()] else {
            continue;
        };
        let row_side = owner.opponent();
        let hole = hole as usize;
        if !variant.tuzdik() {
            return Err(PositionError::TuzdikNotAllowed {
                side: row_side,
                hole,
                variant,
            });
        }
        if hole == n {
            return Err(PositionError::TuzdikOnLastHole {
                side: row_side,
                hole,
            });
        }
    }
    if let [Some(a), Some(b)] = tuzdiks
        && a == b
    {
        return Err(PositionError::SymmetricTuzdiks { hole: a as usize });
    }
    let found: u64 = stones.iter().flatten().map(|&c| u64::from(c)).sum::<u64>()
        + kazans.iter().map(|&k| u64::from(k)).sum::<u64>();
    if found != u64::from(variant.total_stones()) {
        return Err(PositionError::Total {
            found,
            expected: variant.total_stones(),
            variant,
        });
    }
    // Every count is now at most the total (162), so it fits a byte.
    let mut holes = [0u8; MAX_RING];
    for (slot, &count) in holes.iter_mut().zip(stones[0].iter().chain(&stones[1])) {
        *slot = count as u8;
    }
    let mut squares = [NO_TUZDIK; 2];
    for owner in Side::BOTH {
        if let Some(hole) = tuzdiks[owner.index()] {
            squares[owner.index()] = (owner.opponent().index() * n) as u8 + hole - 1;
        }
    }
    Ok(Position::assemble(
        variant,
        holes,
        [kazans[0] as u8, kazans[1] as u8],
        squares,
        side,
    ))
}

impl Position {
    /// Parses a position string for a variant (the fullmove number, if any, is checked and
    /// dropped; use [`parse`] to keep it).
    ///
    /// ```
    /// use tuzdik::{Family, Position, Variant};
    /// let kozdatu = Variant::new(Family::Kozdatu);
    /// let pos = Position::parse_with("7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w", kozdatu).unwrap();
    /// assert_eq!(pos, Position::start(kozdatu));
    /// let err = Position::parse_with("7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w", kozdatu).unwrap_err();
    /// assert_eq!(err.to_string(), "South row: 6 holes, but kozdatu has 7");
    /// ```
    pub fn parse_with(text: &str, variant: Variant) -> Result<Position, PositionError> {
        parse(text, variant).map(|(pos, _)| pos)
    }

    /// The position string with a fullmove number.
    pub fn to_fen(&self, fullmove: u32) -> String {
        format!("{self} {fullmove}")
    }
}

/// Parses a Toguz Kumalak position string; other variants need
/// [`Position::parse_with`].
impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::parse_with(s, Variant::TOGYZ)
    }
}

/// The position string without the fullmove number.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in Side::BOTH {
            if side == Side::North {
                f.write_str("/")?;
            }
            for (index, &count) in self.row(side).iter().enumerate() {
                if index > 0 {
                    f.write_str(",")?;
                }
                if self.is_tuzdik(side, index + 1) {
                    f.write_str("X")?;
                } else {
                    write!(f, "{count}")?;
                }
            }
        }
        write!(
            f,
            " {} {} {}",
            self.kazan(Side::South),
            self.kazan(Side::North),
            self.side_to_move().letter()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;

    const START: &str = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1";

    fn err(text: &str) -> PositionError {
        parse(text, Variant::TOGYZ).unwrap_err()
    }

    #[test]
    fn start_round_trips() {
        let (pos, fullmove) = parse(START, Variant::TOGYZ).unwrap();
        assert_eq!(pos, Position::start(Variant::TOGYZ));
        assert_eq!(pos.to_fen(fullmove), START);
    }

    #[test]
    fn tuzdiks_round_trip() {
        let text = "9,9,X,9,9,9,9,9,9/9,9,9,9,X,9,9,9,9 9 9 b";
        let pos: Position = text.parse().unwrap();
        assert_eq!(pos.tuzdik(Side::North), Some(3));
        assert_eq!(pos.tuzdik(Side::South), Some(5));
        assert_eq!(pos.to_string(), text);
    }

    #[test]
    fn every_listed_impossibility_is_refused() {
        assert_eq!(err(""), PositionError::FieldCount { found: 0 });
        assert_eq!(err("a b c d e f"), PositionError::FieldCount { found: 6 });
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9 0 0 w 1"),
            PositionError::Rows(_)
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 w"),
            PositionError::HoleCount {
                side: Side::South,
                found: 8,
                expected: 9,
                ..
            }
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,-9,9,9,9,9,9 0 0 w"),
            PositionError::Hole {
                side: Side::North,
                hole: 4,
                ..
            }
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 1 w"),
            PositionError::Total { found: 163, .. }
        ));
        assert!(matches!(
            err("X,X,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"),
            PositionError::TwoTuzdiks { side: Side::South }
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,X/9,9,9,9,9,9,9,9,9 0 9 w"),
            PositionError::TuzdikOnLastHole {
                side: Side::South,
                hole: 9
            }
        ));
        assert!(matches!(
            err("9,9,X,9,9,9,9,9,9/9,9,X,9,9,9,9,9,9 9 9 w"),
            PositionError::SymmetricTuzdiks { hole: 3 }
        ));
        assert!(matches!(
            parse(
                "7,X,7,7,7,7,7/7,7,7,7,7,7,7 7 0 w",
                Variant::new(Family::Kozdatu)
            ),
            Err(PositionError::TuzdikNotAllowed { .. })
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 s"),
            PositionError::SideToMove(_)
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 0"),
            PositionError::Fullmove(_)
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 99999999999999 w"),
            PositionError::Kazan {
                side: Side::North,
                ..
            }
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/9 0 0 w"),
            PositionError::Rows(_)
        ));
    }

    #[test]
    fn tuzdik_switch_allows_it_in_small_variants() {
        let variant = Variant::new(Family::Kozdatu).with_tuzdik(true);
        let pos = Position::parse_with("7,X,7,7,7,7,7/7,7,7,7,7,7,7 7 0 w", variant).unwrap();
        assert_eq!(pos.tuzdik(Side::North), Some(2));
        assert!(matches!(
            Position::parse_with("7,7,7,7,7,7,X/7,7,7,7,7,7,7 7 0 w", variant),
            Err(PositionError::TuzdikOnLastHole { hole: 7, .. })
        ));
    }

    #[test]
    fn a_finished_position_is_accepted_and_written_back_the_same() {
        // South's kazan is over the line: the game is over, yet the string is a valid one.
        let text = "0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0 82 78 w";
        let pos: Position = text.parse().unwrap();
        assert_eq!(pos.status(), crate::Status::Won(crate::Side::South));
        assert_eq!(pos.to_fen(1), format!("{text} 1"));
    }
}
