//! The soak: a Prism world whose bodies, shapes and joints are created and destroyed
//! continuously, sleeping on, for as many steps as asked (a million for the real run), with
//! the world's live bytes and its counters sampled as it goes. [`crate::soak_report`] then
//! says whether memory and slot use stopped growing after the warm-up.
//!
//! **The world.** A static floor 160 m wide with a wall at each end, and `pairs` pairs of
//! bodies: a box and a ball, 0.6 m apart, joined by one joint (revolute, distance or weld),
//! with one small extra circle on one of the two bodies. Pairs are dropped from 5–15 m at
//! random places along the floor, so most land apart from one another and fall asleep on
//! their own, as separate islands; some land on others and wake them.
//!
//! **The churn**, one operation a step in turn, each on a pair picked at random:
//!
//! ```text
//!   step % 3 = 0   rebuild: destroy the pair's joint, then both bodies (with their shapes),
//!                  and create two new bodies, their shapes and a joint of the next kind,
//!                  somewhere else in the air
//!   step % 3 = 1   rejoint: destroy the pair's joint and join the bodies by the next kind
//!   step % 3 = 2   move the extra circle: destroy it and create it on the other body
//! ```
//!
//! Every operation destroys before it creates and puts back what it took, so after every step
//! the world holds exactly `2·pairs + 1` bodies, `3·pairs + 3` shapes and `pairs` joints. A
//! world that reuses its freed slots therefore never needs a slot index beyond those counts
//! (ids are only ever handed out up to the largest number alive at once); one that leaks slots
//! hands out ever larger indices. Destroying a sleeping body wakes its island, and new pairs
//! landing on sleeping ones wake them, so islands keep going to sleep and waking.
//!
//! **Sampling.** After every `interval`-th step: the counting allocator's live bytes less those
//! before the world was created and less the soak's own pair table (the sample list is
//! allocated before the world, at its full length, and nothing else of the soak's grows), the
//! world's counters, and the largest slot index handed out since the previous
//! sample for bodies, shapes and joints, and the largest island slot among live bodies.
//!
//! **Running it.** `cargo run -p prism-bench --release -- --soak 1000000` is the real run (a
//! million steps of the 200-pair world: about four minutes of one core); its unit test runs
//! 1,200 steps of 30 pairs, and `tests/memory.rs` checks a 6,000-step soak's bytes exactly.

use crate::alloc_count::live_bytes;
use crate::engine::{BenchError, vec_bytes};
use crate::progress::Progress;
use prism::{
    BodyDef, BodyId, Circle, DistanceJointDef, JointDef, JointId, PrismError, RevoluteJointDef,
    ShapeDef, ShapeId, Vec2, WeldJointDef, World, WorldDef, make_box, make_offset_box,
};
use scenes::description::{SUBSTEPS, TIME_STEP};

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoakConfig {
    pub steps: usize,
    /// Pairs of bodies alive at once.
    pub pairs: usize,
    pub threads: usize,
    /// Samples to take over the run (at most one per step).
    pub samples: usize,
}

impl SoakConfig {
    /// The soak's standard world (200 pairs: 401 bodies) over `steps` steps with `threads`
    /// workers, sampled a thousand times.
    pub fn standard(steps: usize, threads: usize) -> Self {
        Self {
            steps,
            pairs: 200,
            threads,
            samples: 1000,
        }
    }

    /// Steps between samples.
    pub fn interval(&self) -> usize {
        (self.steps / self.samples.max(1)).max(1)
    }
}

/// The world at one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoakSample {
    /// Steps taken so far.
    pub step: usize,
    /// Live bytes the world holds (counting allocator).
    pub bytes: i64,
    pub bodies: usize,
    pub shapes: usize,
    pub joints: usize,
    pub contacts: usize,
    pub awake_bodies: usize,
    pub islands: usize,
    pub sleeping_sets: usize,
    /// One more than the largest slot index handed out since the previous sample (0 if none).
    pub body_slots: u32,
    pub shape_slots: u32,
    pub joint_slots: u32,
    /// One more than the largest island slot among the live bodies now.
    pub island_slots: u32,
}

/// A whole soak: its settings, its samples, and how many of each operation it made.
#[derive(Clone, Debug, PartialEq)]
pub struct SoakRun {
    pub config: SoakConfig,
    pub samples: Vec<SoakSample>,
    pub rebuilds: usize,
    pub rejoints: usize,
    pub shape_moves: usize,
    /// Steps whose solve reported a diverged body.
    pub diverged_steps: usize,
}

/// One pair: its two bodies, its joint and kind, and its extra circle.
#[derive(Clone, Copy, Debug)]
struct Pair {
    bodies: [BodyId; 2],
    joint: JointId,
    kind: usize,
    extra: ShapeId,
    /// Which body (0 or 1) carries the extra circle.
    extra_on: usize,
}

/// Joint kinds in the order pairs cycle through them.
const JOINT_KINDS: usize = 3;
/// Half width of the floor (m); pairs land within ±(this − 5 m).
const FLOOR_HALF_WIDTH: f32 = 80.0;
/// Distance between a pair's two bodies (m).
const PAIR_GAP: f32 = 0.6;

/// A small deterministic random sequence (Marsaglia's xorshift64, then Vigna's `*` multiplier
/// on the output), so every soak makes the same calls.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// An index in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `[low, high)`.
    fn between(&mut self, low: f32, high: f32) -> f32 {
        let unit = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        low + (high - low) * unit
    }
}

/// The soak's world and its churn.
struct Churn {
    world: World,
    pairs: Vec<Pair>,
    random: Random,
    /// Largest slot index + 1 handed out since the last sample: bodies, shapes, joints.
    slots: [u32; 3],
}

fn prism_error(error: PrismError) -> BenchError {
    BenchError::new(format!("prism (soak): {error}"))
}

impl Churn {
    fn new(config: &SoakConfig) -> Result<Self, BenchError> {
        let worker_count = u32::try_from(config.threads)
            .map_err(|_| BenchError::new(format!("too many threads: {}", config.threads)))?;
        let def = WorldDef {
            enable_sleep: true,
            worker_count,
            ..WorldDef::default()
        };
        let mut churn = Self {
            world: World::new(def).map_err(prism_error)?,
            pairs: Vec::with_capacity(config.pairs),
            random: Random(0x9E37_79B9_7F4A_7C15),
            slots: [0; 3],
        };
        churn.create_container().map_err(prism_error)?;
        for _ in 0..config.pairs {
            let pair = churn.create_pair(0).map_err(prism_error)?;
            churn.pairs.push(pair);
        }
        Ok(churn)
    }

    fn note_body(&mut self, id: BodyId) -> BodyId {
        self.slots[0] = self.slots[0].max(id.index() + 1);
        id
    }

    fn note_shape(&mut self, id: ShapeId) -> ShapeId {
        self.slots[1] = self.slots[1].max(id.index() + 1);
        id
    }

    fn note_joint(&mut self, id: JointId) -> JointId {
        self.slots[2] = self.slots[2].max(id.index() + 1);
        id
    }

    /// The floor and two 10 m walls, as three shapes of one static body.
    fn create_container(&mut self) -> Result<(), PrismError> {
        let ground = self.world.create_body(&BodyDef::default())?;
        self.note_body(ground);
        let def = ShapeDef::default();
        let pieces = [
            (FLOOR_HALF_WIDTH, 0.5, Vec2::new(0.0, -0.5)),
            (0.5, 5.0, Vec2::new(-FLOOR_HALF_WIDTH - 0.5, 5.0)),
            (0.5, 5.0, Vec2::new(FLOOR_HALF_WIDTH + 0.5, 5.0)),
        ];
        for (hx, hy, centre) in pieces {
            let polygon = make_offset_box(hx, hy, centre, prism::Rot::IDENTITY)?;
            let shape = self.world.create_polygon_shape(ground, &def, &polygon)?;
            self.note_shape(shape);
        }
        Ok(())
    }

    /// A new pair in the air, joined by a joint of `kind`.
    fn create_pair(&mut self, kind: usize) -> Result<Pair, PrismError> {
        let x = self
            .random
            .between(5.0 - FLOOR_HALF_WIDTH, FLOOR_HALF_WIDTH - 5.0);
        let y = self.random.between(5.0, 15.0);
        let def = ShapeDef::default();
        let mut bodies = [BodyId::default(); 2];
        for (i, body) in bodies.iter_mut().enumerate() {
            let at = Vec2::new(x + PAIR_GAP * i as f32, y);
            *body = self.world.create_body(&BodyDef::dynamic_at(at))?;
            self.note_body(*body);
            let shape = if i == 0 {
                self.world
                    .create_polygon_shape(*body, &def, &make_box(0.2, 0.2)?)?
            } else {
                let ball = Circle {
                    center: Vec2::ZERO,
                    radius: 0.2,
                };
                self.world.create_circle_shape(*body, &def, &ball)?
            };
            self.note_shape(shape);
        }
        let extra_on = self.random.below(2);
        let extra = self.create_extra(bodies[extra_on])?;
        let joint = self.create_joint(bodies, kind)?;
        Ok(Pair {
            bodies,
            joint,
            kind,
            extra,
            extra_on,
        })
    }

    /// The small extra circle, off the body's centre.
    fn create_extra(&mut self, body: BodyId) -> Result<ShapeId, PrismError> {
        let circle = Circle {
            center: Vec2::new(0.0, 0.15),
            radius: 0.08,
        };
        let shape = self
            .world
            .create_circle_shape(body, &ShapeDef::default(), &circle)?;
        Ok(self.note_shape(shape))
    }

    /// A joint of `kind` (revolute, distance, weld) between the pair's bodies, anchored
    /// halfway between their current positions.
    fn create_joint(&mut self, bodies: [BodyId; 2], kind: usize) -> Result<JointId, PrismError> {
        let a = self.world.position(bodies[0])?;
        let b = self.world.position(bodies[1])?;
        let middle = 0.5 * (a + b);
        let base = self
            .world
            .anchored_joint_def(bodies[0], bodies[1], middle)?;
        let joint = match kind % JOINT_KINDS {
            0 => self
                .world
                .create_revolute_joint(&RevoluteJointDef::new(base))?,
            1 => {
                let mut def = DistanceJointDef::new(JointDef {
                    local_anchor_a: Vec2::ZERO,
                    local_anchor_b: Vec2::ZERO,
                    ..base
                });
                def.settings.length = (b - a).length().max(0.1);
                self.world.create_distance_joint(&def)?
            }
            _ => {
                let mut def = WeldJointDef::new(base);
                def.reference_angle = self.world.rotation(bodies[1])?.angle()
                    - self.world.rotation(bodies[0])?.angle();
                self.world.create_weld_joint(&def)?
            }
        };
        Ok(self.note_joint(joint))
    }

    fn rebuild(&mut self, index: usize) -> Result<(), PrismError> {
        let old = self.pairs[index];
        self.world.destroy_joint(old.joint)?;
        for body in old.bodies {
            self.world.destroy_body(body)?;
        }
        self.pairs[index] = self.create_pair(old.kind + 1)?;
        Ok(())
    }

    fn rejoint(&mut self, index: usize) -> Result<(), PrismError> {
        let pair = self.pairs[index];
        self.world.destroy_joint(pair.joint)?;
        let kind = pair.kind + 1;
        self.pairs[index].joint = self.create_joint(pair.bodies, kind)?;
        self.pairs[index].kind = kind;
        Ok(())
    }

    fn move_extra(&mut self, index: usize) -> Result<(), PrismError> {
        let pair = self.pairs[index];
        self.world.destroy_shape(pair.extra)?;
        let extra_on = 1 - pair.extra_on;
        self.pairs[index].extra = self.create_extra(pair.bodies[extra_on])?;
        self.pairs[index].extra_on = extra_on;
        Ok(())
    }

    /// The churn operation of `step` (see the module notes).
    fn churn(&mut self, step: usize, counts: &mut [usize; 3]) -> Result<(), PrismError> {
        let index = self.random.below(self.pairs.len());
        let operation = step % 3;
        match operation {
            0 => self.rebuild(index)?,
            1 => self.rejoint(index)?,
            _ => self.move_extra(index)?,
        }
        counts[operation] += 1;
        Ok(())
    }

    /// A sample after `step` steps; `live_before` is the live byte count before the world.
    /// The pair table is the soak's own, not the world's: its bytes are left out.
    fn sample(&mut self, step: usize, live_before: i64) -> Result<SoakSample, PrismError> {
        let own = i64::try_from(vec_bytes(&self.pairs)).unwrap_or(i64::MAX);
        let bytes = live_bytes() - live_before - own;
        let counters = self.world.counters();
        let mut island_slots = 0;
        for pair in &self.pairs {
            for &body in &pair.bodies {
                if let Some(island) = self.world.body_island(body)? {
                    island_slots = island_slots.max(island.index() + 1);
                }
            }
        }
        let [body_slots, shape_slots, joint_slots] = std::mem::take(&mut self.slots);
        Ok(SoakSample {
            step,
            bytes,
            bodies: counters.bodies,
            shapes: counters.shapes,
            joints: self.world.joint_ids().len(),
            contacts: counters.contacts,
            awake_bodies: counters.awake_bodies,
            islands: counters.islands,
            sleeping_sets: counters.sleeping_sets,
            body_slots,
            shape_slots,
            joint_slots,
            island_slots,
        })
    }
}

/// Runs the soak `config` describes, advancing `progress` once a step.
pub fn run_soak(config: SoakConfig, progress: &Progress) -> Result<SoakRun, BenchError> {
    if config.pairs == 0 || config.steps == 0 {
        return Err(BenchError::new(
            "a soak needs at least one pair and one step",
        ));
    }
    let interval = config.interval();
    let mut samples = Vec::with_capacity(config.steps / interval + 1);
    let mut counts = [0usize; 3];
    let mut diverged_steps = 0;
    let live_before = live_bytes();
    let mut churn = Churn::new(&config)?;
    for step in 0..config.steps {
        churn.churn(step, &mut counts).map_err(prism_error)?;
        if churn.world.step(TIME_STEP, SUBSTEPS as u32).is_err() {
            diverged_steps += 1;
        }
        if (step + 1) % interval == 0 {
            let sample = churn.sample(step + 1, live_before).map_err(prism_error)?;
            samples.push(sample);
        }
        progress.step();
    }
    let [rebuilds, rejoints, shape_moves] = counts;
    Ok(SoakRun {
        config,
        samples,
        rebuilds,
        rejoints,
        shape_moves,
        diverged_steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short soak keeps exactly the counts its design holds constant (2·pairs + 1 bodies,
    /// 3·pairs + 3 shapes, `pairs` joints) after every sampled step, never hands out a body,
    /// shape or joint slot beyond those counts, makes each operation a third of the steps,
    /// and puts some islands to sleep.
    #[test]
    fn a_short_soak_holds_its_counts_and_reuses_slots() {
        let config = SoakConfig {
            steps: 1200,
            pairs: 30,
            threads: 1,
            samples: 120,
        };
        let run = run_soak(config, &Progress::new(false, 0)).unwrap();
        assert_eq!(run.samples.len(), 120);
        let (bodies, shapes, joints) = (2 * 30 + 1, 3 * 30 + 3, 30);
        for sample in &run.samples {
            assert_eq!(
                (sample.bodies, sample.shapes, sample.joints),
                (bodies, shapes, joints),
                "{sample:?}"
            );
            assert!(sample.body_slots as usize <= bodies, "{sample:?}");
            assert!(sample.shape_slots as usize <= shapes, "{sample:?}");
            assert!(sample.joint_slots as usize <= joints, "{sample:?}");
        }
        assert_eq!(
            (run.rebuilds, run.rejoints, run.shape_moves),
            (400, 400, 400)
        );
        assert!(run.samples.iter().any(|s| s.sleeping_sets > 0));
        assert_eq!(run.diverged_steps, 0);
    }

    /// The random sequence stays within its ranges and covers them.
    #[test]
    fn random_numbers_stay_in_range() {
        let mut random = Random(12345);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[random.below(7)] = true;
            let x = random.between(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&x), "{x}");
        }
        assert!(seen.iter().all(|&s| s));
    }
}
