//! Table files: one per level, `<variant>-<kk>.tzt` (`togyz-09.tzt`), a 64-byte header and the
//! entries. The names differ from the Bestemshchi files (`bestemshchi-k<kk>.bin`), so both
//! kinds can share a directory.
//!
//! | bytes  | content                                                                |
//! |--------|------------------------------------------------------------------------|
//! | 0..8   | magic `TZTOGUZ\0`                                                      |
//! | 8..12  | format version, 1 (u32, little-endian)                                 |
//! | 12..28 | variant name, ASCII, zero-padded (`togyz`, `kozdatu-tuzdik`, ..)        |
//! | 28     | holes in a row `N`                                                     |
//! | 29     | tuzdiks on (1) or off (0)                                              |
//! | 30..32 | zero                                                                   |
//! | 32..36 | stones on the board `k` (u32, little-endian)                           |
//! | 36..40 | tuzdik states (u32, little-endian)                                     |
//! | 40..48 | entries (u64, little-endian)                                           |
//! | 48..56 | checksum of bytes 0..48 and of the entries (u64, see [`checksum`])     |
//! | 56..64 | zero                                                                   |
//! | 64..   | one `i8` per index: the mover's best future margin                     |

use std::path::{Path, PathBuf};

use super::board::Geometry;
use super::index::{level_size, states};
use crate::solve::TableError;
use crate::solve::file::io_error;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TZTOGUZ\0";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Header bytes before the entries.
pub const HEADER_LEN: usize = 64;

/// The file of level `k` of rules `g` in `dir`.
pub fn level_path(dir: &Path, g: Geometry, k: u32) -> PathBuf {
    dir.join(format!("{}-{k:02}.tzt", g.name()))
}

/// The checksum of a file: the project's FNV-1a word hash of the header's first 48 bytes
/// and of the entries, combined so that a change in either shows.
pub fn checksum(header: &[u8], entries: &[u8]) -> u64 {
    let head = crate::solve::file::checksum(&header[..48]);
    let body = crate::solve::file::checksum(entries);
    (head.rotate_left(17) ^ body).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The header of level `k` with `entries` entries, its checksum field zero.
fn bare_header(g: Geometry, k: u32, entries: u64) -> Vec<u8> {
    let mut header = vec![0u8; HEADER_LEN];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    let name = g.name();
    let name = name.as_bytes();
    header[12..12 + name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
    header[28] = g.n as u8;
    header[29] = u8::from(g.tuzdik);
    header[32..36].copy_from_slice(&k.to_le_bytes());
    header[36..40].copy_from_slice(&(states(g) as u32).to_le_bytes());
    header[40..48].copy_from_slice(&entries.to_le_bytes());
    header
}

/// The header of level `k`'s file holding `values`.
pub fn header(g: Geometry, k: u32, values: &[u8]) -> Vec<u8> {
    let mut header = bare_header(g, k, values.len() as u64);
    let sum = checksum(&header, values);
    header[48..56].copy_from_slice(&sum.to_le_bytes());
    header
}

/// Checks the header of a file read as level `k` of rules `g`: the entries that follow, or
/// what is wrong.
pub fn check_header(g: Geometry, found: &[u8], k: u32) -> Result<u64, String> {
    if &found[..8] != MAGIC {
        return Err("not a Toguz table file (bad magic)".to_string());
    }
    let version = u32::from_le_bytes([found[8], found[9], found[10], found[11]]);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this program reads version {VERSION}"
        ));
    }
    let size = level_size(g, k);
    let mut expected = bare_header(g, k, size);
    expected[48..56].copy_from_slice(&found[48..56]);
    if found != expected {
        let name: String = found[12..28]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| if b.is_ascii_graphic() { b as char } else { '?' })
            .collect();
        let stones = u32::from_le_bytes([found[32], found[33], found[34], found[35]]);
        return Err(format!(
            "header says variant '{name}' ({} holes a row, tuzdik {}) with {stones} stones, \
             expected '{}' ({} holes, tuzdik {}) with {k} stones and {size} entries",
            found[28],
            if found[29] == 1 { "on" } else { "off" },
            g.name(),
            g.n,
            if g.tuzdik { "on" } else { "off" },
        ));
    }
    Ok(size)
}

/// Whether the header's checksum is the one of its first 48 bytes and the entries.
pub fn checksum_matches(header: &[u8], values: &[u8]) -> bool {
    let sum = u64::from_le_bytes(header[48..56].try_into().unwrap_or([0; 8]));
    checksum(header, values) == sum
}

/// Writes level `k` to `dir` (through a temporary file renamed into place, so a stopped
/// build never leaves a half-written level under the real name).
pub fn save_level(dir: &Path, g: Geometry, k: u32, values: &[u8]) -> Result<PathBuf, TableError> {
    crate::solve::file::save_level(g, dir, k, values)
}

/// Reads level `k` of rules `g` from `dir`, checking every header field and the checksum.
pub fn load_level(dir: &Path, g: Geometry, k: u32) -> Result<Vec<u8>, TableError> {
    crate::solve::file::load_level(g, dir, k)
}

/// The levels of rules `g` that have a file in `dir`, lowest first.
pub fn levels_present(dir: &Path, g: Geometry) -> Result<Vec<u32>, TableError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(dir, e)),
    };
    let prefix = format!("{}-", g.name());
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(k) = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tzt"))
            .filter(|digits| digits.len() == 2 && digits.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|digits| digits.parse::<u32>().ok())
        else {
            continue;
        };
        found.push(k);
    }
    found.sort_unstable();
    Ok(found)
}
