//! Level files, whatever the family: one file per level, a header the family defines
//! ([`BoardFamily::header`]) and then one `i8` per index. Files are written through a
//! temporary file renamed into place, and read whole with every header field, the length and
//! the checksum checked. The layouts are in `bestemshchi/file.rs` and `toguz/file.rs`.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::TableError;
use super::family::BoardFamily;

/// FNV-1a over the bytes taken as little-endian 64-bit words (the tail zero-padded), with
/// the length mixed in last: cheap enough for 12 GB, and any change of a byte shows.
///
/// ```
/// use tuzdik::solve::file::checksum;
/// assert_ne!(checksum(&[0, 1]), checksum(&[1, 0]));
/// assert_ne!(checksum(&[]), checksum(&[0]));
/// ```
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

/// Writes level `k` of `family` to `dir` (made if missing) and returns its path.
pub fn save_level<F: BoardFamily>(
    family: F,
    dir: &Path,
    k: u32,
    values: &[u8],
) -> Result<PathBuf, TableError> {
    let path = family.level_path(dir, k);
    write_atomically(dir, &path, &family.header(k, values), values)?;
    Ok(path)
}

/// Writes `header` then `values` to `path` in `dir` (made if missing), through a temporary
/// file beside it renamed into place, so that a stopped build never leaves a half-written
/// file under the real name.
fn write_atomically(
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

/// Reads level `k` of `family` from `dir`, checking the header, the length and the checksum.
pub fn load_level<F: BoardFamily>(family: F, dir: &Path, k: u32) -> Result<Vec<u8>, TableError> {
    let path = family.level_path(dir, k);
    let bad = |why: String| TableError::BadFile {
        path: path.clone(),
        why,
    };
    // Checked before opening: opening a FIFO would wait for a writer for ever.
    let is_file = std::fs::metadata(&path)
        .map_err(|e| io_error(&path, e))?
        .is_file();
    if !is_file {
        return Err(bad("not a regular file".to_string()));
    }
    let file = File::open(&path).map_err(|e| io_error(&path, e))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut header = vec![0u8; F::HEADER_LEN];
    reader.read_exact(&mut header).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => bad(format!(
            "too short for a table file (the header alone is {} bytes)",
            F::HEADER_LEN
        )),
        _ => io_error(&path, e),
    })?;
    let entries = family.check_header(&header, k).map_err(bad)?;
    let mut values = vec![0u8; entries as usize];
    reader.read_exact(&mut values).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => bad(format!(
            "truncated: fewer than the {entries} entries of level {k}"
        )),
        _ => io_error(&path, e),
    })?;
    let mut rest = [0u8; 1];
    if reader.read(&mut rest).map_err(|e| io_error(&path, e))? != 0 {
        return Err(bad("trailing bytes after the entries".to_string()));
    }
    if !family.checksum_matches(&header, &values) {
        return Err(bad("checksum mismatch: the file is damaged".to_string()));
    }
    Ok(values)
}
