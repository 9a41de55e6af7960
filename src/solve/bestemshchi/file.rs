//! Table files: one per level, `bestemshchi-k<kk>.bin`, a 32-byte header and the entries.
//!
//! | bytes  | content                                                           |
//! |--------|-------------------------------------------------------------------|
//! | 0..8   | magic `TZBEST01`                                                  |
//! | 8..12  | stones on the board `k` (u32, little-endian)                      |
//! | 12..16 | holes, 10 (u32, little-endian)                                    |
//! | 16..24 | entries, `C(k + 9, 9)` (u64, little-endian)                        |
//! | 24..32 | checksum of the entries (u64, little-endian, see [`checksum`])    |
//! | 32..   | one `i8` per rank: the mover's best future margin                 |

use std::path::{Path, PathBuf};

use super::Bestemshchi;
use super::board::HOLES;
use super::index::level_size;
use crate::solve::TableError;
use crate::solve::file::checksum;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TZBEST01";
/// Header bytes before the entries.
pub const HEADER_LEN: usize = 32;

/// The file of level `k` in `dir`.
pub fn level_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("bestemshchi-k{k:02}.bin"))
}

/// The header of level `k`'s file holding `values`.
pub fn header(k: u32, values: &[u8]) -> Vec<u8> {
    let mut header = vec![0u8; HEADER_LEN];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&k.to_le_bytes());
    header[12..16].copy_from_slice(&(HOLES as u32).to_le_bytes());
    header[16..24].copy_from_slice(&(values.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&checksum(values).to_le_bytes());
    header
}

/// A little-endian field of the header, widened to 64 bits.
fn field(header: &[u8], range: std::ops::Range<usize>) -> u64 {
    let mut bytes = [0u8; 8];
    bytes[..range.len()].copy_from_slice(&header[range]);
    u64::from_le_bytes(bytes)
}

/// Checks the header of a file read as level `k`: the entries that follow, or what is wrong.
pub fn check_header(header: &[u8], k: u32) -> Result<u64, String> {
    if &header[..8] != MAGIC {
        return Err("not a Bestemshchi table (bad magic)".to_string());
    }
    let (stones, holes, entries) = (
        field(header, 8..12),
        field(header, 12..16),
        field(header, 16..24),
    );
    if stones != u64::from(k) || holes != HOLES as u64 {
        return Err(format!(
            "header says {stones} stones on {holes} holes, expected {k} on {HOLES}"
        ));
    }
    if entries != level_size(k) {
        return Err(format!(
            "header says {entries} entries, level {k} has {}",
            level_size(k)
        ));
    }
    Ok(entries)
}

/// Whether the header's checksum is the entries'.
pub fn checksum_matches(header: &[u8], values: &[u8]) -> bool {
    field(header, 24..32) == checksum(values)
}

/// Writes level `k` to `dir` (through a temporary file renamed into place).
pub fn save_level(dir: &Path, k: u32, values: &[u8]) -> Result<PathBuf, TableError> {
    crate::solve::file::save_level(Bestemshchi, dir, k, values)
}

/// Reads level `k` from `dir`, checking the header and the checksum.
pub fn load_level(dir: &Path, k: u32) -> Result<Vec<u8>, TableError> {
    crate::solve::file::load_level(Bestemshchi, dir, k)
}
