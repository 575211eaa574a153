//! # scenes — canonical scenes shared by tests, benchmarks and tools
//!
//! Four kinds of scene live here:
//!
//! - **Benchmark scenes** ([`description`]): Box2D v3's eight benchmark scenes (its benchmark
//!   definitions, release sizes) described once as engine-neutral data — bodies, shapes,
//!   joints, and a script for scenes that change while they run. Prism builds them through
//!   [`prism_build`]; prism-bench's Box2D and Rapier backends build the very same data, so a
//!   comparison can never be between two drifting copies of a scene. Beside those eight, the
//!   description holds the sleeping field (1,000 pyramids created asleep beside 10 bouncing
//!   boxes) and its baseline (the bouncing boxes alone), which measure what resting bodies
//!   cost.
//! - **Scale scenes** (also [`description`], see [`description::scale`]): bins of 10,000
//!   falling boxes, one, ten or a hundred of them (10 thousand to a million bodies), built
//!   the same way, to measure how step time and memory grow with the body count.
//! - **Described validation scenes** (also [`description`]): small engine-neutral scenes that
//!   compare the engines' quality rather than their speed — columns of boxes and boards, a
//!   house of cards, a heavy box on a light one, pendulums on a distance and a revolute joint.
//!   Each names its subject bodies and the check to make on them; [`figures`] computes the
//!   check's figures from the subjects' poses over the run, the same code for every engine.
//! - **Prism validation scenes**: small Prism worlds with a known answer (a resting box, a
//!   pyramid, a box on an incline, a bouncing ball, a line of dominoes, ragdolls, chains),
//!   used by tests and quick looks.
//!
//! All but the scale scenes are reachable by name through [`SCENES`] (the scale scenes, too
//! large for the tests that walk that list, only through [`description::find_scene`]):
//! [`SceneInfo`] says how long a scene runs and
//! with which settings, and [`build`] returns the world with the [`Probes`] a benchmark or test
//! needs to judge quality (the top box of each pyramid and where it started, the subjects).
//!
//! ```text
//!   description::SceneSpec ──► BodyGroup ──┬─► prism_build ──► prism::World
//!                          └─► Probes      └─► prism-bench: Box2D, Rapier
//!   subjects' poses, step by step ──► figures::Trace ──► Check::evaluate ──► Figures
//!   build("large_pyramid", workers) ──► Scene { world, info, probes }
//! ```

#![forbid(unsafe_code)]

pub mod description;
pub mod figures;
#[cfg(test)]
mod fingerprint;
mod joints;
pub mod prism_build;
mod validation;

pub use joints::{chain_bridge, heavy_chain, ragdoll_pile};
pub use validation::{bouncing_ball, dominoes, incline, pyramid, resting_box};

use prism::{BodyId, PrismError, World, WorldDef};

/// Fills a world with a scene's bodies and returns what to watch.
pub type Builder = fn(&mut World) -> Result<Probes, PrismError>;

/// How a scene is run.
#[derive(Clone, Copy, Debug)]
pub struct SceneInfo {
    /// The scene's name (as on prism-bench's command line).
    pub name: &'static str,
    /// The number of steps of a full run (Box2D's benchmark step count for benchmark scenes).
    pub steps: u32,
    /// Whether the scene runs with sleeping enabled (as Box2D's benchmark runs them, for benchmark scenes).
    pub enable_sleep: bool,
    /// Whether it is one of the described benchmark scenes (as opposed to a validation scene).
    pub benchmark: bool,
    /// Fills the world.
    pub builder: Builder,
}

/// Bodies a scene marks for quality checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Probes {
    /// The top box of each pyramid and its starting height (m).
    pub pyramid_tops: Vec<(BodyId, f32)>,
    /// The bodies a validation scene is about (the resting box, the ball, the sliding box, the
    /// dominoes in order; a described validation scene's subjects in its check's order; a
    /// motor scene's motor body).
    pub subjects: Vec<BodyId>,
}

/// A built scene: the world, how to run it, and what to watch.
pub struct Scene {
    /// The world with the scene's bodies, ready to step.
    pub world: World,
    /// Step count, sleep setting and name.
    pub info: SceneInfo,
    /// The bodies whose motion the scene's figures look at.
    pub probes: Probes,
}

/// Every scene this crate can build, benchmark scenes first.
pub const SCENES: &[SceneInfo] = &[
    info("large_pyramid", 500, false, true, |w| {
        described(w, "large_pyramid")
    }),
    info("many_pyramids", 200, false, true, |w| {
        described(w, "many_pyramids")
    }),
    info("joint_grid", 500, false, true, |w| {
        described(w, "joint_grid")
    }),
    info("smash", 300, true, true, |w| described(w, "smash")),
    info("spinner", 500, true, true, |w| described(w, "spinner")),
    info("tumbler", 750, true, true, |w| described(w, "tumbler")),
    info("compounds", 500, true, true, |w| described(w, "compounds")),
    info("resting_box", 120, false, false, resting_box),
    info("pyramid", 600, false, false, |w| pyramid(w, 20)),
    info("incline", 120, false, false, |w| {
        incline(w, 30f32.to_radians(), 0.7)
    }),
    info("bouncing_ball", 180, false, false, |w| {
        bouncing_ball(w, 2.0, 0.5)
    }),
    info("dominoes", 300, false, false, |w| dominoes(w, 20)),
    info("sleeping_field", 600, true, true, |w| {
        described(w, "sleeping_field")
    }),
    info("ragdoll_pile", 600, true, false, ragdoll_pile),
    info("chain_bridge", 600, true, false, chain_bridge),
    info("heavy_chain", 600, true, false, heavy_chain),
    info("sleeping_field_baseline", 600, true, true, |w| {
        described(w, "sleeping_field_baseline")
    }),
    info("column_10", 1200, false, false, |w| {
        described(w, "column_10")
    }),
    info("column_20", 1200, false, false, |w| {
        described(w, "column_20")
    }),
    info("column_30", 1200, false, false, |w| {
        described(w, "column_30")
    }),
    info("boards_30", 1200, false, false, |w| {
        described(w, "boards_30")
    }),
    info("uneven_20", 1200, false, false, |w| {
        described(w, "uneven_20")
    }),
    info("uneven_30", 1200, false, false, |w| {
        described(w, "uneven_30")
    }),
    info("card_lean", 600, false, false, |w| {
        described(w, "card_lean")
    }),
    info("heavy_on_light_100", 300, false, false, |w| {
        described(w, "heavy_on_light_100")
    }),
    info("heavy_on_light_1000", 300, false, false, |w| {
        described(w, "heavy_on_light_1000")
    }),
    info("pendulum_distance", 2400, false, false, |w| {
        described(w, "pendulum_distance")
    }),
    info("pendulum_revolute", 2400, false, false, |w| {
        described(w, "pendulum_revolute")
    }),
];

const fn info(
    name: &'static str,
    steps: u32,
    enable_sleep: bool,
    benchmark: bool,
    builder: Builder,
) -> SceneInfo {
    SceneInfo {
        name,
        steps,
        enable_sleep,
        benchmark,
        builder,
    }
}

/// Looks up a scene by name.
pub fn scene_info(name: &str) -> Option<SceneInfo> {
    SCENES.iter().copied().find(|s| s.name == name)
}

/// The world settings a scene runs with: Box2D's benchmark method (its defaults, 60 Hz,
/// gravity (0, −10) unless the scene says otherwise), with the scene's sleep flag, continuous
/// collision off (the comparisons' default; the benchmark's `--continuous` turns it on) and
/// `workers` threads.
pub fn world_def(info: &SceneInfo, workers: u32) -> WorldDef {
    WorldDef {
        enable_sleep: info.enable_sleep,
        enable_continuous: false,
        worker_count: workers.max(1),
        ..WorldDef::default()
    }
}

/// Builds the named scene with `workers` threads; `None` if no scene has that name.
pub fn build(name: &str, workers: u32) -> Option<Result<Scene, PrismError>> {
    let info = scene_info(name)?;
    Some(build_with(info, world_def(&info, workers)))
}

/// Builds a scene with explicit world settings.
pub fn build_with(info: SceneInfo, def: WorldDef) -> Result<Scene, PrismError> {
    let mut world = World::new(def)?;
    let probes = (info.builder)(&mut world)?;
    Ok(Scene {
        world,
        info,
        probes,
    })
}

/// The time step every scene runs at (60 Hz) and the substep count (4).
pub const DT: f32 = 1.0 / 60.0;
/// Solver substeps per step for every scene (Box2D's default).
pub const SUBSTEPS: u32 = 4;

/// Builds the described scene `name` from its engine-neutral description (its gravity, its
/// bodies, its probes: a motor scene's motor body, a validation scene's subjects in order).
/// Rain is not offered here: it changes while it runs, which only prism-bench's runner
/// scripts.
fn described(world: &mut World, name: &str) -> Result<Probes, PrismError> {
    let Some(spec) = description::find_scene(name) else {
        return Err(PrismError::InvalidCount {
            field: "described scene",
            value: 0,
            requirement: "a scene of description::SCENES or VALIDATION_SCENES",
        });
    };
    world.set_gravity(spec.gravity)?;
    let (group, probes) = spec.build();
    let built = prism_build::insert_group(world, &group)?;
    let pyramid_tops = probes
        .top_boxes
        .iter()
        .map(|&i| (built.bodies[i], group.bodies[i].position.y))
        .collect();
    let subjects = probes.motor_body.iter().chain(&probes.subjects);
    Ok(Probes {
        pyramid_tops,
        subjects: subjects.map(|&i| built.bodies[i]).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry's described entries (benchmark and validation scenes) agree with the
    /// descriptions they build.
    #[test]
    fn described_entries_match_their_descriptions() {
        let described = description::SCENES
            .iter()
            .chain(&description::VALIDATION_SCENES);
        let mut found = 0;
        for spec in described.filter(|s| s.name != "rain") {
            let info = scene_info(spec.name).expect("registered");
            assert_eq!(info.steps as usize, spec.steps, "{}", info.name);
            assert_eq!(info.enable_sleep, spec.sleep_enabled, "{}", info.name);
            assert_eq!(info.benchmark, !spec.is_validation(), "{}", info.name);
            found += 1;
        }
        assert_eq!(found, 9 + 11);
    }

    /// Each validation scene builds in Prism with its bodies (the ground or pivot included),
    /// its joints, and its subjects in order.
    #[test]
    fn validation_scenes_build_in_prism() {
        let expected = [
            ("column_10", 11, 0),
            ("column_20", 21, 0),
            ("column_30", 31, 0),
            ("boards_30", 31, 0),
            ("uneven_20", 21, 0),
            ("uneven_30", 31, 0),
            ("card_lean", 8, 0),
            ("heavy_on_light_100", 3, 0),
            ("heavy_on_light_1000", 3, 0),
            ("pendulum_distance", 2, 1),
            ("pendulum_revolute", 2, 1),
        ];
        for (name, bodies, joints) in expected {
            let scene = build(name, 1).expect("known").expect("builds");
            assert_eq!(scene.world.counters().bodies, bodies, "{name}");
            assert_eq!(scene.world.joint_ids().len(), joints, "{name}");
            let spec = description::find_scene(name).unwrap();
            let (group, probes) = spec.build();
            assert_eq!(scene.probes.subjects.len(), probes.subjects.len(), "{name}");
            for (&id, &index) in scene.probes.subjects.iter().zip(&probes.subjects) {
                let desc = &group.bodies[index];
                let at = scene.world.position(id).unwrap();
                let angle = scene.world.rotation(id).unwrap().angle();
                assert!((at - desc.position).length() < 1e-6, "{name}: {at:?}");
                assert!((angle - desc.angle).abs() < 1e-6, "{name}: {angle}");
            }
        }
    }

    /// The distance pendulum's joint is a rigid rod in Prism: 0.5 s after its release at 150°
    /// the bob is still 1 m from the pivot, to within the soft joint's millimetre, and has
    /// swung down to about 108° (integrating θ̈ = −10 sin θ: 107.9°, so y = 2.308 m).
    #[test]
    fn distance_pendulum_keeps_its_length_in_prism() {
        let mut scene = build("pendulum_distance", 1)
            .expect("known")
            .expect("builds");
        let bob = scene.probes.subjects[0];
        for _ in 0..30 {
            scene.world.step(DT, SUBSTEPS).expect("steps");
        }
        let pivot = prism::Vec2::new(0.0, 2.0);
        let at = scene.world.position(bob).unwrap();
        assert!(((at - pivot).length() - 1.0).abs() < 1e-3, "{at:?}");
        assert!((at.y - 2.308).abs() < 0.02, "{at:?}");
    }

    #[test]
    fn large_pyramid_builds_with_its_top_box_probe() {
        let scene = build("large_pyramid", 1).expect("known").expect("builds");
        assert_eq!(scene.world.counters().bodies, 5051);
        assert_eq!(scene.probes.pyramid_tops.len(), 1);
        assert_eq!(scene.probes.pyramid_tops[0].1, 99.5);
    }

    /// The field's 10,000 pyramid boxes start asleep and stay asleep while the 10 bouncers keep
    /// moving. Created asleep, each box is its own sleeping island (as in Box2D): contacts
    /// between sleeping bodies are never evaluated, so nothing links them until one wakes.
    #[test]
    fn sleeping_field_stays_asleep_except_the_bouncers() {
        let mut scene = build("sleeping_field", 1).expect("known").expect("builds");
        let bouncers = description::sleeping_field::BOUNCERS;
        for _ in 0..60 {
            scene.world.step(DT, SUBSTEPS).expect("steps");
        }
        let counters = scene.world.counters();
        assert_eq!(counters.bodies, 10_000 + bouncers + 20 + 1);
        assert_eq!(counters.awake_bodies, bouncers);
        assert_eq!(counters.sleeping_sets, 10_000);
    }
}
