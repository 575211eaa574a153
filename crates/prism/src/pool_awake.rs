//! The pool's other threads stay awake while a step runs.
//!
//! A step alternates parallel phases (pair search, narrowphase, solver, finalize) with short
//! serial ones (contact state changes, sleep, events). A rayon thread that finds no work
//! yields its time slice some thirty times and then sleeps on a futex; the next phase that
//! pushes work wakes it through the operating system. On a virtual machine that wake-up is an
//! interrupt to a halted virtual CPU, and the woken thread joins the phase tens of
//! microseconds late — often after the thread that pushed the work has done most of it alone.
//! A step at two workers paid that several times: between each serial phase and the next
//! parallel one, and at the solver's start, where the executor's worker arrives late
//! (`solver-simd/src/executor.rs`).
//!
//! So for the length of a step each of the other `workers − 1` threads runs a *keeper*: a
//! loop that asks the pool for a job (`rayon::yield_now`: its own queue, then stealing, then
//! the injected jobs), runs it if there is one, and otherwise spins. A keeper is an ordinary
//! idle thread that does not fall asleep: it runs the same jobs rayon would have woken it
//! for, so what the step computes, and on which data, does not change — only how soon the
//! second thread starts. The step's own thread sets `done` when it returns (or unwinds), and
//! the keepers leave.
//!
//! ```text
//!   step thread                      keeper (× workers − 1)
//!   ───────────                      ──────────────────────
//!   spawn keepers                    until done:
//!   run the step's phases              job ← yield_now()    (steal, run)
//!   done ← true                        none: spin, then yield the time slice
//!   wait for the keepers (scope)
//! ```
//!
//! Spinning costs a core while the step is serial, as the solver's own waits do, so keepers
//! run only when the pool has no more workers than the machine has cores
//! (`std::thread::available_parallelism`): with more, a spinning keeper would take a core from
//! a thread with work, and the pool's threads sleep between phases as before. After
//! [`SPIN_LIMIT`] empty polls a keeper yields its time slice between polls. Two guards keep a keeper from holding a
//! thread the step needs: the step's own thread, if it picks a keeper job from its queue
//! while it waits for other work, returns from it at once, and so does a thread already
//! running a keeper. Either way the step only loses the early start, never its progress.

use rayon::Yield;
use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Empty polls a keeper spins through before it starts yielding its time slice.
const SPIN_LIMIT: u32 = 2048;

thread_local! {
    /// Whether this thread is running a keeper now.
    static KEEPING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `step` on the current pool thread while `workers − 1` keepers hold the pool's other
/// threads awake (see the module notes). Called inside the world's pool.
pub(crate) fn with_pool_awake<R: Send>(workers: usize, step: impl FnOnce() -> R + Send) -> R {
    let keepers = if workers <= cores() { workers - 1 } else { 0 };
    let done = AtomicBool::new(false);
    let host = rayon::current_thread_index();
    rayon::in_place_scope(|scope| {
        for _ in 0..keepers {
            let done = &done;
            scope.spawn(move |_| keep_awake(done, host));
        }
        let _finish = SetOnDrop(&done);
        step()
    })
}

/// The machine's cores as the process may use them (1 if unknown), asked once.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Sets its flag when dropped, so the keepers leave even if the step unwinds.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Clears [`KEEPING`] when dropped.
struct KeepingOnThisThread;

impl Drop for KeepingOnThisThread {
    fn drop(&mut self) {
        KEEPING.with(|k| k.set(false));
    }
}

/// A keeper: runs the pool's jobs as they come until `done` (module notes). Returns at once
/// on the step's own thread (`host`) and on a thread already keeping.
fn keep_awake(done: &AtomicBool, host: Option<usize>) {
    if rayon::current_thread_index() == host || KEEPING.with(|k| k.replace(true)) {
        return;
    }
    let _keeping = KeepingOnThisThread;
    let mut empty_polls = 0u32;
    while !done.load(Ordering::Acquire) {
        match rayon::yield_now() {
            Some(Yield::Executed) => empty_polls = 0,
            Some(Yield::Idle) if empty_polls < SPIN_LIMIT => {
                empty_polls += 1;
                std::hint::spin_loop();
            }
            Some(Yield::Idle) => std::thread::yield_now(),
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;
    use std::sync::atomic::AtomicUsize;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// The step's value comes back, the parallel work inside it is all done, and every call
    /// returns — the keepers left — for pools of one to four threads, asked for as many
    /// workers as the pool has or more.
    #[test]
    fn steps_return_their_value_and_their_parallel_work_completes() {
        for threads in 1..=4 {
            let pool = pool(threads);
            for workers in [threads, threads + 2] {
                for _ in 0..50 {
                    let visited = AtomicUsize::new(0);
                    let sum: u64 = pool.install(|| {
                        with_pool_awake(workers, || {
                            let (a, b) = rayon::join(
                                || (0..10_000u64).into_par_iter().sum::<u64>(),
                                || {
                                    (0..1_000).into_par_iter().for_each(|_| {
                                        visited.fetch_add(1, Ordering::Relaxed);
                                    });
                                    7
                                },
                            );
                            a + b
                        })
                    });
                    assert_eq!(sum, 49_995_000 + 7, "{threads} threads, {workers} workers");
                    assert_eq!(visited.load(Ordering::Relaxed), 1_000);
                }
            }
        }
    }

    /// A step that panics still lets its keepers go: the panic reaches the caller instead of
    /// the call hanging, and the pool serves the next step.
    #[test]
    fn a_panicking_step_releases_its_keepers() {
        let pool = pool(2);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| with_pool_awake(2, || -> u32 { panic!("step failed") }))
        }));
        assert!(caught.is_err());
        assert_eq!(pool.install(|| with_pool_awake(2, || 5)), 5);
    }

    /// Steps nested in a step (a keeper's thread or the step's own picking a keeper job)
    /// return: the guards keep a thread from keeping twice or keeping its own step.
    #[test]
    fn nested_steps_return() {
        let pool = pool(2);
        let total: usize = pool.install(|| {
            with_pool_awake(2, || {
                (0..8usize)
                    .into_par_iter()
                    .map(|i| with_pool_awake(2, || i))
                    .sum()
            })
        });
        assert_eq!(total, 28);
    }
}
