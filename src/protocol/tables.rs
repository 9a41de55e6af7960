//! What is made off the input thread, and `isready` answered only once it is done: endgame
//! tables (`TablePath`) loaded, and the `Hash` table allocated.

use super::*;

/// The count of running table loads, with a condition to wait for none.
#[derive(Default)]
pub(super) struct PendingLoads {
    count: Mutex<usize>,
    none: std::sync::Condvar,
}

impl PendingLoads {
    pub(super) fn wait_for_none(&self) {
        let mut count = lock(&self.count);
        while *count > 0 {
            count = match self.none.wait(count) {
                Ok(count) => count,
                Err(poisoned) => poisoned.into_inner(),
            };
        }
    }
}

/// Counts a load as running while it lives (a panicking loader still ends its load).
pub(super) struct LoadRunning(Arc<PendingLoads>);

impl LoadRunning {
    pub(super) fn new(pending: &Arc<PendingLoads>) -> LoadRunning {
        *lock(&pending.count) += 1;
        LoadRunning(Arc::clone(pending))
    }
}

impl Drop for LoadRunning {
    fn drop(&mut self) {
        let mut count = lock(&self.0.count);
        *count = count.saturating_sub(1);
        self.0.none.notify_all();
    }
}

/// A table file name in one of `paths`' directories that is not a regular file (a FIFO would
/// block the loader for ever; a device could be read without end).
pub(super) fn special_table_file(paths: &str) -> Option<std::path::PathBuf> {
    for dir in paths
        .split(';')
        .map(str::trim)
        .filter(|dir| !dir.is_empty())
    {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_table = path
                .extension()
                .is_some_and(|ext| ext == "bin" || ext == "tzt");
            if is_table && std::fs::metadata(&path).is_ok_and(|meta| !meta.is_file()) {
                return Some(path);
            }
        }
    }
    None
}

impl Session {
    /// `setoption name TablePath value <dirs>`: loads the tables on a thread of its own, so
    /// that the input loop goes on (a 36-stone Bestemshchi table is 2.1 GB to read and
    /// check). When it is done, one `info string` line says what was loaded, or an
    /// `info string error: ...` line why nothing was (the previous tables stay). Searches
    /// started before that use the previous tables. An empty value (or `<empty>`) unloads.
    pub(super) fn set_table_path(&mut self, value: &str) {
        let value = value.trim();
        let path = if value.eq_ignore_ascii_case("<empty>") {
            String::new()
        } else {
            value.to_string()
        };
        let request = self.table_requests.fetch_add(1, Ordering::SeqCst) + 1;
        let requests = Arc::clone(&self.table_requests);
        let loaded = Arc::clone(&self.tables);
        let out = self.out.clone();
        let running = LoadRunning::new(&self.pending_loads);
        let spawned = std::thread::Builder::new()
            .name("tables".into())
            .spawn(move || {
                let _running = running;
                let result = match special_table_file(&path) {
                    Some(special) => Err(format!("{} is not a regular file", special.display())),
                    None => Tables::load(&path).map_err(|error| error.to_string()),
                };
                let mut loaded = lock(&loaded);
                if requests.load(Ordering::SeqCst) != request {
                    out.line(&format!(
                        "info string TablePath '{path}' superseded by a later TablePath; not used"
                    ));
                    return;
                }
                match result {
                    Ok(tables) => {
                        let described = tables.describe();
                        loaded.path = path.clone();
                        loaded.tables = (!tables.is_empty()).then(|| Arc::new(tables));
                        if described.is_empty() {
                            out.line(&format!("info string TablePath '{path}': no tables"));
                        }
                        for line in described {
                            out.line(&format!("info string TablePath '{path}': {line}"));
                        }
                    }
                    Err(error) => out.error(&format!(
                        "TablePath '{path}': {error}; keeping the previous tables ('{}')",
                        loaded.path
                    )),
                }
            });
        match spawned {
            Ok(handle) => {
                // An earlier loader still running finishes on its own (its result is
                // superseded); `isready` waits for every one.
                self.table_loaders.retain(|loader| !loader.is_finished());
                self.table_loaders.push(handle);
            }
            Err(error) => self.out.error(&format!(
                "could not start the table loader: {error}; keeping the previous tables"
            )),
        }
    }

    /// Starts allocating the `Hash` table asked for on a thread of its own, so that `quit`,
    /// `stop` and `isready` are answered meanwhile; `isready` says `readyok` once it is made.
    /// Allocation failure must not abort the engine: the engine keeps the old size.
    pub(super) fn resize_hash(&mut self, old_mib: usize) {
        self.install_hash();
        let out = self.out.clone();
        let running = LoadRunning::new(&self.pending_loads);
        let started = self
            .engine
            .start_hash_resize(self.options.hash_mib, move |outcome| {
                if let Err(error) = outcome {
                    out.error(&error.to_string());
                }
                drop(running);
            });
        match started {
            Ok(pending) => self.pending_hash = Some(pending),
            Err(error) => {
                self.options.hash_mib = old_mib;
                self.out.error(&error.to_string());
            }
        }
    }

    /// Waits for a `Hash` table being allocated and puts it in use (its failure was reported
    /// when it happened).
    pub(super) fn install_hash(&mut self) {
        if let Some(pending) = self.pending_hash.take() {
            let _ = self.engine.finish_hash_resize(pending);
            self.options.hash_mib = self.engine.hash_mib();
        }
    }

    /// `isready`: `readyok` at once, unless tables are still loading; then once no load runs
    /// (from a thread of its own, so that `stop` and a running search carry on), since a GUI
    /// sends `isready` after `setoption` precisely to know the option took effect.
    pub(super) fn is_ready(&mut self) {
        if *lock(&self.pending_loads.count) == 0 {
            self.out.line("readyok");
            return;
        }
        let out = self.out.clone();
        let pending = Arc::clone(&self.pending_loads);
        let waiter = std::thread::Builder::new()
            .name("isready".into())
            .spawn(move || {
                pending.wait_for_none();
                out.line("readyok");
            });
        match waiter {
            Ok(waiter) => self.ready_waiters.push(waiter),
            Err(_) => {
                self.pending_loads.wait_for_none();
                self.out.line("readyok");
            }
        }
    }

    /// Waits until every `isready` waiting for a table load is answered.
    pub(super) fn answer_ready_waiters(&mut self) {
        for waiter in self.ready_waiters.drain(..) {
            let _ = waiter.join();
        }
    }
}
