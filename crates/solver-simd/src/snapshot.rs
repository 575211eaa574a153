//! Snapshot encoding (core-soa's `snapshot` codec) of the records the world keeps between
//! steps: contact records with their manifolds and accumulated impulses, and joint constraints
//! with their settings, body sides, prepared terms and accumulated impulses. Everything is
//! written bit for bit, so a restored constraint warm-starts exactly as the original would.
//! The solver's scratch (bundles, stages) is rebuilt by every step and is not state.

use crate::joint::{
    DistanceJoint, JointBody, JointConstraint, JointImpulses, JointKind, JointPrepared, MotorJoint,
    PreparedBodies, PrismaticJoint, RevoluteJoint, TargetJoint, WeldJoint, WheelJoint,
};
use crate::{Softness, SolverContact, SolverKind};
use core_soa::snap_struct;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};

snap_struct!(SolverContact {
    body_a,
    body_b,
    inv_mass_a,
    inv_inertia_a,
    inv_mass_b,
    inv_inertia_b,
    friction,
    restitution,
    manifold,
});
snap_struct!(Softness {
    bias_rate,
    mass_scale,
    impulse_scale
});
snap_struct!(JointBody {
    index,
    inv_mass,
    inv_inertia,
    local_frame,
    fixed_pose,
});
snap_struct!(JointImpulses {
    linear,
    angular,
    spring,
    motor,
    lower,
    upper
});
snap_struct!(PreparedBodies {
    index_a,
    index_b,
    inv_mass_a,
    inv_inertia_a,
    inv_mass_b,
    inv_inertia_b,
});
snap_struct!(JointPrepared {
    bodies,
    anchor_a,
    anchor_b,
    delta_center,
    joint_softness,
    angular_mass,
    axis,
    delta_angle,
    spring_softness,
    angular_softness,
    axial_mass,
});
snap_struct!(JointConstraint {
    kind,
    impulses,
    handle,
    prepared,
    body_a,
    body_b,
});
snap_struct!(DistanceJoint {
    length,
    enable_spring,
    hertz,
    damping_ratio,
    enable_limit,
    min_length,
    max_length,
    enable_motor,
    motor_speed,
    max_motor_force,
});
snap_struct!(RevoluteJoint {
    enable_spring,
    hertz,
    damping_ratio,
    enable_limit,
    lower_angle,
    upper_angle,
    enable_motor,
    motor_speed,
    max_motor_torque,
});
snap_struct!(PrismaticJoint {
    enable_spring,
    hertz,
    damping_ratio,
    enable_limit,
    lower_translation,
    upper_translation,
    enable_motor,
    motor_speed,
    max_motor_force,
});
snap_struct!(WeldJoint {
    linear_hertz,
    linear_damping_ratio,
    angular_hertz,
    angular_damping_ratio,
});
snap_struct!(WheelJoint {
    enable_spring,
    hertz,
    damping_ratio,
    enable_limit,
    lower_translation,
    upper_translation,
    enable_motor,
    motor_speed,
    max_motor_torque,
});
snap_struct!(MotorJoint {
    linear_offset,
    angular_offset,
    max_force,
    max_torque,
    correction_factor,
});
snap_struct!(TargetJoint {
    target,
    hertz,
    damping_ratio,
    max_force
});

impl Snap for JointKind {
    fn put(&self, w: &mut Writer) {
        match self {
            JointKind::Distance(joint) => (0u8, joint).put_tagged(w),
            JointKind::Revolute(joint) => (1u8, joint).put_tagged(w),
            JointKind::Prismatic(joint) => (2u8, joint).put_tagged(w),
            JointKind::Weld(joint) => (3u8, joint).put_tagged(w),
            JointKind::Wheel(joint) => (4u8, joint).put_tagged(w),
            JointKind::Motor(joint) => (5u8, joint).put_tagged(w),
            JointKind::Target(joint) => (6u8, joint).put_tagged(w),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(match u8::get(r)? {
            0 => JointKind::Distance(r.field("JointKind::Distance")?),
            1 => JointKind::Revolute(r.field("JointKind::Revolute")?),
            2 => JointKind::Prismatic(r.field("JointKind::Prismatic")?),
            3 => JointKind::Weld(r.field("JointKind::Weld")?),
            4 => JointKind::Wheel(r.field("JointKind::Wheel")?),
            5 => JointKind::Motor(r.field("JointKind::Motor")?),
            6 => JointKind::Target(r.field("JointKind::Target")?),
            tag => return Err(r.error("JointKind", format!("joint kind tag {tag}"))),
        })
    }
}

/// A variant's tag followed by its fields.
trait PutTagged {
    fn put_tagged(self, w: &mut Writer);
}

impl<T: Snap> PutTagged for (u8, &T) {
    fn put_tagged(self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
}

impl Snap for SolverKind {
    fn put(&self, w: &mut Writer) {
        let tag: u8 = match self {
            SolverKind::SoftStep => 0,
            SolverKind::SequentialImpulses => 1,
        };
        tag.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        match u8::get(r)? {
            0 => Ok(SolverKind::SoftStep),
            1 => Ok(SolverKind::SequentialImpulses),
            tag => Err(r.error("", format!("solver kind tag {tag}"))),
        }
    }
}
