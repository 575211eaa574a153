//! Shrinking a failing case: delete ops while it still fails.
//!
//! Ops name objects by index modulo the live ones (`ops.rs`), so any subsequence of a case is
//! itself a case. The shrinker removes chunks — halves, then quarters, down to single ops —
//! keeping every removal after which the case still fails (Zeller's delta debugging, in its
//! simple one-sided form), within a bounded number of runs.

use crate::driver::{Case, Failure};

/// The most runs a shrink may take.
const MAX_RUNS: usize = 4000;

/// The shortest case found that still satisfies `fails`.
pub fn shrink(case: &Case, fails: impl Fn(&Case) -> bool) -> Case {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut best = case.clone();
    let mut runs = 0;
    let mut chunk = best.ops.len().div_ceil(2);
    while chunk >= 1 && runs < MAX_RUNS {
        let mut start = 0;
        while start < best.ops.len() && runs < MAX_RUNS {
            let mut candidate = best.clone();
            let end = (start + chunk).min(candidate.ops.len());
            candidate.ops.drain(start..end);
            runs += 1;
            if fails(&candidate) {
                best = candidate;
            } else {
                start += chunk;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    std::panic::set_hook(quiet);
    best
}

/// The ops of a case, one per line, numbered.
pub fn listing(case: &Case) -> String {
    case.ops
        .iter()
        .enumerate()
        .map(|(i, op)| format!("{i:4}: {op:?}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The failure report: the seed, the original failure, and the shrunk case with its failure.
pub fn describe(
    case: &Case,
    workers: u32,
    failure: &Failure,
    small: &Case,
    small_failure: Option<&Failure>,
) -> String {
    format!(
        "fuzz failure, seed {seed} ({workers} workers, {settings:?}): op {op}: {message}\n\
         reproduce: PRISM_FUZZ_SEED={seed} cargo test -p prism --profile ci --features validate \
         --test fuzz\n\
         shrunk to {count} ops, failing at op {small_op:?}: {small_message:?}\n{listing}",
        seed = case.seed,
        settings = case.settings,
        op = failure.op,
        message = failure.message,
        count = small.ops.len(),
        small_op = small_failure.map(|f| f.op),
        small_message = small_failure.map(|f| f.message.clone()),
        listing = listing(small),
    )
}
