//! One job: `len` numbered tasks on the stack of the thread that offered it.
//!
//! Three counters, each only ever raised. `ends` hands out task indices: the owner claims from the
//! front (one `fetch_add` of the low half), visitors from the back (a compare-exchange of the high
//! half), so with two workers the owner runs the first tasks and the helper the last ones, and a
//! pass whose chunks follow the data's order leaves each thread one contiguous part of it — the
//! same part step after step while the two keep pace, so the data a thread touched in the last step
//! is still in its core's cache. A front claim of task `f` counts only while `f + b < len` and a
//! back claim of task `len − 1 − b` only while `f + b < len` for the `(f, b)` it saw; both counts
//! only grow, so the claim that came second saw the other's count raised and the two cannot take
//! the same task (the executor of solver-simd claims its blocks the same way). `finished` counts
//! the tasks that have returned, and `visitors` the threads other than the owner that may still
//! touch the job. A thread becomes a visitor only while the job is in the offered list, under the
//! list's lock ([`Shared::enter`]); once the owner has withdrawn the job, no new visitor can come,
//! and the owner returns (and the job's stack frame ends) only when every task has finished and
//! every visitor has left.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::lock;
use crate::pool::Shared;

/// What a job's tasks run: `task(index)`.
pub(crate) type Task<'a> = dyn Fn(usize) + Sync + 'a;

pub(crate) struct Job<'a> {
    task: &'a Task<'a>,
    len: usize,
    /// Tasks claimed from the front (low 32 bits) and from the back (high 32 bits).
    ends: AtomicU64,
    finished: AtomicUsize,
    visitors: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

impl<'a> Job<'a> {
    pub(crate) fn new(len: usize, task: &'a Task<'a>) -> Job<'a> {
        assert!(u32::try_from(len).is_ok(), "{len} tasks in one job");
        Job {
            task,
            len,
            ends: AtomicU64::new(0),
            finished: AtomicUsize::new(0),
            visitors: AtomicUsize::new(0),
            panic: Mutex::new(None),
        }
    }

    /// Offers the job on `shared`, runs `here`, runs the tasks nobody has claimed, withdraws
    /// the job and helps with other jobs until its last task has returned; then re-raises the
    /// first panic (of `here` before any task's) or returns `here`'s result.
    pub(crate) fn run_offered<R>(&self, shared: &Shared, here: impl FnOnce() -> R) -> R {
        shared.offer(self);
        let here_result = catch_unwind(AssertUnwindSafe(here));
        self.run_tasks(Side::Front);
        shared.withdraw(self);
        shared.help_until(|| {
            self.finished.load(Ordering::Acquire) == self.len
                && self.visitors.load(Ordering::Acquire) == 0
        });
        let task_panic = lock(&self.panic).take();
        match (here_result, task_panic) {
            (Err(panic), _) | (Ok(_), Some(panic)) => resume_unwind(panic),
            (Ok(result), None) => result,
        }
    }

    /// The number of tasks.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Registers a visitor; called under the offered list's lock only.
    pub(crate) fn visit(&self) {
        self.visitors.fetch_add(1, Ordering::Relaxed);
    }

    /// The visitor is done with the job; releases its writes to the owner.
    pub(crate) fn leave(&self) {
        self.visitors.fetch_sub(1, Ordering::Release);
    }

    /// True while some task has not been claimed.
    pub(crate) fn has_unclaimed(&self) -> bool {
        claimed(self.ends.load(Ordering::Relaxed)) < self.len as u64
    }

    /// Claims, from `side`, and runs tasks until none is left unclaimed. A task's panic is
    /// kept for the owner; the task still counts as finished.
    pub(crate) fn run_tasks(&self, side: Side) {
        while let Some(index) = self.claim(side) {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| (self.task)(index))) {
                lock(&self.panic).get_or_insert(panic);
            }
            // Releases the task's writes to the owner, which acquires `finished`.
            self.finished.fetch_add(1, Ordering::Release);
        }
    }

    /// The index of a task claimed from `side`, if any is left.
    fn claim(&self, side: Side) -> Option<usize> {
        let len = self.len as u64;
        match side {
            Side::Front => {
                let ends = self.ends.fetch_add(1, Ordering::Relaxed);
                (claimed(ends) < len).then_some((ends & LOW) as usize)
            }
            Side::Back => {
                let mut ends = self.ends.load(Ordering::Relaxed);
                while claimed(ends) < len {
                    let exchange = self.ends.compare_exchange_weak(
                        ends,
                        ends + BACK_ONE,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    match exchange {
                        Ok(_) => return Some((len - 1 - (ends >> 32)) as usize),
                        Err(now) => ends = now,
                    }
                }
                None
            }
        }
    }
}

/// Which end of a job's tasks a thread claims from.
#[derive(Clone, Copy)]
pub(crate) enum Side {
    /// The owner: first task first.
    Front,
    /// A visitor: last task first.
    Back,
}

/// The low half of `ends`: the front claims.
const LOW: u64 = u32::MAX as u64;
/// One claim from the back, in `ends`.
const BACK_ONE: u64 = 1 << 32;

/// The tasks `ends` says are claimed, from both ends. A failed front claim still raises the
/// front count, once per job (only the owner claims from the front and it stops there).
fn claimed(ends: u64) -> u64 {
    (ends & LOW) + (ends >> 32)
}
