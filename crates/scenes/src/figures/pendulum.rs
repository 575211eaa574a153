//! A body swinging about a fixed pivot: its period, the amplitude it keeps, how far its joint
//! stretches.
//!
//! **Angle.** The swing angle is that of the body's centre seen from the pivot, measured from
//! the downward vertical: `θ = atan2(x − px, −(y − py))`. It starts at `θ₀ > 0` (released from
//! rest) and swings to about `−θ₀` and back.
//!
//! **Period.** Between samples `k` and `k + 1` where θ changes sign, the crossing time is
//! interpolated linearly, `t = tₖ + Δt · θₖ / (θₖ − θₖ₊₁)`. Near θ = 0 the angle is nearly
//! linear in time (θ̈ = −(g/L) sin θ vanishes there), so the interpolation error is third order
//! in Δt. Crossings alternate direction, two per period; crossings `c₀ … c₂ₙ` span `n` whole
//! periods, and the measured period is `(c₂ₙ − c₀)/n` with `n` = [`PERIODS`] (10), or as many
//! as the run holds. A sign change between angles beyond ±π/2 is the wrap at ±π of a body
//! going over the top, not a crossing, and is ignored.
//!
//! **Exact period.** For a rigid body pinned at the pivot, with `I` its inertia about the pivot,
//! `m` its mass and `d` the pivot–centre distance, the equation of motion
//! `I θ̈ = −m g d sin θ` is a simple pendulum's of length `L = I/(m d)` (for a point mass on a
//! massless rod, `L` is the rod). Released from rest at `θ₀` it has the period
//! `T = 4 √(L/g) · K(sin(θ₀/2))` ([`super::elliptic`]).
//!
//! **Amplitude.** The swing that completes period `n` peaks between crossings `c₂ₙ₋₁` and
//! `c₂ₙ`; its peak is refined by the parabola through the largest sample and its neighbours.
//! The amplitude loss is `1 − θpeak/θ₀`, `θ₀` the angle as built.
//!
//! **Timing error.** A pendulum that loses amplitude also shortens its period (at 150° the
//! period changes by 1.7 % per degree of amplitude), so the mean period mixes two errors: the
//! energy the engine loses and the time it keeps. The timing error separates them: each period
//! `cᵢ … cᵢ₊₂` is compared with the exact period at the amplitude it swung at, the mean of its
//! two half swings' peaks, and the figure is the largest `|T / T_exact(amplitude) − 1|`.
//!
//! **Length error.** The largest `| |anchor − pivot| − distance |` over the run, where the
//! anchor is the joint's point on the body (its centre for a distance joint, its pinned end
//! for a revolute one) and `distance` the length the joint keeps (the rod, or 0).

use super::{Figure, Pose, Trace, Value, elliptic, figure};
use prism::Vec2;
use std::f64::consts::FRAC_PI_2;

/// The number of periods the period and the amplitude loss are measured over.
pub const PERIODS: usize = 10;

/// What a pendulum check needs to know.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PendulumCheck {
    /// The fixed pivot (world, m).
    pub pivot: Vec2,
    /// The joint's anchor on the swinging body, in its frame (m).
    pub local_anchor: Vec2,
    /// The distance the joint keeps between its anchor and the pivot (m).
    pub anchor_distance: f32,
    /// The release angle from the downward vertical (rad).
    pub release_angle: f32,
    /// The length of the simple pendulum with the same motion, `I/(m d)` (m).
    pub equivalent_length: f32,
    /// The magnitude of gravity (m/s²).
    pub gravity: f32,
}

/// The figures of a pendulum (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PendulumFigures {
    /// Whole periods the run held, at most [`PERIODS`].
    pub periods: usize,
    /// The mean period over them (s); `None` if the run held none.
    pub period: Option<f64>,
    /// The exact large-angle period (s).
    pub exact_period: Option<f64>,
    /// `period / exact − 1`.
    pub period_error: Option<f64>,
    /// The largest `|Tᵢ/T_exact(amplitudeᵢ) − 1|` over the periods (see the module notes).
    pub timing_error: Option<f64>,
    /// `1 − θpeak/θ₀` of the swing completing the last measured period.
    pub amplitude_loss: Option<f64>,
    /// The largest joint length error over the run (m).
    pub max_length_error: f32,
}

impl PendulumCheck {
    /// The swing angle (rad) of a body at `pose`.
    pub fn angle(&self, pose: &Pose) -> f64 {
        let d = pose.position - self.pivot;
        f64::from(d.x).atan2(-f64::from(d.y))
    }

    /// The exact period (s) of this pendulum.
    pub fn exact_period(&self) -> Option<f64> {
        elliptic::pendulum_period(
            f64::from(self.equivalent_length),
            f64::from(self.gravity),
            f64::from(self.release_angle),
        )
    }

    pub(super) fn evaluate(&self, trace: &Trace) -> PendulumFigures {
        let angles: Vec<f64> = trace.subject(0).map(|p| self.angle(&p)).collect();
        let dt = f64::from(trace.time_step);
        let crossings = zero_crossings(&angles, dt);
        let periods = (crossings.len().saturating_sub(1) / 2).min(PERIODS);
        let period =
            (periods > 0).then(|| (crossings[2 * periods] - crossings[0]) / periods as f64);
        let exact_period = self.exact_period();
        let amplitude_loss = (periods > 0)
            .then(|| {
                let window = (crossings[2 * periods - 1], crossings[2 * periods]);
                peak_between(&angles, dt, window).map(|peak| 1.0 - peak / angles[0])
            })
            .flatten();
        PendulumFigures {
            periods,
            period,
            exact_period,
            period_error: period.zip(exact_period).map(|(t, exact)| t / exact - 1.0),
            timing_error: self.timing_error(
                &angles,
                dt,
                &crossings[..(2 * periods + 1).min(crossings.len())],
            ),
            amplitude_loss,
            max_length_error: trace
                .subject(0)
                .map(|pose| self.length_error(&pose))
                .fold(0.0, f32::max),
        }
    }

    /// The largest timing error of the periods between `crossings` (see the module notes).
    fn timing_error(&self, angles: &[f64], dt: f64, crossings: &[f64]) -> Option<f64> {
        let swings: Option<Vec<f64>> = crossings
            .windows(2)
            .map(|window| swing_amplitude(angles, dt, (window[0], window[1])))
            .collect();
        let swings = swings?;
        let errors = crossings
            .windows(3)
            .step_by(2)
            .zip(swings.chunks(2))
            .map(|(c, half)| {
                let amplitude = 0.5 * (half[0] + half[1]);
                let exact = elliptic::pendulum_period(
                    f64::from(self.equivalent_length),
                    f64::from(self.gravity),
                    amplitude,
                )?;
                Some(((c[2] - c[0]) / exact - 1.0).abs())
            });
        errors
            .collect::<Option<Vec<f64>>>()?
            .into_iter()
            .reduce(f64::max)
    }

    fn length_error(&self, pose: &Pose) -> f32 {
        let anchor = pose.transform(self.local_anchor);
        ((anchor - self.pivot).length() - self.anchor_distance).abs()
    }
}

/// The interpolated times (s) at which `angles`, sampled every `dt`, change sign.
pub fn zero_crossings(angles: &[f64], dt: f64) -> Vec<f64> {
    let mut crossings = Vec::new();
    for (k, pair) in angles.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let changes_sign = (a > 0.0 && b <= 0.0) || (a < 0.0 && b >= 0.0);
        if changes_sign && a.abs() < FRAC_PI_2 && b.abs() < FRAC_PI_2 {
            crossings.push((k as f64 + a / (a - b)) * dt);
        }
    }
    crossings
}

/// The largest |angle| of the half swing between the crossings `window` (positive or negative).
fn swing_amplitude(angles: &[f64], dt: f64, window: (f64, f64)) -> Option<f64> {
    let middle = (((window.0 + window.1) * 0.5 / dt).round() as usize).min(angles.len() - 1);
    if angles[middle] >= 0.0 {
        peak_between(angles, dt, window)
    } else {
        let negated: Vec<f64> = angles.iter().map(|a| -a).collect();
        peak_between(&negated, dt, window)
    }
}

/// The largest angle strictly between the times `window`, refined by a parabola through the
/// largest sample and its two neighbours; `None` if the window holds no interior sample.
pub fn peak_between(angles: &[f64], dt: f64, window: (f64, f64)) -> Option<f64> {
    let first = (window.0 / dt).floor() as usize + 1;
    let last = ((window.1 / dt).ceil() as usize)
        .min(angles.len())
        .saturating_sub(1);
    let k = (first..=last)
        .filter(|&k| k > 0 && k + 1 < angles.len())
        .max_by(|&i, &j| angles[i].total_cmp(&angles[j]))?;
    let (before, at, after) = (angles[k - 1], angles[k], angles[k + 1]);
    let curvature = before - 2.0 * at + after;
    if curvature >= 0.0 {
        return Some(at);
    }
    Some(at - (after - before) * (after - before) / (8.0 * curvature))
}

impl PendulumFigures {
    pub(super) fn list(&self) -> Vec<Figure> {
        let seconds = |t: Option<f64>| t.map_or(Value::Missing, Value::Seconds);
        let fraction = |f: Option<f64>| f.map_or(Value::Missing, Value::Fraction);
        vec![
            figure("periods", "periods", Value::Count(self.periods)),
            figure("period_s", "period", seconds(self.period)),
            figure("exact_period_s", "exact", seconds(self.exact_period)),
            figure("period_error", "period err", fraction(self.period_error)),
            figure("timing_error", "timing err", fraction(self.timing_error)),
            figure("amplitude_loss", "amp loss", fraction(self.amplitude_loss)),
            figure(
                "max_length_error_m",
                "joint err",
                Value::Metres(self.max_length_error),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{Check, Figures};
    use std::f64::consts::PI;

    const DT: f64 = 1.0 / 60.0;

    /// A body on a circle of radius `length` about `pivot` at angle `theta`.
    fn bob(pivot: Vec2, length: f64, theta: f64) -> Pose {
        let offset = Vec2::new(
            (length * theta.sin()) as f32,
            (-length * theta.cos()) as f32,
        );
        Pose {
            position: pivot + offset,
            angle: 0.0,
        }
    }

    fn check(pivot: Vec2, release: f64) -> PendulumCheck {
        PendulumCheck {
            pivot,
            local_anchor: Vec2::ZERO,
            anchor_distance: 1.0,
            release_angle: release as f32,
            equivalent_length: 1.0,
            gravity: 10.0,
        }
    }

    fn figures(check: PendulumCheck, trace: &Trace) -> PendulumFigures {
        match Check::Pendulum(check).evaluate(trace) {
            Some(Figures::Pendulum(figures)) => figures,
            other => panic!("expected pendulum figures, got {other:?}"),
        }
    }

    /// A synthetic swing `θ(t) = θ₀ e^(−λt) cos(2πt/T)`, sampled at 60 Hz for `seconds`.
    fn swing(pivot: Vec2, theta0: f64, period: f64, decay: f64, seconds: f64) -> Trace {
        let mut trace = Trace::new(DT as f32);
        for k in 0..=(seconds / DT) as usize {
            let t = k as f64 * DT;
            let theta = theta0 * (-decay * t).exp() * (2.0 * PI * t / period).cos();
            trace.record(vec![bob(pivot, 1.0, theta)]);
        }
        trace
    }

    /// The true large-angle motion, `θ̈ = −(g/L) sin θ` integrated by fourth-order Runge–Kutta
    /// at 100 steps per sample from rest at 150° (L = 1 m, g = 10): the measured period
    /// matches `4 √(L/g) K(sin 75°)` to 10⁻⁵ and no amplitude is lost. This checks the
    /// elliptic-integral period and the crossing measurement against each other on a motion
    /// that is far from a sine.
    #[test]
    fn period_of_the_exact_large_angle_motion() {
        let pivot = Vec2::new(0.0, 2.0);
        let theta0 = 150f64.to_radians();
        let accel = |theta: f64| -10.0 * theta.sin();
        let (mut theta, mut omega) = (theta0, 0.0f64);
        let h = DT / 100.0;
        let mut trace = Trace::new(DT as f32);
        for _ in 0..=(40.0 / DT) as usize {
            trace.record(vec![bob(pivot, 1.0, theta)]);
            for _ in 0..100 {
                let (k1t, k1w) = (omega, accel(theta));
                let (k2t, k2w) = (omega + 0.5 * h * k1w, accel(theta + 0.5 * h * k1t));
                let (k3t, k3w) = (omega + 0.5 * h * k2w, accel(theta + 0.5 * h * k2t));
                let (k4t, k4w) = (omega + h * k3w, accel(theta + h * k3t));
                theta += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
                omega += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
            }
        }
        let f = figures(check(pivot, theta0), &trace);
        assert_eq!(f.periods, PERIODS);
        let error = f.period_error.unwrap();
        assert!(error.abs() < 1e-5, "period error {error}");
        let timing = f.timing_error.unwrap();
        assert!(timing < 1e-4, "timing error {timing}");
        let loss = f.amplitude_loss.unwrap();
        assert!(loss.abs() < 1e-5, "amplitude loss {loss}");
    }

    /// The large-angle motion with a light viscous damping, `θ̈ = −(g/L) sin θ − c·θ̇`, losing
    /// about 2 % of its amplitude in ten periods: the mean period is then well short of the
    /// period at the release angle (the swing narrows), but each period still matches the exact
    /// period at its own amplitude — damping this light shifts the frequency by about
    /// `c²/(8ω²)`, 10⁻⁶ here — so the timing error stays small.
    #[test]
    fn timing_error_separates_time_from_lost_energy() {
        let pivot = Vec2::new(0.0, 2.0);
        let theta0 = 150f64.to_radians();
        let damping = 0.0007;
        let accel = |theta: f64, omega: f64| -10.0 * theta.sin() - damping * omega;
        let (mut theta, mut omega) = (theta0, 0.0f64);
        let h = DT / 100.0;
        let mut trace = Trace::new(DT as f32);
        for _ in 0..=(40.0 / DT) as usize {
            trace.record(vec![bob(pivot, 1.0, theta)]);
            for _ in 0..100 {
                let (k1t, k1w) = (omega, accel(theta, omega));
                let (k2t, k2w) = (
                    omega + 0.5 * h * k1w,
                    accel(theta + 0.5 * h * k1t, omega + 0.5 * h * k1w),
                );
                let (k3t, k3w) = (
                    omega + 0.5 * h * k2w,
                    accel(theta + 0.5 * h * k2t, omega + 0.5 * h * k2w),
                );
                let (k4t, k4w) = (omega + h * k3w, accel(theta + h * k3t, omega + h * k3w));
                theta += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
                omega += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
            }
        }
        let f = figures(check(pivot, theta0), &trace);
        let (loss, error, timing) = (
            f.amplitude_loss.unwrap(),
            f.period_error.unwrap(),
            f.timing_error.unwrap(),
        );
        assert!((0.01..0.04).contains(&loss), "amplitude loss {loss}");
        assert!(error < -0.005, "mean period error {error}");
        assert!(timing < 2e-4, "timing error {timing}");
    }

    /// An undamped swing of period 3.5 s at 150°: ten periods measured to within 10⁻⁵ of
    /// 3.5 s (interpolated crossings; the poses are f32, about 10⁻⁷ m off), no amplitude lost
    /// (the parabola refines the sampled peak to 10⁻⁵), the rod length kept.
    #[test]
    fn period_of_an_undamped_swing() {
        let pivot = Vec2::new(0.0, 2.0);
        let theta0 = 150f64.to_radians();
        let trace = swing(pivot, theta0, 3.5, 0.0, 40.0);
        let f = figures(check(pivot, theta0), &trace);
        assert_eq!(f.periods, PERIODS);
        let period = f.period.unwrap();
        assert!((period - 3.5).abs() < 1e-5 * 3.5, "{period}");
        assert!(
            f.amplitude_loss.unwrap().abs() < 1e-5,
            "{:?}",
            f.amplitude_loss
        );
        assert!(f.max_length_error < 1e-6, "{}", f.max_length_error);
        let exact = 4.0 * 0.1f64.sqrt() * 2.768_063_145_4;
        assert!((f.exact_period.unwrap() - exact).abs() < 1e-6);
        assert!((f.period_error.unwrap() - (3.5 / exact - 1.0)).abs() < 1e-5);
    }

    /// A damped swing loses `1 − e^(−λ·10T)` of its amplitude by the end of period 10; the
    /// period of the decaying cosine is still T.
    #[test]
    fn amplitude_loss_of_a_damped_swing() {
        let pivot = Vec2::ZERO;
        let (theta0, period, decay) = (1.0f64, 2.0, 0.002);
        let trace = swing(pivot, theta0, period, decay, 25.0);
        let f = figures(check(pivot, theta0), &trace);
        assert_eq!(f.periods, PERIODS);
        let expected = 1.0 - (-decay * 10.0 * period).exp();
        let loss = f.amplitude_loss.unwrap();
        assert!((loss - expected).abs() < 1e-4, "{loss} vs {expected}");
        assert!((f.period.unwrap() - period).abs() < 1e-4);
    }

    /// A run shorter than ten periods reports the whole periods it holds; one shorter than a
    /// period reports none.
    #[test]
    fn short_runs_report_what_they_hold() {
        let trace = swing(Vec2::ZERO, 1.0, 2.0, 0.0, 7.0);
        let f = figures(check(Vec2::ZERO, 1.0), &trace);
        assert_eq!(f.periods, 3);
        assert!((f.period.unwrap() - 2.0).abs() < 1e-4);
        let trace = swing(Vec2::ZERO, 1.0, 2.0, 0.0, 1.0);
        let f = figures(check(Vec2::ZERO, 1.0), &trace);
        assert_eq!((f.periods, f.period, f.amplitude_loss), (0, None, None));
    }

    /// Going over the top wraps the angle from +π to −π: not a crossing.
    #[test]
    fn the_wrap_at_the_top_is_not_a_crossing() {
        let angles = [3.0, 3.1, -3.1, -3.0, -1.0, 0.5, 1.0];
        let crossings = zero_crossings(&angles, 1.0);
        assert_eq!(crossings.len(), 1);
        assert!((crossings[0] - (4.0 + 1.0 / 1.5)).abs() < 1e-12);
    }

    /// A revolute rod's anchor is its pinned end: a rod of half length 0.5 centred 0.5 m from
    /// the pivot, turned to point away from it, has its end on the pivot; stretched 1 mm
    /// further out, the error is 1 mm.
    #[test]
    fn length_error_measures_the_anchor() {
        let check = PendulumCheck {
            local_anchor: Vec2::new(-0.5, 0.0),
            anchor_distance: 0.0,
            ..check(Vec2::ZERO, 1.0)
        };
        let theta = 150f64.to_radians();
        let mut rod = bob(Vec2::ZERO, 0.5, theta);
        rod.angle = (theta - FRAC_PI_2) as f32;
        assert!(check.length_error(&rod) < 1e-6);
        rod = bob(Vec2::ZERO, 0.501, theta);
        rod.angle = (theta - FRAC_PI_2) as f32;
        assert!((check.length_error(&rod) - 0.001).abs() < 1e-6);
    }
}
