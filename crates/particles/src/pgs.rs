//! The iterative path: soft-step projected Gauss–Seidel on velocities.
//!
//! The same rows the global solve assembles can be solved one at a time, as the rigid-body
//! solver does (Catto, "Iterative dynamics with temporal coherence"; Catto, "Solver2D" soft
//! step). For each row in turn, the impulse that fixes that row alone is applied at once:
//!
//! ```text
//!   Ċ    = J_p·v_p + J_q·v_q + (anchor or surface velocity term)
//!   Δλ   = −m_eff · s_m · (Ċ + β C) − s_i · λ,        m_eff = 1 / (J W Jᵀ)_rr
//!   λ   += Δλ,   v_p += w_p J_p Δλ,   v_q += w_q J_q Δλ
//! ```
//!
//! where `(β, s_m, s_i)` are the soft-constraint coefficients (`solver_simd::Softness`) of
//! the same spring-damper the global solve uses as feedback (`k_s = ω²`, `k_d = 2ζω`).
//! A contact row clamps its accumulated `λ` at 0 (push only) and uses the speculative bias
//! `C/h` while separated; its friction row clamps `|λ_t| ≤ μ λ_n`. One *sweep* visits every
//! row; a substep is: apply the applied forces to the velocities, warm-start with the last
//! multipliers, `iterations` biased sweeps, move the positions, `relax_iterations` sweeps
//! without bias (which removes the bias velocity from the result).
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
//! and degrades gracefully (a soft, stretchy result) when stopped early.

use crate::constraint::{RowValue, blocks};
use crate::contact::{ContactSet, for_particle_chunks};
use crate::parallel::{CHUNK, for_chunks};
use crate::topology::Topology;
use core_soa::Vec2;
use glam::DVec2;
use rayon::prelude::*;
use solver_simd::Softness;
use solver_simd::shared::SharedSlice;

/// One row prepared for a substep.
#[derive(Clone, Copy, Debug, Default)]
struct PgsRow {
    jacobian: [DVec2; 2],
    particles: [u32; 2],
    inverse_k: f64,
    /// `Ċ − J v` at preparation: the velocity of whatever the row holds on to.
    offset: f64,
    c: f64,
}

/// Per-substep coefficients.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PgsParams {
    pub h: f64,
    pub joint: Softness,
    pub contact: Softness,
    pub max_push: f64,
    pub warm_start: bool,
}

/// The PGS path's persistent multipliers and per-substep rows.
#[derive(Clone, Debug, Default)]
pub(crate) struct PgsSolver {
    /// Constraint rows' accumulated impulses (warm start across substeps and steps).
    lambda: Vec<f64>,
    /// Contacts' `[normal, tangent]` impulses (warm start across the substeps of a step).
    contact_lambda: Vec<[f64; 2]>,
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
        self.contact_lambda.clear();
        self.contact_lambda.resize(contacts, [0.0; 2]);
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
            self.contact_lambda.fill([0.0; 2]);
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
        let (rows, lambda, contact_lambda) = (&self.rows, &self.lambda, &self.contact_lambda);
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
                for (n, [normal, tangent]) in contacts.normal[range.clone()]
                    .iter()
                    .zip(&contact_lambda[range])
                {
                    impulse += *n * *normal + n.perp() * *tangent;
                }
                *velocity += wi * impulse;
            }
        });
    }

    /// `count` sweeps over every row, with or without the position bias.
    pub fn sweeps(
        &mut self,
        topology: &Topology,
        contacts: &ContactSet,
        w: &[f32],
        params: &PgsParams,
        use_bias: bool,
        count: u32,
    ) {
        for _ in 0..count {
            self.sweep_rows(topology, w, params, use_bias);
            self.sweep_contacts(contacts, w, params, use_bias);
        }
    }

    fn sweep_rows(&mut self, topology: &Topology, w: &[f32], params: &PgsParams, use_bias: bool) {
        let coloring = &topology.coloring;
        let rows = &self.rows;
        let velocity = SharedSlice::new(&mut self.velocity);
        let lambda = SharedSlice::new(&mut self.lambda);
        let solve = |r: u32| {
            let r = r as usize;
            // SAFETY: `solve` runs for the rows of one colour at a time (the colours are
            // walked in order below, each finishing before the next starts), and rows of one
            // colour share no particle (`topology::color_rows`), so the velocities of this
            // row's particles and its multiplier are accessed by this call alone. Overflow
            // rows are solved on this thread after every colour has finished.
            unsafe { solve_row(&rows[r], r, &velocity, &lambda, w, params, use_bias) };
        };
        for c in 0..coloring.color_start.len().saturating_sub(1) {
            let range = coloring.color_start[c] as usize..coloring.color_start[c + 1] as usize;
            let order = &coloring.order[range];
            if order.len() <= CHUNK {
                order.iter().for_each(|&r| solve(r));
            } else {
                order
                    .par_chunks(CHUNK)
                    .for_each(|chunk| chunk.iter().for_each(|&r| solve(r)));
            }
        }
        coloring.order[coloring.overflow..]
            .iter()
            .for_each(|&r| solve(r));
    }

    fn sweep_contacts(
        &mut self,
        contacts: &ContactSet,
        w: &[f32],
        params: &PgsParams,
        use_bias: bool,
    ) {
        if contacts.len() == 0 {
            return;
        }
        let (contact_c, contact_inverse_k) = (&self.contact_c, &self.contact_inverse_k);
        let chunks =
            contacts.split_by_particle_chunks(&mut self.velocity, &mut self.contact_lambda);
        for_particle_chunks(chunks, |chunk| {
            for (k, velocity) in chunk.particles.iter_mut().enumerate() {
                let i = chunk.first + k;
                let wi = f64::from(w[i]);
                for c in contacts.start[i] as usize..contacts.start[i + 1] as usize {
                    let lambda = &mut chunk.contacts[c - chunk.contact_first];
                    let contact = ContactRow {
                        normal: contacts.normal[c],
                        surface_velocity: contacts.surface_velocity[c],
                        friction: contacts.friction[c],
                        c: contact_c[c],
                        inverse_k: contact_inverse_k[c],
                    };
                    solve_contact(&contact, velocity, lambda, wi, params, use_bias);
                }
            }
        });
    }

    /// Writes the solved velocities back (beads excluded: they are moved by their curves).
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

    /// Before the relax sweeps: the contacts' gaps at the moved positions.
    pub fn refresh_contact_gaps(&mut self, contacts: &ContactSet, x: &[Vec2], t: f64) {
        for k in 0..contacts.len() {
            let p = contacts.particle[k] as usize;
            self.contact_c[k] = contacts.separation(k, x[p], t);
        }
    }

    /// Records the substep's contact impulses and returns the anchor rows' multipliers.
    pub fn finish_substep(&self, contacts: &mut ContactSet) {
        for k in 0..contacts.len() {
            let [normal, tangent] = self.contact_lambda[k];
            let n = contacts.normal[k];
            contacts.normal_impulse[k] = normal;
            contacts.step_impulse[k] += n * normal + n.perp() * tangent;
        }
    }

    /// The multiplier of constraint row `r` (an impulse).
    pub fn row_lambda(&self, r: usize) -> f64 {
        self.lambda[r]
    }
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
        c: value.c,
    }
}

/// One row's Gauss–Seidel update.
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
    params: &PgsParams,
    use_bias: bool,
) {
    if row.inverse_k == 0.0 {
        return;
    }
    let mut cdot = row.offset;
    for (p, j) in blocks(row.particles, row.jacobian) {
        // SAFETY: the caller guarantees exclusive access to this row's particles.
        cdot += j.dot(unsafe { velocity.read(p) });
    }
    // SAFETY: the caller guarantees exclusive access to multiplier `r`.
    let accumulated = unsafe { lambda.read(r) };
    let delta = if use_bias {
        let soft = params.joint;
        -row.inverse_k * f64::from(soft.mass_scale) * (cdot + f64::from(soft.bias_rate) * row.c)
            - f64::from(soft.impulse_scale) * accumulated
    } else {
        -row.inverse_k * cdot
    };
    // SAFETY: as above.
    unsafe { lambda.write(r, accumulated + delta) };
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

/// A contact's normal row (push only, speculative while separated) then its friction row.
fn solve_contact(
    contact: &ContactRow,
    velocity: &mut DVec2,
    lambda: &mut [f64; 2],
    w: f64,
    params: &PgsParams,
    use_bias: bool,
) {
    if contact.inverse_k == 0.0 {
        return;
    }
    let n = contact.normal;
    let relative = *velocity - contact.surface_velocity;
    let (bias, mass_scale, impulse_scale) = if contact.c > 0.0 {
        (contact.c / params.h, 1.0, 0.0)
    } else if use_bias {
        let soft = params.contact;
        (
            (f64::from(soft.bias_rate) * contact.c).max(-params.max_push),
            f64::from(soft.mass_scale),
            f64::from(soft.impulse_scale),
        )
    } else {
        (0.0, 1.0, 0.0)
    };
    let delta =
        -contact.inverse_k * mass_scale * (n.dot(relative) + bias) - impulse_scale * lambda[0];
    let normal = (lambda[0] + delta).max(0.0);
    *velocity += w * (normal - lambda[0]) * n;
    lambda[0] = normal;
    let t = n.perp();
    let sliding = t.dot(*velocity - contact.surface_velocity);
    let limit = contact.friction * lambda[0];
    let tangent = (lambda[1] - contact.inverse_k * sliding).clamp(-limit, limit);
    *velocity += w * (tangent - lambda[1]) * t;
    lambda[1] = tangent;
}
