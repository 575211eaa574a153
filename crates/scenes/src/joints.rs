//! Joint validation scenes: a pile of ragdolls, a chain bridge and a chain holding a weight a
//! hundred times heavier than one of its links.
//!
//! Each stresses a different weakness of an iterative joint solver:
//!
//! - **ragdoll pile** — many short chains with angle limits, in contact with each other and
//!   the ground: limits under impact, joints and contacts in the same colours;
//! - **chain bridge** — 40 planks hinged end to end between two posts: a long chain whose
//!   load travels end to end, the classic case for convergence (it sags, and should not
//!   stretch or jitter);
//! - **heavy chain** — 20 thin links holding a block of 100× a link's mass: the mass-ratio case
//!   `World::mass_ratio_report` flags and `BodyDef::inertia_scale` helps with.
//!
//! The ground is a static box whose top face is y = 0. Probes list the scene's subjects: the
//! ragdolls' torsos, the bridge's planks in order, the chain's links then the weight.

use crate::Probes;
use prism::{
    BodyDef, BodyId, Capsule, Circle, Filter, PrismError, RevoluteJoint, RevoluteJointDef,
    ShapeDef, Vec2, World, make_box,
};

/// A wide static ground box with its top face at y = 0.
fn ground(world: &mut World) -> Result<BodyId, PrismError> {
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(50.0, 1.0)?)?;
    Ok(ground)
}

/// A hinge between `a` and `b` at the world point `at`, with `settings`.
fn hinge(
    world: &mut World,
    a: BodyId,
    b: BodyId,
    at: Vec2,
    settings: RevoluteJoint,
) -> Result<(), PrismError> {
    let base = world.anchored_joint_def(a, b, at)?;
    world.create_revolute_joint(&RevoluteJointDef {
        settings,
        ..RevoluteJointDef::new(base)
    })?;
    Ok(())
}

/// Angle limits (rad) with a little joint friction (a motor at speed 0), as ragdoll joints.
fn limited(lower: f32, upper: f32) -> RevoluteJoint {
    RevoluteJoint {
        enable_limit: true,
        lower_angle: lower,
        upper_angle: upper,
        enable_motor: true,
        motor_speed: 0.0,
        max_motor_torque: 0.5,
        ..RevoluteJoint::default()
    }
}

/// One ragdoll standing with its feet at `feet` (1.8 m tall): a head, a torso, and two arms and
/// two legs of two segments each, hinged with human-like limits. Its shapes share a negative
/// group, so its own parts never collide. Returns the torso.
fn ragdoll(world: &mut World, feet: Vec2, group: i32) -> Result<BodyId, PrismError> {
    let flesh = ShapeDef {
        density: 1.0,
        friction: 0.6,
        filter: Filter {
            group_index: -group,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    let limb = |world: &mut World, top: Vec2, length: f32, radius: f32| {
        let body = world.create_body(&BodyDef::dynamic_at(top))?;
        let capsule = Capsule {
            center1: Vec2::new(0.0, -radius),
            center2: Vec2::new(0.0, radius - length),
            radius,
        };
        world.create_capsule_shape(body, &flesh, &capsule)?;
        Ok::<BodyId, PrismError>(body)
    };
    let hip = feet + Vec2::new(0.0, 0.9);
    let shoulder = feet + Vec2::new(0.0, 1.5);
    let torso = limb(world, shoulder, 0.6, 0.15)?;
    let head = world.create_body(&BodyDef::dynamic_at(shoulder + Vec2::new(0.0, 0.15)))?;
    let skull = Circle {
        center: Vec2::ZERO,
        radius: 0.13,
    };
    world.create_circle_shape(head, &flesh, &skull)?;
    hinge(world, torso, head, shoulder, limited(-0.4, 0.4))?;
    for side in [-0.1f32, 0.1] {
        let thigh = limb(world, hip + Vec2::new(side, 0.0), 0.45, 0.08)?;
        hinge(
            world,
            torso,
            thigh,
            hip + Vec2::new(side, 0.0),
            limited(-0.5, 1.5),
        )?;
        let knee = hip + Vec2::new(side, -0.45);
        let shin = limb(world, knee, 0.45, 0.07)?;
        hinge(world, thigh, shin, knee, limited(-1.8, 0.0))?;
        let arm_top = shoulder + Vec2::new(side * 2.0, -0.05);
        let upper_arm = limb(world, arm_top, 0.3, 0.06)?;
        hinge(world, torso, upper_arm, arm_top, limited(-2.5, 2.5))?;
        let elbow = arm_top + Vec2::new(0.0, -0.3);
        let forearm = limb(world, elbow, 0.3, 0.05)?;
        hinge(world, upper_arm, forearm, elbow, limited(0.0, 2.4))?;
    }
    Ok(torso)
}

/// Twenty ragdolls dropped in a staggered pile onto the ground.
pub fn ragdoll_pile(world: &mut World) -> Result<Probes, PrismError> {
    ground(world)?;
    let mut probes = Probes::default();
    for i in 0..20 {
        let column = (i % 5) as f32;
        let row = (i / 5) as f32;
        let feet = Vec2::new(0.6 * column - 1.2 + 0.2 * row, 0.5 + 2.2 * row);
        probes.subjects.push(ragdoll(world, feet, i + 1)?);
    }
    Ok(probes)
}

/// A bridge of 40 planks (0.5 m × 0.125 m, hinged end to end) spanning 20 m between two posts,
/// 5 m above the ground, with a few boxes dropped on it.
pub fn chain_bridge(world: &mut World) -> Result<Probes, PrismError> {
    let ground = ground(world)?;
    let planks = 40;
    let plank_length = 0.5;
    let height = 5.0;
    let left = -0.5 * planks as f32 * plank_length;
    let mut probes = Probes::default();
    let mut previous = ground;
    for i in 0..planks {
        let x = left + (i as f32 + 0.5) * plank_length;
        let plank = world.create_body(&BodyDef::dynamic_at(Vec2::new(x, height)))?;
        world.create_polygon_shape(
            plank,
            &ShapeDef::default(),
            &make_box(0.5 * plank_length, 0.0625)?,
        )?;
        let pin = Vec2::new(left + i as f32 * plank_length, height);
        hinge(world, previous, plank, pin, RevoluteJoint::default())?;
        probes.subjects.push(plank);
        previous = plank;
    }
    let end = Vec2::new(-left, height);
    hinge(world, previous, ground, end, RevoluteJoint::default())?;
    for i in 0..5 {
        let x = -4.0 + 2.0 * i as f32;
        let load = world.create_body(&BodyDef::dynamic_at(Vec2::new(x, height + 1.0)))?;
        world.create_polygon_shape(load, &ShapeDef::default(), &make_box(0.25, 0.25)?)?;
    }
    Ok(probes)
}

/// Twenty thin links (0.5 m, 0.5 kg) hung from a pivot 12 m up, holding a block 100× a link's
/// mass; released from horizontal, so the weight swings down and whips the chain.
pub fn heavy_chain(world: &mut World) -> Result<Probes, PrismError> {
    ground(world)?;
    let links = 20;
    let link_length = 0.5;
    let top = Vec2::new(0.0, 12.0);
    let pivot = world.create_body(&BodyDef::fixed_at(top))?;
    let link_shape = ShapeDef {
        density: 10.0,
        ..ShapeDef::default()
    };
    let mut probes = Probes::default();
    let mut previous = pivot;
    for i in 0..links {
        let center = top + Vec2::new((i as f32 + 0.5) * link_length, 0.0);
        let link = world.create_body(&BodyDef::dynamic_at(center))?;
        world.create_polygon_shape(link, &link_shape, &make_box(0.5 * link_length, 0.05)?)?;
        let pin = top + Vec2::new(i as f32 * link_length, 0.0);
        hinge(world, previous, link, pin, RevoluteJoint::default())?;
        probes.subjects.push(link);
        previous = link;
    }
    let link_mass = world.mass_data(previous)?.mass;
    let half = 0.25;
    let heavy = ShapeDef {
        density: 100.0 * link_mass / (4.0 * half * half),
        ..ShapeDef::default()
    };
    let end = top + Vec2::new(links as f32 * link_length, 0.0);
    let weight = world.create_body(&BodyDef::dynamic_at(end + Vec2::new(half, 0.0)))?;
    world.create_polygon_shape(weight, &heavy, &make_box(half, half)?)?;
    hinge(world, previous, weight, end, RevoluteJoint::default())?;
    probes.subjects.push(weight);
    Ok(probes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prism::WorldDef;

    const DT: f32 = 1.0 / 60.0;

    fn run(builder: fn(&mut World) -> Result<Probes, PrismError>, steps: usize) -> (World, Probes) {
        let mut world = World::new(WorldDef::default()).unwrap();
        let probes = builder(&mut world).unwrap();
        for _ in 0..steps {
            world.step(DT, 4).unwrap();
        }
        (world, probes)
    }

    /// Every ragdoll ends on the ground, none sunk into it or flung away; every joint holds
    /// (each limb stays within a few millimetres of its parent's anchor).
    #[test]
    fn ragdolls_pile_up_on_the_ground() {
        let (world, probes) = run(ragdoll_pile, 300);
        assert_eq!(world.joint_ids().len(), 20 * 9);
        for torso in &probes.subjects {
            let p = world.position(*torso).unwrap();
            assert!(p.y > 0.0 && p.y < 8.0 && p.x.abs() < 10.0, "torso at {p:?}");
        }
        for joint in world.joint_ids() {
            let (a, b) = world.joint_anchors(joint).unwrap();
            assert!(
                a.distance(b) < 0.02,
                "joint {joint:?} opened {}",
                a.distance(b)
            );
        }
    }

    /// The bridge sags under its weight but does not stretch: adjacent planks stay pinned.
    #[test]
    fn chain_bridge_sags_without_stretching() {
        let (world, probes) = run(chain_bridge, 300);
        let middle = world.position(probes.subjects[20]).unwrap();
        assert!(
            middle.y < 5.0 && middle.y > 2.0,
            "middle plank at {middle:?}"
        );
        for joint in world.joint_ids() {
            let (a, b) = world.joint_anchors(joint).unwrap();
            assert!(a.distance(b) < 0.02, "pin opened {}", a.distance(b));
        }
    }

    /// The largest distance (m) from the pivot the heavy chain's weight reaches in 10 s with
    /// `def` and `substeps`, and the world at the end. The weight hangs 10.25 m from the pivot
    /// when the chain is unstretched; it never touches the ground.
    fn heavy_chain_reach(def: WorldDef, substeps: u32) -> (f32, World) {
        let mut world = World::new(def).unwrap();
        let probes = heavy_chain(&mut world).unwrap();
        let weight = *probes.subjects.last().unwrap();
        let pivot = Vec2::new(0.0, 12.0);
        let mut farthest = 0.0f32;
        for _ in 0..600 {
            world.step(DT, substeps).unwrap();
            let at = world.position(weight).unwrap();
            farthest = farthest.max(at.distance(pivot));
            assert!(at.y > 0.5, "weight at {at:?}");
        }
        (farthest, world)
    }

    /// The heavy chain swings down and keeps swinging. At the bottom of the swing the links
    /// carry about three times the weight, and the soft joints stretch with the load: about
    /// 9 % at the defaults, under 3 % with 120 Hz joints and 8 substeps (the setting the
    /// static chain test in `prism` needs). Every pin holds either way.
    #[test]
    fn heavy_chain_swings_down_and_holds() {
        let rest = 10.25;
        let (defaults, _) = heavy_chain_reach(WorldDef::default(), 4);
        let stiff = WorldDef {
            joint_hertz: 120.0,
            ..WorldDef::default()
        };
        let (farthest, world) = heavy_chain_reach(stiff, 8);
        println!("heavy chain reach: {defaults:.3} m at the defaults, {farthest:.3} m stiff");
        assert!(defaults < 1.12 * rest, "defaults reached {defaults} m");
        assert!(farthest < 1.03 * rest, "reached {farthest} m");
        for joint in world.joint_ids() {
            let (a, b) = world.joint_anchors(joint).unwrap();
            assert!(a.distance(b) < 0.05, "pin opened {}", a.distance(b));
        }
    }
}
