//! A bead on a wire: the worked example of Witkin's "Constrained dynamics" notes.
//!
//! The circle of radius 1 m under gravity is a pendulum, whose period for an amplitude `θ₀`
//! is known exactly: `T = 2π √(L/g) / AGM(1, cos(θ₀/2))` (the arithmetic-geometric mean form
//! of the complete elliptic integral). The straight wire tilted by `θ` is an incline without
//! friction: the bead accelerates at `g sin θ` along it.
//!
//! Both are run with the implicit constraint (global solve, feedback) and with the parametric
//! bead (the notes' second method), through the public API.

use particles::{
    BeadDef, ConstraintDef, Curve, Integrator, NoCollider, ParticleDef, ParticleId, ParticleSystem,
    SystemDef, Vec2,
};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

/// `2π √(L/g) / AGM(1, cos(θ₀/2))`.
fn pendulum_period(length: f64, amplitude: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (amplitude / 2.0).cos());
    for _ in 0..30 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    2.0 * std::f64::consts::PI * (length / f64::from(G)).sqrt() / a
}

fn system(integrator: Integrator) -> ParticleSystem {
    ParticleSystem::new(SystemDef {
        gravity: Vec2::new(0.0, -G),
        integrator,
        ..SystemDef::default()
    })
    .unwrap()
}

/// A bead held on the unit circle by the implicit constraint, released at rest at angle
/// `amplitude` from the bottom.
fn implicit_bead(integrator: Integrator, amplitude: f32) -> (ParticleSystem, ParticleId) {
    let mut system = system(integrator);
    let start = Vec2::new(amplitude.sin(), -amplitude.cos());
    let bead = system
        .create_particle(&ParticleDef::new(start, 0.5))
        .unwrap();
    system
        .create_constraint(&ConstraintDef::Circle {
            particle: bead,
            center: Vec2::ZERO,
            radius: 1.0,
        })
        .unwrap();
    (system, bead)
}

/// The same bead parametrised by its angle `u` (the circle's `u = 0` is +x, so the bottom is
/// `u = −π/2`).
fn parametric_bead(integrator: Integrator, amplitude: f32) -> (ParticleSystem, ParticleId) {
    let mut system = system(integrator);
    let bead = system
        .create_bead(&BeadDef {
            curve: Curve::Circle {
                center: Vec2::ZERO,
                radius: 1.0,
            },
            coordinate: -std::f32::consts::FRAC_PI_2 + amplitude,
            rate: 0.0,
            inverse_mass: 2.0,
        })
        .unwrap();
    (system, bead)
}

/// Runs for `seconds`, returning the largest `||x| − 1|` and the mean period measured from
/// the upward zero crossings of `x` (linearly interpolated).
fn run(system: &mut ParticleSystem, bead: ParticleId, seconds: f32) -> (f64, f64) {
    let steps = (seconds / DT).round() as usize;
    let mut worst = 0.0f64;
    let mut crossings = Vec::new();
    let mut previous = system.position(bead).unwrap().x;
    for step in 1..=steps {
        system.step(DT, &mut NoCollider).unwrap();
        let x = system.position(bead).unwrap();
        worst = worst.max((f64::from(x.length()) - 1.0).abs());
        if previous < 0.0 && x.x >= 0.0 {
            let fraction = previous / (previous - x.x);
            crossings.push((step as f64 - 1.0 + f64::from(fraction)) * f64::from(DT));
        }
        previous = x.x;
    }
    let periods = crossings.len() - 1;
    let period = (crossings[periods] - crossings[0]) / periods as f64;
    (worst, period)
}

#[test]
fn bead_on_a_circle_stays_on_it_and_swings_with_the_pendulum_period() {
    // Large swing (released horizontally, 4.4 m/s at the bottom) for the drift figure.
    let (mut swing, bead) = implicit_bead(Integrator::Rk4, std::f32::consts::FRAC_PI_2);
    let (drift, period) = run(&mut swing, bead, 10.0);
    let exact = pendulum_period(1.0, std::f64::consts::FRAC_PI_2);
    println!(
        "implicit circle, RK4, 60 Hz, released at 90°: max ||x| − 1| = {drift:.3e} m, period \
         {period:.5} s (exact {exact:.5} s), CG iterations last step {}, residual {:.1e}",
        swing.profile().cg_iterations,
        swing.profile().cg_residual
    );
    assert!(drift < 1.0e-4, "drift {drift:e}");
    assert!((period - exact).abs() / exact < 0.005);

    // Small oscillation: the period of the linear pendulum, 2π √(L/g), within 0.5%.
    let amplitude = 0.05;
    let (mut small, bead) = implicit_bead(Integrator::Rk4, amplitude);
    let (drift, period) = run(&mut small, bead, 10.0);
    let linear = 2.0 * std::f64::consts::PI / f64::from(G).sqrt();
    let exact = pendulum_period(1.0, f64::from(amplitude));
    println!(
        "implicit circle, small swing: period {period:.5} s, linear pendulum {linear:.5} s, \
         exact {exact:.5} s, drift {drift:.1e} m"
    );
    assert!(drift < 1.0e-4);
    assert!((period - linear).abs() / linear < 0.005);

    // The first-order integrators at the same step, for contrast (not asserted beyond sanity).
    for integrator in [Integrator::SymplecticEuler, Integrator::Midpoint] {
        let (mut system, bead) = implicit_bead(integrator, std::f32::consts::FRAC_PI_2);
        let (drift, period) = run(&mut system, bead, 10.0);
        println!(
            "implicit circle, {integrator:?}: max ||x| − 1| = {drift:.3e} m, period {period:.5} s"
        );
        assert!(
            drift < 0.05,
            "feedback keeps even {integrator:?} near the wire"
        );
    }
}

#[test]
fn parametric_bead_on_a_circle_is_exactly_on_it_with_the_pendulum_period() {
    for (amplitude, integrator) in [
        (std::f32::consts::FRAC_PI_2, Integrator::Rk4),
        (0.05, Integrator::Rk4),
        (0.05, Integrator::SymplecticEuler),
    ] {
        let (mut system, bead) = parametric_bead(integrator, amplitude);
        let (drift, period) = run(&mut system, bead, 10.0);
        let exact = pendulum_period(1.0, f64::from(amplitude));
        println!(
            "parametric circle, {integrator:?}, amplitude {amplitude}: max ||x| − 1| = \
             {drift:.1e} m, period {period:.5} s (exact {exact:.5} s)"
        );
        // Only f32 rounding of cos/sin separates the bead from the wire.
        assert!(drift < 1.0e-6);
        assert!((period - exact).abs() / exact < 0.005);
    }
}

/// Velocity along the wire after `seconds`, from rest.
fn incline_speed(
    system: &mut ParticleSystem,
    bead: ParticleId,
    direction: Vec2,
    seconds: f32,
) -> f32 {
    let steps = (seconds / DT).round() as usize;
    for _ in 0..steps {
        system.step(DT, &mut NoCollider).unwrap();
    }
    system.velocity(bead).unwrap().dot(direction)
}

#[test]
fn bead_on_a_tilted_line_accelerates_at_g_sin_theta() {
    let theta = 30f32.to_radians();
    // Down the slope to the right: direction (cos θ, −sin θ), through (0, 2).
    let direction = Vec2::new(theta.cos(), -theta.sin());
    let origin = Vec2::new(0.0, 2.0);
    let seconds = 2.0;
    let expected = G * theta.sin();

    let mut implicit = system(Integrator::SymplecticEuler);
    let bead = implicit
        .create_particle(&ParticleDef::new(origin, 1.0))
        .unwrap();
    implicit
        .create_constraint(&ConstraintDef::Line {
            particle: bead,
            point: origin,
            direction,
        })
        .unwrap();
    let speed = incline_speed(&mut implicit, bead, direction, seconds);
    let acceleration = speed / seconds;
    let off_line = implicit.max_constraint_error();
    println!(
        "implicit line at 30°: acceleration {acceleration:.5} m/s² (g sin θ = {expected:.5}), \
         distance from the line {off_line:.1e} m"
    );
    assert!((acceleration - expected).abs() / expected < 0.005);
    assert!(off_line < 1.0e-4);

    let mut parametric = system(Integrator::SymplecticEuler);
    let bead = parametric
        .create_bead(&BeadDef {
            curve: Curve::Line { origin, direction },
            coordinate: 0.0,
            rate: 0.0,
            inverse_mass: 1.0,
        })
        .unwrap();
    let speed = incline_speed(&mut parametric, bead, direction, seconds);
    let (u, rate) = parametric.bead_coordinate(bead).unwrap();
    let acceleration = rate as f32 / seconds;
    println!(
        "parametric line at 30°: acceleration {acceleration:.5} m/s², speed {speed:.5} m/s, \
         travelled {u:.4} m (½ a t² = {:.4} m)",
        0.5 * expected * seconds * seconds
    );
    assert!((acceleration - expected).abs() / expected < 0.005);
    assert!((speed - rate as f32).abs() < 1e-4);
}
