//! Training data: fixed-size 32-byte little-endian records, one per position, with no file
//! header, so that files can be appended to, concatenated and counted by their length.
//!
//! | bytes  | field                                                                   |
//! |--------|-------------------------------------------------------------------------|
//! | 0..18  | stones in the holes: South's holes 1..9, then North's 1..9 (tuzdik: 0)   |
//! | 18..20 | kazans: South, North                                                    |
//! | 20..22 | tuzdik hole (1..9 on the opponent's row, 0: none) made by South, North  |
//! | 22     | side to move: 0 South, 1 North                                          |
//! | 23     | game result for the side to move: 1 win, 0 draw, -1 loss (i8)           |
//! | 24..26 | search score for the side to move, 1/100 stone (i16; -32768: none)      |
//! | 26..28 | final kazan margin for the side to move, stones (i16)                   |
//! | 28..32 | game number (u32): records of one game share it, for the split by game  |
//!
//! ```
//! use tuzdik::nnue::data::Record;
//! use tuzdik::{Position, Variant};
//! let record = Record { position: Position::start(Variant::TOGYZ), result: 1, score: Some(35), margin: 8, game: 4 };
//! assert_eq!(Record::from_bytes(&record.to_bytes()).unwrap(), record);
//! ```

use std::io::Read;
use std::path::Path;

use crate::position::{Position, Side};
use crate::variant::Variant;

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;
/// The score field of a record without a search score (games converted from PGN).
pub const NO_SCORE: i16 = i16::MIN;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (Toguz Kumalak).
    pub position: Position,
    /// The game's result for the side to move: 1, 0 or -1.
    pub result: i8,
    /// The search score for the side to move (1/100 stone), if searched.
    pub score: Option<i16>,
    /// The final kazan margin for the side to move.
    pub margin: i16,
    /// The game the position comes from.
    pub game: u32,
}

impl Record {
    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0u8; RECORD_BYTES];
        let pos = &self.position;
        bytes[..18].copy_from_slice(pos.ring());
        bytes[18] = pos.kazan(Side::South) as u8;
        bytes[19] = pos.kazan(Side::North) as u8;
        bytes[20] = pos.tuzdik(Side::South).unwrap_or(0);
        bytes[21] = pos.tuzdik(Side::North).unwrap_or(0);
        bytes[22] = pos.side_to_move().index() as u8;
        bytes[23] = self.result as u8;
        bytes[24..26].copy_from_slice(&self.score.unwrap_or(NO_SCORE).to_le_bytes());
        bytes[26..28].copy_from_slice(&self.margin.to_le_bytes());
        bytes[28..32].copy_from_slice(&self.game.to_le_bytes());
        bytes
    }

    /// Reads a record, checking that it is a legal Toguz Kumalak position and a result.
    pub fn from_bytes(bytes: &[u8]) -> Result<Record, String> {
        if bytes.len() != RECORD_BYTES {
            return Err(format!(
                "a record has {RECORD_BYTES} bytes, not {}",
                bytes.len()
            ));
        }
        let side = match bytes[22] {
            0 => Side::South,
            1 => Side::North,
            other => return Err(format!("side to move byte is {other}, not 0 or 1")),
        };
        let tuzdik = |b: u8| (b != 0).then_some(b);
        let rows = [bytes[..9].to_vec(), bytes[9..18].to_vec()];
        let position = Position::from_parts(
            Variant::TOGYZ,
            &rows,
            [u32::from(bytes[18]), u32::from(bytes[19])],
            [tuzdik(bytes[20]), tuzdik(bytes[21])],
            side,
        )
        .map_err(|e| format!("not a valid position: {e}"))?;
        let result = bytes[23] as i8;
        if !(-1..=1).contains(&result) {
            return Err(format!("result byte is {result}, not -1, 0 or 1"));
        }
        let score = i16::from_le_bytes([bytes[24], bytes[25]]);
        Ok(Record {
            position,
            result,
            score: (score != NO_SCORE).then_some(score),
            margin: i16::from_le_bytes([bytes[26], bytes[27]]),
            game: u32::from_le_bytes([bytes[28], bytes[29], bytes[30], bytes[31]]),
        })
    }
}

/// Reads every record of a file; an error names the file and the record.
pub fn read_file(path: &Path) -> Result<Vec<Record>, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(format!(
            "{}: {} bytes is not a whole number of {RECORD_BYTES}-byte records (a damaged or foreign file)",
            path.display(),
            bytes.len()
        ));
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(index, chunk)| {
            Record::from_bytes(chunk)
                .map_err(|e| format!("{}: record {}: {e}", path.display(), index + 1))
        })
        .collect()
}
