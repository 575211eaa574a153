//! Contact constraints solved [`LANES`] at a time: one graph colour, bundle by bundle.
//!
//! A colour's contacts share no dynamic body, so any [`LANES`] of them can run through the same
//! arithmetic side by side. They are packed into [`ContactBundle`]s — an array of structs of
//! wide fields (AoSoA), one contact per lane — so a pass walks one contiguous array and every
//! load is a full register:
//!
//! ```text
//!   ContactBundle { body_a: [a0 a1 … a7], body_b: [b0 … b7],
//!                   normal.x: [n0x … n7x], …,
//!                   points[0].normal_impulse: [λ0 … λ7], …,  points[1]…  }
//! ```
//!
//! Each pass gathers the bodies of a bundle once ([`crate::gather_scatter`]), runs the rows of
//! every lane, and scatters the bodies back once. Unused lanes of a colour's last bundle name
//! [`NULL_BODY`] on both sides and have zero masses: they gather identity states and write
//! nothing.
//!
//! ## The same bits as the scalar path
//!
//! Every kernel here is the scalar kernel of [`crate::contact_solver`] written over
//! [`FloatW`], line for line: the same formulas, the same operation order, no fused
//! multiply-add (see [`crate::wide`]), and `min`/`max` with the lane rule the scalar code also
//! uses ([`crate::contact_solver::lane_max`]); preparation mirrors
//! [`crate::contact_constraint::prepare_contact`] the same way. Branches become selects that
//! pick one of two exactly computed values:
//!
//! - "speculative point (`s > 0`) or overlapping" computes both sets of normal terms and
//!   selects per lane;
//! - a lane whose manifold has fewer points than its bundle's slots (a one-point manifold next
//!   to two-point ones) still runs the missing slot with zero masses and impulses; the slot's
//!   velocity changes are then discarded by a select, because even a zero impulse would turn a
//!   velocity of exactly −0.0 into +0.0. When every lane has the slot, no select is spent;
//! - restitution runs only in lanes that pass the scalar test (restitution on, approach faster
//!   than the threshold, some impulse held); the other lanes keep their bodies and impulses.
//!
//! So a lane gives the bits the scalar path gives for the same contact and the same body
//! states: the test `wide_kernels_match_scalar_kernels_bit_for_bit` checks it on random
//! contacts over several substeps.

use crate::constraints::ContactRecord;
use crate::contact_constraint::{
    ContactConstraint, ContactConstraintPoint, ContactSoftness, FLAT_MANIFOLD_SLOPE, NormalSoftness,
};
use crate::contact_solver::{ContactRows, RelaxBias, SoftBias};
use crate::gather_scatter::{BodyLanes, BodyStateW, gather};
use crate::normal_block::{BlockRow, MAX_CONDITION, solve_block};
use crate::sequential_impulses::BaumgarteBias;
use crate::wide::{FloatW, LANES, MaskW, Vec2W, cross_sv};
use core::mem::MaybeUninit;
use core_soa::{BodyState, NULL_BODY, Vec2};
use inputs::{LaneInputs, PointInputs};

/// One point slot of a bundle: [`ContactConstraintPoint`] with a lane per contact.
///
/// The fields are laid out by the passes that read them (see [`ContactBundle`]): the anchors
/// and impulses the warm start needs first, then what the solve passes add, and last the
/// restitution pass's approach speed.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub struct ContactPointW {
    pub anchor_a: Vec2W,
    pub anchor_b: Vec2W,
    pub normal_impulse: FloatW,
    pub tangent_impulse: FloatW,
    pub base_separation: FloatW,
    pub normal_mass: FloatW,
    pub inv_normal_mass: FloatW,
    pub block_weight: FloatW,
    pub tangent_mass: FloatW,
    pub max_normal_impulse: FloatW,
    pub relative_velocity: FloatW,
}

/// [`NormalSoftness`] with a lane per contact.
#[derive(Clone, Copy, Debug, Default)]
pub struct NormalSoftnessW {
    pub bias_rate: FloatW,
    pub mass_scale: FloatW,
    pub compliance: FloatW,
}

/// [`LANES`] prepared contacts of one colour, one per lane.
///
/// A bundle is over a kilobyte and a large scene's bundles do not fit in the second-level
/// cache, so every pass streams them from further out; the layout keeps each pass's reads on
/// as few cache lines as it can. With eight lanes each wide field is half a 64-byte line and
/// the bundle and its points start on a line: the warm start reads the first five lines and
/// the first three of each point (11 of 22), the solve passes all but the three lines that
/// hold the restitution inputs (`restitution`, each point's `relative_velocity`). Measured in
/// `benches/results/NOTES.md`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct ContactBundle {
    /// Awake-array indices of body A per lane, or [`NULL_BODY`].
    pub body_a: [u32; LANES],
    /// Awake-array indices of body B per lane, or [`NULL_BODY`].
    pub body_b: [u32; LANES],
    pub inv_mass_a: FloatW,
    pub inv_inertia_a: FloatW,
    pub inv_mass_b: FloatW,
    pub inv_inertia_b: FloatW,
    pub normal: Vec2W,
    pub friction: FloatW,
    /// Points in use per lane (0 in unused lanes).
    pub point_counts: [u8; LANES],
    /// Lanes holding a contact; the rest are padding.
    pub lane_count: u8,
    /// Per slot: `None` when every contact of the bundle has the point, otherwise the lanes
    /// that have it (padding lanes count as having it: their results are never written).
    pub slot_lanes: [Option<LaneBits>; 2],
    /// Which lanes solve one friction row through the middle of their points.
    pub friction_rows: FrictionRows,
    pub softness: NormalSoftnessW,
    /// `K₁₂` per lane (see [`ContactConstraint::normal_coupling`]).
    pub normal_coupling: FloatW,
    pub points: [ContactPointW; 2],
    pub restitution: FloatW,
}

/// A set of a bundle's lanes as bits (bit `i` for lane `i`). Every pass reads the bundle's
/// slot lanes, so they are kept in two bytes rather than two wide masks (128 bytes of each
/// bundle that every iteration would stream through), and widened only where a bundle mixes
/// one- and two-point contacts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneBits(u8);

impl LaneBits {
    /// Lane `i` is in the set when `lanes[i]`.
    pub fn from_bools(lanes: [bool; LANES]) -> LaneBits {
        let bits = (0..LANES).fold(0u8, |bits, i| bits | (u8::from(lanes[i]) << i));
        LaneBits(bits)
    }

    /// The set as a wide mask.
    #[inline]
    pub fn mask(self) -> MaskW {
        MaskW::from_bools(core::array::from_fn(|i| self.0 >> i & 1 != 0))
    }

    /// Bit `i` set when lane `i` is in the set.
    pub fn bits(self) -> u32 {
        u32::from(self.0)
    }
}

/// Which friction rows a bundle's contacts solve (see `contact_constraint.rs`, "One friction
/// row for a flat manifold"). Each lane's result depends only on its own contact, whatever
/// its neighbours are: a mixed bundle gives every lane the operations of its own kind
/// (`solve_mixed_friction_rows`), so the physics does not depend on the lane width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrictionRows {
    /// Every contact a row per point.
    PerPoint,
    /// Every contact one row through the middle of its points.
    Shared,
    /// The contacts of these lanes one row, the others a row per point.
    Mixed(LaneBits),
}

impl FrictionRows {
    /// The rows for a bundle whose first `lane_count` lanes hold contacts, `shared[i]` for
    /// those with one row (padding lanes do not count).
    pub fn of(shared: [bool; LANES], lane_count: usize) -> FrictionRows {
        FrictionRows::from_bits(LaneBits::from_bools(shared).bits(), lane_count)
    }

    /// [`FrictionRows::of`] with the lanes as bits (bit `i` for lane `i`).
    #[inline]
    fn from_bits(shared: u32, lane_count: usize) -> FrictionRows {
        let real = (1u32 << lane_count.min(LANES)) - 1;
        match shared & real {
            0 => FrictionRows::PerPoint,
            bits if bits == real => FrictionRows::Shared,
            bits => FrictionRows::Mixed(LaneBits(bits as u8)),
        }
    }

    /// Whether the contact of lane `lane` (of a bundle with `lane_count` contacts) has one row.
    pub fn is_shared(self, lane: usize, lane_count: usize) -> bool {
        match self {
            FrictionRows::PerPoint => false,
            FrictionRows::Shared => lane < lane_count,
            FrictionRows::Mixed(lanes) => lanes.bits() >> lane & 1 != 0,
        }
    }
}

impl Default for ContactBundle {
    fn default() -> Self {
        ContactBundle::pack(&[])
    }
}

/// A lane with no contact: no bodies, no mass, no points.
fn padding_lane() -> ContactConstraint {
    ContactConstraint {
        body_a: NULL_BODY,
        body_b: NULL_BODY,
        softness: NormalSoftness {
            bias_rate: 0.0,
            mass_scale: 1.0,
            compliance: 0.0,
        },
        ..ContactConstraint::default()
    }
}

/// `FloatW` whose lane `i` is `f(&lanes[i])`.
#[inline]
fn lanes_of<T>(lanes: &[T; LANES], f: impl Fn(&T) -> f32) -> FloatW {
    FloatW::from_array(core::array::from_fn(|i| f(&lanes[i])))
}

/// `Vec2W` whose lane `i` is `f(&lanes[i])`.
#[inline]
fn vec_lanes_of<T>(lanes: &[T; LANES], f: impl Fn(&T) -> Vec2) -> Vec2W {
    Vec2W::from_lanes(core::array::from_fn(|i| f(&lanes[i])))
}

impl ContactPointW {
    fn pack(points: &[ContactConstraintPoint; LANES]) -> ContactPointW {
        ContactPointW {
            anchor_a: vec_lanes_of(points, |p| p.anchor_a),
            anchor_b: vec_lanes_of(points, |p| p.anchor_b),
            base_separation: lanes_of(points, |p| p.base_separation),
            normal_mass: lanes_of(points, |p| p.normal_mass),
            inv_normal_mass: lanes_of(points, |p| p.inv_normal_mass),
            block_weight: lanes_of(points, |p| p.block_weight),
            tangent_mass: lanes_of(points, |p| p.tangent_mass),
            normal_impulse: lanes_of(points, |p| p.normal_impulse),
            tangent_impulse: lanes_of(points, |p| p.tangent_impulse),
            max_normal_impulse: lanes_of(points, |p| p.max_normal_impulse),
            relative_velocity: lanes_of(points, |p| p.relative_velocity),
        }
    }

    /// The point of lane `lane`.
    fn lane(&self, lane: usize) -> ContactConstraintPoint {
        ContactConstraintPoint {
            anchor_a: self.anchor_a.to_lanes()[lane],
            anchor_b: self.anchor_b.to_lanes()[lane],
            base_separation: self.base_separation.lane(lane),
            normal_mass: self.normal_mass.lane(lane),
            inv_normal_mass: self.inv_normal_mass.lane(lane),
            block_weight: self.block_weight.lane(lane),
            tangent_mass: self.tangent_mass.lane(lane),
            normal_impulse: self.normal_impulse.lane(lane),
            tangent_impulse: self.tangent_impulse.lane(lane),
            max_normal_impulse: self.max_normal_impulse.lane(lane),
            relative_velocity: self.relative_velocity.lane(lane),
        }
    }
}

impl ContactBundle {
    /// Packs up to [`LANES`] prepared constraints, lane `i` from `constraints[i]`; the remaining
    /// lanes are padding. Extra constraints beyond [`LANES`] are ignored.
    pub fn pack(constraints: &[ContactConstraint]) -> ContactBundle {
        let lane_count = constraints.len().min(LANES);
        let lanes: [ContactConstraint; LANES] =
            core::array::from_fn(|i| constraints.get(i).copied().unwrap_or_else(padding_lane));
        let slot_lanes = core::array::from_fn(|slot| {
            let has: [bool; LANES] =
                core::array::from_fn(|i| i >= lane_count || slot < lanes[i].point_count);
            (!has.iter().all(|&h| h)).then(|| LaneBits::from_bools(has))
        });
        ContactBundle {
            body_a: lanes.map(|c| c.body_a),
            body_b: lanes.map(|c| c.body_b),
            inv_mass_a: lanes_of(&lanes, |c| c.inv_mass_a),
            inv_inertia_a: lanes_of(&lanes, |c| c.inv_inertia_a),
            inv_mass_b: lanes_of(&lanes, |c| c.inv_mass_b),
            inv_inertia_b: lanes_of(&lanes, |c| c.inv_inertia_b),
            normal: vec_lanes_of(&lanes, |c| c.normal),
            friction: lanes_of(&lanes, |c| c.friction),
            restitution: lanes_of(&lanes, |c| c.restitution),
            softness: NormalSoftnessW {
                bias_rate: lanes_of(&lanes, |c| c.softness.bias_rate),
                mass_scale: lanes_of(&lanes, |c| c.softness.mass_scale),
                compliance: lanes_of(&lanes, |c| c.softness.compliance),
            },
            normal_coupling: lanes_of(&lanes, |c| c.normal_coupling),
            points: core::array::from_fn(|slot| {
                ContactPointW::pack(&lanes.map(|c| c.points[slot]))
            }),
            point_counts: lanes.map(|c| c.point_count.min(2) as u8),
            lane_count: lane_count as u8,
            slot_lanes,
            friction_rows: FrictionRows::of(lanes.map(|c| c.shared_friction), lane_count),
        }
    }

    /// The constraint in lane `lane`, as the scalar path would hold it.
    pub fn lane(&self, lane: usize) -> ContactConstraint {
        ContactConstraint {
            body_a: self.body_a[lane],
            body_b: self.body_b[lane],
            inv_mass_a: self.inv_mass_a.lane(lane),
            inv_inertia_a: self.inv_inertia_a.lane(lane),
            inv_mass_b: self.inv_mass_b.lane(lane),
            inv_inertia_b: self.inv_inertia_b.lane(lane),
            normal: self.normal.to_lanes()[lane],
            friction: self.friction.lane(lane),
            restitution: self.restitution.lane(lane),
            softness: NormalSoftness {
                bias_rate: self.softness.bias_rate.lane(lane),
                mass_scale: self.softness.mass_scale.lane(lane),
                compliance: self.softness.compliance.lane(lane),
            },
            normal_coupling: self.normal_coupling.lane(lane),
            points: [self.points[0].lane(lane), self.points[1].lane(lane)],
            point_count: usize::from(self.point_counts[lane]),
            shared_friction: self.friction_rows.is_shared(lane, self.lane_count()),
        }
    }

    /// The contacts in use.
    pub fn lane_count(&self) -> usize {
        usize::from(self.lane_count)
    }

    /// The friction axis per lane, `right_perp(n)`.
    #[inline]
    fn tangent(&self) -> Vec2W {
        self.normal.right_perp()
    }
}

/// Prepares `contacts` (at most [`LANES`]) into one bundle: the scalar
/// [`prepare_contact`](crate::contact_constraint::prepare_contact) for all lanes at once,
/// operation for operation, so lane `i` holds the bits the scalar preparation gives for
/// `contacts[i]`. `states` is the whole awake array. (The step prepares bundles in place,
/// [`prepare_bundle_in_place`]; this is the form tests and checks compare with.)
#[cfg(test)]
pub fn prepare_bundle<C: ContactRecord>(
    contacts: &[C],
    states: &[BodyState],
    softness: &ContactSoftness,
    warm_start: bool,
) -> ContactBundle {
    let mut bundle = ContactBundle::pack(&[]);
    let records: Vec<&C> = contacts.iter().collect();
    prepare_bundle_in_place(&mut bundle, &records, states, softness, warm_start);
    bundle
}

/// [`prepare_bundle`] written straight into `bundle`, every field overwritten.
///
/// A bundle is over a kilobyte; returning one by value and assigning it into the bundle array
/// costs two block copies per bundle (the compiler does not build the result in place), about
/// a third of the prepare stage on a 15,000-contact pyramid. The step's prepare stage
/// therefore writes the fields where they live.
#[inline]
pub fn prepare_bundle_in_place<C: ContactRecord>(
    bundle: &mut ContactBundle,
    contacts: &[&C],
    states: &[BodyState],
    softness: &ContactSoftness,
    warm_start: bool,
) {
    let lane_count = contacts.len().min(LANES);
    let mut room = MaybeUninit::uninit();
    let inputs = LaneInputs::read(&mut room, contacts, states.len());
    let [inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b] =
        inputs.masses.map(FloatW::from_array);
    bundle.body_a = inputs.body_a;
    bundle.body_b = inputs.body_b;
    bundle.inv_mass_a = inv_mass_a;
    bundle.inv_inertia_a = inv_inertia_a;
    bundle.inv_mass_b = inv_mass_b;
    bundle.inv_inertia_b = inv_inertia_b;
    bundle.normal = Vec2W::from_lanes(inputs.normal);
    bundle.friction = FloatW::from_array(inputs.friction);
    bundle.restitution = FloatW::from_array(inputs.restitution);
    bundle.softness = softness_for_bodies(softness, inv_mass_a, inv_mass_b);
    bundle.point_counts = inputs.point_counts;
    bundle.lane_count = lane_count as u8;
    let state_a = gather(states, &bundle.body_a);
    let state_b = gather(states, &bundle.body_b);
    let warm_scale = FloatW::splat(if warm_start { 1.0 } else { 0.0 });
    for (slot, input) in inputs.points.iter().enumerate() {
        let exists: [bool; LANES] =
            core::array::from_fn(|i| slot < usize::from(inputs.point_counts[i]));
        let has_slot: [bool; LANES] = core::array::from_fn(|i| i >= lane_count || exists[i]);
        bundle.slot_lanes[slot] =
            (!has_slot.iter().all(|&h| h)).then(|| LaneBits::from_bools(has_slot));
        let point = prepare_point(bundle, input, &state_a, &state_b, warm_scale);
        bundle.points[slot] = point.inert_outside(MaskW::from_bools(exists));
    }
    prepare_normal_block_w(bundle);
    prepare_shared_friction_w(bundle);
}

/// [`ContactSoftness::for_bodies`] per lane: the fixed softness where either inverse mass is
/// zero, else the dynamic one stiffened by the mass ratio.
#[inline]
fn softness_for_bodies(
    softness: &ContactSoftness,
    inv_mass_a: FloatW,
    inv_mass_b: FloatW,
) -> NormalSoftnessW {
    let fixed = inv_mass_a.cmp_eq(FloatW::zero()) | inv_mass_b.cmp_eq(FloatW::zero());
    let pick = |fixed_value: f32, dynamic_value: f32| {
        FloatW::select(
            fixed,
            FloatW::splat(fixed_value),
            FloatW::splat(dynamic_value),
        )
    };
    let (f, d) = (softness.fixed, softness.dynamic);
    let mass_ratio = inv_mass_a.max(inv_mass_b) / inv_mass_a.min(inv_mass_b);
    let ratio = FloatW::select(fixed, FloatW::one(), mass_ratio);
    let compliance =
        pick(f.impulse_scale, d.impulse_scale) / (pick(f.mass_scale, d.mass_scale) * ratio);
    NormalSoftnessW {
        bias_rate: pick(f.bias_rate, d.bias_rate),
        mass_scale: FloatW::one() / (FloatW::one() + compliance),
        compliance,
    }
}

/// The prepared slot of every lane (the loop body of `prepare_contact`, lanewise).
#[inline]
fn prepare_point(
    c: &ContactBundle,
    input: &PointInputs,
    state_a: &BodyStateW,
    state_b: &BodyStateW,
    warm_scale: FloatW,
) -> ContactPointW {
    let (r_a, r_b) = (
        Vec2W::from_lanes(input.anchor_a),
        Vec2W::from_lanes(input.anchor_b),
    );
    let velocity_a = point_velocity(state_a, r_a);
    let velocity_b = point_velocity(state_b, r_b);
    let k = inverse_effective_mass_w(c, r_a, r_b, c.normal);
    let movable = k.cmp_gt(FloatW::zero());
    ContactPointW {
        anchor_a: r_a,
        anchor_b: r_b,
        base_separation: FloatW::from_array(input.separation) - c.normal.dot(r_b - r_a),
        normal_mass: FloatW::select(movable, FloatW::one() / k, FloatW::zero()),
        inv_normal_mass: FloatW::select(movable, k, FloatW::one()),
        block_weight: FloatW::select(movable, FloatW::one(), FloatW::zero()),
        tangent_mass: effective_mass_w(c, r_a, r_b, c.tangent()),
        normal_impulse: warm_scale * FloatW::from_array(input.normal_impulse),
        tangent_impulse: warm_scale * FloatW::from_array(input.tangent_impulse),
        max_normal_impulse: FloatW::zero(),
        relative_velocity: c.normal.dot(velocity_b - velocity_a),
    }
}

/// [`crate::contact_constraint::inverse_effective_mass`] per lane.
#[inline]
fn inverse_effective_mass_w(c: &ContactBundle, r_a: Vec2W, r_b: Vec2W, axis: Vec2W) -> FloatW {
    let rn_a = r_a.cross(axis);
    let rn_b = r_b.cross(axis);
    c.inv_mass_a + c.inv_mass_b + c.inv_inertia_a * rn_a * rn_a + c.inv_inertia_b * rn_b * rn_b
}

/// The normal block's coupling, or the second point made inert where the two points are
/// nearly one (`prepare_normal_block` of the scalar path, per lane).
#[inline]
fn prepare_normal_block_w(bundle: &mut ContactBundle) {
    let [p1, p2] = bundle.points;
    let n = bundle.normal;
    let coupling = bundle.inv_mass_a
        + bundle.inv_mass_b
        + bundle.inv_inertia_a * p1.anchor_a.cross(n) * p2.anchor_a.cross(n)
        + bundle.inv_inertia_b * p1.anchor_b.cross(n) * p2.anchor_b.cross(n);
    let both = (p1.block_weight * p2.block_weight).cmp_eq(FloatW::zero());
    let (k11, k22) = (p1.inv_normal_mass, p2.inv_normal_mass);
    let largest = k11.max(k22);
    let conditioned = (largest * largest)
        .cmp_lt(FloatW::splat(MAX_CONDITION) * (k11 * k22 - coupling * coupling));
    let fold = !both & !conditioned;
    let zero = FloatW::zero();
    bundle.normal_coupling = FloatW::select(!both & conditioned, coupling, zero);
    let points = &mut bundle.points;
    points[0].normal_impulse = FloatW::select(
        fold,
        p1.normal_impulse + p2.normal_impulse,
        p1.normal_impulse,
    );
    points[0].tangent_impulse = FloatW::select(
        fold,
        p1.tangent_impulse + p2.tangent_impulse,
        p1.tangent_impulse,
    );
    points[1].normal_impulse = FloatW::select(fold, zero, p2.normal_impulse);
    points[1].tangent_impulse = FloatW::select(fold, zero, p2.tangent_impulse);
    points[1].block_weight = FloatW::select(fold, zero, p2.block_weight);
}

/// `prepare_shared_friction` of the scalar path, per lane: flat manifolds get one friction row
/// (the first point keeps its mass at the middle; both points half the summed impulse).
#[inline]
fn prepare_shared_friction_w(bundle: &mut ContactBundle) {
    let [p1, p2] = bundle.points;
    let zero = FloatW::zero();
    let active = !p1.block_weight.cmp_eq(zero) & !p2.block_weight.cmp_eq(zero);
    let shared = active & is_flat_w(p1.anchor_a, p2.anchor_a, bundle.normal);
    bundle.friction_rows = FrictionRows::from_bits(shared.to_bitmask(), bundle.lane_count());
    if bundle.friction_rows == FrictionRows::PerPoint {
        return;
    }
    let mid_a = middle_w(p1.anchor_a, p2.anchor_a);
    let mid_b = middle_w(p1.anchor_b, p2.anchor_b);
    let mass = effective_mass_w(bundle, mid_a, mid_b, bundle.tangent());
    let half = (p1.tangent_impulse + p2.tangent_impulse) * FloatW::splat(0.5);
    let points = &mut bundle.points;
    points[0].tangent_mass = FloatW::select(shared, mass, p1.tangent_mass);
    points[0].tangent_impulse = FloatW::select(shared, half, p1.tangent_impulse);
    points[1].tangent_impulse = FloatW::select(shared, half, p2.tangent_impulse);
}

/// [`crate::contact_constraint::is_flat`] per lane.
#[inline]
fn is_flat_w(anchor_1: Vec2W, anchor_2: Vec2W, normal: Vec2W) -> MaskW {
    let d = anchor_1 - anchor_2;
    let slope = FloatW::splat(FLAT_MANIFOLD_SLOPE);
    d.dot(normal)
        .abs()
        .cmp_le(slope * d.dot(normal.right_perp()).abs())
}

/// [`crate::contact_constraint::middle`] per lane.
#[inline]
fn middle_w(anchor_1: Vec2W, anchor_2: Vec2W) -> Vec2W {
    (anchor_1 + anchor_2) * FloatW::splat(0.5)
}

/// [`crate::contact_constraint::effective_mass`] per lane.
#[inline]
fn effective_mass_w(c: &ContactBundle, r_a: Vec2W, r_b: Vec2W, axis: Vec2W) -> FloatW {
    let rn_a = r_a.cross(axis);
    let rn_b = r_b.cross(axis);
    let k =
        c.inv_mass_a + c.inv_mass_b + c.inv_inertia_a * rn_a * rn_a + c.inv_inertia_b * rn_b * rn_b;
    FloatW::select(k.cmp_gt(FloatW::zero()), FloatW::one() / k, FloatW::zero())
}

impl ContactPointW {
    /// This slot where `keep` is set, and the inert point
    /// ([`ContactConstraintPoint::INERT`]) elsewhere, as the scalar preparation leaves a slot
    /// past the manifold's point count.
    fn inert_outside(self, keep: MaskW) -> ContactPointW {
        let inert = ContactConstraintPoint::INERT;
        let f = |x: FloatW, default: f32| FloatW::select(keep, x, FloatW::splat(default));
        let v = |x: Vec2W| Vec2W::select(keep, x, Vec2W::zero());
        ContactPointW {
            anchor_a: v(self.anchor_a),
            anchor_b: v(self.anchor_b),
            base_separation: f(self.base_separation, inert.base_separation),
            normal_mass: f(self.normal_mass, inert.normal_mass),
            inv_normal_mass: f(self.inv_normal_mass, inert.inv_normal_mass),
            block_weight: f(self.block_weight, inert.block_weight),
            tangent_mass: f(self.tangent_mass, inert.tangent_mass),
            normal_impulse: f(self.normal_impulse, inert.normal_impulse),
            tangent_impulse: f(self.tangent_impulse, inert.tangent_impulse),
            max_normal_impulse: f(self.max_normal_impulse, inert.max_normal_impulse),
            relative_velocity: f(self.relative_velocity, inert.relative_velocity),
        }
    }
}

/// Writes the impulses of every lane back into its contact record's manifold (the `i`-th of
/// `contacts` is lane `i`), exactly as the scalar
/// [`crate::contact_solver::store_impulses`]: non-finite values are stored as zero.
pub fn store_bundle_impulses<'r, C: ContactRecord + 'r>(
    bundle: &ContactBundle,
    contacts: impl IntoIterator<Item = &'r mut C>,
) {
    // Non-finite values (from a body that blew up) become zero, a whole bundle at a time.
    let points = bundle.points.each_ref().map(|p| {
        [
            p.normal_impulse,
            p.tangent_impulse,
            p.max_normal_impulse,
            p.relative_velocity,
        ]
        .map(|value| value.finite_or_zero().to_array())
    });
    let lanes = contacts.into_iter().take(bundle.lane_count()).enumerate();
    for (lane, record) in lanes {
        let manifold = &mut record.solver_contact_mut().manifold;
        let count = usize::from(bundle.point_counts[lane]);
        for (mp, [normal, tangent, max_normal, velocity]) in
            manifold.points.iter_mut().zip(&points).take(count)
        {
            mp.normal_impulse = normal[lane];
            mp.tangent_impulse = tangent[lane];
            mp.max_normal_impulse = max_normal[lane];
            mp.normal_velocity = velocity[lane];
        }
    }
}

/// The bias and softness of one normal row per lane
/// ([`crate::contact_solver::NormalTerms`]).
#[derive(Clone, Copy, Debug)]
pub struct NormalTermsW {
    pub bias: FloatW,
    pub mass_scale: FloatW,
    pub compliance: FloatW,
}

impl NormalTermsW {
    /// A rigid row with bias `bias`.
    #[inline]
    fn rigid(bias: FloatW) -> NormalTermsW {
        NormalTermsW {
            bias,
            mass_scale: FloatW::one(),
            compliance: FloatW::zero(),
        }
    }

    /// Per lane: the speculative terms where `separation > 0`, else `overlapping`, exactly as
    /// the scalar `if separation > 0.0 { speculative } else { … }`.
    #[inline]
    fn speculative_or(separation: FloatW, inv_h: f32, overlapping: NormalTermsW) -> NormalTermsW {
        let speculative = separation.cmp_gt(FloatW::zero());
        NormalTermsW {
            bias: FloatW::select(
                speculative,
                separation * FloatW::splat(inv_h),
                overlapping.bias,
            ),
            mass_scale: FloatW::select(speculative, FloatW::one(), overlapping.mass_scale),
            compliance: FloatW::select(speculative, FloatW::zero(), overlapping.compliance),
        }
    }
}

/// [`crate::contact_solver::NormalBias`] for bundles: the same rule, lane by lane.
pub trait NormalBiasW {
    fn normal_terms_w(&self, softness: &NormalSoftnessW, separation: FloatW) -> NormalTermsW;
}

impl NormalBiasW for SoftBias {
    #[inline]
    fn normal_terms_w(&self, softness: &NormalSoftnessW, separation: FloatW) -> NormalTermsW {
        let push = FloatW::splat(-self.push_max_speed);
        let overlapping = NormalTermsW {
            bias: (softness.bias_rate * separation).max(push),
            mass_scale: softness.mass_scale,
            compliance: softness.compliance,
        };
        NormalTermsW::speculative_or(separation, self.inv_h, overlapping)
    }
}

impl NormalBiasW for RelaxBias {
    #[inline]
    fn normal_terms_w(&self, _softness: &NormalSoftnessW, separation: FloatW) -> NormalTermsW {
        NormalTermsW::speculative_or(separation, self.inv_h, NormalTermsW::rigid(FloatW::zero()))
    }
}

impl NormalBiasW for BaumgarteBias {
    #[inline]
    fn normal_terms_w(&self, _softness: &NormalSoftnessW, separation: FloatW) -> NormalTermsW {
        let excess_overlap = (-separation - FloatW::splat(self.linear_slop)).max(FloatW::zero());
        let bias = FloatW::splat(-self.baumgarte) * excess_overlap * FloatW::splat(self.inv_h);
        NormalTermsW::speculative_or(separation, self.inv_h, NormalTermsW::rigid(bias))
    }
}

/// The two gathered bodies of a bundle.
struct BundlePair {
    a: BodyStateW,
    b: BodyStateW,
}

impl BundlePair {
    #[inline]
    fn load(bundle: &ContactBundle, bodies: &(impl BodyLanes + ?Sized)) -> BundlePair {
        BundlePair {
            a: bodies.gather(&bundle.body_a),
            b: bodies.gather(&bundle.body_b),
        }
    }

    #[inline]
    fn store(&self, bundle: &ContactBundle, bodies: &mut (impl BodyLanes + ?Sized)) {
        bodies.scatter(&bundle.body_a, &self.a);
        bodies.scatter(&bundle.body_b, &self.b);
    }

    /// `vB + ωB × rB − vA − ωA × rA`.
    #[inline]
    fn relative_velocity(&self, p: &ContactPointW) -> Vec2W {
        point_velocity(&self.b, p.anchor_b) - point_velocity(&self.a, p.anchor_a)
    }

    /// Applies `impulse` to B and its opposite to A at the point's anchors.
    #[inline]
    fn apply(&mut self, c: &ContactBundle, p: &ContactPointW, impulse: Vec2W) {
        apply_impulse(
            &mut self.a,
            c.inv_mass_a,
            c.inv_inertia_a,
            p.anchor_a,
            -impulse,
        );
        apply_impulse(
            &mut self.b,
            c.inv_mass_b,
            c.inv_inertia_b,
            p.anchor_b,
            impulse,
        );
    }

    /// Applies two impulses at once, each at its point (the normal block's answer), as
    /// `ContactPair::apply_two` of the scalar path.
    #[inline]
    fn apply_two(
        &mut self,
        c: &ContactBundle,
        (p1, impulse1): (&ContactPointW, Vec2W),
        (p2, impulse2): (&ContactPointW, Vec2W),
    ) {
        self.a.linear_velocity -= c.inv_mass_a * (impulse1 + impulse2);
        self.a.angular_velocity -=
            c.inv_inertia_a * (p1.anchor_a.cross(impulse1) + p2.anchor_a.cross(impulse2));
        self.b.linear_velocity += c.inv_mass_b * (impulse1 + impulse2);
        self.b.angular_velocity +=
            c.inv_inertia_b * (p1.anchor_b.cross(impulse1) + p2.anchor_b.cross(impulse2));
    }

    /// `s = base_separation + n·(ΔpB − ΔpA + R(ΔqB)·rB − R(ΔqA)·rA)`.
    #[inline]
    fn current_separation(&self, normal: Vec2W, p: &ContactPointW) -> FloatW {
        let moved_b = self.b.delta_position + self.b.delta_rotation.rotate(p.anchor_b);
        let moved_a = self.a.delta_position + self.a.delta_rotation.rotate(p.anchor_a);
        normal.dot(moved_b - moved_a) + p.base_separation
    }

    /// The velocities, to restore lanes that must not change.
    #[inline]
    fn velocities(&self) -> [(Vec2W, FloatW); 2] {
        [
            (self.a.linear_velocity, self.a.angular_velocity),
            (self.b.linear_velocity, self.b.angular_velocity),
        ]
    }

    /// Keeps the current velocities in the lanes of `keep_new` and `before` elsewhere.
    #[inline]
    fn keep_velocities(&mut self, keep_new: MaskW, before: [(Vec2W, FloatW); 2]) {
        for (body, (v, w)) in [&mut self.a, &mut self.b].into_iter().zip(before) {
            body.linear_velocity = Vec2W::select(keep_new, body.linear_velocity, v);
            body.angular_velocity = FloatW::select(keep_new, body.angular_velocity, w);
        }
    }
}

/// Velocity of the material point at `r` from the centre of mass.
#[inline]
fn point_velocity(body: &BodyStateW, r: Vec2W) -> Vec2W {
    body.linear_velocity + cross_sv(body.angular_velocity, r)
}

/// Applies `impulse` at `r` to a body with the given inverse mass and inertia.
#[inline]
fn apply_impulse(
    body: &mut BodyStateW,
    inv_mass: FloatW,
    inv_inertia: FloatW,
    r: Vec2W,
    impulse: Vec2W,
) {
    body.linear_velocity += inv_mass * impulse;
    body.angular_velocity += inv_inertia * r.cross(impulse);
}

/// [`crate::contact_solver::clamp_accumulated`] per lane.
#[inline]
pub(crate) fn clamp_accumulated_w(
    accumulated: FloatW,
    delta: FloatW,
    lower: FloatW,
    upper: FloatW,
) -> (FloatW, FloatW) {
    let clamped = (accumulated + delta).max(lower).min(upper);
    (clamped, clamped - accumulated)
}

/// Runs `row` for slot `slot` and, if some contact lacks that slot, undoes its velocity
/// changes in those lanes.
#[inline]
fn in_slot_lanes(
    bundle: &mut ContactBundle,
    pair: &mut BundlePair,
    slot: usize,
    row: impl FnOnce(&mut ContactBundle, &mut BundlePair),
) {
    match bundle.slot_lanes[slot] {
        None => row(bundle, pair),
        Some(lanes) => {
            let before = pair.velocities();
            row(bundle, pair);
            pair.keep_velocities(lanes.mask(), before);
        }
    }
}

/// Applies every point's accumulated normal and friction impulse
/// ([`crate::contact_solver::warm_start_contacts`] per lane).
pub fn warm_start_bundles(bundles: &mut [ContactBundle], bodies: &mut (impl BodyLanes + ?Sized)) {
    for c in bundles {
        let mut pair = BundlePair::load(c, bodies);
        let tangent = c.tangent();
        for slot in 0..2 {
            in_slot_lanes(c, &mut pair, slot, |c, pair| {
                let p = c.points[slot];
                let impulse = p.normal_impulse * c.normal + p.tangent_impulse * tangent;
                pair.apply(c, &p, impulse);
            });
        }
        pair.store(c, bodies);
    }
}

/// One pass over `bundles` ([`crate::contact_solver::solve_contacts`] per lane).
pub fn solve_bundles<B: NormalBiasW>(
    bundles: &mut [ContactBundle],
    bodies: &mut (impl BodyLanes + ?Sized),
    bias: &B,
    rows: ContactRows,
) {
    for c in bundles {
        let mut pair = BundlePair::load(c, bodies);
        solve_normal_block_w(c, &mut pair, bias);
        if rows == ContactRows::NormalAndFriction {
            solve_friction_rows_w(c, &mut pair);
        }
        pair.store(c, bodies);
    }
}

/// The non-penetration rows of every lane, solved together
/// ([`crate::contact_solver`]'s `solve_normal_rows` per lane).
#[inline]
fn solve_normal_block_w<B: NormalBiasW>(c: &mut ContactBundle, pair: &mut BundlePair, bias: &B) {
    let row = |pair: &BundlePair, p: &ContactPointW| {
        let terms = bias.normal_terms_w(&c.softness, pair.current_separation(c.normal, p));
        let vn = pair.relative_velocity(p).dot(c.normal);
        block_row_w(p, &terms, vn)
    };
    let (row1, row2) = (row(pair, &c.points[0]), row(pair, &c.points[1]));
    let (new1, new2) = solve_block(row1, row2, c.normal_coupling);
    let [p1, p2] = c.points;
    let (delta1, delta2) = (new1 - p1.normal_impulse, new2 - p2.normal_impulse);
    pair.apply_two(c, (&p1, delta1 * c.normal), (&p2, delta2 * c.normal));
    for (point, new) in c.points.iter_mut().zip([new1, new2]) {
        point.normal_impulse = new;
        point.max_normal_impulse = new.max(point.max_normal_impulse);
    }
}

/// [`crate::contact_solver`]'s `block_row` per lane.
#[inline]
fn block_row_w(p: &ContactPointW, terms: &NormalTermsW, vn: FloatW) -> BlockRow<FloatW> {
    let k = p.inv_normal_mass;
    BlockRow {
        k: k * (FloatW::one() + terms.compliance),
        inv_k: p.normal_mass * terms.mass_scale,
        e: p.block_weight * (-(vn + terms.bias) - k * terms.compliance * p.normal_impulse),
        accumulated: p.normal_impulse,
    }
}

/// Adds `delta` to slot `slot`'s accumulated normal impulse, clamped to stay non-negative,
/// applies the part that survives, and records the largest accumulated impulse.
#[inline]
fn apply_normal_impulse(c: &mut ContactBundle, slot: usize, pair: &mut BundlePair, delta: FloatW) {
    let p = c.points[slot];
    let infinity = FloatW::splat(f32::INFINITY);
    let (accumulated, applied) =
        clamp_accumulated_w(p.normal_impulse, delta, FloatW::zero(), infinity);
    pair.apply(c, &p, applied * c.normal);
    let point = &mut c.points[slot];
    point.normal_impulse = accumulated;
    // `accumulated` first: a NaN there (from a body that blew up) keeps the recorded value.
    point.max_normal_impulse = accumulated.max(point.max_normal_impulse);
}

/// The Coulomb friction rows of every lane: one row through the middle where the bundle's
/// [`FrictionRows`] say so, a row per point elsewhere. (Inlined into the pass: called, it
/// would spill the two bodies' lanes around every bundle.)
#[inline(always)]
fn solve_friction_rows_w(c: &mut ContactBundle, pair: &mut BundlePair) {
    match c.friction_rows {
        FrictionRows::PerPoint => {
            for slot in 0..2 {
                in_slot_lanes(c, pair, slot, |c, pair| solve_friction_row(c, slot, pair));
            }
        }
        FrictionRows::Shared => solve_shared_friction_row(c, pair),
        FrictionRows::Mixed(lanes) => solve_mixed_friction_rows(c, pair, lanes.mask()),
    }
}

/// A mixed bundle: the first row in every lane, each lane choosing its own anchors, limit and
/// impulses, then the second point's row with its effect kept only in the lanes with a row
/// per point. (Inlined too, for the same reason.)
#[inline(always)]
fn solve_mixed_friction_rows(c: &mut ContactBundle, pair: &mut BundlePair, shared: MaskW) {
    in_slot_lanes(c, pair, 0, |c, pair| {
        solve_first_friction_row(c, pair, shared)
    });
    let before = pair.velocities();
    let kept = c.points[1].tangent_impulse;
    in_slot_lanes(c, pair, 1, |c, pair| solve_friction_row(c, 1, pair));
    pair.keep_velocities(!shared, before);
    let point = &mut c.points[1];
    point.tangent_impulse = FloatW::select(shared, kept, point.tangent_impulse);
}

/// The scalar `solve_shared_friction_row` per lane: one row at the middle of the two points,
/// limited by `μ·(λ₁ + λ₂)`, each point keeping half the accumulated impulse.
#[inline]
fn solve_shared_friction_row(c: &mut ContactBundle, pair: &mut BundlePair) {
    let [p1, p2] = c.points;
    let tangent = c.tangent();
    let mid = ContactPointW {
        anchor_a: middle_w(p1.anchor_a, p2.anchor_a),
        anchor_b: middle_w(p1.anchor_b, p2.anchor_b),
        ..ContactPointW::default()
    };
    let vt = pair.relative_velocity(&mid).dot(tangent);
    let limit = c.friction * (p1.normal_impulse + p2.normal_impulse);
    let accumulated = p1.tangent_impulse + p2.tangent_impulse;
    let (accumulated, applied) =
        clamp_accumulated_w(accumulated, -p1.tangent_mass * vt, -limit, limit);
    pair.apply(c, &mid, applied * tangent);
    let half = accumulated * FloatW::splat(0.5);
    c.points[0].tangent_impulse = half;
    c.points[1].tangent_impulse = half;
}

/// The first friction row of a mixed bundle: in the `shared` lanes the row at the middle
/// ([`solve_shared_friction_row`]), elsewhere the first point's own row
/// ([`solve_friction_row`]) — each lane's operations exactly those of its kind, picked by
/// selects rather than computed by blending.
#[inline]
fn solve_first_friction_row(c: &mut ContactBundle, pair: &mut BundlePair, shared: MaskW) {
    let [p1, p2] = c.points;
    let tangent = c.tangent();
    let row = ContactPointW {
        anchor_a: Vec2W::select(shared, middle_w(p1.anchor_a, p2.anchor_a), p1.anchor_a),
        anchor_b: Vec2W::select(shared, middle_w(p1.anchor_b, p2.anchor_b), p1.anchor_b),
        ..ContactPointW::default()
    };
    let vt = pair.relative_velocity(&row).dot(tangent);
    let limit = FloatW::select(
        shared,
        c.friction * (p1.normal_impulse + p2.normal_impulse),
        c.friction * p1.normal_impulse,
    );
    let accumulated = FloatW::select(
        shared,
        p1.tangent_impulse + p2.tangent_impulse,
        p1.tangent_impulse,
    );
    let (accumulated, applied) =
        clamp_accumulated_w(accumulated, -p1.tangent_mass * vt, -limit, limit);
    pair.apply(c, &row, applied * tangent);
    let half = accumulated * FloatW::splat(0.5);
    c.points[0].tangent_impulse = FloatW::select(shared, half, accumulated);
    c.points[1].tangent_impulse = FloatW::select(shared, half, p2.tangent_impulse);
}

/// The Coulomb friction row of slot `slot`.
#[inline]
fn solve_friction_row(c: &mut ContactBundle, slot: usize, pair: &mut BundlePair) {
    let p = c.points[slot];
    let tangent = c.tangent();
    let vt = pair.relative_velocity(&p).dot(tangent);
    let limit = c.friction * p.normal_impulse;
    let (accumulated, applied) =
        clamp_accumulated_w(p.tangent_impulse, -p.tangent_mass * vt, -limit, limit);
    pair.apply(c, &p, applied * tangent);
    c.points[slot].tangent_impulse = accumulated;
}

/// Restitution per lane ([`crate::contact_solver::apply_restitution`]): only lanes whose
/// contact bounces and whose point approached faster than `threshold` and was pushed change.
pub fn restitution_bundles(
    bundles: &mut [ContactBundle],
    bodies: &mut (impl BodyLanes + ?Sized),
    threshold: f32,
) {
    for c in bundles {
        let bounces = !c.restitution.cmp_eq(FloatW::zero());
        if !bounces.any() {
            continue;
        }
        let mut pair = BundlePair::load(c, bodies);
        for slot in 0..2 {
            let p = c.points[slot];
            let fast = !p.relative_velocity.cmp_gt(FloatW::splat(-threshold));
            let pushed = !p.max_normal_impulse.cmp_eq(FloatW::zero());
            let has_slot =
                c.slot_lanes[slot].map_or(MaskW::from_bools([true; LANES]), LaneBits::mask);
            let in_block = !p.block_weight.cmp_eq(FloatW::zero());
            let active = bounces & fast & pushed & has_slot & in_block;
            if !active.any() {
                continue;
            }
            let before = pair.velocities();
            let vn = pair.relative_velocity(&p).dot(c.normal);
            let delta = -p.normal_mass * (vn + c.restitution * p.relative_velocity);
            apply_normal_impulse(c, slot, &mut pair, delta);
            pair.keep_velocities(active, before);
            let point = &mut c.points[slot];
            point.normal_impulse = FloatW::select(active, point.normal_impulse, p.normal_impulse);
            point.max_normal_impulse =
                FloatW::select(active, point.max_normal_impulse, p.max_normal_impulse);
        }
        pair.store(c, bodies);
    }
}

mod inputs;
#[cfg(test)]
mod tests;
