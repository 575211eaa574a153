//! The mass-ratio diagnostic: joints an iterative solver will struggle with, and what to do.
//!
//! Each side of a joint resists a push at its anchor with the effective mass
//! `1/(1/m + d²/I)` (`d` from the centre of mass to the anchor), in the weakest direction. A
//! sequential solver passes an impulse from one body to the next in proportion to these masses,
//! so a chain whose neighbours differ greatly (a heavy weight on light, thin links) needs many
//! more iterations than it gets and stretches. The ratio of the larger to the smaller effective
//! mass (`solver_simd::joint::effective_mass_ratio`, 1 for a joint to an immovable body) flags
//! such joints. Two remedies, both cheap:
//!
//! - raise the light body's rotational inertia (`BodyDef::inertia_scale` 2–4, or
//!   [`World::set_inertia_scale`]): `d²/I` shrinks, so the effective mass at the anchor grows
//!   toward `m`, while the body still falls and collides as before;
//! - or give the solver more substeps per step.
//!
//! [`World::mass_ratio_warnings`] lists the joints above [`MassRatioWarning::DEFAULT_THRESHOLD`]
//! (10: an order of magnitude, the usual bound for an iterative solver with a few substeps; the
//! ratio that matters is the effective one at the anchors, not the ratio of the masses, as
//! Strunk's "Stop my Constraints from Blowing Up!" shows). On the validation scenes it flags
//! what it should and nothing else: the ragdoll pile's worst joint is at 4.6 and the chain
//! bridge's at 1, while the heavy chain's weight hangs on its last link at 155; a light thin
//! link under a block of 1000× its mass reaches about 800. It costs one pass over the joints
//! when called, nothing in the step, and can be called after any step;
//! [`World::mass_ratio_report`] takes another threshold.

use crate::error::{PrismError, positive};
use crate::joint::kind_name;
use crate::world::World;
use core_soa::{BodyId, JointId};
use solver_simd::joint::effective_mass_ratio;

/// A joint whose effective-mass ratio exceeds the threshold asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct MassRatioWarning {
    /// The joint.
    pub joint: JointId,
    /// Its first body.
    pub body_a: BodyId,
    /// Its second body.
    pub body_b: BodyId,
    /// Larger over smaller effective mass at the anchors (≥ 1).
    pub ratio: f32,
    /// A sentence naming the joint, the ratio and the remedies.
    pub message: String,
}

impl MassRatioWarning {
    /// The threshold [`World::mass_ratio_warnings`] uses (see the module notes).
    pub const DEFAULT_THRESHOLD: f32 = 10.0;
}

impl World {
    /// The joints whose effective-mass ratio across the joint exceeds
    /// [`MassRatioWarning::DEFAULT_THRESHOLD`], in slot order, each with a suggestion (see the
    /// module notes). Reflects the bodies' current masses, so it can be read after any step.
    pub fn mass_ratio_warnings(&self) -> Vec<MassRatioWarning> {
        self.warnings_above(MassRatioWarning::DEFAULT_THRESHOLD)
    }

    /// The joints whose effective-mass ratio across the joint exceeds `threshold` (> 0), in
    /// slot order, each with a suggestion (see the module notes).
    pub fn mass_ratio_report(&self, threshold: f32) -> Result<Vec<MassRatioWarning>, PrismError> {
        positive("threshold", threshold)?;
        Ok(self.warnings_above(threshold))
    }

    /// The warnings for `threshold` (finite, > 0).
    fn warnings_above(&self, threshold: f32) -> Vec<MassRatioWarning> {
        let mut warnings = Vec::new();
        for (id, record) in self.joints.arena.iter() {
            let Some(constraint) = self.joint_sim(id.index()) else {
                continue;
            };
            let ratio = effective_mass_ratio(constraint);
            if ratio > threshold {
                warnings.push(MassRatioWarning {
                    joint: id,
                    body_a: record.base.body_a,
                    body_b: record.base.body_b,
                    ratio,
                    message: format!(
                        "{} joint (index {}): effective mass ratio {ratio:.1} across the joint \
                         exceeds {threshold}; raise the lighter body's rotational inertia \
                         (BodyDef::inertia_scale 2-4) or its mass, or use more substeps",
                        kind_name(&constraint.kind),
                        id.index(),
                    ),
                });
            }
        }
        warnings
    }
}
