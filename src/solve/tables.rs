//! The tables the search probes: what `TablePath` loads.
//!
//! Every kind of table answers the same question, the best *future margin* for the side to
//! move (the stones it will still add to its kazan minus those the opponent will, with best
//! play, the game's history starting at the position), so the search needs one interface,
//! [`MarginTable`]. The Bestemshchi table is held on its own field because the search probes
//! it without dynamic dispatch; any other kind joins through [`Tables::others`].
//!
//! ```
//! use tuzdik::solve::{Tablebase, tables::Tables};
//! use tuzdik::{Family, Position, Variant};
//! let tables = Tables::with_bestemshchi(Tablebase::build_in_memory(4));
//! let pos = Position::parse_with("0,0,0,0,1/1,0,0,0,0 24 24 w", Variant::new(Family::Bestemshchi))
//!     .unwrap();
//! assert_eq!(tables.probe(&pos), Some(2));
//! assert_eq!(tables.final_margin(&pos), Some(2));
//! ```

use std::path::PathBuf;

use super::bestemshchi::board::is_table_variant;
use super::bestemshchi::file;
use super::bestemshchi::index::MAX_STONES;
use super::{TableError, Tablebase, toguz};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;

/// A table of best future margins, probed by the search.
pub trait MarginTable: Send + Sync + std::fmt::Debug {
    /// The best future margin for the side to move of `pos`, or `None` when the position is
    /// not covered (another variant, too many stones on the board).
    fn probe(&self, pos: &Position) -> Option<i32>;
    /// The most stones on the board a covered position can have.
    fn max_stones(&self) -> u32;
    /// A short description for `info string` lines, e.g. `bestemshchi 0..=36`.
    fn name(&self) -> String;
    /// Whether positions of `variant` can be covered at all. The search skips a table that
    /// says no for the whole search, so an implementation should answer it exactly when it
    /// can; the default (`true`) is always correct, only slower.
    fn covers(&self, _variant: Variant) -> bool {
        true
    }
}

impl MarginTable for Tablebase {
    fn probe(&self, pos: &Position) -> Option<i32> {
        Tablebase::probe(self, pos)
    }

    fn max_stones(&self) -> u32 {
        Tablebase::max_stones(self)
    }

    fn name(&self) -> String {
        format!(
            "bestemshchi levels 0..={} ({} bytes)",
            Tablebase::max_stones(self),
            self.levels().iter().map(|l| l.len() as u64).sum::<u64>()
        )
    }

    fn covers(&self, variant: Variant) -> bool {
        is_table_variant(variant)
    }
}

/// The loaded tables: at most one Bestemshchi table and any number of other kinds.
#[derive(Debug, Default)]
pub struct Tables {
    /// The Bestemshchi table, if one was found.
    pub bestemshchi: Option<Tablebase>,
    /// Tables of other kinds (each answering for its own variant).
    pub others: Vec<Box<dyn MarginTable>>,
}

impl Tables {
    /// Tables holding only `table`.
    pub fn with_bestemshchi(table: Tablebase) -> Tables {
        Tables {
            bestemshchi: Some(table),
            others: Vec::new(),
        }
    }

    /// Whether nothing is loaded.
    pub fn is_empty(&self) -> bool {
        self.bestemshchi.is_none() && self.others.is_empty()
    }

    /// Loads every table found in the directories of `paths`, separated by `;` (empty parts
    /// are skipped). A directory that does not exist, or any damaged file, is an error and
    /// nothing is returned: the caller keeps what it had.
    ///
    /// For each table kind, a level is taken from the first directory holding its file, so
    /// a table may be spread over several directories; levels are used from 0 up to the
    /// first one missing everywhere. Every file is read whole and its checksum checked (see
    /// docs/solve.md for the time this takes).
    pub fn load(paths: &str) -> Result<Tables, TableError> {
        let dirs: Vec<PathBuf> = paths
            .split(';')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(PathBuf::from)
            .collect();
        for dir in &dirs {
            if !dir.is_dir() {
                return Err(TableError::Io {
                    path: dir.clone(),
                    message: "not a directory".to_string(),
                });
            }
        }
        let mut tables = Tables {
            bestemshchi: load_bestemshchi(&dirs)?,
            others: Vec::new(),
        };
        // The Toguz-family tables (Toguz Kumalak, Kozdatu with and without tuzdik): each
        // directory may hold any of them; the first directory with a variant's files wins.
        for variant in toguz::TABLE_VARIANTS {
            for dir in &dirs {
                if let Some(table) = toguz::ToguzTable::load_variant(dir, variant)? {
                    tables.others.push(Box::new(table));
                    break;
                }
            }
        }
        tables.others.shrink_to_fit();
        Ok(tables)
    }

    /// One line per table, for `info string`.
    pub fn describe(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.bestemshchi.iter().map(MarginTable::name).collect();
        lines.extend(self.others.iter().map(|table| table.name()));
        lines
    }

    /// The largest number of stones on the board that some table covering `variant` covers:
    /// `None` when no table covers it (the search then never probes).
    pub fn max_stones_for(&self, variant: Variant) -> Option<u32> {
        let bestemshchi = self
            .bestemshchi
            .as_ref()
            .filter(|table| MarginTable::covers(*table, variant))
            .map(Tablebase::max_stones);
        let others = self
            .others
            .iter()
            .filter(|table| table.covers(variant))
            .map(|table| table.max_stones());
        bestemshchi.into_iter().chain(others).max()
    }

    /// The best future margin for the side to move, from the first table that covers `pos`.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        if let Some(value) = self.bestemshchi.as_ref().and_then(|t| t.probe(pos)) {
            return Some(value);
        }
        self.others.iter().find_map(|table| table.probe(pos))
    }

    /// The final margin of `pos` with best play: the kazans' difference for the side to move
    /// plus the table's future margin. Its sign is the result (rule 3a only ends a game
    /// sooner, never changes its winner: a kazan past half of the stones stays ahead).
    pub fn final_margin(&self, pos: &Position) -> Option<i32> {
        let mover = pos.side_to_move();
        let lead = pos.kazan(mover) as i32 - pos.kazan(mover.opponent()) as i32;
        Some(lead + self.probe(pos)?)
    }

    /// The table's value of each legal move of `pos` (lowest hole first): the stones it
    /// captures minus the child's future margin. `None` unless `pos` and every child are
    /// covered.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        self.probe(pos)?;
        let mover = pos.side_to_move();
        let mut values = Vec::new();
        for mv in pos.legal_moves().iter().copied() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let gained = child.kazan(mover) as i32 - pos.kazan(mover) as i32;
            let lost = child.kazan(mover.opponent()) as i32 - pos.kazan(mover.opponent()) as i32;
            values.push((mv, gained - lost - self.probe(&child)?));
        }
        Some(values)
    }
}

/// The Bestemshchi levels 0, 2, .. found in `dirs`, each from the first directory holding
/// its file, up to the first level missing everywhere.
fn load_bestemshchi(dirs: &[PathBuf]) -> Result<Option<Tablebase>, TableError> {
    let mut levels: Vec<Vec<u8>> = Vec::new();
    for k in 0..=MAX_STONES {
        if k % 2 == 1 {
            levels.push(Vec::new());
            continue;
        }
        let Some(dir) = dirs
            .iter()
            .find(|dir| file::level_path(dir, k).exists())
            .map(PathBuf::as_path)
        else {
            break;
        };
        levels.push(file::load_level(dir, k)?);
    }
    // A level count ending on an odd placeholder drops it: the table ends at an even level.
    while levels.len().is_multiple_of(2) && !levels.is_empty() {
        levels.pop();
    }
    if levels.is_empty() {
        return Ok(None);
    }
    Ok(Some(Tablebase::from_levels(levels)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Family;

    #[test]
    fn loading_finds_levels_across_directories_and_refuses_damage() {
        let root = std::env::temp_dir().join(format!("tuzdik-tables-{}", std::process::id()));
        let (low, high) = (root.join("low"), root.join("high"));
        let table = Tablebase::build_in_memory(8);
        for k in (0..=8).step_by(2) {
            let dir = if k <= 4 { &low } else { &high };
            file::save_level(dir, k, &table.levels()[k as usize]).unwrap();
        }
        let both = format!("{};{}", low.display(), high.display());
        let loaded = Tables::load(&both).unwrap();
        assert_eq!(
            loaded.bestemshchi.as_ref().unwrap().levels(),
            table.levels()
        );
        // Only the low part: levels 0..=4.
        let part = Tables::load(&low.display().to_string()).unwrap();
        assert_eq!(part.bestemshchi.unwrap().max_stones(), 4);
        // Only the high part: level 0 is missing, so nothing.
        assert!(
            Tables::load(&high.display().to_string())
                .unwrap()
                .is_empty()
        );
        assert!(Tables::load("").unwrap().is_empty());
        let missing = root.join("missing");
        assert!(matches!(
            Tables::load(&format!("{both};{}", missing.display())),
            Err(TableError::Io { .. })
        ));
        let path = file::level_path(&high, 6);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[file::HEADER_LEN + 7] ^= 4;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            Tables::load(&both),
            Err(TableError::BadFile { .. })
        ));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_table_name_that_is_not_a_regular_file_is_refused_at_once() {
        let dir = std::env::temp_dir().join(format!("tuzdik-tables-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("togyz-00.tzt"))
            .status();
        if !made.is_ok_and(|status| status.success()) {
            eprintln!("no mkfifo here: skipped");
            return;
        }
        // A FIFO would block its reader until a writer comes: the load must not open it.
        let (send, receive) = std::sync::mpsc::channel();
        let path = dir.display().to_string();
        std::thread::spawn(move || send.send(Tables::load(&path).map(|_| ())));
        let result = receive
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("loading a FIFO hung");
        match result {
            Err(TableError::BadFile { why, .. }) => assert!(why.contains("regular file"), "{why}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn coverage_and_values() {
        let tables = Tables::with_bestemshchi(Tablebase::build_in_memory(10));
        let variant = Variant::new(Family::Bestemshchi);
        assert_eq!(tables.max_stones_for(variant), Some(10));
        assert_eq!(tables.max_stones_for(Variant::TOGYZ), None);
        assert_eq!(tables.max_stones_for(variant.with_tuzdik(true)), None);
        let pos = Position::parse_with("1,0,2,0,1/0,3,0,1,0 20 22 b", variant).unwrap();
        let value = tables.probe(&pos).unwrap();
        let moves = tables.move_values(&pos).unwrap();
        assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(value));
        let direct = tables
            .bestemshchi
            .as_ref()
            .unwrap()
            .move_values(&pos)
            .unwrap();
        assert_eq!(moves, direct);
        assert_eq!(tables.final_margin(&pos), Some(22 - 20 + value));
        assert!(Tables::default().is_empty());
        assert_eq!(tables.describe().len(), 1);
    }
}
