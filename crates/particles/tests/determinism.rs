//! Determinism: the same scene gives bitwise the same particles for 1, 2, 3 and 4 threads.
//!
//! Each scene is built and stepped on each number of workers (`workers::Workers::install`), and
//! after every step the raw bits of every particle's position and velocity (and of the dynamic box)
//! are hashed. The scenes are large enough (4096 particles, over 8000 constraint rows, tens of
//! thousands of springs) that every parallel pass — forces, row evaluation, the CG products and dot
//! products, the implicit spring solve, the PGS colours and contacts, the contact queries — splits
//! its work across the workers, so a reduction whose order followed the thread count, or a race
//! between two writers, would show up as a differing hash at the step where it happened.

use particles::scenes::{ClothSceneDef, cloth_scene};
use particles::{CgSettings, ConstraintSolver, Integrator, SystemDef};

const THREADS: [usize; 4] = [1, 2, 3, 4];
const DT: f32 = 1.0 / 60.0;

/// FNV-1a over the bits of every particle's state and the box's.
fn hash(scene: &particles::scenes::ClothScene) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |value: f32| {
        for byte in value.to_bits().to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    let system = &scene.system;
    for (x, v) in system.positions().iter().zip(system.velocities()) {
        [x.x, x.y, v.x, v.y].into_iter().for_each(&mut eat);
    }
    let body = scene.collider.dynamic_box(scene.box_body).unwrap();
    [
        body.center.x,
        body.center.y,
        body.angle,
        body.velocity.x,
        body.velocity.y,
    ]
    .into_iter()
    .for_each(&mut eat);
    hash
}

/// The hashes after each of `steps` steps, computed on `threads` workers.
fn history(def: &ClothSceneDef, steps: usize, threads: usize) -> Vec<u64> {
    let workers = workers::Workers::new(threads).unwrap();
    workers.install(|| {
        let mut scene = cloth_scene(def).unwrap();
        (0..steps)
            .map(|_| {
                scene.step(DT).unwrap();
                hash(&scene)
            })
            .collect()
    })
}

fn assert_identical(name: &str, def: &ClothSceneDef, steps: usize) {
    let reference = history(def, steps, THREADS[0]);
    for &threads in &THREADS[1..] {
        let other = history(def, steps, threads);
        for (step, (a, b)) in reference.iter().zip(&other).enumerate() {
            assert_eq!(
                a, b,
                "{name}: step {step} differs between 1 and {threads} threads"
            );
        }
    }
    let distinct = {
        let mut sorted = reference.clone();
        sorted.sort_unstable();
        sorted.dedup();
        sorted.len()
    };
    println!("{name}: {steps} steps identical for 1–4 threads ({distinct} distinct states)");
    assert_eq!(distinct, steps, "the scene moves every step");
}

/// A 64 × 64 cloth (4096 particles) falling onto the box and circles, one substep.
fn scene(system: SystemDef) -> ClothSceneDef {
    let base = ClothSceneDef::default();
    ClothSceneDef {
        size: 64,
        system: SystemDef {
            substeps: 1,
            cg: CgSettings {
                max_iterations: 30,
                tolerance: 1.0e-6,
            },
            ..system
        },
        ..base
    }
}

#[test]
fn cloth_scene_is_bitwise_identical_for_1_to_4_threads() {
    let base = ClothSceneDef::default().system;
    assert_identical("implicit Euler, global CG", &scene(base), 40);
    assert_identical(
        "implicit Euler, PGS",
        &scene(SystemDef {
            solver: ConstraintSolver::Pgs,
            ..base
        }),
        40,
    );
    // Explicit springs need them soft; symplectic Euler with the global solve, and RK4 (the
    // acceleration form, four solves per substep) with the substeps it needs for this net.
    let soft = |integrator| ClothSceneDef {
        shear_stiffness: 2.0,
        ..scene(SystemDef { integrator, ..base })
    };
    assert_identical(
        "symplectic Euler, global CG",
        &soft(Integrator::SymplecticEuler),
        40,
    );
    let rk4 = soft(Integrator::Rk4);
    let rk4 = ClothSceneDef {
        system: SystemDef {
            substeps: 4,
            ..rk4.system
        },
        ..rk4
    };
    assert_identical("RK4, global CG, 4 substeps", &rk4, 10);
}
