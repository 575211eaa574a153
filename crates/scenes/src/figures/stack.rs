//! A stack standing on the ground: does it stand, and how still?
//!
//! The subjects are the stack's bodies from bottom to top; the last one is the *top*. With
//! `x₀, y₀` a body's centre as built and `x, y` its centre at the end of the run:
//!
//! - **top drift** — the largest `|x − x₀|` of the top over the run (every sample), and its
//!   value at the end;
//! - **drift time** — the first sample time at which the top's `|x − x₀|` exceeds
//!   [`DRIFT_THRESHOLD`] (1 cm), or never;
//! - **top sink** — `y₀ − y` of the top at the end: how far the stack has settled or sunk;
//! - **fallen** — the bodies that end outside the stand tolerance `tol`: `|x − x₀| ≥ tol` or
//!   `y₀ − y ≥ tol`. For a column of unit boxes `tol` is half a box width (0.5 m): a box whose
//!   centre moved that far sideways has its centre of mass beyond the edge of the box it stood
//!   on, and one that dropped that far has lost its place in the column;
//! - **stood** — no body fell.

use super::{Figure, Trace, Value, figure};

/// The sideways drift of the top that counts as the stack starting to lean (m).
pub const DRIFT_THRESHOLD: f32 = 0.01;

/// What a stack check needs to know.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StackCheck {
    /// How far (m) a body may end from where it started, sideways or down, and still count as
    /// standing.
    pub tolerance: f32,
}

/// The figures of a stack (see the module notes for their definitions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StackFigures {
    /// The top's largest sideways drift over the run (m).
    pub max_top_drift: f32,
    /// The top's sideways drift at the end (m).
    pub final_top_drift: f32,
    /// When the top's drift first exceeded [`DRIFT_THRESHOLD`] (s); `None`: never.
    pub drift_time: Option<f32>,
    /// How far the top ended below its start (m).
    pub top_sink: f32,
    /// The bodies that ended outside the stand tolerance.
    pub fallen: usize,
    /// Whether none fell.
    pub stood: bool,
}

impl StackCheck {
    /// The figures of `trace` (at least one sample, every sample with the same subjects).
    pub(super) fn evaluate(&self, trace: &Trace) -> StackFigures {
        let first = &trace.poses[0];
        let last = &trace.poses[trace.poses.len() - 1];
        let top = first.len() - 1;
        let x0 = first[top].position.x;
        let drifts = trace.subject(top).map(|pose| (pose.position.x - x0).abs());
        let mut max_top_drift = 0.0f32;
        let mut drift_time = None;
        for (k, drift) in drifts.enumerate() {
            max_top_drift = max_top_drift.max(drift);
            if drift_time.is_none() && drift > DRIFT_THRESHOLD {
                drift_time = Some(trace.time(k));
            }
        }
        let fallen = first
            .iter()
            .zip(last)
            .filter(|(start, end)| {
                let sideways = (end.position.x - start.position.x).abs();
                let down = start.position.y - end.position.y;
                sideways >= self.tolerance || down >= self.tolerance
            })
            .count();
        StackFigures {
            max_top_drift,
            final_top_drift: (last[top].position.x - x0).abs(),
            drift_time,
            top_sink: first[top].position.y - last[top].position.y,
            fallen,
            stood: fallen == 0,
        }
    }
}

impl StackFigures {
    pub(super) fn list(&self) -> Vec<Figure> {
        vec![
            figure(
                "top_max_drift_m",
                "top drift",
                Value::Metres(self.max_top_drift),
            ),
            figure(
                "top_final_drift_m",
                "(end)",
                Value::Metres(self.final_top_drift),
            ),
            figure(
                "drift_over_1cm_s",
                "drift>1cm at",
                Value::When(self.drift_time),
            ),
            figure("top_sink_m", "top sink", Value::Metres(self.top_sink)),
            figure("fallen", "fallen", Value::Count(self.fallen)),
            figure("stood", "stood", Value::Flag(self.stood)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{Check, Figures, Pose};
    use prism::Vec2;

    fn pose(x: f32, y: f32) -> Pose {
        Pose {
            position: Vec2::new(x, y),
            angle: 0.0,
        }
    }

    fn stack_figures(trace: &Trace, tolerance: f32) -> StackFigures {
        match Check::Stack(StackCheck { tolerance }).evaluate(trace) {
            Some(Figures::Stack(figures)) => figures,
            other => panic!("expected stack figures, got {other:?}"),
        }
    }

    /// A two-box column whose top leans steadily right by 4 mm per step and sinks 1 mm: the
    /// drift passes 1 cm at the third step (12 mm), peaks at 4 mm times the last step, and
    /// nothing falls while the drift stays under the tolerance.
    #[test]
    fn a_slow_lean_is_timed_and_measured() {
        let mut trace = Trace::new(0.5);
        for k in 0..6 {
            let lean = 0.004 * k as f32;
            trace.record(vec![pose(0.0, 0.5), pose(lean, 1.5 - 0.001 * k as f32)]);
        }
        let figures = stack_figures(&trace, 0.5);
        assert_eq!(figures.drift_time, Some(1.5));
        assert!((figures.max_top_drift - 0.02).abs() < 1e-6);
        assert_eq!(figures.final_top_drift, figures.max_top_drift);
        assert!((figures.top_sink - 0.005).abs() < 1e-6);
        assert_eq!((figures.fallen, figures.stood), (0, true));
    }

    /// A column whose top wobbles by 0.8 mm never reaches the threshold.
    #[test]
    fn a_still_column_never_drifts() {
        let mut trace = Trace::new(1.0 / 60.0);
        for k in 0..100 {
            let wobble = 0.0008 * (k % 2) as f32;
            trace.record(vec![pose(0.0, 0.5), pose(wobble, 1.5)]);
        }
        let figures = stack_figures(&trace, 0.5);
        assert_eq!(figures.drift_time, None);
        assert!((figures.max_top_drift - 0.0008).abs() < 1e-7);
        assert!((figures.final_top_drift - 0.0008).abs() < 1e-7);
        assert!(figures.stood);
    }

    /// A box that ends half a box width to the side has fallen, and so has one that ends half
    /// a width lower; a box that swayed far but came back has not. The tolerance is strict:
    /// exactly at it counts as fallen.
    #[test]
    fn fallen_bodies_are_counted_at_the_end() {
        let mut trace = Trace::new(0.1);
        trace.record(vec![pose(0.0, 0.5), pose(0.0, 1.5), pose(0.0, 2.5)]);
        trace.record(vec![pose(0.0, 0.5), pose(0.9, 1.5), pose(0.0, 2.5)]);
        trace.record(vec![pose(0.5, 0.5), pose(0.0, 1.5), pose(0.0, 2.0)]);
        let figures = stack_figures(&trace, 0.5);
        assert_eq!(figures.fallen, 2);
        assert!(!figures.stood);
        assert!((figures.top_sink - 0.5).abs() < 1e-6);
        assert_eq!(figures.drift_time, None);
    }
}
