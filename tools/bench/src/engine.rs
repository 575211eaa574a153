//! The interface every physics backend implements, and the registry that maps an engine's
//! name to its constructor.
//!
//! A backend is a translator: it turns the engine-neutral scene data of [`scenes::description`]
//! into its own bodies, shapes and joints, steps its world, and answers a few questions the
//! quality figures need (deepest contact penetration now, a body's pose and velocity, how far
//! joint anchors have drifted from the distance they keep), and says where its memory is
//! counted ([`Memory`]). Everything else — which scene, how many steps, what is timed, how
//! results are printed — is the runner's job, so every backend is timed, and every validation
//! scene judged, by the same code.
//!
//! The Prism backend (`src/prism_engine.rs`) is always built; cargo feature `compare` brings
//! Box2D v3 (`boxdd-sys`) and Rapier (`rapier2d`). Asking for an engine that is not compiled in
//! is an error that names the feature to enable.

use std::fmt;

use scenes::description::{BodyGroup, SceneSpec, Vec2};

/// An error the benchmark reports to the user (and exits non-zero on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchError(pub String);

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BenchError {}

impl BenchError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

/// World-wide settings a backend needs before any body exists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSettings {
    pub gravity: Vec2,
    pub sleep_enabled: bool,
    /// Worker threads, including the calling thread (≥ 1).
    pub threads: usize,
    /// Continuous collision against static geometry, and for bullets against every body
    /// (Box2D's `enableContinuous`, Prism's `WorldDef::enable_continuous`). Off by default, as
    /// in the scenes; `--continuous` turns it on in every engine.
    pub continuous: bool,
    /// Contact recycling: reusing a touching pair's manifold while the two bodies have barely
    /// moved relative to each other, instead of colliding the shapes again. On by default in
    /// all three engines; off makes every engine collide every touching pair every step.
    pub contact_recycling: bool,
}

impl WorldSettings {
    /// The settings for `scene` (its gravity and sleep flag) with the run's options.
    pub fn for_scene(scene: &SceneSpec, threads: usize, options: EngineOptions) -> Self {
        Self {
            gravity: scene.gravity,
            sleep_enabled: scene.sleep_enabled,
            threads,
            continuous: options.continuous,
            contact_recycling: options.contact_recycling,
        }
    }
}

/// The engine switches a run sets from the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub continuous: bool,
    pub contact_recycling: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        Self {
            continuous: false,
            contact_recycling: true,
        }
    }
}

/// A body's state at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodySample {
    /// World position of the body's origin (m).
    pub position: Vec2,
    /// Rotation (rad).
    pub angle: f32,
    /// Velocity of the centre of mass (m/s).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
}

/// Size counters of a world at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Bodies, static ones included.
    pub bodies: usize,
    /// Shapes, a chain counted as its segments (Box2D's convention).
    pub shapes: usize,
    /// Contact pairs the engine tracks: pairs whose fattened bounding boxes overlap, touching
    /// or not (Box2D's `contactCount`; Rapier's narrow-phase contact pairs).
    pub contacts: usize,
    pub joints: usize,
}

/// One body's contacts at one moment, as the contact census (`census.rs`) reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyContacts {
    /// The body's group slot and its index in the group.
    pub at: (usize, usize),
    pub is_static: bool,
    /// Whether the body is in the engine's awake set (never for a static body).
    pub awake: bool,
    /// The body's contacts, touching or not (Box2D's `b2Body_GetContactCapacity`).
    pub total: usize,
    /// The touching ones: for each, whether this body's shape in it is a polygon, and the
    /// other body's group slot and index.
    pub touching: Vec<(bool, (usize, usize))>,
}

/// How an engine's memory is known (see [`Engine::memory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// The engine counts its own bytes: Box2D's `b2GetByteCount`, the sizes passed to its
    /// allocation function and not yet freed, less the count before this world was created.
    #[cfg_attr(not(feature = "compare"), allow(dead_code))]
    Counted(u64),
    /// The engine allocates through Rust's global allocator, so the counting allocator
    /// measures it (see `alloc_count`); `bookkeeping` bytes of that are the backend's own
    /// records (the ids of the groups it built), to be left out.
    GlobalAllocator { bookkeeping: usize },
}

/// Bytes a `Vec`'s buffer takes: its capacity times the element size, exactly what it asked
/// the allocator for.
pub fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// One physics backend holding one world.
pub trait Engine {
    /// Creates the bodies and joints of `group` and files them under `slot`. Fails if the
    /// slot is taken or the group cannot be represented by this engine.
    fn insert_group(&mut self, slot: usize, group: &BodyGroup) -> Result<(), BenchError>;

    /// Destroys the joints and bodies filed under `slot` (nothing if the slot is empty).
    fn remove_group(&mut self, slot: usize);

    /// Advances the world by one step of [`scenes::description::TIME_STEP`] with
    /// [`scenes::description::SUBSTEPS`] substeps. This call alone is timed.
    fn step(&mut self);

    fn counters(&self) -> Counters;

    /// The deepest penetration over all current contact points, metres (0 if none overlap).
    fn deepest_penetration(&mut self) -> f32;

    /// The pose and velocity of body `body` of the group in `slot`.
    fn body_sample(&self, slot: usize, body: usize) -> Option<BodySample>;

    /// The world position of body `body` of the group in `slot`.
    fn body_position(&self, slot: usize, body: usize) -> Option<Vec2> {
        self.body_sample(slot, body).map(|s| s.position)
    }

    /// The angular velocity of body `body` of the group in `slot`, rad/s.
    fn body_angular_velocity(&self, slot: usize, body: usize) -> Option<f32> {
        self.body_sample(slot, body).map(|s| s.angular_velocity)
    }

    /// The largest joint error over all joints, metres: how far the distance between a
    /// joint's two world anchors is from the distance the joint keeps (0 for a revolute joint,
    /// the length for a rigid distance joint; distance springs are left out, see
    /// `JointDesc::kept_distance`).
    fn max_joint_error(&self) -> f32;

    /// Where this engine's memory is counted, and the backend's own share of it.
    fn memory(&self) -> Memory;

    /// Every body's contacts, for the contact census (`--census`); `None` for an engine
    /// that cannot tell them.
    fn body_contacts(&self) -> Option<Vec<BodyContacts>> {
        None
    }

    /// Milliseconds spent so far in each phase and solver stage of the engine's steps, summed
    /// over every step taken (empty for engines that do not report them).
    fn phase_totals(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Builds an empty world for the given settings.
pub type EngineFactory = fn(&WorldSettings) -> Result<Box<dyn Engine>, BenchError>;

/// Engine names the CLI accepts.
pub const ENGINE_NAMES: [&str; 3] = ["prism", "box2d", "rapier"];

/// The constructor of engine `name`, or an error saying why it is unavailable.
pub fn engine_factory(name: &str) -> Result<EngineFactory, BenchError> {
    match name {
        "prism" => prism_factory(),
        "box2d" => box2d_factory(),
        "rapier" => rapier_factory(),
        other => Err(BenchError::new(format!(
            "unknown engine `{other}` (known: {})",
            ENGINE_NAMES.join(", ")
        ))),
    }
}

fn prism_factory() -> Result<EngineFactory, BenchError> {
    Ok(crate::prism_engine::create)
}

#[cfg(feature = "compare")]
fn box2d_factory() -> Result<EngineFactory, BenchError> {
    Ok(crate::box2d::create)
}

#[cfg(not(feature = "compare"))]
fn box2d_factory() -> Result<EngineFactory, BenchError> {
    Err(BenchError::new(
        "engine `box2d` is not compiled into this build: rebuild with `--features compare`",
    ))
}

#[cfg(feature = "compare")]
fn rapier_factory() -> Result<EngineFactory, BenchError> {
    Ok(crate::rapier::create)
}

#[cfg(not(feature = "compare"))]
fn rapier_factory() -> Result<EngineFactory, BenchError> {
    Err(BenchError::new(
        "engine `rapier` is not compiled into this build: rebuild with `--features compare`",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_engine_is_an_error_naming_the_known_ones() {
        let error = engine_factory("havok").err().unwrap();
        assert!(error.0.contains("havok") && error.0.contains("box2d"));
    }

    #[cfg(not(feature = "compare"))]
    #[test]
    fn comparison_engines_name_their_feature_when_missing() {
        for name in ["box2d", "rapier"] {
            let error = engine_factory(name).err().unwrap();
            assert!(error.0.contains("--features compare"), "{error}");
        }
    }
}
