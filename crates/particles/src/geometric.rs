//! Geometric stiffness: why a tight net needs heavier particles in its velocity solve.
//!
//! A rod under tension `T` resists sideways motion of its ends like a spring of stiffness
//! `T/L` (pluck a guitar string): its force `T n` turns when `n` turns, and
//! `∂(T n)/∂x = (T/L)(I − n nᵀ)`. The velocity-level step evaluates `J` at the start of the
//! step and so treats this *geometric stiffness* explicitly, which is stable only while
//! `h² k / m` stays below about 4 for each particle (with Gershgorin's bound, `k` the sum over
//! its rods of `2 T/L`). A 32 × 32 net of 2 g particles hanging from two corners at 60 Hz has
//! `h² T/(m L) ≈ 46` at the corners: the velocity solve is exact, yet the net shakes itself
//! apart. Four substeps (`h/4`) make it `2.9` and it settles, as does RK4.
//!
//! Andrews, Erleben and Ferguson ("Geometric stiffness for real-time constrained multibody
//! dynamics", 2017) keep one step by adding a diagonal approximation of the geometric
//! stiffness to the mass matrix, `M̃ = M + h² K̃`. Here a particle's mass is only raised where
//! it has to be, to the bound above with a factor 2 of margin:
//!
//! ```text
//!   m̃_i = max(m_i, h² Σ_r κ_r |λ_r| / h) = max(m_i, h Σ_r κ_r |λ_r|)
//! ```
//!
//! with `λ_r` the impulse row `r` applied in the previous substep (so `|λ_r|/h` is its force)
//! and `κ_r = ‖∂J_r/∂x‖` its curvature: `1/L` for a rod, `1/r` for a circle, 0 for pins, lines
//! and contacts (user constraints are taken as straight). `M̃` replaces `M` for the whole
//! velocity update of the symplectic and implicit steps — applied forces and constraint
//! impulses alike, as in Andrews et al. — so static equilibria, and the forces bodies feel
//! from resting particles, are unchanged; what changes is that a heavily loaded particle
//! responds more slowly to *changes*, a damping of the motions the step could not resolve
//! anyway. A particle whose geometric stiffness the step resolves (a swinging chain's lower
//! links, a bead on a wire) keeps its mass. The explicit integrators (explicit Euler,
//! midpoint, RK4) evaluate `J` at every stage and are not modified.
//!
//! The price: a heavier particle takes less momentum from an impulse than the impulse
//! carries, so momentum is not conserved where the floor acts, and an impact (a one-step
//! spike of `λ`) raises masses it has no need to. It is therefore off by default
//! ([`crate::SystemDef::geometric_stiffness`]); substeps are the exact alternative (the
//! 32 × 32 net settles at two).

use crate::parallel::for_chunks;
use crate::topology::Topology;

/// Inverse masses for the velocity update: `1/m̃` (see the module essay). `lambda` holds the
/// previous substep's impulses of the constraint rows (empty or stale: no change).
pub(crate) fn response_inverse_mass(
    topology: &Topology,
    inverse_mass: &[f32],
    lambda: &[f64],
    h: f64,
    out: &mut Vec<f32>,
) {
    out.clear();
    out.extend_from_slice(inverse_mass);
    if lambda.len() != topology.rows.len() {
        return;
    }
    let curvature = &topology.row_curvature;
    for_chunks(out, |first, out| {
        for (k, w) in out.iter_mut().enumerate() {
            if *w == 0.0 {
                continue;
            }
            let i = first + k;
            let incident = topology.row_start[i] as usize..topology.row_start[i + 1] as usize;
            let stiffness: f64 = topology.row_incidence[incident]
                .iter()
                .map(|&entry| {
                    let r = (entry >> 1) as usize;
                    curvature[r] * lambda[r].abs()
                })
                .sum();
            let floor = h * stiffness;
            if floor * f64::from(*w) > 1.0 {
                *w = (1.0 / floor) as f32;
            }
        }
    });
}
