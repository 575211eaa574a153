//! The prepared contact constraint: everything the velocity passes need, computed once a step.
//!
//! A [`crate::SolverContact`] arrives with a manifold: a normal `n` (from A to B) and up to two
//! points, each with anchors `rA`, `rB` (from each centre of mass to the point), a separation `s`
//! and the impulses carried over from the last step. Preparation turns each into a
//! [`ContactConstraint`] in a flat `Vec`, so the substeps touch one contiguous array and never
//! the manifold again.
//!
//! ## Effective masses
//!
//! A point's normal constraint has the Jacobian `J = [−nᵀ, −(rA × n), nᵀ, rB × n]` acting on
//! `(vA, ωA, vB, ωB)`, so `vn = J·v = n·(vB + ωB × rB − vA − ωA × rA)`. Its effective mass is
//!
//! ```text
//!   m_n = 1 / (J M⁻¹ Jᵀ) = 1 / (mA⁻¹ + mB⁻¹ + IA⁻¹·(rA × n)² + IB⁻¹·(rB × n)²)
//! ```
//!
//! and the same with the tangent `t = right_perp(n)` for friction. An impulse `λ` along the
//! axis changes `vn` by exactly `λ / m_n`, which is what makes "impulse = −m_n·vn" cancel the
//! velocity error of one point in one application. When both bodies have zero inverse mass the
//! denominator is zero; the mass is then set to zero so the point applies nothing.
//!
//! ## Anchors stay fixed within the step
//!
//! The anchors are not rotated as the bodies turn during the substeps (the Jacobian is frozen
//! at the start of the step). What does change is the separation, which the solver tracks from
//! the bodies' accumulated displacement instead of re-running collision:
//!
//! ```text
//!   s = base_separation + n·(ΔpB − ΔpA + R(ΔqB)·rB − R(ΔqA)·rA)
//!   base_separation = s₀ − n·(rB − rA)
//! ```
//!
//! At the start of the step `Δp = 0` and `Δq = I`, and the two `n·(rB − rA)` terms cancel to
//! give back `s₀`. Afterwards the world points `pA + R(Δq)·rA` and `pB + R(Δq)·rB` move with
//! their bodies, to first order in the normal's own rotation, which the step ignores.
//!
//! ## Softness choice
//!
//! A contact's normal rows are soft in the biased pass (see [`crate::softness`]); the step
//! gives two softnesses ([`ContactSoftness`]) and each contact takes one, then adjusts it for
//! the masses it joins ([`NormalSoftness`]):
//!
//! - against a body with zero inverse mass (static or kinematic): twice the contact frequency,
//!   with the contact damping ratio — the ground holds a body up more firmly than another body
//!   does (Box2D v3's `staticSoftness`);
//! - between two dynamic bodies: the contact frequency, stiffened by the mass ratio (below).
//!
//! A resting soft contact settles where its soft pass balances the carried impulse `Λ`, at the
//! overlap `F/(m_n·ω²)` for a force `F` on a point of effective mass `m_n`: the spring's
//! stiffness is proportional to the mass it pushes. When a light body carries a heavy one, the
//! light body's small `m_n` makes the spring between them weak against the heavy load — a 100 kg
//! box sinks 3.5 cm into the 1 kg box under it, a 1000 kg box goes through. Strunk ("Stop my
//! Constraints from Blowing Up!") names the cause — a solver's strength falls with the mass
//! ratio — and the remedy — condition the light body as if it were heavier. We apply that remedy
//! to the spring only: the contact between masses `m₁ ≤ m₂` uses the stiffness (and damping) the
//! spring would have for the heavier body, `ρ = m₂/m₁` times the nominal. The implicit spring
//! stays stable for any stiffness; only its softness changes, by `a₂ → ρ·a₂` in the softness
//! derivation, so the mass scale becomes `ρ·a₂/(1 + ρ·a₂)` and the compliance `1/(ρ·a₂)`. The
//! impulses still act on the true masses, so momentum is exchanged exactly. Equal masses
//! (`ρ = 1`) keep the nominal softness.
//!
//! ## The normal block
//!
//! A two-point manifold's normal rows are solved together (`normal_block.rs`), so preparation
//! also keeps each point's inverse effective mass `Kᵢᵢ` and the coupling `K₁₂` of the two rows. A
//! slot the manifold does not use, a point against bodies that cannot move, and the second point
//! of a manifold whose two points are nearly one (`K` ill-conditioned, see
//! [`crate::normal_block::MAX_CONDITION`]) are *inert*: weight 0, `Kᵢᵢ = 1`, no coupling. The
//! impulses of an ill-conditioned second point move to the first.
//!
//! ## One friction row for a flat manifold
//!
//! A point's friction row has the Jacobian `[−tᵀ, −(rA × t), tᵀ, rB × t]`. Two points of one
//! manifold differ by `d = p₁ − p₂`, and since `(rᵢ × t)` changes by `d × t = −(d·n)` from one to
//! the other, their rows are the *same* row when `d·n = 0`: a box lying on a face, whose two
//! points sit on a line along the tangent. Solving that row twice, once per point with the
//! limits `±μ·λ₁` and `±μ·λ₂`, converges to what one row with the limit `±μ·(λ₁ + λ₂)` gives in
//! one application, so a *flat* manifold (both points active in the normal block, and
//! `|d·n| ≤ FLAT_MANIFOLD_SLOPE·|d·t|`) gets one row through the middle of its points, with the
//! effective mass there, at half the work. An impulse `Λ` at the middle is `Λ/2` at each point
//! (the torque `((r₁ + r₂)/2) × Λt` is the sum of the halves'), so the points carry `Λ/2`
//! each: the warm start, the store and the next step's preparation see two ordinary points
//! (preparation splits the carried sum evenly). A tilted manifold — one corner deeper than the
//! other, as in a tumbling pile — keeps a row per point: there the two rows differ, and one row
//! would be a different constraint.
//!
//! ## Restitution input
//!
//! The relative normal velocity at the start of the step, `vn₀`, is kept per point; restitution
//! later asks for `vn = −e·vn₀` at points that approached faster than the threshold.

use crate::SolverContact;
use crate::constraints::ContactRecord;
use crate::contact_solver::{lane_max, lane_min};
use crate::normal_block::MAX_CONDITION;
use crate::softness::Softness;
use core_soa::{BodyState, NULL_BODY, Vec2, cross, cross_sv, right_perp};

/// One prepared contact point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactConstraintPoint {
    /// From body A's centre of mass to the point (world orientation at the step start).
    pub anchor_a: Vec2,
    /// From body B's centre of mass to the point.
    pub anchor_b: Vec2,
    /// `s₀ − n·(rB − rA)`: the separation with the anchor offsets taken out.
    pub base_separation: f32,
    /// `1 / (J M⁻¹ Jᵀ)` along the normal (0 when nothing can move).
    pub normal_mass: f32,
    /// `J M⁻¹ Jᵀ` along the normal: the row's diagonal entry `Kᵢᵢ` in the normal block, 1 for an
    /// inert point.
    pub inv_normal_mass: f32,
    /// 1 if the point takes part in the normal block, 0 if it is inert.
    pub block_weight: f32,
    /// `1 / (J M⁻¹ Jᵀ)` along the tangent.
    pub tangent_mass: f32,
    /// Accumulated normal impulse (per substep), ≥ 0.
    pub normal_impulse: f32,
    /// Accumulated friction impulse (per substep), within ±μ·normal impulse.
    pub tangent_impulse: f32,
    /// Largest accumulated normal impulse held during the step.
    pub max_normal_impulse: f32,
    /// Relative normal velocity at the start of the step (negative when approaching).
    pub relative_velocity: f32,
}

impl Default for ContactConstraintPoint {
    fn default() -> Self {
        ContactConstraintPoint::INERT
    }
}

impl ContactConstraintPoint {
    /// A slot with no point: inert in the normal block, no mass, no impulse.
    pub const INERT: ContactConstraintPoint = ContactConstraintPoint {
        anchor_a: Vec2::ZERO,
        anchor_b: Vec2::ZERO,
        base_separation: 0.0,
        normal_mass: 0.0,
        inv_normal_mass: 1.0,
        block_weight: 0.0,
        tangent_mass: 0.0,
        normal_impulse: 0.0,
        tangent_impulse: 0.0,
        max_normal_impulse: 0.0,
        relative_velocity: 0.0,
    };
}

/// One prepared contact: a manifold's points sharing one normal between two bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactConstraint {
    /// Awake-array index of body A, or [`NULL_BODY`].
    pub body_a: u32,
    /// Awake-array index of body B, or [`NULL_BODY`].
    pub body_b: u32,
    pub inv_mass_a: f32,
    pub inv_inertia_a: f32,
    pub inv_mass_b: f32,
    pub inv_inertia_b: f32,
    /// Unit normal from A to B.
    pub normal: Vec2,
    pub friction: f32,
    pub restitution: f32,
    /// The soft-step terms of this contact's normal rows.
    pub softness: NormalSoftness,
    /// `K₁₂`: how an impulse at one point changes the normal speed at the other (0 when a point
    /// is inert).
    pub normal_coupling: f32,
    pub points: [ContactConstraintPoint; 2],
    pub point_count: usize,
    /// One friction row through the middle of the two points instead of a row per point (a
    /// flat manifold, see the module notes); the row's effective mass is then the first point's
    /// `tangent_mass`.
    pub shared_friction: bool,
}

impl ContactConstraint {
    /// The friction axis, `right_perp(n)`.
    #[inline]
    pub fn tangent(&self) -> Vec2 {
        right_perp(self.normal)
    }

    /// The points in use.
    #[inline]
    pub fn points(&self) -> &[ContactConstraintPoint] {
        &self.points[..self.point_count]
    }
}

/// The two softnesses a step's contacts choose from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactSoftness {
    /// Between two bodies that can both be pushed, before mass-ratio stiffening.
    pub dynamic: Softness,
    /// Against a body with zero inverse mass (static or kinematic).
    pub fixed: Softness,
}

impl ContactSoftness {
    /// The normal softness of a contact whose bodies have these inverse masses: the fixed
    /// softness if either is zero, else the dynamic one stiffened by their mass ratio.
    #[inline]
    pub fn for_bodies(&self, inv_mass_a: f32, inv_mass_b: f32) -> NormalSoftness {
        if inv_mass_a == 0.0 || inv_mass_b == 0.0 {
            NormalSoftness::stiffened(&self.fixed, 1.0)
        } else {
            let ratio = lane_max(inv_mass_a, inv_mass_b) / lane_min(inv_mass_a, inv_mass_b);
            NormalSoftness::stiffened(&self.dynamic, ratio)
        }
    }
}

/// The soft terms of one contact's normal rows in the biased pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NormalSoftness {
    /// Overlap to push-out speed (1/s).
    pub bias_rate: f32,
    /// `1/(1 + compliance)`: the fraction of the rigid impulse a single row applies.
    pub mass_scale: f32,
    /// `impulse_scale/mass_scale = 1/a₂`: the diagonal compliance of the row relative to its
    /// inverse effective mass (see `normal_block.rs`); 0 for a rigid row.
    pub compliance: f32,
}

impl NormalSoftness {
    /// `softness` with its stiffness multiplied by `ratio ≥ 1` (`a₂ → ratio·a₂`, see the module
    /// notes). A rigid softness (zero impulse scale) stays rigid.
    #[inline]
    pub fn stiffened(softness: &Softness, ratio: f32) -> NormalSoftness {
        let compliance = softness.impulse_scale / (softness.mass_scale * ratio);
        NormalSoftness {
            bias_rate: softness.bias_rate,
            mass_scale: 1.0 / (1.0 + compliance),
            compliance,
        }
    }
}

/// `index` if it names a body in an array of `body_count`, otherwise [`NULL_BODY`]: a contact
/// with a broken index then acts against a fixed body instead of reading out of bounds.
#[inline]
pub fn checked_body_index(index: u32, body_count: usize) -> u32 {
    if (index as usize) < body_count {
        index
    } else {
        debug_assert!(
            index == NULL_BODY,
            "contact body index {index} out of {body_count}"
        );
        NULL_BODY
    }
}

/// The state of body `index`, or the identity state for [`NULL_BODY`]
/// ([`crate::gather_scatter::state_or_identity`], by value).
#[inline]
pub fn state_or_identity(states: &[BodyState], index: u32) -> BodyState {
    *crate::gather_scatter::state_or_identity(states, index)
}

/// `mA⁻¹ + mB⁻¹ + IA⁻¹·(rA × axis)² + IB⁻¹·(rB × axis)²`: the inverse effective mass `J M⁻¹ Jᵀ`
/// of a row along `axis` through the anchors.
#[inline]
pub fn inverse_effective_mass(c: &ContactConstraint, r_a: Vec2, r_b: Vec2, axis: Vec2) -> f32 {
    let rn_a = cross(r_a, axis);
    let rn_b = cross(r_b, axis);
    c.inv_mass_a + c.inv_mass_b + c.inv_inertia_a * rn_a * rn_a + c.inv_inertia_b * rn_b * rn_b
}

/// `1 / (J M⁻¹ Jᵀ)`, or 0 when nothing can move.
#[inline]
pub fn effective_mass(c: &ContactConstraint, r_a: Vec2, r_b: Vec2, axis: Vec2) -> f32 {
    let k = inverse_effective_mass(c, r_a, r_b, axis);
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// `K₁₂ = mA⁻¹ + mB⁻¹ + IA⁻¹·(rA₁ × n)(rA₂ × n) + IB⁻¹·(rB₁ × n)(rB₂ × n)`.
#[inline]
pub fn normal_coupling(c: &ContactConstraint) -> f32 {
    let [p1, p2] = &c.points;
    let n = c.normal;
    c.inv_mass_a
        + c.inv_mass_b
        + c.inv_inertia_a * cross(p1.anchor_a, n) * cross(p2.anchor_a, n)
        + c.inv_inertia_b * cross(p1.anchor_b, n) * cross(p2.anchor_b, n)
}

/// Sets up the normal block (see the module notes): the coupling of two active points, or —
/// when they are nearly one point — makes the second inert and gives its impulses to the first.
fn prepare_normal_block(c: &mut ContactConstraint) {
    let coupling = normal_coupling(c);
    let [p1, p2] = c.points;
    let both = p1.block_weight * p2.block_weight;
    let (k11, k22) = (p1.inv_normal_mass, p2.inv_normal_mass);
    let largest = lane_max(k11, k22);
    let conditioned = largest * largest < MAX_CONDITION * (k11 * k22 - coupling * coupling);
    if both == 0.0 {
        c.normal_coupling = 0.0;
    } else if conditioned {
        c.normal_coupling = coupling;
    } else {
        c.normal_coupling = 0.0;
        c.points[0].normal_impulse = p1.normal_impulse + p2.normal_impulse;
        c.points[0].tangent_impulse = p1.tangent_impulse + p2.tangent_impulse;
        c.points[1].normal_impulse = 0.0;
        c.points[1].tangent_impulse = 0.0;
        c.points[1].block_weight = 0.0;
    }
}

/// Largest `|d·n| / |d·t|` of a manifold given one friction row, for the two points' offset
/// `d` (see the module notes): the points' line within about 0.6° of the tangent.
pub const FLAT_MANIFOLD_SLOPE: f32 = 0.01;

/// Whether two points `anchor_1`, `anchor_2` (from one body's centre) lie on a line along the
/// tangent of `normal`, to [`FLAT_MANIFOLD_SLOPE`].
#[inline]
pub fn is_flat(anchor_1: Vec2, anchor_2: Vec2, normal: Vec2) -> bool {
    let d = anchor_1 - anchor_2;
    d.dot(normal).abs() <= FLAT_MANIFOLD_SLOPE * d.dot(right_perp(normal)).abs()
}

/// The middle of two anchors, `(r₁ + r₂)·½`.
#[inline]
pub fn middle(anchor_1: Vec2, anchor_2: Vec2) -> Vec2 {
    (anchor_1 + anchor_2) * 0.5
}

/// Gives a flat two-point manifold one friction row (see the module notes): the first point
/// keeps the row's effective mass at the middle, and both carry half the summed friction
/// impulse.
fn prepare_shared_friction(c: &mut ContactConstraint) {
    let [p1, p2] = c.points;
    let active = p1.block_weight != 0.0 && p2.block_weight != 0.0;
    if !(active && is_flat(p1.anchor_a, p2.anchor_a, c.normal)) {
        return;
    }
    let (mid_a, mid_b) = (
        middle(p1.anchor_a, p2.anchor_a),
        middle(p1.anchor_b, p2.anchor_b),
    );
    let half = (p1.tangent_impulse + p2.tangent_impulse) * 0.5;
    c.shared_friction = true;
    c.points[0].tangent_mass = effective_mass(c, mid_a, mid_b, c.tangent());
    c.points[0].tangent_impulse = half;
    c.points[1].tangent_impulse = half;
}

/// Prepares `constraints[i]` from record `contacts[i]` for every `i` of the two equally long
/// slices. `warm_start` keeps the carried impulses; otherwise every point starts from zero.
pub fn prepare_contacts<C: ContactRecord>(
    contacts: &[C],
    constraints: &mut [ContactConstraint],
    states: &[BodyState],
    softness: &ContactSoftness,
    warm_start: bool,
) {
    debug_assert_eq!(contacts.len(), constraints.len());
    for (contact, constraint) in contacts.iter().zip(constraints.iter_mut()) {
        let contact = contact.solver_contact();
        *constraint = prepare_contact(contact, states, softness, warm_start);
    }
}

/// Prepares one contact.
pub fn prepare_contact(
    contact: &SolverContact,
    states: &[BodyState],
    softness: &ContactSoftness,
    warm_start: bool,
) -> ContactConstraint {
    let manifold = &contact.manifold;
    let mut c = ContactConstraint {
        body_a: checked_body_index(contact.body_a, states.len()),
        body_b: checked_body_index(contact.body_b, states.len()),
        inv_mass_a: contact.inv_mass_a,
        inv_inertia_a: contact.inv_inertia_a,
        inv_mass_b: contact.inv_mass_b,
        inv_inertia_b: contact.inv_inertia_b,
        normal: manifold.normal,
        friction: contact.friction,
        restitution: contact.restitution,
        softness: softness.for_bodies(contact.inv_mass_a, contact.inv_mass_b),
        normal_coupling: 0.0,
        points: [ContactConstraintPoint::INERT; 2],
        point_count: manifold.point_count.min(2),
        shared_friction: false,
    };
    let state_a = state_or_identity(states, c.body_a);
    let state_b = state_or_identity(states, c.body_b);
    let warm_scale = if warm_start { 1.0 } else { 0.0 };
    for i in 0..c.point_count {
        let mp = &manifold.points[i];
        let (r_a, r_b) = (mp.anchor_a, mp.anchor_b);
        let velocity_a = state_a.linear_velocity + cross_sv(state_a.angular_velocity, r_a);
        let velocity_b = state_b.linear_velocity + cross_sv(state_b.angular_velocity, r_b);
        let k = inverse_effective_mass(&c, r_a, r_b, c.normal);
        let movable = k > 0.0;
        c.points[i] = ContactConstraintPoint {
            anchor_a: r_a,
            anchor_b: r_b,
            base_separation: mp.separation - c.normal.dot(r_b - r_a),
            normal_mass: if movable { 1.0 / k } else { 0.0 },
            inv_normal_mass: if movable { k } else { 1.0 },
            block_weight: if movable { 1.0 } else { 0.0 },
            tangent_mass: effective_mass(&c, r_a, r_b, c.tangent()),
            normal_impulse: warm_scale * mp.normal_impulse,
            tangent_impulse: warm_scale * mp.tangent_impulse,
            max_normal_impulse: 0.0,
            relative_velocity: c.normal.dot(velocity_b - velocity_a),
        };
    }
    prepare_normal_block(&mut c);
    prepare_shared_friction(&mut c);
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use collision::{Manifold, ManifoldPoint};

    fn contact_with(points: &[(Vec2, Vec2, f32)], normal: Vec2) -> SolverContact {
        let mut manifold = Manifold {
            normal,
            point_count: points.len(),
            ..Default::default()
        };
        for (slot, &(a, b, s)) in manifold.points.iter_mut().zip(points) {
            *slot = ManifoldPoint {
                anchor_a: a,
                anchor_b: b,
                separation: s,
                normal_impulse: 3.0,
                ..Default::default()
            };
        }
        SolverContact {
            body_a: 0,
            body_b: 1,
            inv_mass_a: 0.5,
            inv_inertia_a: 2.0,
            inv_mass_b: 0.25,
            inv_inertia_b: 1.0,
            friction: 0.6,
            restitution: 0.0,
            manifold,
        }
    }

    fn softness() -> ContactSoftness {
        ContactSoftness {
            dynamic: Softness::new(30.0, 10.0, 1.0 / 240.0),
            fixed: Softness::new(60.0, 2.0, 1.0 / 240.0),
        }
    }

    #[test]
    fn effective_masses_match_the_formula() {
        let n = Vec2::new(0.0, 1.0);
        let r_a = Vec2::new(0.3, 0.1);
        let r_b = Vec2::new(-0.2, -0.4);
        let contact = contact_with(&[(r_a, r_b, -0.01)], n);
        let states = [BodyState::IDENTITY; 2];
        let c = prepare_contact(&contact, &states, &softness(), true);
        // rA × n = 0.3, rB × n = −0.2; k = 0.5 + 0.25 + 2·0.09 + 1·0.04 = 0.97.
        assert!((c.points[0].normal_mass - 1.0 / 0.97).abs() < 1e-6);
        // t = (1, 0): rA × t = −0.1, rB × t = 0.4; k = 0.75 + 2·0.01 + 1·0.16 = 0.93.
        assert!((c.points[0].tangent_mass - 1.0 / 0.93).abs() < 1e-6);
        // base = s − n·(rB − rA) = −0.01 − (−0.5) = 0.49.
        assert!((c.points[0].base_separation - 0.49).abs() < 1e-6);
        assert_eq!(c.points[0].normal_impulse, 3.0);
        assert_eq!(
            c.softness,
            NormalSoftness::stiffened(&softness().dynamic, 2.0)
        );
    }

    #[test]
    fn relative_velocity_includes_rotation() {
        let n = Vec2::new(0.0, 1.0);
        let contact = contact_with(&[(Vec2::new(1.0, 0.0), Vec2::new(0.0, -0.5), 0.0)], n);
        let mut states = [BodyState::IDENTITY; 2];
        states[0].angular_velocity = 2.0; // point of A moves at ω × rA = (0, 2)
        states[1].linear_velocity = Vec2::new(0.0, -3.0);
        let c = prepare_contact(&contact, &states, &softness(), true);
        assert!((c.points[0].relative_velocity - (-3.0 - 2.0)).abs() < 1e-6);
    }

    #[test]
    fn static_partner_uses_fixed_softness_and_no_warm_start_zeroes() {
        let mut contact = contact_with(&[(Vec2::ZERO, Vec2::ZERO, 0.0)], Vec2::Y);
        contact.body_a = NULL_BODY;
        contact.inv_mass_a = 0.0;
        contact.inv_inertia_a = 0.0;
        let states = [BodyState::IDENTITY; 2];
        let c = prepare_contact(&contact, &states, &softness(), false);
        assert_eq!(
            c.softness,
            NormalSoftness::stiffened(&softness().fixed, 1.0)
        );
        assert_eq!(c.points[0].normal_impulse, 0.0);
        assert!((c.points[0].normal_mass - 4.0).abs() < 1e-6);
    }

    #[test]
    fn out_of_range_index_becomes_null_and_both_fixed_gives_zero_mass() {
        assert_eq!(checked_body_index(NULL_BODY, 3), NULL_BODY);
        assert_eq!(checked_body_index(2, 3), 2);
        let mut contact = contact_with(&[(Vec2::X, Vec2::X, 0.0)], Vec2::Y);
        contact.inv_mass_a = 0.0;
        contact.inv_inertia_a = 0.0;
        contact.inv_mass_b = 0.0;
        contact.inv_inertia_b = 0.0;
        let states = [BodyState::IDENTITY; 2];
        let c = prepare_contact(&contact, &states, &softness(), true);
        assert_eq!(c.points[0].normal_mass, 0.0);
        assert_eq!(c.points[0].tangent_mass, 0.0);
    }
}
