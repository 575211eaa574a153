//! The global constraint solve: `(J W Jᵀ + εD) λ = b`, matrix-free, by conjugate gradient.
//!
//! ## The system (Witkin, "Constrained dynamics")
//!
//! Stack the particle positions in `q`, the applied forces in `Q`, the inverse masses in the
//! block-diagonal `W`, and the constraints in `C(q)` with Jacobian `J = ∂C/∂q`. The
//! constraint force `Q̂` must make the acceleration `q̈ = W (Q + Q̂)` legal:
//!
//! ```text
//!   C̈ = J̇ q̇ + J q̈ = J̇ q̇ + J W (Q + Q̂) = 0
//! ```
//!
//! and must do no work on any legal velocity (`Q̂·q̇ = 0` whenever `J q̇ = 0`, the principle of
//! virtual work), which holds exactly when `Q̂` lies in the row space of `J`: `Q̂ = Jᵀ λ`.
//! Substituting,
//!
//! ```text
//!   J W Jᵀ λ = −J̇ q̇ − J W Q                      (m equations for m multipliers)
//! ```
//!
//! Asking for `C̈ = −k_s C − k_d Ċ` instead of `C̈ = 0` (feedback, so drift and initial
//! violations decay instead of accumulating) adds the two feedback terms:
//!
//! ```text
//!   J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ
//! ```
//!
//! `J W Jᵀ` is symmetric and positive semi-definite (`xᵀ J W Jᵀ x = |W^½ Jᵀ x|²`), positive
//! definite when the rows are independent. When they are not — a cloth folded onto itself
//! has rods lying along each other, a pile of particles on a box has more contacts than it
//! needs — it is singular or nearly so, CG stalls, and the multipliers wander. The solve
//! therefore adds a *proximal* term, a multiple `ε` of the diagonal `D` pulling each
//! multiplier towards its value `λ⁻` in the previous solve:
//!
//! ```text
//!   (J W Jᵀ + εD) λ = b + εD λ⁻
//! ```
//!
//! The matrix is definite and its condition number at most about `1/ε`; and when the
//! multipliers stop changing (`λ = λ⁻`, a cloth at rest) the term vanishes and the solution
//! is the exact one — unlike plain constraint force mixing (`λ⁻ = 0`), which leaves every
//! loaded constraint compliant by `εDλ`. Contacts find their `λ⁻` by particle and body in
//! the previous step.
//!
//! ## Matrix-free
//!
//! `J` is block-sparse: row `r` has a 2-vector block for each of its (one or two) particles.
//! The product `(J W Jᵀ) x` is computed in two gathers, each a parallel loop in fixed chunks
//! with one writer per output:
//!
//! ```text
//!   y_i = Σ_{rows r touching i} J_ri x_r            (per particle: the force Jᵀx)
//!   (J W Jᵀ x)_r = Σ_{particles i of r} J_ri · w_i y_i     (per row)
//! ```
//!
//! using the particle → row incidence lists built with the topology. The Jacobi
//! preconditioner is `D = diag(J W Jᵀ)`, `D_rr = Σ_i w_i |J_ri|²`.
//!
//! ## Velocity level
//!
//! The implicit integrator and PGS work on velocities. The same matrix then gives the impulse
//! that makes the end-of-step velocity `v = v* + W Jᵀ λ` legal, `J v = −β C` with the soft
//! bias rate `β`:  `J W Jᵀ λ = −β C − J v*`.
//!
//! ## Contacts
//!
//! Contact rows may only push. The solve runs an active set (in the manner of Baraff, "Fast
//! contact force computation for nonpenetrating rigid bodies", but with the linear solve
//! repeated instead of pivoted): a contact starts active when the unconstrained motion would
//! violate its target velocity; after each solve, active contacts with `λ < 0` are released
//! and inactive ones that the new solution would violate are added; the loop stops when
//! nothing changes or after `active_set_passes` solves. Inactive rows are identity rows with a
//! zero right-hand side, so the operator never changes shape.

use crate::anchor::AnchorSample;
use crate::cg::{self, CgBuffers, CgReport, CgSettings, LinearOperator};
use crate::constraint::{NO_PARTICLE, RowValue, blocks};
use crate::contact::ContactSet;
use crate::parallel::for_chunks;
use crate::precondition::{self, PreconditionRows, Preconditioner};
use crate::topology::Topology;
use core_soa::Vec2;
use glam::DVec2;

/// Which equation the right-hand side encodes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Level {
    /// `λ` are forces; `C̈ = −k_s C − k_d Ċ`; contacts reach their target velocity after `h`.
    Acceleration { ks: f64, kd: f64, h: f64 },
    /// `λ` are impulses; `Ċ' = −bias_rate·C`.
    Velocity { bias_rate: f64 },
}

/// How contacts are pushed out (see `contact.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PushOut {
    pub h: f64,
    pub bias_rate: f64,
    pub max_velocity: f64,
}

impl PushOut {
    /// The least normal velocity a contact of gap `c` accepts at the end of the step.
    pub fn target(&self, c: f64) -> f64 {
        if c > 0.0 {
            -c / self.h
        } else {
            (-self.bias_rate * c).min(self.max_velocity)
        }
    }
}

/// What one global solve did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SolveStats {
    pub solves: u32,
    pub iterations: u32,
    pub max_residual: f64,
    pub unconverged: u32,
    pub active_contacts: u32,
}

impl SolveStats {
    fn add(&mut self, report: CgReport) {
        self.solves += 1;
        self.iterations += report.iterations;
        self.max_residual = self.max_residual.max(report.relative_residual);
        self.unconverged += u32::from(!report.converged);
    }
}

/// The per-step rows and the solver's vectors, kept between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct GlobalSolver {
    /// Values of every row: the constraint rows, then one row per contact.
    pub values: Vec<RowValue>,
    /// Particles of every row.
    pub particles: Vec<[u32; 2]>,
    /// The rows' Jacobian blocks, copied out of `values` so the CG products stream only what
    /// they read.
    jacobians: Vec<[DVec2; 2]>,
    /// Multipliers of the last solve.
    pub lambda: Vec<f64>,
    /// The constraint rows' multipliers, to warm-start the next solve.
    warm: Vec<f64>,
    /// The contacts' multipliers of the last solve, with the particle and body of each.
    contact_warm: Vec<(u32, u64, f64)>,
    /// The contact set `contact_warm` belongs to.
    contact_generation: u64,
    /// Each row's multiplier from the last solve (0 for new rows): the warm start and the
    /// centre of the proximal regularisation.
    previous: Vec<f64>,
    rhs: Vec<f64>,
    free: Vec<f64>,
    target: Vec<f64>,
    active: Vec<bool>,
    diag: Vec<f64>,
    /// `Jᵀ λ` per particle after a solve: the constraint force (or impulse).
    pub jt: Vec<DVec2>,
    /// `W Q` (acceleration level) per particle.
    wq: Vec<DVec2>,
    /// Per-particle scratch of the SSOR preconditioner.
    scratch: Vec<DVec2>,
    cg: CgBuffers,
}

/// Everything a solve reads besides the rows.
pub(crate) struct SolveInputs<'a> {
    pub topology: &'a Topology,
    pub contacts: &'a ContactSet,
    pub inverse_mass: &'a [f32],
    /// Applied forces `Q` (acceleration level only; empty otherwise).
    pub force: &'a [DVec2],
    pub level: Level,
    pub push: PushOut,
    pub regularization: f64,
    pub cg: CgSettings,
    pub preconditioner: Preconditioner,
    pub passes: u32,
}

impl GlobalSolver {
    /// Evaluates every row at `(x, v)`, `t` seconds into the step.
    pub fn evaluate_rows(
        &mut self,
        topology: &Topology,
        contacts: &ContactSet,
        state: (&[Vec2], &[Vec2]),
        anchors: &[AnchorSample],
        t: f64,
    ) {
        let (x, v) = state;
        let constraint_rows = topology.rows.len();
        let total = constraint_rows + contacts.len();
        self.values.resize(total, RowValue::default());
        self.particles.clear();
        self.particles.extend_from_slice(&topology.row_particles);
        self.particles
            .extend(contacts.particle.iter().map(|&p| [p, NO_PARTICLE]));
        let (rows, contact_rows) = self.values.split_at_mut(constraint_rows);
        for_chunks(rows, |first, out| {
            for (k, out) in out.iter_mut().enumerate() {
                *out = topology.rows[first + k].evaluate(x, v, anchors);
            }
        });
        for_chunks(contact_rows, |first, out| {
            for (k, out) in out.iter_mut().enumerate() {
                let c = first + k;
                let p = contacts.particle[c] as usize;
                let n = contacts.normal[c];
                *out = RowValue {
                    jacobian: [n, DVec2::ZERO],
                    c: contacts.separation(c, x[p], t),
                    cdot: n.dot(v[p].as_dvec2()) - contacts.normal_speed[c],
                    jdot_qdot: 0.0,
                };
            }
        });
    }

    /// Solves for `λ` with the rows as last evaluated; leaves `Jᵀλ` in `self.jt`.
    pub fn solve(&mut self, inputs: &SolveInputs<'_>) -> SolveStats {
        let rows = self.values.len();
        let constraint_rows = inputs.topology.rows.len();
        let mut stats = SolveStats::default();
        self.gather_previous(inputs);
        self.prepare(inputs);
        self.lambda.clear();
        self.lambda.resize(rows, 0.0);
        for r in 0..rows {
            if self.active[r] {
                self.lambda[r] = self.previous[r];
            }
        }
        let particle_count = inputs.inverse_mass.len();
        self.jt.resize(particle_count, DVec2::ZERO);
        if rows == 0 {
            self.jt.fill(DVec2::ZERO);
            return stats;
        }
        for _ in 0..inputs.passes {
            let report = self.run_cg(inputs);
            stats.add(report);
            self.transpose_product(inputs);
            if !self.update_active_set(inputs) {
                break;
            }
        }
        if self.release_pulling_contacts(constraint_rows) {
            self.transpose_product(inputs);
        }
        self.warm.clear();
        self.warm.extend_from_slice(&self.lambda[..constraint_rows]);
        self.store_contact_multipliers(inputs.contacts, constraint_rows);
        stats.active_contacts = self.active[constraint_rows..]
            .iter()
            .filter(|&&a| a)
            .count() as u32;
        stats
    }

    /// The constraint rows' multipliers of the last solve (empty before the first).
    pub fn constraint_multipliers(&self) -> &[f64] {
        &self.warm
    }

    /// Forgets the warm start (after the rows changed meaning, e.g. a new topology).
    pub fn reset_warm_start(&mut self) {
        self.warm.clear();
        self.contact_warm.clear();
    }

    /// `self.previous`: the constraint rows' last multipliers, and each contact's from the
    /// contact with the same particle and body in the last solve.
    fn gather_previous(&mut self, inputs: &SolveInputs<'_>) {
        let constraint_rows = inputs.topology.rows.len();
        let contacts = inputs.contacts;
        self.previous.clear();
        if self.warm.len() == constraint_rows {
            self.previous.extend_from_slice(&self.warm);
        } else {
            self.previous.resize(constraint_rows, 0.0);
        }
        if self.contact_generation == contacts.generation
            && self.contact_warm.len() == contacts.len()
        {
            self.previous
                .extend(self.contact_warm.iter().map(|&(_, _, lambda)| lambda));
            return;
        }
        let mut cursor = 0;
        let mut used = vec![false; self.contact_warm.len()];
        for k in 0..contacts.len() {
            let (particle, body) = (contacts.particle[k], contacts.contact[k].body.0);
            while cursor < self.contact_warm.len() && self.contact_warm[cursor].0 < particle {
                cursor += 1;
            }
            let mut found = 0.0;
            let mut probe = cursor;
            while probe < self.contact_warm.len() && self.contact_warm[probe].0 == particle {
                if !used[probe] && self.contact_warm[probe].1 == body {
                    used[probe] = true;
                    found = self.contact_warm[probe].2;
                    break;
                }
                probe += 1;
            }
            self.previous.push(found);
        }
    }

    /// Keeps the contacts' multipliers, keyed by particle and body, for the next solve.
    fn store_contact_multipliers(&mut self, contacts: &ContactSet, constraint_rows: usize) {
        self.contact_generation = contacts.generation;
        self.contact_warm.clear();
        self.contact_warm.extend((0..contacts.len()).map(|k| {
            (
                contacts.particle[k],
                contacts.contact[k].body.0,
                self.lambda[constraint_rows + k],
            )
        }));
    }

    /// Diagonal, right-hand side, free velocities, targets and initial active set.
    fn prepare(&mut self, inputs: &SolveInputs<'_>) {
        let rows = self.values.len();
        self.jacobians.clear();
        self.jacobians
            .extend(self.values.iter().map(|value| value.jacobian));
        let constraint_rows = inputs.topology.rows.len();
        let w = inputs.inverse_mass;
        self.wq.clear();
        if let Level::Acceleration { .. } = inputs.level {
            self.wq
                .extend((0..w.len()).map(|i| f64::from(w[i]) * inputs.force[i]));
        }
        for v in [
            &mut self.rhs,
            &mut self.free,
            &mut self.target,
            &mut self.diag,
        ] {
            v.clear();
            v.resize(rows, 0.0);
        }
        self.active.clear();
        self.active.resize(rows, false);
        for r in 0..rows {
            let value = self.values[r];
            let particles = self.particles[r];
            let mut diag = 0.0;
            let mut jwq = 0.0;
            for (p, j) in blocks(particles, value.jacobian) {
                diag += f64::from(w[p]) * j.dot(j);
                if !self.wq.is_empty() {
                    jwq += j.dot(self.wq[p]);
                }
            }
            self.diag[r] = diag;
            let usable = diag > 1.0e-300;
            let (rhs, free) = row_rhs(inputs, &value, jwq, r >= constraint_rows);
            self.free[r] = free;
            if r < constraint_rows {
                self.rhs[r] = rhs;
                self.active[r] = usable;
            } else {
                let target = inputs.push.target(value.c);
                self.target[r] = target;
                self.rhs[r] = (target - free) / level_scale(inputs.level);
                self.active[r] = usable && free < target;
            }
            if self.active[r] {
                self.rhs[r] += inputs.regularization * diag * self.previous[r];
            } else {
                self.rhs[r] = 0.0;
            }
        }
    }

    fn run_cg(&mut self, inputs: &SolveInputs<'_>) -> CgReport {
        let mut op = JwjOperator {
            rows: RowsView {
                particles: &self.particles,
                jacobians: &self.jacobians,
                active: &self.active,
            },
            topology: inputs.topology,
            contact_start: &inputs.contacts.start,
            inverse_mass: inputs.inverse_mass,
            diag: &self.diag,
            epsilon: inputs.regularization,
            jt: &mut self.jt,
            preconditioner: inputs.preconditioner,
            scratch: &mut self.scratch,
        };
        // Inactive rows have a zero right-hand side (kept so by `prepare` and the active set).
        cg::solve(
            &mut op,
            &self.rhs,
            &mut self.lambda,
            inputs.cg,
            &mut self.cg,
        )
    }

    /// `self.jt = Jᵀ λ` over the active rows.
    fn transpose_product(&mut self, inputs: &SolveInputs<'_>) {
        let rows = RowsView {
            particles: &self.particles,
            jacobians: &self.jacobians,
            active: &self.active,
        };
        gather_transpose(
            &rows,
            inputs.topology,
            &inputs.contacts.start,
            &self.lambda,
            &mut self.jt,
        );
    }

    /// One active-set update; returns whether anything changed.
    fn update_active_set(&mut self, inputs: &SolveInputs<'_>) -> bool {
        let constraint_rows = inputs.topology.rows.len();
        let scale = level_scale(inputs.level);
        let mut changed = false;
        for r in constraint_rows..self.values.len() {
            if self.active[r] {
                if self.lambda[r] < 0.0 {
                    self.active[r] = false;
                    self.lambda[r] = 0.0;
                    self.rhs[r] = 0.0;
                    changed = true;
                }
            } else if self.diag[r] > 1.0e-300 {
                let predicted = self.free[r] + scale * self.row_response(r, inputs.inverse_mass);
                let tolerance = 1.0e-9 * (1.0 + self.target[r].abs());
                if predicted < self.target[r] - tolerance {
                    self.active[r] = true;
                    self.rhs[r] = (self.target[r] - self.free[r]) / scale
                        + inputs.regularization * self.diag[r] * self.previous[r];
                    changed = true;
                }
            }
        }
        changed
    }

    /// Zeroes contact multipliers still pulling after the last pass; returns whether any did.
    fn release_pulling_contacts(&mut self, constraint_rows: usize) -> bool {
        let mut released = false;
        for r in constraint_rows..self.values.len() {
            if self.active[r] && self.lambda[r] < 0.0 {
                self.lambda[r] = 0.0;
                self.active[r] = false;
                released = true;
            }
        }
        released
    }

    /// `(J W jt)_r`: how row `r`'s velocity responds to the current constraint force.
    fn row_response(&self, r: usize, w: &[f32]) -> f64 {
        blocks(self.particles[r], self.jacobians[r])
            .map(|(p, j)| j.dot(f64::from(w[p]) * self.jt[p]))
            .sum()
    }
}

/// `(rhs, free)` of a row: the right-hand side of a bilateral row, and the normal velocity a
/// contact row would reach without constraint forces.
fn row_rhs(inputs: &SolveInputs<'_>, value: &RowValue, jwq: f64, contact: bool) -> (f64, f64) {
    match inputs.level {
        Level::Acceleration { ks, kd, h } => {
            if contact {
                (0.0, value.cdot + h * jwq)
            } else {
                (-value.jdot_qdot - jwq - ks * value.c - kd * value.cdot, 0.0)
            }
        }
        Level::Velocity { bias_rate } => {
            if contact {
                (0.0, value.cdot)
            } else {
                (-bias_rate * value.c - value.cdot, 0.0)
            }
        }
    }
}

/// The factor between a multiplier's effect on `J W Jᵀ λ` and on the end-of-step velocity.
fn level_scale(level: Level) -> f64 {
    match level {
        Level::Acceleration { h, .. } => h,
        Level::Velocity { .. } => 1.0,
    }
}

/// The rows as the operator sees them.
struct RowsView<'a> {
    particles: &'a [[u32; 2]],
    jacobians: &'a [[DVec2; 2]],
    active: &'a [bool],
}

/// `jt_i = Σ_{active rows r touching i} J_ri x_r`, gathered per particle.
fn gather_transpose(
    rows: &RowsView<'_>,
    topology: &Topology,
    contact_start: &[u32],
    x: &[f64],
    jt: &mut [DVec2],
) {
    let constraint_rows = topology.rows.len();
    for_chunks(jt, |first, out| {
        for (k, out) in out.iter_mut().enumerate() {
            let i = first + k;
            let mut sum = DVec2::ZERO;
            let incident = topology.row_start[i] as usize..topology.row_start[i + 1] as usize;
            for &entry in &topology.row_incidence[incident] {
                let (r, slot) = ((entry >> 1) as usize, (entry & 1) as usize);
                if rows.active[r] {
                    sum += rows.jacobians[r][slot] * x[r];
                }
            }
            for c in contact_start[i] as usize..contact_start[i + 1] as usize {
                let r = constraint_rows + c;
                if rows.active[r] {
                    sum += rows.jacobians[r][0] * x[r];
                }
            }
            *out = sum;
        }
    });
}

/// `J W Jᵀ + εD` over the active rows, identity on the inactive ones.
struct JwjOperator<'a> {
    rows: RowsView<'a>,
    topology: &'a Topology,
    contact_start: &'a [u32],
    inverse_mass: &'a [f32],
    diag: &'a [f64],
    epsilon: f64,
    jt: &'a mut Vec<DVec2>,
    preconditioner: Preconditioner,
    scratch: &'a mut Vec<DVec2>,
}

impl LinearOperator for JwjOperator<'_> {
    fn apply(&mut self, x: &[f64], y: &mut [f64]) {
        gather_transpose(&self.rows, self.topology, self.contact_start, x, self.jt);
        let jt = &*self.jt;
        let rows = &self.rows;
        let (w, diag, epsilon) = (self.inverse_mass, self.diag, self.epsilon);
        for_chunks(y, |first, out| {
            for (k, out) in out.iter_mut().enumerate() {
                let r = first + k;
                if !rows.active[r] {
                    *out = x[r];
                    continue;
                }
                let mut sum = epsilon * diag[r] * x[r];
                for (p, j) in blocks(rows.particles[r], rows.jacobians[r]) {
                    sum += j.dot(f64::from(w[p]) * jt[p]);
                }
                *out = sum;
            }
        });
    }

    fn precondition(&mut self, r: &[f64], z: &mut [f64]) {
        let rows = PreconditionRows {
            topology: self.topology,
            particles: self.rows.particles,
            jacobians: self.rows.jacobians,
            active: self.rows.active,
            diag: self.diag,
            epsilon: self.epsilon,
            inverse_mass: self.inverse_mass,
        };
        match self.preconditioner {
            Preconditioner::Jacobi => precondition::jacobi(&rows, r, z),
            Preconditioner::Ssor { relaxation } => {
                precondition::ssor(&rows, f64::from(relaxation), r, z, self.scratch)
            }
        }
    }
}

#[cfg(test)]
// Dense linear algebra reads best with explicit indices.
#[allow(clippy::needless_range_loop)]
mod tests {
    //! The matrix-free CG solve against a dense Cholesky factorisation of the same system.

    use super::*;
    use crate::constraint::{Constraint, ConstraintDef, CustomConstraint, CustomRow};
    use crate::storage::{ParticleDef, Particles};
    use crate::topology::Structure;
    use core_soa::Arena;
    use std::sync::Arc;

    /// A test-only dense symmetric positive-definite solve: `A = L Lᵀ`, then two triangular
    /// solves.
    fn cholesky_solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
        let m = b.len();
        let mut l = vec![vec![0.0; m]; m];
        for i in 0..m {
            for j in 0..=i {
                let mut sum = a[i][j];
                for k in 0..j {
                    sum -= l[i][k] * l[j][k];
                }
                if i == j {
                    assert!(sum > 0.0, "matrix not positive definite at {i}");
                    l[i][i] = sum.sqrt();
                } else {
                    l[i][j] = sum / l[j][j];
                }
            }
        }
        let mut y = vec![0.0; m];
        for i in 0..m {
            y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
        }
        let mut x = vec![0.0; m];
        for i in (0..m).rev() {
            x[i] = (y[i] - (i + 1..m).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
        }
        x
    }

    /// `C = x_a·x_b − 0.1` (a user constraint with a non-trivial `J̇`).
    struct DotConstraint;

    impl CustomConstraint for DotConstraint {
        fn evaluate(&self, x: &[Vec2], v: &[Vec2]) -> CustomRow {
            CustomRow {
                value: x[0].dot(x[1]) - 0.1,
                jacobian: [x[1], x[0]],
                jacobian_dot: [v[1], v[0]],
            }
        }
    }

    /// A deterministic pseudo-random number in [-1, 1).
    fn noise(seed: &mut u64) -> f32 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        ((*seed >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    }

    struct Scene {
        particles: Particles,
        constraints: Arena<Constraint, crate::ids::ConstraintId>,
        anchors: Vec<AnchorSample>,
    }

    /// A chain of 6 (pinned at one end, with a rod closing a triangle), a bead on a circle, a
    /// bead on a line, a particle pinned to a moving anchor, a user constraint, and a net of
    /// rods pinned at two corners: all in a perturbed state with random velocities.
    fn scene() -> Scene {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut particles = Particles::default();
        let mut ids = Vec::new();
        for i in 0..10 {
            let position = Vec2::new(0.3 * i as f32, 0.1 * noise(&mut seed));
            let velocity = Vec2::new(noise(&mut seed), noise(&mut seed));
            let mass = 0.5 + 0.4 * noise(&mut seed);
            ids.push(particles.insert(&ParticleDef::new(position, mass).with_velocity(velocity)));
        }
        let mut constraints = Arena::new();
        let mut add = |def| {
            constraints.insert(Constraint::Builtin(def));
        };
        for i in 0..5 {
            add(ConstraintDef::Rod {
                a: ids[i],
                b: ids[i + 1],
                length: 0.29,
            });
        }
        add(ConstraintDef::Rod {
            a: ids[0],
            b: ids[2],
            length: 0.55,
        });
        add(ConstraintDef::Pin {
            particle: ids[0],
            point: Vec2::new(0.01, -0.02),
        });
        add(ConstraintDef::Circle {
            particle: ids[6],
            center: Vec2::new(1.5, 1.0),
            radius: 0.8,
        });
        add(ConstraintDef::Line {
            particle: ids[7],
            point: Vec2::new(2.0, 0.0),
            direction: Vec2::new(1.0, 0.4),
        });
        add(ConstraintDef::PinToAnchor {
            particle: ids[8],
            anchor: Arena::<(), crate::ids::AnchorId>::new().insert(()),
        });
        constraints.insert(Constraint::Custom {
            particles: vec![ids[8], ids[9]],
            function: Arc::new(DotConstraint),
        });
        // A 6 × 6 net of rods hanging from two pinned corners, jiggled.
        let net: Vec<_> = (0..36)
            .map(|k| {
                let position = Vec2::new((k % 6) as f32 * 0.2, -1.0 - (k / 6) as f32 * 0.2)
                    + 0.02 * Vec2::new(noise(&mut seed), noise(&mut seed));
                let velocity = Vec2::new(noise(&mut seed), noise(&mut seed));
                particles.insert(&ParticleDef::new(position, 0.1).with_velocity(velocity))
            })
            .collect();
        for k in 0..36 {
            if k % 6 < 5 {
                constraints.insert(Constraint::Builtin(ConstraintDef::Rod {
                    a: net[k],
                    b: net[k + 1],
                    length: 0.2,
                }));
            }
            if k < 30 {
                constraints.insert(Constraint::Builtin(ConstraintDef::Rod {
                    a: net[k],
                    b: net[k + 6],
                    length: 0.2,
                }));
            }
        }
        for corner in [0, 5] {
            constraints.insert(Constraint::Builtin(ConstraintDef::Pin {
                particle: net[corner],
                point: Vec2::new(corner as f32 * 0.2, -1.0),
            }));
        }
        let anchors = vec![AnchorSample {
            position: DVec2::new(2.45, 0.05),
            velocity: DVec2::new(0.3, -0.2),
            acceleration: DVec2::new(0.0, 1.5),
        }];
        Scene {
            particles,
            constraints,
            anchors,
        }
    }

    #[test]
    fn cg_matches_a_dense_cholesky_solve_of_the_same_system() {
        let scene = scene();
        let springs = Arena::new();
        let topology = Topology::build(&Structure {
            particles: &scene.particles,
            springs: &springs,
            constraints: &scene.constraints,
            beads: &[],
        });
        let n = scene.particles.len();
        let contacts = ContactSet {
            start: vec![0; n + 1],
            ..ContactSet::default()
        };
        let mut seed = 77u64;
        let force: Vec<DVec2> = (0..n)
            .map(|_| {
                DVec2::new(
                    f64::from(noise(&mut seed)),
                    f64::from(noise(&mut seed)) - 5.0,
                )
            })
            .collect();
        let (x, v) = (&scene.particles.position, &scene.particles.velocity);
        let w = &scene.particles.inverse_mass;
        let (ks, kd) = (400.0, 40.0);
        let tight = CgSettings {
            max_iterations: 1000,
            tolerance: 1.0e-12,
        };
        for (epsilon, cg) in [
            (0.0, tight),
            (1.0e-5, tight),
            (1.0e-5, CgSettings::default()),
        ] {
            let mut solver = GlobalSolver::default();
            solver.evaluate_rows(&topology, &contacts, (x, v), &scene.anchors, 0.0);
            let inputs = SolveInputs {
                topology: &topology,
                contacts: &contacts,
                inverse_mass: w,
                force: &force,
                level: Level::Acceleration {
                    ks,
                    kd,
                    h: 1.0 / 60.0,
                },
                push: PushOut {
                    h: 1.0 / 60.0,
                    bias_rate: 0.0,
                    max_velocity: 0.0,
                },
                regularization: epsilon,
                cg,
                preconditioner: Preconditioner::Jacobi,
                passes: 1,
            };
            let stats = solver.solve(&inputs);

            // The same system, dense: J (m × 2n), A = J W Jᵀ + ε diag, b = −J̇q̇ − JWQ − k_s C − k_d Ċ.
            let m = solver.values.len();
            let mut j = vec![vec![0.0; 2 * n]; m];
            for r in 0..m {
                for (p, block) in blocks(solver.particles[r], solver.values[r].jacobian) {
                    j[r][2 * p] = block.x;
                    j[r][2 * p + 1] = block.y;
                }
            }
            let wq: Vec<f64> = (0..2 * n)
                .map(|k| f64::from(w[k / 2]) * force[k / 2][k % 2])
                .collect();
            let mut a = vec![vec![0.0; m]; m];
            let mut b = vec![0.0; m];
            for r in 0..m {
                for s in 0..m {
                    a[r][s] = (0..2 * n)
                        .map(|k| j[r][k] * f64::from(w[k / 2]) * j[s][k])
                        .sum();
                }
                let value = solver.values[r];
                let jwq: f64 = (0..2 * n).map(|k| j[r][k] * wq[k]).sum();
                b[r] = -value.jdot_qdot - jwq - ks * value.c - kd * value.cdot;
            }
            for r in 0..m {
                a[r][r] *= 1.0 + epsilon;
            }
            let dense = cholesky_solve(&a, &b);
            let difference: f64 = dense
                .iter()
                .zip(&solver.lambda)
                .map(|(d, c)| (d - c).powi(2))
                .sum::<f64>()
                .sqrt();
            let size: f64 = dense.iter().map(|d| d * d).sum::<f64>().sqrt();
            println!(
                "{m} rows, ε = {epsilon:e}, tolerance {:e}: CG {} iterations, relative residual \
                 {:.1e}; |λ_cg − λ_dense| / |λ_dense| = {:.1e}",
                cg.tolerance,
                stats.iterations,
                stats.max_residual,
                difference / size
            );
            assert!(difference / size < 1.0e-5);
            assert!(stats.max_residual <= cg.tolerance);

            // Physics: with ε = 0 the accelerations W (Q + Jᵀλ) meet C̈ = −k_s C − k_d Ċ.
            if epsilon == 0.0 && cg == tight {
                for r in 0..m {
                    let value = solver.values[r];
                    let c_ddot: f64 = blocks(solver.particles[r], value.jacobian)
                        .map(|(p, block)| block.dot(f64::from(w[p]) * (force[p] + solver.jt[p])))
                        .sum::<f64>()
                        + value.jdot_qdot;
                    let target = -ks * value.c - kd * value.cdot;
                    assert!(
                        (c_ddot - target).abs() < 1e-7 * (1.0 + target.abs()),
                        "row {r}"
                    );
                }
            }
        }
    }
}
