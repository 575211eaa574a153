//! # prism — a data-oriented 2D rigid-body physics engine
//!
//! Prism simulates rigid bodies in the plane — static, kinematic and dynamic, made of circles,
//! capsules, segments, convex polygons and chains — in the manner of Box2D v3: persistent
//! contacts with a contact cache, a substepping soft-constraint solver, and storage laid out for
//! throughput. This crate is the facade a user links: the [`World`], its definitions, ids,
//! events, queries and errors. Geometry comes from the `collision` crate and the solver from
//! `solver-simd`; the shape constructors users need are re-exported here.
//!
//! ## The step
//!
//! [`World::step`]`(dt, substeps)` runs these phases, each a method over flat arrays, each timed
//! into the [`StepProfile`]:
//!
//! 1. **Update pairs** — query the broadphase (a static and a moving AABB tree) for proxies
//!    that moved; create a contact for every new overlapping, filter-accepted shape pair, in
//!    sorted pair order.
//! 2. **Collide** — for every contact, drop it if the fat boxes separated, else compute its
//!    manifold and carry last step's impulses to points with the same feature id. A pair whose
//!    relative pose barely changed keeps its manifold and only updates the separations
//!    (contact recycling, as Box2D and Rapier do; `recycle.rs` says what it does to stacks).
//! 3. **Update contact state** — serially, in contact order: begin/end touch events and
//!    destruction of separated contacts.
//! 4. **Solve** — the touching contacts and the joints go to the solver (soft step with
//!    substeps, or classic sequential impulses), ordered by graph colour; solved impulses return
//!    to the contact cache and the joints; diverged bodies are reset and reported; joints whose
//!    force or torque exceeded their break threshold are destroyed and reported (`joint.rs`).
//! 5. **Finalize bodies** — new shape boxes from the new transforms; proxies that left their fat
//!    boxes are re-inserted and buffered for step 1.
//! 6. **Islands and sleep** — sleep timers; one island split; islands that rested 0.5 s move
//!    into sleeping solver sets and cost nothing until touched or edited (`island.rs`,
//!    `sleep.rs`, `solver_set.rs`).
//!
//! ## Storage
//!
//! ```text
//!   Body        cold   Arena (stable slots, generational BodyId)       who, shapes, contacts
//!   BodySim     warm   dense array per solver set (static, awake)      pose, mass, forces
//!   BodyState   hot    dense array, awake set only, 32 bytes           velocity, deltas
//!   Shape              Arena (ShapeId)                                 geometry, filter, proxy
//!   Contact     cold   Arena (stable ids) + intrusive per-body lists   shapes, list links
//!   ContactSim  hot    dense array                                     manifold, material
//!   Joint              Arena (JointId) + intrusive per-body lists      def, frames, impulses
//! ```
//!
//! Users hold small `Copy` ids. A stale id (its object destroyed) is rejected with
//! [`PrismError::InvalidId`], never silently aliased to a newer object. Every function that
//! takes user input validates it first and returns [`PrismError`] naming the field; nothing is
//! half-created on error.
//!
//! ## Threads and determinism
//!
//! The world owns a rayon pool of `WorldDef::worker_count` threads and runs each step inside it;
//! with more than one worker the pair queries and the narrowphase are split across the pool.
//! Every per-item result depends only on its own inputs and every serial pass walks arrays in
//! index order, so the world is bitwise identical for any worker count, run after run.
//!
//! Continuous collision is not part of the step yet: `enable_continuous` is stored in the
//! definitions for when it is.
//!
//! ## Example
//!
//! ```
//! use prism::{BodyDef, ShapeDef, Vec2, World, WorldDef, make_box};
//!
//! let mut world = World::new(WorldDef::default())?;
//! let ground = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))?;
//! world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(20.0, 1.0)?)?;
//!
//! let crate_body = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))?;
//! world.create_polygon_shape(crate_body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
//!
//! for _ in 0..60 {
//!     world.step(1.0 / 60.0, 4)?;
//! }
//! let position = world.position(crate_body)?;
//! assert!((position.y - 0.5).abs() < 0.01, "resting on the ground: {position:?}");
//! assert!(world.linear_velocity(crate_body)?.length() < 0.01);
//! # Ok::<(), prism::PrismError>(())
//! ```

mod body;
mod broadphase;
mod contact;
mod def;
mod error;
mod events;
mod finalize;
mod finite_effects;
mod graph;
mod island;
mod joint;
mod mass_limits;
mod narrowphase;
mod profile;
mod query;
mod recycle;
mod shape;
mod sleep;
mod solve;
mod solver_set;
#[cfg(feature = "validate")]
mod validate;
mod world;

pub use contact::ContactData;
pub use def::{BodyDef, Filter, QueryFilter, ShapeDef, WorldDef};
pub use error::{IdKind, PrismError};
pub use events::{ContactBeginTouchEvent, ContactEndTouchEvent, ContactEvents};
pub use joint::{
    DistanceJointDef, JointBreakEvent, JointDef, JointEvents, MassRatioWarning, MotorJointDef,
    PrismaticJointDef, RevoluteJointDef, TargetJointDef, WeldJointDef, WheelJointDef,
};
pub use profile::{Counters, StepProfile};
pub use query::RayResult;
pub use sleep::{BodyEvents, BodySleepEvent, BodyWakeEvent};
pub use world::World;

pub use ::island::IslandId;
pub use collision::chain::ChainError;
pub use collision::hull::{
    HullError, MIN_HALF_EXTENT, check_polygon, make_box, make_offset_box, make_polygon,
    make_rounded_box, make_square,
};
pub use collision::mass::MassData;
pub use collision::{
    Aabb, Capsule, ChainSegment, Circle, LINEAR_SLOP, Manifold, ManifoldPoint, Polygon, Segment,
    Shape,
};
pub use core_soa::{BodyId, BodyType, JointId, Rot, ShapeId, Transform, Vec2};
pub use graph_coloring::GRAPH_COLOR_COUNT;
pub use solver_simd::joint::{
    DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, TargetJoint, WeldJoint,
    WheelJoint,
};
pub use solver_simd::{SolverKind, SolverProfile};

/// How many constraints of a colour the solver handles at once in this build: 8 where AVX2 is
/// enabled, 4 otherwise, 1 with the `scalar` feature. Results do not depend on it (see the
/// lane-width test in `tests/lane_width.rs`).
pub const SOLVER_LANES: usize = solver_simd::wide::LANES;
