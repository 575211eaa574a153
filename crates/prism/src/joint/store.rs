//! Joint storage and the joint's places in the world's other structures.
//!
//! A joint is two records: a cold [`JointRecord`] in an arena (stable slot, generational
//! [`JointId`]) — its definition, its frames on both bodies, its links in the bodies' joint
//! lists and where its constraint is — and the solver's [`JointConstraint`] — kind and
//! settings, sides, accumulated impulses, prepared data — which lives where the joint's state
//! puts it and is solved in place:
//!
//! ```text
//!   a graph colour (or overflow)  both bodies awake or static, one dynamic: solved
//!   the awake set's store         no dynamic body (kinematic with static or kinematic)
//!   a sleeping set's store        its island sleeps: untouched, impulses kept
//!   the disabled set's store      a body is disabled: parked, untouched, impulses kept
//! ```
//!
//! The constraint's `handle` is the joint's arena index, so the record of a constraint moved by
//! a swap-remove can be found and its index rewritten (`graph.rs`). Joints enter and leave
//! colours exactly when they are created or destroyed and when their island falls asleep or
//! wakes (`solver_set.rs`) — never by a scan — and their sides are rewritten whenever a body
//! moves or changes mass (`relocate.rs`). Besides, a joint is threaded into:
//!
//! ```text
//!   body joint lists   intrusive doubly linked lists through JointRecord::edges
//!                      (constraint_list.rs), heads in the bodies' cold records
//!   islands            a link between the islands of two dynamic bodies (ConstraintKey::joint)
//! ```

use crate::body::Body;
use crate::constraint_list::{Edge, ListNode, attach, detach, edge_constraint, edge_side};
use crate::contact::GraphPlace;
use crate::joint::def::{JointBlueprint, JointDef};
use crate::joint::events::JointBreakEvent;
use crate::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;
use core_soa::{Arena, BodyId, JointId, NULL_INDEX, Transform};
use island::ConstraintKey;
use solver_simd::joint::{JointBody, JointConstraint};

/// The cold joint record.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JointRecord {
    /// Bodies, origin-relative anchors and the joint-wide options.
    pub(crate) base: JointDef,
    /// Frame on each body relative to the body origin (anchor and orientation).
    pub(crate) frame_a: Transform,
    pub(crate) frame_b: Transform,
    /// Side 0 is body A's list, side 1 body B's.
    pub(crate) edges: [Edge; 2],
    /// The solver set whose store holds the constraint (the awake set for graph members).
    pub(crate) set_index: u32,
    /// The graph colour holding the constraint, if it is in the graph.
    pub(crate) graph: Option<GraphPlace>,
    /// The constraint's index in its colour or set store.
    pub(crate) local_index: u32,
}

impl ListNode for JointRecord {
    fn edges(&self) -> &[Edge; 2] {
        &self.edges
    }

    fn edges_mut(&mut self) -> &mut [Edge; 2] {
        &mut self.edges
    }
}

impl JointRecord {
    /// Whether the joint can ever break.
    pub(crate) fn is_breakable(&self) -> bool {
        self.base.break_force.is_finite() || self.base.break_torque.is_finite()
    }
}

/// The world's joints.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointStore {
    pub(crate) arena: Arena<JointRecord, JointId>,
    /// The arena indices of the breakable joints, in increasing order.
    pub(crate) breakable: Vec<u32>,
    /// Joints broken in the last step.
    pub(crate) break_events: Vec<JointBreakEvent>,
    /// The interval the carried impulses were accumulated over (0 before the first solve).
    pub(crate) substep: f32,
}

impl JointStore {
    /// Marks joint `index` breakable or not.
    pub(crate) fn set_breakable(&mut self, index: u32, breakable: bool) {
        match (self.breakable.binary_search(&index), breakable) {
            (Err(at), true) => self.breakable.insert(at, index),
            (Ok(at), false) => {
                self.breakable.remove(at);
            }
            _ => {}
        }
    }
}

impl World {
    /// Inserts a validated joint: arena record, both bodies' lists, islands, and its constraint
    /// in a colour (or the awake set). Wakes both bodies first.
    pub(crate) fn insert_joint(&mut self, blueprint: &JointBlueprint) -> JointId {
        let (a, b) = (blueprint.base.body_a.index(), blueprint.base.body_b.index());
        self.wake_body(a);
        self.wake_body(b);
        let record = JointRecord {
            base: blueprint.base,
            frame_a: blueprint.frame_a,
            frame_b: blueprint.frame_b,
            edges: [Edge::UNLINKED; 2],
            set_index: AWAKE_SET,
            graph: None,
            local_index: 0,
        };
        let breakable = record.is_breakable();
        let id = self.joints.arena.insert(record);
        let index = id.index();
        self.joints.set_breakable(index, breakable);
        for (side, body) in [(0, a), (1, b)] {
            if let Some(owner) = self.bodies.get_by_index_mut(body) {
                attach(&mut self.joints.arena, &mut owner.joints, index, side, body);
            }
        }
        self.link_joint_islands(index);
        let fixed = JointBody::fixed(Transform::IDENTITY, Transform::IDENTITY);
        let mut joint = JointConstraint::new(blueprint.kind, fixed, fixed);
        joint.handle = index;
        // A joint to a disabled body is parked until both are enabled (`body_enable.rs`).
        let parked = self.is_body_index_disabled(a) || self.is_body_index_disabled(b);
        let set = if parked { DISABLED_SET } else { AWAKE_SET };
        self.store_joint_sim(index, joint, set);
        self.refresh_joint_bodies(index);
        id
    }

    /// Removes joint `index` from every structure and the arena. Wakes both bodies first, so
    /// the island it leaves is awake (an island may only be unlinked while awake).
    pub(crate) fn remove_joint(&mut self, index: u32) -> Option<JointRecord> {
        let id = self.joints.arena.key_at(index)?;
        let record = self.joints.arena.get(id)?;
        let (a, b) = (record.edges[0].body, record.edges[1].body);
        self.wake_body(a);
        self.wake_body(b);
        self.take_joint_sim(index);
        self.unlink_joint_islands(index);
        for side in 0..2u32 {
            let body = self.joints.arena.get(id)?.edges[side as usize].body;
            if let Some(owner) = self.bodies.get_by_index_mut(body) {
                detach(&mut self.joints.arena, &mut owner.joints, index, side);
            }
        }
        self.joints.set_breakable(index, false);
        self.joints.arena.remove(id)
    }

    /// Removes every joint of body `body_index` (when the body is destroyed).
    pub(crate) fn remove_body_joints(&mut self, body_index: u32) {
        for joint in self.joints_of_body(body_index) {
            self.remove_joint(joint);
        }
    }

    /// The constraint of joint `index`, wherever it is stored.
    pub(crate) fn joint_sim(&self, index: u32) -> Option<&JointConstraint> {
        let record = self.joints.arena.get_by_index(index)?;
        let local = record.local_index as usize;
        match record.graph {
            Some(place) => self.graph.joints(place.color).get(local),
            None => self
                .solver_sets
                .get(record.set_index as usize)?
                .joints
                .get(local),
        }
    }

    /// The constraint of joint `index`, for writing.
    pub(crate) fn joint_sim_mut(&mut self, index: u32) -> Option<&mut JointConstraint> {
        let record = self.joints.arena.get_by_index(index)?;
        let local = record.local_index as usize;
        match record.graph {
            Some(place) => self.graph.joints_mut(place.color).get_mut(local),
            None => self
                .solver_sets
                .get_mut(record.set_index as usize)?
                .joints
                .get_mut(local),
        }
    }

    /// Whether a joint between the two bodies forbids their shapes to collide: some joint
    /// connecting them has `collide_connected == false`. Walks the shorter joint list.
    pub(crate) fn joint_prevents_collision(&self, body_a: u32, body_b: u32) -> bool {
        joint_forbids_collision(&self.bodies, &self.joints.arena, body_a, body_b)
    }

    /// Joins the islands of the joint's bodies when both are dynamic (both awake: creation
    /// woke them).
    pub(crate) fn link_joint_islands(&mut self, index: u32) {
        let Some(joint) = self.joints.arena.get_by_index(index) else {
            return;
        };
        let (a, b) = (joint.edges[0].body, joint.edges[1].body);
        let graph = &mut self.islands.graph;
        if graph.island_of(a).is_some() && graph.island_of(b).is_some() {
            let linked = graph.link(ConstraintKey::joint(index), a, b);
            debug_assert!(linked.is_ok(), "link joint {index}: {linked:?}");
        }
    }

    /// Unlinks the joint from its island (a split candidate from then on).
    pub(crate) fn unlink_joint_islands(&mut self, index: u32) {
        let key = ConstraintKey::joint(index);
        if self.islands.graph.island_of_constraint(key).is_some() {
            let unlinked = self.islands.graph.unlink(key);
            debug_assert!(unlinked.is_ok(), "unlink joint {index}: {unlinked:?}");
        }
    }
}

/// Whether some joint between the bodies at arena indices `body_a` and `body_b` has
/// `collide_connected == false`, so that their shapes must not collide. Walks the shorter of
/// the two joint lists in place (for passes that hold the arenas rather than the world).
pub(crate) fn joint_forbids_collision(
    bodies: &Arena<Body, BodyId>,
    joints: &Arena<JointRecord, JointId>,
    body_a: u32,
    body_b: u32,
) -> bool {
    let head = |body| bodies.get_by_index(body).map(|b| b.joints);
    let (Some(head_a), Some(head_b)) = (head(body_a), head(body_b)) else {
        return false;
    };
    let (walked, other) = if head_a.count <= head_b.count {
        (head_a, body_b)
    } else {
        (head_b, body_a)
    };
    let mut key = walked.first;
    while key != NULL_INDEX {
        let Some(joint) = joints.get_by_index(edge_constraint(key)) else {
            return false;
        };
        let ends = [joint.edges[0].body, joint.edges[1].body];
        if !joint.base.collide_connected && ends.contains(&other) {
            return true;
        }
        key = joint.edges[edge_side(key) as usize].next;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::{BodyDef, Circle, JointDef, RevoluteJointDef, ShapeDef, Vec2, World, WorldDef};

    const DT: f32 = 1.0 / 60.0;

    /// A joint follows its body into sleep and back, and one created while the body was awake
    /// for a moment leaves the graph with it: the constraint is in a colour exactly while both
    /// bodies are awake or static.
    #[test]
    fn joints_leave_and_rejoin_the_graph_with_their_island() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, -1.0)))
            .unwrap();
        let circle = Circle {
            center: Vec2::ZERO,
            radius: 0.1,
        };
        world
            .create_circle_shape(body, &ShapeDef::default(), &circle)
            .unwrap();
        let hinge = |world: &mut World| {
            let def = JointDef::new(ground, body);
            world
                .create_revolute_joint(&RevoluteJointDef::new(def))
                .unwrap()
        };
        let in_graph = |world: &World, id: core_soa::JointId| {
            world.joints.arena.get(id).unwrap().graph.is_some()
        };
        let first = hinge(&mut world);
        assert!(in_graph(&world, first), "created between awake and static");
        world.step(DT, 4).unwrap();
        world.set_awake(body, false).unwrap();
        assert!(!in_graph(&world, first), "asleep: out of the graph");

        // Creating a joint wakes the body; putting it back to sleep takes both joints out.
        let second = hinge(&mut world);
        assert!(in_graph(&world, first) && in_graph(&world, second));
        world.set_awake(body, false).unwrap();
        assert!(!world.is_awake(body).unwrap());
        world.step(DT, 4).unwrap();
        assert!(!in_graph(&world, first) && !in_graph(&world, second));

        world.set_awake(body, true).unwrap();
        world.step(DT, 4).unwrap();
        assert!(in_graph(&world, first) && in_graph(&world, second));
        for id in [first, second] {
            let sim = world.joint_sim(id.index()).unwrap();
            assert_eq!(sim.handle, id.index());
            let local = world.bodies.get(body).unwrap().local_index;
            assert_eq!(sim.body_b.index, local, "the side names the awake body");
        }
    }
}
