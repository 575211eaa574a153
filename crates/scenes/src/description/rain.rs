//! rain: groups of five ragdoll humans raining onto five rows of ground blocks, created and
//! destroyed column by column by [`RainScript`] while the scene runs.

use super::MAIN_SLOT;
use super::joint::{AngularSpring, Motor, RevoluteDesc};
use super::model::{BodyDesc, BodyGroup, BodyKind, Filter, Geometry, ShapeDesc, offset_box};
use super::script::GroupAction;
use prism::Vec2;
use std::f32::consts::PI;

/// Rain's layout: rows of ground, columns of human groups, humans per group.
pub const RAIN_ROWS: usize = 5;
/// Columns of human groups across the ground rows.
pub const RAIN_COLUMNS: usize = 40;
/// Humans in one group (one group per column, dropped together).
pub const RAIN_GROUP_SIZE: usize = 5;
const RAIN_SPAN: f32 = 250.0;
const RAIN_ROW_SPACING: f32 = 45.0;

pub(super) fn rain_ground() -> BodyGroup {
    let mut ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    for row in 0..RAIN_ROWS {
        let y = RAIN_ROW_SPACING * row as f32;
        for j in 0..=500 {
            let x = -0.5 * RAIN_SPAN + 0.5 * j as f32;
            let block = offset_box(0.25, 0.25, Vec2::new(x, y));
            ground.shapes.push(ShapeDesc::new(block));
        }
    }
    BodyGroup {
        bodies: vec![ground],
        joints: Vec::new(),
    }
}

/// One bone of a human: where its body sits, its capsule, its joint to its parent.
struct Bone {
    parent: Option<usize>,
    y: f32,
    capsule: [f32; 3],
    pivot: f32,
    limits: [f32; 2],
    friction_scale: f32,
    linear_damping: f32,
}

const fn bone(
    parent: Option<usize>,
    y: f32,
    capsule: [f32; 3],
    pivot: f32,
    limits: [f32; 2],
    friction_scale: f32,
    linear_damping: f32,
) -> Bone {
    Bone {
        parent,
        y,
        capsule,
        pivot,
        limits,
        friction_scale,
        linear_damping,
    }
}

/// Box2D's benchmark human at scale 1, in Box2D's bone order (hip, torso, head, left leg,
/// right leg, left arm, right arm). Limits are in units of π. The hip is the root: its pivot
/// and limits are unused.
#[rustfmt::skip]
const HUMAN_BONES: [Bone; 11] = [
    //   parent    y      capsule y0, y1, r         pivot  limits ×π       friction  damping
    bone(None,    0.95,  [-0.02, 0.02, 0.095],   0.0,   [0.0, 0.0],     1.0,      0.0),
    bone(Some(0), 1.2,   [-0.135, 0.135, 0.09],  1.0,   [-0.25, 0.0],   0.5,      0.0),
    bone(Some(1), 1.475, [-0.038, 0.039, 0.075], 1.4,   [-0.3, 0.1],    0.25,     0.1),
    bone(Some(0), 0.775, [-0.125, 0.125, 0.06],  0.9,   [-0.05, 0.4],   1.0,      0.0),
    bone(Some(3), 0.475, [-0.155, 0.125, 0.045], 0.625, [-0.5, -0.02],  0.5,      0.0),
    bone(Some(0), 0.775, [-0.125, 0.125, 0.06],  0.9,   [-0.05, 0.4],   1.0,      0.0),
    bone(Some(5), 0.475, [-0.155, 0.125, 0.045], 0.625, [-0.5, -0.02],  0.5,      0.0),
    bone(Some(1), 1.225, [-0.125, 0.125, 0.035], 1.35,  [-0.1, 0.8],    0.5,      0.0),
    bone(Some(7), 0.975, [-0.125, 0.125, 0.03],  1.1,   [-0.2, 0.3],    0.1,      0.1),
    bone(Some(1), 1.225, [-0.125, 0.125, 0.035], 1.35,  [-0.1, 0.8],    0.5,      0.0),
    bone(Some(9), 0.975, [-0.125, 0.125, 0.03],  1.1,   [-0.2, 0.3],    0.1,      0.1),
];

/// The bones that carry a foot: the two lower legs.
const FOOT_BONES: [usize; 2] = [4, 6];

const JOINT_FRICTION_TORQUE: f32 = 0.05;
const JOINT_SPRING: AngularSpring = AngularSpring {
    hertz: 5.0,
    damping_ratio: 0.5,
};

/// Appends one human standing at `position` (feet level) to `group`. Humans sharing
/// `group_index` do not collide with each other (Box2D filter group `−group_index`).
fn push_human(group: &mut BodyGroup, position: Vec2, group_index: i32) {
    let first = group.bodies.len();
    let bone_filter = Filter {
        category: 2,
        mask: 1 | 2,
        group: -group_index,
    };
    let foot_filter = Filter {
        mask: 1,
        ..bone_filter
    };
    for (index, bone) in HUMAN_BONES.iter().enumerate() {
        let [y0, y1, radius] = bone.capsule;
        let capsule = Geometry::Capsule {
            center1: Vec2::new(0.0, y0),
            center2: Vec2::new(0.0, y1),
            radius,
        };
        let mut body = BodyDesc::new(BodyKind::Dynamic, position + Vec2::new(0.0, bone.y))
            .with_shape(ShapeDesc::new(capsule).friction(0.2).filter(bone_filter));
        body.linear_damping = bone.linear_damping;
        body.sleep_threshold = 0.1;
        if FOOT_BONES.contains(&index) {
            body.shapes
                .push(ShapeDesc::new(foot()).friction(0.05).filter(foot_filter));
        }
        group.bodies.push(body);
        if let Some(parent) = bone.parent {
            let joint = human_joint(group, first, parent, bone);
            group.joints.push(joint.into());
        }
    }
}

fn foot() -> Geometry {
    let points = [
        (-0.03, -0.185),
        (0.11, -0.185),
        (0.11, -0.16),
        (-0.03, -0.14),
    ];
    Geometry::Hull {
        points: points.iter().map(|&(x, y)| Vec2::new(x, y)).collect(),
        radius: 0.015,
    }
}

/// The joint from `bone` (the last body pushed) to its parent, at the bone's pivot.
fn human_joint(group: &BodyGroup, first: usize, parent: usize, bone: &Bone) -> RevoluteDesc {
    let body_a = first + parent;
    let body_b = group.bodies.len() - 1;
    let pos_a = group.bodies[body_a].position;
    let pos_b = group.bodies[body_b].position;
    let pivot = Vec2::new(pos_b.x, pos_b.y - bone.y + bone.pivot);
    RevoluteDesc {
        limits: Some([bone.limits[0] * PI, bone.limits[1] * PI]),
        spring: Some(JOINT_SPRING),
        motor: Some(Motor {
            speed: 0.0,
            max_torque: bone.friction_scale * JOINT_FRICTION_TORQUE,
        }),
        ..RevoluteDesc::hinge(body_a, body_b, pivot - pos_a, pivot - pos_b)
    }
}

/// The five humans of rain's group at (`row`, `column`).
pub fn rain_group(row: usize, column: usize) -> BodyGroup {
    let spacing = RAIN_SPAN / RAIN_COLUMNS as f32;
    let x = -0.5 * RAIN_SPAN + spacing * (column as f32 + 0.5);
    let y = 40.0 + RAIN_ROW_SPACING * row as f32;
    let mut group = BodyGroup::default();
    for i in 0..RAIN_GROUP_SIZE {
        let position = Vec2::new(x + 0.5 * i as f32, y);
        push_human(&mut group, position, i as i32 + 1);
    }
    group
}

/// Rain's spawner: every eighth step, fill the next column of groups (one per row) until 40
/// columns exist, then destroy and recreate the groups of one column, cycling 0..39.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RainScript {
    column_count: usize,
    column_index: usize,
}

impl RainScript {
    /// The slot of the group at (`row`, `column`).
    pub fn slot(row: usize, column: usize) -> usize {
        MAIN_SLOT + 1 + row * RAIN_COLUMNS + column
    }

    pub(super) fn actions(&mut self, step: usize) -> Vec<GroupAction> {
        if step & 7 != 0 {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let column = if self.column_count < RAIN_COLUMNS {
            self.column_count += 1;
            self.column_count - 1
        } else {
            let column = self.column_index;
            self.column_index = (self.column_index + 1) % RAIN_COLUMNS;
            for row in 0..RAIN_ROWS {
                let slot = Self::slot(row, column);
                actions.push(GroupAction::Remove { slot });
            }
            column
        };
        for row in 0..RAIN_ROWS {
            let group = rain_group(row, column);
            let slot = Self::slot(row, column);
            actions.push(GroupAction::Insert { slot, group });
        }
        actions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::{JointDesc, find_scene};

    #[test]
    fn rain_fills_forty_columns_then_cycles() {
        let mut script = find_scene("rain").unwrap().script();
        let (ground, _) = find_scene("rain").unwrap().build();
        let mut live = std::collections::BTreeMap::new();
        for step in 0..1000 {
            for action in script.actions(step) {
                match action {
                    GroupAction::Insert { slot, group } => {
                        assert!(live.insert(slot, group).is_none(), "slot {slot} reused");
                    }
                    GroupAction::Remove { slot } => {
                        assert!(live.remove(&slot).is_some(), "slot {slot} empty");
                    }
                }
            }
        }
        let bodies: usize = live.values().map(|g| g.bodies.len()).sum();
        let shapes: usize = live.values().map(|g| g.shape_count()).sum();
        let joints: usize = live.values().map(|g| g.joints.len()).sum();
        assert_eq!(bodies + ground.bodies.len(), 11001);
        assert_eq!(shapes + ground.shape_count(), 15505);
        assert_eq!(joints, 10000);
    }

    #[test]
    fn human_joint_anchors_meet_at_the_pivot() {
        let group = rain_group(2, 7);
        let world_anchors = |joint: &JointDesc| {
            let ((body_a, body_b), (anchor_a, anchor_b)) = (joint.bodies(), joint.local_anchors());
            let a = group.bodies[body_a].position + anchor_a;
            (a, group.bodies[body_b].position + anchor_b)
        };
        for joint in &group.joints {
            let (a, b) = world_anchors(joint);
            assert!((a - b).length() < 1e-5, "{a:?} vs {b:?}");
        }
        // Torso pivot of the first human of group (2, 7): x = −125 + 6.25·7.5, y = 40 + 90 + 1.
        let (pivot, _) = world_anchors(&group.joints[0]);
        assert!((pivot.x - (-125.0 + 6.25 * 7.5)).abs() < 1e-4);
        assert!((pivot.y - 131.0).abs() < 1e-4);
    }
}
