//! Two-way coupling: what particles give to bodies, bodies receive.
//!
//! Without gravity a cloth thrown at a free box must conserve the total momentum of cloth and
//! box (every contact impulse on a particle is handed, opposite, to the box). A weight hanging
//! from an anchor by a pin or a spring hands its weight to the anchor.

use particles::test_collider::{DynamicBox, TestCollider};
use particles::{
    AnchorState, Cloth, ClothDef, ConstraintDef, ConstraintSolver, NoCollider, ParticleDef,
    ParticleSystem, SpringDef, SpringEnd, SystemDef, Vec2,
};

const DT: f32 = 1.0 / 60.0;

fn momentum(system: &ParticleSystem) -> Vec2 {
    system
        .velocities()
        .iter()
        .zip(system.inverse_masses())
        .map(|(v, w)| *v / *w)
        .sum()
}

#[test]
fn cloth_thrown_at_a_free_box_conserves_momentum() {
    for solver in [ConstraintSolver::Global, ConstraintSolver::Pgs] {
        let mut system = ParticleSystem::new(SystemDef {
            gravity: Vec2::ZERO,
            solver,
            ..SystemDef::default()
        })
        .unwrap();
        Cloth::create(
            &mut system,
            &ClothDef {
                origin: Vec2::new(-1.0, 0.3),
                columns: 8,
                rows: 8,
                spacing: 0.04,
                particle_mass: 0.01,
                velocity: Vec2::new(3.0, 0.0),
                ..ClothDef::default()
            },
        )
        .unwrap();
        let mut world = TestCollider::new();
        let body = world.add_dynamic_box(DynamicBox::new(Vec2::ZERO, Vec2::new(0.2, 0.4), 1.0));
        let total = |system: &ParticleSystem, world: &TestCollider| {
            let b = world.dynamic_box(body).unwrap();
            momentum(system) + b.velocity * b.mass
        };
        let start = total(&system, &world);
        let mut worst = 0.0f32;
        for _ in 0..120 {
            system.step(DT, &mut world).unwrap();
            world.step_bodies(DT, Vec2::ZERO);
            worst = worst.max((total(&system, &world) - start).length());
        }
        let b = *world.dynamic_box(body).unwrap();
        println!(
            "{solver:?}: cloth momentum {:?} → {:?}, box momentum {:?}, largest change of the \
             total {worst:.2e} N·s (of {:.3})",
            start,
            momentum(&system),
            b.velocity * b.mass,
            start.length()
        );
        assert!(b.velocity.x > 0.1, "the box was pushed");
        assert!(worst < 1.0e-4 * start.length());
    }
}

#[test]
fn a_weight_hanging_from_an_anchor_hands_its_weight_to_it() {
    let g = 9.81;
    let mut system = ParticleSystem::new(SystemDef {
        gravity: Vec2::new(0.0, -g),
        drag: 0.5,
        ..SystemDef::default()
    })
    .unwrap();
    let by_pin = system.create_anchor(AnchorState::at(Vec2::ZERO)).unwrap();
    let by_spring = system
        .create_anchor(AnchorState::at(Vec2::new(1.0, 0.0)))
        .unwrap();
    let a = system
        .create_particle(&ParticleDef::new(Vec2::new(0.0, 0.0), 2.0))
        .unwrap();
    let b = system
        .create_particle(&ParticleDef::new(Vec2::new(1.0, -0.5), 3.0))
        .unwrap();
    system
        .create_constraint(&ConstraintDef::PinToAnchor {
            particle: a,
            anchor: by_pin,
        })
        .unwrap();
    system
        .create_spring(&SpringDef {
            a: b,
            b: SpringEnd::Anchor(by_spring),
            rest_length: 0.5,
            stiffness: 300.0,
            damping: 5.0,
        })
        .unwrap();
    for _ in 0..600 {
        system.step(DT, &mut NoCollider).unwrap();
    }
    let pin_force = system.anchor_impulse(by_pin).unwrap() / DT;
    let spring_force = system.anchor_impulse(by_spring).unwrap() / DT;
    println!(
        "anchor forces: pin {pin_force:?} (weight {}), spring {spring_force:?} (weight {})",
        2.0 * g,
        3.0 * g
    );
    assert!((pin_force - Vec2::new(0.0, -2.0 * g)).length() < 1e-3 * 2.0 * g);
    assert!((spring_force - Vec2::new(0.0, -3.0 * g)).length() < 1e-3 * 3.0 * g);
    // The spring stretched by m g / k below its rest length.
    let drop = -system.position(b).unwrap().y - 0.5;
    assert!((drop - 3.0 * g / 300.0).abs() < 1e-4, "{drop}");
}
