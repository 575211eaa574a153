//! The wide kernels against the scalar kernels, bit for bit, on random contacts.

// Unsafe code is confined here: the tests drive `SharedBodies` directly; every block has its `//
// SAFETY:` argument.
#![allow(unsafe_code)]

use super::*;
use crate::SolverContact;
use crate::contact_constraint::{prepare_contact, prepare_contacts};
use crate::contact_solver::{
    NormalBias, apply_restitution, solve_contacts, store_impulses, warm_start_contacts,
};
use crate::gather_scatter::SharedBodies;
use crate::integrate::integrate_positions;
use crate::test_rng::Rng;
use collision::{Manifold, ManifoldPoint};
use core_soa::{SharedSlice, body_flags};

/// `count` random bodies: mostly dynamic, some kinematic, moving and displaced.
fn random_states(rng: &mut Rng, count: usize) -> Vec<BodyState> {
    (0..count)
        .map(|_| BodyState {
            linear_velocity: Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
            angular_velocity: rng.range(-2.0, 2.0),
            flags: if rng.below(8) == 0 {
                body_flags::KINEMATIC
            } else {
                body_flags::DYNAMIC
            },
            delta_position: Vec2::new(rng.range(-0.01, 0.01), rng.range(-0.01, 0.01)),
            delta_rotation: core_soa::Rot::from_angle(rng.range(-0.05, 0.05)),
        })
        .collect()
}

/// One random contact between bodies `a` and `b` (`a` may be `NULL_BODY`).
fn random_contact(rng: &mut Rng, a: u32, b: u32) -> SolverContact {
    let angle = rng.range(0.0, std::f32::consts::TAU);
    let point_count = 1 + rng.below(2) as usize;
    let mut manifold = Manifold {
        normal: Vec2::new(angle.cos(), angle.sin()),
        point_count,
        ..Default::default()
    };
    for point in manifold.points.iter_mut().take(point_count) {
        *point = ManifoldPoint {
            anchor_a: Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)),
            anchor_b: Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)),
            separation: rng.range(-0.05, 0.02),
            normal_impulse: rng.range(0.0, 0.1),
            tangent_impulse: rng.range(-0.03, 0.03),
            ..Default::default()
        };
    }
    // A third of the two-point manifolds are flat — the second point along the tangent from
    // the first, off it along the normal by less than the flatness slope allows — so bundles
    // mix contacts with one friction row and contacts with a row per point.
    if point_count == 2 && rng.below(3) == 0 {
        make_flat(rng, &mut manifold);
    }
    let (inv_mass_a, inv_inertia_a) = if a == NULL_BODY {
        (0.0, 0.0)
    } else {
        (rng.range(0.2, 2.0), rng.range(0.5, 6.0))
    };
    SolverContact {
        body_a: a,
        body_b: b,
        inv_mass_a,
        inv_inertia_a,
        inv_mass_b: rng.range(0.2, 2.0),
        inv_inertia_b: rng.range(0.5, 6.0),
        friction: rng.range(0.0, 1.0),
        restitution: if rng.below(3) == 0 {
            rng.range(0.1, 0.9)
        } else {
            0.0
        },
        manifold,
    }
}

/// Moves the second point of a two-point manifold along the tangent from the first, off it
/// along the normal by less than the flatness slope allows.
fn make_flat(rng: &mut Rng, manifold: &mut Manifold) {
    let n = manifold.normal;
    let d = rng.range(0.1, 0.8) * n.perp() + rng.range(-0.0005, 0.0005) * n;
    let [p1, p2] = &mut manifold.points;
    p2.anchor_a = p1.anchor_a + d;
    p2.anchor_b = p1.anchor_b + d;
}

/// A colour of `count` random contacts over distinct bodies (a quarter against static).
fn random_colour(rng: &mut Rng, count: usize) -> (Vec<BodyState>, Vec<SolverContact>) {
    let states = random_states(rng, 2 * count);
    // Some colours are all flat two-point manifolds (boxes lying on faces).
    let all_flat = rng.below(4) == 0;
    let contacts = (0..count as u32)
        .map(|i| {
            let a = if rng.below(4) == 0 { NULL_BODY } else { 2 * i };
            let mut contact = random_contact(rng, a, 2 * i + 1);
            if all_flat {
                contact.manifold.point_count = 2;
                make_flat(rng, &mut contact.manifold);
            }
            // Fast approach for some, so restitution has work.
            if rng.below(2) == 0 {
                contact.manifold.points[0].normal_impulse = 0.5;
            }
            contact
        })
        .collect();
    (states, contacts)
}

fn softness() -> ContactSoftness {
    ContactSoftness {
        dynamic: crate::Softness::new(30.0, 10.0, 1.0 / 240.0),
        fixed: crate::Softness::new(60.0, 2.0, 1.0 / 240.0),
    }
}

fn state_bits(states: &[BodyState]) -> Vec<u32> {
    bytemuck::cast_slice::<BodyState, u32>(states).to_vec()
}

fn impulse_bits(contacts: &[SolverContact]) -> Vec<[u32; 4]> {
    contacts
        .iter()
        .flat_map(|c| c.manifold.points().to_vec())
        .map(|p| {
            [
                p.normal_impulse.to_bits(),
                p.tangent_impulse.to_bits(),
                p.max_normal_impulse.to_bits(),
                p.normal_velocity.to_bits(),
            ]
        })
        .collect()
}

/// The passes of one run, with the bias of the biased pass as a parameter.
fn run_scalar<B: NormalBias>(
    states: &mut [BodyState],
    contacts: &mut [SolverContact],
    bias: &B,
    rows: ContactRows,
    substeps: usize,
) {
    let mut constraints = vec![ContactConstraint::default(); contacts.len()];
    prepare_contacts(contacts, &mut constraints, states, &softness(), true);
    let relax = RelaxBias { inv_h: 240.0 };
    for _ in 0..substeps {
        warm_start_contacts(&constraints, states);
        solve_contacts(&mut constraints, states, bias, rows);
        integrate_positions(states, 1.0 / 240.0);
        solve_contacts(
            &mut constraints,
            states,
            &relax,
            ContactRows::NormalAndFriction,
        );
    }
    apply_restitution(&mut constraints, states, 1.0);
    store_impulses(&constraints, contacts);
}

fn run_wide<B: NormalBiasW>(
    states: &mut [BodyState],
    contacts: &mut [SolverContact],
    bias: &B,
    rows: ContactRows,
    substeps: usize,
) {
    let mut bundles: Vec<ContactBundle> = contacts
        .chunks(LANES)
        .map(|chunk| prepare_bundle(chunk, states, &softness(), true))
        .collect();
    let relax = RelaxBias { inv_h: 240.0 };
    for _ in 0..substeps {
        warm_start_bundles(&mut bundles, states);
        solve_bundles(&mut bundles, states, bias, rows);
        integrate_positions(states, 1.0 / 240.0);
        solve_bundles(&mut bundles, states, &relax, ContactRows::NormalAndFriction);
    }
    restitution_bundles(&mut bundles, states, 1.0);
    for (bundle, chunk) in bundles.iter().zip(contacts.chunks_mut(LANES)) {
        store_bundle_impulses(bundle, chunk);
    }
}

fn assert_paths_agree<B: NormalBias + NormalBiasW>(bias: &B, rows: ContactRows, seed: u64) {
    let mut rng = Rng(seed);
    // Not a multiple of the lane count, so the last bundle is padded.
    let count = 5 * LANES + LANES.saturating_sub(3).max(1);
    let (states, contacts) = random_colour(&mut rng, count);
    let (mut scalar_states, mut scalar_contacts) = (states.clone(), contacts.clone());
    let (mut wide_states, mut wide_contacts) = (states.clone(), contacts);
    run_scalar(&mut scalar_states, &mut scalar_contacts, bias, rows, 4);
    run_wide(&mut wide_states, &mut wide_contacts, bias, rows, 4);
    assert_eq!(state_bits(&wide_states), state_bits(&scalar_states));
    assert_eq!(impulse_bits(&wide_contacts), impulse_bits(&scalar_contacts));
    // The run did something: bodies moved and some impulses changed.
    assert_ne!(state_bits(&wide_states), state_bits(&states));
}

#[test]
fn wide_kernels_match_scalar_kernels_bit_for_bit() {
    let soft = SoftBias {
        inv_h: 240.0,
        push_max_speed: 3.0,
    };
    for seed in 1..20 {
        assert_paths_agree(&soft, ContactRows::NormalAndFriction, seed);
        assert_paths_agree(&soft, ContactRows::NormalOnly, seed + 100);
    }
}

#[test]
fn random_colours_mix_both_kinds_of_friction_rows() {
    // The bit-for-bit tests above cover every kind of bundle: all contacts with one friction
    // row, none, and (with more than one lane) a mix.
    let mut kinds = [false; 3];
    for seed in 1..20 {
        let (states, contacts) = random_colour(&mut Rng(seed), 5 * LANES);
        for chunk in contacts.chunks(LANES) {
            let bundle = prepare_bundle(chunk, &states, &softness(), true);
            let kind = match bundle.friction_rows {
                FrictionRows::PerPoint => 0,
                FrictionRows::Shared => 1,
                FrictionRows::Mixed(_) => 2,
            };
            kinds[kind] = true;
        }
    }
    assert_eq!(kinds, [true, true, LANES > 1]);
}

#[test]
fn wide_baumgarte_matches_scalar_bit_for_bit() {
    let baumgarte = BaumgarteBias {
        inv_h: 60.0,
        baumgarte: 0.2,
        linear_slop: 0.005,
    };
    for seed in 1..10 {
        assert_paths_agree(&baumgarte, ContactRows::NormalAndFriction, seed);
    }
}

#[test]
fn a_missing_point_never_moves_its_body() {
    // Lane 0 holds a one-point contact next to two-point ones. Whatever its empty second slot
    // holds (here an impulse poked in on purpose), its body must end as the scalar path leaves
    // it, which never looks at that slot.
    let mut rng = Rng(7);
    let (states, mut contacts) = random_colour(&mut rng, LANES);
    for c in &mut contacts {
        c.manifold.point_count = 2;
    }
    contacts[0].manifold.point_count = 1;
    let mut bundles = [prepare_bundle(&contacts, &states, &softness(), true)];
    assert!(bundles[0].slot_lanes[1].is_some());
    let mut poked = bundles[0].points[1].normal_impulse.to_array();
    poked[0] = 1.0;
    bundles[0].points[1].normal_impulse = FloatW::from_array(poked);
    let mut constraints = vec![ContactConstraint::default(); contacts.len()];
    let mut scalar_states = states.clone();
    prepare_contacts(
        &contacts,
        &mut constraints,
        &scalar_states,
        &softness(),
        true,
    );
    let mut wide_states = states.clone();
    let relax = RelaxBias { inv_h: 240.0 };
    warm_start_contacts(&constraints, &mut scalar_states);
    solve_contacts(
        &mut constraints,
        &mut scalar_states,
        &relax,
        ContactRows::NormalAndFriction,
    );
    warm_start_bundles(&mut bundles, &mut wide_states[..]);
    solve_bundles(
        &mut bundles,
        &mut wide_states[..],
        &relax,
        ContactRows::NormalAndFriction,
    );
    assert_eq!(state_bits(&wide_states), state_bits(&scalar_states));
}

#[test]
fn pack_and_lane_round_trip() {
    let mut rng = Rng(3);
    let (states, contacts) = random_colour(&mut rng, LANES);
    let count = LANES.div_ceil(2);
    let bundle = prepare_bundle(&contacts[..count], &states, &softness(), true);
    assert_eq!(bundle.lane_count(), count);
    for (lane, contact) in contacts[..count].iter().enumerate() {
        let expected = prepare_contact(contact, &states, &softness(), true);
        assert_eq!(bundle.lane(lane), expected);
    }
    for lane in count..LANES {
        assert_eq!(
            (bundle.body_a[lane], bundle.body_b[lane]),
            (NULL_BODY, NULL_BODY)
        );
        assert_eq!(bundle.inv_mass_b.lane(lane), 0.0);
    }
}

#[test]
fn shared_bodies_gather_and_scatter_like_the_slice() {
    let mut rng = Rng(11);
    let (states, contacts) = random_colour(&mut rng, 2 * LANES);
    let mut bundles: Vec<ContactBundle> = contacts
        .chunks(LANES)
        .map(|chunk| prepare_bundle(chunk, &states, &softness(), true))
        .collect();
    let mut via_slice = states.clone();
    let mut via_shared = states.clone();
    let mut bundles_copy = bundles.clone();
    let bias = SoftBias {
        inv_h: 240.0,
        push_max_speed: 3.0,
    };
    solve_bundles(
        &mut bundles,
        &mut via_slice[..],
        &bias,
        ContactRows::NormalAndFriction,
    );
    let shared = SharedSlice::new(&mut via_shared);
    // SAFETY: one thread uses the view.
    let mut view = unsafe { SharedBodies::new(&shared) };
    solve_bundles(
        &mut bundles_copy,
        &mut view,
        &bias,
        ContactRows::NormalAndFriction,
    );
    assert_eq!(state_bits(&via_shared), state_bits(&via_slice));
    assert_ne!(state_bits(&via_slice), state_bits(&states));
}

#[test]
fn preparing_in_place_overwrites_every_field() {
    // A full bundle of two-point contacts is prepared again, in place, from a partial bundle
    // with one-point contacts: nothing of the first may survive.
    let mut rng = Rng(11);
    let (states, contacts) = random_colour(&mut rng, 2 * LANES);
    let mut two_point = contacts[..LANES].to_vec();
    for contact in &mut two_point {
        contact.manifold.point_count = 2;
    }
    let mut one_point = contacts[LANES..LANES + LANES.div_ceil(2)].to_vec();
    for contact in &mut one_point {
        contact.manifold.point_count = 1;
    }
    let mut reused = prepare_bundle(&two_point, &states, &softness(), true);
    let records: Vec<&SolverContact> = one_point.iter().collect();
    prepare_bundle_in_place(&mut reused, &records, &states, &softness(), true);
    let fresh = prepare_bundle(&one_point, &states, &softness(), true);
    assert_eq!(reused.lane_count(), fresh.lane_count());
    assert_eq!(reused.point_counts, fresh.point_counts);
    for lane in 0..LANES {
        assert_eq!(reused.lane(lane), fresh.lane(lane), "lane {lane}");
    }
    let mask_bits = |bundle: &ContactBundle| bundle.slot_lanes.map(|m| m.map(LaneBits::bits));
    assert_eq!(mask_bits(&reused), mask_bits(&fresh));
    assert!(fresh.slot_lanes[1].is_some());
}

#[test]
fn storing_zeroes_non_finite_values_like_the_scalar_store() {
    let mut rng = Rng(17);
    let (states, contacts) = random_colour(&mut rng, LANES);
    let mut bundle = prepare_bundle(&contacts, &states, &softness(), true);
    // One odd value per lane and field: NaN, ±∞, a signed zero, or an ordinary number.
    let odd = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        1.5,
        -2.25,
        3.0e30,
        7.0,
    ];
    let lanes = |shift: usize| FloatW::from_array(core::array::from_fn(|i| odd[(i + shift) % 8]));
    for (slot, point) in bundle.points.iter_mut().enumerate() {
        point.normal_impulse = lanes(slot);
        point.tangent_impulse = lanes(slot + 1);
        point.max_normal_impulse = lanes(slot + 2);
        point.relative_velocity = lanes(slot + 3);
    }
    let (mut wide, mut scalar) = (contacts.clone(), contacts);
    store_bundle_impulses(&bundle, &mut wide);
    let constraints: Vec<ContactConstraint> = (0..LANES).map(|lane| bundle.lane(lane)).collect();
    store_impulses(&constraints, &mut scalar);
    assert_eq!(impulse_bits(&wide), impulse_bits(&scalar));
    let stored = wide.iter().flat_map(|c| c.manifold.points().to_vec());
    for p in stored {
        for value in [p.normal_impulse, p.tangent_impulse, p.max_normal_impulse] {
            assert!(value.is_finite(), "{value} stored");
        }
        assert!(p.normal_velocity.is_finite());
    }
}

#[test]
fn bundle_layout_keeps_each_pass_on_few_cache_lines() {
    use core::mem::{align_of, offset_of, size_of};
    const LINE: usize = 64;
    assert_eq!(align_of::<ContactBundle>(), LINE);
    assert_eq!(offset_of!(ContactBundle, points) % LINE, 0);
    assert_eq!(size_of::<ContactPointW>() % LINE, 0);
    if LANES == 8 {
        // The warm start reads the bundle's first five lines and each point's first three.
        assert!(
            offset_of!(ContactBundle, slot_lanes) + size_of::<[Option<LaneBits>; 2]>() <= 5 * LINE
        );
        assert!(offset_of!(ContactBundle, normal) + size_of::<Vec2W>() <= 5 * LINE);
        assert!(offset_of!(ContactPointW, tangent_impulse) + size_of::<FloatW>() <= 3 * LINE);
        // The restitution inputs sit on lines of their own: each point's last, the bundle's
        // last.
        assert_eq!(offset_of!(ContactPointW, relative_velocity), 6 * LINE);
        assert_eq!(
            offset_of!(ContactBundle, restitution),
            size_of::<ContactBundle>() - LINE
        );
        assert_eq!(size_of::<ContactBundle>(), 22 * LINE);
    }
}
