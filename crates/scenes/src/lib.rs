//! # scenes — canonical scenes shared by tests, benchmarks and tools
//!
//! Each scene is a function that fills a fresh `prism::World`: the benchmark scenes exactly as
//! shared/BENCHMARKS.md specifies them (Box2D v3's benchmark definitions, release sizes), and
//! small validation scenes used to judge behaviour (a resting box, a pyramid, a box on an
//! incline, a bouncing ball, a line of dominoes).
//!
//! A scene is data plus a builder: [`SceneInfo`] says how long it runs and with which world
//! settings, and [`build`] returns the world together with the [`Probes`] a benchmark or test
//! needs to judge quality (which body is the top of each pyramid, and where it started).
//!
//! ```text
//!   build("large_pyramid", workers) ──► Scene { world, info, probes }
//!                                        │
//!         prism-bench / tests ◄──────────┘  step `info.steps` times, read probes
//! ```

mod benchmark;
mod validation;

pub use benchmark::{compounds, large_pyramid, many_pyramids, smash};
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
    /// Whether the scene runs with sleeping enabled (BENCHMARKS.md; stored in the world
    /// definition, honoured once the world sleeps).
    pub enable_sleep: bool,
    /// Whether it is one of BENCHMARKS.md's scenes (as opposed to a validation scene).
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
    info("large_pyramid", 500, false, true, large_pyramid),
    info("many_pyramids", 200, false, true, many_pyramids),
    info("smash", 300, true, true, smash),
    info("compounds", 500, true, true, compounds),
    info("resting_box", 120, false, false, resting_box),
    info("pyramid", 600, false, false, |w| pyramid(w, 20)),
    info("incline", 120, false, false, |w| {
        incline(w, 30f32.to_radians(), 0.7)
    }),
    info("bouncing_ball", 180, false, false, |w| {
        bouncing_ball(w, 2.0, 0.5)
    }),
    info("dominoes", 300, false, false, |w| dominoes(w, 20)),
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

/// The world settings a scene runs with: BENCHMARKS.md's method (Box2D's defaults, 60 Hz,
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
