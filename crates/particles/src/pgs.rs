//! The iterative path: projected Gauss–Seidel on velocities, nonlinear Gauss–Seidel on
//! positions.
//!
//! The same rows the global solve assembles can be solved one at a time, as rigid-body
//! solvers do (Catto, "Iterative dynamics with temporal coherence"; Catto, "Modeling and
//! solving constraints"). For each row in turn, the impulse that fixes that row alone is
//! applied at once:
//!
//! ```text
//!   Ċ    = J_p·v_p + J_q·v_q + (anchor or surface velocity term)
//!   Δλ   = −m_eff Ċ,          m_eff = 1 / (J W Jᵀ)_rr
//!   λ   += Δλ,   v_p += w_p J_p Δλ,   v_q += w_q J_q Δλ
//! ```
//!
//! The velocity rows are rigid and carry no position bias, so warm starting them is safe.
//! Position error is removed afterwards by *nonlinear* Gauss–Seidel on the positions (the
//! position solver of Box2D v2; in cloth simulators, position-based projection): after the
//! particles moved by `h v`, each row in turn is re-evaluated at the current positions and
//! its particles are moved along `W Jᵀ` by the fraction `f = h β` of the correction that
//! would zero it,
//!
//! ```text
//!   Δμ = −f C(x) / (J W Jᵀ),   x_p += w_p J_p Δμ
//! ```
//!
//! with `β` the global solve's velocity-level rate (`Feedback::softness(h).bias_rate`, so
//! `f = 0.2` at 60 Hz, Box2D v2's position factor). Each of the `N` position sweeps applies it,
//! so PGS removes position error more strongly per step than the global solve (which removes
//! `h β` of it per step, converged): that is how an iterative solver hides its slowly
//! converging velocities, and it is why the comparison reports both the position and the
//! velocity error. The position moves carry no momentum: they are neither warm-started nor handed to
//! bodies. Overlaps with contacts are pushed out the same way (`C(x) ≥ 0`), at Prism's contact
//! rate and at most `max_push_velocity · h` per sweep.
//!
//! Why not a bias inside the velocity rows, as Prism's soft step does? Warm-started with too
//! few sweeps to converge, a biased rigid row integrates its own position correction from step
//! to step and a hanging chain of twenty links starts to bounce and diverges at 4 sweeps; a
//! soft row (Catto's mass and impulse scales) is stable but is a spring on the row's own
//! effective mass, and a pin holding a chain twenty times heavier than its particle sags by
//! centimetres. A *linear* position correction (split impulses, solved for `J p = −β C` with
//! the start-of-step `J`) is stable only while it converges: after a whip folds the chain,
//! the partially converged pseudo velocities are large and move links sideways, and the second
//! order stretch they cause exceeds what they remove. Re-evaluating each row where it is now
//! does not have that failure.
//!
//! Contacts clamp their accumulated `λ` at 0 (push only) and allow the speculative approach
//! `Ċ ≥ −C/h` while separated; friction clamps `|λ_t| ≤ μ λ_n`.
//!
//! Sweeps are Gauss–Seidel, so a row sees the velocities its predecessors produced — that is
//! what makes the method converge — but rows of one *colour* share no particle
//! (`topology.rs`), so each colour is solved in parallel chunks and the colours in order: the
//! result is independent of the thread count. Contacts touch one particle each and are solved
//! after the colours, particle by particle, in parallel across particles.
//!
//! Each sweep propagates information one link further: a chain of `n` rods needs on the order
//! of `n` sweeps (more when masses differ) to carry a load from end to end, where the global
//! solve carries it in one solve. PGS is cheap per sweep, robust with contacts and friction,
//! and degrades gracefully (a stretchy result) when stopped early.

// Unsafe code is confined here: the colour-parallel sweeps write disjoint rows of shared arrays;
// every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::anchor::AnchorSample;
use crate::constraint::{RowTemplate, RowValue, blocks};
use crate::contact::{ContactSet, for_particle_chunks};
use crate::parallel::{CHUNK, PARALLEL_MIN, for_chunks};
use crate::topology::Topology;
use core_soa::SharedSlice;
use core_soa::Vec2;
use glam::DVec2;

/// One row prepared for a substep's velocity sweeps.
#[derive(Clone, Copy, Debug, Default)]
struct PgsRow {
    jacobian: [DVec2; 2],
    particles: [u32; 2],
    inverse_k: f64,
    /// `Ċ − J v` at preparation: the velocity of whatever the row holds on to.
    offset: f64,
}

/// Per-substep coefficients.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PgsParams {
    pub h: f64,
    /// Fraction of a constraint row's error removed per position sweep (`h β`, at most 1).
    pub joint_fraction: f64,
    /// Fraction of a contact's overlap removed per position sweep.
    pub contact_fraction: f64,
    /// Largest push-out distance per position sweep (m): `max_push_velocity · h`.
    pub max_push: f64,
    pub warm_start: bool,
}

/// A contact's accumulated impulses.
#[derive(Clone, Copy, Debug, Default)]
struct ContactImpulse {
    normal: f64,
    tangent: f64,
}

/// The PGS path's persistent multipliers and per-substep rows.
#[derive(Clone, Debug, Default)]
pub(crate) struct PgsSolver {
    /// Constraint rows' accumulated impulses (warm start across substeps and steps).
    lambda: Vec<f64>,
    /// Contacts' impulses (warm start across the substeps of a step).
    contact_impulse: Vec<ContactImpulse>,
    rows: Vec<PgsRow>,
    contact_c: Vec<f64>,
    contact_inverse_k: Vec<f64>,
    velocity: Vec<DVec2>,
}

impl PgsSolver {
    /// Forgets the constraint multipliers (the rows changed).
    pub fn reset(&mut self) {
        self.lambda.clear();
    }

    /// Starts a step with `contacts` contacts (their multipliers start at zero).
    pub fn begin_step(&mut self, contacts: usize) {
        self.contact_impulse.clear();
        self.contact_impulse
            .resize(contacts, ContactImpulse::default());
    }

    /// Prepares the rows from their values at the substep's velocities `v`, copies `v`, and
    /// warm-starts.
    pub fn begin_substep(
        &mut self,
        topology: &Topology,
        contacts: &ContactSet,
        values: &[RowValue],
        state: (&[Vec2], &[Vec2], &[f32]),
        t0: f64,
        params: &PgsParams,
    ) {
        let (x, v, w) = state;
        let row_count = topology.rows.len();
        self.rows.clear();
        self.rows.extend(
            (0..row_count).map(|r| prepare_row(&values[r], topology.row_particles[r], v, w)),
        );
        if self.lambda.len() != row_count || !params.warm_start {
            self.lambda.clear();
            self.lambda.resize(row_count, 0.0);
        }
        if !params.warm_start {
            self.contact_impulse.fill(ContactImpulse::default());
        }
        self.contact_c.clear();
        self.contact_inverse_k.clear();
        for k in 0..contacts.len() {
            let p = contacts.particle[k] as usize;
            self.contact_c.push(contacts.separation(k, x[p], t0));
            let wp = f64::from(w[p]);
            self.contact_inverse_k
                .push(if wp > 0.0 { 1.0 / wp } else { 0.0 });
        }
        self.velocity.clear();
        self.velocity.extend(v.iter().map(|v| v.as_dvec2()));
        self.warm_start(topology, contacts, w);
    }

    /// `v += W Jᵀ λ` for the carried-over multipliers, gathered per particle.
    fn warm_start(&mut self, topology: &Topology, contacts: &ContactSet, w: &[f32]) {
        let (rows, lambda, contact_impulse) = (&self.rows, &self.lambda, &self.contact_impulse);
        for_chunks(&mut self.velocity, |first, out| {
            for (k, velocity) in out.iter_mut().enumerate() {
                let i = first + k;
                let wi = f64::from(w[i]);
                if wi == 0.0 {
                    continue;
                }
                let mut impulse = DVec2::ZERO;
                let incident = topology.row_start[i] as usize..topology.row_start[i + 1] as usize;
                for &entry in &topology.row_incidence[incident] {
                    let (r, slot) = ((entry >> 1) as usize, (entry & 1) as usize);
                    impulse += rows[r].jacobian[slot] * lambda[r];
                }
                let range = contacts.start[i] as usize..contacts.start[i + 1] as usize;
                for (n, c) in contacts.normal[range.clone()]
                    .iter()
                    .zip(&contact_impulse[range])
                {
                    impulse += *n * c.normal + n.perp() * c.tangent;
                }
                *velocity += wi * impulse;
            }
        });
    }

    /// `count` velocity sweeps over every row and contact.
    pub fn velocity_sweeps(
        &mut self,
        topology: &Topology,
        contacts: &ContactSet,
        w: &[f32],
        params: &PgsParams,
        count: u32,
    ) {
        for _ in 0..count {
            self.sweep_rows(topology, w);
            self.sweep_contacts(contacts, w, params);
        }
    }

    fn sweep_rows(&mut self, topology: &Topology, w: &[f32]) {
        let rows = &self.rows;
        let velocity = SharedSlice::new(&mut self.velocity);
        let lambda = SharedSlice::new(&mut self.lambda);
        for_each_row_by_color(topology, |r| {
            // SAFETY: `for_each_row_by_color` runs this for the rows of one colour at a time,
            // and rows of one colour share no particle (`topology::color_rows`), so the
            // velocities of this row's particles and its multiplier are accessed by this call
            // alone; overflow rows run one at a time after every colour.
            unsafe { solve_row(&rows[r], r, &velocity, &lambda, w) };
        });
    }

    fn sweep_contacts(&mut self, contacts: &ContactSet, w: &[f32], params: &PgsParams) {
        if contacts.len() == 0 {
            return;
        }
        let (contact_c, contact_inverse_k) = (&self.contact_c, &self.contact_inverse_k);
        let chunks =
            contacts.split_by_particle_chunks(&mut self.velocity, &mut self.contact_impulse);
        for_particle_chunks(chunks, |chunk| {
            for (k, velocity) in chunk.particles.iter_mut().enumerate() {
                let i = chunk.first + k;
                let wi = f64::from(w[i]);
                let range = contacts.start[i] as usize..contacts.start[i + 1] as usize;
                let local = range.start - chunk.contact_first..range.end - chunk.contact_first;
                for (c, impulse) in range.zip(&mut chunk.contacts[local]) {
                    let contact = ContactRow {
                        normal: contacts.normal[c],
                        surface_velocity: contacts.surface_velocity[c],
                        friction: contacts.friction[c],
                        c: contact_c[c],
                        inverse_k: contact_inverse_k[c],
                    };
                    solve_contact(&contact, velocity, impulse, wi, params);
                }
            }
        });
    }

    /// Writes the solved velocities back (beads excluded: their curves move them).
    pub fn store_velocities(&self, v: &mut [Vec2], is_bead: &[bool]) {
        let velocity = &self.velocity;
        for_chunks(v, |first, out| {
            for (k, v) in out.iter_mut().enumerate() {
                if !is_bead[first + k] {
                    *v = velocity[first + k].as_vec2();
                }
            }
        });
    }

    /// Records the substep's contact impulses.
    pub fn finish_substep(&self, contacts: &mut ContactSet) {
        for k in 0..contacts.len() {
            let impulse = self.contact_impulse[k];
            let n = contacts.normal[k];
            contacts.normal_impulse[k] = impulse.normal;
            contacts.step_impulse[k] += n * impulse.normal + n.perp() * impulse.tangent;
        }
    }

    /// The constraint rows' impulses of the last substep (empty before the first).
    pub fn constraint_multipliers(&self) -> &[f64] {
        &self.lambda
    }

    /// The multiplier of constraint row `r` (an impulse).
    pub fn row_lambda(&self, r: usize) -> f64 {
        self.lambda[r]
    }
}

/// Runs `solve(row)` over the constraint rows colour by colour: the rows of a colour in
/// parallel chunks, the colours in order, then the overflow rows one at a time.
fn for_each_row_by_color(topology: &Topology, solve: impl Fn(usize) + Sync + Send) {
    let coloring = &topology.coloring;
    for c in 0..coloring.color_start.len().saturating_sub(1) {
        let range = coloring.color_start[c] as usize..coloring.color_start[c + 1] as usize;
        let order = &coloring.order[range];
        if order.len() < PARALLEL_MIN {
            order.iter().for_each(|&r| solve(r as usize));
        } else {
            let chunks: Vec<&[u32]> = order.chunks(CHUNK).collect();
            workers::for_each(chunks.len(), |chunk| {
                chunks[chunk].iter().for_each(|&r| solve(r as usize))
            });
        }
    }
    coloring.order[coloring.overflow..]
        .iter()
        .for_each(|&r| solve(r as usize));
}

/// What the position sweeps read.
pub(crate) struct PositionInputs<'a> {
    pub topology: &'a Topology,
    pub contacts: &'a ContactSet,
    pub inverse_mass: &'a [f32],
    /// Anchors at the end of the substep.
    pub anchors: &'a [AnchorSample],
    /// Time of the end of the substep, from the step start.
    pub t: f64,
    pub params: &'a PgsParams,
}

/// `count` nonlinear Gauss–Seidel sweeps over the positions `x`.
pub(crate) fn position_sweeps(inputs: &PositionInputs<'_>, x: &mut [Vec2], count: u32) {
    for _ in 0..count {
        let positions = SharedSlice::new(x);
        for_each_row_by_color(inputs.topology, |r| {
            // SAFETY: as in `sweep_rows`: one colour at a time, and rows of one colour share
            // no particle, so this row's particles' positions are accessed by this call alone.
            unsafe { correct_row(&inputs.topology.rows[r], &positions, inputs) };
        });
        push_out_contacts(inputs, x);
    }
}

/// Moves a row's particles by the fraction `f` of the correction that zeroes `C` at their
/// current positions.
///
/// # Safety
/// No other thread may access the positions of the row's particles during the call.
unsafe fn correct_row(
    template: &RowTemplate,
    x: &SharedSlice<'_, Vec2>,
    inputs: &PositionInputs<'_>,
) {
    let particles = template.particles();
    let mut local = [Vec2::ZERO; 2];
    for (slot, &p) in particles.iter().enumerate() {
        if p != crate::constraint::NO_PARTICLE {
            // SAFETY: the caller guarantees exclusive access to this row's particles.
            local[slot] = unsafe { x.read(p as usize) };
        }
    }
    let value = template.evaluate_local(local, [Vec2::ZERO; 2], inputs.anchors);
    let w = inputs.inverse_mass;
    let k: f64 = blocks(particles, value.jacobian)
        .map(|(p, j)| f64::from(w[p]) * j.dot(j))
        .sum();
    if k <= 1.0e-300 {
        return;
    }
    let delta = -inputs.params.joint_fraction * value.c / k;
    for (slot, (p, j)) in blocks(particles, value.jacobian).enumerate() {
        let moved = local[slot].as_dvec2() + f64::from(w[p]) * delta * j;
        // SAFETY: as above.
        unsafe { x.write(p, moved.as_vec2()) };
    }
}

/// Pushes overlapping particles out of their contact planes, particle by particle.
fn push_out_contacts(inputs: &PositionInputs<'_>, x: &mut [Vec2]) {
    let contacts = inputs.contacts;
    if contacts.len() == 0 {
        return;
    }
    let params = inputs.params;
    for_chunks(x, |first, out| {
        for (k, x) in out.iter_mut().enumerate() {
            let i = first + k;
            if inputs.inverse_mass[i] == 0.0 {
                continue;
            }
            for c in contacts.start[i] as usize..contacts.start[i + 1] as usize {
                let gap = contacts.separation(c, *x, inputs.t);
                if gap < 0.0 {
                    let push = (-params.contact_fraction * gap).min(params.max_push);
                    *x = (x.as_dvec2() + push * contacts.normal[c]).as_vec2();
                }
            }
        }
    });
}

fn prepare_row(value: &RowValue, particles: [u32; 2], v: &[Vec2], w: &[f32]) -> PgsRow {
    let mut k = 0.0;
    let mut jv = 0.0;
    for (p, j) in blocks(particles, value.jacobian) {
        k += f64::from(w[p]) * j.dot(j);
        jv += j.dot(v[p].as_dvec2());
    }
    PgsRow {
        jacobian: value.jacobian,
        particles,
        inverse_k: if k > 1.0e-300 { 1.0 / k } else { 0.0 },
        offset: value.cdot - jv,
    }
}

/// One row's Gauss–Seidel velocity update (rigid, no bias).
///
/// # Safety
/// No other thread may access the velocities of the row's particles or its multiplier `r`
/// during the call.
unsafe fn solve_row(
    row: &PgsRow,
    r: usize,
    velocity: &SharedSlice<'_, DVec2>,
    lambda: &SharedSlice<'_, f64>,
    w: &[f32],
) {
    if row.inverse_k == 0.0 {
        return;
    }
    let mut cdot = row.offset;
    for (p, j) in blocks(row.particles, row.jacobian) {
        // SAFETY: the caller guarantees exclusive access to this row's particles.
        cdot += j.dot(unsafe { velocity.read(p) });
    }
    let delta = -row.inverse_k * cdot;
    // SAFETY: the caller guarantees exclusive access to multiplier `r`.
    unsafe { lambda.write(r, lambda.read(r) + delta) };
    for (p, j) in blocks(row.particles, row.jacobian) {
        // SAFETY: as above.
        unsafe { velocity.write(p, velocity.read(p) + f64::from(w[p]) * delta * j) };
    }
}

struct ContactRow {
    normal: DVec2,
    surface_velocity: DVec2,
    friction: f64,
    c: f64,
    inverse_k: f64,
}

/// A contact's normal row (push only, speculative while separated), then its friction row.
fn solve_contact(
    contact: &ContactRow,
    velocity: &mut DVec2,
    impulse: &mut ContactImpulse,
    w: f64,
    params: &PgsParams,
) {
    if contact.inverse_k == 0.0 {
        return;
    }
    let n = contact.normal;
    let speculative = contact.c.max(0.0) / params.h;
    let approach = n.dot(*velocity - contact.surface_velocity);
    let normal = (impulse.normal - contact.inverse_k * (approach + speculative)).max(0.0);
    *velocity += w * (normal - impulse.normal) * n;
    impulse.normal = normal;
    let t = n.perp();
    let sliding = t.dot(*velocity - contact.surface_velocity);
    let limit = contact.friction * impulse.normal;
    let tangent = (impulse.tangent - contact.inverse_k * sliding).clamp(-limit, limit);
    *velocity += w * (tangent - impulse.tangent) * t;
    impulse.tangent = tangent;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::{Constraint, ConstraintDef};
    use crate::storage::{ParticleDef, Particles};
    use crate::topology::Structure;
    use core_soa::Arena;

    /// A pinned chain of 20 in a random tangle with random velocities.
    fn tangle() -> (Particles, Topology) {
        let mut particles = Particles::default();
        let mut seed = 12345u64;
        let mut noise = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            ((seed >> 40) as f32 / (1u64 << 23) as f32) - 1.0
        };
        let ids: Vec<_> = (0..20)
            .map(|_| {
                let x = Vec2::new(noise(), noise());
                let v = Vec2::new(noise(), noise()) * 3.0;
                particles.insert(&ParticleDef::new(x, 0.05).with_velocity(v))
            })
            .collect();
        let mut constraints = Arena::new();
        for pair in ids.windows(2) {
            constraints.insert(Constraint::Builtin(ConstraintDef::Rod {
                a: pair[0],
                b: pair[1],
                length: 0.1,
            }));
        }
        constraints.insert(Constraint::Builtin(ConstraintDef::Pin {
            particle: ids[0],
            point: Vec2::ZERO,
        }));
        let topology = Topology::build(&Structure {
            particles: &particles,
            springs: &Arena::new(),
            constraints: &constraints,
            beads: &[],
        });
        (particles, topology)
    }

    #[test]
    fn velocity_sweeps_converge_to_legal_velocities_and_position_sweeps_shrink_errors() {
        let (particles, topology) = tangle();
        let contacts = ContactSet {
            start: vec![0; particles.len() + 1],
            ..ContactSet::default()
        };
        let mut global = crate::global::GlobalSolver::default();
        let (x, v, w) = (
            &particles.position,
            &particles.velocity,
            &particles.inverse_mass,
        );
        global.evaluate_rows(&topology, &contacts, (x, v), &[], 0.0);
        let params = PgsParams {
            h: 1.0 / 60.0,
            joint_fraction: 0.2,
            contact_fraction: 0.2,
            max_push: 0.05,
            warm_start: false,
        };
        let mut previous = f64::INFINITY;
        for sweeps in [1, 10, 100, 1000] {
            let mut pgs = PgsSolver::default();
            pgs.begin_substep(
                &topology,
                &contacts,
                &global.values,
                (x, v, w),
                0.0,
                &params,
            );
            pgs.velocity_sweeps(&topology, &contacts, w, &params, sweeps);
            let worst = (0..topology.rows.len())
                .map(|r| {
                    let row = &pgs.rows[r];
                    let jv: f64 = blocks(row.particles, row.jacobian)
                        .map(|(p, j)| j.dot(pgs.velocity[p]))
                        .sum();
                    (jv + row.offset).abs()
                })
                .fold(0.0, f64::max);
            assert!(worst < previous, "{sweeps} sweeps: {worst}");
            previous = worst;
        }
        assert!(previous < 1e-12, "Gauss–Seidel converges: {previous}");

        let error = |x: &[Vec2]| {
            topology
                .rows
                .iter()
                .map(|row| row.evaluate(x, v, &[]).c.abs())
                .fold(0.0, f64::max)
        };
        let mut moved = x.clone();
        let before = error(&moved);
        let inputs = PositionInputs {
            topology: &topology,
            contacts: &contacts,
            inverse_mass: w,
            anchors: &[],
            t: 0.0,
            params: &params,
        };
        position_sweeps(&inputs, &mut moved, 1000);
        let after = error(&moved);
        assert!(after < 1e-3 * before, "position sweeps: {before} → {after}");
    }
}
