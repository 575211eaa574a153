//! The narrowphase (step phase 2) and the contact-state pass (step phase 3).
//!
//! **Collide** runs over the awake contacts where they are stored — each graph colour's sims
//! and the awake set's non-touching ones — cut into fixed chunks of [`COLLIDE_CHUNK`] that the
//! world's workers collide in parallel. For each contact it reads only the two shapes and the two
//! body sims its sim names, and writes only that sim:
//!
//! 1. if the two fat boxes no longer overlap, mark the contact `Disjoint` and stop (a contact
//!    collided last step whose fat boxes have not changed since skips the test, and with it the
//!    reading of its two shape records: see [`fat_boxes_known_to_overlap`]);
//! 2. otherwise, if recycling is on and the pair's relative pose has barely changed since its
//!    manifold was computed, keep that manifold and update its separations (`recycle.rs`); else
//!    compute the manifold with `collision::collide` (shapes in their body frames, placed by the
//!    body-origin transforms), move its anchors from the body origins to the centres of mass
//!    (`anchor − q·local_center`, what the solver wants) and record it for recycling;
//! 3. carry the cache: a new point whose feature id matches a point of the previous manifold
//!    takes over that point's accumulated normal and tangent impulses and is marked `persisted`
//!    (same id ⇒ same pair of features ⇒ physically the same contact point, so last step's
//!    impulse is an excellent first guess); other points start from zero;
//! 4. if either shape asked for it, the world's pre-solve hook may refuse the contact for this
//!    step (`hooks.rs`): its manifold is emptied;
//! 5. touching is `point_count > 0`; a change of touching, or the parting of the fat boxes,
//!    is returned with the contact's id ([`ChangedContact`]).
//!
//! Each chunk returns its changed contacts; the lists are concatenated in chunk order and
//! sorted by id, so the result depends on the scene alone, whatever the split. A resting
//! scene returns nothing and allocates nothing.
//!
//! **Which worker collides what.** The chunk list is cut as the solver cuts its colours: with `W`
//! workers it holds the first `W`-th of every colour's sims (and of the non-touching ones), then
//! the second, and so on. The solver's executor gives worker `w` the `w`-th segment of every colour
//! (`solver_simd`'s `executor.rs`), and a colour in the graph's order — every colour of a pile
//! built in body order, as the pyramids are — is bundled in that order. A parallel loop's
//! calling thread, the solver's worker 0, claims the chunks of the job's first segment and a
//! helper those of its own (the `workers` crate), so with two workers a contact is mostly collided
//! on the core that then prepares it and reads its bodies, and the record and the two sims can
//! stay in that core's cache instead of crossing between the cores twice a step. (In a tumbling
//! pile the solver orders the colours by body, `contact_order.rs`, and this cut by position does
//! not follow it.) Only which thread runs a chunk depends on it, never what a chunk computes:
//! `large_pyramid` at two workers, alternating builds, collide 0.291 → 0.253 and the step's begin
//! pass with its integration 0.104 → 0.075 ms/step (`benches/results/NOTES.md`). In
//! `many_pyramids`, whose 13 MB of contact records do not fit in a core's cache, giving each
//! thread the other's half instead changed nothing measurable (collide 0.385 → 0.388).
//!
//! The phase first creates the contacts of the pairs the pair search found (serially, in pair
//! order: `broadphase.rs`), then collides. Neither reads a tree, so the rebuild of the moving
//! tree's part that the last finalize loosened and only refitted (`finalize.rs`) runs beside
//! both: taken out of the broadphase for the phase, built by one worker while another
//! creates the contacts and then starts on the collisions, which the first joins when the
//! tree is done. The rebuilt tree is the same, node for node, for any worker count, and no
//! contact reads it.
//!
//! **Update contact state** then applies the changes serially, in contact-id order — all
//! begins, then all ends, then all destructions — touching only the changed contacts, which
//! the narrowphase's list names with their change, so no contact is looked up twice:
//!
//! ```text
//!   began touching    begin event → link islands (wakes a sleeping one) → into a colour
//!   stopped touching  end event   → out of its colour, into the awake set
//!   parted            if it was touching: end event → out of its colour
//!   then the tail     unlink from their islands the stopped ones, then the parted touching
//!                     ones; each parted contact: out of the awake set's store if it was not
//!                     touching → out of its bodies' contact lists → record freed → pair
//!                     forgotten
//! ```
//!
//! The serial cost is proportional to the number of changes, not of contacts. The tail
//! (`contact::ContactStateTail`) writes only the island graph, the contacts' cold records, the
//! awake set's store of non-touching contacts, the bodies' list heads and the pair set, none of
//! which the solver reads, and the begins' links all come before it, as they came before the
//! unlinks when those ran in place. So with several workers the pass leaves the tail to run
//! beside the solver, on another worker (`solve.rs`), in the same order on the same data as
//! with one worker, where the pass runs it at its end, and the world is the same either way. In
//! a drum of six thousand tumbling boxes about 1,500 contacts part every step, most of them not
//! touching; at two workers the pass took 0.247 ms/step while it unlinked in place and 0.192
//! with the unlinks in the tail (alternating builds, `benches/results/NOTES.md`), though the
//! step as a whole did not measurably change: the tail's work only moves beside the solver.

use crate::broadphase::BroadPhase;
use crate::contact::{BodyRef, ContactChange, ContactSim, ContactStateTail, PartedContact};
use crate::events::{ContactBeginTouchEvent, ContactEndTouchEvent};
use crate::hooks::{PreSolveFn, pre_solve_keeps};
use crate::profile::zone;
use crate::recycle::ManifoldFrame;
use crate::shape::ShapeRecord;
use crate::solver_set::{AWAKE_SET, SolverSet};
use crate::world::World;
use collision::Manifold;
use collision::collide::collide;
use collision::tree::DynamicTree;
use core_soa::{Arena, BodySim, ShapeId};

/// Contacts per parallel task: large enough to amortise scheduling, small enough to balance.
const COLLIDE_CHUNK: usize = 64;

/// Read-only access to what the narrowphase needs: shapes and body sims.
pub(crate) struct CollideView<'a> {
    pub(crate) shapes: &'a Arena<ShapeRecord, ShapeId>,
    pub(crate) sets: &'a [SolverSet],
    /// Whether resting manifolds may be recycled (`WorldDef::enable_contact_recycling`).
    pub(crate) recycle: bool,
    /// Which shapes' fat boxes changed since the last narrowphase.
    pub(crate) broadphase: &'a BroadPhase,
    /// The world's pre-solve hook, if any (`hooks.rs`).
    pub(crate) pre_solve: Option<&'a PreSolveFn>,
}

impl CollideView<'_> {
    #[inline]
    fn body(&self, place: BodyRef) -> Option<&BodySim> {
        self.sets
            .get(place.set as usize)?
            .bodies
            .sims()
            .get(place.local as usize)
    }
}

/// Rebuilds the loosened part of the moving tree on the current pool.
fn rebuild_tree(tree: &mut DynamicTree) {
    zone!("rebuild moving tree");
    tree.rebuild_enlarged_parallel();
}

/// Cuts the contact groups (each colour's sims, then the awake set's non-touching ones) into
/// collide chunks, worker part after worker part: part `v` of a group of `n` sims is its sims
/// `⌊v·n/W⌋ … ⌊(v+1)·n/W⌋ − 1`, and the list holds part 0 of every group, then part 1, and so
/// on (module notes, "Which worker collides what").
fn chunks_by_worker_part<'a, T>(
    groups: impl Iterator<Item = &'a mut [T]>,
    workers: usize,
) -> Vec<&'a mut [T]> {
    let workers = workers.max(1);
    let mut parts: Vec<Vec<&'a mut [T]>> = (0..workers).map(|_| Vec::new()).collect();
    for mut rest in groups {
        let n = rest.len();
        for (v, part) in parts.iter_mut().enumerate() {
            let len = (v + 1) * n / workers - v * n / workers;
            let (this, after) = std::mem::take(&mut rest).split_at_mut(len);
            part.extend(this.chunks_mut(COLLIDE_CHUNK));
            rest = after;
        }
    }
    parts.into_iter().flatten().collect()
}

/// A contact the narrowphase changed (arena index), and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChangedContact {
    pub(crate) contact: u32,
    pub(crate) change: ContactChange,
}

/// Collides every contact of `sims` (see the module notes); returns those whose touching
/// state changed or whose fat boxes parted.
pub(crate) fn collide_contacts(
    sims: &mut [ContactSim],
    view: &CollideView<'_>,
) -> Vec<ChangedContact> {
    zone!("collide chunk");
    let mut changed = Vec::new();
    for sim in sims {
        if let Some(change) = collide_contact(sim, view) {
            changed.push(ChangedContact {
                contact: sim.contact,
                change,
            });
        }
    }
    changed
}

fn collide_contact(sim: &mut ContactSim, view: &CollideView<'_>) -> Option<ContactChange> {
    let parted = ContactChange::Disjoint {
        touching: sim.touching,
    };
    let bodies = (view.body(sim.bodies[0]), view.body(sim.bodies[1]));
    let (Some(body_a), Some(body_b)) = bodies else {
        return Some(parted);
    };
    if !fat_boxes_known_to_overlap(sim, view) && !fat_boxes_overlap(sim, view) {
        return Some(parted);
    }
    let recycled = view.recycle
        && sim.recyclable
        && sim
            .frame
            .recycle_in_place(&mut sim.solver.manifold, body_a, body_b);
    if !recycled {
        match collide_afresh(sim, body_a, body_b, view) {
            Some(manifold) => sim.solver.manifold = manifold,
            None => return Some(parted),
        }
    }
    if let Some(hook) = view.pre_solve.filter(|_| sim.enable_pre_solve)
        && sim.solver.manifold.point_count > 0
        && !pre_solve_keeps(hook, view.shapes, sim, &sim.solver.manifold, body_a.center)
    {
        // Refused for this step (`hooks.rs`): not touching, and collided afresh next step.
        sim.solver.manifold.point_count = 0;
        sim.recyclable = false;
    }
    let touching = sim.solver.manifold.point_count > 0;
    let change = match (sim.touching, touching) {
        (false, true) => Some(ContactChange::StartedTouching),
        (true, false) => Some(ContactChange::StoppedTouching),
        _ => None,
    };
    sim.touching = touching;
    change
}

/// A full collide of the pair, with the cache carried, anchors moved to the centres of mass,
/// and the recycling record captured; `None` if a shape is gone.
fn collide_afresh(
    sim: &mut ContactSim,
    body_a: &BodySim,
    body_b: &BodySim,
    view: &CollideView<'_>,
) -> Option<Manifold> {
    let shape_a = view.shapes.get_by_index(sim.shape_a)?;
    let shape_b = view.shapes.get_by_index(sim.shape_b)?;
    let (xf_a, xf_b) = (body_a.transform, body_b.transform);
    let mut manifold = collide(&shape_a.geometry, xf_a, &shape_b.geometry, xf_b);
    carry_impulses(&sim.solver.manifold, &mut manifold);
    let (offset_a, offset_b) = (body_a.center - xf_a.p, body_b.center - xf_b.p);
    for point in manifold.points_mut() {
        point.anchor_a -= offset_a;
        point.anchor_b -= offset_b;
    }
    let extent_b = shape_b.sizes.origin_extent;
    sim.frame = ManifoldFrame::capture(&manifold, xf_a, xf_b, extent_b);
    sim.recyclable = true;
    Some(manifold)
}

/// Whether the contact's fat boxes overlap without reading its shapes: a recyclable contact was
/// collided in the last narrowphase (a full collide makes it so, and it stays so only while it
/// is collided every step: see `recycle.rs`), so its fat boxes overlapped then; if neither has
/// changed since, they still do (see [`BroadPhase::fat_box_changed`]).
#[inline]
fn fat_boxes_known_to_overlap(sim: &ContactSim, view: &CollideView<'_>) -> bool {
    let known = sim.recyclable
        && !view.broadphase.fat_box_changed(sim.shape_a)
        && !view.broadphase.fat_box_changed(sim.shape_b);
    debug_assert!(
        !known || fat_boxes_overlap(sim, view),
        "stale overlap for contact {}",
        sim.contact
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
    /// Step phase 2 (see the module notes): the contacts of the new pairs `pairs`, then the
    /// narrowphase, and beside both the rebuild of the moving tree's loosened part. Returns
    /// what [`World::collide`] returns.
    pub(crate) fn collide_beside_tree_rebuild(
        &mut self,
        pairs: Vec<(u32, u32)>,
    ) -> Vec<ChangedContact> {
        let mut tree = std::mem::take(&mut self.broadphase.moving_tree);
        let parallel = self.parallel_step;
        let create_and_collide = || {
            self.create_pair_contacts(pairs);
            self.collide()
        };
        let changed = if parallel {
            // `join` runs its first task here and offers the second to the other workers, so
            // the rebuild starts at once on another thread while this one creates contacts.
            let (changed, ()) = workers::join(create_and_collide, || rebuild_tree(&mut tree));
            changed
        } else {
            tree.rebuild_enlarged();
            create_and_collide()
        };
        self.broadphase.moving_tree = tree;
        changed
    }

    /// Step phase 2: the narrowphase over the awake contacts. Returns the contacts that began
    /// or stopped touching or whose fat boxes parted, in increasing id order.
    pub(crate) fn collide(&mut self) -> Vec<ChangedContact> {
        zone!("collide");
        let mut awake = std::mem::take(&mut self.solver_sets[AWAKE_SET as usize].contacts);
        let view = CollideView {
            shapes: &self.shapes,
            sets: &self.solver_sets,
            recycle: self.def.enable_contact_recycling,
            broadphase: &self.broadphase,
            pre_solve: self.hooks.pre_solve.as_deref(),
        };
        let workers = if self.parallel_step {
            self.def.worker_count as usize
        } else {
            1
        };
        let groups = self
            .graph
            .colors_mut()
            .map(|(contacts, _)| &mut contacts[..]);
        let mut chunks = chunks_by_worker_part(groups.chain([&mut awake[..]]), workers);
        let mut changed: Vec<ChangedContact> = if self.parallel_step {
            let results = workers::map_mut(&mut chunks, |_, sims| collide_contacts(sims, &view));
            results.into_iter().flatten().collect()
        } else {
            chunks
                .into_iter()
                .flat_map(|c| collide_contacts(c, &view))
                .collect()
        };
        self.solver_sets[AWAKE_SET as usize].contacts = awake;
        self.broadphase.clear_fat_box_changes();
        changed.sort_unstable_by_key(|c| c.contact);
        changed
    }

    /// Step phase 3: applies the narrowphase's verdicts (see the module notes). Returns what
    /// it leaves for beside the solver — the island unlinks and the rest of the parted
    /// contacts' destruction — in the pass's order (nothing with one worker, where it runs
    /// that tail itself).
    pub(crate) fn update_contact_states(&mut self, changed: &[ChangedContact]) -> ContactStateTail {
        zone!("update_contacts");
        let (mut started, mut stopped) = (Vec::new(), Vec::new());
        let mut tail = ContactStateTail::default();
        for &ChangedContact { contact, change } in changed {
            match change {
                ContactChange::StartedTouching => started.push(contact),
                ContactChange::StoppedTouching => stopped.push(contact),
                ContactChange::Disjoint { touching } => tail.parted.push(PartedContact {
                    index: contact,
                    stored: !touching,
                }),
            }
        }
        for contact in started {
            self.begin_touch(contact);
        }
        for &contact in &stopped {
            self.end_touch(contact);
        }
        tail.unlinks = stopped;
        for contact in tail.parted.iter().filter(|c| !c.stored) {
            if let Some(event) = self.detach_touching_contact(contact.index) {
                self.events.current.end.push(event);
            }
            tail.unlinks.push(contact.index);
        }
        if self.parallel_step {
            return tail;
        }
        self.run_contact_state_tail(&tail);
        ContactStateTail::default()
    }

    /// Contact `contact` began touching: its begin event; it links its bodies' islands
    /// (waking a sleeping one, so both bodies are awake when the colour is chosen) and then
    /// moves into a colour.
    fn begin_touch(&mut self, contact: u32) {
        if let Some(event) = self.begin_event(contact) {
            self.events.current.begin.push(event);
        }
        self.link_contact(contact);
        if let Some(sim) = self.take_contact_sim(contact) {
            self.store_contact_sim(contact, sim, AWAKE_SET);
        }
    }

    /// Contact `contact` stopped touching: its end event; it leaves its colour for the awake
    /// set. (It leaves its island, which becomes a split candidate, in the pass's tail.)
    fn end_touch(&mut self, contact: u32) {
        let record = self.contacts.get_by_index(contact);
        let reports = self
            .contact_sim(contact)
            .is_some_and(|sim| sim.enable_events);
        if let Some(record) = record.filter(|_| reports) {
            let event = ContactEndTouchEvent {
                shape_a: record.shape_a,
                shape_b: record.shape_b,
            };
            self.events.current.end.push(event);
        }
        if let Some(sim) = self.take_contact_sim(contact) {
            self.store_contact_sim(contact, sim, AWAKE_SET);
        }
    }

    /// The begin event of contact `contact`, if it reports events.
    fn begin_event(&self, contact: u32) -> Option<ContactBeginTouchEvent> {
        let record = self.contacts.get_by_index(contact)?;
        let sim = self.contact_sim(contact)?;
        sim.enable_events.then(|| ContactBeginTouchEvent {
            shape_a: record.shape_a,
            shape_b: record.shape_b,
            manifold: self.user_manifold(sim),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::carry_impulses;
    use crate::solver_set::AWAKE_SET;
    use crate::{BodyDef, BodyId, ShapeDef, Vec2, World, WorldDef, make_box};
    use collision::{Manifold, ManifoldPoint};
    use core_soa::{ContactId, Rot};

    const DT: f32 = 1.0 / 60.0;

    #[test]
    fn worker_parts_hold_every_sim_once_first_parts_first() {
        let mut first = (0..200u32).collect::<Vec<_>>();
        let mut second = (1000..1007u32).collect::<Vec<_>>();
        let mut empty: Vec<u32> = Vec::new();
        let groups = [&mut first[..], &mut empty[..], &mut second[..]];
        let chunks = super::chunks_by_worker_part(groups.into_iter(), 2);
        assert!(chunks.iter().all(|c| c.len() <= super::COLLIDE_CHUNK));
        let order: Vec<u32> = chunks.iter().flat_map(|c| c.iter().copied()).collect();
        // Part 0 of each group (0..100, 1000..1003), then part 1 (100..200, 1003..1007).
        let expected: Vec<u32> = (0..100)
            .chain(1000..1003)
            .chain(100..200)
            .chain(1003..1007)
            .collect();
        assert_eq!(order, expected);
        let mut one = (0..130u32).collect::<Vec<_>>();
        let chunks = super::chunks_by_worker_part([&mut one[..]].into_iter(), 1);
        assert_eq!(
            chunks.iter().map(|c| c.len()).collect::<Vec<_>>(),
            [64, 64, 2]
        );
    }

    /// A unit box resting on a wide ground box, stepped until its contact is a resting one
    /// (touching, recyclable); sleep off so the contact stays awake.
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
        assert_eq!(world.contacts.len(), 1);
        let (id, _) = world.contacts.iter().next().unwrap();
        let sim = world.contact_sim(id.index()).unwrap();
        assert!(sim.touching && sim.recyclable);
        assert!(world.solver_sets[AWAKE_SET as usize].contacts.is_empty());
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
        assert_eq!(world.contacts.len(), 0, "teleported");

        let (mut world, crate_body) = box_at_rest();
        world
            .set_linear_velocity(crate_body, Vec2::new(0.0, 30.0))
            .unwrap();
        let steps_to_part = (0..10).position(|_| {
            world.step(DT, 4).unwrap();
            world.contacts.is_empty()
        });
        // The box rises 0.5 m per step; its fat box (at most 12 cm around it) leaves the
        // ground's after the first step's update, so the second step's narrowphase destroys
        // the contact.
        assert_eq!(steps_to_part, Some(1), "launched");
    }

    /// A contact's anchors are kept relative to the centres of mass for the solver and shown
    /// relative to the body origins to users: moving a body's centre of mass (an off-centre
    /// shape) changes the first and not the second.
    #[test]
    fn anchors_are_centre_relative_inside_and_origin_relative_outside() {
        let (mut world, crate_body) = box_at_rest();
        let before = world.contact_data().next().unwrap().manifold;
        let mut mass = world.mass_data(crate_body).unwrap();
        mass.center = Vec2::new(0.25, 0.0);
        world.set_mass_data(crate_body, mass).unwrap();
        world.step(DT, 4).unwrap();
        let (id, _) = world.contacts.iter().next().unwrap();
        let sim = world.contact_sim(id.index()).unwrap();
        let shown = world.contact_data().next().unwrap().manifold;
        for (inner, (user, old)) in sim
            .solver
            .manifold
            .points()
            .iter()
            .zip(shown.points().iter().zip(before.points()))
        {
            // The box barely moved in one step: origin-relative anchors agree within 1 mm,
            // centre-relative ones are shifted by the new centre.
            assert!(
                (user.anchor_b - old.anchor_b).length() < 1e-3,
                "{user:?} {old:?}"
            );
            let shift = user.anchor_b - inner.anchor_b;
            assert!((shift - Vec2::new(0.25, 0.0)).length() < 1e-3, "{shift:?}");
        }
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

    /// A heavy box flung through a block of small boxes, with gravity off and sleep on: what
    /// the contact-state pass sees of the world, as it stands after each step.
    struct Smash {
        world: World,
        bodies: Vec<BodyId>,
    }

    impl Smash {
        fn new(worker_count: u32) -> Smash {
            let mut world = World::new(WorldDef {
                worker_count,
                gravity: Vec2::ZERO,
                ..WorldDef::default()
            })
            .unwrap();
            world.set_light_steps_on_caller(false);
            let heavy = ShapeDef {
                density: 8.0,
                ..ShapeDef::default()
            };
            let smasher = BodyDef {
                linear_velocity: Vec2::new(60.0, 0.0),
                ..BodyDef::dynamic_at(Vec2::new(-10.0, 0.0))
            };
            let smasher = world.create_body(&smasher).unwrap();
            let square = make_box(1.5, 1.5).unwrap();
            world
                .create_polygon_shape(smasher, &heavy, &square)
                .unwrap();
            let mut bodies = vec![smasher];
            let small = make_box(0.2, 0.2).unwrap();
            for i in 0..20 {
                for j in 0..15 {
                    let at = Vec2::new(0.4 * i as f32, 0.4 * (j - 7) as f32);
                    let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
                    world
                        .create_polygon_shape(body, &ShapeDef::default(), &small)
                        .unwrap();
                    bodies.push(body);
                }
            }
            Smash { world, bodies }
        }

        /// The arena indices of the contacts, split into touching and not.
        fn contacts_by_touch(&self) -> [Vec<u32>; 2] {
            let mut split = [Vec::new(), Vec::new()];
            for (id, _) in self.world.contacts.iter() {
                let touching = self.world.contact_sim(id.index()).unwrap().touching;
                split[usize::from(!touching)].push(id.index());
            }
            split
        }

        /// Everything the parted contacts' destruction writes, and the bodies' motion: body
        /// states as bits, the contact keys in arena order, the awake set's store in order,
        /// each body's contact list, and the pair set sorted.
        fn fingerprint(&self) -> Vec<u64> {
            let world = &self.world;
            let mut out = Vec::new();
            for &body in &self.bodies {
                let p = world.position(body).unwrap();
                let v = world.linear_velocity(body).unwrap();
                out.extend([p.x, p.y, v.x, v.y].map(|x| u64::from(x.to_bits())));
            }
            let key = |id: ContactId| (u64::from(id.index()) << 32) | u64::from(id.generation());
            out.extend(world.contacts.iter().map(|(id, _)| key(id)));
            let store = &world.solver_sets[AWAKE_SET as usize].contacts;
            out.extend(store.iter().map(|sim| u64::from(sim.contact)));
            for (_, body) in world.bodies.iter() {
                out.push(u64::from(body.contacts.first));
            }
            let mut pairs: Vec<u64> = world.broadphase.pair_set.iter().copied().collect();
            pairs.sort_unstable();
            out.extend(pairs);
            // The island graph: each island's bodies and linked constraints, in their order.
            let graph = &world.islands.graph;
            for island in graph.islands() {
                out.push(u64::from(island.index()));
                out.extend(graph.bodies(island).unwrap().iter().map(|&b| u64::from(b)));
                let constraints = graph.constraints(island).unwrap();
                out.extend(constraints.iter().map(|key| u64::from(key.index)));
            }
            out
        }
    }

    /// With two workers the contact-state pass's tail — island unlinks, then the rest of the
    /// parted contacts' destruction — runs beside the solver; the world it leaves — bodies,
    /// contact records, the awake store's order, the bodies' contact lists, the pair set, the
    /// islands' bodies and constraints in order — is the one a single worker leaves, step by
    /// step. The run parts both kinds of contact, touching ones (their colour left before the
    /// solver) and not touching ones, and has contacts stop touching without parting.
    #[test]
    fn the_contact_pass_tail_beside_the_solver_leaves_the_one_worker_world() {
        let (mut one, mut two) = (Smash::new(1), Smash::new(2));
        let (mut touching_parted, mut idle_parted, mut stopped) = (0, 0, 0);
        for step in 0..90 {
            let before = one.contacts_by_touch();
            one.world.step(DT, 4).unwrap();
            two.world.step(DT, 4).unwrap();
            assert!(two.world.parallel_step, "step {step} ran on the caller");
            assert_eq!(one.fingerprint(), two.fingerprint(), "step {step}");
            let gone = |list: &[u32]| {
                let alive = |&&index: &&u32| one.world.contacts.key_at(index).is_none();
                list.iter().filter(alive).count()
            };
            touching_parted += gone(&before[0]);
            idle_parted += gone(&before[1]);
            let after = one.contacts_by_touch();
            stopped += before[0].iter().filter(|c| after[1].contains(c)).count();
        }
        assert!(touching_parted > 0, "no touching contact parted");
        assert!(stopped > 0, "no contact stopped touching without parting");
        assert!(idle_parted > 100, "only {idle_parted} idle contacts parted");
    }
}
