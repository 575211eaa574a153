//! One job: `len` numbered tasks on the stack of the thread that offered it.
//!
//! **Segments.** The tasks are cut into one segment per worker (at most [`MAX_SEGMENTS`]):
//! segment `v` of `S` holds tasks `⌊v·len/S⌋ … ⌊(v+1)·len/S⌋ − 1`. The owner's home segment is
//! the first, and each visitor's is the next in the order visitors arrive (cycling through the
//! segments when more threads than segments come). A thread claims the tasks of its home
//! segment from the front, first task first; when none is left there it claims from the back of
//! the other segments, last task first. So with two workers the owner runs the first half of the
//! tasks and the helper the second, and a pass whose chunks follow the data's order leaves each
//! thread one contiguous part of it — the same part step after step while the two keep pace, so
//! the data a thread touched in the last step can still be in its core's cache.
//!
//! **Why a counter per segment, each on a line of its own.** A claim writes its segment's
//! counter, and writing a line another core holds costs the line's trip between the cores. With
//! one counter for the whole job, two threads claiming in turn paid that trip at every claim,
//! and another at every task's completion count: in `many_pyramids` at two workers the
//! narrowphase, 906 chunks of 64 contacts, took 0.367 ms/step, and 0.300 when the same contacts
//! were cut into chunks of 1,024. Now a thread's claims write a line no other thread writes
//! until one of them runs dry, and each thread adds the tasks it ran to `finished` once, when it
//! leaves the job: chunks of 64 again, 0.406 → 0.324 in alternating builds
//! (`benches/results/NOTES.md`).
//!
//! **Claims.** Each segment's counter is a [`SegmentClaims`] (`claims.rs`, shared with the
//! solver's executor): one add per claim from the front, one compare-exchange per claim from the
//! back, and no task claimed twice. `finished` counts the tasks that have returned, and
//! `visitors` the threads other than the owner that may still touch the job. A thread becomes a
//! visitor only while the job is in the offered list, under the list's lock
//! ([`Shared::enter`]); once the owner has withdrawn the job, no new visitor can come, and the
//! owner returns (and the job's stack frame ends) only when every task has finished and every
//! visitor has left.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::claims::SegmentClaims;
use crate::lock;
use crate::pool::Shared;

/// What a job's tasks run: `task(index)`.
pub(crate) type Task<'a> = dyn Fn(usize) + Sync + 'a;

/// The most segments a job's tasks are cut into (module notes); with more workers than this,
/// several threads share a home segment.
pub(crate) const MAX_SEGMENTS: usize = 4;

/// The completion count on a cache line of its own (128 bytes, as each [`SegmentClaims`]), so
/// that adding to it never takes a line a claim counter or the owner's stack is on.
#[repr(align(128))]
#[derive(Default)]
struct FinishedCount(AtomicUsize);

pub(crate) struct Job<'a> {
    task: &'a Task<'a>,
    len: usize,
    /// How many segments the tasks are cut into (1 to [`MAX_SEGMENTS`]).
    segments: usize,
    /// Per segment, the tasks claimed from its front and from its back.
    claims: [SegmentClaims; MAX_SEGMENTS],
    finished: FinishedCount,
    visitors: AtomicUsize,
    /// Visitors that have come so far (the next one's home segment).
    arrivals: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

impl<'a> Job<'a> {
    /// A job of `len` tasks for `workers` threads.
    pub(crate) fn new(len: usize, workers: usize, task: &'a Task<'a>) -> Job<'a> {
        assert!(u32::try_from(len).is_ok(), "{len} tasks in one job");
        Job {
            task,
            len,
            segments: workers.clamp(1, MAX_SEGMENTS),
            claims: Default::default(),
            finished: FinishedCount::default(),
            visitors: AtomicUsize::new(0),
            arrivals: AtomicUsize::new(0),
            panic: Mutex::new(None),
        }
    }

    /// Offers the job on `shared`, runs `here`, runs the tasks nobody has claimed, withdraws
    /// the job and helps with other jobs until its last task has returned; then re-raises the
    /// first panic (of `here` before any task's) or returns `here`'s result.
    pub(crate) fn run_offered<R>(&self, shared: &Shared, here: impl FnOnce() -> R) -> R {
        shared.offer(self);
        let here_result = catch_unwind(AssertUnwindSafe(here));
        self.run_tasks(0);
        shared.withdraw(self);
        shared.help_until(|| {
            self.finished.0.load(Ordering::Acquire) == self.len
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

    /// Registers a visitor and returns its home segment; called under the offered list's
    /// lock only.
    pub(crate) fn visit(&self) -> usize {
        self.visitors.fetch_add(1, Ordering::Relaxed);
        (self.arrivals.fetch_add(1, Ordering::Relaxed) + 1) % self.segments
    }

    /// The visitor is done with the job; releases its writes to the owner.
    pub(crate) fn leave(&self) {
        self.visitors.fetch_sub(1, Ordering::Release);
    }

    /// True while some task has not been claimed.
    pub(crate) fn has_unclaimed(&self) -> bool {
        (0..self.segments)
            .any(|segment| self.claims[segment].has_unclaimed(self.segment_len(segment)))
    }

    /// Claims and runs tasks, from the front of segment `home` and then from the back of the
    /// others, until none is left unclaimed; then counts them finished. A task's panic is kept
    /// for the owner; the task still counts as finished.
    pub(crate) fn run_tasks(&self, home: usize) {
        let mut ran = 0;
        let others = (1..self.segments).map(|step| (home + step) % self.segments);
        let claims = std::iter::from_fn(|| self.claim_front(home))
            .chain(others.flat_map(|segment| std::iter::from_fn(move || self.claim_back(segment))));
        for index in claims {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| (self.task)(index))) {
                lock(&self.panic).get_or_insert(panic);
            }
            ran += 1;
        }
        // Releases the tasks' writes to the owner, which acquires `finished`.
        self.finished.0.fetch_add(ran, Ordering::Release);
    }

    /// The first task of `segment`.
    fn segment_start(&self, segment: usize) -> u64 {
        segment as u64 * self.len as u64 / self.segments as u64
    }

    /// The number of tasks in `segment`.
    fn segment_len(&self, segment: usize) -> u64 {
        self.segment_start(segment + 1) - self.segment_start(segment)
    }

    /// The index of a task claimed from the front of `segment`, if any is left there.
    fn claim_front(&self, segment: usize) -> Option<usize> {
        let offset = self.claims[segment].claim_front(self.segment_len(segment))?;
        Some((self.segment_start(segment) + offset) as usize)
    }

    /// The index of a task claimed from the back of `segment`, if any is left there.
    fn claim_back(&self, segment: usize) -> Option<usize> {
        let offset = self.claims[segment].claim_back(self.segment_len(segment))?;
        Some((self.segment_start(segment) + offset) as usize)
    }
}
