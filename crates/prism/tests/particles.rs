//! Particle systems and cloth inside the World, through its public API: beads on wires against
//! the analytic pendulum and incline, a rod chain with the global solve and PGS, a hanging
//! cloth that settles, a cloth resting on a box whose weight reaches the ground through the
//! box (two-way coupling), a pin on a moving body, bitwise determinism across worker counts,
//! and refused inputs.

use prism::particles::{
    AnchorState, BeadDef, CgSettings, Cloth, ClothDef, ConstraintDef, ConstraintSolver, Curve,
    IdKind as ParticleIdKind, Integrator, Link, ParticleDef, ParticleError, ParticleId,
    PgsSettings, SystemDef,
};
use prism::{
    BodyDef, BodyId, BodyType, IdKind, ParticleSystemId, PrismError, ShapeDef, Vec2, World,
    WorldDef, make_box,
};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

fn world(workers: u32) -> World {
    World::new(WorldDef {
        gravity: Vec2::new(0.0, -G),
        worker_count: workers,
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap()
}

fn system_def(integrator: Integrator) -> SystemDef {
    SystemDef {
        gravity: Vec2::new(0.0, -G),
        integrator,
        ..SystemDef::default()
    }
}

fn steps(seconds: f32) -> usize {
    (seconds / DT).round() as usize
}

/// `2π √(L/g) / AGM(1, cos(θ₀/2))`, the exact pendulum period.
fn pendulum_period(length: f64, amplitude: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (amplitude / 2.0).cos());
    for _ in 0..30 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    2.0 * std::f64::consts::PI * (length / f64::from(G)).sqrt() / a
}

/// Steps `seconds`; returns the largest `||x| − 1|` of `bead` and its mean period from the
/// upward zero crossings of `x` (linearly interpolated).
fn swing(
    world: &mut World,
    system: ParticleSystemId,
    bead: ParticleId,
    seconds: f32,
) -> (f64, f64) {
    let mut worst = 0.0f64;
    let mut crossings = Vec::new();
    let mut previous = world.particle_position(system, bead).unwrap().x;
    for step in 1..=steps(seconds) {
        world.step(DT, SUBSTEPS).unwrap();
        let x = world.particle_position(system, bead).unwrap();
        worst = worst.max((f64::from(x.length()) - 1.0).abs());
        if previous < 0.0 && x.x >= 0.0 {
            let fraction = previous / (previous - x.x);
            crossings.push((step as f64 - 1.0 + f64::from(fraction)) * f64::from(DT));
        }
        previous = x.x;
    }
    let periods = crossings.len() - 1;
    (worst, (crossings[periods] - crossings[0]) / periods as f64)
}

#[test]
fn bead_on_a_circle_stays_on_it_and_swings_with_the_pendulum_period() {
    for amplitude in [std::f32::consts::FRAC_PI_2, 0.05] {
        let mut world = world(1);
        let system = world
            .create_particle_system(&system_def(Integrator::Rk4))
            .unwrap();
        let start = Vec2::new(amplitude.sin(), -amplitude.cos());
        let bead = world
            .create_particle(system, &ParticleDef::new(start, 0.5))
            .unwrap();
        world
            .create_particle_constraint(
                system,
                &ConstraintDef::Circle {
                    particle: bead,
                    center: Vec2::ZERO,
                    radius: 1.0,
                },
            )
            .unwrap();
        let (drift, period) = swing(&mut world, system, bead, 10.0);
        let exact = pendulum_period(1.0, f64::from(amplitude));
        let linear = 2.0 * std::f64::consts::PI / f64::from(G).sqrt();
        let profile = world.profile().particle_figures;
        println!(
            "bead on a unit circle, released at {amplitude} rad, RK4 in the World: max ||x| − 1| \
             {drift:.2e} m, period {period:.5} s (exact {exact:.5} s, linear {linear:.5} s), \
             last step {} CG iterations, residual {:.1e}",
            profile.cg_iterations, profile.cg_residual
        );
        assert!(drift < 1.0e-4, "drift {drift:e}");
        assert!((period - exact).abs() / exact < 0.005);
        if amplitude < 0.1 {
            assert!((period - linear).abs() / linear < 0.005);
        }
    }
}

#[test]
fn bead_on_a_tilted_line_accelerates_at_g_sin_theta() {
    let theta = 30f32.to_radians();
    let direction = Vec2::new(theta.cos(), -theta.sin());
    let origin = Vec2::new(0.0, 2.0);
    let seconds = 2.0;
    let expected = G * theta.sin();
    let mut world = world(1);
    let system = world
        .create_particle_system(&system_def(Integrator::SymplecticEuler))
        .unwrap();
    let bead = world
        .create_particle(system, &ParticleDef::new(origin, 1.0))
        .unwrap();
    world
        .create_particle_constraint(
            system,
            &ConstraintDef::Line {
                particle: bead,
                point: origin,
                direction,
            },
        )
        .unwrap();
    let parametric = world
        .create_bead(
            system,
            &BeadDef {
                curve: Curve::Line { origin, direction },
                coordinate: 0.0,
                rate: 0.0,
                inverse_mass: 1.0,
            },
        )
        .unwrap();
    for _ in 0..steps(seconds) {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let implicit = world
        .particle_velocity(system, bead)
        .unwrap()
        .dot(direction)
        / seconds;
    let along = world
        .particle_velocity(system, parametric)
        .unwrap()
        .dot(direction)
        / seconds;
    let off_line = world
        .particle_system(system)
        .unwrap()
        .max_constraint_error();
    println!(
        "beads on a line at 30°: implicit {implicit:.5} m/s², parametric {along:.5} m/s² \
         (g sin θ = {expected:.5}), distance from the line {off_line:.1e} m"
    );
    assert!((implicit - expected).abs() / expected < 0.005);
    assert!((along - expected).abs() / expected < 0.005);
    assert!(off_line < 1.0e-4);
}

/// The chain's relative total length error after 10 s (pinned at the origin, 20 particles,
/// 19 rods of 10 cm, released straight at 60° from the vertical), and its mean CG iterations
/// per step.
fn chain_error(def: SystemDef) -> (f64, f64) {
    let mut world = world(1);
    let system = world.create_particle_system(&def).unwrap();
    let direction = Vec2::new(60f32.to_radians().sin(), -60f32.to_radians().cos());
    let particles: Vec<ParticleId> = (0..20)
        .map(|i| {
            let def = ParticleDef::new(direction * (i as f32 * 0.1), 0.05);
            world.create_particle(system, &def).unwrap()
        })
        .collect();
    for pair in particles.windows(2) {
        let rod = ConstraintDef::Rod {
            a: pair[0],
            b: pair[1],
            length: 0.1,
        };
        world.create_particle_constraint(system, &rod).unwrap();
    }
    let pin = ConstraintDef::Pin {
        particle: particles[0],
        point: Vec2::ZERO,
    };
    world.create_particle_constraint(system, &pin).unwrap();
    let mut iterations = 0u64;
    for _ in 0..steps(10.0) {
        world.step(DT, SUBSTEPS).unwrap();
        iterations += u64::from(world.profile().particle_figures.cg_iterations);
    }
    assert!(world.diverged_particle_systems().is_empty());
    let total: f64 = particles
        .windows(2)
        .map(|pair| {
            let a = world.particle_position(system, pair[0]).unwrap();
            let b = world.particle_position(system, pair[1]).unwrap();
            f64::from((a - b).length())
        })
        .sum();
    (
        (total - 1.9).abs() / 1.9,
        iterations as f64 / steps(10.0) as f64,
    )
}

#[test]
fn chain_of_20_rods_keeps_its_length_with_the_global_solve() {
    let (global, iterations) = chain_error(SystemDef::default());
    let pgs = |iterations| SystemDef {
        solver: ConstraintSolver::Pgs,
        pgs: PgsSettings {
            iterations,
            ..PgsSettings::default()
        },
        ..SystemDef::default()
    };
    let (pgs4, _) = chain_error(pgs(4));
    let (pgs16, _) = chain_error(pgs(16));
    println!(
        "chain of 20 rods after 10 s: total length error {:.4}% with the global solve \
         ({iterations:.1} CG iterations per step), {:.3}% with PGS at 16 sweeps, {:.3}% at 4",
        100.0 * global,
        100.0 * pgs16,
        100.0 * pgs4
    );
    assert!(global < 1.0e-3);
    assert!(pgs16 < pgs4, "more sweeps hold the chain better");
    assert!(global < pgs16, "the global solve holds it best");
}

/// A 32 × 32 net of 3 cm squares and 2 g particles, hung by its top corners with slack
/// (squeezed to 85% of its width and sagging 10 cm: rods pinned exactly one width apart
/// would form a taut top edge no finite force holds up).
fn hanging_net(world: &mut World, system: ParticleSystemId) -> Cloth {
    let n = 32;
    let spacing = 0.03;
    let def = ClothDef {
        columns: n,
        rows: n,
        spacing,
        particle_mass: 0.002,
        ..ClothDef::default()
    };
    let cloth = world.create_cloth(system, &def).unwrap();
    let half = 0.5 * (n - 1) as f32 * spacing;
    for &particle in cloth.particles() {
        let x = world.particle_position(system, particle).unwrap();
        let u = (x.x - half) / half;
        let squeezed = Vec2::new(half + 0.85 * (x.x - half), x.y - 0.1 * (1.0 - u * u));
        world
            .set_particle_position(system, particle, squeezed)
            .unwrap();
    }
    for column in [0, n - 1] {
        let point = world
            .particle_position(system, cloth.particle(column, 0).unwrap())
            .unwrap();
        world.pin_cloth(system, &cloth, column, 0, point).unwrap();
    }
    cloth
}

#[test]
fn cloth_pinned_at_two_corners_settles() {
    let mut world = world(2);
    let system = world
        .create_particle_system(&SystemDef {
            drag: 0.01,
            substeps: 2,
            cg: CgSettings {
                max_iterations: 1000,
                tolerance: 1.0e-6,
            },
            ..system_def(Integrator::SymplecticEuler)
        })
        .unwrap();
    let cloth = hanging_net(&mut world, system);
    let mut iterations = 0u64;
    for _ in 0..steps(5.0) {
        world.step(DT, SUBSTEPS).unwrap();
        iterations += u64::from(world.profile().particle_figures.cg_iterations);
    }
    let fastest = world
        .particle_velocities(system)
        .unwrap()
        .iter()
        .map(|v| v.length())
        .fold(0.0, f32::max);
    let profile = world.particle_profile(system).unwrap();
    println!(
        "32×32 cloth pinned at two corners, after 5 s: fastest particle {fastest:.2e} m/s, \
         largest rod error {:.1e} m, {:.0} CG iterations per step, last step {:.2} ms \
         (World phase {:.2} ms)",
        profile.max_constraint_error,
        iterations as f64 / steps(5.0) as f64,
        profile.total,
        world.profile().particles
    );
    assert_eq!(cloth.particles().len(), 1024);
    assert!(fastest < 1.0e-3, "fastest {fastest} m/s");
    assert!(profile.max_constraint_error < 1.0e-4);
}

/// Sum of the normal forces (N) of `body`'s touching contacts with `other`, from the last
/// step's accumulated impulses (the soft-step solver applies them every substep).
fn contact_force(world: &World, body: BodyId, other: BodyId) -> f64 {
    world
        .body_contact_data(body)
        .unwrap()
        .iter()
        .filter(|c| {
            let a = world.shape_body(c.shape_a).unwrap();
            let b = world.shape_body(c.shape_b).unwrap();
            (a == body && b == other) || (a == other && b == body)
        })
        .flat_map(|c| c.manifold.points().to_vec())
        .map(|p| f64::from(p.normal_impulse) * f64::from(SUBSTEPS) / f64::from(DT))
        .sum()
}

const HALF: Vec2 = Vec2::new(0.5, 0.2);
const BOX_MASS: f32 = 5.0;

/// A static ground and a 1 m × 0.4 m, 5 kg box resting on it.
fn ground_and_box(world: &mut World) -> (BodyId, BodyId) {
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -0.5)))
        .unwrap();
    world
        .create_polygon_shape(ground, &ShapeDef::default(), &make_box(5.0, 0.5).unwrap())
        .unwrap();
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, HALF.y)))
        .unwrap();
    let density = BOX_MASS / (4.0 * HALF.x * HALF.y);
    let shape = ShapeDef {
        density,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(body, &shape, &make_box(HALF.x, HALF.y).unwrap())
        .unwrap();
    (ground, body)
}

/// Mean ground force under the box over the last second of `seconds`, with or without a
/// 16 × 16 cloth (2 cm squares, 2 g particles) dropped on it from 30 cm above; and the
/// system, for inspection.
fn box_on_ground(
    world: &mut World,
    cloth: bool,
    seconds: f32,
) -> (f64, Option<ParticleSystemId>, BodyId) {
    let (ground, body) = ground_and_box(world);
    let system = cloth.then(|| {
        let system = world
            .create_particle_system(&SystemDef {
                drag: 0.002,
                cg: CgSettings {
                    max_iterations: 500,
                    tolerance: 1.0e-6,
                },
                ..system_def(Integrator::SymplecticEuler)
            })
            .unwrap();
        let def = ClothDef {
            origin: Vec2::new(-0.15, 0.7),
            columns: 16,
            rows: 16,
            spacing: 0.02,
            particle_mass: 0.002,
            shear: Link::Spring {
                stiffness: 0.5,
                damping: 0.05,
            },
            bend: Link::Spring {
                stiffness: 0.25,
                damping: 0.02,
            },
            ..ClothDef::default()
        };
        world.create_cloth(system, &def).unwrap();
        system
    });
    let window = steps(1.0);
    let mut force = 0.0;
    for step in 0..steps(seconds) {
        world.step(DT, SUBSTEPS).unwrap();
        if step + window >= steps(seconds) {
            force += contact_force(world, body, ground);
        }
    }
    (force / window as f64, system, body)
}

#[test]
fn cloth_dropped_on_a_box_rests_on_it_and_its_weight_reaches_the_ground() {
    let mut bare = world(1);
    let (without, _, _) = box_on_ground(&mut bare, false, 5.0);
    let mut world = world(1);
    let (with, system, body) = box_on_ground(&mut world, true, 5.0);
    let system = system.unwrap();
    let cloth_weight = 256.0 * 0.002 * f64::from(G);
    let transform = world.transform(body).unwrap();
    let inside = world
        .particle_positions(system)
        .unwrap()
        .iter()
        .filter(|&&p| {
            let local = transform.inv_apply(p);
            local.x.abs() < HALF.x && local.y.abs() < HALF.y
        })
        .count();
    let top = transform.p.y + HALF.y;
    let lowest = world
        .particle_positions(system)
        .unwrap()
        .iter()
        .filter(|p| p.x.abs() < HALF.x)
        .map(|p| p.y - top)
        .fold(f32::MAX, f32::min);
    let fastest = world
        .particle_velocities(system)
        .unwrap()
        .iter()
        .map(|v| v.length())
        .fold(0.0, f32::max);
    let growth = with - without;
    println!(
        "cloth on a box: ground force {with:.4} N with the cloth, {without:.4} N without \
         (growth {growth:.4} N, cloth weight {cloth_weight:.4} N, {:+.2}%), lowest particle \
         {:.2} mm over the box top (radius 10 mm), {inside} particles inside, fastest \
         {fastest:.1e} m/s, {} contacts",
        100.0 * (growth - cloth_weight) / cloth_weight,
        1000.0 * lowest,
        world.profile().particle_figures.contacts
    );
    assert_eq!(inside, 0, "no particle centre inside the box");
    assert!(lowest > 0.0);
    assert!(fastest < 0.01, "the cloth is at rest");
    assert!((without - f64::from(BOX_MASS * G)).abs() < 0.01 * f64::from(BOX_MASS * G));
    assert!((growth - cloth_weight).abs() < 0.02 * cloth_weight);
}

#[test]
fn particle_pinned_to_a_moving_body_follows_it_and_pulls_on_a_dynamic_one() {
    let mut world = world(1);
    let system = world
        .create_particle_system(&system_def(Integrator::SymplecticEuler))
        .unwrap();
    let mover = world
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            linear_velocity: Vec2::new(1.0, 0.0),
            angular_velocity: 1.0,
            ..BodyDef::default()
        })
        .unwrap();
    let local = Vec2::new(0.5, 0.0);
    let particle = world
        .create_particle(system, &ParticleDef::new(local, 0.1))
        .unwrap();
    let anchor = world.create_body_anchor(system, mover, local).unwrap();
    world
        .create_particle_constraint(system, &ConstraintDef::PinToAnchor { particle, anchor })
        .unwrap();
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let target = world.transform(mover).unwrap().apply(local);
    let at = world.particle_position(system, particle).unwrap();
    println!(
        "pinned to a spinning kinematic body: {:.2e} m off its point",
        (at - target).length()
    );
    assert!((at - target).length() < 1.0e-3);

    // A 1 kg particle hanging by a rod from a free 1 kg disc: the disc falls with it, and
    // the pair's centre of mass accelerates at g (the rod's pull is internal).
    let disc = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(10.0, 0.0)))
        .unwrap();
    let circle = prism::Circle {
        center: Vec2::ZERO,
        radius: 0.1,
    };
    let density = 1.0 / (std::f32::consts::PI * 0.01);
    world
        .create_circle_shape(
            disc,
            &ShapeDef {
                density,
                ..ShapeDef::default()
            },
            &circle,
        )
        .unwrap();
    let weight = world
        .create_particle(system, &ParticleDef::new(Vec2::new(10.0, -0.5), 1.0))
        .unwrap();
    let hook = world
        .create_body_anchor(system, disc, Vec2::new(0.0, -0.1))
        .unwrap();
    world
        .create_spring(
            system,
            &prism::particles::SpringDef {
                a: weight,
                b: prism::particles::SpringEnd::Anchor(hook),
                rest_length: 0.4,
                stiffness: 200.0,
                damping: 2.0,
            },
        )
        .unwrap();
    let seconds = 0.5;
    for _ in 0..steps(seconds) {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let centre = 0.5
        * (world.position(disc).unwrap().y + world.particle_position(system, weight).unwrap().y);
    let fall = -0.25 - centre;
    let expected = 0.5 * G * seconds * seconds;
    println!("disc and hanging weight: centre of mass fell {fall:.4} m (½ g t² = {expected:.4} m)");
    assert!((fall - expected).abs() < 0.03 * expected);
}

#[test]
fn particles_rest_on_every_shape_kind() {
    let mut world = world(1);
    let radius = 0.02;
    let system = world
        .create_particle_system(&SystemDef {
            particle_radius: radius,
            ..system_def(Integrator::SymplecticEuler)
        })
        .unwrap();
    let def = ShapeDef::default();
    // Each shape on a static body at (x, 0), with the height of its top above the body.
    let mut tops = Vec::new();
    let place = |world: &mut World, x: f32| {
        world
            .create_body(&BodyDef::fixed_at(Vec2::new(x, 0.0)))
            .unwrap()
    };
    let body = place(&mut world, 0.0);
    let circle = prism::Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    world.create_circle_shape(body, &def, &circle).unwrap();
    tops.push((0.0, 0.5, "circle"));
    let body = place(&mut world, 10.0);
    let capsule = prism::Capsule {
        center1: Vec2::new(-0.5, 0.0),
        center2: Vec2::new(0.5, 0.0),
        radius: 0.25,
    };
    world.create_capsule_shape(body, &def, &capsule).unwrap();
    tops.push((10.0, 0.25, "capsule"));
    let body = place(&mut world, 20.0);
    let rounded = prism::make_rounded_box(0.5, 0.25, 0.1).unwrap();
    world.create_polygon_shape(body, &def, &rounded).unwrap();
    tops.push((20.0, 0.35, "rounded box"));
    let body = place(&mut world, 30.0);
    let segment = prism::Segment {
        point1: Vec2::new(-1.0, 0.0),
        point2: Vec2::new(1.0, 0.0),
    };
    world.create_segment_shape(body, &def, &segment).unwrap();
    tops.push((30.0, 0.0, "segment"));
    let particles: Vec<ParticleId> = tops
        .iter()
        .map(|&(x, top, _)| {
            let def = ParticleDef::new(Vec2::new(x, top + 0.3), 0.01);
            world.create_particle(system, &def).unwrap()
        })
        .collect();
    for _ in 0..steps(2.0) {
        world.step(DT, SUBSTEPS).unwrap();
    }
    for (&particle, &(x, top, name)) in particles.iter().zip(&tops) {
        let at = world.particle_position(system, particle).unwrap();
        let speed = world.particle_velocity(system, particle).unwrap().length();
        let gap = at.y - top - radius;
        println!(
            "particle on a {name}: {:.2} mm from touching, {speed:.1e} m/s",
            1000.0 * gap
        );
        assert!(gap.abs() < 2.0e-3, "{name}: gap {gap}");
        assert!(
            (at.x - x).abs() < 1.0e-3 && speed < 1.0e-2,
            "{name}: at rest on the top"
        );
    }
}

/// Every particle's position and velocity and the bodies' poses as bits.
fn fingerprint(world: &World, system: ParticleSystemId, bodies: &[BodyId]) -> Vec<u32> {
    let mut bits = Vec::new();
    for v in world
        .particle_positions(system)
        .unwrap()
        .iter()
        .chain(world.particle_velocities(system).unwrap())
    {
        bits.extend([v.x.to_bits(), v.y.to_bits()]);
    }
    for &body in bodies {
        let xf = world.transform(body).unwrap();
        bits.extend([
            xf.p.x.to_bits(),
            xf.p.y.to_bits(),
            xf.q.s.to_bits(),
            xf.q.c.to_bits(),
        ]);
    }
    bits
}

/// A 72 × 72 cloth (over the particles crate's parallel threshold) falling on the box, for
/// `count` steps with `solver` on `workers` workers.
fn cloth_run(workers: u32, solver: ConstraintSolver, count: usize) -> Vec<u32> {
    let mut world = world(workers);
    let (ground, body) = ground_and_box(&mut world);
    let system = world
        .create_particle_system(&SystemDef {
            solver,
            cg: CgSettings {
                max_iterations: 40,
                tolerance: 1.0e-6,
            },
            ..system_def(Integrator::SymplecticEuler)
        })
        .unwrap();
    let def = ClothDef {
        origin: Vec2::new(-0.6, 0.6),
        columns: 72,
        rows: 72,
        spacing: 0.02,
        velocity: Vec2::new(0.0, -2.0),
        ..ClothDef::default()
    };
    let cloth = world.create_cloth(system, &def).unwrap();
    world
        .pin_cloth_to_body(system, &cloth, 71, 0, body, Vec2::new(0.5, 0.2))
        .unwrap();
    for _ in 0..count {
        world.step(DT, SUBSTEPS).unwrap();
    }
    assert!(
        world.profile().particle_figures.contacts > 0,
        "the cloth reached the box"
    );
    fingerprint(&world, system, &[ground, body])
}

#[test]
fn particles_are_bitwise_identical_for_1_2_and_4_workers() {
    for (solver, count) in [(ConstraintSolver::Global, 30), (ConstraintSolver::Pgs, 30)] {
        let one = cloth_run(1, solver, count);
        for workers in [2, 4] {
            assert!(
                one == cloth_run(workers, solver, count),
                "{solver:?}: {workers} workers differ from 1"
            );
        }
    }
}

#[test]
fn bad_particle_input_is_refused_and_changes_nothing() {
    let mut world = world(1);
    let bad = SystemDef {
        particle_radius: -1.0,
        ..SystemDef::default()
    };
    assert_eq!(
        world.create_particle_system(&bad),
        Err(PrismError::OutOfRange {
            field: "SystemDef::particle_radius",
            value: -1.0,
            requirement: "greater than 0",
        })
    );
    let system = world.create_particle_system(&SystemDef::default()).unwrap();
    let nan = ParticleDef::new(Vec2::new(f32::NAN, 0.0), 1.0);
    assert!(matches!(
        world.create_particle(system, &nan),
        Err(PrismError::NonFinite {
            field: "ParticleDef::position",
            ..
        })
    ));
    let a = world
        .create_particle(system, &ParticleDef::new(Vec2::ZERO, 1.0))
        .unwrap();
    let same = ConstraintDef::Rod {
        a,
        b: a,
        length: 1.0,
    };
    assert!(matches!(
        world.create_particle_constraint(system, &same),
        Err(PrismError::Particles(ParticleError::InvalidConstraint {
            field: "ConstraintDef::Rod::b",
            ..
        }))
    ));
    world.destroy_particle(system, a).unwrap();
    assert!(matches!(
        world.set_particle_velocity(system, a, Vec2::X),
        Err(PrismError::Particles(ParticleError::InvalidId {
            kind: ParticleIdKind::Particle,
            ..
        }))
    ));
    // A cloth whose far corner overflows, and cells outside a cloth: nothing is created.
    let huge = ClothDef {
        spacing: 1.0e38,
        ..ClothDef::default()
    };
    assert!(matches!(
        world.create_cloth(system, &huge),
        Err(PrismError::NonFinite {
            field: "ClothDef::spacing",
            ..
        })
    ));
    assert_eq!(world.particle_system(system).unwrap().particle_count(), 0);
    let cloth = world.create_cloth(system, &ClothDef::default()).unwrap();
    let body = world.create_body(&BodyDef::default()).unwrap();
    let constraints = world.particle_system(system).unwrap().constraint_count();
    assert_eq!(
        world.pin_cloth_to_body(system, &cloth, 16, 0, body, Vec2::ZERO),
        Err(PrismError::InvalidCount {
            field: "column",
            value: 16,
            requirement: "less than the cloth's columns",
        })
    );
    world.destroy_body(body).unwrap();
    assert!(matches!(
        world.create_body_anchor(system, body, Vec2::ZERO),
        Err(PrismError::InvalidId {
            kind: IdKind::Body,
            ..
        })
    ));
    assert!(matches!(
        world.create_body_anchor(system, BodyId::NULL, Vec2::new(f32::INFINITY, 0.0)),
        Err(PrismError::NonFinite {
            field: "local_point",
            ..
        })
    ));
    assert_eq!(
        world.particle_system(system).unwrap().constraint_count(),
        constraints
    );
    let anchor = world
        .create_particle_anchor(system, AnchorState::at(Vec2::ZERO))
        .unwrap();
    assert!(matches!(
        world.set_particle_anchor(system, anchor, AnchorState::at(Vec2::new(0.0, f32::NAN))),
        Err(PrismError::NonFinite {
            field: "AnchorState::position",
            ..
        })
    ));
    // A destroyed system's id is stale.
    world.destroy_particle_system(system).unwrap();
    let stale = Err(PrismError::InvalidId {
        kind: IdKind::ParticleSystem,
        index: system.index(),
        generation: system.generation(),
    });
    assert_eq!(
        world.particle_positions(system).map(|p| p.len()),
        stale.clone()
    );
    assert_eq!(
        world
            .create_particle(system, &ParticleDef::default())
            .map(|_| 0usize),
        stale
    );
    assert_eq!(world.particle_systems().count(), 0);
    // The world still steps.
    world.step(DT, SUBSTEPS).unwrap();
}
