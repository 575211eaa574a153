//! The staged executor: one step's list of stages, run by persistent workers.
//!
//! A solver step is a few hundred stages (per substep: integrate, then warm start, solve and
//! relax for every colour, …), each a list of independent blocks, and each stage may start
//! only when the previous one has finished. Forking and joining a parallel loop per stage
//! would pay a thread wake-up at every one of those boundaries. Instead the step is one job of
//! the `workers` crate (`workers::run_with`): the calling thread orchestrates and works,
//! `workers − 1` tasks offered to the helper threads only work, and they meet at stage
//! boundaries through three atomics:
//!
//! ```text
//!   orchestrator                           worker (× workers − 1)
//!   ───────────                            ──────────────────────
//!   for each stage s:                      loop:
//!     current ← s            (release)       wait until current ≠ last seen (spin, then yield)
//!     claim & run blocks of s                 if current = FINISHED: return
//!     wait until done[s] = blocks[s]          claim & run blocks of current
//!   current ← FINISHED
//!
//!   claim & run (worker w of W; the stage's n blocks cut into W segments, segment v being
//!   blocks ⌊v·n / W⌋ … ⌊(v+1)·n / W⌋ − 1 (length L), each segment with a cursor on a line of
//!   its own counting the blocks claimed from its front, f, and from its back, b — the
//!   `workers` crate's `SegmentClaims`, which the helpers' jobs claim with too):
//!     own segment v = w:  repeat: (f, b) ← cursor[v].fetch_add(front 1)
//!                                 stop when f + b ≥ L; run its block f
//!     the others in turn: repeat: (f, b) ← cursor[v]; stop when f + b ≥ L
//!                                 if cursor[v] is still (f, b): cursor[v] ← (f, b + 1),
//!                                 run its block L − 1 − b
//!     done[s].fetch_add(blocks this worker ran)     (release; once per worker and stage)
//! ```
//!
//! **Why each worker starts at its own place.** The same stage recurs every substep over the
//! same blocks (colour `c`'s warm start, solve and relax read the same constraints and bodies
//! four times per step). A shared counter hands block `b` to whichever thread asks first, so
//! from one substep to the next a block's constraints and body states move between cores'
//! caches. Giving worker `w` the `w`-th segment of every stage gives it the same part of every
//! stage while the threads keep pace, and the data it touched last time is still in its cache;
//! a worker that runs out takes blocks from the other segments, so the load still balances.
//!
//! **Why a thief takes from the back.** The orchestrator starts each stage a moment before
//! the workers see it, so it tends to finish its segment first and take a block or two of
//! another's. Taken from the front, where the owner is also claiming, the block it gets is
//! wherever the owner happens to be, a different one every pass, and each such block's
//! constraints and bodies cross between the cores twice. Taken from the back, it is the
//! segment's last block, pass after pass, so the same few blocks stay with the thief while the
//! owner keeps the rest. Alternating builds, two workers, ten rounds, the solver's passes in
//! ms/step, front → back: `large_pyramid` 1.692 → 1.585, `tumbler` 1.180 → 1.164; shorter
//! series on other scenes moved both ways within this VM's noise (`benches/results/NOTES.md`).
//!
//! Every block runs exactly once. A front claim of block `f` succeeds only while `f + b < L`
//! and a back claim of block `L − 1 − b` only while `f + b < L`, for the `(f, b)` it saw; both
//! counts only grow, so whichever claim came second saw the other's count already raised, and
//! the two indices cannot meet. Every worker visits every segment before it reports.
//!
//! **Why a cursor per segment, and one completion add per worker.** Claims are the only
//! writes the threads share inside a stage, and writing a line another core holds costs the
//! line's trip between the cores. With a claim flag per block (a stage's flags side by side on
//! one line) and a completion increment per block, two workers paid two such trips per block:
//! in a two-worker profile of `large_pyramid`, whose blocks are about ten bundles, those two
//! instructions took about a tenth of the step. Now a worker's own claims write a line no
//! other thread writes until the worker runs dry, and it reports its blocks with one add.
//!
//! A boundary costs one store the workers observe and one counter the orchestrator polls: well
//! under a microsecond when the workers are spinning. A worker that falls behind skips straight to
//! the newest stage; the stages it missed were finished by the others. Waiting spins for a short
//! while and then yields its time slice (`workers::back_off`), so more workers than cores still
//! make progress.
//!
//! **Memory ordering.** A worker's writes in a stage are released by its `done` add; the
//! orchestrator acquires them when it sees the stage complete, and releases them again with
//! the next `current` store, which every worker acquires before claiming a block of the next
//! stage. So a stage sees everything its predecessors wrote.
//!
//! **Determinism.** The executor decides only *which thread* runs a block, never what a block
//! computes or which blocks exist: the block partition is the caller's (the solver derives it
//! from the scene's counts alone), and blocks of one stage must be independent. Results are
//! therefore the same for any number of workers. With one worker everything runs inline on
//! the caller, without tasks or atomics. A task no helper takes up (the helpers busy with
//! another job, or none there) is run by the caller after the last stage, and finds the step
//! finished.
//!
//! **Panics.** A panicking block must not leave the others waiting forever: a worker that
//! unwinds raises an abort flag the orchestrator checks while it waits, and the orchestrator
//! publishes `FINISHED` even when it unwinds itself. `run_with` then re-raises the panic on
//! the caller.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use workers::{SegmentClaims, back_off};

/// `current` before the first stage is published.
const NOT_STARTED: u32 = u32::MAX;
/// `current` once the step is over.
const FINISHED: u32 = u32::MAX - 1;

/// Told when each stage starts and finishes, on the orchestrating thread.
pub trait StageObserver {
    fn stage_started(&mut self, stage: usize);
    fn stage_finished(&mut self, stage: usize);
}

/// An observer that ignores everything.
impl StageObserver for () {
    fn stage_started(&mut self, _stage: usize) {}
    fn stage_finished(&mut self, _stage: usize) {}
}

/// The completion counter of one stage, on a cache line of its own, and where the stage's
/// segment cursors start.
#[repr(align(128))]
#[derive(Debug, Default)]
struct StageCounters {
    done_blocks: AtomicU32,
    block_count: u32,
    first_cursor: usize,
}

/// Runs stage lists; keeps its per-stage counters between steps so a step allocates nothing.
#[derive(Debug, Default)]
pub struct StagedExecutor {
    counters: Vec<StageCounters>,
    /// One cursor per worker's segment of every stage, stage after stage.
    cursors: Vec<SegmentClaims>,
}

/// What the threads of one run share.
struct Rendezvous<'a, F> {
    counters: &'a [StageCounters],
    cursors: &'a [SegmentClaims],
    workers: u32,
    current: AtomicU32,
    aborted: AtomicBool,
    run_block: &'a F,
}

impl StagedExecutor {
    /// Runs the stages whose block counts are `block_counts`, in order: `run_block(stage,
    /// block)` once for every block of every stage, with up to `workers` threads (at least
    /// one: the caller). Blocks of one stage may run in any order and concurrently; a stage
    /// starts after every block of the previous one has returned. `observer` hears each
    /// stage's start and end on the calling thread.
    pub fn run<F>(
        &mut self,
        workers: usize,
        block_counts: impl IntoIterator<Item = u32>,
        run_block: &F,
        observer: &mut impl StageObserver,
    ) where
        F: Fn(usize, u32) + Sync,
    {
        let workers = u32::try_from(workers).unwrap_or(u32::MAX);
        self.counters.clear();
        let mut cursors = 0usize;
        self.counters
            .extend(block_counts.into_iter().map(|block_count| {
                let first_cursor = cursors;
                cursors += workers as usize;
                StageCounters {
                    block_count,
                    first_cursor,
                    ..StageCounters::default()
                }
            }));
        if workers <= 1 {
            run_inline(&self.counters, run_block, observer);
            return;
        }
        self.cursors.clear();
        self.cursors.resize_with(cursors, SegmentClaims::default);
        let rendezvous = Rendezvous {
            counters: &self.counters,
            cursors: &self.cursors,
            workers,
            current: AtomicU32::new(NOT_STARTED),
            aborted: AtomicBool::new(false),
            run_block,
        };
        // Task `t` is worker `t + 1`; the caller orchestrates as worker 0.
        let work = |task: usize| rendezvous.work(task as u32 + 1);
        workers::run_with(workers as usize - 1, &work, || {
            rendezvous.orchestrate(observer)
        });
    }
}

/// One thread, no synchronisation.
fn run_inline<F: Fn(usize, u32)>(
    counters: &[StageCounters],
    run_block: &F,
    observer: &mut impl StageObserver,
) {
    for (stage, counter) in counters.iter().enumerate() {
        observer.stage_started(stage);
        for block in 0..counter.block_count {
            run_block(stage, block);
        }
        observer.stage_finished(stage);
    }
}

/// Publishes [`FINISHED`] when dropped, so workers stop even if the orchestrator unwinds.
struct FinishOnDrop<'a>(&'a AtomicU32);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(FINISHED, Ordering::Release);
    }
}

/// Raises the abort flag if dropped while its thread unwinds from a panicking block.
struct AbortOnUnwind<'a>(&'a AtomicBool);

impl Drop for AbortOnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

impl<F: Fn(usize, u32) + Sync> Rendezvous<'_, F> {
    /// The calling thread: publishes each stage, helps with it, and waits for it to finish.
    fn orchestrate(&self, observer: &mut impl StageObserver) {
        let _finish = FinishOnDrop(&self.current);
        let _abort = AbortOnUnwind(&self.aborted);
        for (stage, counter) in self.counters.iter().enumerate() {
            observer.stage_started(stage);
            self.current.store(stage as u32, Ordering::Release);
            self.run_blocks(stage, 0);
            let mut spins = 0;
            while counter.done_blocks.load(Ordering::Acquire) < counter.block_count {
                if self.aborted.load(Ordering::Acquire) {
                    return;
                }
                back_off(&mut spins);
            }
            observer.stage_finished(stage);
        }
    }

    /// Spawned worker `worker` (the orchestrator is worker 0): follows the published stage
    /// until the step is over.
    fn work(&self, worker: u32) {
        let _abort = AbortOnUnwind(&self.aborted);
        let mut seen = NOT_STARTED;
        loop {
            let mut spins = 0;
            let stage = loop {
                let current = self.current.load(Ordering::Acquire);
                if current != seen {
                    break current;
                }
                back_off(&mut spins);
            };
            if stage == FINISHED {
                return;
            }
            self.run_blocks(stage as usize, worker);
            seen = stage;
        }
    }

    /// Claims and runs blocks of `stage` for worker `worker` until none is left — its own
    /// segment from the front, then the others' in turn from the back (see the module notes)
    /// — and reports how many it ran with one add.
    fn run_blocks(&self, stage: usize, worker: u32) {
        if self.counters[stage].block_count == 0 {
            return;
        }
        let own = self.run_segment(stage, worker);
        let stolen: u32 = (1..self.workers)
            .map(|k| self.steal_from(stage, (worker + k) % self.workers))
            .sum();
        let ran = own + stolen;
        if ran > 0 {
            self.counters[stage]
                .done_blocks
                .fetch_add(ran, Ordering::Release);
        }
    }

    /// The first block, the length and the claim counter of `segment` of `stage`.
    #[inline]
    fn segment(&self, stage: usize, segment: u32) -> (u32, u64, &SegmentClaims) {
        let counter = &self.counters[stage];
        let (n, workers) = (u64::from(counter.block_count), u64::from(self.workers));
        let first = u64::from(segment) * n / workers;
        let len = (u64::from(segment) + 1) * n / workers - first;
        let claims = &self.cursors[counter.first_cursor + segment as usize];
        (first as u32, len, claims)
    }

    /// Runs the blocks of the owner's `segment` of `stage` that no thread has claimed yet,
    /// front to back, claiming each with one add; returns how many it ran.
    #[inline]
    fn run_segment(&self, stage: usize, segment: u32) -> u32 {
        let (first, len, claims) = self.segment(stage, segment);
        let mut ran = 0;
        while let Some(offset) = claims.claim_front(len) {
            // The offset is below `len`, a block count (`u32`).
            (self.run_block)(stage, first + offset as u32);
            ran += 1;
        }
        ran
    }

    /// Runs the blocks of another worker's `segment` of `stage` that no thread has claimed
    /// yet, back to front, claiming each with a compare-exchange; returns how many it ran.
    #[inline]
    fn steal_from(&self, stage: usize, segment: u32) -> u32 {
        let (first, len, claims) = self.segment(stage, segment);
        let mut ran = 0;
        while let Some(offset) = claims.claim_back(len) {
            (self.run_block)(stage, first + offset as u32);
            ran += 1;
        }
        ran
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records, per stage, how often each block ran, and checks at every block that the
    /// previous stage was complete when it started.
    struct Recorder {
        runs: Vec<Vec<AtomicU32>>,
        order_violations: AtomicU32,
    }

    impl Recorder {
        fn new(block_counts: &[u32]) -> Recorder {
            Recorder {
                runs: block_counts
                    .iter()
                    .map(|&n| (0..n).map(|_| AtomicU32::new(0)).collect())
                    .collect(),
                order_violations: AtomicU32::new(0),
            }
        }

        fn run(&self, stage: usize, block: u32) {
            let previous_complete = stage == 0
                || self.runs[stage - 1]
                    .iter()
                    .all(|r| r.load(Ordering::Acquire) == 1);
            let later_started = self.runs[stage + 1..]
                .iter()
                .flatten()
                .any(|r| r.load(Ordering::Acquire) != 0);
            if !previous_complete || later_started {
                self.order_violations.fetch_add(1, Ordering::Relaxed);
            }
            // A little work, so that several threads overlap within a stage.
            std::hint::black_box((0..200u32).sum::<u32>());
            self.runs[stage][block as usize].fetch_add(1, Ordering::Release);
        }
    }

    /// Collects the observer's calls.
    struct Log(Vec<(usize, bool)>);

    impl StageObserver for Log {
        fn stage_started(&mut self, stage: usize) {
            self.0.push((stage, true));
        }
        fn stage_finished(&mut self, stage: usize) {
            self.0.push((stage, false));
        }
    }

    fn block_counts() -> Vec<u32> {
        // Mixed sizes, including empty stages and single-block (serial) ones.
        (0..300u32)
            .map(|s| [0, 1, 3, 17, 64][s as usize % 5])
            .collect()
    }

    #[test]
    fn every_block_runs_once_in_stage_order_for_1_to_4_workers() {
        let counts = block_counts();
        let threads = workers::Workers::new(4).unwrap();
        let mut executor = StagedExecutor::default();
        for workers in 1..=4 {
            for _ in 0..3 {
                let recorder = Recorder::new(&counts);
                let mut log = Log(Vec::new());
                threads.install(|| {
                    executor.run(
                        workers,
                        counts.iter().copied(),
                        &|s, b| recorder.run(s, b),
                        &mut log,
                    )
                });
                assert_eq!(recorder.order_violations.load(Ordering::Relaxed), 0);
                for (stage, runs) in recorder.runs.iter().enumerate() {
                    for (block, r) in runs.iter().enumerate() {
                        let n = r.load(Ordering::Relaxed);
                        assert_eq!(
                            n, 1,
                            "workers {workers}: stage {stage} block {block} ran {n}×"
                        );
                    }
                }
                let expected: Vec<(usize, bool)> = (0..counts.len())
                    .flat_map(|s| [(s, true), (s, false)])
                    .collect();
                assert_eq!(log.0, expected);
            }
        }
    }

    /// A block runner the claim tests can name.
    type RunBlock<'a> = &'a (dyn Fn(usize, u32) + Sync);

    /// Runs `claims` on the calling thread alone against one stage of `blocks` blocks cut
    /// into two segments, and returns the blocks in the order they ran.
    fn claim_order(blocks: u32, claims: impl FnOnce(&Rendezvous<'_, RunBlock<'_>>)) -> Vec<u32> {
        let ran = Mutex::new(Vec::new());
        let push = |_: usize, block: u32| ran.lock().unwrap().push(block);
        let record: RunBlock<'_> = &push;
        let counters = [StageCounters {
            block_count: blocks,
            ..StageCounters::default()
        }];
        let cursors = [SegmentClaims::default(), SegmentClaims::default()];
        let rendezvous = Rendezvous {
            counters: &counters,
            cursors: &cursors,
            workers: 2,
            current: AtomicU32::new(0),
            aborted: AtomicBool::new(false),
            run_block: &record,
        };
        claims(&rendezvous);
        ran.into_inner().unwrap()
    }

    #[test]
    fn a_worker_takes_its_own_segment_from_the_front_and_others_from_the_back() {
        assert_eq!(
            claim_order(10, |r| r.run_blocks(0, 0)),
            [0, 1, 2, 3, 4, 9, 8, 7, 6, 5]
        );
        assert_eq!(
            claim_order(11, |r| r.run_blocks(0, 1)),
            [5, 6, 7, 8, 9, 10, 4, 3, 2, 1, 0]
        );
    }

    #[test]
    fn front_and_back_claims_of_one_segment_never_meet() {
        // Segment 1 of 10 blocks is 5..10. Its owner has claimed two blocks from the front
        // (5 and 6, run elsewhere); a thief then takes the rest from the back, and the owner,
        // coming back, finds nothing left.
        let order = claim_order(10, |r| {
            assert_eq!(r.cursors[1].claim_front(5), Some(0));
            assert_eq!(r.cursors[1].claim_front(5), Some(1));
            assert_eq!(r.steal_from(0, 1), 3);
            assert_eq!(r.run_segment(0, 1), 0);
        });
        assert_eq!(order, [9, 8, 7]);
        // The other way round: a thief took two from the back (9 and 8), the owner the rest.
        let order = claim_order(10, |r| {
            assert_eq!(r.cursors[1].claim_back(5), Some(4));
            assert_eq!(r.cursors[1].claim_back(5), Some(3));
            assert_eq!(r.run_segment(0, 1), 3);
            assert_eq!(r.steal_from(0, 1), 0);
        });
        assert_eq!(order, [5, 6, 7]);
    }

    #[test]
    fn more_workers_than_threads_still_finish() {
        // The caller's workers may be fewer than the executor's: tasks that no helper takes up
        // are run by the caller after the last stage and find the step finished.
        let counts = block_counts();
        let recorder = Recorder::new(&counts);
        let workers = workers::Workers::new(2).unwrap();
        workers.install(|| {
            StagedExecutor::default().run(
                6,
                counts.iter().copied(),
                &|s, b| recorder.run(s, b),
                &mut (),
            )
        });
        let total: u32 = recorder
            .runs
            .iter()
            .flatten()
            .map(|r| r.load(Ordering::Relaxed))
            .sum();
        assert_eq!(total, counts.iter().sum::<u32>());
        assert_eq!(recorder.order_violations.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_panicking_block_is_reported_not_deadlocked() {
        let ran_after = Mutex::new(Vec::new());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            StagedExecutor::default().run(
                2,
                [8, 8, 8],
                &|s, b| {
                    if s == 1 && b == 5 {
                        panic!("block failed");
                    }
                    if s == 2 {
                        ran_after.lock().unwrap().push(b);
                    }
                },
                &mut (),
            )
        }));
        assert!(result.is_err());
        assert!(ran_after.lock().unwrap().is_empty());
    }
}
