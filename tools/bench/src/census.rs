//! The contact census (`--census N`): what the contacts an engine tracks are, counted the
//! same way in every engine, every N steps of a scene.
//!
//! Engines count their contacts alike — every pair of shapes whose fat boxes overlap and whose
//! filters let them collide, touching or not — but two engines can reach different counts for
//! different reasons: looser fat boxes, pairs kept longer, bodies piled differently. The
//! census splits the count so the reason shows. It reads only what Box2D's public interface
//! tells about a body ([`BodyContacts`]: its contact count touching or not, its touching
//! contacts with the other body, whether it is awake), so every engine is split by the same
//! arithmetic:
//!
//! ```text
//!   static contacts          Σ over static bodies of their counts (the other side moves)
//!   moving–moving contacts   (Σ over moving bodies of their counts − static contacts) / 2
//!   touching ones            from the touching lists, each pair seen from both moving sides
//!                            counted once; split by whether the moving shape is a polygon,
//!                            whether the two bodies are in the same group, and whether the
//!                            moving bodies sleep
//!   not touching             the rest of each kind
//! ```
//!
//! A census run is not timed and prints one line per engine and sample step.

use crate::engine::{BenchError, BodyContacts, EngineFactory, EngineOptions, WorldSettings};
use crate::runner::PreparedScene;
use scenes::description::{GroupAction, MAIN_SLOT};
use std::collections::HashMap;

/// The contacts of one world at one moment, by kind (see the module notes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// The engine's own contact count (`Counters::contacts`).
    pub contacts: usize,
    /// Moving bodies awake and asleep.
    pub awake_bodies: usize,
    pub sleeping_bodies: usize,
    /// Contacts with a static body: all, touching through a moving capsule or other
    /// non-polygon, touching through a moving polygon, and touching a sleeping body.
    pub static_all: usize,
    pub static_touching_round: usize,
    pub static_touching_polygon: usize,
    pub static_touching_asleep: usize,
    /// Contacts between two moving bodies: all, touching within one group, touching across
    /// groups, and touching with both bodies asleep.
    pub moving_all: usize,
    pub moving_touching_same_group: usize,
    pub moving_touching_across_groups: usize,
    pub moving_touching_asleep: usize,
    /// Contact ends, touching or not, on awake and on sleeping moving bodies (a moving–moving
    /// contact has two ends, a static one one).
    pub ends_awake: usize,
    pub ends_asleep: usize,
}

impl Census {
    /// Counts `bodies`' contacts; `contacts` is the engine's own total.
    pub fn of(bodies: &[BodyContacts], contacts: usize) -> Census {
        let by_place: HashMap<(usize, usize), &BodyContacts> =
            bodies.iter().map(|b| (b.at, b)).collect();
        let mut census = Census {
            contacts,
            ..Census::default()
        };
        let mut moving_ends = 0;
        let mut moving_touching_ends = [0usize; 3];
        for body in bodies {
            if body.is_static {
                census.static_all += body.total;
                continue;
            }
            moving_ends += body.total;
            if body.awake {
                census.awake_bodies += 1;
                census.ends_awake += body.total;
            } else {
                census.sleeping_bodies += 1;
                census.ends_asleep += body.total;
            }
            for &(polygon, other_at) in &body.touching {
                let Some(other) = by_place.get(&other_at) else {
                    continue;
                };
                if other.is_static {
                    match polygon {
                        true => census.static_touching_polygon += 1,
                        false => census.static_touching_round += 1,
                    }
                    census.static_touching_asleep += usize::from(!body.awake);
                    continue;
                }
                let same_group = usize::from(other_at.0 == body.at.0);
                moving_touching_ends[0] += same_group;
                moving_touching_ends[1] += 1 - same_group;
                moving_touching_ends[2] += usize::from(!body.awake && !other.awake);
            }
        }
        census.moving_all = moving_ends.saturating_sub(census.static_all) / 2;
        census.moving_touching_same_group = moving_touching_ends[0] / 2;
        census.moving_touching_across_groups = moving_touching_ends[1] / 2;
        census.moving_touching_asleep = moving_touching_ends[2] / 2;
        census
    }

    fn static_touching(&self) -> usize {
        self.static_touching_round + self.static_touching_polygon
    }

    fn moving_touching(&self) -> usize {
        self.moving_touching_same_group + self.moving_touching_across_groups
    }
}

/// The header of [`line()`]'s table.
pub fn header() -> String {
    format!(
        "{:<8} {:>6} {:>8} {:>7} {:>7} | {:>7} {:>6} {:>6} {:>6} {:>7} | {:>7} {:>6} {:>6} {:>6} \
         {:>7} | {:>7} {:>7}",
        "engine",
        "step",
        "contacts",
        "awake",
        "asleep",
        "static",
        "t.rnd",
        "t.poly",
        "t.zzz",
        "apart",
        "moving",
        "t.same",
        "t.othr",
        "t.zzz",
        "apart",
        "ends.aw",
        "ends.zz"
    )
}

/// One census as a table line.
pub fn line(engine: &str, step: usize, census: &Census) -> String {
    let c = census;
    format!(
        "{engine:<8} {step:>6} {:>8} {:>7} {:>7} | {:>7} {:>6} {:>6} {:>6} {:>7} | {:>7} {:>6} \
         {:>6} {:>6} {:>7} | {:>7} {:>7}",
        c.contacts,
        c.awake_bodies,
        c.sleeping_bodies,
        c.static_all,
        c.static_touching_round,
        c.static_touching_polygon,
        c.static_touching_asleep,
        c.static_all - c.static_touching(),
        c.moving_all,
        c.moving_touching_same_group,
        c.moving_touching_across_groups,
        c.moving_touching_asleep,
        c.moving_all.saturating_sub(c.moving_touching()),
        c.ends_awake,
        c.ends_asleep
    )
}

/// Steps per bucket of group age in an [`AgeProfile`].
pub const AGE_BUCKET: usize = 20;

/// The contact ends of the groups a scene's script inserts, by the groups' age (steps since
/// insertion, in buckets of [`AGE_BUCKET`]), summed over the census samples: how many contacts
/// a group has at each age of its life, free of how many groups of each age the sampled steps
/// happened to hold. `ends[i]` and `groups[i]` are the sums for bucket `i`; each group's
/// bodies' contacts are counted by end, so a contact within the group counts twice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgeProfile {
    pub ends: Vec<usize>,
    pub asleep_ends: Vec<usize>,
    pub groups: Vec<usize>,
}

impl AgeProfile {
    fn add(&mut self, age: usize, ends: usize, asleep_ends: usize) {
        let bucket = age / AGE_BUCKET;
        if self.groups.len() <= bucket {
            self.ends.resize(bucket + 1, 0);
            self.asleep_ends.resize(bucket + 1, 0);
            self.groups.resize(bucket + 1, 0);
        }
        self.ends[bucket] += ends;
        self.asleep_ends[bucket] += asleep_ends;
        self.groups[bucket] += 1;
    }

    /// The mean contact ends, and those on sleeping bodies, of a group in bucket `bucket`.
    pub fn mean(&self, bucket: usize) -> Option<(f64, f64)> {
        let groups = *self.groups.get(bucket).filter(|&&n| n > 0)? as f64;
        Some((
            self.ends[bucket] as f64 / groups,
            self.asleep_ends[bucket] as f64 / groups,
        ))
    }
}

/// What a census run found: the census of every sampled step, and the age profile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CensusRun {
    pub samples: Vec<(usize, Census)>,
    pub ages: AgeProfile,
}

/// Runs `scene` for `steps` steps on one engine with one worker, and takes a census after
/// every `every`-th step and after the last.
pub fn run_census(
    factory: EngineFactory,
    scene: &PreparedScene,
    steps: usize,
    every: usize,
    options: EngineOptions,
) -> Result<CensusRun, BenchError> {
    let settings = WorldSettings::for_scene(&scene.spec, 1, options);
    let mut engine = factory(&settings)?;
    engine.insert_group(MAIN_SLOT, &scene.group)?;
    let mut script = scene.spec.script();
    let mut run = CensusRun::default();
    let mut inserted_at: HashMap<usize, usize> = HashMap::new();
    for step in 0..steps {
        for action in script.actions(step) {
            match action {
                GroupAction::Insert { slot, group } => {
                    engine.insert_group(slot, &group)?;
                    inserted_at.insert(slot, step);
                }
                GroupAction::Remove { slot } => {
                    engine.remove_group(slot);
                    inserted_at.remove(&slot);
                }
            }
        }
        engine.step();
        let done = step + 1;
        if done % every == 0 || done == steps {
            let bodies = engine
                .body_contacts()
                .ok_or_else(|| BenchError::new("this engine cannot take a contact census"))?;
            run.samples
                .push((done, Census::of(&bodies, engine.counters().contacts)));
            add_ages(&mut run.ages, &bodies, &inserted_at, step);
        }
    }
    Ok(run)
}

/// Adds every scripted group's contact ends at `step` to `ages`.
fn add_ages(
    ages: &mut AgeProfile,
    bodies: &[BodyContacts],
    inserted_at: &HashMap<usize, usize>,
    step: usize,
) {
    let mut by_slot: HashMap<usize, (usize, usize)> = HashMap::new();
    for body in bodies.iter().filter(|b| !b.is_static) {
        let ends = by_slot.entry(body.at.0).or_default();
        ends.0 += body.total;
        ends.1 += if body.awake { 0 } else { body.total };
    }
    let mut slots: Vec<_> = inserted_at.iter().collect();
    slots.sort_unstable();
    for (slot, &inserted) in slots {
        let (ends, asleep) = by_slot.get(slot).copied().unwrap_or_default();
        ages.add(step - inserted, ends, asleep);
    }
}

/// The mean engine contact count over the samples taken in the second half of a run of
/// `steps` steps, and how many samples that is: in a scene whose count swings as bodies land,
/// bounce and are replaced, a steadier figure than the count after the last step.
pub fn late_mean(samples: &[(usize, Census)], steps: usize) -> Option<(f64, usize)> {
    let late: Vec<usize> = samples
        .iter()
        .filter(|(step, _)| 2 * step > steps)
        .map(|(_, census)| census.contacts)
        .collect();
    let count = late.len();
    (count > 0).then(|| (late.iter().sum::<usize>() as f64 / count as f64, count))
}

/// The age profiles of several engines side by side, one line per age bucket.
pub fn age_table(runs: &[(&str, &AgeProfile)]) -> String {
    let mut out = format!("{:>9}", "age");
    for (name, _) in runs {
        out += &format!(" {:>12} {:>12}", format!("{name} ends"), "asleep");
    }
    let buckets = runs.iter().map(|(_, p)| p.groups.len()).max().unwrap_or(0);
    for bucket in 0..buckets {
        let (lo, hi) = (bucket * AGE_BUCKET, (bucket + 1) * AGE_BUCKET - 1);
        out += &format!("\n{:>9}", format!("{lo}-{hi}"));
        for (_, profile) in runs {
            match profile.mean(bucket) {
                Some((ends, asleep)) => out += &format!(" {ends:>12.1} {asleep:>12.1}"),
                None => out += &format!(" {:>12} {:>12}", "-", "-"),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(at: (usize, usize), is_static: bool, awake: bool, total: usize) -> BodyContacts {
        BodyContacts {
            at,
            is_static,
            awake,
            total,
            touching: Vec::new(),
        }
    }

    /// Ground G; bodies A, B in group 1 and C in group 2. Contacts: G–A touching (A's
    /// polygon), G–B apart, A–B touching, B–C apart; C asleep.
    #[test]
    fn census_splits_a_small_world_by_kind() {
        let ground = body((0, 0), true, false, 2);
        let mut a = body((1, 0), false, true, 2);
        let b = BodyContacts {
            touching: vec![(false, (1, 0))],
            ..body((1, 1), false, true, 3)
        };
        let c = body((2, 0), false, false, 1);
        a.touching = vec![(true, (0, 0)), (false, (1, 1))];
        let census = Census::of(&[ground, a, b, c], 4);
        assert_eq!(census.static_all, 2);
        assert_eq!(census.static_touching_polygon, 1);
        assert_eq!(census.static_touching_round, 0);
        assert_eq!(census.moving_all, 2);
        assert_eq!(census.moving_touching_same_group, 1);
        assert_eq!(census.moving_touching_across_groups, 0);
        assert_eq!((census.awake_bodies, census.sleeping_bodies), (2, 1));
        assert_eq!((census.ends_awake, census.ends_asleep), (5, 1));
    }

    /// The late mean takes only the samples after the run's midpoint.
    #[test]
    fn late_mean_averages_the_second_half() {
        let sample = |step, contacts| {
            let census = Census {
                contacts,
                ..Census::default()
            };
            (step, census)
        };
        let samples = [
            sample(25, 1000),
            sample(50, 7),
            sample(75, 10),
            sample(100, 20),
        ];
        assert_eq!(late_mean(&samples, 100), Some((15.0, 2)));
        assert_eq!(late_mean(&samples[..2], 100), None);
    }

    /// The age profile averages each bucket over the groups sampled in it.
    #[test]
    fn age_profile_means_per_bucket() {
        let mut ages = AgeProfile::default();
        ages.add(3, 10, 0);
        ages.add(AGE_BUCKET - 1, 30, 4);
        ages.add(2 * AGE_BUCKET, 5, 5);
        assert_eq!(ages.mean(0), Some((20.0, 2.0)));
        assert_eq!(ages.mean(1), None);
        assert_eq!(ages.mean(2), Some((5.0, 5.0)));
    }
}
