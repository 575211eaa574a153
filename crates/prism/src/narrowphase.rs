//! The narrowphase (step phase 2) and the contact-state pass (step phase 3).
//!
//! **Collide** is a function over a slice of contact sims. For each contact it reads — and only
//! reads — the two shapes and their bodies' transforms, and writes only that contact's own sim
//! and recycling record:
//!
//! 1. if the two fat boxes no longer overlap, mark the contact `Disjoint` and stop (a contact
//!    that touched last step and whose fat boxes have not changed since skips the test, and
//!    with it the reading of its two shape records: see `fat_boxes_known_to_overlap`);
//! 2. otherwise, if recycling is on and the pair's relative pose has barely changed since its
//!    manifold was computed, keep that manifold and update its separations (see `recycle.rs`);
//!    else compute the manifold with `collision::collide` (shapes in their body frames, placed
//!    by the body-origin transforms) and record it for recycling;
//! 3. carry the cache: a new point whose feature id matches a point of the previous manifold
//!    takes over that point's accumulated normal and tangent impulses and is marked `persisted`
//!    (same id ⇒ same pair of features ⇒ physically the same contact point, so last step's
//!    impulse is an excellent first guess); other points start from zero;
//! 4. touching is `point_count > 0`; a change of touching is recorded as started/stopped.
//!
//! Nothing shared is mutated, so with more than one worker the slice is split into fixed-size
//! chunks that the world's thread pool collides in parallel; each contact's result depends only
//! on its own inputs, so the outcome is bitwise the same for any thread count. With one worker
//! it is a plain loop on the caller's thread. The pass also tells whether any contact recorded a
//! change (an or over the chunks, so also independent of the split).
//!
//! Recycling made the per-contact arithmetic cheap enough that what remained was memory: two
//! shape records read for the fat-box test (one cache miss each). They are not read on the
//! resting path — the fat-box test is skipped when it cannot have changed, and the recycling
//! test reads only the contact's own record and the two transforms.
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
//! every run and for every worker count. A step in which no contact recorded a change (most
//! steps of a resting scene) skips the walk.

use crate::broadphase::BroadPhase;
use crate::contact::{ContactChange, ContactSim};
use crate::events::{ContactBeginTouchEvent, ContactEndTouchEvent};
use crate::profile::zone;
use crate::recycle::ManifoldFrame;
use crate::shape::ShapeRecord;
use crate::solve::{BodyTable, tabulate_bodies};
use crate::world::World;
use collision::Manifold;
use collision::collide::collide;
use collision::shape_extent;
use core_soa::{Arena, Body, BodyArrays, BodyId, ShapeId, Transform, Vec2};
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
    /// Which shapes' fat boxes changed since the last narrowphase.
    pub(crate) broadphase: &'a BroadPhase,
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

/// Updates the manifold and touching state of every contact in `sims`, and the recycling
/// record `frames[i]` of `sims[i]` (see the module notes). Returns whether any contact recorded
/// a change for the contact-state pass.
pub(crate) fn collide_contacts(
    sims: &mut [ContactSim],
    frames: &mut [Option<ManifoldFrame>],
    view: &CollideView<'_>,
) -> bool {
    let mut changed = false;
    for (sim, frame) in sims.iter_mut().zip(frames) {
        collide_contact(sim, frame, view);
        changed |= sim.change != ContactChange::None;
    }
    changed
}

/// [`collide_contacts`] split into chunks across the current rayon pool (the step runs inside
/// the world's pool).
fn collide_contacts_parallel(
    sims: &mut [ContactSim],
    frames: &mut [Option<ManifoldFrame>],
    view: &CollideView<'_>,
) -> bool {
    sims.par_chunks_mut(COLLIDE_CHUNK)
        .zip(frames.par_chunks_mut(COLLIDE_CHUNK))
        .map(|(sims, frames)| collide_contacts(sims, frames, view))
        .reduce(|| false, |a, b| a || b)
}

fn collide_contact(
    sim: &mut ContactSim,
    frame: &mut Option<ManifoldFrame>,
    view: &CollideView<'_>,
) {
    if !fat_boxes_known_to_overlap(sim, frame, view) && !fat_boxes_overlap(sim, view) {
        sim.change = ContactChange::Disjoint;
        return;
    }
    let xf_a = view.transform(sim.body_a);
    let xf_b = view.transform(sim.body_b);
    let recycled = match (&*frame, view.recycle) {
        (Some(frame), true) => frame.recycle(&sim.manifold, xf_a, xf_b),
        _ => None,
    };
    let manifold = match recycled {
        Some(manifold) => manifold,
        None => {
            let (Some(shape_a), Some(shape_b)) = (
                view.shapes.get_by_index(sim.shape_a),
                view.shapes.get_by_index(sim.shape_b),
            ) else {
                sim.change = ContactChange::Disjoint;
                return;
            };
            let mut manifold = collide(&shape_a.geometry, xf_a, &shape_b.geometry, xf_b);
            carry_impulses(&sim.manifold, &mut manifold);
            let extent_b = shape_extent(&shape_b.geometry, Vec2::ZERO);
            *frame = Some(ManifoldFrame::capture(&manifold, xf_a, xf_b, extent_b));
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

/// Whether the contact's fat boxes overlap without reading its shapes: a contact with a
/// recycling record was collided in the last narrowphase (it gets one only then, and loses it on
/// leaving the awake contacts, which are all visited every step), so its fat boxes overlapped
/// then; if neither has changed since, they still do (see [`BroadPhase::fat_box_changed`]).
#[inline]
fn fat_boxes_known_to_overlap(
    sim: &ContactSim,
    frame: &Option<ManifoldFrame>,
    view: &CollideView<'_>,
) -> bool {
    let known = frame.is_some()
        && !view.broadphase.fat_box_changed(sim.shape_a)
        && !view.broadphase.fat_box_changed(sim.shape_b);
    debug_assert!(
        !known || fat_boxes_overlap(sim, view),
        "stale overlap for {sim:?}"
    );
    known
}

/// Whether both shapes exist and their fat boxes overlap.
fn fat_boxes_overlap(sim: &ContactSim, view: &CollideView<'_>) -> bool {
    match (
        view.shapes.get_by_index(sim.shape_a),
        view.shapes.get_by_index(sim.shape_b),
    ) {
        (Some(shape_a), Some(shape_b)) => shape_a.fat_aabb.overlaps(&shape_b.fat_aabb),
        _ => false,
    }
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
    /// Returns whether any contact began or stopped touching or became disjoint.
    pub(crate) fn collide(&mut self) -> bool {
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
            broadphase: &self.broadphase,
        };
        let (sims, frames) = (&mut self.contacts.sims, &mut self.contacts.frames);
        let changed = if self.def.worker_count > 1 {
            collide_contacts_parallel(sims, frames, &view)
        } else {
            collide_contacts(sims, frames, &view)
        };
        self.broadphase.clear_fat_box_changes();
        changed
    }

    /// Step phase 3: applies the narrowphase's verdicts in contact order — begin touching
    /// (event, into the constraint graph), end touching (event, out of the graph), and
    /// destruction of disjoint contacts. `changed` is [`World::collide`]'s answer: when no
    /// contact recorded a change (a resting scene, most steps) there is nothing to collect.
    pub(crate) fn update_contact_states(&mut self, changed: bool) {
        zone!("update contact state");
        if !changed {
            return;
        }
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
    use crate::{BodyDef, BodyId, ShapeDef, Vec2, World, WorldDef, make_box};
    use collision::{Manifold, ManifoldPoint};
    use core_soa::Rot;

    const DT: f32 = 1.0 / 60.0;

    /// A unit box resting on a wide ground box, stepped until its contact is a resting one
    /// (touching, with a recycling record); sleep off so the contact stays awake.
    fn box_at_rest() -> (World, BodyId) {
        let mut world = World::new(WorldDef {
            enable_sleep: false,
            ..WorldDef::default()
        })
        .unwrap();
        let ground = world
            .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
            .unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &make_box(20.0, 1.0).unwrap())
            .unwrap();
        let crate_body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))
            .unwrap();
        world
            .create_polygon_shape(
                crate_body,
                &ShapeDef::default(),
                &make_box(0.5, 0.5).unwrap(),
            )
            .unwrap();
        for _ in 0..30 {
            world.step(DT, 4).unwrap();
        }
        assert_eq!(world.contacts.sims.len(), 1);
        assert!(world.contacts.sims[0].touching);
        assert!(world.contacts.frames[0].is_some());
        (world, crate_body)
    }

    /// The overlap test skipped for resting contacts is taken again as soon as a fat box
    /// changes: a teleported box (fat box re-inserted between steps) loses its contact in the
    /// next step, as does one launched upwards (fat box re-inserted by the step's own update).
    #[test]
    fn resting_contact_is_destroyed_once_its_fat_boxes_part() {
        let (mut world, crate_body) = box_at_rest();
        world
            .set_transform(crate_body, Vec2::new(0.0, 10.0), Rot::IDENTITY)
            .unwrap();
        world.step(DT, 4).unwrap();
        assert_eq!(world.contacts.sims.len(), 0, "teleported");

        let (mut world, crate_body) = box_at_rest();
        world
            .set_linear_velocity(crate_body, Vec2::new(0.0, 30.0))
            .unwrap();
        let steps_to_part = (0..10).position(|_| {
            world.step(DT, 4).unwrap();
            world.contacts.sims.is_empty()
        });
        // The box rises 0.5 m per step; its fat box (at most 12 cm around it) leaves the
        // ground's after the first step's update, so the second step's narrowphase destroys
        // the contact.
        assert_eq!(steps_to_part, Some(1), "launched");
    }

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
