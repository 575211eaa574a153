//! Model-based fuzzing of the World's API: random call sequences against a reference model.
//!
//! A seed stands for a case: world settings and 500 generated ops
//! (`ops.rs`) — bodies of every type created and destroyed; circles, capsules, segments,
//! polygons (from hulls, from the box helpers, and hand-built ones that are broken) and
//! chains; joints of all seven kinds; every body, joint and world setter; wake and sleep
//! calls; ray casts, box overlaps, contact and mass-ratio queries; reads of live and stale
//! ids; steps of 0 to 1/30 s; now and then a rollback (snapshot, step, restore the snapshot,
//! the same step again: it must end on the same bytes). A sixteenth of the ids are stale. In three cases out of four, a
//! quarter of the calls are *dirty*: their numbers may be NaN, infinite, 10³⁰, subnormal or of
//! the wrong sign. The fourth case is *clean*: no dirty call at all.
//!
//! A world that accepted an extreme value (finite but beyond 10⁶, or subnormal: a body at
//! 3·10³⁸ m, a mass of `f32::MAX`) is *tainted*: its steps may diverge (reported, bodies
//! reset), a query against its extreme geometry may round differently from the brute force,
//! and a body may hold an overflowed velocity between a call and the step that resets it. In
//! a world that never accepted one (every clean case, and the dirty cases up to their first
//! accepted extreme value) all of this is a failure. A step that diverges there, or flings a
//! body beyond 10⁶ m or m/s, breaks no contract (the bodies are reset and reported) but shows
//! a weakness of the solver: it is counted in the statistics with the first seed that showed
//! it, and the world counts as tainted from then on.
//!
//! Each case runs on a world with 1 to 4 workers (`1 + seed % 4`); the cases that run on 3
//! workers are run again on 1, and the two runs must agree bitwise on every body after every
//! step (and on every call's outcome).
//!
//! Environment:
//!
//! - `PRISM_FUZZ_CALLS` — the budget (default 1 000 000 calls with `validate`, 100 000
//!   without);
//!   the long run is `PRISM_FUZZ_CALLS=10000000`;
//! - `PRISM_FUZZ_FIRST_SEED` — the first seed (default 0); seeds follow one another;
//! - `PRISM_FUZZ_SEED` — run only this seed (to reproduce a failure);
//! - `PRISM_FUZZ_OPS` — ops per case (default 500);
//! - `PRISM_FUZZ_VERBOSE` — print every op as it runs (with `PRISM_FUZZ_SEED`).
//!
//! A failure is shrunk (`shrink.rs`) to a short sequence of ops that still fails, printed with
//! the seed. Each failure found so far has a regression test in `regressions.rs`, written as
//! plain API calls.

mod driver;
mod fingerprint;
mod model;
mod ops;
mod regressions;
mod shrink;
mod values;

use driver::{Case, Stats, generate, run};
use std::time::Instant;

/// The calls to make when `PRISM_FUZZ_CALLS` is not set: about 45 s on one core of the CI
/// machine with the `validate` feature, a tenth of that (a few seconds) without it.
const DEFAULT_BUDGET: u64 = if cfg!(feature = "validate") {
    1_000_000
} else {
    100_000
};

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, got {value:?}")),
    )
}

/// The worker count a seed's case runs with.
fn workers_of(seed: u64) -> u32 {
    1 + (seed % 4) as u32
}

/// Runs one case (and its single-worker twin for 3-worker cases); on failure shrinks it and
/// panics with the reproduction.
fn check_case(case: &Case) -> Stats {
    let workers = workers_of(case.seed);
    let report = match run(case, workers) {
        Ok(report) => report,
        Err(failure) => {
            let class = failure.class().to_string();
            let same_kind = |c: &Case| run(c, workers).is_err_and(|f| f.class() == class);
            let small = shrink::shrink(case, same_kind);
            let failure_small = run(&small, workers).err();
            panic!(
                "{}",
                shrink::describe(case, workers, &failure, &small, failure_small.as_ref())
            );
        }
    };
    if workers == 3 {
        let twin = match run(case, 1) {
            Ok(twin) => twin,
            Err(failure) => panic!(
                "seed {}: the 1-worker twin failed at op {} but the 3-worker run did not: {}",
                case.seed, failure.op, failure.message
            ),
        };
        if twin.trace != report.trace {
            let differ = |c: &Case| match (run(c, 3), run(c, 1)) {
                (Ok(a), Ok(b)) => a.trace != b.trace,
                _ => false,
            };
            let small = shrink::shrink(case, differ);
            panic!(
                "seed {}: 1 and 3 workers differ (first at trace entry {:?})\nshrunk to {} ops:\n{}",
                case.seed,
                report
                    .trace
                    .iter()
                    .zip(&twin.trace)
                    .position(|(a, b)| a != b),
                small.ops.len(),
                shrink::listing(&small)
            );
        }
    }
    report.stats
}

/// The budgeted fuzz run (see the module notes).
#[test]
fn random_call_sequences_agree_with_the_model() {
    let op_count = env_number("PRISM_FUZZ_OPS").unwrap_or(500) as usize;
    if let Some(seed) = env_number("PRISM_FUZZ_SEED") {
        let stats = check_case(&generate(seed, op_count));
        println!("seed {seed}: {stats:?}");
        return;
    }
    let budget = env_number("PRISM_FUZZ_CALLS").unwrap_or(DEFAULT_BUDGET);
    let first = env_number("PRISM_FUZZ_FIRST_SEED").unwrap_or(0);
    let start = Instant::now();
    let mut total = Stats::default();
    let mut seed = first;
    let mut next_report = 1_000_000;
    while total.calls < budget {
        let stats = check_case(&generate(seed, op_count));
        total.add(&stats);
        seed += 1;
        if total.calls >= next_report {
            eprintln!(
                "fuzz: {} calls, seeds {first}..{seed}, {:.0} s",
                total.calls,
                start.elapsed().as_secs_f64()
            );
            next_report += 1_000_000;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "fuzz: {} calls in {} cases (seeds {first}..{seed}) in {seconds:.1} s ({:.0} calls/s), \
         validate {}",
        total.calls,
        seed - first,
        total.calls as f64 / seconds,
        cfg!(feature = "validate"),
    );
    println!("fuzz: {total:?}");
    assert!(total.calls >= budget);
    assert!(total.refused > 0 && total.accepted > 0, "{total:?}");
    assert!(total.steps > 0 && total.most_contacts > 0, "{total:?}");
}
