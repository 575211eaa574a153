//! Preconditioned conjugate gradient, matrix-free, parallel and deterministic.
//!
//! Both linear systems of the particle step are symmetric positive (semi-)definite and sparse:
//! the constraint system `(J W Jᵀ + εD) λ = b` and the implicit spring system
//! `(M − h² ∂f/∂x − h ∂f/∂v) Δv = h (f + h ∂f/∂x v)`. Neither is ever stored as a matrix: an
//! operator computes the product `A p` by walking the constraint rows or the springs, and a
//! diagonal (Jacobi) or block-diagonal preconditioner approximates `A⁻¹`.
//!
//! The iteration is the textbook preconditioned CG (Hestenes and Stiefel, "Methods of
//! conjugate gradients for solving linear systems"; Shewchuk, "An introduction to the
//! conjugate gradient method without the agonizing pain", algorithm B3):
//!
//! ```text
//!   r = b − A x,  z = M⁻¹ r,  p = z
//!   repeat:  α = (r·z)/(p·Ap);  x += α p;  r −= α Ap
//!            stop when |r| ≤ tol·|b|
//!            z = M⁻¹ r;  β = (r·z)_new/(r·z)_old;  p = z + β p
//! ```
//!
//! Every vector update runs in fixed chunks and every dot product is an ordered reduction
//! (`parallel.rs`), so the iterates — and therefore the iteration count and the stopping
//! decision — are bitwise identical for any number of threads.

use crate::parallel::{for_chunks, for_chunks2, for_chunks2_sums, ordered_sums};

/// A symmetric positive (semi-)definite operator and its preconditioner.
pub(crate) trait LinearOperator {
    /// `y = A x`.
    fn apply(&mut self, x: &[f64], y: &mut [f64]);
    /// `z = M⁻¹ r` for a symmetric positive-definite approximation `M` of `A`.
    fn precondition(&mut self, r: &[f64], z: &mut [f64]);
}

/// When conjugate gradient stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CgSettings {
    /// Largest number of iterations per solve.
    pub max_iterations: u32,
    /// Stop when the residual is at most this fraction of the right-hand side: `|r| ≤ tol·|b|`.
    pub tolerance: f64,
}

impl Default for CgSettings {
    /// 100 iterations, relative residual 1e-6: the constraint forces are then accurate to
    /// about a millionth of the applied forces (far below what feedback corrects anyway), and
    /// warm starting from the last step's multipliers keeps resting scenes to a few iterations.
    fn default() -> Self {
        CgSettings {
            max_iterations: 100,
            tolerance: 1.0e-6,
        }
    }
}

/// What one solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CgReport {
    /// Iterations performed (0 when the initial guess already met the tolerance).
    pub iterations: u32,
    /// The final residual over the right-hand side, `|b − A x| / |b|` (0 for `b = 0`).
    pub relative_residual: f64,
    /// Whether the tolerance was met.
    pub converged: bool,
}

/// The work vectors of a solve, kept between steps to avoid allocation.
#[derive(Clone, Debug, Default)]
pub(crate) struct CgBuffers {
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    ap: Vec<f64>,
}

/// `a · b` as an ordered reduction.
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    ordered_sums(a.len(), |range| {
        let mut sum = 0.0;
        for i in range {
            sum += a[i] * b[i];
        }
        [sum]
    })[0]
}

/// Solves `A x = b` from the initial guess in `x`.
pub(crate) fn solve(
    op: &mut impl LinearOperator,
    b: &[f64],
    x: &mut [f64],
    settings: CgSettings,
    buffers: &mut CgBuffers,
) -> CgReport {
    let n = b.len();
    let CgBuffers { r, z, p, ap } = buffers;
    for v in [&mut *r, &mut *z, &mut *p, &mut *ap] {
        v.clear();
        v.resize(n, 0.0);
    }
    let b_norm2 = dot(b, b);
    if n == 0 || b_norm2 == 0.0 {
        x.fill(0.0);
        return CgReport {
            iterations: 0,
            relative_residual: 0.0,
            converged: true,
        };
    }
    let tolerance2 = settings.tolerance * settings.tolerance * b_norm2;
    op.apply(x, ap);
    for_chunks(r, |first, r| {
        for (k, r) in r.iter_mut().enumerate() {
            *r = b[first + k] - ap[first + k];
        }
    });
    let mut r_norm2 = dot(r, r);
    let report = |iterations, r_norm2: f64| CgReport {
        iterations,
        relative_residual: (r_norm2 / b_norm2).sqrt(),
        converged: r_norm2 <= tolerance2,
    };
    if r_norm2 <= tolerance2 {
        return report(0, r_norm2);
    }
    op.precondition(r, z);
    p.copy_from_slice(z);
    let mut rz = dot(r, z);
    for iteration in 1..=settings.max_iterations {
        op.apply(p, ap);
        let p_ap = dot(p, ap);
        if p_ap.is_nan() || p_ap <= 0.0 || !rz.is_finite() {
            // A direction of zero or negative curvature: the operator is singular along it
            // (or not positive there); the current iterate is the best this method can give.
            return report(iteration - 1, r_norm2);
        }
        let alpha = rz / p_ap;
        let (p_ref, ap_ref) = (&*p, &*ap);
        r_norm2 = for_chunks2_sums(x, r, |first, x, r| {
            let mut sum = 0.0;
            for k in 0..x.len() {
                x[k] += alpha * p_ref[first + k];
                r[k] -= alpha * ap_ref[first + k];
                sum += r[k] * r[k];
            }
            [sum]
        })[0];
        if r_norm2 <= tolerance2 || iteration == settings.max_iterations {
            return report(iteration, r_norm2);
        }
        op.precondition(r, z);
        let rz_new = dot(r, z);
        let beta = rz_new / rz;
        rz = rz_new;
        let z_ref = &*z;
        for_chunks2(p, ap, |first, p, _| {
            for (k, p) in p.iter_mut().enumerate() {
                *p = z_ref[first + k] + beta * *p;
            }
        });
    }
    report(settings.max_iterations, r_norm2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 1-D Laplacian with Dirichlet ends plus a diagonal shift, applied matrix-free.
    struct Laplacian {
        shift: f64,
    }

    impl LinearOperator for Laplacian {
        fn apply(&mut self, x: &[f64], y: &mut [f64]) {
            let n = x.len();
            for i in 0..n {
                let left = if i > 0 { x[i - 1] } else { 0.0 };
                let right = if i + 1 < n { x[i + 1] } else { 0.0 };
                y[i] = (2.0 + self.shift) * x[i] - left - right;
            }
        }
        fn precondition(&mut self, r: &[f64], z: &mut [f64]) {
            for (z, r) in z.iter_mut().zip(r) {
                *z = r / (2.0 + self.shift);
            }
        }
    }

    #[test]
    fn solves_a_laplacian_to_the_tolerance_and_reports_it() {
        let n = 2000;
        let mut op = Laplacian { shift: 0.01 };
        let x_true: Vec<f64> = (0..n).map(|i| (i as f64 * 0.01).sin()).collect();
        let mut b = vec![0.0; n];
        op.apply(&x_true, &mut b);
        let mut x = vec![0.0; n];
        let settings = CgSettings {
            max_iterations: 2000,
            tolerance: 1e-10,
        };
        let report = solve(&mut op, &b, &mut x, settings, &mut CgBuffers::default());
        assert!(report.converged, "{report:?}");
        assert!(report.relative_residual <= 1e-10);
        // Check the reported residual against one computed here.
        let mut ax = vec![0.0; n];
        op.apply(&x, &mut ax);
        let residual: f64 = ax.iter().zip(&b).map(|(a, b)| (a - b) * (a - b)).sum();
        let b_norm: f64 = b.iter().map(|b| b * b).sum();
        assert!(((residual / b_norm).sqrt() - report.relative_residual).abs() < 1e-11);
        let error: f64 = x
            .iter()
            .zip(&x_true)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(error < 1e-6, "max error {error}");
    }

    #[test]
    fn zero_right_hand_side_gives_zero_in_no_iterations() {
        let mut x = vec![3.0; 10];
        let report = solve(
            &mut Laplacian { shift: 0.0 },
            &[0.0; 10],
            &mut x,
            CgSettings::default(),
            &mut CgBuffers::default(),
        );
        assert_eq!(report.iterations, 0);
        assert!(x.iter().all(|&v| v == 0.0));
    }
}
