//! [`LANES`] revolute joints of one colour solved at once, one joint per lane.
//!
//! ## Why
//!
//! A hinge's pass is a long chain of dependent scalar operations: rotate the anchors, build and
//! factor `K`, the hinge turn, four angle rows each reading what the last one left, the point
//! block. Run joint after joint, the processor waits on that chain: on the ragdoll scene (rain)
//! the angle rows alone took 30 % of a step's time. The joints of one colour share no dynamic
//! body, so [`LANES`] of them are independent problems that one pass of the chain solves
//! together. The joint passes hand every full group of a colour's joints to [`RevoluteLanes`]
//! when all of its joints are hinges (`joint_passes.rs`); the block sizes of joint entries are
//! multiples of [`LANES`], so only a colour's last few joints fall outside a group. The group
//! is packed into lanes once, when the step prepares its joints, and its impulses go back into
//! the joints after the step's last velocity pass; in between, every pass works on the lanes.
//!
//! ## Same operations, same bits
//!
//! The overflow joints (and every joint that is not in a full group of hinges) still run the
//! scalar kernel of `revolute.rs`, and the coloured and overflow paths must agree to the bit
//! (the solver's determinism contract: any worker count, any lane width). So every function
//! here is the scalar one with `f32` replaced by [`FloatW`], operation for operation and in
//! the same order — including the multiplications by 1 and additions of 0 that the scalar code
//! performs on a rigid row, since they can flip the sign of a zero. Where the scalar code
//! branches per joint, each lane computes both sides and a select keeps the one the scalar
//! code would have taken; a row the joint does not have (its switch off) leaves its
//! accumulator, the row's velocity and the pending turn exactly as they were. The joint angle's
//! `atan2` runs per lane through the scalar function (only when some lane reads the angle).
//! The tests solve random hinges both ways and compare every bit.

use super::revolute::{HOLD_FRACTION, HOLD_SLACK};
use super::{JointConstraint, JointKind, JointParams, RevoluteJoint};
use crate::contact_wide::clamp_accumulated_w;
use crate::gather_scatter::{BodyLanes, BodyStateW};
use crate::softness::Softness;
use crate::wide::{FloatW, LANES, MaskW, RotW, Vec2W, cross_sv, rows_to_lanes};
use core_soa::{NULL_BODY, Rot, Vec2};

/// A `Softness` per lane.
#[derive(Clone, Copy, Debug)]
struct SoftnessW {
    bias_rate: FloatW,
    mass_scale: FloatW,
    impulse_scale: FloatW,
}

impl SoftnessW {
    /// The same softness in every lane.
    fn splat(s: &Softness) -> SoftnessW {
        SoftnessW {
            bias_rate: FloatW::splat(s.bias_rate),
            mass_scale: FloatW::splat(s.mass_scale),
            impulse_scale: FloatW::splat(s.impulse_scale),
        }
    }
}

/// A row's terms per lane (`RowTerms`).
#[derive(Clone, Copy)]
struct TermsW {
    bias: FloatW,
    mass_scale: FloatW,
    impulse_scale: FloatW,
}

impl TermsW {
    fn rigid() -> TermsW {
        TermsW {
            bias: FloatW::zero(),
            mass_scale: FloatW::one(),
            impulse_scale: FloatW::zero(),
        }
    }

    fn spring(s: &SoftnessW, c: FloatW) -> TermsW {
        TermsW {
            bias: s.bias_rate * c,
            mass_scale: s.mass_scale,
            impulse_scale: s.impulse_scale,
        }
    }

    /// `RowTerms::limit`: speculative (`bias = c/h`, rigid) where `c > 0`, else the equality
    /// row of the pass.
    fn limit(s: &SoftnessW, c: FloatW, use_bias: bool, inv_h: FloatW) -> TermsW {
        let closed = if use_bias {
            TermsW::spring(s, c)
        } else {
            TermsW::rigid()
        };
        let open = c.cmp_gt(FloatW::zero());
        TermsW {
            bias: FloatW::select(open, c * inv_h, closed.bias),
            mass_scale: FloatW::select(open, FloatW::one(), closed.mass_scale),
            impulse_scale: FloatW::select(open, FloatW::zero(), closed.impulse_scale),
        }
    }

    /// `−m·mass_scale·(Ċ + bias) − impulse_scale·Λ`.
    fn impulse(&self, mass: FloatW, velocity: FloatW, accumulated: FloatW) -> FloatW {
        -mass * self.mass_scale * (velocity + self.bias) - self.impulse_scale * accumulated
    }
}

/// The two bodies of each lane's joint (`JointPair` per lane).
#[derive(Clone, Copy)]
struct PairW {
    a: BodyStateW,
    b: BodyStateW,
    inv_mass_a: FloatW,
    inv_inertia_a: FloatW,
    inv_mass_b: FloatW,
    inv_inertia_b: FloatW,
}

impl PairW {
    fn apply_point(&mut self, impulse: Vec2W, r_a: Vec2W, r_b: Vec2W) {
        self.a.linear_velocity -= self.inv_mass_a * impulse;
        self.a.angular_velocity -= self.inv_inertia_a * r_a.cross(impulse);
        self.b.linear_velocity += self.inv_mass_b * impulse;
        self.b.angular_velocity += self.inv_inertia_b * r_b.cross(impulse);
    }

    fn apply_angular(&mut self, impulse: FloatW) {
        self.a.angular_velocity -= self.inv_inertia_a * impulse;
        self.b.angular_velocity += self.inv_inertia_b * impulse;
    }

    fn relative_point_velocity(&self, r_a: Vec2W, r_b: Vec2W) -> Vec2W {
        (self.b.linear_velocity + cross_sv(self.b.angular_velocity, r_b))
            - (self.a.linear_velocity + cross_sv(self.a.angular_velocity, r_a))
    }

    /// `JointPair::point_matrix`, factored: `(k11, k12, k22)`, `1/det` and where `K` is
    /// singular.
    fn factored_point_matrix(&self, r_a: Vec2W, r_b: Vec2W) -> FactoredW {
        let (ma, mb, ia, ib) = (
            self.inv_mass_a,
            self.inv_mass_b,
            self.inv_inertia_a,
            self.inv_inertia_b,
        );
        let k11 = ma + mb + ia * r_a.y * r_a.y + ib * r_b.y * r_b.y;
        let k12 = -ia * r_a.x * r_a.y - ib * r_b.x * r_b.y;
        let k22 = ma + mb + ia * r_a.x * r_a.x + ib * r_b.x * r_b.x;
        let det = k11 * k22 - k12 * k12;
        let finite = det.abs().cmp_lt(FloatW::splat(f32::INFINITY));
        let singular = det.cmp_eq(FloatW::zero()) | !finite;
        FactoredW {
            k11,
            k12,
            k22,
            inv_det: FloatW::one() / det,
            singular,
        }
    }
}

/// `FactoredSym22` per lane: the inverse determinant is used only where `K` is not singular.
#[derive(Clone, Copy)]
struct FactoredW {
    k11: FloatW,
    k12: FloatW,
    k22: FloatW,
    inv_det: FloatW,
    singular: MaskW,
}

impl FactoredW {
    /// `x` with `K·x = b`, zero where `K` is singular.
    fn solve(&self, b: Vec2W) -> Vec2W {
        let x = Vec2W::new(
            self.inv_det * (self.k22 * b.x - self.k12 * b.y),
            self.inv_det * (self.k11 * b.y - self.k12 * b.x),
        );
        Vec2W::select(self.singular, Vec2W::zero(), x)
    }
}

/// `1/k` where `k > 0`, else 0.
fn inverse_or_zero(k: FloatW) -> FloatW {
    FloatW::select(k.cmp_gt(FloatW::zero()), FloatW::one() / k, FloatW::zero())
}

/// `rows::accumulate_non_negative`: the new total and the part of it applied now.
fn accumulate_non_negative(accumulated: FloatW, increment: FloatW) -> (FloatW, FloatW) {
    let total = (accumulated + increment).max(FloatW::zero());
    (total, total - accumulated)
}

/// `rows::accumulate_bounded`: the new total within `±max_magnitude` (a negative bound counts
/// as zero) and the part of it applied now.
fn accumulate_bounded(
    accumulated: FloatW,
    increment: FloatW,
    max_magnitude: FloatW,
) -> (FloatW, FloatW) {
    let bound = max_magnitude.max(FloatW::zero());
    clamp_accumulated_w(accumulated, increment, -bound, bound)
}

/// The angle rows' scalar state (`rows::Deferred` over the hinge turn) per lane.
struct TurnW {
    /// `IA⁻¹ + IB⁻¹ − uᵀ·K⁻¹·u` (or `IA⁻¹ + IB⁻¹` for the plain turn).
    response: FloatW,
    mass: FloatW,
    point_per_unit: Vec2W,
    velocity: FloatW,
    pending: FloatW,
}

impl TurnW {
    /// Adds `impulse` where `on`: the row's velocity moves by `r·λ`, the pending sum by `λ`.
    fn apply(&mut self, impulse: FloatW, on: MaskW) {
        let velocity = self.velocity + self.response * impulse;
        let pending = self.pending + impulse;
        self.velocity = FloatW::select(on, velocity, self.velocity);
        self.pending = FloatW::select(on, pending, self.pending);
    }
}

/// [`LANES`] revolute joints: their prepared point-block data and impulses, lane by lane.
/// The prepare stage builds one per full group of hinges of a colour; the velocity passes work
/// on it in place, and the last of them writes its impulses back into the joints
/// (`joint_passes.rs`). What only the angle rows read is in [`AngleSettings`], beside it, and
/// only where some lane has an angle row; the joint softness is the same for every joint and
/// comes with the pass's [`JointParams`]. So a group of plain hinges is ten cache lines.
#[derive(Clone, Debug)]
pub(crate) struct RevoluteLanes {
    index_a: [u32; LANES],
    index_b: [u32; LANES],
    inv_mass_a: FloatW,
    inv_inertia_a: FloatW,
    inv_mass_b: FloatW,
    inv_inertia_b: FloatW,
    anchor_a: Vec2W,
    anchor_b: Vec2W,
    delta_center: Vec2W,
    angular_mass: FloatW,
    linear: Vec2W,
    spring: FloatW,
    motor: FloatW,
    lower: FloatW,
    upper: FloatW,
    /// Whether some lane has angle rows (and so [`AngleSettings`] were loaded).
    has_angle_rows: bool,
}

/// What the angle rows read besides the point block's data: which rows each lane has, the
/// limits, the motor, the spring and the prepared angle.
#[derive(Clone, Debug)]
pub(crate) struct AngleSettings {
    spring_on: MaskW,
    motor_on: MaskW,
    limit_on: MaskW,
    lower_angle: FloatW,
    upper_angle: FloatW,
    motor_speed: FloatW,
    max_motor_torque: FloatW,
    spring_softness: SoftnessW,
    delta_angle: FloatW,
}

impl AngleSettings {
    /// The lanes whose angle rows run (`RevoluteJoint::solve`'s condition).
    fn rows(&self, angular_mass: FloatW) -> MaskW {
        angular_mass.cmp_gt(FloatW::zero()) & (self.spring_on | self.motor_on | self.limit_on)
    }
}

impl RevoluteLanes {
    /// The lanes of `joints` if every one is a revolute joint, else `None`; with them, what
    /// their angle rows read if some lane has one. A body index at or beyond `body_count` is
    /// read as no body, as the scalar pass reads it.
    ///
    /// The joints' fields are read as rows of eight and turned into lanes by 8 × 8 transposes
    /// (see [`crate::wide::rows_to_lanes`]): the first cache line of the prepared data is two
    /// rows, the impulses one, the angle settings one.
    pub fn load(
        joints: &[JointConstraint; LANES],
        body_count: usize,
    ) -> Option<(RevoluteLanes, Option<AngleSettings>)> {
        let mut settings = [&RevoluteJoint::DEFAULT; LANES];
        for (setting, joint) in settings.iter_mut().zip(joints) {
            let JointKind::Revolute(revolute) = &joint.kind else {
                return None;
            };
            *setting = revolute;
        }
        let [ia, ib, ma, ii_a, mb, ii_b, aax, aay] = rows_to_lanes(lanes(joints, point_row_1));
        let [abx, aby, dcx, dcy, angular_mass, ..] = rows_to_lanes(lanes(joints, point_row_2));
        let [lx, ly, _, spring, motor, lower, upper, _] = rows_to_lanes(lanes(joints, impulse_row));
        let index = |bits: [f32; LANES]| {
            bits.map(|b| match b.to_bits() {
                index if (index as usize) < body_count => index,
                _ => NULL_BODY,
            })
        };
        let switch = |f: fn(&RevoluteJoint) -> bool| MaskW::from_bools(settings.map(f));
        let (spring_on, motor_on, limit_on) = (
            switch(|s| s.enable_spring),
            switch(|s| s.enable_motor),
            switch(|s| s.enable_limit),
        );
        let any_switch = (spring_on | motor_on | limit_on).any();
        let has_angle_rows = any_switch && angular_mass.cmp_gt(FloatW::zero()).any();
        let lanes = RevoluteLanes {
            index_a: index(ia.to_array()),
            index_b: index(ib.to_array()),
            inv_mass_a: ma,
            inv_inertia_a: ii_a,
            inv_mass_b: mb,
            inv_inertia_b: ii_b,
            anchor_a: Vec2W::new(aax, aay),
            anchor_b: Vec2W::new(abx, aby),
            delta_center: Vec2W::new(dcx, dcy),
            angular_mass,
            linear: Vec2W::new(lx, ly),
            spring,
            motor,
            lower,
            upper,
            has_angle_rows,
        };
        let angle = has_angle_rows.then(|| {
            let rows = core::array::from_fn(|lane| angle_row(settings[lane], &joints[lane]));
            let [
                lower,
                upper,
                speed,
                torque,
                bias_rate,
                mass_scale,
                impulse_scale,
                delta,
            ] = rows_to_lanes(rows);
            AngleSettings {
                spring_on,
                motor_on,
                limit_on,
                lower_angle: lower,
                upper_angle: upper,
                motor_speed: speed,
                max_motor_torque: torque,
                spring_softness: SoftnessW {
                    bias_rate,
                    mass_scale,
                    impulse_scale,
                },
                delta_angle: delta,
            }
        });
        Some((lanes, angle))
    }

    /// Writes the impulses the passes changed back into the joints.
    pub fn store_impulses(&self, joints: &mut [JointConstraint; LANES]) {
        let columns = [
            self.linear.x,
            self.linear.y,
            self.spring,
            self.motor,
            self.lower,
            self.upper,
        ]
        .map(FloatW::to_array);
        for (lane, joint) in joints.iter_mut().enumerate() {
            let [lx, ly, spring, motor, lower, upper] = columns.map(|column| column[lane]);
            let i = &mut joint.impulses;
            (i.linear, i.spring, i.motor, i.lower, i.upper) =
                (Vec2::new(lx, ly), spring, motor, lower, upper);
        }
    }

    fn pair<B: BodyLanes + ?Sized>(&self, bodies: &B) -> PairW {
        PairW {
            a: bodies.gather(&self.index_a),
            b: bodies.gather(&self.index_b),
            inv_mass_a: self.inv_mass_a,
            inv_inertia_a: self.inv_inertia_a,
            inv_mass_b: self.inv_mass_b,
            inv_inertia_b: self.inv_inertia_b,
        }
    }

    fn store<B: BodyLanes + ?Sized>(&self, pair: &PairW, bodies: &mut B) {
        bodies.scatter(&self.index_a, &pair.a);
        bodies.scatter(&self.index_b, &pair.b);
    }

    /// The warm start of every lane (`RevoluteJoint::warm_start`).
    pub fn warm_start<B: BodyLanes + ?Sized>(&self, bodies: &mut B) {
        let mut pair = self.pair(bodies);
        let r_a = pair.a.delta_rotation.rotate(self.anchor_a);
        let r_b = pair.b.delta_rotation.rotate(self.anchor_b);
        pair.apply_point(self.linear, r_a, r_b);
        pair.apply_angular(self.spring + self.motor + self.lower - self.upper);
        self.store(&pair, bodies);
    }

    /// One solve pass of every lane (`RevoluteJoint::solve`); `angle` is what
    /// [`RevoluteLanes::load`] returned beside the lanes (needed when some lane has angle
    /// rows).
    pub fn solve<B: BodyLanes + ?Sized>(
        &mut self,
        angle: Option<&AngleSettings>,
        bodies: &mut B,
        params: &JointParams,
        use_bias: bool,
    ) {
        debug_assert!(angle.is_some() || !self.has_angle_rows);
        let mut pair = self.pair(bodies);
        let r_a = pair.a.delta_rotation.rotate(self.anchor_a);
        let r_b = pair.b.delta_rotation.rotate(self.anchor_b);
        let k = pair.factored_point_matrix(r_a, r_b);
        let separation =
            (pair.b.delta_position - pair.a.delta_position) + (r_b - r_a) + self.delta_center;
        let softness = SoftnessW::splat(&params.joint_softness);
        if let Some(angle) = angle.filter(|_| self.has_angle_rows) {
            let turn = self.hinge_turn(&pair, (r_a, r_b), &k, separation);
            let pass = (params, &softness, use_bias);
            self.solve_angle_rows(&mut pair, (r_a, r_b), turn, angle, pass);
        }
        let velocity = pair.relative_point_velocity(r_a, r_b);
        let (bias, terms) = if use_bias {
            let s = &softness;
            (s.bias_rate * separation, TermsW::spring(s, FloatW::zero()))
        } else {
            (Vec2W::zero(), TermsW::rigid())
        };
        let solved = k.solve(velocity + bias);
        let impulse = -terms.mass_scale * solved - terms.impulse_scale * self.linear;
        self.linear += impulse;
        pair.apply_point(impulse, r_a, r_b);
        self.store(&pair, bodies);
    }

    /// `RevoluteJoint::solve_angle_rows` in the lanes whose angle rows run; the other lanes
    /// are left as they were.
    fn solve_angle_rows(
        &mut self,
        pair: &mut PairW,
        (r_a, r_b): (Vec2W, Vec2W),
        mut turn: TurnW,
        settings: &AngleSettings,
        (params, joint_softness, use_bias): (&JointParams, &SoftnessW, bool),
    ) {
        let on = settings.rows(self.angular_mass);
        let angle = joint_angle(pair, settings);
        let spring_on = on & settings.spring_on;
        let terms = TermsW::spring(&settings.spring_softness, angle);
        let impulse = terms.impulse(turn.mass, turn.velocity, self.spring);
        self.spring = FloatW::select(spring_on, self.spring + impulse, self.spring);
        turn.apply(impulse, spring_on);

        let motor_on = on & settings.motor_on;
        let max_impulse = FloatW::splat(params.h) * settings.max_motor_torque;
        let impulse = -turn.mass * (turn.velocity - settings.motor_speed);
        let (total, applied) = accumulate_bounded(self.motor, impulse, max_impulse);
        self.motor = FloatW::select(motor_on, total, self.motor);
        turn.apply(applied, motor_on);

        let pass = (params, joint_softness, use_bias);
        self.solve_limits(&mut turn, angle, settings, pass, on & settings.limit_on);

        // `Deferred::finish`: the summed turn with its point impulse, once.
        let before = *pair;
        let point = turn.pending * turn.point_per_unit;
        pair.apply_angular(turn.pending);
        pair.apply_point(point, r_a, r_b);
        select_velocities(on, pair, &before);
        self.linear = Vec2W::select(on, self.linear + (Vec2W::zero() + point), self.linear);
    }

    /// The two limit rows (`rows::solve_limits`) in the lanes of `limit_on`.
    fn solve_limits(
        &mut self,
        turn: &mut TurnW,
        angle: FloatW,
        settings: &AngleSettings,
        (params, joint_softness, use_bias): (&JointParams, &SoftnessW, bool),
        limit_on: MaskW,
    ) {
        let inv_h = FloatW::splat(params.inv_h);
        let lower = TermsW::limit(
            joint_softness,
            angle - settings.lower_angle,
            use_bias,
            inv_h,
        );
        let impulse = lower.impulse(turn.mass, turn.velocity, self.lower);
        let (total, applied) = accumulate_non_negative(self.lower, impulse);
        self.lower = FloatW::select(limit_on, total, self.lower);
        turn.apply(applied, limit_on);
        let upper = TermsW::limit(
            joint_softness,
            settings.upper_angle - angle,
            use_bias,
            inv_h,
        );
        let impulse = upper.impulse(turn.mass, -turn.velocity, self.upper);
        let (total, applied) = accumulate_non_negative(self.upper, impulse);
        self.upper = FloatW::select(limit_on, total, self.upper);
        turn.apply(-applied, limit_on);
    }

    /// The hinge turn per lane: `HingeTurn::at` where the hinge holds, `HingeTurn::plain`
    /// elsewhere.
    fn hinge_turn(
        &self,
        pair: &PairW,
        (r_a, r_b): (Vec2W, Vec2W),
        k: &FactoredW,
        separation: Vec2W,
    ) -> TurnW {
        let (ia, ib) = (pair.inv_inertia_a, pair.inv_inertia_b);
        let reach = FloatW::splat(HOLD_FRACTION) * (r_a.length() + r_b.length())
            + FloatW::splat(HOLD_SLACK);
        let holds = separation.length_squared().cmp_le(reach * reach);
        let u = (ia * r_a + ib * r_b).left_perp();
        let point_per_unit = -k.solve(u);
        let complement = ia + ib + u.dot(point_per_unit);
        TurnW {
            response: FloatW::select(holds, complement, ia + ib),
            mass: FloatW::select(holds, inverse_or_zero(complement), self.angular_mass),
            point_per_unit: Vec2W::select(holds, point_per_unit, Vec2W::zero()),
            velocity: pair.b.angular_velocity - pair.a.angular_velocity,
            pending: FloatW::zero(),
        }
    }
}

/// The joint angle where a lane's spring or limits read it (0 elsewhere, as the scalar kernel
/// leaves it).
fn joint_angle(pair: &PairW, settings: &AngleSettings) -> FloatW {
    let needs = settings.spring_on | settings.limit_on;
    if !needs.any() {
        return FloatW::zero();
    }
    let relative = relative_rotation(pair.a.delta_rotation, pair.b.delta_rotation);
    let (c, s, needs) = (
        relative.c.to_array(),
        relative.s.to_array(),
        needs.to_bools(),
    );
    let step_angle: [f32; LANES] = core::array::from_fn(|lane| {
        if needs[lane] {
            Rot {
                c: c[lane],
                s: s[lane],
            }
            .angle()
        } else {
            0.0
        }
    });
    FloatW::select(
        MaskW::from_bools(needs),
        settings.delta_angle + FloatW::from_array(step_angle),
        FloatW::zero(),
    )
}

/// `Rot::inv_mul` per lane: `a⁻¹·b`.
fn relative_rotation(a: RotW, b: RotW) -> RotW {
    RotW {
        c: a.c * b.c + a.s * b.s,
        s: a.c * b.s - a.s * b.c,
    }
}

/// Keeps `pair`'s new velocities in the lanes of `on` and `before`'s elsewhere.
fn select_velocities(on: MaskW, pair: &mut PairW, before: &PairW) {
    for (body, old) in [(&mut pair.a, &before.a), (&mut pair.b, &before.b)] {
        body.linear_velocity = Vec2W::select(on, body.linear_velocity, old.linear_velocity);
        body.angular_velocity = FloatW::select(on, body.angular_velocity, old.angular_velocity);
    }
}

/// The first half of the prepared point-block data: body indices (as bits), inverse masses,
/// anchor A.
#[inline(always)]
fn point_row_1(j: &JointConstraint) -> [f32; 8] {
    let (p, b) = (&j.prepared, &j.prepared.bodies);
    [
        f32::from_bits(b.index_a),
        f32::from_bits(b.index_b),
        b.inv_mass_a,
        b.inv_inertia_a,
        b.inv_mass_b,
        b.inv_inertia_b,
        p.anchor_a.x,
        p.anchor_a.y,
    ]
}

/// The second half: anchor B, the centres' offset, the angular mass (the joint softness is
/// the pass's).
#[inline(always)]
fn point_row_2(j: &JointConstraint) -> [f32; 8] {
    let p = &j.prepared;
    let (b, c) = (p.anchor_b, p.delta_center);
    [b.x, b.y, c.x, c.y, p.angular_mass, 0.0, 0.0, 0.0]
}

/// The carried impulses, in their declaration order.
#[inline(always)]
fn impulse_row(j: &JointConstraint) -> [f32; 8] {
    let i = &j.impulses;
    [
        i.linear.x, i.linear.y, i.angular, i.spring, i.motor, i.lower, i.upper, 0.0,
    ]
}

/// What the angle rows read: limits, motor, spring softness, the prepared angle.
#[inline(always)]
fn angle_row(r: &RevoluteJoint, j: &JointConstraint) -> [f32; 8] {
    let (p, s) = (&j.prepared, &j.prepared.spring_softness);
    [
        r.lower_angle,
        r.upper_angle,
        r.motor_speed,
        r.max_motor_torque,
        s.bias_rate,
        s.mass_scale,
        s.impulse_scale,
        p.delta_angle,
    ]
}

/// `f` of each lane's joint.
#[inline(always)]
fn lanes<T>(joints: &[JointConstraint; LANES], f: impl Fn(&JointConstraint) -> T) -> [T; LANES] {
    core::array::from_fn(|lane| f(&joints[lane]))
}

#[cfg(test)]
mod tests;
