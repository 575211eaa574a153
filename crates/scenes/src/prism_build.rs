//! Builds engine-neutral scene descriptions ([`crate::description`]) into a Prism world: the
//! Prism counterpart of the Box2D and Rapier translators in prism-bench, so all three engines
//! run the same bodies.

use crate::description::{
    BodyDesc, BodyGroup, BodyKind, DistanceDesc, Filter, Geometry, JointDesc, RevoluteDesc,
    ShapeDesc,
};
use prism::{
    BodyDef, BodyId, BodyType, Capsule, Circle, DistanceJointDef, JointDef, JointId, PrismError,
    RevoluteJointDef, Rot, Segment, ShapeDef, World, make_offset_box, make_polygon,
};

/// The bodies and joints one group became, in group order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuiltGroup {
    /// The Prism body of each description body, in group order.
    pub bodies: Vec<BodyId>,
    /// One entry per description joint; `None` for a joint between two static bodies, which
    /// Prism refuses (it could never move anything) and the translator therefore skips.
    pub joints: Vec<Option<JointId>>,
}

/// Creates every body of `group` in `world`; on error, destroys what it had created.
pub fn insert_group(world: &mut World, group: &BodyGroup) -> Result<BuiltGroup, PrismError> {
    let mut built = BuiltGroup::default();
    let result = insert_bodies(world, group, &mut built);
    if result.is_err() {
        remove_group(world, &built);
    }
    result.map(|()| built)
}

fn insert_bodies(
    world: &mut World,
    group: &BodyGroup,
    built: &mut BuiltGroup,
) -> Result<(), PrismError> {
    for desc in &group.bodies {
        let body = world.create_body(&body_def(desc))?;
        built.bodies.push(body);
        for shape in &desc.shapes {
            create_shape(world, body, shape)?;
        }
    }
    for joint in &group.joints {
        let created = create_joint(world, group, &built.bodies, joint)?;
        built.joints.push(created);
    }
    // Bodies created asleep start asleep only where the world sleeps at all, as in Box2D.
    if world.is_sleep_enabled() {
        for (desc, &body) in group.bodies.iter().zip(&built.bodies) {
            if desc.starts_asleep {
                world.set_awake(body, false)?;
            }
        }
    }
    Ok(())
}

/// A description's joint, with no contacts between its two bodies (Box2D's
/// `collideConnected = false`). `None` when both bodies are static.
fn create_joint(
    world: &mut World,
    group: &BodyGroup,
    bodies: &[BodyId],
    desc: &JointDesc,
) -> Result<Option<JointId>, PrismError> {
    let (a, b) = desc.bodies();
    let (Some(desc_a), Some(desc_b)) = (group.bodies.get(a), group.bodies.get(b)) else {
        return Err(PrismError::InvalidCount {
            field: "JointDesc body index",
            value: u32::try_from(a.max(b)).unwrap_or(u32::MAX),
            requirement: "less than the group's body count",
        });
    };
    if desc_a.kind == BodyKind::Static && desc_b.kind == BodyKind::Static {
        return Ok(None);
    }
    let (local_anchor_a, local_anchor_b) = desc.local_anchors();
    let base = JointDef {
        local_anchor_a,
        local_anchor_b,
        ..JointDef::new(bodies[a], bodies[b])
    };
    let joint = match desc {
        JointDesc::Revolute(revolute) => create_revolute(world, base, revolute)?,
        JointDesc::Distance(distance) => create_distance(world, base, distance)?,
    };
    Ok(Some(joint))
}

/// A revolute joint whose relative angle is zero at creation (the reference angle is the
/// bodies' relative angle then).
fn create_revolute(
    world: &mut World,
    base: JointDef,
    desc: &RevoluteDesc,
) -> Result<JointId, PrismError> {
    let (body_a, body_b) = (base.body_a, base.body_b);
    let mut def = RevoluteJointDef::new(base);
    def.reference_angle = world.rotation(body_b)?.angle() - world.rotation(body_a)?.angle();
    let joint = &mut def.settings;
    if let Some([lower, upper]) = desc.limits {
        (joint.enable_limit, joint.lower_angle, joint.upper_angle) = (true, lower, upper);
    }
    if let Some(spring) = desc.spring {
        (joint.enable_spring, joint.hertz, joint.damping_ratio) =
            (true, spring.hertz, spring.damping_ratio);
    }
    if let Some(motor) = desc.motor {
        (
            joint.enable_motor,
            joint.motor_speed,
            joint.max_motor_torque,
        ) = (true, motor.speed, motor.max_torque);
    }
    world.create_revolute_joint(&def)
}

/// A distance joint: rigid at its length, or a spring kept between optional limits.
fn create_distance(
    world: &mut World,
    base: JointDef,
    desc: &DistanceDesc,
) -> Result<JointId, PrismError> {
    let mut def = DistanceJointDef::new(base);
    let joint = &mut def.settings;
    joint.length = desc.length;
    if let Some(spring) = desc.spring {
        (joint.enable_spring, joint.hertz, joint.damping_ratio) =
            (true, spring.hertz, spring.damping_ratio);
    }
    if let Some([min, max]) = desc.limits {
        (joint.enable_limit, joint.min_length, joint.max_length) = (true, min, max);
    }
    world.create_distance_joint(&def)
}

/// Destroys a built group's bodies (their shapes, contacts and joints go with them).
pub fn remove_group(world: &mut World, built: &BuiltGroup) {
    for &body in built.bodies.iter().rev() {
        // A body already gone (destroyed by the user) is not an error here.
        let _ = world.destroy_body(body);
    }
}

fn body_def(desc: &BodyDesc) -> BodyDef {
    let body_type = match desc.kind {
        BodyKind::Static => BodyType::Static,
        BodyKind::Dynamic => BodyType::Dynamic,
    };
    BodyDef {
        body_type,
        position: desc.position,
        rotation: Rot::from_angle(desc.angle),
        linear_velocity: desc.linear_velocity,
        linear_damping: desc.linear_damping,
        enable_sleep: desc.can_sleep,
        sleep_threshold: desc.sleep_threshold,
        ..BodyDef::default()
    }
}

fn shape_def(desc: &ShapeDesc) -> ShapeDef {
    let Filter {
        category,
        mask,
        group,
    } = desc.filter;
    ShapeDef {
        density: desc.density,
        friction: desc.friction,
        restitution: desc.restitution,
        filter: prism::Filter {
            category_bits: category,
            mask_bits: mask,
            group_index: group,
        },
        ..ShapeDef::default()
    }
}

fn create_shape(world: &mut World, body: BodyId, desc: &ShapeDesc) -> Result<(), PrismError> {
    let def = shape_def(desc);
    match &desc.geometry {
        Geometry::Box {
            half_extents,
            center,
            radius,
        } => {
            let mut polygon =
                make_offset_box(half_extents.x, half_extents.y, *center, Rot::IDENTITY)?;
            polygon.radius = *radius;
            world.create_polygon_shape(body, &def, &polygon)?;
        }
        Geometry::Hull { points, radius } => {
            world.create_polygon_shape(body, &def, &make_polygon(points, *radius)?)?;
        }
        Geometry::Circle { center, radius } => {
            world.create_circle_shape(
                body,
                &def,
                &Circle {
                    center: *center,
                    radius: *radius,
                },
            )?;
        }
        Geometry::Capsule {
            center1,
            center2,
            radius,
        } => {
            let capsule = Capsule {
                center1: *center1,
                center2: *center2,
                radius: *radius,
            };
            world.create_capsule_shape(body, &def, &capsule)?;
        }
        Geometry::Segment { point1, point2 } => {
            let segment = Segment {
                point1: *point1,
                point2: *point2,
            };
            world.create_segment_shape(body, &def, &segment)?;
        }
        Geometry::ChainLoop { points } => {
            world.create_chain(body, &def, points, true)?;
        }
    }
    Ok(())
}
