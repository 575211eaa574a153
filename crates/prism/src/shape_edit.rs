//! Editing a shape after it was made: material, density, filter, event flag.
//!
//! Every edit validates its value first and changes nothing on error. What each touches:
//!
//! ```text
//!   friction, restitution   the shape record, and the mixed value (√(f₁f₂), max(r₁, r₂)) in
//!                           each of its contacts, awake or asleep: the next solve uses it
//!   contact events          the record, and each contact's flag (either shape enabling it)
//!   density                 the record, then the body's mass from its shapes (which moves
//!                           its centre and rewrites its constraints' copies: `mass.rs`);
//!                           wakes the body
//!   filter                  the record; each existing contact of the shape the new filter
//!                           refuses is destroyed (an end event if it touched); the proxy is
//!                           rebuilt if the category changed (tree nodes keep their subtree's
//!                           categories) and buffered, so the next pair update finds the pairs
//!                           the new filter accepts; wakes the body
//! ```
//!
//! Contacts the new filter still accepts keep their manifolds and impulses, so changing one
//! bit of a mask does not make a resting stack lose its warm start.

use crate::def::Filter;
use crate::error::{PrismError, non_negative};
use crate::world::World;
use collision::tree::NULL_PROXY;
use core_soa::ShapeId;

impl World {
    /// Sets the shape's friction coefficient (finite, ≥ 0); its contacts use it from the next
    /// step.
    pub fn set_shape_friction(&mut self, id: ShapeId, friction: f32) -> Result<(), PrismError> {
        non_negative("friction", friction)?;
        self.shape_mut(id)?.friction = friction;
        self.remix_contacts(id);
        Ok(())
    }

    /// Sets the shape's coefficient of restitution (finite, ≥ 0); its contacts use it from the
    /// next step.
    pub fn set_shape_restitution(
        &mut self,
        id: ShapeId,
        restitution: f32,
    ) -> Result<(), PrismError> {
        non_negative("restitution", restitution)?;
        self.shape_mut(id)?.restitution = restitution;
        self.remix_contacts(id);
        Ok(())
    }

    /// Whether contacts of this shape report begin and end touch events.
    pub fn shape_contact_events_enabled(&self, id: ShapeId) -> Result<bool, PrismError> {
        Ok(self.shape(id)?.enable_contact_events)
    }

    /// Turns the shape's contact events on or off, for its existing contacts too (a pair
    /// reports if either shape enables events).
    pub fn set_shape_contact_events_enabled(
        &mut self,
        id: ShapeId,
        enabled: bool,
    ) -> Result<(), PrismError> {
        self.shape_mut(id)?.enable_contact_events = enabled;
        self.remix_contacts(id);
        Ok(())
    }

    /// Sets the shape's density (kg/m², finite, ≥ 0) and recomputes its body's mass from its
    /// shapes (overriding a mass set by [`World::set_mass_data`]). Wakes the body.
    pub fn set_shape_density(&mut self, id: ShapeId, density: f32) -> Result<(), PrismError> {
        non_negative("density", density)?;
        let shape = self.shape_mut(id)?;
        shape.density = density;
        let body = shape.body.index();
        self.wake_body(body);
        self.update_body_mass(body);
        Ok(())
    }

    /// Replaces the shape's collision filter and re-filters its contacts (see the module
    /// notes). Wakes the body.
    pub fn set_shape_filter(&mut self, id: ShapeId, filter: Filter) -> Result<(), PrismError> {
        let shape = self.shape_mut(id)?;
        let old = std::mem::replace(&mut shape.filter, filter);
        if old == filter {
            return Ok(());
        }
        let body = shape.body.index();
        self.wake_body(body);
        for contact in self.contacts_of_shape(id) {
            if !self.contact_filters_accept(contact)
                && let Some(event) = self.destroy_contact(contact)
            {
                self.events.pending_end.push(event);
            }
        }
        if old.category_bits != filter.category_bits {
            self.rebuild_proxy(id);
        }
        if self.shape(id)?.proxy != NULL_PROXY {
            self.broadphase.buffer_move(id.index());
        }
        Ok(())
    }

    /// The live shape `id`, for writing.
    fn shape_mut(&mut self, id: ShapeId) -> Result<&mut crate::shape::ShapeRecord, PrismError> {
        self.shape(id)?;
        self.shapes.get_mut(id).ok_or(PrismError::InvalidId {
            kind: crate::error::IdKind::Shape,
            index: id.index(),
            generation: id.generation(),
        })
    }

    /// The arena indices of the contacts that involve shape `id`, in its body's list order.
    pub(crate) fn contacts_of_shape(&self, id: ShapeId) -> Vec<u32> {
        let Some(body) = self.shapes.get(id).map(|shape| shape.body) else {
            return Vec::new();
        };
        self.contacts_of_body(body.index())
            .into_iter()
            .filter(|&c| {
                self.contacts
                    .get_by_index(c)
                    .is_some_and(|contact| contact.shape_a == id || contact.shape_b == id)
            })
            .collect()
    }

    /// Whether both shapes' filters still accept contact `index`'s pair.
    fn contact_filters_accept(&self, index: u32) -> bool {
        let Some(contact) = self.contacts.get_by_index(index) else {
            return false;
        };
        match (
            self.shapes.get(contact.shape_a),
            self.shapes.get(contact.shape_b),
        ) {
            (Some(a), Some(b)) => a.filter.should_collide(&b.filter),
            _ => false,
        }
    }

    /// Rewrites the mixed material and the event flag of every contact of shape `id` from the
    /// two shapes' records.
    fn remix_contacts(&mut self, id: ShapeId) {
        for contact in self.contacts_of_shape(id) {
            let Some(record) = self.contacts.get_by_index(contact) else {
                continue;
            };
            let (Some(a), Some(b)) = (
                self.shapes.get(record.shape_a),
                self.shapes.get(record.shape_b),
            ) else {
                continue;
            };
            let friction = (a.friction * b.friction).sqrt();
            let restitution = a.restitution.max(b.restitution);
            let events = a.enable_contact_events || b.enable_contact_events;
            if let Some(sim) = self.contact_sim_mut(contact) {
                sim.solver.friction = friction;
                sim.solver.restitution = restitution;
                sim.enable_events = events;
            }
        }
    }

    /// Replaces shape `id`'s proxy with a new one in the same tree (for a new category).
    fn rebuild_proxy(&mut self, id: ShapeId) {
        let Some(shape) = self.shapes.get(id) else {
            return;
        };
        if shape.proxy == NULL_PROXY {
            return;
        }
        let (tree, proxy, category_bits) = (shape.tree, shape.proxy, shape.filter.category_bits);
        let reach = crate::broadphase::proxy_box(tree, self.tight_aabb(shape));
        let margin = shape.fat_margin(tree);
        self.broadphase.destroy_proxy(tree, proxy, id.index());
        let new_proxy =
            self.broadphase
                .create_proxy(tree, reach, margin, category_bits, id.index());
        let fat_aabb = self.broadphase.tree(tree).fat_aabb(new_proxy);
        if let Some(shape) = self.shapes.get_mut(id) {
            (shape.proxy, shape.fat_aabb) = (new_proxy, fat_aabb);
        }
        if let Some(body) = self.shapes.get(id).map(|shape| shape.body.index()) {
            self.forget_fat_slack(body);
        }
    }
}
