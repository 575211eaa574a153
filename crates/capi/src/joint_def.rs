//! Joint definitions: what every joint has (`PrismJointDef`) and one structure per kind.
//!
//! Each kind's structure starts with a `PrismJointDef base` (the two bodies, an anchor on each
//! relative to the body origin, `collide_connected`, break thresholds, user data) followed by
//! the kind's settings, flattened, and ends with `internal_value`. The defaults are the
//! engine's, with both bodies unset (`{0}`): fill `base.body_a` and `base.body_b` — by hand, or
//! with `prism_joint_anchored_def()` to put both anchors at one world point.

use crate::def::{DEF_MARKER, check_marker};
use crate::ids::PrismBodyId;
use crate::math::PrismVec2;
use crate::status::CapiError;
use prism::{
    BodyId, DistanceJoint, DistanceJointDef, JointDef, MotorJoint, MotorJointDef, PrismaticJoint,
    PrismaticJointDef, RevoluteJoint, RevoluteJointDef, TargetJoint, TargetJointDef, WeldJoint,
    WeldJointDef, WheelJoint, WheelJointDef,
};

/// What every joint has. Start from `prism_default_joint_def()` or
/// `prism_joint_anchored_def()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismJointDef {
    /// The first body.
    pub body_a: PrismBodyId,
    /// The second body.
    pub body_b: PrismBodyId,
    /// The anchor on body A, relative to A's origin in A's frame (m).
    pub local_anchor_a: PrismVec2,
    /// The anchor on body B, relative to B's origin in B's frame (m).
    pub local_anchor_b: PrismVec2,
    /// Whether the two bodies' shapes collide with each other (default false).
    pub collide_connected: bool,
    /// Force (N, > 0) above which the joint breaks; infinity (the default) never breaks.
    pub break_force: f32,
    /// Torque (N·m, > 0) above which the joint breaks; infinity (the default) never breaks.
    pub break_torque: f32,
    /// Opaque value for the caller.
    pub user_data: u64,
}

/// A distance joint: a rod, spring or rope between the anchors.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismDistanceJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// Rest length (m), ≥ 0 (default 1).
    pub length: f32,
    /// Whether the length is held by a spring instead of rigidly.
    pub enable_spring: bool,
    /// Spring frequency (Hz), ≥ 0.
    pub hertz: f32,
    /// Spring damping ratio, ≥ 0.
    pub damping_ratio: f32,
    /// Whether `min_length` and `max_length` bound the length.
    pub enable_limit: bool,
    /// Shortest length (m).
    pub min_length: f32,
    /// Longest length (m).
    pub max_length: f32,
    /// Whether a motor drives the length.
    pub enable_motor: bool,
    /// Motor speed (m/s).
    pub motor_speed: f32,
    /// Largest motor force (N).
    pub max_motor_force: f32,
    /// Set by `prism_default_distance_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A revolute joint: a hinge at the anchors.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismRevoluteJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// `angle_b − angle_a` (rad) at which the joint angle is zero.
    pub reference_angle: f32,
    /// Whether a spring pulls the joint angle to zero.
    pub enable_spring: bool,
    /// Spring frequency (Hz).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Whether `lower_angle` and `upper_angle` bound the joint angle.
    pub enable_limit: bool,
    /// Lower angle limit (rad).
    pub lower_angle: f32,
    /// Upper angle limit (rad).
    pub upper_angle: f32,
    /// Whether a motor drives the joint.
    pub enable_motor: bool,
    /// Motor speed (rad/s).
    pub motor_speed: f32,
    /// Largest motor torque (N·m).
    pub max_motor_torque: f32,
    /// Set by `prism_default_revolute_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A prismatic joint: anchor B slides along an axis fixed in body A, without relative
/// rotation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismPrismaticJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// Sliding direction in body A's frame (non-zero; default (1, 0)).
    pub local_axis_a: PrismVec2,
    /// `angle_b − angle_a` (rad) the joint keeps.
    pub reference_angle: f32,
    /// Whether a spring pulls the translation to zero.
    pub enable_spring: bool,
    /// Spring frequency (Hz).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Whether the translation is bounded.
    pub enable_limit: bool,
    /// Lower translation limit (m).
    pub lower_translation: f32,
    /// Upper translation limit (m).
    pub upper_translation: f32,
    /// Whether a motor drives the translation.
    pub enable_motor: bool,
    /// Motor speed (m/s).
    pub motor_speed: f32,
    /// Largest motor force (N).
    pub max_motor_force: f32,
    /// Set by `prism_default_prismatic_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A weld joint: glues the bodies at the anchors, rigidly or softly.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismWeldJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// `angle_b − angle_a` (rad) the joint keeps.
    pub reference_angle: f32,
    /// Linear stiffness (Hz); 0 is rigid.
    pub linear_hertz: f32,
    /// Linear damping ratio.
    pub linear_damping_ratio: f32,
    /// Angular stiffness (Hz); 0 is rigid.
    pub angular_hertz: f32,
    /// Angular damping ratio.
    pub angular_damping_ratio: f32,
    /// Set by `prism_default_weld_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A wheel joint: anchor B moves along a suspension axis fixed in body A and B turns freely.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismWheelJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// Suspension direction in body A's frame (non-zero; default (0, 1)).
    pub local_axis_a: PrismVec2,
    /// Whether a suspension spring acts along the axis.
    pub enable_spring: bool,
    /// Suspension frequency (Hz).
    pub hertz: f32,
    /// Suspension damping ratio.
    pub damping_ratio: f32,
    /// Whether the suspension travel is bounded.
    pub enable_limit: bool,
    /// Lower travel limit (m).
    pub lower_translation: f32,
    /// Upper travel limit (m).
    pub upper_translation: f32,
    /// Whether a motor turns the wheel.
    pub enable_motor: bool,
    /// Motor speed (rad/s).
    pub motor_speed: f32,
    /// Largest motor torque (N·m).
    pub max_motor_torque: f32,
    /// Set by `prism_default_wheel_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A motor joint: drives body B toward an offset pose relative to body A with bounded force
/// and torque.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismMotorJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// Goal position of B's frame in A's frame (m).
    pub linear_offset: PrismVec2,
    /// Goal joint angle (rad).
    pub angular_offset: f32,
    /// Largest force (N), ≥ 0.
    pub max_force: f32,
    /// Largest torque (N·m), ≥ 0.
    pub max_torque: f32,
    /// Fraction of the pose error corrected per step, 0 to 1.
    pub correction_factor: f32,
    /// Set by `prism_default_motor_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A target joint: pulls anchor B toward a world point (dragging with the mouse). Body A is
/// only the other end (usually the ground) and is never moved.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismTargetJointDef {
    /// Bodies, anchors and options.
    pub base: PrismJointDef,
    /// The world point anchor B is pulled to (m).
    pub target: PrismVec2,
    /// Stiffness (Hz), ≥ 0.
    pub hertz: f32,
    /// Damping ratio, ≥ 0.
    pub damping_ratio: f32,
    /// Largest force (N), ≥ 0.
    pub max_force: f32,
    /// Set by `prism_default_target_joint_def()`; leave it unchanged.
    pub internal_value: i32,
}

impl From<JointDef> for PrismJointDef {
    fn from(def: JointDef) -> PrismJointDef {
        PrismJointDef {
            body_a: def.body_a.into(),
            body_b: def.body_b.into(),
            local_anchor_a: def.local_anchor_a.into(),
            local_anchor_b: def.local_anchor_b.into(),
            collide_connected: def.collide_connected,
            break_force: def.break_force,
            break_torque: def.break_torque,
            user_data: def.user_data,
        }
    }
}

impl From<PrismJointDef> for JointDef {
    fn from(def: PrismJointDef) -> JointDef {
        JointDef {
            body_a: def.body_a.into(),
            body_b: def.body_b.into(),
            local_anchor_a: def.local_anchor_a.into(),
            local_anchor_b: def.local_anchor_b.into(),
            collide_connected: def.collide_connected,
            break_force: def.break_force,
            break_torque: def.break_torque,
            user_data: def.user_data,
        }
    }
}

/// The engine's base definition with both bodies unset: the zeroed id, never valid.
fn unset_base() -> JointDef {
    let unset = BodyId::from(PrismBodyId::default());
    JointDef::new(unset, unset)
}

impl PrismDistanceJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismDistanceJointDef {
        let def = DistanceJointDef::new(unset_base());
        let s = def.settings;
        PrismDistanceJointDef {
            base: def.base.into(),
            length: s.length,
            enable_spring: s.enable_spring,
            hertz: s.hertz,
            damping_ratio: s.damping_ratio,
            enable_limit: s.enable_limit,
            min_length: s.min_length,
            max_length: s.max_length,
            enable_motor: s.enable_motor,
            motor_speed: s.motor_speed,
            max_motor_force: s.max_motor_force,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<DistanceJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismDistanceJointDef",
            "prism_default_distance_joint_def",
        )?;
        Ok(DistanceJointDef {
            base: self.base.into(),
            settings: DistanceJoint {
                length: self.length,
                enable_spring: self.enable_spring,
                hertz: self.hertz,
                damping_ratio: self.damping_ratio,
                enable_limit: self.enable_limit,
                min_length: self.min_length,
                max_length: self.max_length,
                enable_motor: self.enable_motor,
                motor_speed: self.motor_speed,
                max_motor_force: self.max_motor_force,
            },
        })
    }
}

impl PrismRevoluteJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismRevoluteJointDef {
        let def = RevoluteJointDef::new(unset_base());
        let s = def.settings;
        PrismRevoluteJointDef {
            base: def.base.into(),
            reference_angle: def.reference_angle,
            enable_spring: s.enable_spring,
            hertz: s.hertz,
            damping_ratio: s.damping_ratio,
            enable_limit: s.enable_limit,
            lower_angle: s.lower_angle,
            upper_angle: s.upper_angle,
            enable_motor: s.enable_motor,
            motor_speed: s.motor_speed,
            max_motor_torque: s.max_motor_torque,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<RevoluteJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismRevoluteJointDef",
            "prism_default_revolute_joint_def",
        )?;
        Ok(RevoluteJointDef {
            base: self.base.into(),
            reference_angle: self.reference_angle,
            settings: RevoluteJoint {
                enable_spring: self.enable_spring,
                hertz: self.hertz,
                damping_ratio: self.damping_ratio,
                enable_limit: self.enable_limit,
                lower_angle: self.lower_angle,
                upper_angle: self.upper_angle,
                enable_motor: self.enable_motor,
                motor_speed: self.motor_speed,
                max_motor_torque: self.max_motor_torque,
            },
        })
    }
}

impl PrismPrismaticJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismPrismaticJointDef {
        let def = PrismaticJointDef::new(unset_base());
        let s = def.settings;
        PrismPrismaticJointDef {
            base: def.base.into(),
            local_axis_a: def.local_axis_a.into(),
            reference_angle: def.reference_angle,
            enable_spring: s.enable_spring,
            hertz: s.hertz,
            damping_ratio: s.damping_ratio,
            enable_limit: s.enable_limit,
            lower_translation: s.lower_translation,
            upper_translation: s.upper_translation,
            enable_motor: s.enable_motor,
            motor_speed: s.motor_speed,
            max_motor_force: s.max_motor_force,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<PrismaticJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismPrismaticJointDef",
            "prism_default_prismatic_joint_def",
        )?;
        Ok(PrismaticJointDef {
            base: self.base.into(),
            local_axis_a: self.local_axis_a.into(),
            reference_angle: self.reference_angle,
            settings: PrismaticJoint {
                enable_spring: self.enable_spring,
                hertz: self.hertz,
                damping_ratio: self.damping_ratio,
                enable_limit: self.enable_limit,
                lower_translation: self.lower_translation,
                upper_translation: self.upper_translation,
                enable_motor: self.enable_motor,
                motor_speed: self.motor_speed,
                max_motor_force: self.max_motor_force,
            },
        })
    }
}

impl PrismWeldJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismWeldJointDef {
        let def = WeldJointDef::new(unset_base());
        let s = def.settings;
        PrismWeldJointDef {
            base: def.base.into(),
            reference_angle: def.reference_angle,
            linear_hertz: s.linear_hertz,
            linear_damping_ratio: s.linear_damping_ratio,
            angular_hertz: s.angular_hertz,
            angular_damping_ratio: s.angular_damping_ratio,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<WeldJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismWeldJointDef",
            "prism_default_weld_joint_def",
        )?;
        Ok(WeldJointDef {
            base: self.base.into(),
            reference_angle: self.reference_angle,
            settings: WeldJoint {
                linear_hertz: self.linear_hertz,
                linear_damping_ratio: self.linear_damping_ratio,
                angular_hertz: self.angular_hertz,
                angular_damping_ratio: self.angular_damping_ratio,
            },
        })
    }
}

impl PrismWheelJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismWheelJointDef {
        let def = WheelJointDef::new(unset_base());
        let s = def.settings;
        PrismWheelJointDef {
            base: def.base.into(),
            local_axis_a: def.local_axis_a.into(),
            enable_spring: s.enable_spring,
            hertz: s.hertz,
            damping_ratio: s.damping_ratio,
            enable_limit: s.enable_limit,
            lower_translation: s.lower_translation,
            upper_translation: s.upper_translation,
            enable_motor: s.enable_motor,
            motor_speed: s.motor_speed,
            max_motor_torque: s.max_motor_torque,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<WheelJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismWheelJointDef",
            "prism_default_wheel_joint_def",
        )?;
        Ok(WheelJointDef {
            base: self.base.into(),
            local_axis_a: self.local_axis_a.into(),
            settings: WheelJoint {
                enable_spring: self.enable_spring,
                hertz: self.hertz,
                damping_ratio: self.damping_ratio,
                enable_limit: self.enable_limit,
                lower_translation: self.lower_translation,
                upper_translation: self.upper_translation,
                enable_motor: self.enable_motor,
                motor_speed: self.motor_speed,
                max_motor_torque: self.max_motor_torque,
            },
        })
    }
}

impl PrismMotorJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismMotorJointDef {
        let def = MotorJointDef::new(unset_base());
        let s = def.settings;
        PrismMotorJointDef {
            base: def.base.into(),
            linear_offset: s.linear_offset.into(),
            angular_offset: s.angular_offset,
            max_force: s.max_force,
            max_torque: s.max_torque,
            correction_factor: s.correction_factor,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<MotorJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismMotorJointDef",
            "prism_default_motor_joint_def",
        )?;
        Ok(MotorJointDef {
            base: self.base.into(),
            settings: MotorJoint {
                linear_offset: self.linear_offset.into(),
                angular_offset: self.angular_offset,
                max_force: self.max_force,
                max_torque: self.max_torque,
                correction_factor: self.correction_factor,
            },
        })
    }
}

impl PrismTargetJointDef {
    /// The default definition.
    pub(crate) fn default_def() -> PrismTargetJointDef {
        let def = TargetJointDef::new(unset_base());
        let s = def.settings;
        PrismTargetJointDef {
            base: def.base.into(),
            target: s.target.into(),
            hertz: s.hertz,
            damping_ratio: s.damping_ratio,
            max_force: s.max_force,
            internal_value: DEF_MARKER,
        }
    }

    /// The engine's definition, if this one came from its default function.
    pub(crate) fn to_prism(self) -> Result<TargetJointDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismTargetJointDef",
            "prism_default_target_joint_def",
        )?;
        Ok(TargetJointDef {
            base: self.base.into(),
            settings: TargetJoint {
                target: self.target.into(),
                hertz: self.hertz,
                damping_ratio: self.damping_ratio,
                max_force: self.max_force,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default survives the trip to the engine's definition unchanged: no field is
    /// dropped or crossed with another in either direction.
    #[test]
    fn defaults_round_trip_to_the_engine_definitions() {
        assert_eq!(
            PrismDistanceJointDef::default_def().to_prism(),
            Ok(DistanceJointDef::new(unset_base()))
        );
        assert_eq!(
            PrismRevoluteJointDef::default_def().to_prism(),
            Ok(RevoluteJointDef::new(unset_base()))
        );
        assert_eq!(
            PrismPrismaticJointDef::default_def().to_prism(),
            Ok(PrismaticJointDef::new(unset_base()))
        );
        assert_eq!(
            PrismWeldJointDef::default_def().to_prism(),
            Ok(WeldJointDef::new(unset_base()))
        );
        assert_eq!(
            PrismWheelJointDef::default_def().to_prism(),
            Ok(WheelJointDef::new(unset_base()))
        );
        assert_eq!(
            PrismMotorJointDef::default_def().to_prism(),
            Ok(MotorJointDef::new(unset_base()))
        );
        assert_eq!(
            PrismTargetJointDef::default_def().to_prism(),
            Ok(TargetJointDef::new(unset_base()))
        );
        let base = PrismRevoluteJointDef::default_def().base;
        assert_eq!((base.body_a.bits, base.body_b.bits), (0, 0));
    }
}
