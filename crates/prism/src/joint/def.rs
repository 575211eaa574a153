//! Joint definitions: what a user fills in to create a joint.
//!
//! Every definition holds a [`JointDef`] — the two bodies, an anchor on each, and what every
//! joint has (`collide_connected`, break thresholds, user data) — and the kind's own settings,
//! which are the solver's settings structs ([`RevoluteJoint`], …) re-exported by this crate.
//!
//! **Anchors are relative to the body origins**, in body coordinates, as users place them: the
//! point `origin + q·local_anchor`. The solver wants them relative to the centre of mass, which
//! moves when shapes are added or removed, so the conversion (`local_anchor − local_center`) is
//! made at every step (`step.rs`), never stored.
//!
//! **Frames.** The solver measures the joint angle between two frames, one fixed in each body:
//! `θ = (θB + φB) − (θA + φA)`. A definition's reference angle `θref` (the relative body angle
//! at which the joint counts as zero) and axis (prismatic, wheel: a direction in body A) become
//! frame orientations:
//!
//! ```text
//!   φA = angle(local_axis_a)        (0 for kinds without an axis)
//!   φB = φA − θref                  ⇒  θ = θB − θA − θref, measured against axis A
//! ```
//!
//! so that the frame-A x axis is the user's axis and the joint angle is zero at the reference.

use crate::error::PrismError;
use core_soa::math::atan2;
use core_soa::{BodyId, Rot, Transform, Vec2};
use solver_simd::joint::{
    DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, TargetJoint, WeldJoint,
    WheelJoint,
};

/// What every joint has: its bodies, an anchor on each, and the joint-wide options.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointDef {
    /// The first body (the joint's frame is attached to it where a kind has one).
    pub body_a: BodyId,
    /// The second body; it must differ from `body_a`.
    pub body_b: BodyId,
    /// The anchor on body A, relative to A's origin in A's coordinates (m).
    pub local_anchor_a: Vec2,
    /// The anchor on body B, relative to B's origin in B's coordinates (m).
    pub local_anchor_b: Vec2,
    /// Whether the two bodies' shapes collide with each other (default false: a hinge's two
    /// parts usually overlap at the hinge).
    pub collide_connected: bool,
    /// The force (N) above which the joint breaks: removed after the step and reported as a
    /// [`crate::JointBreakEvent`]. Infinite (the default) never breaks.
    pub break_force: f32,
    /// The torque (N·m) above which the joint breaks. Infinite by default.
    pub break_torque: f32,
    /// Opaque value for the user.
    pub user_data: u64,
}

impl JointDef {
    /// A joint between `body_a` and `body_b` anchored at both origins, not colliding, unbreakable.
    pub fn new(body_a: BodyId, body_b: BodyId) -> JointDef {
        JointDef {
            body_a,
            body_b,
            local_anchor_a: Vec2::ZERO,
            local_anchor_b: Vec2::ZERO,
            collide_connected: false,
            break_force: f32::INFINITY,
            break_torque: f32::INFINITY,
            user_data: 0,
        }
    }

    pub(crate) fn validate(&self) -> Result<(), PrismError> {
        crate::error::finite_vec("JointDef::local_anchor_a", self.local_anchor_a)?;
        crate::error::finite_vec("JointDef::local_anchor_b", self.local_anchor_b)?;
        break_threshold("JointDef::break_force", self.break_force)?;
        break_threshold("JointDef::break_torque", self.break_torque)?;
        Ok(())
    }
}

/// A break threshold is positive; infinity means "never breaks". NaN is rejected.
pub(crate) fn break_threshold(field: &'static str, value: f32) -> Result<f32, PrismError> {
    if value.is_nan() {
        return Err(PrismError::NonFinite { field, value });
    }
    if value > 0.0 {
        Ok(value)
    } else {
        Err(PrismError::OutOfRange {
            field,
            value,
            requirement: "greater than 0 (infinity: never breaks)",
        })
    }
}

/// A distance joint: a rod, spring or rope between the two anchors.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DistanceJointDef {
    /// Bodies, anchors and the options every joint has.
    pub base: JointDef,
    /// The rod or spring: length, range, spring and motor.
    pub settings: DistanceJoint,
}

/// A hinge at the anchors.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RevoluteJointDef {
    /// Bodies, anchors and the options every joint has.
    pub base: JointDef,
    /// `θB − θA` (rad) at which the joint angle is zero: limits and spring count from it.
    pub reference_angle: f32,
    /// Limits, spring and motor of the hinge.
    pub settings: RevoluteJoint,
}

/// A slider: anchor B moves along an axis fixed in body A, without relative rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrismaticJointDef {
    /// Bodies, anchors and the options every joint has.
    pub base: JointDef,
    /// The sliding direction in body A's coordinates (any non-zero length).
    pub local_axis_a: Vec2,
    /// `θB − θA` (rad) the joint keeps.
    pub reference_angle: f32,
    /// Limits, spring and motor along the axis.
    pub settings: PrismaticJoint,
}

/// Glues the bodies at the anchors, rigidly or softly.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeldJointDef {
    /// Bodies, anchors and the options every joint has.
    pub base: JointDef,
    /// `θB − θA` (rad) the joint keeps.
    pub reference_angle: f32,
    /// Stiffness of the weld (rigid when the frequencies are 0).
    pub settings: WeldJoint,
}

/// A wheel on a suspension: anchor B moves along an axis fixed in body A and B turns freely.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WheelJointDef {
    /// Bodies, anchors and the options every joint has.
    pub base: JointDef,
    /// The suspension direction in body A's coordinates (any non-zero length).
    pub local_axis_a: Vec2,
    /// Suspension spring, travel limits and wheel motor.
    pub settings: WheelJoint,
}

/// Drives body B toward an offset pose relative to body A with bounded force and torque.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotorJointDef {
    /// Bodies, anchors and the options every joint has (the anchors define the target pose).
    pub base: JointDef,
    /// The pose offset and the largest force and torque used to reach it.
    pub settings: MotorJoint,
}

/// Pulls anchor B toward a world target (dragging a body with the mouse). Body A is only the
/// joint's other end (usually the ground); the joint never moves it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TargetJointDef {
    /// Bodies, anchors and the options every joint has; the anchor on body B is what is pulled.
    pub base: JointDef,
    /// The target, the spring that pulls and the largest force.
    pub settings: TargetJoint,
}

macro_rules! def_constructors {
    ($($def:ident { $($extra:ident: $value:expr),* }),* $(,)?) => {$(
        impl $def {
            /// The kind's default settings on `base`.
            pub fn new(base: JointDef) -> $def {
                $def { base, $($extra: $value,)* settings: Default::default() }
            }
        }
    )*};
}

def_constructors! {
    DistanceJointDef {},
    RevoluteJointDef { reference_angle: 0.0 },
    PrismaticJointDef { local_axis_a: Vec2::X, reference_angle: 0.0 },
    WeldJointDef { reference_angle: 0.0 },
    WheelJointDef { local_axis_a: Vec2::Y },
    MotorJointDef {},
    TargetJointDef {},
}

/// A definition reduced to what the store keeps: the base, the solver kind, and each body's
/// frame relative to its origin (anchor and orientation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct JointBlueprint {
    pub(crate) base: JointDef,
    pub(crate) kind: JointKind,
    pub(crate) frame_a: Transform,
    pub(crate) frame_b: Transform,
}

impl JointBlueprint {
    /// Frames for a joint without an axis: `φA = 0`, `φB = −reference_angle`.
    fn angled(
        base: JointDef,
        kind: JointKind,
        reference_angle: f32,
    ) -> Result<JointBlueprint, PrismError> {
        crate::error::finite("reference_angle", reference_angle)?;
        Ok(JointBlueprint {
            base,
            kind,
            frame_a: Transform::new(base.local_anchor_a, Rot::IDENTITY),
            frame_b: Transform::new(base.local_anchor_b, Rot::from_angle(-reference_angle)),
        })
    }

    /// Frames for a joint along `axis` in body A: `φA = angle(axis)`, `φB = φA − reference`.
    fn along_axis(
        base: JointDef,
        kind: JointKind,
        axis: Vec2,
        reference_angle: f32,
    ) -> Result<JointBlueprint, PrismError> {
        crate::error::finite_vec("local_axis_a", axis)?;
        crate::error::finite("reference_angle", reference_angle)?;
        let length = axis.length();
        if length <= 1e-6 {
            return Err(PrismError::OutOfRange {
                field: "local_axis_a",
                value: length,
                requirement: "a direction of non-zero length",
            });
        }
        let axis_angle = atan2(axis.y, axis.x);
        Ok(JointBlueprint {
            base,
            kind,
            frame_a: Transform::new(base.local_anchor_a, Rot::from_angle(axis_angle)),
            frame_b: Transform::new(
                base.local_anchor_b,
                Rot::from_angle(axis_angle - reference_angle),
            ),
        })
    }
}

impl DistanceJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        JointBlueprint::angled(self.base, JointKind::Distance(self.settings), 0.0)
    }
}

impl RevoluteJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        let kind = JointKind::Revolute(self.settings);
        JointBlueprint::angled(self.base, kind, self.reference_angle)
    }
}

impl PrismaticJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        let kind = JointKind::Prismatic(self.settings);
        JointBlueprint::along_axis(self.base, kind, self.local_axis_a, self.reference_angle)
    }
}

impl WeldJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        let kind = JointKind::Weld(self.settings);
        JointBlueprint::angled(self.base, kind, self.reference_angle)
    }
}

impl WheelJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        let kind = JointKind::Wheel(self.settings);
        JointBlueprint::along_axis(self.base, kind, self.local_axis_a, 0.0)
    }
}

impl MotorJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        JointBlueprint::angled(self.base, JointKind::Motor(self.settings), 0.0)
    }
}

impl TargetJointDef {
    pub(crate) fn blueprint(&self) -> Result<JointBlueprint, PrismError> {
        JointBlueprint::angled(self.base, JointKind::Target(self.settings), 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> JointDef {
        JointDef::new(BodyId::new(0, 1), BodyId::new(1, 1))
    }

    #[test]
    fn reference_angle_rotates_frame_b_only() {
        let def = RevoluteJointDef {
            reference_angle: 0.3,
            ..RevoluteJointDef::new(base())
        };
        let blueprint = def.blueprint().unwrap();
        assert_eq!(blueprint.frame_a.q, Rot::IDENTITY);
        assert!((blueprint.frame_b.q.angle() + 0.3).abs() < 1e-6);
    }

    #[test]
    fn axis_sets_frame_a_and_keeps_the_reference() {
        let def = PrismaticJointDef {
            local_axis_a: Vec2::new(0.0, 2.0),
            reference_angle: 0.25,
            ..PrismaticJointDef::new(base())
        };
        let blueprint = def.blueprint().unwrap();
        let x_axis = blueprint.frame_a.q.x_axis();
        assert!((x_axis - Vec2::Y).length() < 1e-6, "{x_axis:?}");
        let relative = Rot::relative_angle(blueprint.frame_a.q, blueprint.frame_b.q);
        assert!((relative + 0.25).abs() < 1e-6, "{relative}");
    }

    #[test]
    fn zero_axis_and_bad_thresholds_are_rejected() {
        let def = WheelJointDef {
            local_axis_a: Vec2::ZERO,
            ..WheelJointDef::new(base())
        };
        assert!(matches!(
            def.blueprint(),
            Err(PrismError::OutOfRange {
                field: "local_axis_a",
                ..
            })
        ));
        let mut joint = base();
        joint.break_force = 0.0;
        assert!(joint.validate().is_err());
        joint.break_force = f32::NAN;
        assert!(joint.validate().is_err());
        joint.break_force = f32::INFINITY;
        assert!(joint.validate().is_ok());
    }
}
