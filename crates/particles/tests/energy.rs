//! Energy of a free, undamped spring system: symplectic Euler keeps it, explicit Euler does not.
//!
//! Three 1 kg particles joined by three 1 N/m springs, stretched and spinning, in free space,
//! for 10 s at 240 Hz (60 Hz with 4 substeps). Symplectic Euler conserves a nearby "shadow"
//! energy, so the true energy only oscillates, by about `h ω / 2` of itself (0.4% here);
//! explicit Euler multiplies each mode's energy by `1 + (h ω)²` every step and drifts up.

use particles::{
    Integrator, NoCollider, ParticleDef, ParticleSystem, SpringDef, SpringEnd, SystemDef, Vec2,
};

const DT: f32 = 1.0 / 60.0;

fn triangle(integrator: Integrator) -> ParticleSystem {
    let mut system = ParticleSystem::new(SystemDef {
        gravity: Vec2::ZERO,
        integrator,
        substeps: 4,
        ..SystemDef::default()
    })
    .unwrap();
    // An equilateral triangle of side 1.3 (springs rest at 1), spinning at 1 rad/s about its
    // centre, with one corner also moving outwards.
    let corners: Vec<Vec2> = (0..3)
        .map(|k| {
            let angle = std::f32::consts::TAU * k as f32 / 3.0;
            Vec2::new(angle.cos(), angle.sin()) * (1.3 / 3f32.sqrt())
        })
        .collect();
    let ids: Vec<_> = corners
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let spin = Vec2::new(-c.y, c.x);
            let kick = if k == 0 { c * 0.5 } else { Vec2::ZERO };
            system
                .create_particle(&ParticleDef::new(c, 1.0).with_velocity(spin + kick))
                .unwrap()
        })
        .collect();
    for (a, b) in [(0, 1), (1, 2), (2, 0)] {
        system
            .create_spring(&SpringDef {
                a: ids[a],
                b: SpringEnd::Particle(ids[b]),
                rest_length: 1.0,
                stiffness: 1.0,
                damping: 0.0,
            })
            .unwrap();
    }
    system
}

/// The largest and the final relative energy error over 10 s.
fn energy_drift(integrator: Integrator) -> (f64, f64) {
    let mut system = triangle(integrator);
    let energy = |s: &ParticleSystem| s.kinetic_energy() + s.spring_energy();
    let start = energy(&system);
    let mut worst = 0.0f64;
    let mut last = 0.0;
    for _ in 0..600 {
        system.step(DT, &mut NoCollider).unwrap();
        last = (energy(&system) - start) / start;
        worst = worst.max(last.abs());
    }
    (worst, last)
}

#[test]
fn symplectic_euler_keeps_the_energy_of_a_free_spring_system_and_explicit_euler_drifts() {
    let (symplectic, last) = energy_drift(Integrator::SymplecticEuler);
    let worst = symplectic;
    println!(
        "symplectic Euler: largest energy error over 10 s {:.3}%, at 10 s {:+.3}%",
        100.0 * worst,
        100.0 * last
    );
    assert!(worst < 0.01);

    let (worst, last) = energy_drift(Integrator::ExplicitEuler);
    println!(
        "explicit Euler:   largest energy error over 10 s {:.3}%, at 10 s {:+.3}%",
        100.0 * worst,
        100.0 * last
    );
    assert!(last > 0.03, "explicit Euler gains energy steadily");
    assert!(last > 20.0 * symplectic);

    for integrator in [
        Integrator::Midpoint,
        Integrator::Rk4,
        Integrator::ImplicitEuler,
    ] {
        let (worst, last) = energy_drift(integrator);
        println!(
            "{integrator:?}: largest energy error {:.4}%, at 10 s {:+.4}%",
            100.0 * worst,
            100.0 * last
        );
    }
}
