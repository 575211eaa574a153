//! Step phase 4: hand the touching contacts to the solver and keep what it learned.
//!
//! The solver works on the awake bodies' dense arrays and a flat list of [`SolverContact`]s,
//! ordered by graph colour (see `graph.rs`):
//!
//! ```text
//!   order     sim indices: colour 0's contacts, colour 1's, …, overflow   + ColorLayout ranges
//!   gather    one SolverContact per entry (in parallel: entry i depends on its sim only)
//!   solve     solver-simd: colours as wide bundles in parallel blocks, overflow serially
//!   store     impulses back into each contact's manifold (in parallel over the contact sims)
//! ```
//!
//! The soft step solves in colour order. The classic sequential-impulses solver is a
//! Gauss-Seidel sweep whose answer at a fixed iteration count depends on the sweep order, and
//! for stacks the contact order (pairs sorted by shape, so bottom rows first) converges
//! markedly better than colour order (a 20-row pyramid at 8 iterations drifts 9 mm in contact
//! order, 21 mm in colour order); so for that solver the graph's contacts are handed over in
//! contact order, all as overflow — the literature's serial method, as the seeds describe it.
//!
//! Each solver contact carries:
//!
//! - body indices: the awake-set index of each body, or `NULL_BODY` for a static body (which
//!   the solver treats as an immovable identity state);
//! - inverse masses from the bodies' sims (zero for static and kinematic bodies);
//! - the manifold with anchors moved from the body origins to the centres of mass. The
//!   narrowphase gives `anchor = point − origin` in world orientation; the centre of mass sits
//!   at `origin + q·local_center`, so `anchor_com = anchor − q·local_center`.
//!
//! What a contact needs of its bodies is first tabulated once per body, by arena index
//! ([`SolverBody`] in a [`BodyTable`]), so the gather reads two small entries per contact
//! instead of walking body → solver set → sim for both sides of every contact. A body that is
//! in neither the static nor the awake set has no entry and reads as immovable; its contacts
//! are not in the graph anyway.
//!
//! After the solve each point's accumulated impulses (and the solver's diagnostics) are copied
//! back into the contact's manifold: next step's narrowphase carries them to the matching new
//! points, which is what makes warm starting work.
//!
//! Gather and store both walk the contact sims in memory order, with `slots` (each sim's
//! position in the solver list) as the link: the gather scatters each sim's record to its
//! position, the store pulls each sim's impulses from its position. Reading the sims in colour
//! order instead — which is random with respect to memory — is twice as slow once they
//! outgrow the cache (58,000 contacts of many_pyramids: 4.6 ms against 2.1 ms per step); a
//! store the other way round, walking the solver list and writing each sim at random, took
//! about 1.5 times as long as pulling (a write to a sim needs its cache line too). Every
//! output element is computed from its own inputs only, so splitting the walk across the pool
//! (fixed chunks of sims; the gather's writes land on distinct positions, which is what makes
//! its shared write sound) changes no bit; with one worker each is one plain loop.
//!
//! Then divergence is collected: the solver leaves a body whose velocity or displacement blew up
//! at its start pose, at rest, and lists it; the World also checks every awake body's pose and
//! resets any that is not finite to the pose recorded at the step start (`center0`,
//! `rotation0`). Those bodies are reported by the step; cached impulses that are no longer
//! finite are dropped. No NaN survives into the next step.

use crate::body::{AWAKE_SET, STATIC_SET};
use crate::contact::ContactSim;
use crate::graph::{ContactGraph, colors_in_solve_order};
use crate::profile::{timed, zone};
use crate::world::World;
use collision::{Manifold, ManifoldPoint};
use core_soa::{BodyArrays, BodyId, BodySim, BodyState, NULL_BODY, Transform, Vec2};
use graph_coloring::ColorIndex;
use rayon::prelude::*;
use solver_simd::shared::SharedSlice;
use solver_simd::{
    AwakeBodies, ColorLayout, ContactImpulses, ImpulseOutput, SolverContact, SolverJoints,
    SolverKind, SolverParams,
};

/// Contacts per parallel task in gather and store: each is a copy of ~150 bytes, so a task
/// must hold a few hundred to be worth scheduling.
const COPY_CHUNK: usize = 256;

/// A contact sim that is not in this step's solver list.
const NOT_SOLVED: u32 = u32::MAX;

/// Per-step lookup tables of the narrowphase and the solve phase, kept between steps so a step
/// allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepScratch {
    /// By body arena index: the transforms the narrowphase collides with.
    pub(crate) transforms: BodyTable<Transform>,
    /// By body arena index: what a solver contact needs of the body.
    solver_bodies: BodyTable<SolverBody>,
    /// By contact sim index: the contact's position in the solver list, or [`NOT_SOLVED`].
    slots: Vec<u32>,
}

/// A table by body arena index, written each step from the dense solver sets, so that a pass
/// over contacts reads a small entry per body instead of walking body → solver set → sim.
///
/// Only the static and awake sets are written (stepping cost follows awake bodies, so sleeping
/// bodies are not visited); an entry not written in the current step reads as absent and the
/// caller falls back to the full lookup. "Written this step" is a stamp per entry: starting a
/// step bumps the table's stamp instead of clearing, so it costs nothing per body.
#[derive(Clone, Debug, Default)]
pub(crate) struct BodyTable<T> {
    /// Each entry with the stamp of the step that wrote it (0: never).
    entries: Vec<(T, u64)>,
    stamp: u64,
}

impl<T: Copy + Default> BodyTable<T> {
    /// Starts a step: every entry becomes absent; room for `slot_count` bodies.
    pub(crate) fn begin_step(&mut self, slot_count: usize) {
        self.stamp += 1;
        if self.entries.len() < slot_count {
            self.entries.resize(slot_count, (T::default(), 0));
        }
    }

    /// Writes body `body`'s entry for this step.
    pub(crate) fn set(&mut self, body: u32, value: T) {
        if let Some(entry) = self.entries.get_mut(body as usize) {
            *entry = (value, self.stamp);
        }
    }

    /// Body `body`'s entry, if it was written this step.
    #[inline]
    pub(crate) fn get(&self, body: u32) -> Option<T> {
        let (value, stamp) = *self.entries.get(body as usize)?;
        (stamp == self.stamp).then_some(value)
    }
}

/// Writes `make(set_index, local_index, sim)` for every body of the static and awake sets.
pub(crate) fn tabulate_bodies<T: Copy + Default>(
    sets: &[BodyArrays],
    slot_count: usize,
    table: &mut BodyTable<T>,
    make: impl Fn(u32, u32, &BodySim) -> T,
) {
    table.begin_step(slot_count);
    for set_index in [STATIC_SET, AWAKE_SET] {
        let Some(set) = sets.get(set_index as usize) else {
            continue;
        };
        for (local, sim) in set.sims().iter().enumerate() {
            table.set(sim.body, make(set_index, local as u32, sim));
        }
    }
}

impl World {
    /// Runs the solver over the touching contacts; returns the bodies that diverged.
    pub(crate) fn solve(&mut self, dt: f32, substeps: u32) -> Vec<BodyId> {
        zone!("solve");
        let (layout, gather_ms) = timed(|| {
            let layout = self.order_solver_contacts();
            self.gather_solver_contacts();
            layout
        });
        self.profile.solver_gather = gather_ms;
        let h = self.joint_substep(dt, substeps);
        let ((), build_joints_ms) = timed(|| self.build_solver_joints(h));
        self.run_solver(dt, substeps, &layout);
        let ((), store_ms) = timed(|| self.store_impulses());
        self.profile.solver_store = store_ms;
        let ((), store_joints_ms) = timed(|| self.store_joint_results(h));
        self.profile.solver_joints = build_joints_ms + store_joints_ms;
        self.collect_diverged_bodies()
    }

    /// Runs the solver on `worker_count` threads over the contacts and joints ordered by
    /// colour.
    fn run_solver(&mut self, dt: f32, substeps: u32, layout: &ColorLayout) {
        let params = self.solver_params(dt, substeps);
        self.solver.set_worker_count(self.def.worker_count as usize);
        self.solver.set_impulse_output(ImpulseOutput::Dense);
        let (sims, states) = self.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        let contacts = &mut self.solver_contacts;
        let profile = &mut self.profile.solver;
        let bodies = AwakeBodies { states, sims };
        let joints = SolverJoints {
            joints: &mut self.joints.solver_joints,
            layout: &self.joints.layout,
        };
        #[cfg(feature = "validate")]
        let checked = self
            .solver
            .solve_colored_with_joints(&params, bodies, contacts, layout, joints, profile);
        // SAFETY: the colouring holds no dynamic body twice in a colour. The constraint graph
        // admits a contact or joint to a colour only if none of its dynamic bodies' bits is
        // set in that colour's body bitset (shared by contacts and joints), sets them on
        // admission and clears them on removal (`graph_coloring`); a sleeping body's
        // constraints leave the graph with it, and static and kinematic bodies take no bit and
        // are never written by the solver. `order_solver_contacts` and `build_solver_joints`
        // put each colour's members, and only them, in that colour's range, naming awake
        // bodies by their awake-set index, which is one-to-one with the arena index the
        // bitsets use. The `validate` build checks all of this every step instead.
        #[cfg(not(feature = "validate"))]
        let checked = unsafe {
            self.solver.solve_colored_with_joints_unchecked(
                &params, bodies, contacts, layout, joints, profile,
            )
        };
        if let Err(error) = checked {
            // The graph keeps the colour invariant, so this is a bookkeeping bug. The solver
            // moved nothing; solving every constraint by the scalar path is still correct.
            debug_assert!(false, "{error}");
            let (sims, states) = self.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
            let bodies = AwakeBodies { states, sims };
            let all_contacts = ColorLayout::overflow_only(contacts.len());
            let joint_list = &mut self.joints.solver_joints;
            let joints = SolverJoints {
                layout: &ColorLayout::overflow_only(joint_list.len()),
                joints: joint_list,
            };
            let serial = self.solver.solve_colored_with_joints(
                &params,
                bodies,
                contacts,
                &all_contacts,
                joints,
                profile,
            );
            debug_assert!(serial.is_ok(), "{serial:?}");
        }
    }

    /// The bodies the solver reported as blown up, plus any whose pose is not finite (reset
    /// here), in awake-set order.
    fn collect_diverged_bodies(&mut self) -> Vec<BodyId> {
        let mut diverged = self.solver.non_finite_bodies().to_vec();
        diverged.extend(self.reset_diverged_bodies());
        diverged.sort_unstable();
        diverged.dedup();
        let sims = self.solver_sets[AWAKE_SET as usize].sims();
        diverged
            .iter()
            .filter_map(|&local| self.bodies.key_at(sims.get(local as usize)?.body))
            .collect()
    }

    fn solver_params(&self, dt: f32, substeps: u32) -> SolverParams {
        let def = &self.def;
        SolverParams {
            dt,
            substeps,
            gravity: def.gravity,
            contact_hertz: def.contact_hertz,
            contact_damping_ratio: def.contact_damping_ratio,
            contact_push_max_speed: def.max_contact_push_speed,
            joint_hertz: def.joint_hertz,
            joint_damping_ratio: def.joint_damping_ratio,
            restitution_threshold: def.restitution_threshold,
            max_linear_speed: def.max_linear_speed,
            linear_slop: def.linear_slop,
            baumgarte: def.baumgarte,
            kind: def.solver_kind,
            enable_warm_starting: def.enable_warm_starting,
        }
    }

    /// Decides where each of the graph's contacts goes in the solver list — its `slot` — and
    /// returns the colour ranges (see the module notes for the two orders). In colour order a
    /// contact's position is its colour's start plus its index in the colour, both known from
    /// its graph slot, so each sim's slot is a function of the sim alone and the pass splits
    /// across the pool; contact order numbers the graph's contacts in sim order, serially.
    fn order_solver_contacts(&mut self) -> ColorLayout {
        let graph = &self.graph;
        let sims = &self.contacts.sims;
        let slots = &mut self.step_scratch.slots;
        slots.clear();
        slots.resize(sims.len(), NOT_SOLVED);
        let layout = match self.def.solver_kind {
            SolverKind::SoftStep => {
                let layout = color_layout(graph);
                let place = |(slot, sim): (&mut u32, &ContactSim)| {
                    if let Some(member) = graph.member(sim.contact) {
                        let start = color_start(&layout, member.slot.color);
                        *slot = (start + member.slot.index as usize) as u32;
                    }
                };
                if self.def.worker_count > 1 {
                    let pairs = slots.par_iter_mut().zip(sims.par_iter());
                    pairs.with_min_len(COPY_CHUNK).for_each(place);
                } else {
                    slots.iter_mut().zip(sims.iter()).for_each(place);
                }
                layout
            }
            SolverKind::SequentialImpulses => {
                let mut next = 0u32;
                for (slot, sim) in slots.iter_mut().zip(sims.iter()) {
                    if graph.member(sim.contact).is_some() {
                        (*slot, next) = (next, next + 1);
                    }
                }
                ColorLayout::overflow_only(next as usize)
            }
        };
        debug_assert!(
            is_permutation(slots, layout.overflow.end),
            "solver positions are not one per graph contact"
        );
        self.solver_contact_count = layout.overflow.end;
        layout
    }

    /// Builds the [`SolverContact`] of every contact with a slot, at its slot.
    fn gather_solver_contacts(&mut self) {
        let table = &mut self.step_scratch.solver_bodies;
        let slot_count = self.bodies.slot_count();
        tabulate_bodies(&self.solver_sets, slot_count, table, SolverBody::new);
        let slots = &self.step_scratch.slots;
        let (table, sims) = (&*table, &self.contacts.sims);
        let out = &mut self.solver_contacts;
        out.resize(self.solver_contact_count, placeholder_contact());
        out.truncate(self.solver_contact_count);
        let out = SharedSlice::new(out);
        let scatter = |(sims, slots): (&[ContactSim], &[u32])| {
            for (sim, &slot) in sims.iter().zip(slots) {
                if (slot as usize) < out.len() {
                    let body = |index: u32| table.get(index).unwrap_or_default();
                    let contact = solver_contact(sim, body(sim.body_a), body(sim.body_b));
                    // SAFETY: `slots` gives each sim its own position, so no two sims, in
                    // this chunk or another, write the same element: a graph contact's
                    // position is its colour's start plus its index in the colour, the graph
                    // gives a colour's members the distinct indices 0..count, and the colour
                    // ranges are disjoint (`order_solver_contacts`, which debug builds check);
                    // sims outside the graph have no slot. Nothing reads the list until every
                    // chunk is done.
                    unsafe { out.write(slot as usize, contact) };
                }
            }
        };
        if self.def.worker_count > 1 {
            sims.par_chunks(COPY_CHUNK)
                .zip(slots.par_chunks(COPY_CHUNK))
                .for_each(scatter);
        } else {
            scatter((sims, slots));
        }
    }

    /// Copies the solved impulses back into the contacts' manifolds (the cache). The solver
    /// leaves them in one small record per solver contact ([`ImpulseOutput::Dense`]) rather
    /// than in the 150-byte solver contacts, so this pass reads little.
    fn store_impulses(&mut self) {
        let slots = &self.step_scratch.slots;
        let solved = self.solver.impulses();
        let store = |(sim, &slot): (&mut ContactSim, &u32)| {
            if let Some(result) = solved.get(slot as usize) {
                copy_impulses(result, &mut sim.manifold);
            }
        };
        let sims = &mut self.contacts.sims;
        if self.def.worker_count > 1 {
            sims.par_iter_mut()
                .zip(slots.par_iter())
                .with_min_len(COPY_CHUNK)
                .for_each(store);
        } else {
            sims.iter_mut().zip(slots.iter()).for_each(store);
        }
    }

    /// Puts every awake body with a non-finite velocity or pose back at its step-start pose, at
    /// rest; returns their awake-set indices. (The solver already resets bodies whose velocity
    /// blew up; this also catches a pose that overflowed.)
    fn reset_diverged_bodies(&mut self) -> Vec<u32> {
        let mut diverged = Vec::new();
        let (sims, states) = self.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        for (local, (sim, state)) in sims.iter_mut().zip(states.iter_mut()).enumerate() {
            if !is_body_finite(sim, state) {
                reset_to_step_start(sim, state);
                diverged.push(local as u32);
            }
        }
        diverged
    }
}

/// The ranges of colour 0's contacts, colour 1's, …, then the overflow set's, laid end to end
/// in the solver list.
fn color_layout(graph: &ContactGraph) -> ColorLayout {
    let mut layout = ColorLayout::default();
    let mut start = 0;
    for (color, handles) in colors_in_solve_order(graph) {
        let range = start..start + handles.len();
        start = range.end;
        if color.is_overflow() {
            layout.overflow = range;
        } else {
            layout.color_ranges.push(range);
        }
    }
    layout
}

/// Whether the slots other than [`NOT_SOLVED`] are exactly `0..count`, each once.
fn is_permutation(slots: &[u32], count: usize) -> bool {
    let mut seen = vec![false; count];
    for &slot in slots.iter().filter(|&&slot| slot != NOT_SOLVED) {
        match seen.get_mut(slot as usize) {
            Some(seen) if !*seen => *seen = true,
            _ => return false,
        }
    }
    seen.iter().all(|&seen| seen)
}

/// Where colour `color` (or the overflow set) starts in the solver list.
fn color_start(layout: &ColorLayout, color: ColorIndex) -> usize {
    if color.is_overflow() {
        layout.overflow.start
    } else {
        layout
            .color_ranges
            .get(color.index())
            .map_or(0, |range| range.start)
    }
}

/// What the solver needs to know about one side of a contact.
#[derive(Clone, Copy, Debug)]
struct SolverBody {
    /// Index in the awake arrays, or `NULL_BODY` (static: an identity state).
    index: u32,
    inv_mass: f32,
    inv_inertia: f32,
    /// World offset from the body origin to its centre of mass (`q·local_center`).
    center_offset: Vec2,
}

impl Default for SolverBody {
    /// A body the solver cannot move (not in the awake or static set).
    fn default() -> Self {
        SolverBody {
            index: NULL_BODY,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            center_offset: Vec2::ZERO,
        }
    }
}

impl SolverBody {
    /// The solver's view of the body whose sim is `sim`, at `local` in set `set_index`.
    fn new(set_index: u32, local: u32, sim: &BodySim) -> SolverBody {
        SolverBody {
            index: if set_index == AWAKE_SET {
                local
            } else {
                NULL_BODY
            },
            inv_mass: sim.inv_mass,
            inv_inertia: sim.inv_inertia,
            center_offset: sim.transform.q.rotate(sim.local_center),
        }
    }
}

/// A solver contact that constrains nothing, to size the list before it is overwritten.
fn placeholder_contact() -> SolverContact {
    solver_contact_from(
        Manifold::default(),
        SolverBody::default(),
        SolverBody::default(),
        0.0,
        0.0,
    )
}

/// The solver's view of a contact between `a` and `b`: anchors moved to the centres of mass.
fn solver_contact(sim: &ContactSim, a: SolverBody, b: SolverBody) -> SolverContact {
    solver_contact_from(sim.manifold, a, b, sim.friction, sim.restitution)
}

fn solver_contact_from(
    manifold: Manifold,
    a: SolverBody,
    b: SolverBody,
    friction: f32,
    restitution: f32,
) -> SolverContact {
    // Built as one expression, point by point, rather than copied and then patched in place:
    // patching a copy makes the compiler write the anchors into a stack temporary in small
    // pieces and read it back in wide ones, which stalls on every contact.
    let in_use = |index: usize| index < manifold.point_count;
    let shifted = |index: usize| {
        let point = manifold.points[index];
        if in_use(index) {
            ManifoldPoint {
                anchor_a: point.anchor_a - a.center_offset,
                anchor_b: point.anchor_b - b.center_offset,
                ..point
            }
        } else {
            point
        }
    };
    let manifold = Manifold {
        points: [shifted(0), shifted(1)],
        ..manifold
    };
    SolverContact {
        body_a: a.index,
        body_b: b.index,
        inv_mass_a: a.inv_mass,
        inv_inertia_a: a.inv_inertia,
        inv_mass_b: b.inv_mass,
        inv_inertia_b: b.inv_inertia,
        friction,
        restitution,
        manifold,
    }
}

/// Copies the solver's accumulated impulses and diagnostics point by point (the solver has
/// already turned non-finite values into zero, so a blow-up never reaches the cache).
fn copy_impulses(solved: &ContactImpulses, cached: &mut Manifold) {
    let count = cached.point_count.min(solved.points.len());
    for (point, result) in cached.points[..count].iter_mut().zip(&solved.points) {
        point.normal_impulse = result.normal_impulse;
        point.tangent_impulse = result.tangent_impulse;
        point.max_normal_impulse = result.max_normal_impulse;
        point.normal_velocity = result.normal_velocity;
    }
}

fn is_body_finite(sim: &BodySim, state: &BodyState) -> bool {
    state.linear_velocity.is_finite()
        && state.angular_velocity.is_finite()
        && sim.center.is_finite()
        && sim.transform.p.is_finite()
        && sim.transform.q.c.is_finite()
        && sim.transform.q.s.is_finite()
}

/// Restores the pose recorded at the start of the step and stops the body.
fn reset_to_step_start(sim: &mut BodySim, state: &mut BodyState) {
    let rotation = sim.rotation0;
    sim.center = sim.center0;
    sim.transform = Transform::new(sim.center0 - rotation.rotate(sim.local_center), rotation);
    sim.force = Vec2::ZERO;
    sim.torque = 0.0;
    state.linear_velocity = Vec2::ZERO;
    state.angular_velocity = 0.0;
    state.delta_position = Vec2::ZERO;
    state.delta_rotation = core_soa::Rot::IDENTITY;
}

#[cfg(test)]
mod tests {
    use super::AWAKE_SET;
    use crate::{BodyDef, PrismError, ShapeDef, Vec2, World, WorldDef, make_box};

    const DT: f32 = 1.0 / 60.0;

    /// A NaN that appears inside a step (as an overflow in the solver would make it) is caught:
    /// the body goes back to its step-start pose, at rest; the step names it; the other bodies and
    /// the contact cache stay finite; the world steps on.
    #[test]
    fn non_finite_body_is_reset_reported_and_contained() {
        // Awake throughout: the test writes into the awake set's states directly.
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
        let mut drop = |x: f32| {
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, 0.5)))
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
                .unwrap();
            body
        };
        let (victim, bystander) = (drop(0.0), drop(5.0));
        for _ in 0..30 {
            world.step(DT, 4).unwrap();
        }
        let pose = world.transform(victim).unwrap();
        let bystander_pose = world.transform(bystander).unwrap();
        let local = world.bodies.get(victim).unwrap().local_index as usize;
        world.solver_sets[AWAKE_SET as usize].states_mut()[local]
            .linear_velocity
            .x = f32::NAN;

        assert_eq!(
            world.step(DT, 4),
            Err(PrismError::Diverged {
                bodies: vec![victim]
            })
        );
        assert_eq!(world.transform(victim).unwrap(), pose);
        assert_eq!(world.linear_velocity(victim).unwrap(), Vec2::ZERO);
        let moved = world
            .transform(bystander)
            .unwrap()
            .p
            .distance(bystander_pose.p);
        assert!(moved < 1e-3, "the resting bystander moved {moved} m");
        let cache_finite = world.contacts.sims.iter().all(|sim| {
            sim.manifold
                .points()
                .iter()
                .all(|p| p.normal_impulse.is_finite() && p.tangent_impulse.is_finite())
        });
        assert!(cache_finite, "a NaN reached the contact cache");

        for _ in 0..30 {
            world.step(DT, 4).unwrap();
        }
        let y = world.position(victim).unwrap().y;
        assert!(
            (y - 0.5).abs() < 0.01,
            "the reset body rests again at y = {y}"
        );
    }
}
