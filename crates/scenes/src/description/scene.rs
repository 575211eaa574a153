//! The registry of described scenes: each scene's fixed facts ([`SceneSpec`]) and how to build
//! its initial group, probes and script.

use super::model::BodyGroup;
use super::probes::Probes;
use super::rain::{RainScript, rain_ground};
use super::script::SceneScript;
use super::{
    compounds::compounds, joint_grid::joint_grid, large_pyramid::large_pyramid,
    many_pyramids::many_pyramids, sleeping_field, smash::smash, spinner::spinner, tumbler::tumbler,
};
use prism::Vec2;

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
            SceneId::SleepingField => (sleeping_field::sleeping_field(), Probes::default()),
            SceneId::SleepingFieldBaseline => (sleeping_field::bouncing_pen(), Probes::default()),
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
