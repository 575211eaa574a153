//! Whole-step behaviour on hand-built scenes. The "narrowphase" here is exact for the
//! shapes used (a box's bottom edge or a circle above the ground line y = 0), and carries
//! the accumulated impulses from one step's manifold to the next by point index, as the
//! contact cache does by feature id.

use super::*;
use crate::SolverContact;
use crate::constraints::{ColorError, ColorRanges};
use collision::{Manifold, ManifoldPoint};
use core_soa::{BodySim, BodyState, NULL_BODY, Rot, Transform, Vec2, body_flags};

/// The old convenience entry points, as the tests use them: everything in the overflow set
/// (`solve`), with adjusted constants, or cut into colours by ranges (`solve_colored`).
trait Steps {
    fn solve(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        profile: &mut SolverProfile,
    );
    fn solve_with_context(
        &mut self,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        profile: &mut SolverProfile,
    );
    fn solve_colored(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorRanges,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorError>;
}

impl Steps for ContactSolver {
    fn solve(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        profile: &mut SolverProfile,
    ) {
        let constraints = StepConstraints::overflow_only(contacts, &mut []);
        self.step(params, bodies, constraints, profile).unwrap();
    }

    fn solve_with_context(
        &mut self,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        profile: &mut SolverProfile,
    ) {
        let constraints = StepConstraints::overflow_only(contacts, &mut []);
        self.step_with_context(context, bodies, constraints, profile)
            .unwrap();
    }

    fn solve_colored(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorRanges,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorError> {
        let no_joints = (&ColorRanges::default(), &mut [][..]);
        let constraints = ColorRanges::constraints((layout, contacts), no_joints);
        self.step(params, bodies, constraints, profile)
    }
}

/// One step with a solver made for it, everything in the overflow set.
fn solve(
    params: &SolverParams,
    bodies: AwakeBodies<'_>,
    contacts: &mut [SolverContact],
    profile: &mut SolverProfile,
) {
    ContactSolver::new().solve(params, bodies, contacts, profile);
}

const HALF: f32 = 0.5;

std::thread_local! {
    /// Whether `run_on_ground` puts its contact in a colour (wide path) instead of the
    /// overflow set (scalar path).
    static COLORED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `test` with the ground contact in the overflow set and then in a colour, and
/// checks that both give the same bits (a lane of the wide path is the scalar path).
fn on_both_paths<T: PartialEq + std::fmt::Debug>(test: impl Fn() -> T) {
    COLORED.with(|c| c.set(false));
    let scalar = test();
    COLORED.with(|c| c.set(true));
    let wide = test();
    COLORED.with(|c| c.set(false));
    assert_eq!(format!("{scalar:?}"), format!("{wide:?}"));
}

fn dynamic_body(center: Vec2, mass: f32, inertia: f32) -> (BodyState, BodySim) {
    let state = BodyState {
        flags: body_flags::DYNAMIC,
        ..BodyState::IDENTITY
    };
    let sim = BodySim {
        transform: Transform::new(center, Rot::IDENTITY),
        center,
        mass,
        inv_mass: 1.0 / mass,
        inertia,
        inv_inertia: 1.0 / inertia,
        ..BodySim::default()
    };
    (state, sim)
}

/// A unit box (1 kg, 1 m × 1 m, I = m·(w² + h²)/12 = 1/6) with its centre at `center`.
fn unit_box(center: Vec2) -> (BodyState, BodySim) {
    dynamic_body(center, 1.0, 1.0 / 6.0)
}

fn ground_contact(
    manifold: Manifold,
    sim: &BodySim,
    friction: f32,
    restitution: f32,
) -> SolverContact {
    SolverContact {
        body_a: NULL_BODY,
        body_b: 0,
        inv_mass_a: 0.0,
        inv_inertia_a: 0.0,
        inv_mass_b: sim.inv_mass,
        inv_inertia_b: sim.inv_inertia,
        friction,
        restitution,
        manifold,
    }
}

/// The manifold of body 0's bottom edge (a box) against the ground, impulses carried over.
fn box_manifold(sim: &BodySim, previous: &Manifold) -> Manifold {
    let mut m = Manifold {
        normal: Vec2::Y,
        point_count: 2,
        ..Default::default()
    };
    for (i, local_x) in [-HALF, HALF].into_iter().enumerate() {
        let corner = sim.center + sim.transform.q.rotate(Vec2::new(local_x, -HALF));
        let point = Vec2::new(corner.x, 0.5 * corner.y);
        m.points[i] = ManifoldPoint {
            point,
            anchor_a: point,
            anchor_b: point - sim.center,
            separation: corner.y,
            id: i as u16,
            normal_impulse: previous.points[i].normal_impulse,
            tangent_impulse: previous.points[i].tangent_impulse,
            persisted: previous.point_count == 2,
            ..Default::default()
        };
    }
    m
}

/// The manifold of a ball of `radius` (body 0) against the ground.
fn ball_manifold(sim: &BodySim, radius: f32, previous: &Manifold) -> Manifold {
    let mut m = Manifold {
        normal: Vec2::Y,
        point_count: 1,
        ..Default::default()
    };
    let lowest = sim.center - Vec2::new(0.0, radius);
    let point = Vec2::new(lowest.x, 0.5 * lowest.y);
    m.points[0] = ManifoldPoint {
        point,
        anchor_a: point,
        anchor_b: point - sim.center,
        separation: lowest.y,
        normal_impulse: previous.points[0].normal_impulse,
        tangent_impulse: previous.points[0].tangent_impulse,
        ..Default::default()
    };
    m
}

/// Steps body 0 against the ground `steps` times, re-colliding with `collide` each step, and
/// calls `observe` after every step.
fn run_on_ground(
    params: &SolverParams,
    body: (BodyState, BodySim),
    contact: (f32, f32),
    steps: usize,
    collide: impl Fn(&BodySim, &Manifold) -> Manifold,
    mut observe: impl FnMut(&BodyState, &BodySim),
) -> (BodyState, BodySim) {
    let (mut states, mut sims) = ([body.0], [body.1]);
    let mut solver = ContactSolver::new();
    let mut profile = SolverProfile::default();
    let mut manifold = Manifold {
        point_count: 0,
        ..Default::default()
    };
    for _ in 0..steps {
        manifold = collide(&sims[0], &manifold);
        let mut contacts = [ground_contact(manifold, &sims[0], contact.0, contact.1)];
        let bodies = AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        };
        if COLORED.with(|c| c.get()) {
            let layout = ColorRanges {
                colors: std::iter::once(0..1).collect(),
                overflow: 1..1,
            };
            solver
                .solve_colored(params, bodies, &mut contacts, &layout, &mut profile)
                .unwrap();
            assert_eq!(solver.counters().bundles, 1);
        } else {
            solver.solve(params, bodies, &mut contacts, &mut profile);
        }
        manifold = contacts[0].manifold;
        observe(&states[0], &sims[0]);
    }
    (states[0], sims[0])
}

fn resting_box_stays_put(params: &SolverParams) -> (BodyState, BodySim) {
    let start = Vec2::new(0.0, HALF);
    let (state, sim) = run_on_ground(
        params,
        unit_box(start),
        (0.6, 0.0),
        60,
        box_manifold,
        |_, _| {},
    );
    let speed = (state.linear_velocity.length_squared()
        + state.angular_velocity * state.angular_velocity)
        .sqrt();
    assert!(speed < 1e-3, "still moving at {speed}");
    let moved = (sim.center - start).length();
    assert!(moved < params.linear_slop, "moved {moved}");
    assert!(sim.transform.q.angle().abs() < 1e-4);
    (state, sim)
}

#[test]
fn soft_step_box_rests_on_ground() {
    on_both_paths(|| resting_box_stays_put(&SolverParams::default()));
}

#[test]
fn sequential_impulses_box_rests_on_ground() {
    let params = SolverParams {
        kind: SolverKind::SequentialImpulses,
        substeps: 8,
        ..SolverParams::default()
    };
    on_both_paths(|| resting_box_stays_put(&params));
}

#[test]
fn resting_impulses_carry_the_weight() {
    // At rest the two points share the weight per substep: Σλ = m·g·h = 10/240.
    let params = SolverParams::default();
    let mut last = Manifold::default();
    let (mut states, mut sims) = (
        [unit_box(Vec2::new(0.0, HALF)).0],
        [unit_box(Vec2::new(0.0, HALF)).1],
    );
    for _ in 0..30 {
        last = box_manifold(&sims[0], &last);
        let mut contacts = [ground_contact(last, &sims[0], 0.6, 0.0)];
        solve(
            &params,
            AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            },
            &mut contacts,
            &mut SolverProfile::default(),
        );
        last = contacts[0].manifold;
    }
    let total: f32 = last.points().iter().map(|p| p.normal_impulse).sum();
    assert!(
        (total - 10.0 / 240.0).abs() < 1e-3 * 10.0 / 240.0,
        "total {total}"
    );
    assert!((last.points[0].normal_impulse - last.points[1].normal_impulse).abs() < 1e-4);
}

#[test]
fn overlap_is_pushed_out_no_faster_than_the_limit() {
    let params = SolverParams::default();
    let start = Vec2::new(0.0, HALF - 0.1);
    let mut fastest: f32 = 0.0;
    let mut previous_y = start.y;
    let mut fastest_displacement: f32 = 0.0;
    let (_, sim) = run_on_ground(
        &params,
        unit_box(start),
        (0.6, 0.0),
        60,
        box_manifold,
        |state, sim| {
            fastest = fastest.max(state.linear_velocity.y);
            fastest_displacement =
                fastest_displacement.max((sim.center.y - previous_y) / params.dt);
            previous_y = sim.center.y;
        },
    );
    assert!(
        fastest <= params.contact_push_max_speed,
        "pushed at {fastest}"
    );
    assert!(
        fastest_displacement <= params.contact_push_max_speed,
        "moved at {fastest_displacement}"
    );
    // The relax pass takes back the push-out velocity each substep, so it shows in the
    // displacement, not in the velocity left at the end of the step.
    assert!(
        fastest_displacement > 0.5 * params.contact_push_max_speed,
        "push-out should be near the limit, got {fastest_displacement}"
    );
    // Out of the overlap, to within the slop, after a second.
    assert!(
        sim.center.y > HALF - params.linear_slop,
        "y = {}",
        sim.center.y
    );
}

const BOTH_KINDS: [SolverKind; 2] = [SolverKind::SoftStep, SolverKind::SequentialImpulses];

#[test]
fn sliding_box_decelerates_at_mu_g() {
    on_both_paths(|| BOTH_KINDS.map(sliding_box_decelerates_at_mu_g_with));
}

fn sliding_box_decelerates_at_mu_g_with(kind: SolverKind) -> BodyState {
    let params = SolverParams {
        kind,
        ..SolverParams::default()
    };
    let mu = 0.5;
    let (mut state, sim) = unit_box(Vec2::new(0.0, HALF));
    state.linear_velocity = Vec2::new(2.0, 0.0);
    // 12 steps = 0.2 s, while the box still slides (it would stop at 0.4 s).
    let steps = 12;
    let (end, _) = run_on_ground(
        &params,
        (state, sim),
        (mu, 0.0),
        steps,
        box_manifold,
        |_, _| {},
    );
    let t = steps as f32 * params.dt;
    let deceleration = (2.0 - end.linear_velocity.x) / t;
    let expected = mu * 10.0;
    assert!(
        (deceleration - expected).abs() < 0.02 * expected,
        "{kind:?}: deceleration {deceleration}"
    );
    end
}

#[test]
fn ball_bounces_with_restitution() {
    on_both_paths(|| BOTH_KINDS.map(ball_bounces_with_restitution_with));
}

fn ball_bounces_with_restitution_with(kind: SolverKind) -> f32 {
    let params = SolverParams {
        kind,
        gravity: Vec2::ZERO,
        ..SolverParams::default()
    };
    let radius = 0.5;
    let (mut state, sim) = dynamic_body(Vec2::new(0.0, radius + 0.01), 1.0, 0.5 * radius * radius);
    state.linear_velocity = Vec2::new(0.0, -5.0);
    let mut bounced = None;
    run_on_ground(
        &params,
        (state, sim),
        (0.0, 0.5),
        10,
        |s, m| ball_manifold(s, radius, m),
        |state, _| {
            if bounced.is_none() && state.linear_velocity.y > 0.0 {
                bounced = Some(state.linear_velocity.y);
            }
        },
    );
    let leaving = bounced.expect("the ball never bounced");
    assert!(
        (leaving - 2.5).abs() < 0.02 * 2.5,
        "{kind:?}: left at {leaving}"
    );
    leaving
}

#[test]
fn free_fall_is_symplectic_euler() {
    // v = g·t to float precision; x = ½·g·t² + ½·g·t·h (the integrator's first-order term).
    let params = SolverParams::default();
    let (mut states, mut sims) = ([unit_box(Vec2::ZERO).0], [unit_box(Vec2::ZERO).1]);
    let steps = 60;
    for _ in 0..steps {
        solve(
            &params,
            AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            },
            &mut [],
            &mut SolverProfile::default(),
        );
    }
    let substeps = (steps * params.substeps as usize) as f32;
    let h = params.dt / params.substeps as f32;
    let t = steps as f32 * params.dt;
    let g = params.gravity.y;
    // Each of the N additions rounds by at most half an ulp of the running sum.
    let v_tolerance = substeps * f32::EPSILON * (g * t).abs();
    assert!((states[0].linear_velocity.y - g * t).abs() <= v_tolerance);
    assert_eq!(states[0].linear_velocity.x, 0.0);
    let expected_y = 0.5 * g * t * t + 0.5 * g * t * h;
    let y = sims[0].center.y;
    assert!(
        (y - expected_y).abs() <= substeps * f32::EPSILON * expected_y.abs(),
        "{y} vs {expected_y}"
    );
    // The first-order term is what separates it from the exact parabola.
    assert!((y - 0.5 * g * t * t).abs() > 0.9 * (0.5 * g * t * h).abs());
}

#[test]
fn head_on_collision_conserves_momentum() {
    // Two free bodies, A (2 kg) moving right at 3 m/s into B (1 kg) at rest, touching at x = 0.
    let params = SolverParams {
        gravity: Vec2::ZERO,
        ..SolverParams::default()
    };
    let (mut a_state, a_sim) = dynamic_body(Vec2::new(-0.5, 0.0), 2.0, 1.0);
    let (b_state, b_sim) = dynamic_body(Vec2::new(0.5, 0.0), 1.0, 1.0);
    a_state.linear_velocity = Vec2::new(3.0, 0.0);
    let mut states = [a_state, b_state];
    let mut sims = [a_sim, b_sim];
    let mut m = Manifold {
        normal: Vec2::X,
        point_count: 1,
        ..Default::default()
    };
    m.points[0] = ManifoldPoint {
        anchor_a: Vec2::new(0.5, 0.0),
        anchor_b: Vec2::new(-0.5, 0.0),
        ..Default::default()
    };
    let mut contacts = [SolverContact {
        body_a: 0,
        body_b: 1,
        inv_mass_a: 0.5,
        inv_inertia_a: 1.0,
        inv_mass_b: 1.0,
        inv_inertia_b: 1.0,
        friction: 0.5,
        restitution: 0.0,
        manifold: m,
    }];
    solve(
        &params,
        AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        },
        &mut contacts,
        &mut SolverProfile::default(),
    );
    let momentum = 2.0 * states[0].linear_velocity + states[1].linear_velocity;
    assert!(
        (momentum - Vec2::new(6.0, 0.0)).length() < 1e-5,
        "{momentum}"
    );
    // Perfectly inelastic: both at the common speed 2 m/s.
    assert!((states[0].linear_velocity.x - 2.0).abs() < 1e-3);
    assert!((states[1].linear_velocity.x - 2.0).abs() < 1e-3);
    assert!(contacts[0].manifold.points[0].max_normal_impulse > 0.0);
    assert!((contacts[0].manifold.points[0].normal_velocity + 3.0).abs() < 1e-6);
}

#[test]
fn kinematic_body_pushes_but_is_not_pushed() {
    let params = SolverParams::default();
    let (mut k_state, mut k_sim) = dynamic_body(Vec2::new(0.0, -0.5), 1.0, 1.0);
    k_state.flags = body_flags::KINEMATIC;
    k_state.linear_velocity = Vec2::new(0.0, 1.0);
    k_sim.inv_mass = 0.0;
    k_sim.inv_inertia = 0.0;
    let (b_state, b_sim) = unit_box(Vec2::new(0.0, 0.5));
    let mut states = [k_state, b_state];
    let mut sims = [k_sim, b_sim];
    let mut m = Manifold {
        normal: Vec2::Y,
        point_count: 1,
        ..Default::default()
    };
    m.points[0] = ManifoldPoint {
        anchor_a: Vec2::new(0.0, 0.5),
        anchor_b: Vec2::new(0.0, -0.5),
        ..Default::default()
    };
    let mut contacts = [SolverContact {
        body_a: 0,
        body_b: 1,
        inv_mass_a: 0.0,
        inv_inertia_a: 0.0,
        inv_mass_b: 1.0,
        inv_inertia_b: 6.0,
        friction: 0.5,
        restitution: 0.0,
        manifold: m,
    }];
    solve(
        &params,
        AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        },
        &mut contacts,
        &mut SolverProfile::default(),
    );
    assert_eq!(states[0].linear_velocity, Vec2::new(0.0, 1.0));
    assert!((sims[0].center.y - (-0.5 + params.dt)).abs() < 1e-6);
    // The box is carried up with the platform.
    assert!(
        (states[1].linear_velocity.y - 1.0).abs() < 1e-3,
        "{}",
        states[1].linear_velocity.y
    );
}

#[test]
fn steps_are_bitwise_deterministic_and_bad_dt_moves_nothing() {
    let params = SolverParams::default();
    let run = || {
        let (mut state, sim) = unit_box(Vec2::new(0.0, HALF - 0.05));
        state.linear_velocity = Vec2::new(1.0, -1.0);
        state.angular_velocity = 0.3;
        run_on_ground(
            &params,
            (state, sim),
            (0.6, 0.0),
            20,
            box_manifold,
            |_, _| {},
        )
    };
    assert_eq!(run(), run());

    let (mut state, mut sim) = unit_box(Vec2::new(1.0, 2.0));
    state.linear_velocity = Vec2::new(1.0, 0.0);
    sim.force = Vec2::new(3.0, 0.0);
    let (mut states, mut sims) = ([state], [sim]);
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let bad = SolverParams { dt, ..params };
        solve(
            &bad,
            AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            },
            &mut [],
            &mut SolverProfile::default(),
        );
        assert_eq!(sims[0].center, Vec2::new(1.0, 2.0));
        assert_eq!(states[0].linear_velocity, Vec2::new(1.0, 0.0));
        assert_eq!(sims[0].force, Vec2::new(3.0, 0.0));
    }
}

#[test]
fn profile_is_filled_and_consistent() {
    let params = SolverParams::default();
    let mut profile = SolverProfile::default();
    let (mut states, mut sims) = (
        [unit_box(Vec2::new(0.0, HALF)).0],
        [unit_box(Vec2::new(0.0, HALF)).1],
    );
    let m = box_manifold(&sims[0], &Manifold::default());
    let mut contacts = [ground_contact(m, &sims[0], 0.6, 0.0)];
    let mut solver = ContactSolver::new();
    solver.solve(
        &params,
        AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        },
        &mut contacts,
        &mut profile,
    );
    assert!(profile.total > 0.0);
    assert!(profile.stage_sum() <= profile.total * 1.0001 + 1e-6);
    // Begin, order and prepare contacts, prepare joints, 4 × 5 substep stages, restitution
    // and store.
    assert_eq!(solver.stages().len(), 4 + 4 * 5 + 2);
    assert_eq!(solver.constraints().len(), 1);
}

/// The manifold of box `b`'s bottom edge against the top face of box `a` (or of the
/// ground when `a` is `None`), for near-aligned unit boxes, impulses carried over.
fn stacked_manifold(a: Option<&BodySim>, b: &BodySim, previous: &Manifold) -> Manifold {
    let (normal, face_point, center_a) = match a {
        Some(a) => (
            a.transform.q.rotate(Vec2::Y),
            a.center + a.transform.q.rotate(Vec2::new(0.0, HALF)),
            a.center,
        ),
        None => (Vec2::Y, Vec2::ZERO, Vec2::ZERO),
    };
    let mut m = Manifold {
        normal,
        point_count: 2,
        ..Default::default()
    };
    for (i, local_x) in [-HALF, HALF].into_iter().enumerate() {
        let corner = b.center + b.transform.q.rotate(Vec2::new(local_x, -HALF));
        let separation = normal.dot(corner - face_point);
        let point = corner - 0.5 * separation * normal;
        m.points[i] = ManifoldPoint {
            point,
            anchor_a: point - center_a,
            anchor_b: point - b.center,
            separation,
            id: i as u16,
            normal_impulse: previous.points[i].normal_impulse,
            tangent_impulse: previous.points[i].tangent_impulse,
            ..Default::default()
        };
    }
    m
}

/// Steps a column of `count` unit boxes for `steps` steps with the step constants adjusted
/// by `adjust`, and returns the bodies.
fn run_stack(count: usize, steps: usize, adjust: impl Fn(&mut StepContext)) -> Vec<BodySim> {
    let params = SolverParams::default();
    let mut context = StepContext::new(&params);
    adjust(&mut context);
    let bodies: Vec<_> = (0..count)
        .map(|i| unit_box(Vec2::new(0.0, HALF + i as f32)))
        .collect();
    let mut states: Vec<BodyState> = bodies.iter().map(|b| b.0).collect();
    let mut sims: Vec<BodySim> = bodies.iter().map(|b| b.1).collect();
    let mut manifolds = vec![Manifold::default(); count];
    let mut solver = ContactSolver::new();
    for _ in 0..steps {
        let contacts: Vec<SolverContact> = (0..count)
            .map(|i| {
                let below = i.checked_sub(1).map(|j| &sims[j]);
                let manifold = stacked_manifold(below, &sims[i], &manifolds[i]);
                let mut contact = ground_contact(manifold, &sims[i], 0.6, 0.0);
                contact.body_b = i as u32;
                if let Some(j) = i.checked_sub(1) {
                    (contact.body_a, contact.inv_mass_a, contact.inv_inertia_a) =
                        (j as u32, 1.0, 6.0);
                }
                contact
            })
            .collect();
        let mut contacts = contacts;
        let bodies = AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        };
        solver.solve_with_context(
            Some(&context),
            bodies,
            &mut contacts,
            &mut SolverProfile::default(),
        );
        for (m, c) in manifolds.iter_mut().zip(&contacts) {
            *m = c.manifold;
        }
    }
    sims
}

/// The resting overlap of a soft contact point carrying `load` (impulse per substep) with
/// effective mass `normal_mass`. At rest the warm start cancels gravity's substep velocity,
/// so the soft pass sees `vn = 0`, and its fixed point `Δλ = 0` gives
/// `0 = −m_n·mass_scale·bias_rate·s − impulse_scale·load`.
fn predicted_overlap(softness: &crate::Softness, load: f32, normal_mass: f32) -> f32 {
    softness.impulse_scale / softness.mass_scale * load / (normal_mass * softness.bias_rate)
}

#[test]
fn stiffer_fixed_contact_softness_reduces_stack_sinking() {
    // A column of 10 unit boxes after 2 s. The ground contact carries the column: each of its
    // two points holds Λ = 10·m·g·h/2 per substep, with m_n = 1/(1 + 6·0.5²) = 0.4. With the
    // fixed-body softness (2× hertz, joint damping ratio) it settles at a quarter of the
    // overlap it would have with the dynamic softness.
    let count = 10;
    let context = StepContext::new(&SolverParams::default());
    let load = count as f32 * 10.0 * context.h / 2.0;
    let stiff = run_stack(count, 120, |_| {});
    let soft = run_stack(count, 120, |c| c.softness.fixed = c.softness.dynamic);
    let overlap = |sims: &[BodySim]| HALF - sims[0].center.y;
    let (stiff_overlap, soft_overlap) = (overlap(&stiff), overlap(&soft));
    let stiff_expected = predicted_overlap(&context.softness.fixed, load, 0.4);
    let soft_expected = predicted_overlap(&context.softness.dynamic, load, 0.4);
    assert!(
        (stiff_overlap - stiff_expected).abs() < 0.03 * stiff_expected,
        "{stiff_overlap} vs {stiff_expected}"
    );
    assert!(
        (soft_overlap - soft_expected).abs() < 0.03 * soft_expected,
        "{soft_overlap} vs {soft_expected}"
    );
    assert!(stiff_overlap < 0.3 * soft_overlap);
    // Gauss–Seidel visits the left point of each contact first, which tips the column by
    // about a milliradian while it settles; it stays standing and straightens over time.
    for sims in [&stiff, &soft] {
        let top = sims[count - 1];
        assert!(
            top.center.x.abs() < 0.02,
            "the column leans: top at x = {}",
            top.center.x
        );
        assert!(sims.iter().all(|b| b.transform.q.angle().abs() < 0.005));
        assert!(
            top.center.y > count as f32 - HALF - 0.05,
            "the column sank: top at {}",
            top.center.y
        );
    }
}

/// Steps body 0 on the ground with the step constants adjusted by `adjust`.
fn run_on_ground_with(
    params: &SolverParams,
    adjust: impl Fn(&mut StepContext),
    body: (BodyState, BodySim),
    friction: f32,
    steps: usize,
) -> (BodyState, BodySim) {
    let mut context = StepContext::new(params);
    adjust(&mut context);
    let (mut states, mut sims) = ([body.0], [body.1]);
    let mut solver = ContactSolver::new();
    let mut manifold = Manifold::default();
    for _ in 0..steps {
        manifold = box_manifold(&sims[0], &manifold);
        let mut contacts = [ground_contact(manifold, &sims[0], friction, 0.0)];
        let bodies = AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        };
        solver.solve_with_context(
            Some(&context),
            bodies,
            &mut contacts,
            &mut SolverProfile::default(),
        );
        manifold = contacts[0].manifold;
    }
    (states[0], sims[0])
}

#[test]
fn friction_passes_compared() {
    // Both choices decelerate a sliding box at μ·g; friction in both passes holds a box on
    // an incline about five times tighter (30 µm against 160 µm of creep in 2 s), which is
    // why it is the default.
    use crate::stages::FrictionPasses;
    let mut creeps = Vec::new();
    for passes in [FrictionPasses::SolveAndRelax, FrictionPasses::RelaxOnly] {
        let adjust = |c: &mut StepContext| c.friction_passes = passes;
        // Sliding: 2 m/s, μ = 0.5, 0.2 s.
        let (mut state, sim) = unit_box(Vec2::new(0.0, HALF));
        state.linear_velocity = Vec2::new(2.0, 0.0);
        let params = SolverParams::default();
        let (end, _) = run_on_ground_with(&params, adjust, (state, sim), 0.5, 12);
        let deceleration = (2.0 - end.linear_velocity.x) / 0.2;
        // Holding on a 20° incline (gravity tilted instead of the ground), μ = 0.6 > tan 20°.
        let angle = 20f32.to_radians();
        let tilted = SolverParams {
            gravity: 10.0 * Vec2::new(-angle.sin(), -angle.cos()),
            ..params
        };
        let start = unit_box(Vec2::new(0.0, HALF));
        let (_, held) = run_on_ground_with(&tilted, adjust, start, 0.6, 120);
        let creep = held.center.x.abs();
        assert!(
            (deceleration - 5.0).abs() < 0.02 * 5.0,
            "{passes:?}: {deceleration}"
        );
        assert!(creep < 1e-3, "{passes:?}: crept {creep}");
        creeps.push(creep);
    }
    assert!(creeps[0] < 0.5 * creeps[1], "creep {creeps:?}");
}

#[test]
fn a_blown_up_body_is_reported_not_spread() {
    let params = SolverParams::default();
    let (state, mut sim) = unit_box(Vec2::new(0.0, HALF));
    sim.force = Vec2::new(0.0, f32::NAN);
    let (mut states, mut sims) = ([state], [sim]);
    let manifold = box_manifold(&sims[0], &Manifold::default());
    let mut contacts = [ground_contact(manifold, &sims[0], 0.6, 0.0)];
    let mut solver = ContactSolver::new();
    let bodies = AwakeBodies {
        states: &mut states,
        sims: &mut sims,
    };
    solver.solve(
        &params,
        bodies,
        &mut contacts,
        &mut SolverProfile::default(),
    );
    assert_eq!(solver.non_finite_bodies(), &[0]);
    assert_eq!(sims[0].center, Vec2::new(0.0, HALF));
    assert_eq!(states[0].linear_velocity, Vec2::ZERO);
    for p in contacts[0].manifold.points() {
        assert_eq!((p.normal_impulse, p.tangent_impulse), (0.0, 0.0));
    }
    // The next step (force cleared) is healthy again.
    let bodies = AwakeBodies {
        states: &mut states,
        sims: &mut sims,
    };
    solver.solve(
        &params,
        bodies,
        &mut contacts,
        &mut SolverProfile::default(),
    );
    assert!(solver.non_finite_bodies().is_empty());
}

/// Steps `grid` `steps` times with `workers` threads, re-colliding before every step, and
/// returns the bits of every body state and contact impulse.
fn run_grid(
    grid: &mut crate::synthetic::BoxGrid,
    workers: usize,
    steps: usize,
) -> (Vec<u32>, Vec<u32>) {
    run_grid_with(grid, &SolverParams::default(), workers, steps)
}

fn run_grid_with(
    grid: &mut crate::synthetic::BoxGrid,
    params: &SolverParams,
    workers: usize,
    steps: usize,
) -> (Vec<u32>, Vec<u32>) {
    let mut solver = ContactSolver::new();
    solver.set_worker_count(workers);
    for _ in 0..steps {
        grid.collide();
        let layout = grid.layout().clone();
        let mut contacts = std::mem::take(&mut grid.contacts);
        solver
            .solve_colored(
                params,
                grid.bodies(),
                &mut contacts,
                &layout,
                &mut SolverProfile::default(),
            )
            .unwrap();
        grid.contacts = contacts;
    }
    let states = bytemuck::cast_slice::<BodyState, u32>(&grid.states).to_vec();
    let impulses = grid
        .contacts
        .iter()
        .flat_map(|c| c.manifold.points().to_vec())
        .flat_map(|p| [p.normal_impulse.to_bits(), p.tangent_impulse.to_bits()])
        .collect();
    (states, impulses)
}

#[test]
fn colored_steps_are_bitwise_identical_for_1_to_4_workers() {
    // A wall of 24 × 12 boxes, set moving, coloured freely and with only three colours (so
    // that some contacts overflow), 60 steps of each solver kind.
    let threads = workers::Workers::new(4).unwrap();
    for max_colors in [24, 3] {
        let mut start = crate::synthetic::BoxGrid::new(24, 12, 0.0);
        start.color(max_colors);
        for (i, state) in start.states.iter_mut().enumerate() {
            state.linear_velocity = Vec2::new(0.01 * (i % 7) as f32, 0.0);
            state.angular_velocity = 0.02 * (i % 5) as f32 - 0.04;
        }
        let overflow = start.layout().overflow.len();
        assert_eq!(overflow == 0, max_colors == 24, "overflow {overflow}");
        for kind in BOTH_KINDS {
            let params = SolverParams {
                kind,
                ..SolverParams::default()
            };
            let reference = run_grid_with(&mut start.clone(), &params, 1, 60);
            for workers in 2..=4 {
                let run = || run_grid_with(&mut start.clone(), &params, workers, 60);
                let result = threads.install(run);
                assert!(
                    result == reference,
                    "{kind:?}: {workers} workers, {max_colors} colours"
                );
            }
        }
    }
}

#[test]
fn a_wall_settles_where_the_soft_contacts_predict() {
    // 20 × 10 boxes for 2 s, solved by colours on two threads. Each column settles like the
    // column of `stiffer_fixed_contact_softness_reduces_stack_sinking`: the contact under
    // row r carries the 10 − r boxes above it, and overlaps by `predicted_overlap` with
    // m_n = 0.4 against the ground (1/(1 + 6·½²)) and 0.2 between boxes (1/(2 + 2·6·½²)).
    let (columns, rows) = (20, 10);
    let mut grid = crate::synthetic::BoxGrid::new(columns, rows, 0.0);
    grid.color(24);
    run_grid(&mut grid, 2, 120);
    let context = StepContext::new(&SolverParams::default());
    let mut sink = 0.0;
    for row in 0..rows {
        let load = (rows - row) as f32 * 10.0 * context.h / 2.0;
        sink += match row {
            0 => predicted_overlap(&context.softness.fixed, load, 0.4),
            _ => predicted_overlap(&context.softness.dynamic, load, 0.2),
        };
        let expected_y = row as f32 + HALF - sink;
        for column in 0..columns {
            let sim = &grid.sims[row * columns + column];
            let y = sim.center.y;
            assert!(
                (y - expected_y).abs() < 0.05 * sink,
                "row {row}, column {column}: y = {y}, expected {expected_y}"
            );
            // Gauss–Seidel visits each contact's left point first, which shears the wall
            // by about a millimetre at the top while it settles (as in the column test).
            assert!(
                (sim.center.x - column as f32).abs() < 5e-3,
                "{}",
                sim.center
            );
            assert!(sim.transform.q.angle().abs() < 5e-3);
        }
    }
}

#[test]
fn a_bad_layout_is_rejected_before_anything_moves() {
    let mut grid = crate::synthetic::BoxGrid::new(4, 2, 0.0);
    let before = grid.sims.clone();
    let contact_count = grid.contacts.len();
    // Everything in one colour: boxes share contacts.
    let layout = ColorRanges {
        colors: std::iter::once(0..contact_count).collect(),
        overflow: contact_count..contact_count,
    };
    let mut contacts = grid.contacts.clone();
    let result = ContactSolver::new().solve_colored(
        &SolverParams::default(),
        grid.bodies(),
        &mut contacts,
        &layout,
        &mut SolverProfile::default(),
    );
    assert!(matches!(result, Err(ColorError { color: 0, .. })));
    assert_eq!(grid.sims, before);
}

#[test]
fn the_unchecked_entry_solves_as_the_checked_one() {
    let mut checked = crate::synthetic::BoxGrid::new(16, 8, 0.0);
    checked.color(24);
    let mut unchecked = checked.clone();
    let params = SolverParams::default();
    let mut solver = ContactSolver::new();
    solver.set_worker_count(2);
    let threads = workers::Workers::new(2).unwrap();
    let mut profile = SolverProfile::default();
    for _ in 0..30 {
        for (grid, check) in [(&mut checked, true), (&mut unchecked, false)] {
            grid.collide();
            let (bodies, constraints) = grid.step_input();
            threads.install(|| {
                if check {
                    solver
                        .step(&params, bodies, constraints, &mut profile)
                        .unwrap();
                } else {
                    // SAFETY: `BoxGrid::color` gives no colour a dynamic body twice (the
                    // checked run of the same grid verifies it every step).
                    unsafe { solver.step_unchecked(&params, bodies, constraints, &mut profile) };
                }
            });
        }
        assert_eq!(checked.states, unchecked.states);
    }
}

#[test]
fn counters_and_entries_describe_the_colours() {
    let mut grid = crate::synthetic::BoxGrid::new(30, 4, 0.0);
    grid.color(24);
    let layout = grid.layout().clone();
    let mut solver = ContactSolver::new();
    let mut contacts = grid.contacts.clone();
    solver
        .solve_colored(
            &SolverParams::default(),
            grid.bodies(),
            &mut contacts,
            &layout,
            &mut SolverProfile::default(),
        )
        .unwrap();
    let counters = solver.counters();
    let expected_bundles: usize = layout
        .colors
        .iter()
        .map(|r| r.len().div_ceil(crate::wide::LANES))
        .sum();
    assert_eq!(counters.bundles, expected_bundles);
    assert_eq!(counters.colors, layout.colors_in_use());
    assert_eq!(counters.colored_contacts, contacts.len());
    assert_eq!(counters.overflow_contacts, 0);
    // Begin; prepare; per substep: integrate velocities, 3 passes per colour, integrate
    // positions; restitution per colour; store.
    let colors = counters.colors;
    assert_eq!(counters.stages, 1 + 1 + 4 * (2 + 3 * colors) + colors + 1);
    assert_eq!(solver.stage_entries().len(), counters.stages);
}
