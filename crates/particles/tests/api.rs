//! The public API: errors name the field and value and change nothing, ids go stale, destroying
//! a particle takes its links with it, user constraints and force fields act as documented, and
//! a diverging step puts everything back.

use particles::{
    AnchorState, BeadDef, ClothDef, ConstraintDef, Curve, CustomConstraint, CustomRow, ForceField,
    IdKind, Integrator, NoCollider, ParticleDef, ParticleError, ParticleSystem, SpringDef,
    SpringEnd, SystemDef, Vec2,
};
use std::sync::Arc;

fn system() -> ParticleSystem {
    ParticleSystem::new(SystemDef::default()).unwrap()
}

#[test]
fn bad_input_is_named_and_changes_nothing() {
    let mut s = system();
    let a = s
        .create_particle(&ParticleDef::new(Vec2::ZERO, 1.0))
        .unwrap();
    assert!(matches!(
        s.create_particle(&ParticleDef {
            position: Vec2::new(f32::NAN, 0.0),
            ..ParticleDef::default()
        }),
        Err(ParticleError::NonFinite {
            field: "ParticleDef::position",
            value,
        }) if value.is_nan()
    ));
    assert!(matches!(
        s.create_particle(&ParticleDef {
            inverse_mass: -1.0,
            ..ParticleDef::default()
        }),
        Err(ParticleError::OutOfRange {
            field: "ParticleDef::inverse_mass",
            value: -1.0,
            ..
        })
    ));
    assert_eq!(s.particle_count(), 1);
    assert!(matches!(
        s.create_constraint(&ConstraintDef::Rod {
            a,
            b: a,
            length: 1.0
        }),
        Err(ParticleError::InvalidConstraint {
            field: "ConstraintDef::Rod::b",
            ..
        })
    ));
    assert!(matches!(
        s.create_constraint(&ConstraintDef::Circle {
            particle: a,
            center: Vec2::ZERO,
            radius: 0.0
        }),
        Err(ParticleError::OutOfRange {
            field: "ConstraintDef::Circle::radius",
            ..
        })
    ));
    assert!(matches!(
        s.create_spring(&SpringDef {
            a,
            b: SpringEnd::Particle(a),
            rest_length: 1.0,
            stiffness: 1.0,
            damping: 0.0
        }),
        Err(ParticleError::InvalidConstraint {
            field: "SpringDef::b",
            ..
        })
    ));
    assert!(matches!(
        s.step(-1.0, &mut NoCollider),
        Err(ParticleError::OutOfRange {
            field: "dt",
            value: -1.0,
            ..
        })
    ));
    assert!(matches!(
        s.create_anchor(AnchorState::at(Vec2::new(0.0, f32::INFINITY))),
        Err(ParticleError::NonFinite {
            field: "AnchorState::position",
            ..
        })
    ));
    assert!(matches!(
        particles::Cloth::create(
            &mut s,
            &ClothDef {
                columns: 1,
                ..ClothDef::default()
            }
        ),
        Err(ParticleError::InvalidCount {
            field: "ClothDef::columns",
            value: 1,
            ..
        })
    ));
    assert_eq!(s.particle_count(), 1);
    assert_eq!(s.constraint_count(), 0);
    assert_eq!(s.spring_count(), 0);
    let message = s.step(f32::NAN, &mut NoCollider).unwrap_err().to_string();
    assert!(message.contains("`dt`"), "{message}");
}

#[test]
fn stale_ids_are_rejected_and_destroying_a_particle_removes_its_links() {
    let mut s = system();
    let a = s
        .create_particle(&ParticleDef::new(Vec2::ZERO, 1.0))
        .unwrap();
    let b = s
        .create_particle(&ParticleDef::new(Vec2::new(1.0, 0.0), 1.0))
        .unwrap();
    let c = s
        .create_particle(&ParticleDef::new(Vec2::new(2.0, 0.0), 1.0))
        .unwrap();
    s.create_constraint(&ConstraintDef::Rod { a, b, length: 1.0 })
        .unwrap();
    let kept = s
        .create_constraint(&ConstraintDef::Rod {
            a: b,
            b: c,
            length: 1.0,
        })
        .unwrap();
    s.create_spring(&SpringDef {
        a,
        b: SpringEnd::Particle(c),
        rest_length: 2.0,
        stiffness: 1.0,
        damping: 0.0,
    })
    .unwrap();
    s.destroy_particle(a).unwrap();
    assert_eq!(
        (s.particle_count(), s.constraint_count(), s.spring_count()),
        (2, 1, 0)
    );
    assert_eq!(
        s.position(a),
        Err(ParticleError::InvalidId {
            kind: IdKind::Particle,
            index: a.index(),
            generation: a.generation()
        })
    );
    assert!(
        s.destroy_particle(a)
            .unwrap_err()
            .to_string()
            .contains("particle")
    );
    // The survivors kept their ids and positions through the swap-remove.
    assert_eq!(s.position(b).unwrap(), Vec2::new(1.0, 0.0));
    assert_eq!(s.position(c).unwrap(), Vec2::new(2.0, 0.0));
    // A new particle reuses the slot with a new generation; the old id stays stale.
    let d = s
        .create_particle(&ParticleDef::new(Vec2::ONE, 1.0))
        .unwrap();
    assert_eq!(d.index(), a.index());
    assert!(s.position(a).is_err() && s.position(d).is_ok());
    s.destroy_constraint(kept).unwrap();
    assert!(matches!(
        s.destroy_constraint(kept),
        Err(ParticleError::InvalidId {
            kind: IdKind::Constraint,
            ..
        })
    ));
    // Destroying an anchor takes its pins and springs.
    let anchor = s.create_anchor(AnchorState::at(Vec2::ZERO)).unwrap();
    s.create_constraint(&ConstraintDef::PinToAnchor {
        particle: b,
        anchor,
    })
    .unwrap();
    s.create_spring(&SpringDef {
        a: c,
        b: SpringEnd::Anchor(anchor),
        rest_length: 1.0,
        stiffness: 1.0,
        damping: 0.0,
    })
    .unwrap();
    s.destroy_anchor(anchor).unwrap();
    assert_eq!((s.constraint_count(), s.spring_count()), (0, 0));
    assert!(s.anchor(anchor).is_err());
}

#[test]
fn beads_take_no_implicit_constraints_and_move_only_along_their_curve() {
    let mut s = system();
    let bead = s
        .create_bead(&BeadDef {
            curve: Curve::Line {
                origin: Vec2::ZERO,
                direction: Vec2::new(3.0, 4.0),
            },
            coordinate: 0.0,
            rate: 0.0,
            inverse_mass: 1.0,
        })
        .unwrap();
    assert!(matches!(
        s.create_constraint(&ConstraintDef::Pin {
            particle: bead,
            point: Vec2::ZERO
        }),
        Err(ParticleError::InvalidConstraint {
            field: "particle",
            ..
        })
    ));
    assert!(s.set_position(bead, Vec2::ONE).is_err());
    // An impulse across the line does nothing; along it, `u̇ += w d·p`.
    s.apply_impulse(bead, Vec2::new(4.0, -3.0)).unwrap();
    assert!(s.bead_coordinate(bead).unwrap().1.abs() < 1e-6);
    s.apply_impulse(bead, Vec2::new(3.0, 4.0)).unwrap();
    assert!((s.bead_coordinate(bead).unwrap().1 - 5.0).abs() < 1e-6);
}

/// Witkin's quadratic circle `C = ½(x·x − 1)`, `J = x`, `J̇ = v`, as a user constraint.
struct QuadraticCircle;

impl CustomConstraint for QuadraticCircle {
    fn evaluate(&self, x: &[Vec2], v: &[Vec2]) -> CustomRow {
        CustomRow {
            value: 0.5 * (x[0].dot(x[0]) - 1.0),
            jacobian: [x[0], Vec2::ZERO],
            jacobian_dot: [v[0], Vec2::ZERO],
        }
    }
}

#[test]
fn a_user_constraint_holds_a_bead_like_the_built_in_circle() {
    let run = |custom: bool| {
        let mut s = ParticleSystem::new(SystemDef {
            integrator: Integrator::Rk4,
            gravity: Vec2::new(0.0, -9.81),
            ..SystemDef::default()
        })
        .unwrap();
        let p = s
            .create_particle(&ParticleDef::new(Vec2::new(1.0, 0.0), 1.0))
            .unwrap();
        if custom {
            s.create_custom_constraint(&[p], Arc::new(QuadraticCircle))
                .unwrap();
        } else {
            s.create_constraint(&ConstraintDef::Circle {
                particle: p,
                center: Vec2::ZERO,
                radius: 1.0,
            })
            .unwrap();
        }
        let mut drift = 0.0f32;
        for _ in 0..300 {
            s.step(1.0 / 60.0, &mut NoCollider).unwrap();
            drift = drift.max((s.position(p).unwrap().length() - 1.0).abs());
        }
        (s.position(p).unwrap(), drift)
    };
    let (custom, custom_drift) = run(true);
    let (builtin, builtin_drift) = run(false);
    println!(
        "after 5 s: user constraint at {custom:?} (drift {custom_drift:.1e}), built-in at \
         {builtin:?} (drift {builtin_drift:.1e})"
    );
    assert!(custom_drift < 1e-3);
    assert!((custom - builtin).length() < 0.01);
    let mut s = system();
    let p = s.create_particle(&ParticleDef::default()).unwrap();
    assert!(matches!(
        s.create_custom_constraint(&[p, p], Arc::new(QuadraticCircle)),
        Err(ParticleError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        s.create_custom_constraint(&[], Arc::new(QuadraticCircle)),
        Err(ParticleError::InvalidCount { value: 0, .. })
    ));
}

/// A uniform wind: a constant force on every particle.
struct Wind(Vec2);

impl ForceField for Wind {
    fn force(&self, _: Vec2, _: Vec2, _: f32) -> Vec2 {
        self.0
    }
}

#[test]
fn force_fields_and_user_forces_accelerate_particles() {
    let mut s = ParticleSystem::new(SystemDef {
        gravity: Vec2::ZERO,
        ..SystemDef::default()
    })
    .unwrap();
    let p = s
        .create_particle(&ParticleDef::new(Vec2::ZERO, 2.0))
        .unwrap();
    let wind = s.add_force_field(Box::new(Wind(Vec2::new(4.0, 0.0))));
    for _ in 0..60 {
        s.step(1.0 / 60.0, &mut NoCollider).unwrap();
    }
    // a = F/m = 2 m/s² for one second.
    assert!((s.velocity(p).unwrap() - Vec2::new(2.0, 0.0)).length() < 1e-5);
    s.remove_force_field(wind).unwrap();
    assert!(s.remove_force_field(wind).is_err());
    // A force applied once acts for one step only.
    s.apply_force(p, Vec2::new(0.0, 120.0)).unwrap();
    s.step(1.0 / 60.0, &mut NoCollider).unwrap();
    s.step(1.0 / 60.0, &mut NoCollider).unwrap();
    assert!((s.velocity(p).unwrap() - Vec2::new(2.0, 1.0)).length() < 1e-5);
}

/// A field that blows up at one point.
struct Singular;

impl ForceField for Singular {
    fn force(&self, x: Vec2, _: Vec2, _: f32) -> Vec2 {
        Vec2::new(1.0 / x.x, 0.0)
    }
}

#[test]
fn a_diverging_step_is_reported_and_rolled_back() {
    let mut s = system();
    let fine = s
        .create_particle(&ParticleDef::new(Vec2::new(1.0, 0.0), 1.0))
        .unwrap();
    let doomed = s
        .create_particle(&ParticleDef::new(Vec2::ZERO, 1.0))
        .unwrap();
    s.add_force_field(Box::new(Singular));
    let before = (s.positions().to_vec(), s.velocities().to_vec());
    match s.step(1.0 / 60.0, &mut NoCollider) {
        Err(ParticleError::Diverged { particles }) => assert_eq!(particles, vec![doomed]),
        other => panic!("expected divergence, got {other:?}"),
    }
    assert_eq!(before, (s.positions().to_vec(), s.velocities().to_vec()));
    assert!(s.position(fine).is_ok());
}

#[test]
fn a_system_can_be_moved_to_and_shared_between_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<ParticleSystem>();
    send_and_sync::<particles::test_collider::TestCollider>();
}
