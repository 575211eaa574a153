//! Scenes described once and engine-neutrally: the eight benchmark scenes of Box2D v3's
//! benchmark suite, the sleeping field with its baseline, the validation scenes (columns,
//! a card house, heavy-on-light, pendulums) whose quality figures compare engines, and the
//! scale family ([`scale`]: bins of falling boxes at 10 thousand to a million bodies).
//!
//! Every backend (Prism, Box2D, Rapier) builds the same scene from the same data, so a
//! difference in the numbers cannot come from two hand-written copies of a scene drifting
//! apart. A scene is:
//!
//! - a [`SceneSpec`] ([`scene`]): name, step count, gravity and whether sleeping is on;
//! - an initial [`BodyGroup`] ([`model`], [`joint`]): bodies (each with its shapes) and
//!   joints, joints naming bodies by their index inside the group;
//! - [`Probes`] ([`probes`]): which bodies the quality figures look at (the top box of each
//!   pyramid, the motor-driven body, a validation scene's subjects and the check to make on
//!   them, see [`crate::figures`]);
//! - a [`SceneScript`] ([`script`]) for scenes that change while they run (rain creates and
//!   destroys groups of humans every eighth step).
//!
//! Groups live in numbered *slots* of an engine: the initial group in [`MAIN_SLOT`], rain's
//! human groups in slots after it, so a script can remove and recreate one group by its slot.
//!
//! Each benchmark scene has its own file, with the facts of Box2D v3's benchmark definitions
//! (units: metres, kilograms, seconds, radians); the validation scenes are grouped by kind
//! (`column`, `card_lean`, `heavy_on_light`, `pendulum`), each file explaining what its
//! scenes test and how their figures are defined.

mod card_lean;
mod column;
mod compounds;
mod heavy_on_light;
pub mod joint;
mod joint_grid;
mod large_pyramid;
mod many_pyramids;
pub mod model;
mod pendulum;
pub mod probes;
mod rain;
pub mod scale;
pub mod scene;
pub mod script;
pub(crate) mod sleeping_field;
mod smash;
mod spinner;
mod tumbler;

pub use joint::{AngularSpring, DistanceDesc, JointDesc, LinearSpring, Motor, RevoluteDesc};
pub use model::{
    BodyDesc, BodyGroup, BodyKind, Filter, Geometry, ShapeDesc, flat_ground, offset_box, square_box,
};
pub use prism::Vec2;
pub use probes::Probes;
pub use rain::{RAIN_COLUMNS, RAIN_GROUP_SIZE, RAIN_ROWS, RainScript, rain_group};
pub use scene::{SCALE_SCENES, SCENES, SceneId, SceneSpec, VALIDATION_SCENES, find_scene};
pub use script::{GroupAction, SceneScript};

/// Time step of every scene: 60 Hz.
pub const TIME_STEP: f32 = 1.0 / 60.0;
/// Solver substeps per step (Box2D's default; Rapier's `num_solver_iterations`).
pub const SUBSTEPS: usize = 4;
/// The slot holding a scene's initial group.
pub const MAIN_SLOT: usize = 0;
