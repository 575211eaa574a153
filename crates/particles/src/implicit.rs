//! Implicit (backward) Euler for stiff springs, after Baraff and Witkin, "Large steps in cloth
//! simulation" (SIGGRAPH 1998).
//!
//! An explicit step of a spring of stiffness `k` on a mass `m` is stable only while
//! `h √(k/m)` stays below about 2; a cloth stiff enough not to look like rubber breaks that
//! at 60 Hz by orders of magnitude. Backward Euler evaluates the forces at the *end* of the
//! step instead:
//!
//! ```text
//!   Δv = h W f(x + Δx, v + Δv),   Δx = h (v + Δv)
//! ```
//!
//! Linearising `f` about the current state (one Newton step) with `K = ∂f/∂x` and
//! `D = ∂f/∂v` and multiplying by `M = W⁻¹` gives the sparse symmetric system (their eq. 18)
//!
//! ```text
//!   (M − h D − h² K) Δv = h (f + h K v)
//! ```
//!
//! `K` and `D` are sums over the springs of 2×2 blocks (`force.rs`: `∂f_a/∂x_a` with the
//! compressive term clamped, so `−K` is positive semi-definite); the matrix is therefore
//! symmetric positive definite, and is solved by conjugate gradient with a block-Jacobi (2×2
//! per particle) preconditioner, matrix-free: for a spring `s` between `a` and `b` with
//! `B_s = −h² K_s − h D_s`,
//!
//! ```text
//!   (A p)_a = m_a p_a + Σ_s B_s (p_a − p_b)
//! ```
//!
//! gathered per particle over its incident springs (an anchored spring has `p_b = 0`; its
//! anchor's velocity enters the right-hand side as `K (v_a − v_anchor)`). Particles with
//! inverse mass 0 and beads are filtered out of the solve (their `Δv` is held at 0), the
//! simplest case of Baraff and Witkin's constraint filter.
//!
//! Constraints and contacts are not part of this linear system: after the implicit velocity
//! update the step projects the velocities onto the constraints at the velocity level (the
//! global solve or PGS), which is itself a backward-Euler treatment of the constraint forces.
//! Forces that act between particles (springs, their damping) may be implicit, because they
//! cancel in the sum. External forces that depend on velocity may not: the implicit solve sees
//! the velocity *before* contacts stop the particles, so an implicit drag `−c I` would resist
//! the fall a resting cloth never makes and hold up part of its weight (1.6% of it for a cloth
//! on a box with `c/m = 1/s`). Drag and user force fields are therefore taken at the start of
//! the step, explicitly (drag is stable so while `c h / m < 2`). The damping of a spring to an
//! anchor is external too and stays implicit: its share of a resting particle's support is
//! the same small error, and only while the particle also rests on a surface.

use crate::anchor::AnchorSample;
use crate::cg::{self, CgBuffers, CgReport, CgSettings, LinearOperator};
use crate::force::SpringJacobian;
use crate::parallel::for_chunks;
use crate::topology::Topology;
use core_soa::Vec2;
use glam::DVec2;

/// The implicit step's buffers, kept between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct ImplicitSolver {
    /// `B_s = −h² K_s − h D_s` per spring (symmetric: xx, xy, yy).
    blocks: Vec<[f64; 3]>,
    rhs: Vec<f64>,
    /// The solution `Δv`, flattened `[x0, y0, x1, y1, …]` (warm start for the next step).
    pub delta_v: Vec<f64>,
    /// Inverse of each particle's 2×2 diagonal block.
    inverse_diagonal: Vec<[f64; 3]>,
    masked: Vec<bool>,
    cg: CgBuffers,
}

/// What the implicit solve reads.
pub(crate) struct ImplicitInputs<'a> {
    pub topology: &'a Topology,
    pub x: &'a [Vec2],
    pub v: &'a [Vec2],
    pub inverse_mass: &'a [f32],
    /// Every applied force at `(x, v)`.
    pub force: &'a [DVec2],
    pub anchors: &'a [AnchorSample],
    pub h: f64,
    pub settings: CgSettings,
}

impl ImplicitSolver {
    /// Solves for `Δv`; leaves it in `delta_v`.
    pub fn solve(&mut self, inputs: &ImplicitInputs<'_>) -> CgReport {
        let n = inputs.x.len();
        self.masked.clear();
        self.masked
            .extend((0..n).map(|i| inputs.inverse_mass[i] == 0.0 || inputs.topology.is_bead[i]));
        let jacobians: Vec<SpringJacobian> = inputs
            .topology
            .springs
            .iter()
            .map(|s| s.jacobian(inputs.x, inputs.v, inputs.anchors))
            .collect();
        let (h, h2) = (inputs.h, inputs.h * inputs.h);
        self.blocks.clear();
        self.blocks.extend(
            jacobians
                .iter()
                .map(|j| [0, 1, 2].map(|k| -h2 * j.dx[k] - h * j.dv[k])),
        );
        self.build_rhs(inputs, &jacobians);
        self.build_preconditioner(inputs);
        if self.delta_v.len() != 2 * n {
            self.delta_v.clear();
            self.delta_v.resize(2 * n, 0.0);
        }
        for i in 0..n {
            if self.masked[i] {
                self.delta_v[2 * i] = 0.0;
                self.delta_v[2 * i + 1] = 0.0;
            }
        }
        let mut op = SpringOperator {
            topology: inputs.topology,
            blocks: &self.blocks,
            inverse_mass: inputs.inverse_mass,
            masked: &self.masked,
            inverse_diagonal: &self.inverse_diagonal,
        };
        cg::solve(
            &mut op,
            &self.rhs,
            &mut self.delta_v,
            inputs.settings,
            &mut self.cg,
        )
    }

    /// `h (f + h K v_rel)` per free particle, 0 for filtered ones.
    fn build_rhs(&mut self, inputs: &ImplicitInputs<'_>, jacobians: &[SpringJacobian]) {
        let topology = inputs.topology;
        let h = inputs.h;
        let masked = &self.masked;
        self.rhs.clear();
        self.rhs.resize(2 * inputs.x.len(), 0.0);
        for_chunks(&mut self.rhs, |first, out| {
            for k in (0..out.len()).step_by(2) {
                let i = (first + k) / 2;
                if masked[i] {
                    continue;
                }
                let mut kv = DVec2::ZERO;
                for &(s, sign) in spring_range(topology, i) {
                    let spring = topology.springs[s as usize];
                    let (va, vb) = if spring.b_is_anchor {
                        let anchor = inputs.anchors[spring.b as usize];
                        (inputs.v[spring.a as usize].as_dvec2(), anchor.velocity)
                    } else {
                        (
                            inputs.v[spring.a as usize].as_dvec2(),
                            inputs.v[spring.b as usize].as_dvec2(),
                        )
                    };
                    // ∂f_i/∂x_i (v_i − v_other): the same block for either end.
                    kv += sign * symmetric_times(jacobians[s as usize].dx, va - vb);
                }
                let value = h * (inputs.force[i] + h * kv);
                out[k] = value.x;
                out[k + 1] = value.y;
            }
        });
    }

    /// Inverts each particle's 2×2 diagonal block `(m + h c) I + Σ_s B_s`.
    fn build_preconditioner(&mut self, inputs: &ImplicitInputs<'_>) {
        let topology = inputs.topology;
        self.inverse_diagonal.clear();
        self.inverse_diagonal
            .resize(inputs.x.len(), [1.0, 0.0, 1.0]);
        for i in 0..inputs.x.len() {
            if self.masked[i] {
                continue;
            }
            let mass = 1.0 / f64::from(inputs.inverse_mass[i]);
            let mut block = [mass, 0.0, mass];
            for &(s, _) in spring_range(topology, i) {
                for (k, entry) in block.iter_mut().enumerate() {
                    *entry += self.blocks[s as usize][k];
                }
            }
            let det = block[0] * block[2] - block[1] * block[1];
            self.inverse_diagonal[i] = [block[2] / det, -block[1] / det, block[0] / det];
        }
    }
}

fn spring_range(topology: &Topology, i: usize) -> &[(u32, f64)] {
    &topology.spring_incidence
        [topology.spring_start[i] as usize..topology.spring_start[i + 1] as usize]
}

/// A symmetric 2×2 block `[xx, xy, yy]` times a vector.
fn symmetric_times(block: [f64; 3], v: DVec2) -> DVec2 {
    DVec2::new(
        block[0] * v.x + block[1] * v.y,
        block[1] * v.x + block[2] * v.y,
    )
}

/// `M + h c I − h D − h² K`, filtered.
struct SpringOperator<'a> {
    topology: &'a Topology,
    blocks: &'a [[f64; 3]],
    inverse_mass: &'a [f32],
    masked: &'a [bool],
    inverse_diagonal: &'a [[f64; 3]],
}

impl LinearOperator for SpringOperator<'_> {
    fn apply(&mut self, x: &[f64], y: &mut [f64]) {
        let at = |i: usize| {
            if self.masked[i] {
                DVec2::ZERO
            } else {
                DVec2::new(x[2 * i], x[2 * i + 1])
            }
        };
        for_chunks(y, |first, out| {
            for k in (0..out.len()).step_by(2) {
                let i = (first + k) / 2;
                if self.masked[i] {
                    out[k] = x[2 * i];
                    out[k + 1] = x[2 * i + 1];
                    continue;
                }
                let p = at(i);
                let mass = 1.0 / f64::from(self.inverse_mass[i]);
                let mut sum = mass * p;
                for &(s, sign) in spring_range(self.topology, i) {
                    let spring = self.topology.springs[s as usize];
                    let other = if sign > 0.0 {
                        if spring.b_is_anchor {
                            DVec2::ZERO
                        } else {
                            at(spring.b as usize)
                        }
                    } else {
                        at(spring.a as usize)
                    };
                    sum += symmetric_times(self.blocks[s as usize], p - other);
                }
                out[k] = sum.x;
                out[k + 1] = sum.y;
            }
        });
    }

    fn precondition(&mut self, r: &[f64], z: &mut [f64]) {
        for_chunks(z, |first, out| {
            for k in (0..out.len()).step_by(2) {
                let i = (first + k) / 2;
                let v =
                    symmetric_times(self.inverse_diagonal[i], DVec2::new(r[2 * i], r[2 * i + 1]));
                out[k] = v.x;
                out[k + 1] = v.y;
            }
        });
    }
}
