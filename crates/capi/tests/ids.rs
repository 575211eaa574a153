//! Stale and null ids: an id outlives its object harmlessly and never reaches a newer object
//! in the same slot.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;

/// The slot index and generation packed in an id.
fn index_generation(bits: u64) -> (u32, u32) {
    (bits as u32, (bits >> 32) as u32)
}

#[test]
fn a_destroyed_body_and_its_shapes_go_stale_without_aliasing_their_successors() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let first = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(1.0, 2.0));
    let first_shape = world.add_box(first, 0.5, 0.5, &prism_default_shape_def());
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_destroy(world.ptr, first) });

    let mut position = PrismVec2::default();
    // SAFETY: a live world and output; the stale id is what is tested.
    let status = unsafe { prism_body_get_position(world.ptr, first, &mut position) };
    let (index, generation) = index_generation(first.bits);
    fails(
        status,
        PrismStatus::InvalidId,
        &[&format!(
            "prism_body_get_position: body id (index {index}, generation {generation}) does \
             not refer to a live body"
        )],
    );
    let mut owner = PrismBodyId::default();
    // SAFETY: as above, for the destroyed body's shape.
    let status = unsafe { prism_shape_get_body(world.ptr, first_shape, &mut owner) };
    fails(status, PrismStatus::InvalidId, &["shape id"]);

    // The next body reuses the slot with a new generation.
    let second = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(-3.0, 4.0));
    let (second_index, second_generation) = index_generation(second.bits);
    assert_eq!(second_index, index, "the freed slot is reused");
    assert!(second_generation > generation, "with a newer generation");

    // SAFETY: a live world and output; the stale id must still fail.
    let status = unsafe { prism_body_get_position(world.ptr, first, &mut position) };
    assert_eq!(
        status,
        PrismStatus::InvalidId,
        "the old id does not alias the new body"
    );
    assert_eq!(world.position(second), vec2(-3.0, 4.0));
    // SAFETY: a live world.
    unsafe {
        assert!(!prism_body_is_valid(world.ptr, first));
        assert!(prism_body_is_valid(world.ptr, second));
        assert!(!prism_shape_is_valid(world.ptr, first_shape));
    }
    // SAFETY: a live world; destroying twice must fail, not destroy the newcomer.
    let status = unsafe { prism_body_destroy(world.ptr, first) };
    assert_eq!(status, PrismStatus::InvalidId);
    assert_eq!(world.counters().bodies, 1);
}

#[test]
fn zeroed_ids_are_never_valid() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.0));
    let null = PrismBodyId::default();
    let mut velocity = PrismVec2::default();
    // SAFETY: a live world and output; the zeroed id is what is tested.
    let status = unsafe { prism_body_get_linear_velocity(world.ptr, null, &mut velocity) };
    fails(status, PrismStatus::InvalidId, &["generation 0"]);
    // SAFETY: a live world.
    unsafe {
        assert!(!prism_body_is_valid(world.ptr, null));
        assert!(!prism_shape_is_valid(world.ptr, PrismShapeId::default()));
        assert!(!prism_joint_is_valid(world.ptr, PrismJointId::default()));
    }
}

#[test]
fn joints_die_with_their_bodies() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let ground = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 0.0));
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(1.0, 0.0));
    let mut def = prism_default_distance_joint_def();
    def.base.body_a = ground;
    def.base.body_b = body;
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_distance(world.ptr, &def, &mut joint) });
    // SAFETY: a live world.
    assert!(unsafe { prism_joint_is_valid(world.ptr, joint) });
    let mut base = prism_default_joint_def();
    // SAFETY: a live world and output.
    ok(unsafe { prism_joint_get_def(world.ptr, joint, &mut base) });
    assert_eq!((base.body_a, base.body_b), (ground, body));

    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_destroy(world.ptr, body) });
    // SAFETY: a live world.
    assert!(!unsafe { prism_joint_is_valid(world.ptr, joint) });
    // SAFETY: a live world; the stale joint is what is tested.
    let status = unsafe { prism_joint_destroy(world.ptr, joint) };
    fails(
        status,
        PrismStatus::InvalidId,
        &["prism_joint_destroy: joint id"],
    );
}
