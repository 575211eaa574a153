//! The narrowphase (step phase 2) and the contact-state pass (step phase 3).
//!
//! **Collide** is a function over a slice of contact sims. For each contact it reads — and only
//! reads — the two shapes and their bodies' transforms, and writes only that contact's own sim:
//!
//! 1. if the two fat boxes no longer overlap, mark the contact `Disjoint` and stop;
//! 2. otherwise, if recycling is on and the pair's relative pose has barely changed since its
//!    manifold was computed, carry that manifold rigidly to the new poses (see `recycle.rs`);
//!    else compute the manifold with `collision::collide` (shapes in their body frames, placed
//!    by the body-origin transforms);
//! 3. carry the cache: a new point whose feature id matches a point of the previous manifold
//!    takes over that point's accumulated normal and tangent impulses and is marked `persisted`
//!    (same id ⇒ same pair of features ⇒ physically the same contact point, so last step's
//!    impulse is an excellent first guess); other points start from zero;
//! 4. touching is `point_count > 0`; a change of touching is recorded as started/stopped.
//!
//! Nothing shared is mutated, so with more than one worker the slice is split into fixed-size
//! chunks that the world's thread pool collides in parallel; each contact's result depends only
//! on its own inputs, so the outcome is bitwise the same for any thread count. With one worker
//! it is a plain loop on the caller's thread.
//!
//! **Update contact state** then walks the sims serially in index order, collects the recorded
//! changes, and applies them — all begins, then all ends, then all destructions, each group in
//! contact order:
//!
//! ```text
//!   began touching    begin event → link islands (wakes a sleeping one) → take a colour
//!   stopped touching  end event   → leave its colour → unlink (island may split)
//!   disjoint          destroy (end event if it was touching; leaves colour and island)
//! ```
//!
//! Serial and in a fixed order, so events, contact ids, islands and colours come out the same on
//! every run and for every worker count.

use crate::contact::{ContactChange, ContactSim};
use crate::events::{ContactBeginTouchEvent, ContactEndTouchEvent};
use crate::profile::zone;
use crate::recycle::ManifoldFrame;
use crate::shape::ShapeRecord;
use crate::solve::{BodyTable, tabulate_bodies};
use crate::world::World;
use collision::Manifold;
use collision::collide::collide;
use core_soa::{Arena, Body, BodyArrays, BodyId, ShapeId, Transform};
use rayon::prelude::*;

/// Read-only access to what the narrowphase needs: shapes and body transforms.
pub(crate) struct CollideView<'a> {
    pub(crate) shapes: &'a Arena<ShapeRecord, ShapeId>,
    pub(crate) bodies: &'a Arena<Body, BodyId>,
    pub(crate) solver_sets: &'a [BodyArrays],
    /// This step's transforms of the static and awake bodies, by arena index.
    pub(crate) transforms: &'a BodyTable<Transform>,
    /// Whether resting manifolds may be recycled (`WorldDef::enable_contact_recycling`).
    pub(crate) recycle: bool,
}

impl CollideView<'_> {
    /// The transform of the body at arena index `body`: from the table, or for a body not in
    /// it (asleep, touched by an awake body's contact) through its solver set.
    #[inline]
    fn transform(&self, body: u32) -> Transform {
        self.transforms
            .get(body)
            .unwrap_or_else(|| self.transform_from_set(body))
    }

    fn transform_from_set(&self, body: u32) -> Transform {
        self.bodies
            .get_by_index(body)
            .and_then(|b| {
                self.solver_sets
                    .get(b.set_index as usize)?
                    .get(b.local_index)
            })
            .map_or(Transform::IDENTITY, |(sim, _)| sim.transform)
    }
}

/// Contacts per parallel task: large enough to amortise scheduling, small enough to balance.
const COLLIDE_CHUNK: usize = 64;

/// Updates the manifold and touching state of every contact in `sims` (see the module notes).
pub(crate) fn collide_contacts(sims: &mut [ContactSim], view: &CollideView<'_>) {
    for sim in sims {
        collide_contact(sim, view);
    }
}

/// [`collide_contacts`] split into chunks across the current rayon pool (the step runs inside
/// the world's pool).
fn collide_contacts_parallel(sims: &mut [ContactSim], view: &CollideView<'_>) {
    sims.par_chunks_mut(COLLIDE_CHUNK)
        .for_each(|chunk| collide_contacts(chunk, view));
}

fn collide_contact(sim: &mut ContactSim, view: &CollideView<'_>) {
    let (Some(shape_a), Some(shape_b)) = (
        view.shapes.get_by_index(sim.shape_a),
        view.shapes.get_by_index(sim.shape_b),
    ) else {
        sim.change = ContactChange::Disjoint;
        return;
    };
    if !shape_a.fat_aabb.overlaps(&shape_b.fat_aabb) {
        sim.change = ContactChange::Disjoint;
        return;
    }
    let xf_a = view.transform(sim.body_a);
    let xf_b = view.transform(sim.body_b);
    let recycled = match (&sim.frame, view.recycle) {
        (Some(frame), true) => frame.recycle(&sim.manifold, xf_a, xf_b),
        _ => None,
    };
    let manifold = match recycled {
        Some(manifold) => manifold,
        None => {
            let mut manifold = collide(&shape_a.geometry, xf_a, &shape_b.geometry, xf_b);
            carry_impulses(&sim.manifold, &mut manifold);
            sim.frame =
                (manifold.point_count > 0).then(|| ManifoldFrame::capture(&manifold, xf_a, xf_b));
            manifold
        }
    };
    let touching = manifold.point_count > 0;
    sim.change = match (sim.touching, touching) {
        (false, true) => ContactChange::StartedTouching,
        (true, false) => ContactChange::StoppedTouching,
        _ => ContactChange::None,
    };
    sim.touching = touching;
    sim.manifold = manifold;
}

/// The contact cache: copies accumulated impulses from `old` points to `new` points with the
/// same feature id, and marks them persisted.
pub(crate) fn carry_impulses(old: &Manifold, new: &mut Manifold) {
    for point in new.points_mut() {
        match old.points().iter().find(|previous| previous.id == point.id) {
            Some(previous) => {
                point.normal_impulse = previous.normal_impulse;
                point.tangent_impulse = previous.tangent_impulse;
                point.persisted = true;
            }
            None => {
                point.normal_impulse = 0.0;
                point.tangent_impulse = 0.0;
                point.persisted = false;
            }
        }
    }
}

impl World {
    /// Step phase 2: the narrowphase over all contacts.
    pub(crate) fn collide(&mut self) {
        zone!("collide");
        let transforms = &mut self.step_scratch.transforms;
        let slot_count = self.bodies.slot_count();
        tabulate_bodies(&self.solver_sets, slot_count, transforms, |_, _, sim| {
            sim.transform
        });
        let view = CollideView {
            shapes: &self.shapes,
            bodies: &self.bodies,
            solver_sets: &self.solver_sets,
            transforms,
            recycle: self.def.enable_contact_recycling,
        };
        if self.def.worker_count > 1 {
            collide_contacts_parallel(&mut self.contacts.sims, &view);
        } else {
            collide_contacts(&mut self.contacts.sims, &view);
        }
    }

    /// Step phase 3: applies the narrowphase's verdicts in contact order — begin touching
    /// (event, into the constraint graph), end touching (event, out of the graph), and
    /// destruction of disjoint contacts.
    pub(crate) fn update_contact_states(&mut self) {
        zone!("update contact state");
        let (mut started, mut stopped, mut disjoint) = (Vec::new(), Vec::new(), Vec::new());
        for sim in &mut self.contacts.sims {
            match std::mem::take(&mut sim.change) {
                ContactChange::None => {}
                ContactChange::StartedTouching => started.push(sim.contact),
                ContactChange::StoppedTouching => stopped.push(sim.contact),
                ContactChange::Disjoint => disjoint.push(sim.contact),
            }
        }
        for contact in started {
            self.begin_touch(contact);
        }
        for contact in stopped {
            self.end_touch(contact);
        }
        for contact in disjoint {
            if let Some(event) = self.destroy_contact(contact) {
                self.events.current.end.push(event);
            }
        }
    }

    /// Contact `contact` (arena index) began touching: its begin event; it links its bodies'
    /// islands (waking a sleeping one) and then takes a colour.
    fn begin_touch(&mut self, contact: u32) {
        if let Some((shape_a, shape_b, sim)) = self.contact_with_events(contact) {
            let manifold = sim.manifold;
            self.events.current.begin.push(ContactBeginTouchEvent {
                shape_a,
                shape_b,
                manifold,
            });
        }
        // Linking first: it wakes a sleeping body, so both are awake when the colour is chosen.
        self.link_contact(contact);
        self.link_contact(contact);
        self.add_contact_to_graph(contact);
    }

    /// Contact `contact` (arena index) stopped touching: its end event; it leaves its colour
    /// and its island (which becomes a split candidate).
    fn end_touch(&mut self, contact: u32) {
        if let Some((shape_a, shape_b, _)) = self.contact_with_events(contact) {
            self.events
                .current
                .end
                .push(ContactEndTouchEvent { shape_a, shape_b });
        }
        self.unlink_contact(contact);
        self.remove_contact_from_graph(contact);
        self.unlink_contact(contact);
    }

    /// The shapes and sim of contact `contact` (arena index), if it reports events.
    fn contact_with_events(&self, contact: u32) -> Option<(ShapeId, ShapeId, &ContactSim)> {
        let record = self.contacts.arena.get_by_index(contact)?;
        let sim = self.contacts.sims.get(record.sim_index as usize)?;
        sim.enable_events
            .then_some((record.shape_a, record.shape_b, sim))
    }
}

#[cfg(test)]
mod tests {
    use super::carry_impulses;
    use collision::{Manifold, ManifoldPoint};

    fn point(id: u16, normal_impulse: f32, tangent_impulse: f32) -> ManifoldPoint {
        ManifoldPoint {
            id,
            normal_impulse,
            tangent_impulse,
            ..ManifoldPoint::default()
        }
    }

    #[test]
    fn impulses_follow_feature_ids() {
        let old = Manifold {
            points: [point(7, 2.5, -0.5), point(9, 1.0, 0.25)],
            point_count: 2,
            ..Manifold::default()
        };
        let mut new = Manifold {
            points: [point(9, 0.0, 0.0), point(4, 0.0, 0.0)],
            point_count: 2,
            ..Manifold::default()
        };
        carry_impulses(&old, &mut new);
        assert_eq!(
            (new.points[0].normal_impulse, new.points[0].tangent_impulse),
            (1.0, 0.25)
        );
        assert!(new.points[0].persisted);
        assert_eq!(
            (new.points[1].normal_impulse, new.points[1].tangent_impulse),
            (0.0, 0.0)
        );
        assert!(!new.points[1].persisted);
    }
}
