//! The calls the fuzzer makes, as data, and their generator.
//!
//! An op names the objects it acts on by [`Pick`]: an index into the model's live objects of
//! that kind (taken modulo their number when the op runs), or a stale id. Ops therefore mean
//! something in any world, which is what lets the shrinker delete ops from a failing sequence
//! and replay the rest.

use crate::values::Source;
use arbitrary::Result;
use prism::{
    BodyType, DistanceJoint, MassData, MotorJoint, PrismaticJoint, QueryFilter, RevoluteJoint,
    TargetJoint, Vec2, WeldJoint, WheelJoint,
};

/// Which object of a kind an op acts on (see the module notes).
#[derive(Clone, Copy, Debug)]
pub struct Pick {
    pub stale: bool,
    pub index: u16,
}

#[derive(Clone, Copy, Debug)]
pub enum RotSpec {
    /// `Rot::from_angle`: always a unit rotation for a finite angle.
    Angle(f32),
    /// Components as given: a unit rotation only by luck.
    Raw { c: f32, s: f32 },
}

#[derive(Clone, Copy, Debug)]
pub struct BodySpec {
    pub body_type: BodyType,
    pub position: Vec2,
    pub rotation: RotSpec,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    pub fixed_rotation: bool,
    pub is_bullet: bool,
    pub enable_sleep: bool,
    pub sleep_threshold: f32,
    pub inertia_scale: f32,
}

#[derive(Clone, Copy, Debug)]
pub struct ShapeSpec {
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub category: u64,
    pub mask: u64,
    pub group: i32,
    pub events: bool,
}

/// How a polygon argument is made.
#[derive(Clone, Debug)]
pub enum PolygonSpec {
    Hull {
        points: Vec<Vec2>,
        radius: f32,
    },
    Box {
        half_width: f32,
        half_height: f32,
    },
    OffsetBox {
        half_width: f32,
        half_height: f32,
        center: Vec2,
        rotation: RotSpec,
    },
    Rounded {
        half_width: f32,
        half_height: f32,
        radius: f32,
    },
    /// A valid 1 m box or hexagon, then broken by hand.
    Broken {
        hexagon: bool,
        how: Damage,
    },
}

/// What is broken in a hand-built polygon; every one must be refused.
#[derive(Clone, Copy, Debug)]
pub enum Damage {
    Clockwise,
    ZeroNormal(u8),
    FlippedNormal(u8),
    Dent(u8),
    NanVertex(u8),
    Count(u8),
    NegativeRadius,
    CentroidOutside,
    RepeatedVertex(u8),
}

/// A joint kind with its kind-specific definition fields.
#[derive(Clone, Copy, Debug)]
pub enum KindSpec {
    Distance(DistanceJoint),
    Revolute {
        reference_angle: f32,
        settings: RevoluteJoint,
    },
    Prismatic {
        axis: Vec2,
        reference_angle: f32,
        settings: PrismaticJoint,
    },
    Weld {
        reference_angle: f32,
        settings: WeldJoint,
    },
    Wheel {
        axis: Vec2,
        settings: WheelJoint,
    },
    Motor(MotorJoint),
    Target(TargetJoint),
}

#[derive(Clone, Copy, Debug)]
pub struct JointSpec {
    pub body_a: Pick,
    pub body_b: Pick,
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    pub collide_connected: bool,
    pub break_force: f32,
    pub break_torque: f32,
    pub kind: KindSpec,
}

#[derive(Clone, Copy, Debug)]
pub enum BodyEdit {
    Transform(Vec2, RotSpec),
    LinearVelocity(Vec2),
    AngularVelocity(f32),
    Force(Vec2, Vec2),
    ForceToCenter(Vec2),
    Torque(f32),
    Impulse(Vec2, Vec2),
    ImpulseToCenter(Vec2),
    AngularImpulse(f32),
    Mass(MassData),
    InertiaScale(f32),
    Awake(bool),
    SleepEnabled(bool),
    SleepThreshold(f32),
    UserData(u64),
}

#[derive(Clone, Copy, Debug)]
pub enum JointEdit {
    Limits(bool, f32, f32),
    Motor(bool, f32, f32),
    Spring(bool, f32, f32),
    Target(Vec2),
    MotorOffsets(Vec2, f32),
    BreakThresholds(f32, f32),
    Settings(KindSpec),
    UserData(u64),
}

#[derive(Clone, Copy, Debug)]
pub enum Query {
    RayClosest(Vec2, Vec2, QueryFilter),
    RayAll(Vec2, Vec2, QueryFilter),
    Overlap(Vec2, Vec2, QueryFilter),
    MassRatio(Option<f32>),
    Contacts(Pick),
}

/// One call (or, for `Step`, `repeat` calls) to the world.
#[derive(Clone, Debug)]
pub enum Op {
    CreateBody(BodySpec),
    DestroyBody(Pick),
    Circle {
        body: Pick,
        def: ShapeSpec,
        center: Vec2,
        radius: f32,
    },
    Capsule {
        body: Pick,
        def: ShapeSpec,
        center1: Vec2,
        center2: Vec2,
        radius: f32,
    },
    Segment {
        body: Pick,
        def: ShapeSpec,
        point1: Vec2,
        point2: Vec2,
    },
    Polygon {
        body: Pick,
        def: ShapeSpec,
        polygon: PolygonSpec,
    },
    Chain {
        body: Pick,
        def: ShapeSpec,
        points: Vec<Vec2>,
        closed: bool,
    },
    DestroyShape(Pick),
    Joint(JointSpec),
    DestroyJoint(Pick),
    EditBody(Pick, BodyEdit),
    EditJoint(Pick, JointEdit),
    Gravity(Vec2),
    WorldSleep(bool),
    Query(Query),
    Read {
        body: Pick,
        shape: Pick,
        joint: Pick,
    },
    Step {
        dt: f32,
        substeps: u32,
        repeat: u32,
    },
    /// A rollback: snapshot, one step, restore the snapshot, the same step again — which must
    /// end on the same bytes — and a world rebuilt from the snapshot that saves the same bytes.
    Snapshot {
        dt: f32,
    },
}

/// An op, and whether its arguments hold an extreme value (see `values::extreme`): a world
/// that accepted one may diverge; one that never did must not.
#[derive(Clone, Debug)]
pub struct Call {
    pub op: Op,
    pub extreme: bool,
}

/// The next generated call; `clean` cases have no dirty ops.
pub fn call(s: &mut Source, clean: bool) -> Result<Call> {
    s.extreme = false;
    s.dirty = !clean && s.chance(1, 4)?;
    let op = op(s)?;
    Ok(Call {
        op,
        extreme: s.extreme,
    })
}

/// The first two ops of every case: a static ground box whose top is y = 0.
pub fn ground() -> [Op; 2] {
    let body = BodySpec {
        body_type: BodyType::Static,
        position: Vec2::new(0.0, -1.0),
        rotation: RotSpec::Angle(0.0),
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        linear_damping: 0.0,
        angular_damping: 0.0,
        gravity_scale: 1.0,
        fixed_rotation: false,
        is_bullet: false,
        enable_sleep: true,
        sleep_threshold: 0.05,
        inertia_scale: 1.0,
    };
    let def = ShapeSpec {
        density: 1.0,
        friction: 0.6,
        restitution: 0.0,
        category: 1,
        mask: u64::MAX,
        group: 0,
        events: true,
    };
    let polygon = PolygonSpec::Box {
        half_width: 20.0,
        half_height: 1.0,
    };
    let first = Pick {
        stale: false,
        index: 0,
    };
    [
        Op::CreateBody(body),
        Op::Polygon {
            body: first,
            def,
            polygon,
        },
    ]
}

/// One generated op.
fn op(s: &mut Source) -> Result<Op> {
    let roll = s.int(0..=999)?;
    Ok(match roll {
        0..=89 => Op::CreateBody(body_spec(s)?),
        90..=109 => Op::DestroyBody(pick(s)?),
        110..=149 => Op::Circle {
            body: pick(s)?,
            def: shape_spec(s)?,
            center: s.vec(-0.5, 0.5)?,
            radius: s.num(0.05, 1.0)?,
        },
        150..=174 => Op::Capsule {
            body: pick(s)?,
            def: shape_spec(s)?,
            center1: s.vec(-1.0, 1.0)?,
            center2: s.vec(-1.0, 1.0)?,
            radius: s.num(0.05, 0.5)?,
        },
        175..=186 => Op::Segment {
            body: pick(s)?,
            def: shape_spec(s)?,
            point1: s.vec(-2.0, 2.0)?,
            point2: s.vec(-2.0, 2.0)?,
        },
        187..=246 => Op::Polygon {
            body: pick(s)?,
            def: shape_spec(s)?,
            polygon: polygon_spec(s)?,
        },
        247..=252 => chain(s)?,
        253..=272 => Op::DestroyShape(pick(s)?),
        273..=322 => Op::Joint(joint_spec(s)?),
        323..=334 => Op::DestroyJoint(pick(s)?),
        335..=534 => Op::EditBody(pick(s)?, body_edit(s)?),
        535..=594 => Op::EditJoint(pick(s)?, joint_edit(s)?),
        595..=598 => Op::Gravity(s.vec(-12.0, 12.0)?),
        599..=602 => Op::WorldSleep(s.chance(3, 4)?),
        603..=662 => Op::Query(query(s)?),
        663..=702 => Op::Read {
            body: pick(s)?,
            shape: pick(s)?,
            joint: pick(s)?,
        },
        703..=707 => Op::Snapshot {
            dt: if s.flag()? { 1.0 / 60.0 } else { 1.0 / 30.0 },
        },
        _ => step(s)?,
    })
}

pub fn pick(s: &mut Source) -> Result<Pick> {
    Ok(Pick {
        stale: s.chance(1, 16)?,
        index: s.int(0..=u32::from(u16::MAX))? as u16,
    })
}

fn rotation(s: &mut Source) -> Result<RotSpec> {
    Ok(if s.dirty && s.chance(1, 3)? {
        RotSpec::Raw {
            c: s.num(-1.2, 1.2)?,
            s: s.num(-1.2, 1.2)?,
        }
    } else {
        RotSpec::Angle(s.num(-3.2, 3.2)?)
    })
}

fn body_spec(s: &mut Source) -> Result<BodySpec> {
    let body_type = match s.int(0..=9)? {
        0 => BodyType::Static,
        1 => BodyType::Kinematic,
        _ => BodyType::Dynamic,
    };
    Ok(BodySpec {
        body_type,
        position: s.place()?,
        rotation: rotation(s)?,
        linear_velocity: s.vec(-3.0, 3.0)?,
        angular_velocity: s.num(-3.0, 3.0)?,
        linear_damping: s.num(0.0, 1.0)?,
        angular_damping: s.num(0.0, 1.0)?,
        gravity_scale: s.num(-0.5, 2.0)?,
        fixed_rotation: s.chance(1, 8)?,
        is_bullet: s.chance(1, 8)?,
        enable_sleep: s.chance(7, 8)?,
        sleep_threshold: s.num(0.0, 0.2)?,
        inertia_scale: s.num(0.5, 4.0)?,
    })
}

fn shape_spec(s: &mut Source) -> Result<ShapeSpec> {
    let bits = [1u64, 2, 4, 3, u64::MAX];
    Ok(ShapeSpec {
        density: if s.chance(1, 10)? {
            0.0
        } else {
            s.num(0.1, 5.0)?
        },
        friction: s.num(0.0, 1.0)?,
        restitution: s.num(0.0, 1.0)?,
        category: bits[s.int(0..=3)? as usize],
        mask: bits[s.int(0..=4)? as usize],
        group: s.int(0..=4)? as i32 - 2,
        events: s.chance(3, 4)?,
    })
}

fn polygon_spec(s: &mut Source) -> Result<PolygonSpec> {
    Ok(match s.int(0..=9)? {
        0..=2 => {
            let count = s.int(1..=10)?;
            let mut points = Vec::with_capacity(count as usize);
            for _ in 0..count {
                points.push(s.vec(-1.0, 1.0)?);
            }
            PolygonSpec::Hull {
                points,
                radius: if s.flag()? { 0.0 } else { s.num(0.0, 0.2)? },
            }
        }
        3..=4 => PolygonSpec::Box {
            half_width: s.num(0.05, 1.0)?,
            half_height: s.num(0.05, 1.0)?,
        },
        5 => PolygonSpec::OffsetBox {
            half_width: s.num(0.05, 1.0)?,
            half_height: s.num(0.05, 1.0)?,
            center: s.vec(-1.0, 1.0)?,
            rotation: rotation(s)?,
        },
        6 => PolygonSpec::Rounded {
            half_width: s.num(0.05, 1.0)?,
            half_height: s.num(0.05, 1.0)?,
            radius: s.num(0.0, 0.2)?,
        },
        _ => {
            let corner = s.int(0..=7)? as u8;
            let how = match s.int(0..=8)? {
                0 => Damage::Clockwise,
                1 => Damage::ZeroNormal(corner),
                2 => Damage::FlippedNormal(corner),
                3 => Damage::Dent(corner),
                4 => Damage::NanVertex(corner),
                5 => Damage::Count([0, 1, 2, 9, 200][s.int(0..=4)? as usize]),
                6 => Damage::NegativeRadius,
                7 => Damage::CentroidOutside,
                _ => Damage::RepeatedVertex(corner),
            };
            PolygonSpec::Broken {
                hexagon: s.flag()?,
                how,
            }
        }
    })
}

fn chain(s: &mut Source) -> Result<Op> {
    let count = s.int(0..=8)?;
    let start = Vec2::new(s.num(-6.0, 6.0)?, s.num(-1.0, 4.0)?);
    let mut points = Vec::with_capacity(count as usize);
    let mut at = start;
    for _ in 0..count {
        points.push(at);
        // Mostly steps of a metre or so; now and then a step inside the linear slop.
        let step = if s.chance(1, 12)? {
            s.vec(-0.004, 0.004)?
        } else {
            s.vec(-1.5, 1.5)?
        };
        at += step;
    }
    Ok(Op::Chain {
        body: pick(s)?,
        def: shape_spec(s)?,
        points,
        closed: s.flag()?,
    })
}

fn joint_spec(s: &mut Source) -> Result<JointSpec> {
    Ok(JointSpec {
        body_a: pick(s)?,
        body_b: pick(s)?,
        anchor_a: s.vec(-1.0, 1.0)?,
        anchor_b: s.vec(-1.0, 1.0)?,
        collide_connected: s.chance(1, 4)?,
        break_force: if s.chance(3, 4)? {
            f32::INFINITY
        } else {
            s.num(1.0, 2000.0)?
        },
        break_torque: if s.chance(3, 4)? {
            f32::INFINITY
        } else {
            s.num(1.0, 2000.0)?
        },
        kind: kind_spec(s)?,
    })
}

/// Limits drawn so that `lower ≤ upper` usually holds and sometimes does not.
fn limits(s: &mut Source, reach: f32) -> Result<(f32, f32)> {
    Ok((s.num(-reach, 0.3 * reach)?, s.num(-0.3 * reach, reach)?))
}

pub fn kind_spec(s: &mut Source) -> Result<KindSpec> {
    Ok(match s.int(0..=6)? {
        0 => {
            let (min_length, max_length) = (s.num(0.0, 1.5)?, s.num(0.5, 4.0)?);
            KindSpec::Distance(DistanceJoint {
                length: s.num(0.0, 3.0)?,
                enable_spring: s.flag()?,
                hertz: s.num(0.0, 8.0)?,
                damping_ratio: s.num(0.0, 2.0)?,
                enable_limit: s.flag()?,
                min_length,
                max_length,
                enable_motor: s.chance(1, 4)?,
                motor_speed: s.num(-5.0, 5.0)?,
                max_motor_force: s.num(0.0, 500.0)?,
            })
        }
        1 => {
            let (lower_angle, upper_angle) = limits(s, 3.0)?;
            KindSpec::Revolute {
                reference_angle: s.num(-3.0, 3.0)?,
                settings: RevoluteJoint {
                    enable_spring: s.chance(1, 4)?,
                    hertz: s.num(0.0, 8.0)?,
                    damping_ratio: s.num(0.0, 2.0)?,
                    enable_limit: s.flag()?,
                    lower_angle,
                    upper_angle,
                    enable_motor: s.chance(1, 4)?,
                    motor_speed: s.num(-5.0, 5.0)?,
                    max_motor_torque: s.num(0.0, 500.0)?,
                },
            }
        }
        2 => {
            let (lower_translation, upper_translation) = limits(s, 2.0)?;
            KindSpec::Prismatic {
                axis: s.vec(-1.0, 1.0)?,
                reference_angle: s.num(-3.0, 3.0)?,
                settings: PrismaticJoint {
                    enable_spring: s.chance(1, 4)?,
                    hertz: s.num(0.0, 8.0)?,
                    damping_ratio: s.num(0.0, 2.0)?,
                    enable_limit: s.flag()?,
                    lower_translation,
                    upper_translation,
                    enable_motor: s.chance(1, 4)?,
                    motor_speed: s.num(-5.0, 5.0)?,
                    max_motor_force: s.num(0.0, 500.0)?,
                },
            }
        }
        3 => KindSpec::Weld {
            reference_angle: s.num(-3.0, 3.0)?,
            settings: WeldJoint {
                linear_hertz: s.num(0.0, 10.0)?,
                linear_damping_ratio: s.num(0.0, 2.0)?,
                angular_hertz: s.num(0.0, 10.0)?,
                angular_damping_ratio: s.num(0.0, 2.0)?,
            },
        },
        4 => {
            let (lower_translation, upper_translation) = limits(s, 1.0)?;
            KindSpec::Wheel {
                axis: s.vec(-1.0, 1.0)?,
                settings: WheelJoint {
                    enable_spring: s.flag()?,
                    hertz: s.num(0.0, 8.0)?,
                    damping_ratio: s.num(0.0, 2.0)?,
                    enable_limit: s.chance(1, 4)?,
                    lower_translation,
                    upper_translation,
                    enable_motor: s.chance(1, 4)?,
                    motor_speed: s.num(-5.0, 5.0)?,
                    max_motor_torque: s.num(0.0, 500.0)?,
                },
            }
        }
        5 => KindSpec::Motor(MotorJoint {
            linear_offset: s.vec(-2.0, 2.0)?,
            angular_offset: s.num(-3.0, 3.0)?,
            max_force: s.num(0.0, 500.0)?,
            max_torque: s.num(0.0, 500.0)?,
            correction_factor: s.num(0.0, 1.1)?,
        }),
        _ => KindSpec::Target(TargetJoint {
            target: s.place()?,
            hertz: s.num(0.0, 10.0)?,
            damping_ratio: s.num(0.0, 2.0)?,
            max_force: s.num(0.0, 1000.0)?,
        }),
    })
}

fn body_edit(s: &mut Source) -> Result<BodyEdit> {
    Ok(match s.int(0..=14)? {
        0 => BodyEdit::Transform(s.place()?, rotation(s)?),
        1 => BodyEdit::LinearVelocity(s.vec(-5.0, 5.0)?),
        2 => BodyEdit::AngularVelocity(s.num(-5.0, 5.0)?),
        3 => BodyEdit::Force(s.vec(-100.0, 100.0)?, s.place()?),
        4 => BodyEdit::ForceToCenter(s.vec(-100.0, 100.0)?),
        5 => BodyEdit::Torque(s.num(-50.0, 50.0)?),
        6 => BodyEdit::Impulse(s.vec(-5.0, 5.0)?, s.place()?),
        7 => BodyEdit::ImpulseToCenter(s.vec(-5.0, 5.0)?),
        8 => BodyEdit::AngularImpulse(s.num(-2.0, 2.0)?),
        9 => BodyEdit::Mass(MassData {
            mass: s.num(0.0, 5.0)?,
            center: s.vec(-0.5, 0.5)?,
            rotational_inertia: s.num(0.0, 2.0)?,
        }),
        10 => BodyEdit::InertiaScale(s.num(0.5, 4.0)?),
        11 => BodyEdit::Awake(s.chance(1, 3)?),
        12 => BodyEdit::SleepEnabled(s.chance(3, 4)?),
        13 => BodyEdit::SleepThreshold(s.num(0.0, 0.2)?),
        _ => BodyEdit::UserData(u64::from(s.int(0..=u32::MAX)?)),
    })
}

fn joint_edit(s: &mut Source) -> Result<JointEdit> {
    Ok(match s.int(0..=7)? {
        0 => {
            let (lower, upper) = limits(s, 2.0)?;
            JointEdit::Limits(s.flag()?, lower, upper)
        }
        1 => JointEdit::Motor(s.flag()?, s.num(-5.0, 5.0)?, s.num(0.0, 500.0)?),
        2 => JointEdit::Spring(s.flag()?, s.num(0.0, 8.0)?, s.num(0.0, 2.0)?),
        3 => JointEdit::Target(s.place()?),
        4 => JointEdit::MotorOffsets(s.vec(-2.0, 2.0)?, s.num(-3.0, 3.0)?),
        5 => JointEdit::BreakThresholds(
            if s.flag()? {
                f32::INFINITY
            } else {
                s.num(1.0, 2000.0)?
            },
            if s.flag()? {
                f32::INFINITY
            } else {
                s.num(1.0, 2000.0)?
            },
        ),
        6 => JointEdit::Settings(kind_spec(s)?),
        _ => JointEdit::UserData(u64::from(s.int(0..=u32::MAX)?)),
    })
}

fn query_filter(s: &mut Source) -> Result<QueryFilter> {
    let bits = [1u64, 2, 4, 3, u64::MAX];
    Ok(QueryFilter {
        category_bits: bits[s.int(0..=4)? as usize],
        mask_bits: bits[s.int(0..=4)? as usize],
    })
}

fn query(s: &mut Source) -> Result<Query> {
    Ok(match s.int(0..=5)? {
        0 => Query::RayClosest(s.place()?, s.vec(-12.0, 12.0)?, query_filter(s)?),
        1 => Query::RayAll(s.place()?, s.vec(-12.0, 12.0)?, query_filter(s)?),
        2 | 3 => {
            let corner = s.place()?;
            let size = s.vec(-0.5, 4.0)?;
            Query::Overlap(corner, corner + size, query_filter(s)?)
        }
        4 => Query::MassRatio(if s.flag()? {
            None
        } else {
            Some(s.num(0.5, 50.0)?)
        }),
        _ => Query::Contacts(pick(s)?),
    })
}

fn step(s: &mut Source) -> Result<Op> {
    let dt = match s.int(0..=19)? {
        0 => 0.0,
        1 => 1.0 / 30.0,
        2 => 1.0 / 240.0,
        3 if s.dirty => s.num(-0.1, 0.1)?,
        _ => 1.0 / 60.0,
    };
    let substeps = if s.dirty && s.chance(1, 6)? {
        0
    } else {
        s.int(1..=8)?
    };
    let repeat = if s.chance(1, 12)? {
        s.int(20..=40)?
    } else {
        s.int(1..=4)?
    };
    Ok(Op::Step {
        dt,
        substeps,
        repeat,
    })
}
