//! The soak's figures: does memory, and does slot use, stop growing after the warm-up?
//!
//! **The rule.** The samples are split at the middle of the run. A series *holds steady* when
//! its largest value over the second half is at most its largest value over the first half
//! plus a tolerance; the first half holds the warm-up (the first pairs landing, the arrays
//! growing to the sizes the churn needs) and time to reach the run's typical highs. A leak of
//! anything per operation grows without bound and ends the second half above the first; a
//! world that has reached its working size does not.
//!
//! **Tolerances.** Slot indices are held to no tolerance at all: the churn keeps the numbers of
//! bodies, shapes and joints exactly constant (see [`crate::soak`](mod@crate::soak)), so a
//! world that reuses its slots never needs a new one. Island slots and bytes are allowed a little: how many islands
//! exist at once, and so how many contacts and how large the contact arrays grow, depends on
//! how the pairs happen to land, and the second half may see a slightly busier moment than the
//! first. Bytes get 2% of the first half's high plus 64 KiB (one more growth of a small array);
//! island slots get 5%.
//!
//! **Output.** A table of about twenty evenly spaced samples and one line per checked series,
//! or, with `--json`, one object per sample and a summary object.

use std::fmt::Write as _;

use crate::report::json_string;
use crate::soak::{SoakRun, SoakSample};

/// One checked series: its highs over the two halves and the verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    pub name: &'static str,
    pub first_half_max: f64,
    pub second_half_max: f64,
    /// The largest second-half value that still holds steady.
    pub limit: f64,
}

impl Growth {
    /// Whether the series kept within its first half's high (plus tolerance).
    pub fn holds(&self) -> bool {
        self.second_half_max <= self.limit
    }
}

/// Relative and absolute tolerance of one series.
struct Tolerance {
    relative: f64,
    absolute: f64,
}

const EXACT: Tolerance = Tolerance {
    relative: 0.0,
    absolute: 0.0,
};

/// The series the verdict checks, with how each is read from a sample.
type Series = (&'static str, fn(&SoakSample) -> f64, Tolerance);

fn checked_series() -> [Series; 5] {
    [
        (
            "bytes",
            |s| s.bytes as f64,
            Tolerance {
                relative: 0.02,
                absolute: 65_536.0,
            },
        ),
        ("body slots", |s| f64::from(s.body_slots), EXACT),
        ("shape slots", |s| f64::from(s.shape_slots), EXACT),
        ("joint slots", |s| f64::from(s.joint_slots), EXACT),
        (
            "island slots",
            |s| f64::from(s.island_slots),
            Tolerance {
                relative: 0.05,
                absolute: 0.0,
            },
        ),
    ]
}

/// The growth figures of every checked series; empty with fewer than two samples.
pub fn growth(samples: &[SoakSample]) -> Vec<Growth> {
    if samples.len() < 2 {
        return Vec::new();
    }
    let (first, second) = samples.split_at(samples.len() / 2);
    let high = |half: &[SoakSample], read: fn(&SoakSample) -> f64| {
        half.iter().map(read).fold(f64::NEG_INFINITY, f64::max)
    };
    checked_series()
        .into_iter()
        .map(|(name, read, tolerance)| {
            let first_half_max = high(first, read);
            Growth {
                name,
                first_half_max,
                second_half_max: high(second, read),
                limit: first_half_max * (1.0 + tolerance.relative) + tolerance.absolute,
            }
        })
        .collect()
}

/// Whether every checked series holds steady (false with too few samples to tell).
pub fn steady(growth: &[Growth]) -> bool {
    !growth.is_empty() && growth.iter().all(Growth::holds)
}

/// About `rows` samples, evenly spaced, always including the last.
fn spaced(samples: &[SoakSample], rows: usize) -> Vec<&SoakSample> {
    let stride = samples.len().div_ceil(rows.max(1)).max(1);
    let mut picked: Vec<&SoakSample> = samples.iter().step_by(stride).collect();
    if let Some(last) = samples.last()
        && picked.last().is_none_or(|p| p.step != last.step)
    {
        picked.push(last);
    }
    picked
}

/// The readable report: the sample table, then the verdict lines.
pub fn table(run: &SoakRun) -> String {
    let c = &run.config;
    let mut text = format!(
        "soak: {} steps, {} pairs, {} thread(s); {} rebuilds, {} rejoints, {} shape moves\n",
        c.steps, c.pairs, c.threads, run.rebuilds, run.rejoints, run.shape_moves
    );
    let _ = writeln!(
        text,
        "{:>9} {:>9} {:>6} {:>6} {:>6} {:>8} {:>6} {:>7} {:>8}  slots: {:>5} {:>5} {:>5} {:>5}",
        "step",
        "MB",
        "bodies",
        "shapes",
        "joints",
        "contacts",
        "awake",
        "islands",
        "sleeping",
        "body",
        "shape",
        "joint",
        "isl."
    );
    for s in spaced(&run.samples, 20) {
        let _ = writeln!(
            text,
            "{:>9} {:>9.3} {:>6} {:>6} {:>6} {:>8} {:>6} {:>7} {:>8}         {:>5} {:>5} {:>5} {:>5}",
            s.step,
            s.bytes as f64 / 1.0e6,
            s.bodies,
            s.shapes,
            s.joints,
            s.contacts,
            s.awake_bodies,
            s.islands,
            s.sleeping_sets,
            s.body_slots,
            s.shape_slots,
            s.joint_slots,
            s.island_slots
        );
    }
    let growth = growth(&run.samples);
    for g in &growth {
        let verdict = if g.holds() { "steady" } else { "GROWS" };
        let _ = writeln!(
            text,
            "{:<13} first half max {:>12.0}, second half max {:>12.0}, limit {:>12.0}: {verdict}",
            g.name, g.first_half_max, g.second_half_max, g.limit
        );
    }
    if run.diverged_steps > 0 {
        let _ = writeln!(
            text,
            "{} step(s) reported a diverged body",
            run.diverged_steps
        );
    }
    let _ = write!(
        text,
        "memory and slots stop growing after warm-up: {}",
        if steady(&growth) { "yes" } else { "NO" }
    );
    text
}

/// One JSON object per sample.
pub fn sample_json(s: &SoakSample) -> String {
    format!(
        "{{\"soak_sample\":{},\"bytes\":{},\"bodies\":{},\"shapes\":{},\"joints\":{},\
         \"contacts\":{},\"awake_bodies\":{},\"islands\":{},\"sleeping_sets\":{},\
         \"body_slots\":{},\"shape_slots\":{},\"joint_slots\":{},\"island_slots\":{}}}",
        s.step,
        s.bytes,
        s.bodies,
        s.shapes,
        s.joints,
        s.contacts,
        s.awake_bodies,
        s.islands,
        s.sleeping_sets,
        s.body_slots,
        s.shape_slots,
        s.joint_slots,
        s.island_slots
    )
}

/// The summary object: settings, operation counts, each series' highs, and the verdict.
pub fn summary_json(run: &SoakRun) -> String {
    let growth = growth(&run.samples);
    let series: Vec<String> = growth
        .iter()
        .map(|g| {
            format!(
                "{{\"series\":{},\"first_half_max\":{},\"second_half_max\":{},\"limit\":{},\
                 \"steady\":{}}}",
                json_string(g.name),
                g.first_half_max,
                g.second_half_max,
                g.limit,
                g.holds()
            )
        })
        .collect();
    let c = &run.config;
    format!(
        "{{\"soak\":{{\"steps\":{},\"pairs\":{},\"threads\":{},\"rebuilds\":{},\"rejoints\":{},\
         \"shape_moves\":{},\"diverged_steps\":{}}},\"growth\":[{}],\"steady\":{}}}",
        c.steps,
        c.pairs,
        c.threads,
        run.rebuilds,
        run.rejoints,
        run.shape_moves,
        run.diverged_steps,
        series.join(","),
        steady(&growth)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soak::SoakConfig;

    /// Samples whose bytes follow `bytes(i)` and whose slot counts are constant.
    fn samples(count: usize, bytes: impl Fn(usize) -> i64) -> Vec<SoakSample> {
        (0..count)
            .map(|i| SoakSample {
                step: 100 * (i + 1),
                bytes: bytes(i),
                body_slots: 401,
                shape_slots: 603,
                joint_slots: 200,
                island_slots: 180 + (i % 7) as u32,
                ..SoakSample::default()
            })
            .collect()
    }

    /// Memory that grows during the warm-up and then levels off holds steady.
    #[test]
    fn warm_up_then_level_holds() {
        let run = samples(100, |i| 1_000_000 + 10_000 * i.min(30) as i64);
        let growth = growth(&run);
        assert!(steady(&growth), "{growth:?}");
        assert_eq!(growth[0].first_half_max, 1_300_000.0);
        assert_eq!(growth[0].limit, 1_300_000.0 * 1.02 + 65_536.0);
    }

    /// A leak is caught once it outgrows the tolerance over half the run: 4 KB a sample over
    /// 100 samples ends 200 KB above the first half's high of a 1 MB world (the limit is 2%
    /// plus 64 KiB, about 89 KB, above it); 1 KB a sample (50 KB) is within the tolerance of so
    /// short a run.
    #[test]
    fn a_steady_leak_is_caught() {
        let small_leak = samples(100, |i| 1_000_000 + 1_000 * i as i64);
        assert!(steady(&growth(&small_leak)));
        let leak = samples(100, |i| 1_000_000 + 4_000 * i as i64);
        let growth = growth(&leak);
        assert!(!growth[0].holds() && !steady(&growth));
        assert_eq!(growth[0].second_half_max, 1_396_000.0);
        assert!(growth[1..].iter().all(Growth::holds));
    }

    /// One body slot more in the second half than in the first is growth: slots are exact.
    #[test]
    fn one_more_slot_is_growth() {
        let mut run = samples(10, |_| 1_000_000);
        run[9].body_slots += 1;
        let growth = growth(&run);
        let bodies = growth.iter().find(|g| g.name == "body slots").unwrap();
        assert!(!bodies.holds() && !steady(&growth));
    }

    #[test]
    fn too_few_samples_tell_nothing() {
        assert!(growth(&samples(1, |_| 0)).is_empty());
        assert!(!steady(&[]));
    }

    /// The table shows the last sample and the verdict; JSON carries every series.
    #[test]
    fn reports_show_samples_and_verdict() {
        let run = SoakRun {
            config: SoakConfig::standard(4100, 1),
            samples: samples(41, |_| 2_000_000),
            rebuilds: 1367,
            rejoints: 1367,
            shape_moves: 1366,
            diverged_steps: 0,
        };
        let text = table(&run);
        assert!(text.contains("     4100 "), "{text}");
        assert!(text.ends_with("after warm-up: yes"), "{text}");
        assert_eq!(text.matches("steady").count(), 5, "{text}");
        let json = summary_json(&run);
        assert!(json.contains("\"series\":\"island slots\""), "{json}");
        assert!(json.ends_with("\"steady\":true}"), "{json}");
        assert!(
            sample_json(&run.samples[0]).starts_with("{\"soak_sample\":100,\"bytes\":2000000,")
        );
    }
}
