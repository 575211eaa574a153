//! The registry of described scenes: each scene's fixed facts ([`SceneSpec`]) and how to build
//! its initial group, probes and script.
//!
//! Three lists: [`SCENES`], the benchmark scenes (what a timing run means by "all");
//! [`VALIDATION_SCENES`], small scenes with quality figures and no timing interest (stacks,
//! heavy-on-light, pendulums); and [`SCALE_SCENES`], the same bins of falling boxes at 10
//! thousand, 100 thousand and a million bodies, timed like the benchmark scenes but run only when
//! asked for. [`find_scene`] looks in all three.

use super::column::{BOARD, UNIT_BOX, column, hand_built_offset, uneven_column};
use super::model::BodyGroup;
use super::pendulum::{pendulum_distance, pendulum_revolute};
use super::probes::Probes;
use super::rain::{RainScript, rain_ground};
use super::script::SceneScript;
use super::{
    card_lean::card_lean, compounds::compounds, heavy_on_light::heavy_on_light,
    joint_grid::joint_grid, large_pyramid::large_pyramid, many_pyramids::many_pyramids,
    scale::scale, sleeping_field, smash::smash, spinner::spinner, tumbler::tumbler,
};
use prism::Vec2;

/// Which scene a [`SceneSpec`] describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneId {
    /// `large_pyramid`: one pyramid of 5,050 boxes.
    LargePyramid,
    /// `many_pyramids`: 400 pyramids of 55 boxes.
    ManyPyramids,
    /// `joint_grid`: a 100 × 100 grid of hinged circles.
    JointGrid,
    /// `rain`: ragdoll humans raining onto rows of ground, created and destroyed as it runs.
    Rain,
    /// `smash`: a heavy box thrown into a wall of 9,600 sleeping boxes.
    Smash,
    /// `spinner`: a motor-driven blade in a chain loop full of debris.
    Spinner,
    /// `tumbler`: a turning drum with 2,025 boxes.
    Tumbler,
    /// `compounds`: 3,000 two-triangle bodies falling into a box.
    Compounds,
    /// The sleeping field: 10,000 sleeping boxes beside 10 bouncing ones.
    SleepingField,
    /// The sleeping field's baseline: the 10 bouncing boxes alone.
    SleepingFieldBaseline,
    /// A column of `n` unit boxes.
    Column(usize),
    /// A column of 30 boards 1 m × 0.1 m.
    Boards30,
    /// A column of `n` unit boxes, each off by up to ±1 mm and ±0.1 mrad.
    UnevenColumn(usize),
    /// A two-storey house of cards.
    CardLean,
    /// A box `ratio` times heavier than the unit box it rests on.
    HeavyOnLight(u32),
    /// A bob on a 1 m rigid distance joint released at 150°.
    PendulumDistance,
    /// A 1 m rod pinned at one end by a revolute joint, released at 150°.
    PendulumRevolute,
    /// `n` bins of [`super::scale::BIN_BOXES`] falling boxes each.
    Scale(usize),
}

/// The fixed facts of a scene: which it is, its name, its step count, whether bodies may
/// sleep, its gravity, and whether it has joints (joint scenes report the joint error).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneSpec {
    /// Which scene this is (selects its builder).
    pub id: SceneId,
    /// The name used on the command line and in results (`large_pyramid`, …).
    pub name: &'static str,
    /// Steps in a full run (at [`TIME_STEP`](super::TIME_STEP)).
    pub steps: usize,
    /// Whether bodies may sleep.
    pub sleep_enabled: bool,
    /// Gravity (m/s²): −10 in y for all scenes but smash (zero gravity).
    pub gravity: Vec2,
    /// Whether the scene has joints (its runs report the joint error).
    pub has_joints: bool,
}

const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);

/// All described scenes: Box2D v3's eight benchmark scenes in its suite's order, then the
/// sleeping field and its baseline.
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

/// The validation scenes: run at the engines' defaults with sleeping off, judged by their
/// figures ([`crate::figures`]), not timed. Columns and boards stand 20 s, the card house 10 s,
/// heavy-on-light 5 s; the pendulums swing 40 s, ten of their periods.
pub const VALIDATION_SCENES: [SceneSpec; 11] = [
    spec(
        SceneId::Column(10),
        "column_10",
        1200,
        false,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::Column(20),
        "column_20",
        1200,
        false,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::Column(30),
        "column_30",
        1200,
        false,
        GRAVITY,
        false,
    ),
    spec(SceneId::Boards30, "boards_30", 1200, false, GRAVITY, false),
    spec(
        SceneId::UnevenColumn(20),
        "uneven_20",
        1200,
        false,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::UnevenColumn(30),
        "uneven_30",
        1200,
        false,
        GRAVITY,
        false,
    ),
    spec(SceneId::CardLean, "card_lean", 600, false, GRAVITY, false),
    spec(
        SceneId::HeavyOnLight(100),
        "heavy_on_light_100",
        300,
        false,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::HeavyOnLight(1000),
        "heavy_on_light_1000",
        300,
        false,
        GRAVITY,
        false,
    ),
    spec(
        SceneId::PendulumDistance,
        "pendulum_distance",
        2400,
        false,
        GRAVITY,
        true,
    ),
    spec(
        SceneId::PendulumRevolute,
        "pendulum_revolute",
        2400,
        false,
        GRAVITY,
        true,
    ),
];

/// The scale family: 1, 10 and 100 bins of 10,000 boxes (see [`super::scale`]), sleeping on.
/// 150 steps (2.5 s) take every bin through its fall, its pile-up (over the first 1.5 s) and
/// the start of its settling — the costly part of the scene; the piles fall asleep a little
/// later, after about 3.5 s — and keep a million-body run within minutes on a 2-core machine.
pub const SCALE_SCENES: [SceneSpec; 3] = [
    spec(SceneId::Scale(1), "scale_10k", 150, true, GRAVITY, false),
    spec(SceneId::Scale(10), "scale_100k", 150, true, GRAVITY, false),
    spec(SceneId::Scale(100), "scale_1m", 150, true, GRAVITY, false),
];

/// Looks a scene up by name: benchmark, validation, then scale scenes.
pub fn find_scene(name: &str) -> Option<SceneSpec> {
    SCENES
        .iter()
        .chain(&VALIDATION_SCENES)
        .chain(&SCALE_SCENES)
        .copied()
        .find(|s| s.name == name)
}

impl SceneSpec {
    /// Pyramid scenes report the drop of their top boxes.
    pub fn is_pyramid(&self) -> bool {
        matches!(self.id, SceneId::LargePyramid | SceneId::ManyPyramids)
    }

    /// Validation scenes are judged by the figures of their probes' check, not timed.
    pub fn is_validation(&self) -> bool {
        VALIDATION_SCENES.iter().any(|s| s.id == self.id)
    }

    /// Scale scenes grow with their body count; they are timed but not part of `all`.
    pub fn is_scale(&self) -> bool {
        matches!(self.id, SceneId::Scale(_))
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
            SceneId::SleepingField => (sleeping_field::sleeping_field(), Probes::default()),
            SceneId::SleepingFieldBaseline => (sleeping_field::bouncing_pen(), Probes::default()),
            SceneId::Column(count) => column(count, UNIT_BOX),
            SceneId::Boards30 => column(30, BOARD),
            SceneId::UnevenColumn(count) => uneven_column(count, UNIT_BOX, hand_built_offset),
            SceneId::CardLean => card_lean(),
            SceneId::HeavyOnLight(ratio) => heavy_on_light(ratio as f32),
            SceneId::PendulumDistance => pendulum_distance(),
            SceneId::PendulumRevolute => pendulum_revolute(),
            SceneId::Scale(bins) => (scale(bins), Probes::default()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::BodyKind;

    /// Every validation scene carries a check and the subjects it reads, and its step count is
    /// its duration at 60 Hz.
    #[test]
    fn validation_scenes_carry_their_checks() {
        let expected = [
            ("column_10", 11, 10, 20.0),
            ("column_20", 21, 20, 20.0),
            ("column_30", 31, 30, 20.0),
            ("boards_30", 31, 30, 20.0),
            ("uneven_20", 21, 20, 20.0),
            ("uneven_30", 31, 30, 20.0),
            ("card_lean", 8, 7, 10.0),
            ("heavy_on_light_100", 3, 2, 5.0),
            ("heavy_on_light_1000", 3, 2, 5.0),
            ("pendulum_distance", 2, 1, 40.0),
            ("pendulum_revolute", 2, 1, 40.0),
        ];
        assert_eq!(expected.len(), VALIDATION_SCENES.len());
        for (name, bodies, subjects, seconds) in expected {
            let spec = find_scene(name).unwrap();
            assert!(spec.is_validation() && !spec.sleep_enabled, "{name}");
            let (group, probes) = spec.build();
            assert_eq!(group.bodies.len(), bodies, "{name}");
            assert_eq!(probes.subjects.len(), subjects, "{name}");
            let check = probes.check.expect("validation scenes carry a check");
            assert!(probes.subjects.len() >= check.subjects_needed(), "{name}");
            assert_eq!(spec.steps, (seconds * 60.0) as usize, "{name}");
        }
        assert!(SCENES.iter().all(|s| !s.is_validation()));
    }

    /// The scale scenes hold the body counts their names say (bins of 10,000 boxes, plus one
    /// static container per bin), sleep, and are neither benchmark nor validation scenes.
    #[test]
    fn scale_scenes_hold_their_body_counts() {
        for (name, boxes) in [
            ("scale_10k", 10_000),
            ("scale_100k", 100_000),
            ("scale_1m", 1_000_000),
        ] {
            let spec = find_scene(name).unwrap();
            assert!(spec.is_scale() && !spec.is_validation() && spec.sleep_enabled);
            assert!(!SCENES.iter().any(|s| s.name == name));
            let (group, _) = spec.build();
            let dynamic = group.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic);
            assert_eq!(dynamic.count(), boxes, "{name}");
            let bins = boxes / super::super::scale::BIN_BOXES;
            assert_eq!(group.bodies.len(), boxes + bins, "{name}");
            assert_eq!(group.shape_count(), boxes + 3 * bins, "{name}");
        }
    }

    /// Bodies, shapes and joints of each scene against the counters Box2D v3 reports for them
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
}
