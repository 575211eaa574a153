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

use crate::error::{PrismError, positive};
use crate::joint::kind_name;
use crate::world::World;
use core_soa::{BodyId, JointId};
use solver_simd::joint::effective_mass_ratio;

/// A joint whose effective-mass ratio exceeds the threshold asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct MassRatioWarning {
    pub joint: JointId,
    pub body_a: BodyId,
    pub body_b: BodyId,
    /// Larger over smaller effective mass at the anchors (≥ 1).
    pub ratio: f32,
    /// A sentence naming the joint, the ratio and the remedies.
    pub message: String,
}

impl World {
    /// The joints whose effective-mass ratio across the joint exceeds `threshold` (> 0), in
    /// slot order, each with a suggestion (see the module notes).
    pub fn mass_ratio_report(&self, threshold: f32) -> Result<Vec<MassRatioWarning>, PrismError> {
        positive("threshold", threshold)?;
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
        Ok(warnings)
    }
}
