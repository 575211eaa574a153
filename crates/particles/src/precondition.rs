//! Preconditioners for the constraint system `A = J W Jᵀ + εD`.
//!
//! Conjugate gradient converges in about `√κ` iterations, `κ` the condition number of the
//! preconditioned system. For a net of rods `A` behaves like a graph Laplacian on the links:
//! `κ` grows with the square of the net's size, and with the diagonal (Jacobi) preconditioner
//! a 32 × 32 hanging cloth needs 250–400 iterations per solve.
//!
//! The symmetric successive over-relaxation (SSOR) preconditioner applies one forward and one
//! backward Gauss–Seidel sweep over the rows, starting from zero (Saad, "Iterative methods for
//! sparse linear systems", §10.2):
//!
//! ```text
//!   forward,  rows in order:    z_i += ω (r_i − (A z)_i) / A_ii
//!   backward, rows reversed:    z_i += ω (r_i − (A z)_i) / A_ii
//! ```
//!
//! which is `z = M⁻¹ r` for the symmetric positive-definite
//! `M = ω/(2 − ω) · (D/ω + L) D⁻¹ (D/ω + U)`, so it is a valid CG preconditioner for
//! `0 < ω < 2`. Matrix-free, a sweep is exactly a PGS sweep: keep `y = W Jᵀ z` per particle,
//! then `(A z)_i = J_i · y + εD_i z_i` and a row update adds `w_p J_ip δ` to the `y` of its
//! particles. The rows of one colour share no particle, so each colour runs in parallel and
//! "reversed" means colours in reverse order (then the overflow rows, solved serially, come
//! first). Contact rows are kept diagonal (Jacobi) inside `M`, which leaves it block-diagonal
//! and still symmetric positive definite.
//!
//! A preconditioned iteration costs two sweeps more than a Jacobi one; it pays only when the
//! iterations drop by more than that (see [`Preconditioner::default`] for what was measured).

// Unsafe code is confined here: the colour-parallel sweep writes disjoint rows of shared arrays;
// every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::constraint::blocks;
use crate::parallel::{PARALLEL_MIN, for_chunks};
use crate::topology::Topology;
use core_soa::SharedSlice;
use glam::DVec2;

/// How the constraint system is preconditioned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Preconditioner {
    /// `M = diag(A)`.
    Jacobi,
    /// One forward and one backward multicolour Gauss–Seidel sweep with relaxation `ω`
    /// (0 < ω < 2; 1 is symmetric Gauss–Seidel).
    Ssor {
        /// The relaxation factor `ω`.
        relaxation: f32,
    },
}

impl Default for Preconditioner {
    /// Jacobi: on the nets measured (the 32 × 32 hanging cloth), SSOR with `ω = 1` needs
    /// 2.3 times fewer iterations but each costs 4 times as much (two sweeps that walk rows
    /// in colour order, against one contiguous pass), so Jacobi is faster overall; `ω > 1`
    /// needed more iterations, not fewer.
    fn default() -> Self {
        Preconditioner::Jacobi
    }
}

/// The rows as the preconditioner sees them.
pub(crate) struct PreconditionRows<'a> {
    pub topology: &'a Topology,
    pub particles: &'a [[u32; 2]],
    pub jacobians: &'a [[DVec2; 2]],
    pub active: &'a [bool],
    pub diag: &'a [f64],
    pub epsilon: f64,
    pub inverse_mass: &'a [f32],
}

/// `z = diag(A)⁻¹ r` on active rows, `z = r` on inactive ones.
pub(crate) fn jacobi(rows: &PreconditionRows<'_>, r: &[f64], z: &mut [f64]) {
    let (active, diag, epsilon) = (rows.active, rows.diag, rows.epsilon);
    for_chunks(z, |first, out| {
        for (k, out) in out.iter_mut().enumerate() {
            let i = first + k;
            *out = if active[i] {
                r[i] / (diag[i] * (1.0 + epsilon))
            } else {
                r[i]
            };
        }
    });
}

/// `z = M⁻¹ r` for SSOR with relaxation `omega`; `y` is per-particle scratch.
pub(crate) fn ssor(
    rows: &PreconditionRows<'_>,
    omega: f64,
    r: &[f64],
    z: &mut [f64],
    y: &mut Vec<DVec2>,
) {
    let constraint_rows = rows.topology.rows.len();
    // Contact rows and inactive rows: diagonal.
    jacobi(rows, r, z);
    z[..constraint_rows].fill(0.0);
    y.clear();
    y.resize(rows.inverse_mass.len(), DVec2::ZERO);
    let coloring = &rows.topology.coloring;
    let colors = coloring.color_start.len().saturating_sub(1);
    let shared_y = SharedSlice::new(y);
    let shared_z = SharedSlice::new(&mut z[..constraint_rows]);
    let update = |i: usize| {
        // SAFETY: `update` runs for the rows of one colour at a time (colours are walked one
        // after another below), rows of one colour share no particle, and each row owns its
        // `z` entry; the overflow rows run one at a time on this thread.
        unsafe { relax_row(rows, omega, r, &shared_y, &shared_z, i) };
    };
    let run_color = |c: usize| {
        let range = coloring.color_start[c] as usize..coloring.color_start[c + 1] as usize;
        let order = &coloring.order[range];
        if order.len() < PARALLEL_MIN {
            order.iter().for_each(|&i| update(i as usize));
        } else {
            let chunks: Vec<&[u32]> = order.chunks(crate::parallel::CHUNK).collect();
            workers::for_each(chunks.len(), |chunk| {
                chunks[chunk].iter().for_each(|&i| update(i as usize))
            });
        }
    };
    let overflow = &coloring.order[coloring.overflow..];
    (0..colors).for_each(run_color);
    overflow.iter().for_each(|&i| update(i as usize));
    overflow.iter().rev().for_each(|&i| update(i as usize));
    (0..colors).rev().for_each(run_color);
}

/// One Gauss–Seidel update of row `i` of `A z = r`, keeping `y = W Jᵀ z`.
///
/// # Safety
/// No other thread may access `z[i]` or the `y` of row `i`'s particles during the call.
unsafe fn relax_row(
    rows: &PreconditionRows<'_>,
    omega: f64,
    r: &[f64],
    y: &SharedSlice<'_, DVec2>,
    z: &SharedSlice<'_, f64>,
    i: usize,
) {
    if !rows.active[i] {
        return;
    }
    let jacobian = rows.jacobians[i];
    // SAFETY: the caller guarantees exclusive access to `z[i]` and this row's particles.
    let zi = unsafe { z.read(i) };
    let mut az = rows.epsilon * rows.diag[i] * zi;
    for (p, j) in blocks(rows.particles[i], jacobian) {
        // SAFETY: as above.
        az += j.dot(unsafe { y.read(p) });
    }
    let delta = omega * (r[i] - az) / (rows.diag[i] * (1.0 + rows.epsilon));
    // SAFETY: as above.
    unsafe { z.write(i, zi + delta) };
    for (p, j) in blocks(rows.particles[i], jacobian) {
        let w = f64::from(rows.inverse_mass[p]);
        // SAFETY: as above.
        unsafe { y.write(p, y.read(p) + w * delta * j) };
    }
}
