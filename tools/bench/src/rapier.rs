//! The Rapier backend (`rapier2d` with its `parallel` feature).
//!
//! **Threads.** Each world owns a rayon pool of exactly `threads` threads and runs its step
//! inside it with `pool.install`, so Rapier's parallel stages use that many workers.
//!
//! **Settings.** 60 Hz, `num_solver_iterations = 4` (Rapier's substeps, as Box2D's 4),
//! CCD off (`max_ccd_substeps = 0`, Rapier's global switch; `--continuous` sets it to 1,
//! which turns on Rapier's automatic CCD of fast bodies against fixed colliders, the
//! counterpart of Box2D's continuous collision), other integration parameters
//! at Rapier's defaults (contact recycling on unless `--no-recycling` turns off
//! `IntegrationParameters::contact_recycling`, friction in the relax pass only). Friction
//! combines with `GeometricMean` = `sqrt(f1·f2)` and restitution with `Max`, as Box2D.
//! Sleeping per scene: with sleeping off every body is created with `can_sleep(false)`.
//! Each body's linear sleep threshold is Box2D's (0.05 m/s by default, 0.1 m/s for rain's
//! humans); Rapier's angular threshold (0.5 rad/s) and time to sleep (0.5 s, as Box2D's)
//! stay at its defaults — Box2D folds rotation into one speed, `max(|v|, extent·|ω|)`.
//!
//! **Bodies created asleep** (smash's targets) are built with `sleeping(true)`, but Rapier
//! wakes both bodies of every contact that starts touching, even when both sleep — and the
//! targets touch each other, so Rapier would wake all 9,600 of them in the first step and
//! simulate them until they had rested for its time to sleep (0.5 s). Box2D keeps them asleep until
//! something awake hits them. To run the same scene, bodies created asleep that are still
//! at rest after their first step are put back to sleep right after it (inside that step's
//! call; for smash that is the untimed first step).
//!
//! **Approximations**, where Rapier's model differs from Box2D's:
//! - Box2D's one-sided chain loop becomes a closed two-sided polyline.
//! - A Box2D revolute joint has a spring *and* a motor; Rapier's revolute joint has one
//!   motor per axis. A spring (rain's humans: 5 Hz, damping ratio 0.5, target angle 0) maps
//!   to an acceleration-based position motor with stiffness `ω²` and damping `2ζω`
//!   (`ω = 2π·hertz`), which is a spring of that natural frequency and damping ratio
//!   whatever the inertia; the humans' joint friction (a speed-0 motor capped at 0.05 N·m
//!   times a per-bone scale) has no slot left and is dropped.
//! - A pure velocity motor (spinner, tumbler) maps to an acceleration-based velocity motor
//!   with damping [`VELOCITY_MOTOR_DAMPING`] and Box2D's torque cap.
//! - Rapier has no rigid distance joint: its rope joint holds only the upper length (a rope
//!   goes slack, a rod pushes), and its spring joint is a soft motor. A distance joint
//!   becomes Rapier's generic joint with its linear axes *coupled* (so the constraint acts
//!   along the line between the anchors, as a distance joint's does) and a position motor
//!   driving that distance to the length, without a force cap. Rigid, the motor's spring is
//!   Rapier's own joint stiffness ([`SpringCoefficients::joint_defaults`], 10⁶ Hz, damping
//!   ratio 1, as an acceleration-based motor: stiffness `ω²`, damping `2ζω`), which makes it
//!   a hard constraint that removes the length error within one substep; as a spring it is
//!   the description's frequency and damping ratio, as for revolute springs. Limits become
//!   Rapier's coupled limits, which clamp the motor's target speed to stay between them
//!   (and enforce the upper one as a rope does).
//! - A revolute joint's second frame is turned by the bodies' relative angle at creation, so
//!   its angle (limits, spring) counts from zero there.
//! - Collision filters (categories, masks, negative groups) are encoded exactly as Rapier
//!   interaction groups (see [`crate::group_bits`]); joints disable contacts between the
//!   bodies they connect (Box2D's `collideConnected = false`).
//!
//! **Memory.** Rapier allocates through Rust's global allocator, so its bytes are measured by
//! prism-bench's counting allocator exactly as Prism's are: the live bytes allocated between
//! creating the world (and its rayon pool) and the end of the run, less this backend's own
//! records.
//!
//! **Counters.** Bodies: all rigid bodies. Contacts: every contact pair in the narrow phase
//! (pairs whose fattened bounding boxes overlap, touching or not — Box2D's definition).
//! Shapes: colliders, a polyline counted as its segments.

use rapier2d::prelude::*;
use rayon::ThreadPool;

use crate::engine::{BenchError, BodySample, Counters, Engine, Memory, WorldSettings, vec_bytes};
use crate::group_bits::rapier_group_bits;
use scenes::description::{
    self, BodyDesc, BodyGroup, BodyKind, DistanceDesc, Geometry, JointDesc, RevoluteDesc, ShapeDesc,
};

/// Damping (1/s) of the acceleration-based velocity motors. Per substep the motor removes
/// the fraction `h·d / (1 + h·d)` of the speed error; with `h = 1/240 s` and `d = 10⁴/s` that
/// is 97.7%, close to Box2D's rigid velocity motor.
pub const VELOCITY_MOTOR_DAMPING: f32 = 1.0e4;

/// The bodies and joints Rapier created for one group.
struct GroupRecord {
    bodies: Vec<RigidBodyHandle>,
    joints: Vec<JointRecord>,
    /// Segments beyond the first in this group's polylines (for the shape counter).
    extra_chain_segments: usize,
}

struct JointRecord {
    handle: ImpulseJointHandle,
    body1: RigidBodyHandle,
    body2: RigidBodyHandle,
    anchor1: Vector,
    anchor2: Vector,
    /// See `JointDesc::kept_distance`.
    kept_distance: Option<f32>,
}

/// One Rapier world and the thread pool it steps in.
pub struct RapierEngine {
    world: PhysicsWorld,
    pool: ThreadPool,
    sleep_enabled: bool,
    groups: Vec<Option<GroupRecord>>,
    /// Bodies created asleep, to put back to sleep after their first step.
    created_asleep: Vec<RigidBodyHandle>,
}

fn to_vector(v: description::Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

/// Creates an empty Rapier world for `settings` (the registry's constructor).
pub fn create(settings: &WorldSettings) -> Result<Box<dyn Engine>, BenchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .build()
        .map_err(|e| BenchError::new(format!("cannot start {} threads: {e}", settings.threads)))?;
    let mut world = PhysicsWorld::new();
    world.gravity = to_vector(settings.gravity);
    let params = &mut world.integration_parameters;
    params.dt = description::TIME_STEP;
    params.num_solver_iterations = description::SUBSTEPS;
    params.max_ccd_substeps = usize::from(settings.continuous);
    params.contact_recycling = settings.contact_recycling;
    Ok(Box::new(RapierEngine {
        world,
        pool,
        sleep_enabled: settings.sleep_enabled,
        groups: Vec::new(),
        created_asleep: Vec::new(),
    }))
}

fn collider_for(geometry: &Geometry) -> Result<(ColliderBuilder, usize), BenchError> {
    let builder = match geometry {
        Geometry::Box {
            half_extents,
            center,
            radius,
        } => {
            let (hx, hy) = (half_extents.x, half_extents.y);
            let builder = if *radius > 0.0 {
                ColliderBuilder::round_cuboid(hx, hy, *radius)
            } else {
                ColliderBuilder::cuboid(hx, hy)
            };
            builder.translation(to_vector(*center))
        }
        Geometry::Hull { points, radius } => {
            let points: Vec<Vector> = points.iter().copied().map(to_vector).collect();
            let hull = if *radius > 0.0 {
                ColliderBuilder::round_convex_hull(&points, *radius)
            } else {
                ColliderBuilder::convex_hull(&points)
            };
            hull.ok_or_else(|| BenchError::new("degenerate convex hull"))?
        }
        Geometry::Circle { center, radius } => {
            ColliderBuilder::ball(*radius).translation(to_vector(*center))
        }
        Geometry::Capsule {
            center1,
            center2,
            radius,
        } => ColliderBuilder::capsule_from_endpoints(
            to_vector(*center1),
            to_vector(*center2),
            *radius,
        ),
        Geometry::Segment { point1, point2 } => {
            ColliderBuilder::segment(to_vector(*point1), to_vector(*point2))
        }
        Geometry::ChainLoop { points } => return chain_loop(points),
    };
    Ok((builder, 0))
}

/// A closed polyline through `points`, and its segment count minus one.
fn chain_loop(points: &[description::Vec2]) -> Result<(ColliderBuilder, usize), BenchError> {
    let count = u32::try_from(points.len())
        .ok()
        .filter(|&n| n >= 3)
        .ok_or_else(|| BenchError::new("a chain loop needs at least 3 points"))?;
    let vertices = points.iter().copied().map(to_vector).collect();
    let indices = (0..count).map(|i| [i, (i + 1) % count]).collect();
    let builder = ColliderBuilder::polyline(vertices, Some(indices));
    Ok((builder, points.len() - 1))
}

fn make_collider(desc: &ShapeDesc) -> Result<(Collider, usize), BenchError> {
    let (builder, extra_segments) = collider_for(&desc.geometry)?;
    let (memberships, filter) = rapier_group_bits(&desc.filter)?;
    let groups = InteractionGroups::new(
        Group::from_bits_retain(memberships),
        Group::from_bits_retain(filter),
        InteractionTestMode::And,
    );
    let collider = builder
        .density(desc.density)
        .friction(desc.friction)
        .friction_combine_rule(CoefficientCombineRule::GeometricMean)
        .restitution(desc.restitution)
        .restitution_combine_rule(CoefficientCombineRule::Max)
        .collision_groups(groups)
        .build();
    Ok((collider, extra_segments))
}

fn make_body(desc: &BodyDesc, sleep_enabled: bool) -> RigidBody {
    let builder = match desc.kind {
        BodyKind::Static => RigidBodyBuilder::fixed(),
        BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
    };
    builder
        .translation(to_vector(desc.position))
        .rotation(desc.angle)
        .linvel(to_vector(desc.linear_velocity))
        .linear_damping(desc.linear_damping)
        .can_sleep(sleep_enabled && desc.can_sleep)
        .sleeping(sleep_enabled && desc.starts_asleep)
        .build()
}

/// Rapier's joint for `desc` between bodies whose angles at creation differ by `relative`
/// (body B's minus body A's).
fn make_joint(desc: &JointDesc, relative: f32) -> GenericJoint {
    match desc {
        JointDesc::Revolute(revolute) => {
            let mut joint = make_revolute(revolute);
            joint.data.local_frame2.rotation = Rotation::new(-relative);
            joint.data
        }
        JointDesc::Distance(distance) => make_distance(distance),
    }
}

/// Rapier's revolute joint for `desc` (see the module notes for the mapping).
fn make_revolute(desc: &RevoluteDesc) -> RevoluteJoint {
    let mut builder = RevoluteJointBuilder::new()
        .local_anchor1(to_vector(desc.local_anchor_a))
        .local_anchor2(to_vector(desc.local_anchor_b))
        .contacts_enabled(false);
    if let Some(limits) = desc.limits {
        builder = builder.limits(limits);
    }
    if let Some(spring) = desc.spring {
        let omega = 2.0 * std::f32::consts::PI * spring.hertz;
        let damping = 2.0 * spring.damping_ratio * omega;
        builder = builder
            .motor_model(MotorModel::AccelerationBased)
            .motor_position(0.0, omega * omega, damping);
    } else if let Some(motor) = desc.motor {
        builder = builder
            .motor_model(MotorModel::AccelerationBased)
            .motor_velocity(motor.speed, VELOCITY_MOTOR_DAMPING)
            .motor_max_force(motor.max_torque);
    }
    builder.build()
}

/// Rapier's stand-in for the distance joint `desc`: coupled linear axes driven to the length
/// by a position motor (see the module notes).
fn make_distance(desc: &DistanceDesc) -> GenericJoint {
    let (frequency, damping_ratio) = match desc.spring {
        Some(spring) => (spring.hertz, spring.damping_ratio),
        None => {
            let rigid = SpringCoefficients::<f32>::joint_defaults();
            (rigid.natural_frequency, rigid.damping_ratio)
        }
    };
    let omega = 2.0 * std::f32::consts::PI * frequency;
    let mut builder = GenericJointBuilder::new(JointAxesMask::empty())
        .coupled_axes(JointAxesMask::LIN_AXES)
        .local_anchor1(to_vector(desc.local_anchor_a))
        .local_anchor2(to_vector(desc.local_anchor_b))
        .contacts_enabled(false)
        .motor_model(JointAxis::LinX, MotorModel::AccelerationBased)
        .motor_position(
            JointAxis::LinX,
            desc.length,
            omega * omega,
            2.0 * damping_ratio * omega,
        )
        .motor_max_force(JointAxis::LinX, f32::INFINITY);
    if let Some(limits) = desc.limits {
        builder = builder.limits(JointAxis::LinX, limits);
    }
    builder.build()
}

/// Speeds below which a body counts as undisturbed (m/s, rad/s): far below any motion a
/// collision causes, far above the rounding noise of a body at rest.
const AT_REST_SPEED: f32 = 1.0e-4;

impl RapierEngine {
    /// See the module notes: re-sleeps the bodies created asleep that nothing has moved.
    fn put_undisturbed_bodies_back_to_sleep(&mut self) {
        for handle in std::mem::take(&mut self.created_asleep) {
            let Some(body) = self.world.bodies.get_mut(handle) else {
                continue;
            };
            if body.linvel().length() < AT_REST_SPEED && body.angvel().abs() < AT_REST_SPEED {
                body.sleep();
            }
        }
    }

    fn body(&self, slot: usize, body: usize) -> Option<&RigidBody> {
        let handle = *self.groups.get(slot)?.as_ref()?.bodies.get(body)?;
        self.world.bodies.get(handle)
    }

    fn create_group(&mut self, group: &BodyGroup) -> Result<GroupRecord, BenchError> {
        let mut record = GroupRecord {
            bodies: Vec::with_capacity(group.bodies.len()),
            joints: Vec::with_capacity(group.joints.len()),
            extra_chain_segments: 0,
        };
        for desc in &group.bodies {
            let handle = self.world.insert_body(make_body(desc, self.sleep_enabled));
            if let Some(body) = self.world.bodies.get_mut(handle) {
                body.activation_mut().normalized_linear_threshold = desc.sleep_threshold;
            }
            record.bodies.push(handle);
            if self.sleep_enabled && desc.starts_asleep {
                self.created_asleep.push(handle);
            }
            for shape in &desc.shapes {
                let (collider, extra) = make_collider(shape)?;
                self.world.insert_collider(collider, Some(handle));
                record.extra_chain_segments += extra;
            }
        }
        for desc in &group.joints {
            let (a, b) = desc.bodies();
            let (body1, body2) = (record.bodies[a], record.bodies[b]);
            let relative = group.bodies[b].angle - group.bodies[a].angle;
            let joint = make_joint(desc, relative);
            let handle = self.world.insert_impulse_joint(body1, body2, joint);
            let (anchor1, anchor2) = desc.local_anchors();
            record.joints.push(JointRecord {
                handle,
                body1,
                body2,
                anchor1: to_vector(anchor1),
                anchor2: to_vector(anchor2),
                kept_distance: desc.kept_distance(),
            });
        }
        Ok(record)
    }
}

impl Engine for RapierEngine {
    fn insert_group(&mut self, slot: usize, group: &BodyGroup) -> Result<(), BenchError> {
        if self.groups.get(slot).is_some_and(Option::is_some) {
            return Err(BenchError::new(format!("group slot {slot} is taken")));
        }
        let bodies = group.bodies.len();
        if let Some(joint) = group.joints.iter().find(|j| {
            let (a, b) = j.bodies();
            a >= bodies || b >= bodies
        }) {
            return Err(BenchError::new(format!(
                "joint names a missing body: {joint:?}"
            )));
        }
        let record = self.create_group(group)?;
        if self.groups.len() <= slot {
            self.groups.resize_with(slot + 1, || None);
        }
        self.groups[slot] = Some(record);
        Ok(())
    }

    fn remove_group(&mut self, slot: usize) {
        let Some(record) = self.groups.get_mut(slot).and_then(Option::take) else {
            return;
        };
        for joint in &record.joints {
            self.world.remove_impulse_joint(joint.handle);
        }
        for &body in &record.bodies {
            self.world.remove_body(body);
        }
    }

    fn step(&mut self) {
        let world = &mut self.world;
        self.pool.install(|| world.step());
        if !self.created_asleep.is_empty() {
            self.put_undisturbed_bodies_back_to_sleep();
        }
    }

    fn counters(&self) -> Counters {
        let extra_segments: usize = self
            .groups
            .iter()
            .flatten()
            .map(|g| g.extra_chain_segments)
            .sum();
        Counters {
            bodies: self.world.bodies.len(),
            shapes: self.world.colliders.len() + extra_segments,
            contacts: self.world.narrow_phase.contact_pairs().count(),
            joints: self.world.impulse_joints.len(),
        }
    }

    fn deepest_penetration(&mut self) -> f32 {
        let mut deepest = 0.0f32;
        for pair in self.world.narrow_phase.contact_pairs() {
            let PairContacts::Rigid(contacts) = &pair.contacts else {
                continue;
            };
            for manifold in &contacts.manifolds {
                for point in &manifold.points {
                    deepest = deepest.max(-point.dist);
                }
            }
        }
        deepest
    }

    fn body_sample(&self, slot: usize, body: usize) -> Option<BodySample> {
        let body = self.body(slot, body)?;
        let (t, v) = (body.translation(), body.linvel());
        Some(BodySample {
            position: description::Vec2::new(t.x, t.y),
            angle: body.rotation().angle(),
            linear_velocity: description::Vec2::new(v.x, v.y),
            angular_velocity: body.angvel(),
        })
    }

    /// Rapier allocates through Rust's global allocator: its world, and the rayon pool it
    /// steps in, are measured by the counting allocator; the group records are this backend's.
    fn memory(&self) -> Memory {
        let groups: usize = self
            .groups
            .iter()
            .flatten()
            .map(|g| vec_bytes(&g.bodies) + vec_bytes(&g.joints))
            .sum();
        Memory::GlobalAllocator {
            bookkeeping: vec_bytes(&self.groups) + groups + vec_bytes(&self.created_asleep),
        }
    }

    fn max_joint_error(&self) -> f32 {
        let bodies = &self.world.bodies;
        let joints = self.groups.iter().flatten().flat_map(|g| g.joints.iter());
        joints
            .filter_map(|joint| {
                let kept = joint.kept_distance?;
                let a = *bodies.get(joint.body1)?.position() * joint.anchor1;
                let b = *bodies.get(joint.body2)?.position() * joint.anchor2;
                Some(((a - b).length() - kept).abs())
            })
            .fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scenes::description::{MAIN_SLOT, Vec2, square_box};

    fn sleeping_grid(side: usize) -> BodyGroup {
        let mut group = BodyGroup::default();
        for i in 0..side {
            for j in 0..side {
                let position = Vec2::new(0.4 * i as f32, 0.4 * j as f32);
                let mut body = BodyDesc::new(BodyKind::Dynamic, position)
                    .with_shape(ShapeDesc::new(square_box(0.2, 0.2)));
                body.starts_asleep = true;
                group.bodies.push(body);
            }
        }
        group
    }

    fn awake_count(engine: &RapierEngine) -> usize {
        let bodies = engine.world.bodies.iter();
        bodies.filter(|(_, b)| !b.is_sleeping()).count()
    }

    /// Touching boxes created asleep (smash's targets) stay asleep while nothing hits them.
    #[test]
    fn touching_bodies_created_asleep_stay_asleep() {
        let settings = WorldSettings {
            gravity: Vec2::ZERO,
            sleep_enabled: true,
            threads: 1,
            continuous: false,
            contact_recycling: true,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut engine = RapierEngine {
            world: PhysicsWorld::new(),
            pool,
            sleep_enabled: settings.sleep_enabled,
            groups: Vec::new(),
            created_asleep: Vec::new(),
        };
        engine.world.gravity = to_vector(settings.gravity);
        engine.insert_group(MAIN_SLOT, &sleeping_grid(5)).unwrap();
        for _ in 0..5 {
            engine.step();
            assert_eq!(awake_count(&engine), 0);
        }
        // The boxes touch: Rapier tracks the 40 edge-sharing neighbour pairs (and possibly
        // the diagonal ones, whose fattened boxes overlap too).
        assert!(engine.counters().contacts >= 40);
    }
}
