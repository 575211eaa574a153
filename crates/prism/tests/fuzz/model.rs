//! The reference model: which ids are live, what each is attached to, and what a call with
//! given arguments must do.
//!
//! The model is deliberately small: it does not simulate anything. It knows the objects the
//! world should hold (bodies with their type and shapes, shapes with their body, joints with
//! their bodies and kind), the ids that were destroyed (to hand stale ids to the world), and
//! the documented rule of every argument (`verdict_*`). What the world must report about them
//! — counts, validity, attachments — is checked against it after every op.

use crate::ops::{KindSpec, Pick, RotSpec};
use crate::values::{
    Verdict, extreme, extreme_vec, finite, finite_vec, non_negative, positive, threshold,
};
use prism::{
    BodyId, BodyType, DistanceJoint, JointId, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint,
    Rot, ShapeId, TargetJoint, Vec2, WeldJoint, WheelJoint,
};

/// How many destroyed ids of each kind the model keeps to hand out as stale.
const STALE_KEPT: usize = 16;

#[derive(Clone, Debug)]
pub struct BodyEntry {
    pub id: BodyId,
    pub body_type: BodyType,
    /// Its shapes, in attachment order.
    pub shapes: Vec<ShapeId>,
}

#[derive(Clone, Copy, Debug)]
pub struct JointEntry {
    pub id: JointId,
    pub body_a: BodyId,
    pub body_b: BodyId,
    /// The kind's discriminant (settings are the world's business).
    pub kind: KindTag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindTag {
    Distance,
    Revolute,
    Prismatic,
    Weld,
    Wheel,
    Motor,
    Target,
}

#[derive(Default, Debug)]
pub struct Model {
    pub bodies: Vec<BodyEntry>,
    pub joints: Vec<JointEntry>,
    pub stale_bodies: Vec<BodyId>,
    pub stale_shapes: Vec<ShapeId>,
    pub stale_joints: Vec<JointId>,
}

/// A resolved pick: the id, and whether the model holds it live.
#[derive(Clone, Copy, Debug)]
pub struct Resolved<T> {
    pub id: T,
    pub live: bool,
}

fn remember<T>(list: &mut Vec<T>, id: T) {
    if list.len() == STALE_KEPT {
        list.remove(0);
    }
    list.push(id);
}

impl Model {
    pub fn shape_count(&self) -> usize {
        self.bodies.iter().map(|b| b.shapes.len()).sum()
    }

    pub fn all_shapes(&self) -> impl Iterator<Item = (ShapeId, BodyId)> + '_ {
        self.bodies
            .iter()
            .flat_map(|b| b.shapes.iter().map(move |&s| (s, b.id)))
    }

    pub fn body_entry(&self, id: BodyId) -> Option<&BodyEntry> {
        self.bodies.iter().find(|b| b.id == id)
    }

    pub fn joint_entry(&self, id: JointId) -> Option<&JointEntry> {
        self.joints.iter().find(|j| j.id == id)
    }

    /// The body a pick names: a stale id, a live one, or (no live bodies) one never issued.
    pub fn body(&self, pick: Pick) -> Resolved<BodyId> {
        resolve(
            pick,
            &self.stale_bodies,
            self.bodies.len(),
            |i| self.bodies[i].id,
            BodyId::new,
        )
    }

    pub fn shape(&self, pick: Pick) -> Resolved<ShapeId> {
        let live: Vec<ShapeId> = self.all_shapes().map(|(s, _)| s).collect();
        resolve(
            pick,
            &self.stale_shapes,
            live.len(),
            |i| live[i],
            ShapeId::new,
        )
    }

    pub fn joint(&self, pick: Pick) -> Resolved<JointId> {
        resolve(
            pick,
            &self.stale_joints,
            self.joints.len(),
            |i| self.joints[i].id,
            JointId::new,
        )
    }

    pub fn add_body(&mut self, id: BodyId, body_type: BodyType) {
        self.bodies.push(BodyEntry {
            id,
            body_type,
            shapes: Vec::new(),
        });
    }

    /// A body goes with its shapes and joints.
    pub fn remove_body(&mut self, id: BodyId) {
        let Some(at) = self.bodies.iter().position(|b| b.id == id) else {
            return;
        };
        let body = self.bodies.remove(at);
        for shape in body.shapes {
            remember(&mut self.stale_shapes, shape);
        }
        let attached: Vec<JointId> = self
            .joints
            .iter()
            .filter(|j| j.body_a == id || j.body_b == id)
            .map(|j| j.id)
            .collect();
        for joint in attached {
            self.remove_joint(joint);
        }
        remember(&mut self.stale_bodies, id);
    }

    pub fn add_shape(&mut self, body: BodyId, id: ShapeId) {
        if let Some(entry) = self.bodies.iter_mut().find(|b| b.id == body) {
            entry.shapes.push(id);
        }
    }

    pub fn remove_shape(&mut self, id: ShapeId) {
        for body in &mut self.bodies {
            body.shapes.retain(|&s| s != id);
        }
        remember(&mut self.stale_shapes, id);
    }

    pub fn add_joint(&mut self, entry: JointEntry) {
        self.joints.push(entry);
    }

    pub fn remove_joint(&mut self, id: JointId) {
        self.joints.retain(|j| j.id != id);
        remember(&mut self.stale_joints, id);
    }
}

fn resolve<T: Copy>(
    pick: Pick,
    stale: &[T],
    live_count: usize,
    live: impl Fn(usize) -> T,
    never_issued: fn(u32, u32) -> T,
) -> Resolved<T> {
    if pick.stale && !stale.is_empty() {
        let id = stale[pick.index as usize % stale.len()];
        return Resolved { id, live: false };
    }
    if live_count == 0 {
        let id = never_issued(1_000_000 + u32::from(pick.index), 1);
        return Resolved { id, live: false };
    }
    Resolved {
        id: live(pick.index as usize % live_count),
        live: true,
    }
}

/// The rotation a spec makes (possibly not unit), and its verdict.
pub fn rotation(spec: RotSpec) -> (Rot, Verdict) {
    match spec {
        RotSpec::Angle(angle) => (Rot::from_angle(angle), finite(angle)),
        RotSpec::Raw { c, s } => {
            let rot = Rot { c, s };
            let norm = c * c + s * s;
            let verdict = Verdict::Accept
                .unless(!rot.is_valid())
                .doubt(((norm - 1.0).abs() - 1e-3).abs() < 1e-5);
            (rot, verdict)
        }
    }
}

/// `lower ≤ upper`, both finite.
fn range(lower: f32, upper: f32) -> Verdict {
    finite(lower)
        .and(finite(upper))
        .unless(lower.is_finite() && upper.is_finite() && lower > upper)
}

fn spring(hertz: f32, damping: f32) -> Verdict {
    non_negative(hertz).and(non_negative(damping))
}

fn motor(speed: f32, max: f32) -> Verdict {
    finite(speed).and(non_negative(max))
}

/// The kind's settings, by the documented rules of each field.
pub fn verdict_settings(kind: &JointKind) -> Verdict {
    match kind {
        JointKind::Distance(DistanceJoint {
            length,
            hertz,
            damping_ratio,
            min_length,
            max_length,
            motor_speed,
            max_motor_force,
            ..
        }) => non_negative(*length)
            .and(spring(*hertz, *damping_ratio))
            .and(non_negative(*min_length))
            .and(range(*min_length, *max_length))
            .and(motor(*motor_speed, *max_motor_force)),
        JointKind::Revolute(RevoluteJoint {
            hertz,
            damping_ratio,
            lower_angle,
            upper_angle,
            motor_speed,
            max_motor_torque,
            ..
        }) => spring(*hertz, *damping_ratio)
            .and(range(*lower_angle, *upper_angle))
            .and(motor(*motor_speed, *max_motor_torque)),
        JointKind::Prismatic(PrismaticJoint {
            hertz,
            damping_ratio,
            lower_translation,
            upper_translation,
            motor_speed,
            max_motor_force,
            ..
        }) => spring(*hertz, *damping_ratio)
            .and(range(*lower_translation, *upper_translation))
            .and(motor(*motor_speed, *max_motor_force)),
        JointKind::Wheel(WheelJoint {
            hertz,
            damping_ratio,
            lower_translation,
            upper_translation,
            motor_speed,
            max_motor_torque,
            ..
        }) => spring(*hertz, *damping_ratio)
            .and(range(*lower_translation, *upper_translation))
            .and(motor(*motor_speed, *max_motor_torque)),
        JointKind::Weld(WeldJoint {
            linear_hertz,
            linear_damping_ratio,
            angular_hertz,
            angular_damping_ratio,
        }) => spring(*linear_hertz, *linear_damping_ratio)
            .and(spring(*angular_hertz, *angular_damping_ratio)),
        JointKind::Motor(MotorJoint {
            linear_offset,
            angular_offset,
            max_force,
            max_torque,
            correction_factor,
        }) => finite_vec(*linear_offset)
            .and(finite(*angular_offset))
            .and(non_negative(*max_force))
            .and(non_negative(*max_torque))
            .and(non_negative(*correction_factor))
            .unless(*correction_factor > 1.0),
        JointKind::Target(TargetJoint {
            target,
            hertz,
            damping_ratio,
            max_force,
        }) => finite_vec(*target)
            .and(spring(*hertz, *damping_ratio))
            .and(non_negative(*max_force)),
    }
}

/// A kind spec's solver settings, tag, and the verdict of its definition-only fields
/// (reference angle, axis).
pub fn kind_parts(spec: &KindSpec) -> (JointKind, KindTag, Verdict) {
    let axis_verdict = |axis: Vec2| {
        let length = axis.length();
        finite_vec(axis)
            .unless(axis.is_finite() && length <= 1e-6)
            .doubt((length - 1e-6).abs() < 1e-8)
    };
    match *spec {
        KindSpec::Distance(j) => (JointKind::Distance(j), KindTag::Distance, Verdict::Accept),
        KindSpec::Revolute {
            reference_angle,
            settings,
        } => (
            JointKind::Revolute(settings),
            KindTag::Revolute,
            finite(reference_angle),
        ),
        KindSpec::Prismatic {
            axis,
            reference_angle,
            settings,
        } => (
            JointKind::Prismatic(settings),
            KindTag::Prismatic,
            axis_verdict(axis).and(finite(reference_angle)),
        ),
        KindSpec::Weld {
            reference_angle,
            settings,
        } => (
            JointKind::Weld(settings),
            KindTag::Weld,
            finite(reference_angle),
        ),
        KindSpec::Wheel { axis, settings } => (
            JointKind::Wheel(settings),
            KindTag::Wheel,
            axis_verdict(axis),
        ),
        KindSpec::Motor(j) => (JointKind::Motor(j), KindTag::Motor, Verdict::Accept),
        KindSpec::Target(j) => (JointKind::Target(j), KindTag::Target, Verdict::Accept),
    }
}

pub fn tag_of(kind: &JointKind) -> KindTag {
    match kind {
        JointKind::Distance(_) => KindTag::Distance,
        JointKind::Revolute(_) => KindTag::Revolute,
        JointKind::Prismatic(_) => KindTag::Prismatic,
        JointKind::Weld(_) => KindTag::Weld,
        JointKind::Wheel(_) => KindTag::Wheel,
        JointKind::Motor(_) => KindTag::Motor,
        JointKind::Target(_) => KindTag::Target,
    }
}

/// A shape definition: density, friction and restitution finite and ≥ 0. An extreme density
/// may be refused by the mass limits.
pub fn verdict_shape_def(density: f32, friction: f32, restitution: f32) -> Verdict {
    non_negative(density)
        .and(non_negative(friction))
        .and(non_negative(restitution))
        .doubt(extreme(density))
}

/// A shape's geometry arguments: extreme sizes or offsets may be refused by the mass limits.
pub fn doubtful_geometry(values: &[f32], points: &[Vec2]) -> bool {
    values.iter().any(|&v| extreme(v)) || points.iter().any(|&p| extreme_vec(p))
}

pub fn verdict_positive_doubtful(v: f32) -> Verdict {
    positive(v).doubt(extreme(v))
}

pub fn verdict_threshold(v: f32) -> Verdict {
    threshold(v)
}
