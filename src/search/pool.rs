//! Threads kept parked between searches: a search hands each one a task rather than spawning
//! a thread per `go` (a few tens of microseconds each, and a fresh 8 MiB stack to fault in).

use std::sync::mpsc;
use std::thread::JoinHandle;

/// Work for a parked thread.
pub(crate) type Task = Box<dyn FnOnce() + Send + 'static>;

/// Where a parked thread takes its tasks from.
pub(crate) type Sender = mpsc::Sender<Task>;

/// One parked thread: it runs the tasks sent to it in turn, and ends when its sender is
/// dropped.
struct Parked {
    tasks: Sender,
    thread: JoinHandle<()>,
}

/// A fixed number of parked threads, named `<name>-<number>` (numbered from `first`).
pub(crate) struct Pool {
    threads: Vec<Parked>,
    name: &'static str,
    first: usize,
    stack_size: usize,
}

impl Pool {
    /// An empty pool whose threads will be named `<name>-<first>`, `<name>-<first + 1>`, ...
    pub(crate) fn new(name: &'static str, first: usize, stack_size: usize) -> Pool {
        Pool {
            threads: Vec::new(),
            name,
            first,
            stack_size,
        }
    }

    fn spawn(&self, number: usize) -> std::io::Result<Parked> {
        let (tasks, inbox) = mpsc::channel::<Task>();
        let thread = std::thread::Builder::new()
            .name(format!("{}-{number}", self.name))
            .stack_size(self.stack_size)
            .spawn(move || {
                while let Ok(task) = inbox.recv() {
                    task();
                }
            })?;
        Ok(Parked { tasks, thread })
    }

    /// Makes the pool `count` threads: spawns the missing ones, replaces any that ended (a
    /// task that panicked takes its thread with it) and ends the extra ones. On an error the
    /// threads spawned so far stay.
    pub(crate) fn resize(&mut self, count: usize) -> std::io::Result<()> {
        for extra in self.threads.drain(count.min(self.threads.len())..) {
            drop(extra.tasks);
            let _ = extra.thread.join();
        }
        for index in 0..self.threads.len() {
            if self.threads[index].thread.is_finished() {
                let fresh = self.spawn(self.first + index)?;
                let ended = std::mem::replace(&mut self.threads[index], fresh);
                let _ = ended.thread.join();
            }
        }
        while self.threads.len() < count {
            let parked = self.spawn(self.first + self.threads.len())?;
            self.threads.push(parked);
        }
        Ok(())
    }

    /// The number of threads.
    pub(crate) fn len(&self) -> usize {
        self.threads.len()
    }

    /// Senders to every thread, in order. A thread ends only once every sender to it is
    /// dropped: hold them no longer than the tasks sent.
    pub(crate) fn senders(&self) -> Vec<Sender> {
        self.threads
            .iter()
            .map(|parked| parked.tasks.clone())
            .collect()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let _ = self.resize(0);
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;
    use std::sync::mpsc;

    #[test]
    fn parked_threads_run_tasks_in_turn_and_a_panicked_one_is_replaced() {
        let mut pool = Pool::new("test", 1, 1 << 20);
        pool.resize(2).unwrap();
        let (done, results) = mpsc::channel();
        let first_thread = std::sync::Arc::new(std::sync::Mutex::new(None));
        for round in 0..3 {
            for (index, sender) in pool.senders().iter().enumerate() {
                let done = done.clone();
                let seen = std::sync::Arc::clone(&first_thread);
                sender
                    .send(Box::new(move || {
                        let name = std::thread::current().name().map(str::to_string);
                        if index == 0 {
                            let mut seen = seen.lock().unwrap();
                            let id = std::thread::current().id();
                            // The same parked thread every round.
                            assert_eq!(*seen.get_or_insert(id), id);
                        }
                        done.send((round, name)).unwrap();
                    }))
                    .unwrap();
            }
        }
        let mut names: Vec<_> = (0..6).map(|_| results.recv().unwrap().1.unwrap()).collect();
        names.sort();
        assert_eq!(
            names,
            ["test-1", "test-1", "test-1", "test-2", "test-2", "test-2"]
        );
        let _ = pool.senders()[0].send(Box::new(|| panic!("a task that fails")));
        while !pool.threads[0].thread.is_finished() {
            std::thread::yield_now();
        }
        pool.resize(2).unwrap();
        let done = done.clone();
        pool.senders()[0]
            .send(Box::new(move || done.send((9, None)).unwrap()))
            .unwrap();
        assert_eq!(results.recv().unwrap().0, 9);
        pool.resize(1).unwrap();
        assert_eq!(pool.len(), 1);
    }
}
