//! Joint events: which joints broke in the last step.
//!
//! A breakable joint (finite `break_force` or `break_torque`) is checked after every step it
//! was solved in: if the force or torque it applied exceeded a threshold, it is destroyed right
//! after the solve and reported here with the reaction that broke it. The list is replaced at
//! every step, so it always describes the last one.

use core_soa::{BodyId, JointId, Vec2};

/// A joint broke: its constraint force or torque exceeded its break threshold during a step.
/// The joint has been destroyed; `joint` is stale from now on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointBreakEvent {
    /// The joint that broke (already destroyed).
    pub joint: JointId,
    /// Its first body.
    pub body_a: BodyId,
    /// Its second body.
    pub body_b: BodyId,
    /// The force (N) the joint applied to body B in the step it broke.
    pub force: Vec2,
    /// The torque (N·m) it applied to body B.
    pub torque: f32,
    /// The joint's user data.
    pub user_data: u64,
}

/// The joint events of the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointEvents<'a> {
    /// Joints broken in the step, in the order the solver listed them.
    pub breaks: &'a [JointBreakEvent],
}
