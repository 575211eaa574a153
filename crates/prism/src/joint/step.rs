//! The joints' part of a step.
//!
//! Joints need nothing built for the solver: their constraints already sit in the graph's
//! colours, with sides kept current (`relocate.rs`), and the solver prepares, warm starts,
//! solves and relaxes each colour's joints in that colour's stages, before its contacts
//! (joints are the stiffer constraints; contacts get the last word), the overflow joints with
//! the overflow contacts on the scalar path. Around the solve:
//!
//! ```text
//!   before   a new substep rescales the carried impulses     only when the substep changed
//!   after    breakable joints over a threshold are destroyed  O(breakable joints)
//!            and reported
//! ```
//!
//! **Carried impulses** are per-substep impulses (`λ` over one substep `h`): when the user
//! changes the substep count, a carried impulse still describes the force `λ/h_old`, so it is
//! rescaled by `h_new/h_old` to keep the same force (a warm start with the wrong scale would
//! kick the bodies for one step). Every joint is rescaled, asleep ones too, so each joint's
//! impulses are always those of [`JointStore::substep`].
//!
//! **Reactions** are not stored: the force and torque a joint applied to body B in its last
//! solve are its accumulated impulses over the substep, computed on request
//! ([`World::joint_reaction`]).

use crate::joint::events::JointBreakEvent;
use crate::joint::store::JointRecord;
use crate::profile::zone;
use crate::world::World;
use core_soa::JointId;
use solver_simd::SolverKind;
use solver_simd::joint::{JointConstraint, JointImpulses, JointReaction};

impl World {
    /// The interval the joint impulses of a step are accumulated over: the substep
    /// `dt/substeps` of the soft step, the whole step for sequential impulses.
    pub(crate) fn joint_substep(&self, dt: f32, substeps: u32) -> f32 {
        match self.def.solver_kind {
            SolverKind::SoftStep => dt / substeps.max(1) as f32,
            SolverKind::SequentialImpulses => dt,
        }
    }

    /// Makes every joint's carried impulses describe substep `h` (see the module notes).
    pub(crate) fn rescale_joint_impulses(&mut self, h: f32) {
        let old = self.joints.substep;
        self.joints.substep = h;
        if old <= 0.0 || old == h || self.joints.arena.is_empty() {
            return;
        }
        let scale = h / old;
        for colored in self.graph_joint_lists() {
            for joint in colored.iter_mut() {
                joint.impulses = scaled(joint.impulses, scale);
            }
        }
        for set in &mut self.solver_sets {
            for joint in &mut set.joints {
                joint.impulses = scaled(joint.impulses, scale);
            }
        }
    }

    /// Every colour's joints (and the overflow's), for writing.
    fn graph_joint_lists(&mut self) -> impl Iterator<Item = &mut Vec<JointConstraint>> {
        self.graph.colors_mut().map(|(_, joints)| joints)
    }

    /// Zeroes the carried impulses of solved joints that are not finite (after a step in which
    /// a body diverged), so that no NaN is warm started.
    pub(crate) fn drop_non_finite_joint_impulses(&mut self) {
        for joints in self.graph_joint_lists() {
            for joint in joints.iter_mut() {
                if !is_finite_impulses(&joint.impulses) {
                    joint.impulses = JointImpulses::default();
                }
            }
        }
    }

    /// The force and torque joint `index` applied to body B in its last solve.
    pub(crate) fn joint_reaction_of(&self, index: u32) -> JointReaction {
        let h = self.joints.substep;
        match self.joint_sim(index) {
            Some(joint) if h > 0.0 => {
                let reaction = joint.reaction(1.0 / h);
                let finite = reaction.force.is_finite() && reaction.torque.is_finite();
                if finite {
                    reaction
                } else {
                    JointReaction::default()
                }
            }
            _ => JointReaction::default(),
        }
    }

    /// Destroys the solved joints whose reaction exceeded a break threshold this step and
    /// reports them, in joint-index order; replaces the last step's break events. Only
    /// breakable joints in the graph (solved this step) are looked at.
    pub(crate) fn break_overloaded_joints(&mut self) {
        zone!("break_joints");
        self.joints.break_events.clear();
        let store = &self.joints;
        let broken: Vec<JointBreakEvent> = store
            .breakable
            .iter()
            .filter_map(|&index| {
                let id = store.arena.key_at(index)?;
                let record = store.arena.get(id)?;
                record.graph?;
                let reaction = self.joint_reaction_of(index);
                overloaded(record, &reaction).then(|| break_event(id, record, &reaction))
            })
            .collect();
        for event in broken {
            self.remove_joint(event.joint.index());
            self.joints.break_events.push(event);
        }
    }
}

/// `impulses` times `scale`; zero if that is not finite: a substep 10³⁸ times the last one
/// overflows the scale or the product (and `0·∞` is NaN), and then there is no force worth
/// carrying, so the joint starts cold.
fn scaled(impulses: JointImpulses, scale: f32) -> JointImpulses {
    let rescaled = JointImpulses {
        linear: scale * impulses.linear,
        angular: scale * impulses.angular,
        spring: scale * impulses.spring,
        motor: scale * impulses.motor,
        lower: scale * impulses.lower,
        upper: scale * impulses.upper,
    };
    if is_finite_impulses(&rescaled) {
        rescaled
    } else {
        JointImpulses::default()
    }
}

fn is_finite_impulses(i: &JointImpulses) -> bool {
    i.linear.is_finite()
        && [i.angular, i.spring, i.motor, i.lower, i.upper]
            .iter()
            .all(|v| v.is_finite())
}

/// Whether a breakable joint's last reaction exceeds its thresholds.
fn overloaded(record: &JointRecord, reaction: &JointReaction) -> bool {
    record.is_breakable() && reaction.exceeds(record.base.break_force, record.base.break_torque)
}

fn break_event(joint: JointId, record: &JointRecord, reaction: &JointReaction) -> JointBreakEvent {
    JointBreakEvent {
        joint,
        body_a: record.base.body_a,
        body_b: record.base.body_b,
        force: reaction.force,
        torque: reaction.torque,
        user_data: record.base.user_data,
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodyDef, Circle, JointDef, RevoluteJointDef, ShapeDef, World, WorldDef};
    use core_soa::Vec2;

    /// A pendulum held by a hinge: the reaction the hinge reports keeps the same force when the
    /// substep count changes (the carried impulses are rescaled), and balances the weight at
    /// the bottom of the swing.
    #[test]
    fn carried_impulses_keep_their_force_when_the_substep_changes() {
        let mut world = World::new(WorldDef {
            enable_sleep: false,
            ..WorldDef::default()
        })
        .unwrap();
        let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
        let bob = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, -1.0)))
            .unwrap();
        let circle = Circle {
            center: Vec2::ZERO,
            radius: 0.1,
        };
        world
            .create_circle_shape(bob, &ShapeDef::default(), &circle)
            .unwrap();
        let def = JointDef {
            local_anchor_b: Vec2::new(0.0, 1.0),
            ..JointDef::new(ground, bob)
        };
        let hinge = world
            .create_revolute_joint(&RevoluteJointDef::new(def))
            .unwrap();
        for _ in 0..60 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        let weight = world.mass_data(bob).unwrap().mass * 10.0;
        let (force, _) = world.joint_reaction(hinge).unwrap();
        assert!(
            (force.y - weight).abs() < 0.01 * weight,
            "{force:?} vs {weight}"
        );
        let carried = world.joint_sim(hinge.index()).unwrap().impulses.linear;
        world.step(1.0 / 60.0, 8).unwrap();
        // Before the solve the carried impulse was halved with the substep; the solve keeps it.
        let (force, _) = world.joint_reaction(hinge).unwrap();
        assert!(
            (force.y - weight).abs() < 0.01 * weight,
            "{force:?} vs {weight}"
        );
        let now = world.joint_sim(hinge.index()).unwrap().impulses.linear;
        assert!(
            (now - 0.5 * carried).length() < 0.01 * carried.length(),
            "{now:?} {carried:?}"
        );
    }
}
