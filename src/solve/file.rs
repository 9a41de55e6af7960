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

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::TableError;
use super::board::HOLES;
use super::index::level_size;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TZBEST01";
/// Header bytes before the entries.
pub const HEADER_LEN: usize = 32;

/// The file of level `k` in `dir`.
pub fn level_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("bestemshchi-k{k:02}.bin"))
}

/// FNV-1a over the entries taken as little-endian 64-bit words (the tail zero-padded), with
/// the length mixed in last: cheap enough for 12 GB, and any change of a byte shows.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let value = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        hash = (hash ^ value).wrapping_mul(PRIME);
        hash ^= hash >> 29;
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    hash = (hash ^ u64::from_le_bytes(tail)).wrapping_mul(PRIME);
    (hash ^ bytes.len() as u64).wrapping_mul(PRIME)
}

pub(crate) fn io_error(path: &Path, error: std::io::Error) -> TableError {
    TableError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

/// Writes level `k` to `dir` (through a temporary file renamed into place).
pub fn save_level(dir: &Path, k: u32, values: &[u8]) -> Result<PathBuf, TableError> {
    let path = level_path(dir, k);
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&k.to_le_bytes());
    header[12..16].copy_from_slice(&(HOLES as u32).to_le_bytes());
    header[16..24].copy_from_slice(&(values.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&checksum(values).to_le_bytes());
    write_atomically(dir, &path, &header, values)?;
    Ok(path)
}

/// Writes `header` then `values` to `path` in `dir` (made if missing), through a temporary
/// file beside it renamed into place, so that a stopped build never leaves a half-written
/// file under the real name.
pub(crate) fn write_atomically(
    dir: &Path,
    path: &Path,
    header: &[u8],
    values: &[u8],
) -> Result<(), TableError> {
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let file = File::create(&temporary).map_err(|e| io_error(&temporary, e))?;
    let mut writer = BufWriter::with_capacity(1 << 20, file);
    writer
        .write_all(header)
        .and_then(|()| writer.write_all(values))
        .and_then(|()| writer.flush())
        .map_err(|e| io_error(&temporary, e))?;
    drop(writer);
    std::fs::rename(&temporary, path).map_err(|e| io_error(path, e))
}

/// Reads level `k` from `dir`, checking the header and the checksum.
pub fn load_level(dir: &Path, k: u32) -> Result<Vec<u8>, TableError> {
    let path = level_path(dir, k);
    let file = File::open(&path).map_err(|e| io_error(&path, e))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut header = [0u8; HEADER_LEN];
    reader
        .read_exact(&mut header)
        .map_err(|e| io_error(&path, e))?;
    let bad = |why: String| TableError::BadFile {
        path: path.clone(),
        why,
    };
    if &header[..8] != MAGIC {
        return Err(bad("not a Bestemshchi table (bad magic)".to_string()));
    }
    let word = |range: std::ops::Range<usize>| {
        let mut bytes = [0u8; 8];
        bytes[..range.len()].copy_from_slice(&header[range]);
        u64::from_le_bytes(bytes)
    };
    let (stones, holes, entries, sum) = (word(8..12), word(12..16), word(16..24), word(24..32));
    if stones != u64::from(k) || holes != HOLES as u64 {
        return Err(bad(format!(
            "header says {stones} stones on {holes} holes, expected {k} on {HOLES}"
        )));
    }
    if entries != level_size(k) {
        return Err(bad(format!(
            "header says {entries} entries, level {k} has {}",
            level_size(k)
        )));
    }
    let mut values = vec![0u8; entries as usize];
    reader
        .read_exact(&mut values)
        .map_err(|e| io_error(&path, e))?;
    let mut rest = [0u8; 1];
    if reader.read(&mut rest).map_err(|e| io_error(&path, e))? != 0 {
        return Err(bad("trailing bytes after the entries".to_string()));
    }
    if checksum(&values) != sum {
        return Err(bad("checksum mismatch".to_string()));
    }
    Ok(values)
}
