//! The classic solver kind: sequential impulses with Baumgarte stabilisation.
//!
//! This is the method of Erin Catto's "Iterative Dynamics with Temporal Coherence" and "Modeling
//! and Solving Constraints": one step of length `h = dt` is
//!
//! ```text
//!   integrate velocities (gravity, forces, damping)
//!   warm start: apply last step's accumulated impulses
//!   repeat `substeps` times: every contact's normal rows, then its friction rows
//!   restitution
//!   integrate positions once with the solved velocities
//! ```
//!
//! It is projected Gauss–Seidel on the velocity constraints `J·v + b ≥ 0`: each row in turn gets
//! the impulse that zeroes its own error given everyone else's current impulses, clamped through
//! the accumulated impulse (`Λ ≥ 0` for the normal, `|Λ_t| ≤ μ·Λ_n` for friction) so that later
//! rows can take back what earlier ones over-applied.
//!
//! Position drift is fed back through the velocity bias (Baumgarte): a point overlapping by more
//! than the slop asks for a separating speed that removes the fraction `β` of the excess overlap
//! in one step,
//!
//! ```text
//!   bias = −β·max(0, −s − slop)/h,        Δλ = −m_n·(vn + bias)
//! ```
//!
//! which is a rigid row (`mass_scale = 1`, `impulse_scale = 0`). The bias adds momentum, so a
//! deep overlap is pushed out with kinetic energy (the soft step's rigid relax pass exists to
//! remove exactly that); `β ≈ 0.2` and the slop keep it small for resting contact. Speculative
//! points (`s > 0`) are handled as in the soft step: the gap may close within the step.
//!
//! Everything except the bias rule is the shared contact code: preparation, warm start, the row
//! update with accumulated clamping, friction, restitution and the impulse store are the same
//! functions the soft step calls; only the stage list and this [`NormalBias`] differ. The
//! accumulated impulses are per step here rather than per substep, so switching solver kinds
//! mid-simulation warm-starts one step with impulses off by the substep count.

use crate::contact_constraint::NormalSoftness;
use crate::contact_solver::{NormalBias, NormalTerms, lane_max};
use crate::stages::Stage;

/// Baumgarte position feedback for the sequential-impulse solver.
#[derive(Clone, Copy, Debug)]
pub struct BaumgarteBias {
    /// 1 / step length.
    pub inv_h: f32,
    /// Fraction of the excess overlap removed per step.
    pub baumgarte: f32,
    /// Overlap left alone (m).
    pub linear_slop: f32,
}

impl NormalBias for BaumgarteBias {
    #[inline]
    fn normal_terms(&self, _softness: &NormalSoftness, separation: f32) -> NormalTerms {
        if separation > 0.0 {
            return NormalTerms::speculative(separation, self.inv_h);
        }
        let excess_overlap = lane_max(-separation - self.linear_slop, 0.0);
        NormalTerms::rigid(-self.baumgarte * excess_overlap * self.inv_h)
    }
}

/// The stage list of a sequential-impulse step with `iterations` velocity iterations, written
/// into `stages`.
pub fn sequential_impulse_stages(iterations: u32, stages: &mut Vec<Stage>) {
    stages.clear();
    stages.extend([
        Stage::BeginStep,
        Stage::OrderContacts,
        Stage::PrepareContacts,
        Stage::PrepareJoints,
        Stage::IntegrateVelocities,
        Stage::WarmStart,
    ]);
    stages.extend((0..iterations.max(1)).map(|_| Stage::Solve));
    stages.extend([
        Stage::Restitution,
        Stage::IntegratePositions,
        Stage::StoreImpulses,
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bias_removes_beta_of_the_excess_overlap() {
        let b = BaumgarteBias {
            inv_h: 60.0,
            baumgarte: 0.2,
            linear_slop: 0.005,
        };
        let s = NormalSoftness::stiffened(&crate::Softness::RIGID, 1.0);
        // 0.105 overlap: excess 0.1; bias = −0.2·0.1·60 = −1.2 m/s.
        let t = b.normal_terms(&s, -0.105);
        assert!((t.bias + 1.2).abs() < 1e-5);
        assert_eq!((t.mass_scale, t.compliance), (1.0, 0.0));
        assert_eq!(b.normal_terms(&s, -0.004).bias, 0.0);
        assert!((b.normal_terms(&s, 0.01).bias - 0.6).abs() < 1e-6);
    }

    #[test]
    fn stage_list_has_one_position_update() {
        let mut stages = Vec::new();
        sequential_impulse_stages(3, &mut stages);
        assert_eq!(stages.iter().filter(|s| **s == Stage::Solve).count(), 3);
        assert_eq!(
            stages
                .iter()
                .filter(|s| **s == Stage::IntegratePositions)
                .count(),
            1
        );
        assert_eq!(
            &stages[..3],
            &[
                Stage::BeginStep,
                Stage::OrderContacts,
                Stage::PrepareContacts
            ]
        );
        assert_eq!(stages.last(), Some(&Stage::StoreImpulses));
        assert!(!stages.contains(&Stage::Relax));
    }
}
