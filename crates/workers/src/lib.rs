//! # workers — fork and join with the calling thread as worker 0
//!
//! A Prism world with `W` workers steps on `W` threads: the thread that calls `World::step`
//! and `W − 1` helper threads that the world starts once and keeps. The step runs on the
//! calling thread from its first line to its last; wherever it has independent pieces of work
//! it *offers* them to the helpers, works on them itself, and returns when all are done:
//!
//! ```text
//!   caller (worker 0)                          helper (× W − 1)
//!   ─────────────────                          ────────────────
//!   serial part of the step                    spin a while, then sleep
//!   offer a job of n tasks ──── wake ────────► take the job's next task, run it, repeat
//!   take the job's next task, run it, repeat
//!   withdraw the job; help with other jobs
//!     until its last task has returned
//!   serial part …
//! ```
//!
//! **Why not a thread pool the caller hands the step to.** A pool whose threads alone may run
//! parallel loops (rayon's `ThreadPool::install`) makes the caller give the whole step to a
//! pool thread and sleep until that thread hands it back. Both hand-overs wake a sleeping
//! thread, and on a virtual machine a sleeping virtual CPU takes tens of microseconds to wake:
//! on the 2-core benchmark machine the two wake-ups cost 1.8 to 5.7 % of a two-worker step
//! (`benches/results/NOTES.md`). Here nothing waits for the first wake-up: the caller starts on
//! the job's tasks at once and a helper that wakes late takes whatever tasks are left. And no
//! thread is woken at the end: the caller is already running. Box2D v3's own scheduler works
//! the same way (its main thread executes tasks while it waits for them).
//!
//! **Jobs and tasks.** A job is `n` numbered tasks (one closure called with each index) and it
//! lives on the stack of the thread that offered it. Its tasks are cut into one segment per
//! worker, each with a claim counter on a cache line of its own: a thread claims from the front
//! of its home segment (the owner's is the first) and, when that is empty, from the back of the
//! others, so each task runs exactly once, on whichever thread claimed it, and two threads
//! claiming at once write different lines (`job.rs`). A thread that offered a job and has no
//! task of it left to claim withdraws it from the list and, until the job's last task has
//! returned, runs tasks of *other* jobs — a helper working on one side of a [`join`] may offer a
//! job of its own (a parallel loop inside that side), and the thread waiting for the join then
//! works on that. Jobs nest to any depth; nothing blocks except by waiting for its own job's
//! tasks while it helps.
//!
//! **Which workers.** The free functions ([`join`], [`for_each`], [`map`], [`for_each_mut`],
//! [`map_mut`], [`extend_in_pieces`], [`run_with`]) use the workers of the calling thread: a
//! helper thread always belongs to its own [`Workers`], and any other thread belongs to one
//! while it runs inside [`Workers::install`]. Called from a thread that belongs to none, or to
//! one with a single worker, they run every task on the calling thread, in index order.
//!
//! **Determinism.** The workers decide only which thread runs a task, never what a task
//! computes or which tasks exist: the callers cut their work by sizes that do not depend on
//! the number of threads, and [`map`] returns its results in index order. So a world gives the
//! same bits for any number of workers.
//!
//! **Idle helpers.** A helper that finds no task spins for [`SPIN_TIME`], watching one atomic
//! counter that every offer raises. Then, while some caller is inside [`Workers::install`] (a step
//! under way: its next pass will offer work soon), it keeps yielding its time slice, which costs a
//! spare core nothing and a busy one little; once no caller is, it yields a few more times and
//! sleeps on a condition variable until an offer or an `install` wakes it. So within a step a
//! helper is never asleep when work comes: waking one is a system call that cost the waker several
//! microseconds (5 to 7 on the benchmark machine), and the step's serial stretches (the
//! contact-state pass, the islands' sleep) made the helpers fall asleep about three times a step in
//! `large_pyramid` and `many_pyramids` when they slept after the spin alone. Between steps a helper
//! sleeps, and `install` wakes it at once, so that it comes up while the caller runs the serial
//! start of its step.
//!
//! **Panics.** A task that panics does not unwind through the worker that ran it: the panic is
//! caught, the task counts as done, and the thread that offered the job re-raises it after all
//! the job's tasks have returned (the tasks borrow from that thread's stack, so it may not
//! unwind sooner). The first panic of a job is the one re-raised.

mod claims;
mod items;
mod job;
mod pool;

pub use claims::SegmentClaims;
pub use items::{Piece, extend_in_pieces, for_each_mut, map_mut};
pub use pool::{SPIN_LIMIT, SPIN_TIME, Workers, back_off};

use job::Job;
use pool::Shared;

/// Runs `here` on this thread while offering `tasks` tasks — `task(0)`, …, `task(tasks − 1)`
/// — to this thread's other workers; then runs whichever of them no one has claimed and
/// returns `here`'s result once every task has returned. Without other workers every task runs
/// here, after `here`, in index order. A panic of `here` or of a task is re-raised here after
/// all of them have returned.
pub fn run_with<R>(tasks: usize, task: &(dyn Fn(usize) + Sync), here: impl FnOnce() -> R) -> R {
    Shared::with_current(|shared| match shared {
        Some(shared) if tasks > 0 && shared.count() > 1 => {
            Job::new(tasks, shared.count(), task).run_offered(shared, here)
        }
        _ => {
            let result = here();
            (0..tasks).for_each(task);
            result
        }
    })
}

/// Runs `a` on this thread and `b` on another worker if one is free (or after `a` here), and
/// returns both results.
pub fn join<RA, RB>(a: impl FnOnce() -> RA, b: impl FnOnce() -> RB + Send) -> (RA, RB)
where
    RB: Send,
{
    let b = std::sync::Mutex::new(Some(b));
    let b_result = std::sync::Mutex::new(None);
    let task = |_: usize| {
        let b = lock(&b).take().expect("the single task runs once");
        *lock(&b_result) = Some(b());
    };
    let a_result = run_with(1, &task, a);
    let b_result = lock(&b_result).take().expect("the task has returned");
    (a_result, b_result)
}

/// Calls `task(i)` for every `i` in `0..tasks`, spread over this thread's workers.
pub fn for_each(tasks: usize, task: impl Fn(usize) + Sync) {
    run_with(tasks, &task, || ());
}

/// `task(i)` for every `i` in `0..tasks`, computed on this thread's workers, in index order.
pub fn map<R: Send>(tasks: usize, task: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let mut results: Vec<Option<R>> = (0..tasks).map(|_| None).collect();
    for_each_mut(&mut results, |index, slot| *slot = Some(task(index)));
    results
        .into_iter()
        .map(|result| result.expect("every task has run"))
        .collect()
}

/// How many workers the calling thread's [`Workers`] have: 1 outside any.
pub fn current_count() -> usize {
    Shared::with_current(|shared| shared.map_or(1, Shared::count))
}

/// Locks a mutex that no panic can have poisoned with broken data (the closures above only
/// move values in and out of it).
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests;
