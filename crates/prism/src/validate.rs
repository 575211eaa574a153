//! Whole-structure checks (feature `validate`), run after every step.
//!
//! They verify what the rest of the crate assumes without checking: both broadphase trees are
//! well formed; every body's `(set_index, local_index)` finds a sim that points back at it; every
//! shape's proxy lives in the right tree and carries the shape's index, with the fat box the
//! shape record keeps, which holds the shape's tight box; every contact's sim
//! points back at it, appears once in each of its two bodies' contact lists, and has its pair in
//! the pair set. A failure becomes [`PrismError::Corrupted`] with a description.

use crate::broadphase::proxy_box;
use crate::contact::pair_key;
use crate::error::PrismError;
use crate::world::World;
use core_soa::{edge_constraint, edge_key};

impl World {
    pub(crate) fn validate(&self) -> Result<(), PrismError> {
        let checks = [
            self.broadphase
                .static_tree
                .validate()
                .map_err(|e| format!("static tree: {e}")),
            self.broadphase
                .moving_tree
                .validate()
                .map_err(|e| format!("moving tree: {e}")),
            self.broadphase
                .sleeping_tree
                .validate()
                .map_err(|e| format!("sleeping tree: {e}")),
            self.validate_bodies(),
            self.validate_shapes(),
            self.validate_contacts(),
            self.validate_graph(),
            self.validate_islands(),
        ];
        checks
            .into_iter()
            .collect::<Result<Vec<()>, String>>()
            .map(|_| ())
            .map_err(|message| PrismError::Corrupted { message })
    }

    fn validate_bodies(&self) -> Result<(), String> {
        for (id, body) in self.bodies.iter() {
            let set = self
                .solver_sets
                .get(body.set_index as usize)
                .ok_or(format!("body {id:?}: no set"))?;
            let (sim, _) = set
                .get(body.local_index)
                .ok_or(format!("body {id:?}: no sim"))?;
            if sim.body != id.index() {
                return Err(format!("body {id:?}: sim points at body {}", sim.body));
            }
            let listed = self.body_contact_indices(body).len();
            if listed != body.contact_count as usize {
                return Err(format!(
                    "body {id:?}: {listed} contacts listed, count {}",
                    body.contact_count
                ));
            }
        }
        let sims: usize = self.solver_sets.iter().map(|set| set.len()).sum();
        if sims != self.bodies.len() {
            return Err(format!("{sims} sims for {} bodies", self.bodies.len()));
        }
        Ok(())
    }

    fn validate_shapes(&self) -> Result<(), String> {
        for (id, shape) in self.shapes.iter() {
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

    fn validate_contacts(&self) -> Result<(), String> {
        if self.contacts.frames.len() != self.contacts.sims.len() {
            return Err(format!(
                "{} recycling records for {} awake contacts",
                self.contacts.frames.len(),
                self.contacts.sims.len()
            ));
        }
        for (index, sim) in self.contacts.sims.iter().enumerate() {
            let contact = self
                .contacts
                .arena
                .get_by_index(sim.contact)
                .ok_or(format!("sim {index}: dead contact"))?;
            if contact.sim_index as usize != index {
                return Err(format!(
                    "contact {}: sim index {} != {index}",
                    sim.contact, contact.sim_index
                ));
            }
            if !self
                .broadphase
                .pair_set
                .contains(&pair_key(sim.shape_a, sim.shape_b))
            {
                return Err(format!(
                    "contact {}: pair missing from the pair set",
                    sim.contact
                ));
            }
            for (side, body) in [sim.body_a, sim.body_b].into_iter().enumerate() {
                let owner = self
                    .bodies
                    .get_by_index(body)
                    .ok_or(format!("contact {}: dead body", sim.contact))?;
                let key = edge_key(sim.contact, side as u32);
                let listed = self
                    .body_contact_indices(owner)
                    .iter()
                    .filter(|&&c| c == edge_constraint(key))
                    .count();
                if listed != 1 {
                    return Err(format!(
                        "contact {} listed {listed} times on body {body}",
                        sim.contact
                    ));
                }
            }
        }
        if self.broadphase.pair_set.len() != self.contacts.arena.len() {
            return Err("pair set and contacts differ in size".into());
        }
        Ok(())
    }
}
