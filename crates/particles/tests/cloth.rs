//! Cloth: a 32 × 32 net hanging from two corners settles; a stiff cloth survives 60 Hz with the
//! implicit integrator; a cloth dropped on a box rests on it and weighs on it.
//!
//! A net of inextensible rods whose two top corners are pinned exactly one width apart has a
//! straight top edge that cannot sag, which no finite force can hold up (a taut string under a
//! transverse load). The hanging nets are therefore created with slack: squeezed to 85% of
//! their width between the pins and sagging by 10 cm in the middle, as a cloth hung by two
//! corners would be.

use particles::test_collider::{DynamicBox, TestCollider};
use particles::{
    CgSettings, Cloth, ClothDef, ConstraintSolver, Integrator, Link, NoCollider, ParticleSystem,
    PgsSettings, SystemDef, Vec2,
};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

/// A `n × n` net of 3 cm squares and 2 g particles, hung by its top corners with slack.
fn hanging_net(system: &mut ParticleSystem, n: u32, structural: Link) -> Cloth {
    let spacing = 0.03;
    let cloth = Cloth::create(
        system,
        &ClothDef {
            columns: n,
            rows: n,
            spacing,
            particle_mass: 0.002,
            structural,
            shear: Link::Spring {
                stiffness: 0.5,
                damping: 0.005,
            },
            bend: Link::Spring {
                stiffness: 0.25,
                damping: 0.002,
            },
            ..ClothDef::default()
        },
    )
    .unwrap();
    let half = 0.5 * (n - 1) as f32 * spacing;
    for &particle in cloth.particles() {
        let x = system.position(particle).unwrap();
        let u = (x.x - half) / half;
        let squeezed = Vec2::new(half + 0.85 * (x.x - half), x.y - 0.1 * (1.0 - u * u));
        system.set_position(particle, squeezed).unwrap();
    }
    cloth.pin_in_place(system, 0, 0).unwrap();
    cloth.pin_in_place(system, n - 1, 0).unwrap();
    cloth
}

/// Steps `seconds`; returns the fastest particle's speed at the end and the mean CG and
/// implicit iterations per step.
fn settle(system: &mut ParticleSystem, seconds: f32) -> (f32, f64, f64) {
    let steps = (seconds / DT).round() as usize;
    let (mut cg, mut implicit) = (0u64, 0u64);
    for _ in 0..steps {
        system.step(DT, &mut NoCollider).unwrap();
        cg += u64::from(system.profile().cg_iterations);
        implicit += u64::from(system.profile().implicit_iterations);
    }
    let fastest = system
        .velocities()
        .iter()
        .map(|v| v.length())
        .fold(0.0, f32::max);
    (
        fastest,
        cg as f64 / steps as f64,
        implicit as f64 / steps as f64,
    )
}

#[test]
fn net_of_rods_pinned_at_two_corners_settles_with_the_global_solve() {
    let mut system = ParticleSystem::new(SystemDef {
        gravity: Vec2::new(0.0, -G),
        drag: 0.01,
        substeps: 2,
        cg: CgSettings {
            max_iterations: 1000,
            tolerance: 1.0e-6,
        },
        ..SystemDef::default()
    })
    .unwrap();
    let cloth = hanging_net(&mut system, 32, Link::Rod);
    let (fastest, cg, _) = settle(&mut system, 5.0);
    let profile = system.profile();
    println!(
        "32×32 net of rods, global CG, 2 substeps: fastest particle after 5 s {:.2e} m/s, \
         largest rod error {:.1e} m, {cg:.0} CG iterations per step on average \
         ({} rows), last step {:.2} ms",
        fastest, profile.max_constraint_error, profile.constraint_rows, profile.total
    );
    assert!(fastest < 1.0e-3);
    assert!(profile.max_constraint_error < 1.0e-4);
    assert_eq!(cloth.particles().len(), 1024);
}

#[test]
fn geometric_stiffness_lets_a_net_of_rods_settle_in_one_substep() {
    // 16 × 16: at the corners h² T/(m L) ≈ 12, beyond what one velocity-level step resolves.
    let run = |geometric_stiffness| {
        let mut system = ParticleSystem::new(SystemDef {
            gravity: Vec2::new(0.0, -G),
            drag: 0.01,
            geometric_stiffness,
            cg: CgSettings {
                max_iterations: 500,
                tolerance: 1.0e-6,
            },
            ..SystemDef::default()
        })
        .unwrap();
        hanging_net(&mut system, 16, Link::Rod);
        settle(&mut system, 5.0).0
    };
    let (with, without) = (run(true), run(false));
    println!(
        "16×16 net of rods, one substep: fastest particle after 5 s {with:.2e} m/s with \
         geometric stiffness, {without:.2e} m/s without"
    );
    assert!(with < 1.0e-3);
    assert!(without > 10.0 * with);
}

#[test]
fn stiff_spring_cloth_is_stable_at_60_hz_with_implicit_euler_and_not_without() {
    let stiff = Link::Spring {
        stiffness: 500.0,
        damping: 0.2,
    };
    // k h² / m = 500 / 3600 / 0.002 ≈ 69: explicit integration needs h √(k/m) < 2, so 0.4.
    let mut implicit = ParticleSystem::new(SystemDef {
        gravity: Vec2::new(0.0, -G),
        drag: 0.01,
        integrator: Integrator::ImplicitEuler,
        implicit_cg: CgSettings {
            max_iterations: 200,
            tolerance: 1.0e-8,
        },
        ..SystemDef::default()
    })
    .unwrap();
    let cloth = hanging_net(&mut implicit, 32, stiff);
    let (fastest, _, iterations) = settle(&mut implicit, 5.0);
    let springs = cloth.springs().len();
    println!(
        "32×32 stiff spring cloth (k = 500 N/m), implicit Euler at 60 Hz: fastest particle \
         after 5 s {fastest:.2e} m/s, {iterations:.0} CG iterations per step on average \
         ({springs} springs)"
    );
    assert!(fastest < 1.0e-3);

    let mut explicit = ParticleSystem::new(SystemDef {
        gravity: Vec2::new(0.0, -G),
        drag: 0.01,
        ..SystemDef::default()
    })
    .unwrap();
    hanging_net(&mut explicit, 32, stiff);
    let blew_up = (0..60).any(|_| {
        explicit.step(DT, &mut NoCollider).is_err()
            || explicit.velocities().iter().any(|v| v.length() > 100.0)
    });
    println!("the same cloth with symplectic Euler: blew up within 1 s: {blew_up}");
    assert!(blew_up);
}

/// What a drop onto the box measured.
struct Drop {
    /// Mean downward force of the particles on the box over the last second (N).
    force: f64,
    /// Mean support of the ground under the box over the last second (N).
    support: f64,
    /// Deepest particle centre below the box's surface, or its distance above if positive (m).
    clearance: f32,
    fastest: f32,
    cg: f64,
}

const CLOTH_MASS: f32 = 0.002 * 256.0;
const BOX_MASS: f32 = 5.0;

/// A 16 × 16 cloth of 2 cm squares dropped from 30 cm above the 1 m wide, 5 kg box resting on
/// the ground, for `seconds`.
fn drop_on_box(def: SystemDef, structural: Link, shear: f32, seconds: f32) -> Drop {
    let mut system = ParticleSystem::new(def).unwrap();
    Cloth::create(
        &mut system,
        &ClothDef {
            origin: Vec2::new(-0.15, 1.0),
            columns: 16,
            rows: 16,
            spacing: 0.02,
            particle_mass: 0.002,
            structural,
            shear: Link::Spring {
                stiffness: shear,
                damping: 0.05,
            },
            bend: Link::Spring {
                stiffness: 0.5 * shear,
                damping: 0.02,
            },
            ..ClothDef::default()
        },
    )
    .unwrap();
    let mut world = TestCollider::new();
    world.add_ground(0.0);
    let half = Vec2::new(0.5, 0.2);
    let body = world.add_dynamic_box(DynamicBox::new(Vec2::new(0.0, 0.2), half, BOX_MASS));
    let steps = (seconds / DT).round() as usize;
    let window = (1.0 / DT).round() as usize;
    let (mut force, mut support, mut cg) = (0.0f64, 0.0f64, 0u64);
    for step in 0..steps {
        system.step(DT, &mut world).unwrap();
        cg += u64::from(system.profile().cg_iterations);
        let pushed = world.dynamic_box(body).unwrap().particle_impulse;
        world.step_bodies(DT, Vec2::new(0.0, -G));
        if step + window >= steps {
            force -= f64::from(pushed.y / DT);
            support += f64::from(world.dynamic_box(body).unwrap().support_impulse.y / DT);
        }
    }
    let top = world.dynamic_box(body).unwrap().center.y + half.y;
    let clearance = system
        .positions()
        .iter()
        .filter(|x| x.x.abs() < half.x)
        .map(|x| x.y - top)
        .fold(f32::MAX, f32::min);
    let fastest = system
        .velocities()
        .iter()
        .map(|v| v.length())
        .fold(0.0, f32::max);
    Drop {
        force: force / window as f64,
        support: support / window as f64,
        clearance,
        fastest,
        cg: cg as f64 / steps as f64,
    }
}

fn check_drop(name: &str, drop: &Drop) {
    let weight = f64::from(CLOTH_MASS * G);
    let total = f64::from((CLOTH_MASS + BOX_MASS) * G);
    println!(
        "{name}: force on the box {:.4} N (cloth weight {weight:.4} N, {:+.3}%), ground under \
         the box {:.3} N (box + cloth {total:.3} N), lowest particle over the box top {:.2} mm \
         (radius 10 mm), fastest {:.1e} m/s, {:.0} CG iterations per step",
        drop.force,
        100.0 * (drop.force - weight) / weight,
        drop.support,
        1000.0 * drop.clearance,
        drop.fastest,
        drop.cg
    );
    assert!((drop.force - weight).abs() < 0.02 * weight);
    assert!((drop.support - total).abs() < 0.02 * total);
    assert!(drop.clearance > 0.0, "no particle centre inside the box");
}

#[test]
fn cloth_dropped_on_a_box_rests_on_it_and_weighs_on_it() {
    // Rods and soft springs with the global solve: in the plane the net has no stiffness
    // against shearing its squares, so it folds down onto the box top and rests there.
    let rods = drop_on_box(
        SystemDef {
            gravity: Vec2::new(0.0, -G),
            drag: 0.002,
            cg: CgSettings {
                max_iterations: 500,
                tolerance: 1.0e-6,
            },
            ..SystemDef::default()
        },
        Link::Rod,
        0.5,
        5.0,
    );
    check_drop("rods, global CG", &rods);
    // The same with PGS (16 sweeps).
    let pgs = drop_on_box(
        SystemDef {
            gravity: Vec2::new(0.0, -G),
            drag: 0.002,
            solver: ConstraintSolver::Pgs,
            pgs: PgsSettings {
                iterations: 16,
                warm_start: true,
            },
            ..SystemDef::default()
        },
        Link::Rod,
        0.5,
        5.0,
    );
    check_drop("rods, PGS 16 sweeps", &pgs);
    // Stiff springs everywhere with the implicit integrator: the net keeps more of its shape.
    let springs = drop_on_box(
        SystemDef {
            gravity: Vec2::new(0.0, -G),
            drag: 0.002,
            integrator: Integrator::ImplicitEuler,
            ..SystemDef::default()
        },
        Link::Spring {
            stiffness: 200.0,
            damping: 0.2,
        },
        20.0,
        5.0,
    );
    check_drop("stiff springs, implicit Euler", &springs);
}
