//! The helper threads, the list of offered jobs, and how idle helpers wait for work.
#![allow(unsafe_code)]

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::job::Job;
use crate::lock;

/// How long an idle helper spins, watching for a new job, before it yields (while a caller is
/// inside [`Workers::install`]) or sleeps (once none is).
pub const SPIN_TIME: Duration = Duration::from_micros(100);
/// Time slices an idle helper yields, after spinning and with no caller inside, before it
/// sleeps.
const IDLE_YIELDS: u32 = 32;
/// Busy-wait iterations of [`back_off`] before a waiting thread starts yielding its time
/// slice.
pub const SPIN_LIMIT: u32 = 256;

thread_local! {
    /// The workers this thread belongs to: its own for a helper, the installed ones for any
    /// other thread inside [`Workers::install`], none otherwise.
    static CURRENT: Cell<*const Shared> = const { Cell::new(std::ptr::null()) };
}

/// A fixed set of workers: the thread that calls in (worker 0) and `count − 1` helper threads,
/// started by [`Workers::new`] and stopped when the value is dropped.
pub struct Workers {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

/// What the workers share.
pub(crate) struct Shared {
    count: usize,
    /// The offered jobs, oldest first.
    jobs: Mutex<Vec<JobRef>>,
    /// Raised at every offer: a claimable task can only appear with a new offer.
    offers: AtomicU64,
    /// Callers inside [`Workers::install`]: while there is one, more jobs are coming soon (the
    /// next pass of the same step), and idle helpers yield rather than sleep.
    installed: AtomicUsize,
    /// Helpers asleep on `wake` (or about to be).
    sleepers: AtomicUsize,
    sleep: Mutex<()>,
    wake: Condvar,
    shutdown: AtomicBool,
}

/// An offered job in the list; the job lives on its owner's stack.
struct JobRef(*const Job<'static>);

// SAFETY: a `JobRef` is only dereferenced under the list's lock or by a registered visitor
// (`Shared::enter`), while the job's owner keeps the job alive; `Job` itself is `Sync`.
unsafe impl Send for JobRef {}

impl Workers {
    /// Starts `count − 1` helper threads (`count` of 0 counts as 1). Fails, with no thread
    /// left running, when the operating system refuses one.
    pub fn new(count: usize) -> std::io::Result<Workers> {
        let count = count.max(1);
        let shared = Arc::new(Shared {
            count,
            jobs: Mutex::new(Vec::new()),
            offers: AtomicU64::new(0),
            installed: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            shutdown: AtomicBool::new(false),
        });
        let mut workers = Workers {
            shared,
            helpers: Vec::with_capacity(count - 1),
        };
        for index in 1..count {
            let shared = Arc::clone(&workers.shared);
            let helper = std::thread::Builder::new()
                .name(format!("prism-worker-{index}"))
                .spawn(move || shared.help_forever());
            // On an error `workers` drops here and stops the helpers already started.
            workers.helpers.push(helper?);
        }
        Ok(workers)
    }

    /// The number of workers, the calling thread included.
    pub fn count(&self) -> usize {
        self.shared.count
    }

    /// Runs `op` on this thread as worker 0 of these workers: the crate's free functions
    /// called inside it share their tasks with this set's helpers.
    pub fn install<R>(&self, op: impl FnOnce() -> R) -> R {
        struct Restore<'a>(*const Shared, &'a AtomicUsize);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                CURRENT.set(self.0);
                self.1.fetch_sub(1, Ordering::SeqCst);
            }
        }
        self.shared.installed.fetch_add(1, Ordering::SeqCst);
        // Helpers that fell asleep since the last call start waking now, while the caller
        // runs the serial start of its work, rather than at its first offer.
        self.shared.wake_sleepers(usize::MAX);
        let previous = CURRENT.replace(Arc::as_ptr(&self.shared));
        let _restore = Restore(previous, &self.shared.installed);
        op()
    }
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workers")
            .field("count", &self.shared.count)
            .finish()
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        self.shared.offers.fetch_add(1, Ordering::SeqCst);
        {
            let _sleep = lock(&self.shared.sleep);
            self.shared.wake.notify_all();
        }
        let me = std::thread::current().id();
        for helper in self.helpers.drain(..) {
            // A helper cannot wait for itself; it leaves its loop once this returns.
            if helper.thread().id() != me {
                // A helper's loop catches every task's panic, so `join` has none to report.
                let _ = helper.join();
            }
        }
    }
}

impl Shared {
    /// Calls `f` with the calling thread's workers, if any.
    pub(crate) fn with_current<R>(f: impl FnOnce(Option<&Shared>) -> R) -> R {
        let current = CURRENT.get();
        // SAFETY: `CURRENT` is non-null only inside `Workers::install`, which borrows the
        // workers (and so their `Arc<Shared>`) for longer than any call made within it, or on
        // a helper thread, which holds an `Arc<Shared>` for as long as it runs.
        f(unsafe { current.as_ref() })
    }

    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// Puts `job` in the list and wakes sleeping helpers, at most one per task.
    pub(crate) fn offer(&self, job: &Job<'_>) {
        let pointer = std::ptr::from_ref(job).cast::<Job<'static>>();
        lock(&self.jobs).push(JobRef(pointer));
        self.offers.fetch_add(1, Ordering::SeqCst);
        self.wake_sleepers(job.len());
    }

    /// Wakes up to `most` sleeping helpers. Called after raising `offers` or `installed`.
    fn wake_sleepers(&self, most: usize) {
        let sleepers = self.sleepers.load(Ordering::SeqCst);
        if sleepers > 0 {
            let _sleep = lock(&self.sleep);
            for _ in 0..sleepers.min(most) {
                self.wake.notify_one();
            }
        }
    }

    /// Takes `job` out of the list: from now on no thread becomes its visitor.
    pub(crate) fn withdraw(&self, job: &Job<'_>) {
        let pointer = std::ptr::from_ref(job).cast::<Job<'static>>();
        let mut jobs = lock(&self.jobs);
        if let Some(at) = jobs.iter().position(|listed| listed.0 == pointer) {
            jobs.remove(at);
        }
    }

    /// The oldest offered job with a task left to claim, with the caller registered as its
    /// visitor (it must call [`Job::leave`]), and the caller's home segment in it.
    fn enter(&self) -> Option<(&Job<'static>, usize)> {
        let jobs = lock(&self.jobs);
        // SAFETY: a listed job's owner has not withdrawn it, so it has not returned and the
        // job is alive while the lock is held; registering as a visitor under the lock keeps
        // the owner waiting (and the job alive) until the visitor leaves.
        let job = jobs
            .iter()
            .map(|listed| unsafe { &*listed.0 })
            .find(|job| job.has_unclaimed())?;
        let home = job.visit();
        Some((job, home))
    }

    /// Runs the tasks of one offered job that has some left; false when none has.
    fn help_once(&self) -> bool {
        match self.enter() {
            Some((job, home)) => {
                job.run_tasks(home);
                job.leave();
                true
            }
            None => false,
        }
    }

    /// Helps with offered jobs until `done` holds.
    pub(crate) fn help_until(&self, done: impl Fn() -> bool) {
        let mut spins = 0;
        while !done() {
            let seen = self.offers.load(Ordering::SeqCst);
            if self.help_once() {
                spins = 0;
                continue;
            }
            while self.offers.load(Ordering::SeqCst) == seen && !done() {
                back_off(&mut spins);
            }
        }
    }

    /// A helper thread's life: help, and when there is nothing to do, wait for an offer.
    fn help_forever(self: Arc<Shared>) {
        CURRENT.set(Arc::as_ptr(&self));
        while !self.shutdown.load(Ordering::SeqCst) {
            let seen = self.offers.load(Ordering::SeqCst);
            if !self.help_once() {
                self.idle(seen);
            }
        }
    }

    /// Waits for the offer count to move past `seen`: spins for [`SPIN_TIME`]; then, while a
    /// caller is inside `install` (a step under way, whose next pass will offer work within
    /// microseconds), yields its time slice again and again, which costs a spare core nothing
    /// and a busy one little; once none is, yields [`IDLE_YIELDS`] times and sleeps until an
    /// offer (or the shutdown) wakes it. So within a step a helper is never asleep when work
    /// comes (on the benchmark machine waking one costs the waker 5 to 7 µs of system call),
    /// and between steps it sleeps after a short spin.
    fn idle(&self, seen: u64) {
        let moved = || self.offers.load(Ordering::SeqCst) != seen;
        let start = Instant::now();
        while start.elapsed() < SPIN_TIME {
            for _ in 0..32 {
                std::hint::spin_loop();
            }
            if moved() {
                return;
            }
        }
        while self.installed.load(Ordering::SeqCst) > 0 {
            std::thread::yield_now();
            if moved() || self.shutdown.load(Ordering::SeqCst) {
                return;
            }
        }
        for _ in 0..IDLE_YIELDS {
            std::thread::yield_now();
            if moved() {
                return;
            }
        }
        // Announce the sleep before the last look at the counts; `offer` (and `install`)
        // raises its count before it looks for sleepers (all sequentially consistent), so
        // either this look sees the new offer (or caller) or the waker sees this sleeper and
        // notifies under `sleep`, which this thread holds until `wait` has released it.
        let guard = lock(&self.sleep);
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let guard = if moved()
            || self.installed.load(Ordering::SeqCst) > 0
            || self.shutdown.load(Ordering::SeqCst)
        {
            guard
        } else {
            self.wake
                .wait(guard)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        drop(guard);
    }
}

/// One step of a wait loop: spins ([`SPIN_LIMIT`] times, counted in `spins`), then yields
/// its time slice, so that more threads than cores still make progress.
#[inline]
pub fn back_off(spins: &mut u32) {
    if *spins < SPIN_LIMIT {
        *spins += 1;
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}
