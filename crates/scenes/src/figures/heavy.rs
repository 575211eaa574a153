//! A heavy box resting on a light one on the ground: how deep each sinks, how far the light
//! box is squeezed out.
//!
//! The subjects are the light box (on the ground) and the heavy box (on the light one). With
//! the ground's top face the line `y = ground_top`:
//!
//! - **light–ground overlap** — how far the light box's lowest corner is below the ground
//!   line ([`overlap::box_below_line`]);
//! - **heavy–light overlap** — the penetration depth of the two boxes by the separating axis
//!   theorem ([`overlap::box_box`]); negative values are gaps;
//! - **light sideways** — `|x − x₀|` of the light box: a solver that cannot hold the mass ratio
//!   may squeeze it out from under the heavy one.
//!
//! Each is reported at the end of the run and as its largest value over the run.

use super::{Figure, Trace, Value, figure, overlap};
use prism::Vec2;

/// What a heavy-on-light check needs to know.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeavyOnLightCheck {
    /// Half extents of the light box, the first subject (m).
    pub light_half_extents: Vec2,
    /// Half extents of the heavy box, the second subject (m).
    pub heavy_half_extents: Vec2,
    /// The height of the ground's top face (m).
    pub ground_top: f32,
}

/// A quantity at the end of the run and its largest value over the run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EndAndMax {
    /// The value after the last step.
    pub end: f32,
    /// The largest value over the run (the state as built included).
    pub max: f32,
}

impl EndAndMax {
    fn of(values: impl Iterator<Item = f32>) -> Self {
        values.fold(
            EndAndMax {
                end: 0.0,
                max: f32::NEG_INFINITY,
            },
            |acc, v| EndAndMax {
                end: v,
                max: acc.max.max(v),
            },
        )
    }
}

/// The figures of a heavy box on a light one (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeavyOnLightFigures {
    /// How far the light box reaches below the ground line (m).
    pub light_ground_overlap: EndAndMax,
    /// The penetration depth of the heavy box into the light one (m; negative: a gap).
    pub heavy_light_overlap: EndAndMax,
    /// How far the light box moved sideways (m).
    pub light_sideways: EndAndMax,
}

impl HeavyOnLightCheck {
    pub(super) fn evaluate(&self, trace: &Trace) -> HeavyOnLightFigures {
        let (light, heavy) = (self.light_half_extents, self.heavy_half_extents);
        let x0 = trace.poses[0][0].position.x;
        HeavyOnLightFigures {
            light_ground_overlap: EndAndMax::of(
                trace
                    .subject(0)
                    .map(|pose| overlap::box_below_line(&pose, light, self.ground_top)),
            ),
            heavy_light_overlap: EndAndMax::of(
                trace
                    .poses
                    .iter()
                    .map(|p| overlap::box_box(&p[0], light, &p[1], heavy)),
            ),
            light_sideways: EndAndMax::of(
                trace.subject(0).map(|pose| (pose.position.x - x0).abs()),
            ),
        }
    }
}

impl HeavyOnLightFigures {
    pub(super) fn list(&self) -> Vec<Figure> {
        let metres = Value::Metres;
        vec![
            figure(
                "light_ground_overlap_m",
                "light-ground",
                metres(self.light_ground_overlap.end),
            ),
            figure(
                "light_ground_overlap_max_m",
                "(max)",
                metres(self.light_ground_overlap.max),
            ),
            figure(
                "heavy_light_overlap_m",
                "heavy-light",
                metres(self.heavy_light_overlap.end),
            ),
            figure(
                "heavy_light_overlap_max_m",
                "(max)",
                metres(self.heavy_light_overlap.max),
            ),
            figure(
                "light_sideways_m",
                "light dx",
                metres(self.light_sideways.end),
            ),
            figure(
                "light_sideways_max_m",
                "(max)",
                metres(self.light_sideways.max),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{Check, Figures, Pose};

    fn pose(x: f32, y: f32) -> Pose {
        Pose {
            position: Vec2::new(x, y),
            angle: 0.0,
        }
    }

    /// The light box sinks 3 cm then recovers to 1 cm while sliding 0.2 m out and back to
    /// 0.1 m; the heavy box sits 5 mm into it, then 2 cm.
    #[test]
    fn end_and_largest_values() {
        let half = Vec2::new(0.5, 0.5);
        let check = HeavyOnLightCheck {
            light_half_extents: half,
            heavy_half_extents: half,
            ground_top: 0.0,
        };
        let mut trace = Trace::new(0.1);
        trace.record(vec![pose(0.0, 0.5), pose(0.0, 1.5)]);
        trace.record(vec![pose(0.2, 0.47), pose(0.0, 1.465)]);
        trace.record(vec![pose(0.1, 0.49), pose(0.0, 1.47)]);
        let Some(Figures::HeavyOnLight(f)) = Check::HeavyOnLight(check).evaluate(&trace) else {
            panic!("expected heavy-on-light figures");
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-5;
        assert!(close(f.light_ground_overlap.end, 0.01));
        assert!(close(f.light_ground_overlap.max, 0.03));
        assert!(close(f.heavy_light_overlap.end, 0.02));
        assert!(close(f.heavy_light_overlap.max, 0.02));
        assert!(close(f.light_sideways.end, 0.1));
        assert!(close(f.light_sideways.max, 0.2));
    }
}
