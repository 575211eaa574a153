//! Whole-structure checks, run after every step with the feature `validate`, and on every
//! restored snapshot.
//!
//! They verify what the rest of the crate assumes without checking: both broadphase trees are
//! well formed; every body's `(set_index, local_index)` finds a sim that points back at it; every
//! shape's proxy lives in the right tree and carries the shape's index, with the fat box the
//! shape record keeps, which holds the shape's tight box; every contact's sim
//! points back at it, appears once in each of its two bodies' contact lists, and has its pair in
//! the pair set; disabled bodies have no contacts or proxies and park their joints; the sensors,
//! their visitors and the step's move and hit events agree with the world they describe
//! (`sensor.rs`, `move_events.rs`, `hit.rs`). A failure becomes [`PrismError::Corrupted`] with a
//! description.

use crate::body_enable::proxy_tree;
use crate::broadphase::{TreeKind, proxy_box};
use crate::constraint_list::members;
use crate::contact::pair_key;
#[cfg(feature = "validate")]
use crate::error::PrismError;
use crate::solver_set::DISABLED_SET;
use crate::world::World;
use collision::tree::NULL_PROXY;

impl World {
    /// The checks below, run after every step (feature `validate`); a failure, or a broken
    /// invariant the step noted, is [`PrismError::Corrupted`].
    #[cfg(feature = "validate")]
    pub(crate) fn validate(&self) -> Result<(), PrismError> {
        self.validate_structure()
            .and_then(|()| self.corruption.clone().map_or(Ok(()), Err))
            .and_then(|()| self.validate_move_events())
            .and_then(|()| self.validate_hit_events())
            .map_err(|message| PrismError::Corrupted { message })
    }

    /// Every whole-structure check that holds between any two calls (the event checks above
    /// hold only right after a step). Also run on every restored snapshot (`snapshot.rs`).
    pub(crate) fn validate_structure(&self) -> Result<(), String> {
        let trees = [
            ("static", &self.broadphase.static_tree),
            ("moving", &self.broadphase.moving_tree),
            ("sleeping", &self.broadphase.sleeping_tree),
        ];
        for (name, tree) in trees {
            tree.validate().map_err(|e| format!("{name} tree: {e}"))?;
        }
        self.validate_bodies()?;
        self.validate_shapes()?;
        self.validate_contacts()?;
        self.validate_graph()?;
        self.validate_islands()?;
        self.validate_sensors()?;
        self.validate_contact_flags()?;
        self.validate_disabled()
    }

    fn validate_bodies(&self) -> Result<(), String> {
        for (id, body) in self.bodies.iter() {
            let set = self
                .solver_sets
                .get(body.set_index as usize)
                .ok_or(format!("body {id:?}: no set"))?;
            let sim = set
                .bodies
                .sims()
                .get(body.local_index as usize)
                .ok_or(format!("body {id:?}: no sim"))?;
            if sim.body != id.index() {
                return Err(format!("body {id:?}: sim points at body {}", sim.body));
            }
            for (head, name) in [(body.contacts, "contacts"), (body.joints, "joints")] {
                let listed = if name == "contacts" {
                    members(&self.contacts, head).len()
                } else {
                    members(&self.joints.arena, head).len()
                };
                if listed != head.count as usize {
                    return Err(format!(
                        "body {id:?}: {listed} {name} listed, count {}",
                        head.count
                    ));
                }
            }
        }
        let sims: usize = self.solver_sets.iter().map(|set| set.bodies.len()).sum();
        if sims != self.bodies.len() {
            return Err(format!("{sims} sims for {} bodies", self.bodies.len()));
        }
        Ok(())
    }

    fn validate_shapes(&self) -> Result<(), String> {
        for (id, shape) in self.shapes.iter() {
            if !shape.sizes.agree_with(&shape.geometry) {
                return Err(format!("shape {id:?}: stored sizes are not its geometry's"));
            }
            if shape.proxy == NULL_PROXY {
                continue; // a disabled body's shape (`validate_disabled`)
            }
            let tree = self.broadphase.tree(shape.tree);
            if !tree.is_proxy(shape.proxy) || tree.user_data(shape.proxy) != u64::from(id.index()) {
                return Err(format!(
                    "shape {id:?}: proxy {} does not point back",
                    shape.proxy
                ));
            }
            let body = self
                .bodies
                .get(shape.body)
                .ok_or(format!("shape {id:?}: dead body"))?;
            if !body.shapes.contains(&id) {
                return Err(format!("shape {id:?}: not in its body's shape list"));
            }
            if shape.fat_aabb != tree.fat_aabb(shape.proxy) {
                return Err(format!("shape {id:?}: fat box differs from its proxy's"));
            }
            if !shape
                .fat_aabb
                .contains(&proxy_box(shape.tree, self.tight_aabb(shape)))
            {
                return Err(format!("shape {id:?}: reach outside its fat box"));
            }
        }
        for &moved in self.broadphase.move_buffer() {
            if self.shapes.key_at(moved).is_none() {
                return Err(format!("move buffer holds dead shape {moved}"));
            }
        }
        Ok(())
    }

    /// The disabled set (`body_enable.rs`): a disabled body has no contacts and its shapes no
    /// proxies; an enabled body's shapes all have one, in the static tree exactly when the
    /// body is static; a joint is parked in the disabled set exactly when one of its bodies is
    /// disabled (where joints are stored is checked by `validate_set_stores`, islands by
    /// `validate_islands`).
    fn validate_disabled(&self) -> Result<(), String> {
        for (id, body) in self.bodies.iter() {
            let disabled = body.set_index == DISABLED_SET;
            if disabled && body.contacts.count != 0 {
                return Err(format!("disabled body {id:?} has contacts"));
            }
            for &shape in &body.shapes {
                let record = self.shapes.get(shape).ok_or("dead shape listed")?;
                let has_proxy = record.proxy != NULL_PROXY;
                if has_proxy == disabled {
                    return Err(format!("shape {shape:?}: proxy {}", record.proxy));
                }
                // A sleeping body's proxies may be in the moving or the sleeping tree (a shape
                // added while it sleeps stays in the moving tree until its island wakes).
                let in_static_tree = record.tree == TreeKind::Static;
                let static_body = proxy_tree(body.body_type) == TreeKind::Static;
                if has_proxy && in_static_tree != static_body {
                    let tree = record.tree;
                    return Err(format!("shape {shape:?} in the {tree:?} tree"));
                }
            }
        }
        for (id, joint) in self.joints.arena.iter() {
            let parked = joint.set_index == DISABLED_SET;
            let touches_disabled = joint.edges.iter().any(|edge| {
                self.bodies
                    .get_by_index(edge.body)
                    .is_some_and(|body| body.set_index == DISABLED_SET)
            });
            if parked != touches_disabled {
                return Err(format!(
                    "joint {id:?}: parked {parked}, a body disabled {touches_disabled}"
                ));
            }
        }
        Ok(())
    }

    /// Every contact: its sim points back, its pair is in the pair set, it is listed once by
    /// each body, and what it holds of its bodies is current (`relocate.rs`); every joint's
    /// sides are current too.
    fn validate_contacts(&self) -> Result<(), String> {
        for (id, contact) in self.contacts.iter() {
            let index = id.index();
            let sim = self
                .contact_sim(index)
                .ok_or(format!("contact {index}: no sim"))?;
            if sim.contact != index {
                return Err(format!("contact {index}: sim names {}", sim.contact));
            }
            if !self
                .broadphase
                .pair_set
                .contains(&pair_key(sim.shape_a, sim.shape_b))
            {
                return Err(format!("contact {index}: pair missing from the pair set"));
            }
            for side in 0..2 {
                let body = contact.edges[side].body;
                let owner = self
                    .bodies
                    .get_by_index(body)
                    .ok_or(format!("contact {index}: dead body"))?;
                let listed = members(&self.contacts, owner.contacts)
                    .iter()
                    .filter(|&&c| c == index)
                    .count();
                if listed != 1 {
                    return Err(format!(
                        "contact {index} listed {listed} times on body {body}"
                    ));
                }
                let mut expected = *sim;
                if let Some(data) = self.contact_side(body) {
                    expected.set_side(side, data);
                }
                let (a, b) = (&expected.solver, &sim.solver);
                let same = expected.bodies == sim.bodies
                    && (a.body_a, a.body_b) == (b.body_a, b.body_b)
                    && (a.inv_mass_a, a.inv_inertia_a) == (b.inv_mass_a, b.inv_inertia_a)
                    && (a.inv_mass_b, a.inv_inertia_b) == (b.inv_mass_b, b.inv_inertia_b);
                if !same {
                    return Err(format!("contact {index}: stale copy of body {body}"));
                }
            }
        }
        if self.broadphase.pair_set.len() != self.contacts.len() {
            return Err("pair set and contacts differ in size".into());
        }
        for (id, record) in self.joints.arena.iter() {
            let joint = self
                .joint_sim(id.index())
                .ok_or(format!("joint {id:?}: no constraint"))?;
            let a = self.joint_body(record.edges[0].body, record.frame_a);
            let b = self.joint_body(record.edges[1].body, record.frame_b);
            if joint.handle != id.index() || (joint.body_a, joint.body_b) != (a, b) {
                return Err(format!("joint {id:?}: stale sides or handle"));
            }
        }
        Ok(())
    }
}
