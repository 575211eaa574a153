//! Quality figures of the validation scenes, computed from body poses alone.
//!
//! A validation scene (see [`crate::description`]) names its *subject* bodies and the
//! [`Check`] to make on them. Whoever runs the scene — Prism, Box2D or Rapier — records the
//! subjects' poses after every step into a [`Trace`]; [`Check::evaluate`] turns the trace into
//! [`Figures`]. Because every engine is judged by the same code from the same kind of data
//! (where each body is and how it is turned), the figures compare engines and never depend on
//! what an engine chooses to report about itself (its contact separations, its joint errors).
//!
//! Three checks exist:
//!
//! - [`stack`]: a column standing on the ground — how far its top drifts sideways, when the
//!   drift first passes 1 cm, how far the top sinks, whether the column stood;
//! - [`heavy`]: a heavy box resting on a light one — how deep the light box sinks into the
//!   ground and the heavy box into the light one, and how far the light box is squeezed out
//!   sideways;
//! - [`pendulum`]: a body swinging about a fixed pivot — its period against the exact
//!   large-angle period ([`elliptic`] computes the elliptic integral that needs), the amplitude
//!   it loses, how far its joint stretches.
//!
//! Each figure carries a JSON key, a short table label and a typed value ([`Figure`]), so the
//! tools print every check the same way.

pub mod elliptic;
pub mod heavy;
pub mod overlap;
pub mod pendulum;
pub mod stack;

use prism::Vec2;

pub use heavy::{HeavyOnLightCheck, HeavyOnLightFigures};
pub use pendulum::{PendulumCheck, PendulumFigures};
pub use stack::{StackCheck, StackFigures};

/// Where a body is and how it is turned.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// World position of the body's origin (m).
    pub position: Vec2,
    /// Rotation (rad, counter-clockwise).
    pub angle: f32,
}

impl Pose {
    /// The world position of `local`, a point given in the body's frame.
    pub fn transform(&self, local: Vec2) -> Vec2 {
        let (sin, cos) = self.angle.sin_cos();
        self.position + Vec2::new(cos * local.x - sin * local.y, sin * local.x + cos * local.y)
    }
}

/// The subjects' poses over a run: `poses[k][s]` is subject `s` after `k` steps (`k = 0`: as
/// built, before the first step).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Seconds per step.
    pub time_step: f32,
    /// The subjects' poses, sample by sample.
    pub poses: Vec<Vec<Pose>>,
}

impl Trace {
    /// An empty trace of steps `time_step` long.
    pub fn new(time_step: f32) -> Self {
        Self {
            time_step,
            poses: Vec::new(),
        }
    }

    /// Appends the subjects' poses after the next step (the first call: as built).
    pub fn record(&mut self, poses: Vec<Pose>) {
        self.poses.push(poses);
    }

    /// The time (s) of sample `k`.
    pub fn time(&self, k: usize) -> f32 {
        k as f32 * self.time_step
    }

    /// The poses of subject `s`, sample by sample.
    pub fn subject(&self, s: usize) -> impl Iterator<Item = Pose> + '_ {
        self.poses.iter().map(move |sample| sample[s])
    }

    /// Whether the trace has at least one sample and every sample has `subjects` poses.
    fn covers(&self, subjects: usize) -> bool {
        !self.poses.is_empty() && self.poses.iter().all(|p| p.len() >= subjects)
    }
}

/// What a validation scene measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// A stack on the ground; the subjects from bottom to top.
    Stack(StackCheck),
    /// A heavy box on a light one; the subjects: light, heavy.
    HeavyOnLight(HeavyOnLightCheck),
    /// A body swinging about a fixed pivot; the subject: that body.
    Pendulum(PendulumCheck),
}

/// The figures of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figures {
    /// The figures of a [`Check::Stack`].
    Stack(StackFigures),
    /// The figures of a [`Check::HeavyOnLight`].
    HeavyOnLight(HeavyOnLightFigures),
    /// The figures of a [`Check::Pendulum`].
    Pendulum(PendulumFigures),
}

impl Check {
    /// How many subjects the check reads (the scene's probes list them in that order); a stack
    /// reads all of them.
    pub fn subjects_needed(&self) -> usize {
        match self {
            Check::Stack(_) => 1,
            Check::HeavyOnLight(_) => 2,
            Check::Pendulum(_) => 1,
        }
    }

    /// The figures of `trace`; `None` if the trace is empty or lacks subjects.
    pub fn evaluate(&self, trace: &Trace) -> Option<Figures> {
        if !trace.covers(self.subjects_needed()) {
            return None;
        }
        Some(match self {
            Check::Stack(check) => Figures::Stack(check.evaluate(trace)),
            Check::HeavyOnLight(check) => Figures::HeavyOnLight(check.evaluate(trace)),
            Check::Pendulum(check) => Figures::Pendulum(check.evaluate(trace)),
        })
    }
}

/// A figure's value, typed so that it prints the same way everywhere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A length (m).
    Metres(f32),
    /// A duration (s).
    Seconds(f64),
    /// A moment (s) that may never have come (`None`).
    When(Option<f32>),
    /// A dimensionless fraction (0.01 = 1 %).
    Fraction(f64),
    /// A count.
    Count(usize),
    /// Yes or no.
    Flag(bool),
    /// Not measurable in this run (too short, say).
    Missing,
}

/// One figure: its JSON key (with its unit: `_m`, `_s`), its short table label (without
/// one: the printer adds the unit it prints in), its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// The JSON key.
    pub key: &'static str,
    /// The table column label.
    pub label: &'static str,
    /// The value.
    pub value: Value,
}

impl Figures {
    /// The figures in print order.
    pub fn list(&self) -> Vec<Figure> {
        match self {
            Figures::Stack(f) => f.list(),
            Figures::HeavyOnLight(f) => f.list(),
            Figures::Pendulum(f) => f.list(),
        }
    }
}

/// A figure from its key, label and value.
const fn figure(key: &'static str, label: &'static str, value: Value) -> Figure {
    Figure { key, label, value }
}
