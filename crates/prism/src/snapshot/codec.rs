//! The encoding of the world's own records (core-soa's `snapshot` codec): each struct's fields
//! in declaration order, each enum as a tag byte. Records with private fields encode next to
//! their definitions (`broadphase.rs`, `recycle.rs`, `sensor.rs`, `sleep.rs`); the other crates
//! encode theirs (trees, islands, graph colours, solver records, body tiers).

use crate::body::Body;
use crate::broadphase::TreeKind;
use crate::constraint_list::{Edge, ListHead};
use crate::contact::{BodyRef, Contact, ContactSim, GraphPlace};
use crate::def::{Filter, WorldDef};
use crate::events::{ContactBeginTouchEvent, ContactEndTouchEvent, ContactEvents, EventBuffers};
use crate::hit::ContactHitEvent;
use crate::island::Islands;
use crate::joint::{JointBreakEvent, JointDef, JointRecord, JointStore};
use crate::move_events::BodyMoveEvent;
use crate::sensor::{SensorBeginTouchEvent, SensorEndTouchEvent, SensorEvents};
use crate::shape::ShapeRecord;
use crate::sleep::{BodyEvents, BodySleepEvent, BodyWakeEvent};
use crate::solver_set::SolverSet;
use core_soa::snap_struct;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};

snap_struct!(WorldDef {
    gravity,
    contact_hertz,
    contact_damping_ratio,
    max_contact_push_speed,
    joint_hertz,
    joint_damping_ratio,
    restitution_threshold,
    max_linear_speed,
    linear_slop,
    baumgarte,
    solver_kind,
    enable_warm_starting,
    enable_contact_recycling,
    force_overflow,
    worker_count,
    enable_sleep,
    enable_continuous,
    hit_event_threshold,
});
snap_struct!(Body {
    body_type,
    shapes,
    contacts,
    joints,
    set_index,
    local_index,
    user_data,
    fixed_rotation,
    inertia_scale,
    is_bullet,
});
snap_struct!(ListHead { first, count });
snap_struct!(Edge { body, prev, next });
snap_struct!(SolverSet {
    bodies,
    contacts,
    joints
});
snap_struct!(Filter {
    category_bits,
    mask_bits,
    group_index
});
snap_struct!(ShapeRecord {
    body,
    geometry,
    density,
    friction,
    restitution,
    filter,
    enable_contact_events,
    user_data,
    is_sensor,
    enable_sensor_events,
    enable_hit_events,
    enable_custom_filtering,
    enable_pre_solve_events,
    tree,
    proxy,
    fat_aabb,
} skip { sizes });
snap_struct!(BodyRef { set, local });
snap_struct!(GraphPlace { color, ends });
snap_struct!(Contact {
    shape_a,
    shape_b,
    edges,
    set_index,
    graph,
    local_index,
});
snap_struct!(ContactSim {
    solver,
    contact,
    shape_a,
    shape_b,
    bodies,
    touching,
    enable_events,
    enable_hit_events,
    enable_pre_solve,
    recyclable,
    frame,
});
snap_struct!(JointDef {
    body_a,
    body_b,
    local_anchor_a,
    local_anchor_b,
    collide_connected,
    break_force,
    break_torque,
    user_data,
});
snap_struct!(JointRecord {
    base,
    frame_a,
    frame_b,
    edges,
    set_index,
    graph,
    local_index,
});
snap_struct!(JointStore {
    arena,
    breakable,
    break_events,
    substep
});
snap_struct!(JointBreakEvent {
    joint,
    body_a,
    body_b,
    force,
    torque,
    user_data,
});
snap_struct!(Islands {
    graph,
    sets,
    events
});
snap_struct!(BodyEvents { sleep, wake });
snap_struct!(BodySleepEvent { body, island });
snap_struct!(BodyWakeEvent { body, island });
snap_struct!(EventBuffers {
    current,
    pending_end,
    hit_shapes
});
snap_struct!(ContactEvents { begin, end, hit });
snap_struct!(ContactBeginTouchEvent {
    shape_a,
    shape_b,
    manifold
});
snap_struct!(ContactEndTouchEvent { shape_a, shape_b });
snap_struct!(ContactHitEvent {
    shape_a,
    shape_b,
    point,
    normal,
    approach_speed,
});
snap_struct!(SensorEvents { begin, end });
snap_struct!(SensorBeginTouchEvent {
    sensor_shape,
    visitor_shape
});
snap_struct!(SensorEndTouchEvent {
    sensor_shape,
    visitor_shape
});
snap_struct!(BodyMoveEvent {
    body,
    transform,
    user_data,
    fell_asleep,
});

impl Snap for TreeKind {
    fn put(&self, w: &mut Writer) {
        let tag: u8 = match self {
            TreeKind::Static => 0,
            TreeKind::Moving => 1,
            TreeKind::Sleeping => 2,
        };
        tag.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        match u8::get(r)? {
            0 => Ok(TreeKind::Static),
            1 => Ok(TreeKind::Moving),
            2 => Ok(TreeKind::Sleeping),
            tag => Err(r.error("", format!("tree tag {tag}"))),
        }
    }
}
