//! The eight benchmark scenes of shared/BENCHMARKS.md, described once and engine-neutrally.
//!
//! Every backend (Prism, Box2D, Rapier) builds the same scene from the same data, so a
//! difference in the numbers cannot come from two hand-written copies of a scene drifting
//! apart. A scene is:
//!
//! - a [`SceneSpec`]: name, step count, gravity and whether sleeping is on;
//! - an initial [`BodyGroup`]: bodies (each with its shapes) and revolute joints, joints naming
//!   bodies by their index inside the group;
//! - [`Probes`]: which bodies the quality figures look at (the top box of each pyramid, the
//!   motor-driven body);
//! - a [`SceneScript`] for scenes that change while they run (rain creates and destroys groups
//!   of humans every eighth step).
//!
//! Groups live in numbered *slots* of an engine: the initial group in [`MAIN_SLOT`], rain's
//! human groups in slots after it, so a script can remove and recreate one group by its slot.
//!
//! The facts are Box2D v3's benchmark definitions as written in `BENCHMARKS.md` (units: metres,
//! kilograms, seconds, radians). Defaults follow Box2D: density 1, friction 0.6, restitution 0,
//! collision category 1, mask all, no group.

pub use prism::Vec2;
use std::f32::consts::PI;

/// Time step of every scene: 60 Hz.
pub const TIME_STEP: f32 = 1.0 / 60.0;
/// Solver substeps per step (Box2D's default; Rapier's `num_solver_iterations`).
pub const SUBSTEPS: usize = 4;
/// The slot holding a scene's initial group.
pub const MAIN_SLOT: usize = 0;

/// The geometry of one shape, in its body's local frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// A box with the given half extents centred at `center`, rounded by `radius` (0 = sharp).
    Box {
        half_extents: Vec2,
        center: Vec2,
        radius: f32,
    },
    /// The convex hull of `points`, rounded by `radius`.
    Hull {
        points: Vec<Vec2>,
        radius: f32,
    },
    Circle {
        center: Vec2,
        radius: f32,
    },
    Capsule {
        center1: Vec2,
        center2: Vec2,
        radius: f32,
    },
    Segment {
        point1: Vec2,
        point2: Vec2,
    },
    /// A closed loop of one-sided segments through `points` (Box2D's chain shape). Each
    /// segment collides only from its right-hand side, so a clockwise loop is solid outside
    /// and open inside.
    ChainLoop {
        points: Vec<Vec2>,
    },
}

/// Box2D's collision filter: shapes A and B collide when `A.category & B.mask != 0` and
/// `B.category & A.mask != 0`, except that two shapes with the same non-zero group never
/// collide when the group is negative (and always collide when it is positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    pub category: u64,
    pub mask: u64,
    pub group: i32,
}

impl Filter {
    pub const DEFAULT: Filter = Filter {
        category: 1,
        mask: u64::MAX,
        group: 0,
    };

    /// Whether two shapes with these filters collide, by Box2D's rule.
    pub fn collides_with(&self, other: &Filter) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        self.category & other.mask != 0 && other.category & self.mask != 0
    }
}

/// One shape and its material.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeDesc {
    pub geometry: Geometry,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub filter: Filter,
}

impl ShapeDesc {
    /// A shape with Box2D's default material and filter.
    pub fn new(geometry: Geometry) -> Self {
        Self {
            geometry,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::DEFAULT,
        }
    }

    pub fn density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    pub fn friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    pub fn restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }
}

/// A sharp box centred on its body.
pub fn square_box(half_x: f32, half_y: f32) -> Geometry {
    offset_box(half_x, half_y, Vec2::ZERO)
}

/// A sharp box centred at `center` in its body's frame.
pub fn offset_box(half_x: f32, half_y: f32, center: Vec2) -> Geometry {
    Geometry::Box {
        half_extents: Vec2::new(half_x, half_y),
        center,
        radius: 0.0,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Static,
    Dynamic,
}

/// One rigid body: where it starts, how it moves, and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    pub kind: BodyKind,
    pub position: Vec2,
    pub linear_velocity: Vec2,
    pub linear_damping: f32,
    /// Created asleep (smash's targets).
    pub starts_asleep: bool,
    /// May this body ever sleep (false for spinner's spinner)?
    pub can_sleep: bool,
    /// Box2D's per-body sleep speed threshold, m/s (Box2D's default 0.05).
    pub sleep_threshold: f32,
    pub shapes: Vec<ShapeDesc>,
}

impl BodyDesc {
    pub fn new(kind: BodyKind, position: Vec2) -> Self {
        Self {
            kind,
            position,
            linear_velocity: Vec2::ZERO,
            linear_damping: 0.0,
            starts_asleep: false,
            can_sleep: true,
            sleep_threshold: 0.05,
            shapes: Vec::new(),
        }
    }

    pub fn with_shape(mut self, shape: ShapeDesc) -> Self {
        self.shapes.push(shape);
        self
    }
}

/// A rotational spring on a revolute joint, driving the relative angle to zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AngularSpring {
    pub hertz: f32,
    pub damping_ratio: f32,
}

/// A revolute motor: drive the relative angular speed to `speed` with at most `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    pub speed: f32,
    pub max_torque: f32,
}

/// A revolute joint between two bodies of the same group (indices into `BodyGroup::bodies`).
/// The relative angle is `angle(B) − angle(A)`, zero at creation.
#[derive(Clone, Debug, PartialEq)]
pub struct RevoluteDesc {
    pub body_a: usize,
    pub body_b: usize,
    pub local_anchor_a: Vec2,
    pub local_anchor_b: Vec2,
    /// Lower and upper relative angle, radians.
    pub limits: Option<[f32; 2]>,
    pub spring: Option<AngularSpring>,
    pub motor: Option<Motor>,
}

impl RevoluteDesc {
    /// A plain hinge (no limits, spring or motor).
    pub fn hinge(body_a: usize, body_b: usize, local_anchor_a: Vec2, local_anchor_b: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            limits: None,
            spring: None,
            motor: None,
        }
    }
}

/// Bodies and the joints between them, created and destroyed together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BodyGroup {
    pub bodies: Vec<BodyDesc>,
    pub joints: Vec<RevoluteDesc>,
}

impl BodyGroup {
    pub fn shape_count(&self) -> usize {
        self.bodies.iter().map(|b| b.shapes.len()).sum()
    }
}

/// The bodies the quality figures look at, as indices into the main group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Probes {
    /// The top box of each pyramid (its drop is reported).
    pub top_boxes: Vec<usize>,
    /// The body driven by the scene's motor (its angular speed is reported).
    pub motor_body: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneId {
    LargePyramid,
    ManyPyramids,
    JointGrid,
    Rain,
    Smash,
    Spinner,
    Tumbler,
    Compounds,
    SleepingField,
    SleepingFieldBaseline,
}

/// The fixed facts of a scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneSpec {
    pub id: SceneId,
    pub name: &'static str,
    pub steps: usize,
    pub sleep_enabled: bool,
    pub gravity: Vec2,
    pub has_joints: bool,
}

const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);

/// All scenes, in BENCHMARKS.md order.
pub const SCENES: [SceneSpec; 10] = [
    spec(
        SceneId::LargePyramid,
        "large_pyramid",
        500,
        false,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::ManyPyramids,
        "many_pyramids",
        200,
        false,
        GRAVITY,
        false,
    ),
    spec(SceneId::JointGrid, "joint_grid", 500, false, GRAVITY, true),
    spec(SceneId::Rain, "rain", 1000, true, GRAVITY, true),
    spec(SceneId::Smash, "smash", 300, true, Vec2::ZERO, false),
    spec(SceneId::Spinner, "spinner", 500, true, GRAVITY, true),
    spec(SceneId::Tumbler, "tumbler", 750, true, GRAVITY, true),
    spec(SceneId::Compounds, "compounds", 500, true, GRAVITY, false),
    spec(
        SceneId::SleepingField,
        "sleeping_field",
        600,
        true,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::SleepingFieldBaseline,
        "sleeping_field_baseline",
        600,
        true,
        GRAVITY,
        false,
    ),
];

const fn spec(
    id: SceneId,
    name: &'static str,
    steps: usize,
    sleep_enabled: bool,
    gravity: Vec2,
    has_joints: bool,
) -> SceneSpec {
    SceneSpec {
        id,
        name,
        steps,
        sleep_enabled,
        gravity,
        has_joints,
    }
}

/// Looks a scene up by name.
pub fn find_scene(name: &str) -> Option<SceneSpec> {
    SCENES.iter().copied().find(|s| s.name == name)
}

impl SceneSpec {
    /// Pyramid scenes report the drop of their top boxes.
    pub fn is_pyramid(&self) -> bool {
        matches!(self.id, SceneId::LargePyramid | SceneId::ManyPyramids)
    }

    /// Motor scenes report the achieved speed of their motor-driven body.
    pub fn has_motor(&self) -> bool {
        matches!(self.id, SceneId::Spinner | SceneId::Tumbler)
    }

    /// The initial bodies and joints, and the probes into them.
    pub fn build(&self) -> (BodyGroup, Probes) {
        match self.id {
            SceneId::LargePyramid => large_pyramid(),
            SceneId::ManyPyramids => many_pyramids(),
            SceneId::JointGrid => (joint_grid(), Probes::default()),
            SceneId::Rain => (rain_ground(), Probes::default()),
            SceneId::Smash => (smash(), Probes::default()),
            SceneId::Spinner => spinner(),
            SceneId::Tumbler => tumbler(),
            SceneId::Compounds => (compounds(), Probes::default()),
            SceneId::SleepingField => (crate::sleeping::sleeping_field(), Probes::default()),
            SceneId::SleepingFieldBaseline => (crate::sleeping::bouncing_pen(), Probes::default()),
        }
    }

    /// The scene's script, for scenes that change while they run.
    pub fn script(&self) -> SceneScript {
        match self.id {
            SceneId::Rain => SceneScript::Rain(RainScript::default()),
            _ => SceneScript::None,
        }
    }
}

/// Pushes the boxes of one pyramid and returns the index of its top box. With `base` boxes
/// of half extent `a` at the bottom, row `i` sits at `y = (2i + 1)a + base_y` and its box
/// `j ∈ i..base` at `x = (i + 1)a + 2(j − i)a + left_x`: each row starts half a box further
/// right than the one below, so the boxes stack brick-wise.
fn push_pyramid(
    bodies: &mut Vec<BodyDesc>,
    base: usize,
    a: f32,
    left_x: f32,
    base_y: f32,
) -> usize {
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * a + base_y;
        for j in i..base {
            let x = (i as f32 + 1.0) * a + 2.0 * (j - i) as f32 * a + left_x;
            let body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y))
                .with_shape(ShapeDesc::new(square_box(a, a)));
            bodies.push(body);
        }
    }
    bodies.len() - 1
}

fn large_pyramid() -> (BodyGroup, Probes) {
    let ground = BodyDesc::new(BodyKind::Static, Vec2::new(0.0, -1.0))
        .with_shape(ShapeDesc::new(square_box(100.0, 1.0)));
    let mut bodies = vec![ground];
    let (base, a) = (100, 0.5);
    let top = push_pyramid(&mut bodies, base, a, -a * base as f32, 0.0);
    let probes = Probes {
        top_boxes: vec![top],
        motor_body: None,
    };
    (
        BodyGroup {
            bodies,
            joints: Vec::new(),
        },
        probes,
    )
}

fn many_pyramids() -> (BodyGroup, Probes) {
    let (base, a, rows, columns) = (10usize, 0.5f32, 20usize, 20usize);
    let ground_delta_y = 2.0 * a * (base as f32 + 1.0);
    let ground_width = 2.0 * a * columns as f32 * (base as f32 + 1.0);
    let mut ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    for i in 0..rows {
        let y = ground_delta_y * i as f32;
        let segment = Geometry::Segment {
            point1: Vec2::new(-0.5 * ground_width, y),
            point2: Vec2::new(0.5 * ground_width, y),
        };
        ground.shapes.push(ShapeDesc::new(segment));
    }
    let mut bodies = vec![ground];
    let mut top_boxes = Vec::new();
    for row in 0..rows {
        let base_y = ground_delta_y * row as f32;
        for column in 0..columns {
            let center_x = -0.5 * ground_width + column as f32 * (base as f32 + 1.0) + 1.0;
            top_boxes.push(push_pyramid(&mut bodies, base, a, center_x - a, base_y));
        }
    }
    let probes = Probes {
        top_boxes,
        motor_body: None,
    };
    (
        BodyGroup {
            bodies,
            joints: Vec::new(),
        },
        probes,
    )
}

fn joint_grid() -> BodyGroup {
    const N: usize = 100;
    let circle_filter = Filter {
        category: 2,
        mask: !2,
        group: 0,
    };
    let circle = ShapeDesc::new(Geometry::Circle {
        center: Vec2::ZERO,
        radius: 0.4,
    })
    .filter(circle_filter);
    let mut group = BodyGroup::default();
    for k in 0..N {
        for i in 0..N {
            let is_anchor = (N / 2 - 3..=N / 2 + 3).contains(&k) && i == 0;
            let kind = if is_anchor {
                BodyKind::Static
            } else {
                BodyKind::Dynamic
            };
            let index = group.bodies.len();
            let body = BodyDesc::new(kind, Vec2::new(k as f32, -(i as f32)));
            group.bodies.push(body.with_shape(circle.clone()));
            if i > 0 {
                let (above, below) = (Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5));
                group
                    .joints
                    .push(RevoluteDesc::hinge(index - 1, index, above, below));
            }
            if k > 0 {
                let (left, right) = (Vec2::new(0.5, 0.0), Vec2::new(-0.5, 0.0));
                group
                    .joints
                    .push(RevoluteDesc::hinge(index - N, index, left, right));
            }
        }
    }
    group
}

/// Rain's layout: rows of ground, columns of human groups, humans per group.
pub const RAIN_ROWS: usize = 5;
pub const RAIN_COLUMNS: usize = 40;
pub const RAIN_GROUP_SIZE: usize = 5;
const RAIN_SPAN: f32 = 250.0;
const RAIN_ROW_SPACING: f32 = 45.0;

fn rain_ground() -> BodyGroup {
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

/// BENCHMARKS.md's human at scale 1, in Box2D's bone order (hip, torso, head, left leg,
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
            group.joints.push(human_joint(group, first, parent, bone));
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

/// What a script asks of an engine before a step.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupAction {
    Insert { slot: usize, group: BodyGroup },
    Remove { slot: usize },
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

    fn actions(&mut self, step: usize) -> Vec<GroupAction> {
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

/// A scene's per-step behaviour beyond stepping the world.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneScript {
    None,
    Rain(RainScript),
}

impl SceneScript {
    /// The group changes to apply before step `step` (0-based).
    pub fn actions(&mut self, step: usize) -> Vec<GroupAction> {
        match self {
            SceneScript::None => Vec::new(),
            SceneScript::Rain(rain) => rain.actions(step),
        }
    }
}

fn smash() -> BodyGroup {
    let mut smasher = BodyDesc::new(BodyKind::Dynamic, Vec2::new(-20.0, 0.0))
        .with_shape(ShapeDesc::new(square_box(4.0, 4.0)).density(8.0));
    smasher.linear_velocity = Vec2::new(40.0, 0.0);
    let mut bodies = vec![smasher];
    let d = 0.4;
    for i in 0..120 {
        for j in 0..80 {
            let position = Vec2::new(30.0 + d * i as f32, d * (j as f32 - 40.0));
            let mut target = BodyDesc::new(BodyKind::Dynamic, position)
                .with_shape(ShapeDesc::new(square_box(0.5 * d, 0.5 * d)));
            target.starts_asleep = true;
            bodies.push(target);
        }
    }
    BodyGroup {
        bodies,
        joints: Vec::new(),
    }
}

/// The spinner's loop: 360 points on a circle of radius 40 centred at (0, 32), walked
/// clockwise by repeatedly rotating `p` by −2π/360 (in f32, as Box2D does).
fn spinner_loop_points() -> Vec<Vec2> {
    const COUNT: usize = 360;
    let (sin, cos) = (-2.0 * PI / COUNT as f32).sin_cos();
    let mut p = Vec2::new(40.0, 0.0);
    let mut points = Vec::with_capacity(COUNT);
    for _ in 0..COUNT {
        points.push(Vec2::new(p.x, p.y + 32.0));
        p = Vec2::new(cos * p.x - sin * p.y, sin * p.x + cos * p.y);
    }
    points
}

fn spinner() -> (BodyGroup, Probes) {
    let chain = Geometry::ChainLoop {
        points: spinner_loop_points(),
    };
    let ground =
        BodyDesc::new(BodyKind::Static, Vec2::ZERO).with_shape(ShapeDesc::new(chain).friction(0.1));
    let blade = Geometry::Box {
        half_extents: Vec2::new(0.4, 20.0),
        center: Vec2::ZERO,
        radius: 0.2,
    };
    let spinner_position = Vec2::new(0.0, 12.0);
    let mut spinner = BodyDesc::new(BodyKind::Dynamic, spinner_position)
        .with_shape(ShapeDesc::new(blade).friction(0.0));
    spinner.can_sleep = false;
    let motor = Motor {
        speed: 5.0,
        max_torque: f32::MAX,
    };
    let joint = RevoluteDesc {
        motor: Some(motor),
        ..RevoluteDesc::hinge(0, 1, spinner_position, Vec2::ZERO)
    };
    let mut bodies = vec![ground, spinner];
    push_spinner_debris(&mut bodies);
    let probes = Probes {
        top_boxes: Vec::new(),
        motor_body: Some(1),
    };
    (
        BodyGroup {
            bodies,
            joints: vec![joint],
        },
        probes,
    )
}

fn push_spinner_debris(bodies: &mut Vec<BodyDesc>) {
    let (mut x, mut y) = (-23.0f32, 2.0f32);
    for i in 0..6076 {
        let geometry = match i % 3 {
            0 => Geometry::Capsule {
                center1: Vec2::new(-0.25, 0.0),
                center2: Vec2::new(0.25, 0.0),
                radius: 0.25,
            },
            1 => Geometry::Circle {
                center: Vec2::ZERO,
                radius: 0.35,
            },
            _ => square_box(0.35, 0.35),
        };
        let shape = ShapeDesc::new(geometry)
            .density(0.25)
            .friction(0.1)
            .restitution(0.1);
        bodies.push(BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y)).with_shape(shape));
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
}

fn tumbler() -> (BodyGroup, Probes) {
    let ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    let mut drum = BodyDesc::new(BodyKind::Dynamic, Vec2::new(0.0, 10.0));
    let walls = [
        (0.5, 10.0, Vec2::new(10.0, 0.0)),
        (0.5, 10.0, Vec2::new(-10.0, 0.0)),
        (10.0, 0.5, Vec2::new(0.0, 10.0)),
        (10.0, 0.5, Vec2::new(0.0, -10.0)),
    ];
    for (hx, hy, center) in walls {
        drum.shapes
            .push(ShapeDesc::new(offset_box(hx, hy, center)).density(50.0));
    }
    let motor = Motor {
        speed: 25.0_f32.to_radians(),
        max_torque: 1.0e8,
    };
    let joint = RevoluteDesc {
        motor: Some(motor),
        ..RevoluteDesc::hinge(0, 1, Vec2::new(0.0, 10.0), Vec2::ZERO)
    };
    let mut bodies = vec![ground, drum];
    for i in 0..45 {
        for j in 0..45 {
            let position = Vec2::new(-9.0 + 0.4 * j as f32, 1.0 + 0.4 * i as f32);
            let body = BodyDesc::new(BodyKind::Dynamic, position)
                .with_shape(ShapeDesc::new(square_box(0.125, 0.125)));
            bodies.push(body);
        }
    }
    let probes = Probes {
        top_boxes: Vec::new(),
        motor_body: Some(1),
    };
    (
        BodyGroup {
            bodies,
            joints: vec![joint],
        },
        probes,
    )
}

fn compounds() -> BodyGroup {
    let mut ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    for i in 0..81 {
        let floor = offset_box(0.55, 0.5, Vec2::new(-40.0 + i as f32, 0.0));
        ground.shapes.push(ShapeDesc::new(floor));
    }
    for side in [-40.0, 40.0] {
        for i in 0..100 {
            let wall = offset_box(0.5, 0.55, Vec2::new(side, 1.0 + i as f32));
            ground.shapes.push(ShapeDesc::new(wall));
        }
    }
    let floor = Geometry::Segment {
        point1: Vec2::new(-800.0, -80.0),
        point2: Vec2::new(800.0, -80.0),
    };
    ground.shapes.push(ShapeDesc::new(floor));
    let mut bodies = vec![ground];
    let triangle = |points: [(f32, f32); 3]| {
        let points = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        ShapeDesc::new(Geometry::Hull {
            points,
            radius: 0.0,
        })
        .friction(0.5)
    };
    let left = triangle([(-1.0, 0.0), (0.5, 1.0), (0.0, 2.0)]);
    let right = triangle([(1.0, 0.0), (-0.5, 1.0), (0.0, 2.0)]);
    let mut side = 0.25;
    for i in 0..20 {
        for j in 0..150 {
            let x = 2.0 * i as f32 - 19.0 + side;
            let y = j as f32 * 2.25 + 0.575 + 5.0;
            let body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y))
                .with_shape(left.clone())
                .with_shape(right.clone());
            bodies.push(body);
            side = -side;
        }
    }
    BodyGroup {
        bodies,
        joints: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies, shapes and joints of each scene against BENCHMARKS.md's counters table
    /// (rain: once all 40 columns exist).
    #[test]
    fn scene_sizes_match_the_counters_table() {
        let expected = [
            ("large_pyramid", 5051, 5051, 0),
            ("many_pyramids", 22001, 22020, 0),
            ("joint_grid", 10000, 10000, 19800),
            ("smash", 9601, 9601, 0),
            ("tumbler", 2027, 2029, 1),
            ("compounds", 3001, 6282, 0),
        ];
        for (name, bodies, shapes, joints) in expected {
            let (group, _) = find_scene(name).unwrap().build();
            assert_eq!(group.bodies.len(), bodies, "{name} bodies");
            assert_eq!(group.shape_count(), shapes, "{name} shapes");
            assert_eq!(group.joints.len(), joints, "{name} joints");
        }
        // Spinner: one chain shape that Box2D splits into 360 segments.
        let (group, _) = find_scene("spinner").unwrap().build();
        assert_eq!(group.bodies.len(), 6078);
        assert_eq!(group.shape_count() - 1 + 360, 6437);
        assert_eq!(group.joints.len(), 1);
    }

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
        for joint in &group.joints {
            let a = group.bodies[joint.body_a].position + joint.local_anchor_a;
            let b = group.bodies[joint.body_b].position + joint.local_anchor_b;
            assert!((a - b).length() < 1e-5, "{a:?} vs {b:?}");
        }
        // Torso pivot of the first human of group (2, 7): x = −125 + 6.25·7.5, y = 40 + 90 + 1.
        let torso = &group.joints[0];
        let pivot = group.bodies[torso.body_a].position + torso.local_anchor_a;
        assert!((pivot.x - (-125.0 + 6.25 * 7.5)).abs() < 1e-4);
        assert!((pivot.y - 131.0).abs() < 1e-4);
    }

    #[test]
    fn pyramid_top_boxes_sit_on_their_rows() {
        let (group, probes) = find_scene("large_pyramid").unwrap().build();
        let top = &group.bodies[probes.top_boxes[0]];
        // Row 99: y = 199 · 0.5, x = 100 · 0.5 − 50 = 0.
        assert_eq!(top.position, Vec2::new(0.0, 99.5));
        let (group, probes) = find_scene("many_pyramids").unwrap().build();
        assert_eq!(probes.top_boxes.len(), 400);
        // Pyramid (0, 0): centerX = −109, top row 9 at x = 5 + centerX − 0.5, y = 9.5.
        let top = &group.bodies[probes.top_boxes[0]];
        assert_eq!(top.position, Vec2::new(-104.5, 9.5));
    }

    #[test]
    fn spinner_loop_is_a_clockwise_circle() {
        let points = spinner_loop_points();
        let center = Vec2::new(0.0, 32.0);
        for p in &points {
            assert!(((*p - center).length() - 40.0).abs() < 1e-3);
        }
        // Shoelace area is negative for clockwise order; |area| ≈ π·40² (polygon, 360 sides).
        let area: f32 = (0..points.len())
            .map(|i| {
                let (p, q) = (points[i], points[(i + 1) % points.len()]);
                0.5 * (p.x * q.y - q.x * p.y)
            })
            .sum();
        let polygon_area = 0.5 * 360.0 * 1600.0 * (2.0 * PI / 360.0).sin();
        assert!(
            area < 0.0 && (area.abs() - polygon_area).abs() < 1.0,
            "{area}"
        );
    }

    #[test]
    fn box2d_filter_rule() {
        let bone = |g: i32| Filter {
            category: 2,
            mask: 3,
            group: -g,
        };
        let foot = |g: i32| Filter {
            category: 2,
            mask: 1,
            group: -g,
        };
        assert!(!bone(1).collides_with(&bone(1)));
        assert!(bone(1).collides_with(&bone(2)));
        assert!(!foot(1).collides_with(&bone(2)));
        assert!(foot(1).collides_with(&Filter::DEFAULT));
        let circle = Filter {
            category: 2,
            mask: !2,
            group: 0,
        };
        assert!(!circle.collides_with(&circle));
    }
}
