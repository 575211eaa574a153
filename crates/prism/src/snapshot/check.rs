//! The whole-world check of a decoded snapshot: a forged buffer with a valid checksum must be
//! refused here, not panic (or worse) in a later step.
//!
//! It runs in two stages. The first, here, makes every index the world follows safe to follow
//! and every list finite, so that the second can walk them:
//!
//! - at least the three fixed solver sets, and one per sleeping-set id ever handed out;
//! - every body's contact and joint list is a chain of live constraints whose edge on that side
//!   names the body, linked both ways, exactly `count` long; every constraint edge is in
//!   exactly one list;
//! - every body lists live shapes whose record names it, and every shape is listed once;
//! - the proxies of each tree's shapes are distinct and as many as the tree's leaves, so every
//!   leaf belongs to exactly one shape (the second stage checks the leaf names it);
//! - a contact's cold record and its sim name the same shapes, those of its two edge bodies;
//!   a joint's definition names its two edge bodies;
//! - the breakable joints, the kinematic bodies and the broadphase buffers are exactly what
//!   their records say, in order.
//!
//! The second stage is the `validate` feature's whole-structure checks (`validate.rs` and the
//! checks next to each structure), which return errors rather than panic: each body's sim
//! points back at it and the sims are as many as the bodies; each shape's proxy is a leaf of
//! its tree carrying its index, with its fat box; each contact's and joint's sim is where its
//! cold record says and nothing else is stored (solver-set stores and graph colours), with the
//! current copy of its bodies (awake indices, masses); the colour invariant (no dynamic body
//! twice in a colour, each colour's bitset exactly its constraints' bodies) — which the
//! solver's unchecked step relies on; the islands against the touching contacts and joints,
//! each body's set against its island's sleep state, the sleeping-set table; the sensors; the
//! contacts' event flags; the disabled set. The trees, arenas, id pools, polygons and
//! manifolds were checked as they were decoded.
//!
//! Not checked: the floating-point values (a NaN pose steps like any diverged body), and
//! relations no step indexes by (event contents, user data).

use super::refuse;
use crate::broadphase::TreeKind;
use crate::constraint_list::{Edge, ListHead, edge_constraint, edge_side};
use crate::error::PrismError;
use crate::world::World;
use collision::tree::NULL_PROXY;
use core_soa::{Arena, ArenaKey, BitSet, BodyType, NULL_INDEX};

impl World {
    /// Refuses a decoded world whose structures do not agree (see the module essay).
    pub(crate) fn check_snapshot(&self) -> Result<(), PrismError> {
        let fail = |what: &'static str| move |reason: String| refuse(what, reason);
        self.check_solver_sets().map_err(fail("solver sets"))?;
        self.check_lists().map_err(fail("constraint lists"))?;
        self.check_shapes().map_err(fail("shapes"))?;
        self.check_constraint_bodies()
            .map_err(fail("constraints"))?;
        self.check_indices().map_err(fail("index lists"))?;
        self.validate_structure().map_err(fail("structure"))
    }

    fn check_solver_sets(&self) -> Result<(), String> {
        let needed = self.islands.sets.set_capacity().max(3);
        if self.solver_sets.len() < needed {
            let held = self.solver_sets.len();
            return Err(format!("{held} sets, at least {needed} needed"));
        }
        Ok(())
    }

    /// Every body's two lists, walked with a bound; every constraint edge seen once.
    fn check_lists(&self) -> Result<(), String> {
        let mut contact_edges = BitSet::new();
        let mut joint_edges = BitSet::new();
        for (id, body) in self.bodies.iter() {
            walk_list(
                &self.contacts,
                body.contacts,
                id.index(),
                &mut contact_edges,
            )
            .map_err(|e| format!("body {id:?} contacts: {e}"))?;
            walk_list(
                &self.joints.arena,
                body.joints,
                id.index(),
                &mut joint_edges,
            )
            .map_err(|e| format!("body {id:?} joints: {e}"))?;
        }
        if contact_edges.count_ones() != 2 * self.contacts.len() {
            return Err("a contact is missing from its bodies' lists".into());
        }
        if joint_edges.count_ones() != 2 * self.joints.arena.len() {
            return Err("a joint is missing from its bodies' lists".into());
        }
        Ok(())
    }

    /// Shapes against their bodies and their trees.
    fn check_shapes(&self) -> Result<(), String> {
        let mut listed = 0;
        for (id, body) in self.bodies.iter() {
            for &shape in &body.shapes {
                let record = self.shapes.get(shape);
                if record.is_none_or(|record| record.body != id) {
                    return Err(format!("body {id:?} lists shape {shape:?} of another body"));
                }
                listed += 1;
            }
        }
        if listed != self.shapes.len() {
            return Err(format!(
                "{listed} shapes listed, {} live",
                self.shapes.len()
            ));
        }
        for kind in [TreeKind::Static, TreeKind::Moving, TreeKind::Sleeping] {
            let mut proxies = BitSet::new();
            let mut count = 0;
            for (_, record) in self.shapes.iter() {
                if record.tree != kind || record.proxy == NULL_PROXY {
                    continue;
                }
                if !self.broadphase.tree(kind).is_proxy(record.proxy) {
                    return Err(format!("proxy {} is not a leaf of its tree", record.proxy));
                }
                if proxies.get(record.proxy as usize) {
                    return Err(format!(
                        "proxy {} of the {kind:?} tree shared",
                        record.proxy
                    ));
                }
                proxies.set(record.proxy as usize);
                count += 1;
            }
            if count != self.broadphase.tree(kind).proxy_count() {
                return Err(format!("{kind:?} tree leaves are not its shapes' proxies"));
            }
        }
        Ok(())
    }

    /// Contacts' and joints' named shapes and bodies agree with their edges.
    fn check_constraint_bodies(&self) -> Result<(), String> {
        for (id, contact) in self.contacts.iter() {
            let sim = self
                .contact_sim(id.index())
                .ok_or(format!("contact {id:?}: no sim"))?;
            let shapes = [contact.shape_a, contact.shape_b];
            if [sim.shape_a, sim.shape_b] != shapes.map(|shape| shape.index()) {
                return Err(format!("contact {id:?}: sim names other shapes"));
            }
            for (shape, edge) in shapes.iter().zip(&contact.edges) {
                let body = self.shapes.get(*shape).map(|record| record.body.index());
                if body != Some(edge.body) {
                    return Err(format!("contact {id:?}: shape {shape:?} not on its body"));
                }
            }
        }
        for (id, joint) in self.joints.arena.iter() {
            let named = [joint.base.body_a, joint.base.body_b];
            for (body, edge) in named.iter().zip(&joint.edges) {
                if self.bodies.key_at(edge.body) != Some(*body) {
                    return Err(format!("joint {id:?}: body {body:?} is not its edge's"));
                }
            }
        }
        Ok(())
    }

    /// The sorted index lists and the broadphase buffers.
    fn check_indices(&self) -> Result<(), String> {
        let breakable: Vec<u32> = self
            .joints
            .arena
            .iter()
            .filter(|(_, joint)| joint.is_breakable())
            .map(|(id, _)| id.index())
            .collect();
        if breakable != self.joints.breakable {
            return Err("breakable joints differ from the joints' thresholds".into());
        }
        let kinematic = self
            .bodies
            .iter()
            .filter(|(_, body)| body.body_type == BodyType::Kinematic)
            .map(|(id, _)| id.index());
        if !kinematic.eq(self.kinematic_bodies.iter().copied()) {
            return Err("kinematic bodies differ from the bodies' types".into());
        }
        for (list, members) in self.broadphase.buffers() {
            let mut seen = BitSet::new();
            for &shape in list {
                // Membership first: it bounds the index by the bit set's own (decoded) size.
                if !members.get(shape as usize) || seen.get(shape as usize) {
                    return Err(format!("shape {shape} buffered twice or unmarked"));
                }
                seen.set(shape as usize);
            }
            if members.count_ones() != list.len() {
                return Err("broadphase buffer bits differ from the buffer".into());
            }
        }
        Ok(())
    }
}

/// Walks one body's list: at most `head.count` live constraints, each linked back to the one
/// before, each edge naming `body` and seen for the first time (marked in `seen` by edge key).
fn walk_list<T: crate::constraint_list::ListNode, K: ArenaKey>(
    nodes: &Arena<T, K>,
    head: ListHead,
    body: u32,
    seen: &mut BitSet,
) -> Result<(), String> {
    let (mut key, mut previous, mut walked) = (head.first, NULL_INDEX, 0u32);
    while key != NULL_INDEX {
        if walked == head.count {
            return Err(format!("longer than its count {}", head.count));
        }
        let node = nodes
            .get_by_index(edge_constraint(key))
            .ok_or(format!("edge key {key} names no live constraint"))?;
        let edge: &Edge = &node.edges()[edge_side(key) as usize];
        if edge.body != body || edge.prev != previous || seen.get(key as usize) {
            return Err(format!("edge key {key} is not linked here"));
        }
        seen.set(key as usize);
        (previous, key, walked) = (key, edge.next, walked + 1);
    }
    if walked != head.count {
        return Err(format!("{walked} entries, count {}", head.count));
    }
    Ok(())
}
