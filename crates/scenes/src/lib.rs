//! # scenes — canonical scenes shared by tests, benchmarks and tools
//!
//! Two kinds of scene live here:
//!
//! - **Benchmark scenes** ([`description`]): Box2D v3's eight benchmark
//!   scenes (its benchmark definitions, release sizes) described once as engine-neutral data — bodies,
//!   shapes, revolute joints, and a script for scenes that change while they run. Prism builds
//!   them through [`prism_build`]; prism-bench's Box2D and Rapier backends build the very same
//!   data, so a comparison can never be between two drifting copies of a scene. Beside
//!   those eight, the description holds the sleeping field (1,000 pyramids created
//!   asleep beside 10 bouncing boxes) and its baseline (the bouncing boxes alone), which
//!   measure what resting bodies cost.
//! - **Validation scenes**: small Prism worlds with a known answer (a resting box, a pyramid, a
//!   box on an incline, a bouncing ball, a line of dominoes), used by tests and quick looks.
//!
//! All are reachable by name through [`SCENES`]: [`SceneInfo`] says how long a scene runs and
//! with which settings, and [`build`] returns the world with the [`Probes`] a benchmark or test
//! needs to judge quality (the top box of each pyramid and where it started).
//!
//! ```text
//!   description::SceneSpec ──► BodyGroup ──┬─► prism_build ──► prism::World
//!                                          └─► prism-bench: Box2D, Rapier
//!   build("large_pyramid", workers) ──► Scene { world, info, probes }
//! ```

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
    /// dominoes in order).
    pub subjects: Vec<BodyId>,
}

/// A built scene: the world, how to run it, and what to watch.
pub struct Scene {
    pub world: World,
    pub info: SceneInfo,
    pub probes: Probes,
}

/// Every scene this crate can build, benchmark scenes first.
pub const SCENES: &[SceneInfo] = &[
    info("large_pyramid", 500, false, true, |w| {
        benchmark(w, "large_pyramid")
    }),
    info("many_pyramids", 200, false, true, |w| {
        benchmark(w, "many_pyramids")
    }),
    info("joint_grid", 500, false, true, |w| {
        benchmark(w, "joint_grid")
    }),
    info("smash", 300, true, true, |w| benchmark(w, "smash")),
    info("spinner", 500, true, true, |w| benchmark(w, "spinner")),
    info("tumbler", 750, true, true, |w| benchmark(w, "tumbler")),
    info("compounds", 500, true, true, |w| benchmark(w, "compounds")),
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
        benchmark(w, "sleeping_field")
    }),
    info("ragdoll_pile", 600, true, false, ragdoll_pile),
    info("chain_bridge", 600, true, false, chain_bridge),
    info("heavy_chain", 600, true, false, heavy_chain),
    info("sleeping_field_baseline", 600, true, true, |w| {
        benchmark(w, "sleeping_field_baseline")
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
/// collision off (Prism has none yet) and `workers` threads.
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
pub const SUBSTEPS: u32 = 4;

/// Builds the benchmark scene `name` from its engine-neutral description (its gravity, its
/// bodies, its probes). Rain is not offered here: it changes while it runs, which only
/// prism-bench's runner scripts.
fn benchmark(world: &mut World, name: &str) -> Result<Probes, PrismError> {
    let Some(spec) = description::find_scene(name) else {
        return Err(PrismError::InvalidCount {
            field: "benchmark scene",
            value: 0,
            requirement: "a scene of description::SCENES",
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
    Ok(Probes {
        pyramid_tops,
        subjects: probes
            .motor_body
            .map(|i| built.bodies[i])
            .into_iter()
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry's benchmark entries agree with the descriptions they build.
    #[test]
    fn benchmark_entries_match_their_descriptions() {
        for info in SCENES.iter().filter(|s| s.benchmark) {
            let spec = description::find_scene(info.name).expect("described");
            assert_eq!(info.steps as usize, spec.steps, "{}", info.name);
            assert_eq!(info.enable_sleep, spec.sleep_enabled, "{}", info.name);
        }
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
