//! Builds engine-neutral scene descriptions ([`crate::description`]) into a Prism world: the
//! Prism counterpart of the Box2D and Rapier translators in prism-bench, so all three engines
//! run the same bodies.

use crate::description::{BodyDesc, BodyGroup, BodyKind, Filter, Geometry, ShapeDesc};
use prism::{
    BodyDef, BodyId, BodyType, Capsule, Circle, PrismError, Rot, Segment, ShapeDef, World,
    make_offset_box, make_polygon,
};

/// The bodies (and, once joints are built, the joints) one group became, in group order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuiltGroup {
    pub bodies: Vec<BodyId>,
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
    if !group.joints.is_empty() {
        return Err(PrismError::InvalidCount {
            field: "BodyGroup::joints",
            value: u32::try_from(group.joints.len()).unwrap_or(u32::MAX),
            requirement: "none: the World has no joints yet",
        });
    }
    for desc in &group.bodies {
        let body = world.create_body(&body_def(desc))?;
        built.bodies.push(body);
        for shape in &desc.shapes {
            create_shape(world, body, shape)?;
        }
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

/// Destroys a built group's bodies (their shapes and contacts go with them).
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
                make_offset_box(half_extents.x, half_extents.y, *center, Rot::IDENTITY);
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
