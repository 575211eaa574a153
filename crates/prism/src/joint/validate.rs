//! Joint settings a user may give, and the check that refuses the others.
//!
//! The settings structs ([`RevoluteJoint`], …) are plain data the solver reads as they are; it
//! assumes them usable. Whether they are is decided here, once, when a joint is created or its
//! settings are changed: every value finite, rates, lengths and force bounds non-negative, each
//! lower limit at most its upper limit, a motor joint's correction factor in [0, 1]. A refusal
//! names the field as `kind.field` (`"revolute.lower_angle"`) with the offending value, and
//! changes nothing.

use crate::error::PrismError;
use core_soa::Vec2;
use solver_simd::joint::{
    DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, TargetJoint, WeldJoint,
    WheelJoint,
};

/// Checks a kind's settings (see the module notes).
pub(crate) fn validate_kind(kind: &JointKind) -> Result<(), PrismError> {
    match kind {
        JointKind::Distance(j) => distance(j),
        JointKind::Revolute(j) => revolute(j),
        JointKind::Prismatic(j) => prismatic(j),
        JointKind::Weld(j) => weld(j),
        JointKind::Wheel(j) => wheel(j),
        JointKind::Motor(j) => motor(j),
        JointKind::Target(j) => target(j),
    }
}

fn distance(j: &DistanceJoint) -> Result<(), PrismError> {
    let check = Fields("distance");
    check.non_negative("length", j.length)?;
    check.spring(j.hertz, j.damping_ratio)?;
    check.non_negative("min_length", j.min_length)?;
    check.range(("min_length", j.min_length), ("max_length", j.max_length))?;
    check.motor(j.motor_speed, ("max_motor_force", j.max_motor_force))
}

fn revolute(j: &RevoluteJoint) -> Result<(), PrismError> {
    let check = Fields("revolute");
    check.spring(j.hertz, j.damping_ratio)?;
    check.range(
        ("lower_angle", j.lower_angle),
        ("upper_angle", j.upper_angle),
    )?;
    check.motor(j.motor_speed, ("max_motor_torque", j.max_motor_torque))
}

fn prismatic(j: &PrismaticJoint) -> Result<(), PrismError> {
    let check = Fields("prismatic");
    check.spring(j.hertz, j.damping_ratio)?;
    check.range(
        ("lower_translation", j.lower_translation),
        ("upper_translation", j.upper_translation),
    )?;
    check.motor(j.motor_speed, ("max_motor_force", j.max_motor_force))
}

fn wheel(j: &WheelJoint) -> Result<(), PrismError> {
    let check = Fields("wheel");
    check.spring(j.hertz, j.damping_ratio)?;
    check.range(
        ("lower_translation", j.lower_translation),
        ("upper_translation", j.upper_translation),
    )?;
    check.motor(j.motor_speed, ("max_motor_torque", j.max_motor_torque))
}

fn weld(j: &WeldJoint) -> Result<(), PrismError> {
    let check = Fields("weld");
    check.non_negative("linear_hertz", j.linear_hertz)?;
    check.non_negative("linear_damping_ratio", j.linear_damping_ratio)?;
    check.non_negative("angular_hertz", j.angular_hertz)?;
    check.non_negative("angular_damping_ratio", j.angular_damping_ratio)
}

fn motor(j: &MotorJoint) -> Result<(), PrismError> {
    let check = Fields("motor");
    check.finite_vec("linear_offset", j.linear_offset)?;
    check.finite("angular_offset", j.angular_offset)?;
    check.non_negative("max_force", j.max_force)?;
    check.non_negative("max_torque", j.max_torque)?;
    check.non_negative("correction_factor", j.correction_factor)?;
    if j.correction_factor > 1.0 {
        return Err(check.refuse("correction_factor", j.correction_factor, "at most 1"));
    }
    Ok(())
}

fn target(j: &TargetJoint) -> Result<(), PrismError> {
    let check = Fields("target");
    check.finite_vec("target", j.target)?;
    check.non_negative("hertz", j.hertz)?;
    check.non_negative("damping_ratio", j.damping_ratio)?;
    check.non_negative("max_force", j.max_force)
}

/// The checks of one kind's fields, which it names as `kind.field`.
struct Fields(&'static str);

impl Fields {
    fn refuse(&self, field: &str, value: f32, requirement: &str) -> PrismError {
        PrismError::InvalidJoint {
            field: format!("{}.{field}", self.0),
            reason: format!("is {value}; it must be {requirement}"),
        }
    }

    fn finite(&self, field: &str, value: f32) -> Result<(), PrismError> {
        if value.is_finite() {
            Ok(())
        } else {
            Err(self.refuse(field, value, "finite"))
        }
    }

    fn finite_vec(&self, field: &str, value: Vec2) -> Result<(), PrismError> {
        self.finite(&format!("{field}.x"), value.x)?;
        self.finite(&format!("{field}.y"), value.y)
    }

    fn non_negative(&self, field: &str, value: f32) -> Result<(), PrismError> {
        if value.is_finite() && value >= 0.0 {
            Ok(())
        } else {
            Err(self.refuse(field, value, "finite and at least 0"))
        }
    }

    /// Both bounds finite and `lower ≤ upper`; an inverted range names the lower bound.
    fn range(&self, lower: (&str, f32), upper: (&str, f32)) -> Result<(), PrismError> {
        self.finite(lower.0, lower.1)?;
        self.finite(upper.0, upper.1)?;
        if lower.1 <= upper.1 {
            Ok(())
        } else {
            let requirement = format!("at most {} ({})", upper.0, upper.1);
            Err(self.refuse(lower.0, lower.1, &requirement))
        }
    }

    fn spring(&self, hertz: f32, damping_ratio: f32) -> Result<(), PrismError> {
        self.non_negative("hertz", hertz)?;
        self.non_negative("damping_ratio", damping_ratio)
    }

    fn motor(&self, speed: f32, (max_field, max): (&str, f32)) -> Result<(), PrismError> {
        self.finite("motor_speed", speed)?;
        self.non_negative(max_field, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(kind: JointKind) -> String {
        match validate_kind(&kind) {
            Err(PrismError::InvalidJoint { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn refusals_name_the_bad_field() {
        let inverted = RevoluteJoint {
            lower_angle: 1.0,
            upper_angle: -1.0,
            ..RevoluteJoint::default()
        };
        assert_eq!(field(JointKind::Revolute(inverted)), "revolute.lower_angle");
        let open_ended = PrismaticJoint {
            upper_translation: f32::NAN,
            ..PrismaticJoint::default()
        };
        let open_ended = JointKind::Prismatic(open_ended);
        assert_eq!(field(open_ended), "prismatic.upper_translation");
        let nan_spring = DistanceJoint {
            hertz: f32::NAN,
            ..DistanceJoint::default()
        };
        assert_eq!(field(JointKind::Distance(nan_spring)), "distance.hertz");
        let overcorrected = MotorJoint {
            correction_factor: 1.5,
            ..MotorJoint::default()
        };
        let overcorrected = JointKind::Motor(overcorrected);
        assert_eq!(field(overcorrected), "motor.correction_factor");
        let lost = TargetJoint {
            target: Vec2::new(0.0, f32::INFINITY),
            ..TargetJoint::default()
        };
        assert_eq!(field(JointKind::Target(lost)), "target.target.y");
    }

    #[test]
    fn the_defaults_are_accepted() {
        let kinds = [
            JointKind::Distance(DistanceJoint::default()),
            JointKind::Revolute(RevoluteJoint::default()),
            JointKind::Prismatic(PrismaticJoint::default()),
            JointKind::Weld(WeldJoint::default()),
            JointKind::Wheel(WheelJoint::default()),
            JointKind::Motor(MotorJoint::default()),
            JointKind::Target(TargetJoint::default()),
        ];
        for kind in kinds {
            assert_eq!(validate_kind(&kind), Ok(()), "{kind:?}");
        }
    }
}
