//! Joint storage and the joint's places in the world's other structures.
//!
//! A joint is one [`JointRecord`] in an arena (stable slot, generational [`JointId`]): its
//! definition, its settings and the frames on both bodies. What changes every step — the
//! accumulated impulses it carries from step to step, its reaction of the last step — lives
//! beside it in a dense table indexed by the same slot ([`JointCarry`]), so that the step reads
//! and writes 48 bytes per joint instead of touching the whole record. From there a joint is
//! threaded into three other structures, each kept in step here:
//!
//! ```text
//!   body joint lists   intrusive doubly linked lists through JointRecord::edges (edge_key =
//!                      joint index · 2 + side), heads in core_soa::Body::joint_head
//!   constraint graph   a colour (or the overflow set) while both bodies are awake or static
//!                      and one is dynamic; ConstraintKind::Joint, handle = joint index
//!   islands            a link between the islands of two dynamic bodies (ConstraintKey::joint)
//! ```
//!
//! **Graph membership follows the bodies.** An island that falls asleep or wakes moves its
//! bodies between solver sets without knowing about joints, so instead of hooks in every such
//! path, the step re-checks the joints' endpoints before the solve ([`World::sync_joint_graph`]):
//! a joint whose endpoints changed (a body fell asleep, woke, changed type) leaves its colour and
//! enters a new one. Walking the joints in slot order keeps the colouring deterministic. A
//! joint's colour holds only its dynamic bodies, so a colour's joints and contacts never share a
//! body the solver writes.
//!
//! **Only the joints of reclassified bodies are re-checked.** A joint's endpoints are a function
//! of one small *class* per body — not in the graph (asleep, disabled), fixed (static or awake
//! kinematic), dynamic and awake — so the store remembers each jointed body's class at the last
//! re-check ([`JointStore::body_classes`]). The re-check walks the bodies (a dense pass, no
//! joint record touched), collects the joints of the bodies whose class differs, and updates
//! those in slot order. That is exactly the set of joints whose update can do anything:
//!
//! - a joint untouched since the last re-check had the endpoints its bodies' classes gave then;
//!   if neither class differs now, its expected endpoints are the same (a class that changed
//!   and changed back included) and the full walk's update would be a no-op;
//! - a joint created since took the endpoints of that moment, which may not be the classes the
//!   table holds: creation marks both bodies' classes unknown, so that they are re-checked;
//! - a removed joint has left the graph; a destroyed body's joints were removed with it.
//!
//! The joints updated are thus those the full walk would have changed, in the same order, and
//! the graph comes out bit for bit the same.

use crate::body::{AWAKE_SET, STATIC_SET};
use crate::joint::def::{JointBlueprint, JointDef};
use crate::joint::events::JointBreakEvent;
use crate::joint::step::{BodyView, ListKey};
use crate::world::World;
use core_soa::{
    Arena, Body, BodyId, BodyType, JointId, NULL_INDEX, Transform, edge_constraint, edge_key,
    edge_side,
};
use graph_coloring::{ConstraintKind, Endpoint, Slot};
use island::ConstraintKey;
use solver_simd::ColorLayout;
use solver_simd::joint::{JointConstraint, JointImpulses, JointKind, JointReaction};

/// A joint's link in one body's joint list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JointEdge {
    /// The body's arena index.
    pub(crate) body: u32,
    /// Previous and next [`edge_key`] in the body's list, or [`NULL_INDEX`].
    pub(crate) prev: u32,
    pub(crate) next: u32,
}

/// Where a joint sits in the constraint graph and the endpoints it was added with (removal
/// must hand back the same endpoints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JointGraphMember {
    pub(crate) slot: Slot,
    pub(crate) ends: [Endpoint; 2],
}

/// One joint.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JointRecord {
    /// Bodies, origin-relative anchors and the joint-wide options.
    pub(crate) base: JointDef,
    /// The kind and its current settings.
    pub(crate) kind: JointKind,
    /// Frame on each body relative to the body origin (anchor and orientation).
    pub(crate) frame_a: Transform,
    pub(crate) frame_b: Transform,
    pub(crate) edges: [JointEdge; 2],
    pub(crate) graph: Option<JointGraphMember>,
}

impl JointRecord {
    fn new(blueprint: &JointBlueprint) -> JointRecord {
        let no_edge = JointEdge {
            body: NULL_INDEX,
            prev: NULL_INDEX,
            next: NULL_INDEX,
        };
        JointRecord {
            base: blueprint.base,
            kind: blueprint.kind,
            frame_a: blueprint.frame_a,
            frame_b: blueprint.frame_b,
            edges: [no_edge; 2],
            graph: None,
        }
    }

    /// Whether the joint can ever break.
    pub(crate) fn is_breakable(&self) -> bool {
        self.base.break_force.is_finite() || self.base.break_torque.is_finite()
    }
}

/// What a joint carries from one solve to the next, in [`JointStore::carried`] at the joint's
/// slot. 48 bytes: the step's build reads the first 32, its store writes the first 44.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct JointCarry {
    /// Accumulated impulses, carried across steps for warm starting.
    pub(crate) impulses: JointImpulses,
    /// The substep (s) the carried impulses were computed for; 0 before the first solve.
    pub(crate) solved_substep: f32,
    /// Force and torque on body B in the last step it was solved.
    pub(crate) reaction: JointReaction,
    /// Whether the joint has a finite break threshold (so the step checks its reaction).
    pub(crate) breakable: bool,
}

/// What the solve of one joint leaves for its [`JointCarry`] (finite, or zeroed).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolvedJoint {
    pub(crate) impulses: JointImpulses,
    pub(crate) reaction: JointReaction,
}

/// A body's class in [`JointStore::body_classes`] before it has been (re-)checked.
pub(crate) const CLASS_UNKNOWN: u8 = u8::MAX;

/// The world's joints and the scratch arrays of their solve.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointStore {
    pub(crate) arena: Arena<JointRecord, JointId>,
    /// By joint arena index: the impulses and reaction the joint carries (see [`JointCarry`]);
    /// as long as the arena's slots, stale in free slots.
    pub(crate) carried: Vec<JointCarry>,
    /// The number of live joints with `breakable` set.
    pub(crate) breakable_count: usize,
    /// By body arena index: the body's class (see [`endpoint_class`]) at the last graph
    /// re-check, or [`CLASS_UNKNOWN`]; meaningful only for bodies with joints.
    pub(crate) body_classes: Vec<u8>,
    /// The step's solver joints, ordered by colour (then the overflow set).
    pub(crate) solver_joints: Vec<JointConstraint>,
    /// For each solver joint, its arena index.
    pub(crate) solver_sources: Vec<u32>,
    /// Scratch of the build: the graph's joints by colour, swapped into `solver_sources`.
    pub(crate) gathered_sources: Vec<u32>,
    /// A joint entered or left a colour (or the overflow set) since the last build: the
    /// graph's joint lists, the only source of `solver_sources`, are changed only by
    /// [`World::update_joint_graph`] and [`World::take_joint_from_graph`], which set it.
    pub(crate) graph_joints_changed: bool,
    /// What the list was last built for (`None` before the first build).
    pub(crate) list_key: Option<ListKey>,
    /// A joint was created, destroyed or given new settings (and so perhaps new carried
    /// impulses) since the last build: a slot may hold another joint than the list's.
    pub(crate) joints_edited: bool,
    /// By body arena index: the [`BodyView`] the list was last built or checked with; all ones
    /// when unknown; meaningful only for bodies with joints.
    pub(crate) body_views: Vec<BodyView>,
    /// The colour ranges of `solver_joints`.
    pub(crate) layout: ColorLayout,
    /// Joints broken in the last step.
    pub(crate) break_events: Vec<JointBreakEvent>,
    /// By body arena index: the body's inertia scale (1 when absent), see `BodyDef`.
    pub(crate) inertia_scales: Vec<f32>,
}

impl JointStore {
    /// Marks joint `index` breakable or not, keeping [`JointStore::breakable_count`].
    pub(crate) fn set_breakable(&mut self, index: u32, breakable: bool) {
        let Some(carry) = self.carried.get_mut(index as usize) else {
            return;
        };
        if carry.breakable != breakable {
            carry.breakable = breakable;
            if breakable {
                self.breakable_count += 1;
            } else {
                self.breakable_count -= 1;
            }
        }
    }

    /// Forgets the recorded class of a body, so that the next graph re-check visits its joints.
    fn forget_body_class(&mut self, body_index: u32) {
        if let Some(class) = self.body_classes.get_mut(body_index as usize) {
            *class = CLASS_UNKNOWN;
        }
    }
}

/// The graph endpoint of a body for a joint: dynamic and awake → a colour bit; awake kinematic
/// or static → no bit; asleep or disabled → `None` (the joint stays out of the graph).
fn joint_endpoint(body_index: u32, body: &Body) -> Option<Endpoint> {
    match body.set_index {
        AWAKE_SET if body.body_type == BodyType::Dynamic => Some(Endpoint::dynamic(body_index)),
        AWAKE_SET | STATIC_SET => Some(Endpoint::fixed(body_index)),
        _ => None,
    }
}

/// Calls `visit` with the arena index and record of every body that has a joint: a walk over
/// the body arena, or, when there are fewer joints than half the bodies, over the joints' two
/// bodies (a body may then be visited more than once).
pub(crate) fn for_each_jointed_body(
    bodies: &Arena<Body, BodyId>,
    joints: &Arena<JointRecord, JointId>,
    mut visit: impl FnMut(u32, &Body),
) {
    if 2 * joints.len() < bodies.slot_count() {
        for joint in joints.values() {
            for id in [joint.base.body_a, joint.base.body_b] {
                if let Some(body) = bodies.get_by_index(id.index()) {
                    visit(id.index(), body);
                }
            }
        }
        return;
    }
    for slot in 0..bodies.slot_count() as u32 {
        if let Some(body) = bodies.get_by_index(slot)
            && body.joint_count > 0
        {
            visit(slot, body);
        }
    }
}

/// The class of a body that decides its joints' endpoints: 0 not in the graph, 1 fixed,
/// 2 dynamic (see [`joint_endpoint`]; the endpoint is the class plus the body's own index).
pub(crate) fn endpoint_class(body_index: u32, body: &Body) -> u8 {
    match joint_endpoint(body_index, body) {
        None => 0,
        Some(end) => 1 + u8::from(end.dynamic),
    }
}

impl World {
    /// Inserts a validated joint: arena record, both bodies' lists, islands, graph. Wakes both
    /// bodies.
    pub(crate) fn insert_joint(&mut self, blueprint: &JointBlueprint) -> JointId {
        let (a, b) = (blueprint.base.body_a.index(), blueprint.base.body_b.index());
        self.wake_body(a);
        self.wake_body(b);
        let record = JointRecord::new(blueprint);
        let breakable = record.is_breakable();
        let id = self.joints.arena.insert(record);
        let store = &mut self.joints;
        let slot = id.index() as usize;
        if store.carried.len() <= slot {
            store.carried.resize(slot + 1, JointCarry::default());
        }
        store.carried[slot] = JointCarry::default();
        store.joints_edited = true;
        store.set_breakable(id.index(), breakable);
        // The joint takes its endpoints now; the next re-check must see both bodies again.
        store.forget_body_class(a);
        store.forget_body_class(b);
        self.attach_joint_edge(id.index(), 0, a);
        self.attach_joint_edge(id.index(), 1, b);
        self.link_joint_islands(id.index());
        self.update_joint_graph(id.index());
        id
    }

    /// Removes joint `index` from every structure and the arena. Wakes both bodies first, so
    /// the island it leaves is awake (an island may only be unlinked while awake).
    pub(crate) fn remove_joint(&mut self, index: u32) -> Option<JointRecord> {
        let id = self.joints.arena.key_at(index)?;
        let record = self.joints.arena.get(id)?;
        let (a, b) = (record.base.body_a.index(), record.base.body_b.index());
        self.wake_body(a);
        self.wake_body(b);
        self.take_joint_from_graph(index);
        self.unlink_joint_islands(index);
        self.detach_joint_edge(index, 0);
        self.detach_joint_edge(index, 1);
        self.joints.set_breakable(index, false);
        self.joints.joints_edited = true;
        self.joints.arena.remove(id)
    }

    /// Removes every joint of body `body_index` (when the body is destroyed).
    pub(crate) fn remove_body_joints(&mut self, body_index: u32) {
        for joint in self.body_joint_indices(body_index) {
            self.remove_joint(joint);
        }
    }

    /// The arena indices of the joints in a body's joint list, in list order.
    pub(crate) fn body_joint_indices(&self, body_index: u32) -> Vec<u32> {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return Vec::new();
        };
        let mut indices = Vec::with_capacity(body.joint_count as usize);
        let mut key = body.joint_head;
        while key != NULL_INDEX {
            let index = edge_constraint(key);
            indices.push(index);
            key = match self.joints.arena.get_by_index(index) {
                Some(joint) => joint.edges[edge_side(key) as usize].next,
                None => NULL_INDEX,
            };
        }
        indices
    }

    /// Whether a joint between the two bodies forbids their shapes to collide: some joint
    /// connecting them has `collide_connected == false`. Walks the shorter joint list.
    pub(crate) fn joint_prevents_collision(&self, body_a: u32, body_b: u32) -> bool {
        let count = |body| self.bodies.get_by_index(body).map_or(0, |b| b.joint_count);
        let (walked, other) = if count(body_a) <= count(body_b) {
            (body_a, body_b)
        } else {
            (body_b, body_a)
        };
        if count(walked) == 0 {
            return false;
        }
        self.body_joint_indices(walked).into_iter().any(|index| {
            self.joints.arena.get_by_index(index).is_some_and(|joint| {
                let ends = [joint.base.body_a.index(), joint.base.body_b.index()];
                !joint.base.collide_connected && ends.contains(&other)
            })
        })
    }

    /// Pushes joint `index` (side `side`) at the head of body `body`'s joint list.
    fn attach_joint_edge(&mut self, index: u32, side: u32, body: u32) {
        let key = edge_key(index, side);
        let Some(owner) = self.bodies.get_by_index_mut(body) else {
            return;
        };
        let old_head = owner.joint_head;
        owner.joint_head = key;
        owner.joint_count += 1;
        if old_head != NULL_INDEX
            && let Some(head) = self
                .joints
                .arena
                .get_by_index_mut(edge_constraint(old_head))
        {
            head.edges[edge_side(old_head) as usize].prev = key;
        }
        if let Some(joint) = self.joints.arena.get_by_index_mut(index) {
            joint.edges[side as usize] = JointEdge {
                body,
                prev: NULL_INDEX,
                next: old_head,
            };
        }
    }

    /// Removes joint `index` (side `side`) from its body's joint list.
    fn detach_joint_edge(&mut self, index: u32, side: u32) {
        let Some(joint) = self.joints.arena.get_by_index(index) else {
            return;
        };
        let edge = joint.edges[side as usize];
        let set_link = |store: &mut Arena<JointRecord, JointId>, key: u32, next: bool, to: u32| {
            if let Some(neighbour) = store.get_by_index_mut(edge_constraint(key)) {
                let link = &mut neighbour.edges[edge_side(key) as usize];
                if next {
                    link.next = to;
                } else {
                    link.prev = to;
                }
            }
        };
        if edge.prev != NULL_INDEX {
            set_link(&mut self.joints.arena, edge.prev, true, edge.next);
        } else if let Some(owner) = self.bodies.get_by_index_mut(edge.body) {
            owner.joint_head = edge.next;
        }
        if edge.next != NULL_INDEX {
            set_link(&mut self.joints.arena, edge.next, false, edge.prev);
        }
        if let Some(owner) = self.bodies.get_by_index_mut(edge.body) {
            owner.joint_count = owner.joint_count.saturating_sub(1);
        }
    }

    /// Joins the islands of the joint's bodies when both are dynamic (both awake: creation
    /// woke them).
    fn link_joint_islands(&mut self, index: u32) {
        let Some(joint) = self.joints.arena.get_by_index(index) else {
            return;
        };
        let (a, b) = (joint.base.body_a.index(), joint.base.body_b.index());
        let graph = &mut self.islands.graph;
        if graph.island_of(a).is_some() && graph.island_of(b).is_some() {
            let linked = graph.link(ConstraintKey::joint(index), a, b);
            debug_assert!(linked.is_ok(), "link joint {index}: {linked:?}");
        }
    }

    /// Unlinks the joint from its island (a split candidate from then on).
    fn unlink_joint_islands(&mut self, index: u32) {
        let key = ConstraintKey::joint(index);
        if self.islands.graph.island_of_constraint(key).is_some() {
            let unlinked = self.islands.graph.unlink(key);
            debug_assert!(unlinked.is_ok(), "unlink joint {index}: {unlinked:?}");
        }
    }

    /// The endpoints joint `index` belongs in the graph with, if it belongs there.
    fn joint_graph_endpoints(&self, index: u32) -> Option<[Endpoint; 2]> {
        let joint = self.joints.arena.get_by_index(index)?;
        let end = |id: core_soa::BodyId| {
            let body = self.bodies.get(id)?;
            joint_endpoint(id.index(), body)
        };
        let ends = [end(joint.base.body_a)?, end(joint.base.body_b)?];
        (ends[0].dynamic || ends[1].dynamic).then_some(ends)
    }

    /// Puts joint `index` in the graph with the endpoints its bodies have now, or takes it out
    /// if it no longer belongs; a no-op when nothing changed.
    pub(crate) fn update_joint_graph(&mut self, index: u32) {
        let expected = self.joint_graph_endpoints(index);
        let current = self
            .joints
            .arena
            .get_by_index(index)
            .and_then(|joint| joint.graph.map(|member| member.ends));
        if expected == current {
            return;
        }
        self.take_joint_from_graph(index);
        if let Some(ends) = expected {
            let slot = self
                .graph
                .graph
                .add(ConstraintKind::Joint, index, ends[0], ends[1]);
            self.joints.graph_joints_changed = true;
            if let Some(joint) = self.joints.arena.get_by_index_mut(index) {
                joint.graph = Some(JointGraphMember { slot, ends });
            }
        }
    }

    /// Takes joint `index` out of the graph (no-op if it is not in it) and fixes the slot of
    /// the joint that moved into its place.
    fn take_joint_from_graph(&mut self, index: u32) {
        let Some(member) = self
            .joints
            .arena
            .get_by_index_mut(index)
            .and_then(|joint| joint.graph.take())
        else {
            return;
        };
        let [a, b] = member.ends;
        self.joints.graph_joints_changed = true;
        let moved = self
            .graph
            .graph
            .remove(ConstraintKind::Joint, index, member.slot, a, b);
        if let Some(moved) = moved
            && let Some(joint) = self.joints.arena.get_by_index_mut(moved.handle)
            && let Some(entry) = joint.graph.as_mut()
        {
            entry.slot = moved.new_slot;
        }
    }

    /// Brings every joint's graph membership up to date with its bodies' solver sets: updates,
    /// in slot order, the joints of `reclassified`, the bodies whose class changed since the
    /// last call, in increasing slot order (see the module notes and
    /// [`World::scan_jointed_bodies`], which records the classes).
    pub(crate) fn sync_joint_graph(&mut self, reclassified: &[u32]) {
        if self.joints.arena.is_empty() {
            return;
        }
        let mut joints: Vec<u32> = reclassified
            .iter()
            .flat_map(|&body| self.body_joint_indices(body))
            .collect();
        joints.sort_unstable();
        joints.dedup();
        for index in joints {
            self.update_joint_graph(index);
        }
        debug_assert!(
            self.joint_graph_is_current(),
            "a joint's graph membership lags its bodies"
        );
    }

    /// Whether every joint sits in the graph with the endpoints its bodies give it now (what
    /// the full walk would establish).
    fn joint_graph_is_current(&self) -> bool {
        self.joints.arena.iter().all(|(id, joint)| {
            let current = joint.graph.map(|member| member.ends);
            self.joint_graph_endpoints(id.index()) == current
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodyDef, Circle, JointDef, RevoluteJointDef, ShapeDef, Vec2, World, WorldDef};

    const DT: f32 = 1.0 / 60.0;

    /// A body whose class changes and changes back between two re-checks while a joint is
    /// created on it: the joint took the endpoints of the awake body, and the re-check must
    /// still take it out of the graph once the body sleeps again.
    #[test]
    fn a_joint_created_while_its_body_was_briefly_awake_leaves_the_graph_when_it_sleeps() {
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
        let first = hinge(&mut world);
        world.step(DT, 4).unwrap();
        world.set_awake(body, false).unwrap();
        world.step(DT, 4).unwrap();
        let in_graph = |world: &World, id: core_soa::JointId| {
            world.joints.arena.get(id).unwrap().graph.is_some()
        };
        assert!(!in_graph(&world, first), "asleep: out of the graph");

        // Creating a joint wakes the body; putting it back to sleep before the step returns
        // it to the class the last re-check recorded.
        let second = hinge(&mut world);
        assert!(in_graph(&world, second), "created between awake bodies");
        world.set_awake(body, false).unwrap();
        assert!(!world.is_awake(body).unwrap());
        world.step(DT, 4).unwrap();
        assert!(!in_graph(&world, first) && !in_graph(&world, second));
        assert!(world.joint_graph_is_current());

        world.set_awake(body, true).unwrap();
        world.step(DT, 4).unwrap();
        assert!(in_graph(&world, first) && in_graph(&world, second));
        assert!(world.joint_graph_is_current());
    }
}
