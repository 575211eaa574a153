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
//! 1. **Update pairs** — query the broadphase (static, moving and sleeping AABB trees) for the
//!    proxies that moved; create a contact for every new overlapping, filter-accepted shape
//!    pair, in sorted pair order.
//! 2. **Collide** — every awake contact, where it is stored (the graph's colours and the awake
//!    set), in parallel chunks: drop it if the fat boxes separated, else compute its manifold
//!    and carry last step's impulses to points with the same feature id. A pair whose relative
//!    pose barely changed keeps its manifold and only updates the separations (contact
//!    recycling, as Box2D and Rapier do; `recycle.rs` says what it does to stacks). Beside it,
//!    on another worker, the part of the moving tree the last finalize loosened is rebuilt.
//! 3. **Update contact state** — only the contacts that changed, in contact order: begin/end
//!    touch events, a contact that began touching moves into a graph colour and one that
//!    stopped moves out, separated contacts are destroyed.
//! 4. **Solve** — the solver runs over the graph's colours in place: each colour's contacts and
//!    joints (soft step with substeps, or classic sequential impulses), the overflow set last;
//!    the accumulated impulses land in the contacts' own records. Diverged bodies are reset and
//!    listed ([`World::diverged_bodies`]; the step still succeeds); the solved contacts that
//!    struck faster than the hit threshold are listed as hit events (`hit.rs`); joints whose
//!    force or torque exceeded their break threshold are destroyed and reported (`joint.rs`).
//! 5. **Finalize bodies** — in parallel chunks of awake bodies: sleep timers and each island's
//!    least rested time, continuous collision for fast bodies (below), then the shapes' boxes
//!    against their fat boxes, and a move event for every awake body the step moved
//!    (`move_events.rs`); proxies that left are re-inserted and buffered for step 1, and the
//!    moving tree's loosened part is refitted (its rebuild runs beside the next step's
//!    narrowphase). Beside that serial work, on another worker, the islands' rests are
//!    recorded and one island is split (the first half of step 6, when nothing disturbs it).
//! 6. **Islands and sleep** — bodies touched by moving kinematic bodies stay awake; one island
//!    split; islands that rested 0.5 s move into sleeping solver sets, with their contacts and
//!    joints, and cost nothing until touched or edited (`island.rs`, `sleep.rs`,
//!    `solver_set.rs`). Move events of bodies that fell asleep are marked so.
//! 7. **Sensors** — in parallel chunks of sensor shapes: each queries the trees for the shapes
//!    overlapping it where the step left them, and the changes since the last step become
//!    sensor begin and end events (`sensor.rs`). Sensor shapes make no contacts.
//!
//! The rest of the call is timed too, so the [`StepProfile`]'s phases add up to its `total`:
//! clearing the last step's event lists (`events`), breaking overloaded joints
//! (`break_joints`), the particle systems (`particles`), giving back the spare room of stores
//! a burst grew (`release_spare`, `spare.rs`).
//!
//! Serial work left in a step, all proportional to what changed rather than to the world: the
//! new pairs' contact creation, the changed contacts' state updates, the escaped proxies'
//! re-insertion and the tree refit above them (the rebuild of that part runs beside the next
//! narrowphase, and the islands' rest records and split beside the refit), the swept bullets'
//! new poses and boxes, breakable joints, moving kinematic bodies' constraints, islands
//! falling asleep, and putting the hit and sensor events in order. A light step (a world
//! almost all asleep) runs wholly on the caller (`light_step.rs`).
//!
//! ## Events and hooks
//!
//! Every step refills the event lists below; read them after [`World::step`] (a body or shape
//! destroyed between steps ends its contacts and sensor overlaps with the *next* step's end
//! events, so each end is seen once). Each list has a fixed order, the same for any worker
//! count.
//!
//! ```text
//!   World::contact_events()     begin, end     contacts that began / stopped touching, if a
//!                                              shape has enable_contact_events (default on)
//!                               hit            contacts that struck faster than
//!                                              WorldDef::hit_event_threshold (1 m/s), if a
//!                                              shape has enable_hit_events (default off):
//!                                              point, normal, approach speed
//!   World::sensor_events()      begin, end     shapes that began / stopped overlapping a
//!                                              sensor (is_sensor); both sides need
//!                                              enable_sensor_events (default on)
//!   World::body_move_events()   moves          every awake body the step moved: transform,
//!                                              user data, whether it fell asleep — a flat
//!                                              array to copy into a renderer
//!   World::body_events()        sleep, wake    bodies whose island fell asleep or woke
//!   World::joint_events()       break          joints broken by overload
//!   World::diverged_bodies()    reset          bodies reset to their step-start pose after
//!                                              blowing up
//! ```
//!
//! Two hooks let the user decide about contacts (`hooks.rs`): a **custom filter**
//! ([`World::set_custom_filter`]) asked whether a new pair may get a contact (and whether a
//! sensor may report a visitor), and a **pre-solve hook** ([`World::set_pre_solve`]) asked
//! every step whether a touching contact is solved — a one-way platform. Each is asked only
//! about shapes that enabled it (`ShapeDef::enable_custom_filtering`,
//! `ShapeDef::enable_pre_solve_events`). Both run inside the parallel phases, called from
//! several workers at once: they are `Fn + Send + Sync`, and the world stays deterministic as
//! long as each is a pure function of its argument.
//!
//! ## Queries
//!
//! Read-only, between steps, from any number of threads; each takes a [`QueryFilter`]
//! (`query.rs` says how they work):
//!
//! ```text
//!   cast_ray                   a ray; a callback decides the rest of the search
//!   cast_ray_closest / _all    (CastControl: continue, clip to this hit, stop)
//!   cast_shape                 a convex ShapeProxy swept along a translation, same callback
//!   cast_shape_closest / _all
//!   overlap_aabb               shapes whose tight boxes overlap a box
//!   overlap_shape              shapes a convex proxy overlaps (exact, GJK)
//!   overlap_point              solid shapes containing a point
//!   collide_mover / cast_mover a character capsule's planes and sweep (`mover.rs`)
//!   move_character             the two combined into Box2D v3.1's character move
//! ```
//!
//! ## Drawing
//!
//! [`World::draw`] hands the world to a renderer, a [`DebugDraw`] implementation, as coloured
//! primitives in world coordinates: shapes coloured by their body's state (static, kinematic,
//! awake, asleep, disabled, sensor), joints, broadphase boxes, centres of mass, contact points
//! and normals. [`DrawOptions`] chooses the kinds and an optional view box that culls the rest
//! (`debug_draw.rs`). `prism-bench --render` uses it to turn a scene into a PNG or a GIF.
//!
//! ## Editing between steps
//!
//! Besides creating and destroying: body pose, velocity, forces and impulses
//! (`body_motion.rs`, with [`World::set_target_transform`] for driven bodies), mass and
//! [`World::set_fixed_rotation`] (`mass.rs`), [`World::set_body_type`] (`body_type.rs`),
//! [`World::disable_body`] / [`World::enable_body`] (`body_enable.rs`), shape material,
//! density, filter and event flag (`shape_edit.rs`), joint settings (`joint.rs`), and
//! [`World::explode`] (`explosion.rs`). Each validates first and changes nothing on error, and
//! keeps every structure the step relies on consistent (the `validate` feature checks them
//! after every step).
//!
//! ## Storage
//!
//! ```text
//!   Body          cold   Arena (stable slot, BodyId)          type, shapes, constraint lists
//!   BodySim       warm   dense, per solver set                pose, mass, sleep timer
//!   BodyState     hot    dense, per solver set, 32 bytes      velocity, step deltas
//!   Shape                Arena (ShapeId)                      geometry, filter, proxy
//!   Contact       cold   Arena + per-body lists               shapes, where the sim is
//!   ContactSim    hot    graph colour or set store            solver view, manifold, recycling
//!   Joint         cold   Arena (JointId) + per-body lists     definition, frames
//!   JointConstraint      graph colour or set store            settings, sides, impulses
//! ```
//!
//! A solver set (`solver_set.rs`) keeps bodies, contacts and joints together: the static set,
//! the awake set, one per sleeping island, and the disabled set (disabled bodies, and the
//! contacts and joints parked there). The awake touching contacts and the awake joints are
//! held by the constraint graph's colours (`graph.rs`), where the narrowphase and the solver
//! both work on them in place; what they hold of their bodies is kept current when a body
//! moves or changes mass (`relocate.rs`).
//!
//! Users hold small `Copy` ids. A stale id (its object destroyed) is rejected with
//! [`PrismError::InvalidId`], never silently aliased to a newer object. Every function that
//! takes user input validates it first and returns [`PrismError`] naming the field; nothing is
//! half-created on error.
//!
//! ## Determinism
//!
//! A world with `WorldDef::worker_count` workers starts `worker_count − 1` helper threads (the
//! `workers` crate). A step always runs on the calling thread, which works as worker 0: each
//! parallel pass offers its chunks to the helpers and takes chunks itself, and the caller returns
//! from the pass when every chunk is done. A light step (a world almost all asleep,
//! `light_step.rs`) offers nothing and runs as with one worker. Every parallel pass cuts its work
//! into fixed chunks that do not depend on the worker count, every per-item result depends only on
//! its own inputs, and every serial pass walks in a fixed order, so the world is bitwise identical
//! for any worker count, run after run.
//!
//! **What is guaranteed, and tested.** The same calls give bitwise the same world — every
//! body's pose, velocity and sleep state, and the joint angles —
//!
//! - for any worker count (`tests/determinism.rs`, and the sleep and joint tests);
//! - for any solver lane width, 1, 4 or 8 ([`SOLVER_LANES`]), and for the AVX2 build
//!   (`target-cpu=x86-64-v3`, this workspace's default) and the baseline x86-64 build (SSE2):
//!   `tests/golden.rs` steps fixed scenes — a pyramid, a smash, a ragdoll pile, jointed
//!   machines, sleep and wake — and CI checks that the 8-lane, 4-lane and 1-lane builds all
//!   end on the same committed hashes;
//! - on x86-64, with the same compiler version.
//!
//! Why it holds: every floating-point operation in the step is a single IEEE 754 binary32
//! operation, rounded to nearest, in a fixed order. Nothing is fused (Rust never contracts
//! `a * b + c` into a fused multiply-add, and Prism never calls `mul_add`), nothing uses a
//! reciprocal estimate, `sqrt` and `/` are correctly rounded by the standard, and a SIMD lane
//! performs exactly the scalar code's operations (`solver_simd::wide`). The functions the
//! standard does *not* pin down — sine, cosine, arctangent, hypotenuse — never come from the
//! platform's libm, which differs between platforms and versions: [`Rot::from_angle`],
//! [`Rot::angle`], joint angles, joint frames from an axis, the mass of rounded polygons and
//! the sleep extent use core-soa's own polynomial implementations (re-exported as
//! [`math`]), built from correctly rounded operations only, so they give the same bits
//! everywhere (within 1 ulp for `sin`/`cos`, 2 ulp for `atan2`). Inputs you compute yourself
//! should use them too: `Rot::from_angle(a)` rather than `(a.cos(), a.sin())`.
//!
//! **What is not guaranteed.** Other architectures (aarch64, wasm32) are untested. The same
//! bits are *expected* there — Rust does not contract to fused multiply-add on aarch64 either,
//! and the trigonometry is Prism's own — but two things could differ and nothing checks them:
//! `f32::min`/`f32::max` leave the sign of a zero result unspecified (x86's `minss` and ARM's
//! `fminnm` resolve `min(−0, +0)` differently), and the `wide` crate's other SIMD back ends may
//! resolve such ties, or NaN, differently from `minps`/`maxps`. A different compiler version is
//! likewise expected, not promised, to agree; 32-bit x86 without SSE2 (x87 double rounding) is
//! not supported. A new Prism version may change the bits on purpose: the golden hashes change
//! with it, and the change is explained where it is made.
//!
//! ## Continuous collision
//!
//! Speculative contacts stop a body whose contact exists before it arrives; a body that
//! crosses a thin obstacle within one step would pass it unseen. So, with
//! [`WorldDef::enable_continuous`] (on by default, as in Box2D), the finalize phase picks out
//! the *fast* bodies — dynamic, not resting, and moved more than half their thinnest shape's
//! inner radius this step — and sweeps each from its pose at the start of the step to its pose
//! now against the static shapes, with a time of impact (conservative advancement on the GJK
//! distance, `collision::toi`); a body that would hit something is moved back to the time of
//! impact, its velocity kept, and the next step's contacts stop it. Chain segments are
//! one-sided here too, and shape filters and joints that disable collision are respected. A
//! *bullet* ([`BodyDef::is_bullet`], [`World::set_bullet`]) is swept as well against dynamic
//! and kinematic bodies, awake or asleep, at their final poses, in a second pass after every
//! other body has moved; bullets are not swept against bullets. Both passes read only what no
//! sweep of the same pass writes, run in fixed chunks, and give the same bits for any worker
//! count; [`StepProfile::continuous`] times them (`continuous.rs`).
//!
//! ## Particles and cloth
//!
//! Besides rigid bodies a world owns particle systems (the `particles` crate, re-exported as
//! [`particles`]): particles with forces and springs, implicit constraints `C(x) = 0` — rods,
//! pins to points or to points of bodies, beads on circles and lines, user constraints — whose
//! forces are found at once by a conjugate-gradient solve of `J W Jᵀ λ = …` or sweep by sweep
//! by PGS, parametric beads, and cloth grids. They are created and edited through the World
//! with [`ParticleSystemId`]s and the particles crate's own ids
//! ([`World::create_particle_system`], [`World::create_cloth`], [`World::create_body_anchor`],
//! …), with [`PrismError`] on bad input, and read back with [`World::particle_system`].
//!
//! The step's last phase, *particles* (`particle_world.rs`), advances every system by `dt`
//! once the bodies have moved: anchors on bodies are placed on them, particles collide as
//! circles of their system's radius with every shape kind, with friction, through the
//! broadphase trees (`particle_collider.rs`), and the impulses the particles exchange with
//! bodies — contacts and pins — act on the bodies as forces in their next step (two-way
//! coupling: a cloth resting on a box weighs on the box's ground contact), waking a sleeping
//! body only if they would move it. A body is infinitely heavy within the particle step, so a
//! body should be much heavier than the particles leaning on one point of it. The phase is
//! timed in [`StepProfile::particles`] with the systems' own figures (CG iterations and
//! residual, PGS sweeps, contacts, the largest constraint error) in
//! [`StepProfile::particle_figures`], and runs on the world's workers in fixed chunks, bitwise
//! equal for any worker count. A world without particle systems steps exactly as before.
//!
//! ## Further reading
//!
//! In the repository: `docs/ARCHITECTURE.md` describes the crates, the step, storage, colours
//! and lanes, threads, islands and sleep as a whole, and how to add a shape, a joint kind or a
//! stage; `docs/BENCHMARKS.md` describes the benchmark scenes, how `prism-bench` measures them
//! and how to read its tables, with the latest results. The phase and stage timings of
//! [`StepProfile`] carry the same names there, in prism-bench's `--stages` output and in the
//! Tracy zones of the `profile` feature (see the README for capturing a profile).
//!
//! ## Snapshots
//!
//! [`World::snapshot`] saves the whole simulation state in a versioned, checksummed byte
//! buffer; [`World::from_snapshot`] and [`World::restore`] bring it back, and the restored world
//! steps bitwise like the saved one, for any worker count — a rollback re-simulates the same
//! bits. Hooks are not saved (`restore` keeps the world's own). A truncated, corrupted or forged
//! buffer is refused with [`PrismError::Snapshot`] (`snapshot.rs` explains the format and the
//! checks). With the `serde` feature the definitions and ids implement `Serialize` and
//! `Deserialize`.
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
mod body_enable;
mod body_motion;
mod body_shapes;
mod body_type;
mod broadphase;
mod constraint_list;
mod contact;
mod continuous;
mod debug_draw;
mod def;
mod error;
mod events;
mod explosion;
mod finalize;
mod finite_effects;
mod graph;
mod hit;
mod hooks;
mod island;
mod joint;
mod light_step;
mod mass;
mod mass_limits;
mod move_events;
mod mover;
mod narrowphase;
mod overlap;
mod particle_collider;
mod particle_world;
mod profile;
mod query;
mod ray;
mod recycle;
mod relocate;
mod sensor;
mod shape;
mod shape_cast;
mod shape_edit;
mod sleep;
mod snapshot;
mod solve;
mod solver_set;
mod spare;
mod validate;
mod world;

pub use contact::ContactData;
pub use debug_draw::{Color, DebugDraw, DrawColors, DrawOptions, DrawState};
pub use def::{BodyDef, Filter, QueryFilter, ShapeDef, WorldDef};
pub use error::{IdKind, PrismError};
pub use events::{ContactBeginTouchEvent, ContactEndTouchEvent, ContactEvents};
pub use explosion::ExplosionDef;
pub use hit::ContactHitEvent;
pub use hooks::{PreSolveContact, ShapePair};
pub use joint::{
    DistanceJointDef, JointBreakEvent, JointDef, JointEvents, MassRatioWarning, MotorJointDef,
    PrismaticJointDef, RevoluteJointDef, TargetJointDef, WeldJointDef, WheelJointDef,
};
pub use move_events::BodyMoveEvent;
pub use mover::{CharacterMove, MoverPlane};
pub use particle_world::ParticleSystemId;
pub use profile::{Counters, StepProfile};
pub use query::CastControl;
pub use ray::RayResult;
pub use sensor::{SensorBeginTouchEvent, SensorEndTouchEvent, SensorEvents};
pub use shape_cast::ShapeCastResult;
pub use sleep::{BodyEvents, BodySleepEvent, BodyWakeEvent};
pub use snapshot::{MAX_SNAPSHOT_WORKERS, SNAPSHOT_FORMAT_VERSION};
pub use world::World;

pub use ::island::IslandId;
/// Particle systems, cloth and implicit constraints (see "Particles and cloth" above).
pub use ::particles;
pub use collision::chain::ChainError;
pub use collision::hull::{
    HullError, MIN_HALF_EXTENT, check_polygon, make_box, make_offset_box, make_polygon,
    make_rounded_box, make_square,
};
pub use collision::mass::MassData;
pub use collision::{
    Aabb, Capsule, ChainSegment, Circle, CollisionPlane, LINEAR_SLOP, Manifold, ManifoldPoint,
    Plane, Polygon, ProxyError, Segment, Shape, ShapeProxy, clip_vector, solve_planes,
};
pub use core_soa::{BodyId, BodyType, JointId, Rot, ShapeId, Transform, Vec2};
pub use graph_coloring::GRAPH_COLOR_COUNT;
pub use solver_simd::joint::{
    DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, TargetJoint, WeldJoint,
    WheelJoint,
};
pub use solver_simd::{SolverKind, SolverProfile};

/// Deterministic trigonometry: the same bits on every platform, unlike `f32::sin` and friends,
/// which call the platform's libm. Use these for anything that feeds the simulation (see
/// "Determinism" above); they are what [`Rot::from_angle`] and [`Rot::angle`] use.
pub mod math {
    pub use core_soa::math::{atan2, cos, hypot, sin, sin_cos};
}

/// How many constraints of a colour the solver handles at once in this build: 8 where AVX2 is
/// enabled, 4 otherwise, 1 with the `scalar` feature. Results do not depend on it (see the
/// lane-width test in `tests/lane_width.rs`).
pub const SOLVER_LANES: usize = solver_simd::LANES;
