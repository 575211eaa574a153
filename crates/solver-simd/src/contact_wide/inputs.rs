//! The inputs of a bundle's preparation, lane by lane: the fields of up to [`LANES`] contact
//! records, read from the records into per-field arrays that the preparation then loads as
//! wide values.
//!
//! A full bundle's inputs are read into uninitialised room and used where they are. Starting
//! from zeroes instead costs a fill of the whole struct (776 bytes with eight lanes) per
//! bundle, which the compiler keeps although every byte is then overwritten, and returning the
//! struct by value costs a copy of it; without both, `many_pyramids`' prepare stage went from
//! 0.825 to 0.634 ms/step on one worker and from 0.468 to 0.371 on two
//! (`benches/results/NOTES.md`). Building each field from the records with
//! `core::array::from_fn`, which needs neither, made the stage slower instead.
#![allow(unsafe_code)]

use crate::constraints::ContactRecord;
use crate::contact_constraint::checked_body_index;
use crate::wide::LANES;
use core::mem::MaybeUninit;
use core_soa::{NULL_BODY, Vec2};

/// The fields of up to [`LANES`] contacts, lane by lane (zero in unused lanes).
#[derive(Clone, Copy)]
pub(super) struct LaneInputs {
    pub(super) body_a: [u32; LANES],
    pub(super) body_b: [u32; LANES],
    /// Inverse mass and inertia of A, then of B.
    pub(super) masses: [[f32; LANES]; 4],
    pub(super) normal: [Vec2; LANES],
    pub(super) friction: [f32; LANES],
    pub(super) restitution: [f32; LANES],
    pub(super) point_counts: [u8; LANES],
    pub(super) points: [PointInputs; 2],
}

/// The inputs of one manifold point slot, lane by lane.
#[derive(Clone, Copy, Default)]
pub(super) struct PointInputs {
    pub(super) anchor_a: [Vec2; LANES],
    pub(super) anchor_b: [Vec2; LANES],
    pub(super) separation: [f32; LANES],
    pub(super) normal_impulse: [f32; LANES],
    pub(super) tangent_impulse: [f32; LANES],
}

impl PointInputs {
    const EMPTY: PointInputs = PointInputs {
        anchor_a: [Vec2::ZERO; LANES],
        anchor_b: [Vec2::ZERO; LANES],
        separation: [0.0; LANES],
        normal_impulse: [0.0; LANES],
        tangent_impulse: [0.0; LANES],
    };
}

impl LaneInputs {
    /// No contacts: every lane is padding (zeroes, with no bodies).
    const EMPTY: LaneInputs = LaneInputs {
        body_a: [NULL_BODY; LANES],
        body_b: [NULL_BODY; LANES],
        masses: [[0.0; LANES]; 4],
        normal: [Vec2::ZERO; LANES],
        friction: [0.0; LANES],
        restitution: [0.0; LANES],
        point_counts: [0; LANES],
        points: [PointInputs::EMPTY; 2],
    };

    /// The inputs of `contacts`, at most [`LANES`], read into `room`; lanes past them are
    /// padding ([`LaneInputs::EMPTY`]'s). Body indices outside `body_count` become
    /// [`NULL_BODY`], as in the scalar preparation. The inputs stay in `room`: returned by
    /// value, the struct would be copied once more on the way out.
    #[inline]
    pub(super) fn read<'r, C: ContactRecord>(
        room: &'r mut MaybeUninit<LaneInputs>,
        contacts: &[&C],
        body_count: usize,
    ) -> &'r LaneInputs {
        match contacts.first_chunk::<LANES>() {
            Some(full) => {
                for (lane, record) in full.iter().enumerate() {
                    // SAFETY: `room` is aligned room for a `LaneInputs`, borrowed only here,
                    // and `lane < LANES`.
                    unsafe { write_lane(room.as_mut_ptr(), lane, *record, body_count) };
                }
                // SAFETY: `write_lane` wrote lane `lane` of every field — each array of
                // `LaneInputs` and of its two `PointInputs` has `LANES` elements, one per lane
                // — for every lane in `0..LANES`, so every field is initialised; the struct
                // holds only integers and floats (no invalid bit patterns), and its padding
                // needs no value.
                unsafe { room.assume_init_ref() }
            }
            None => {
                let inputs = room.write(LaneInputs::EMPTY);
                for (lane, record) in contacts.iter().enumerate() {
                    // SAFETY: `inputs` is a live `LaneInputs` borrowed only here, and
                    // `lane < LANES`: the slice is shorter than a full bundle.
                    unsafe { write_lane(inputs, lane, *record, body_count) };
                }
                inputs
            }
        }
    }
}

/// Writes `record`'s fields into lane `lane` of every field of `*inputs`.
///
/// # Safety
///
/// `inputs` must point to aligned, writable room for a `LaneInputs` (initialised or not),
/// not otherwise borrowed, and `lane < LANES`. The writes go through places of `*inputs`,
/// never through references, so the room may be uninitialised.
#[inline(always)]
unsafe fn write_lane<C: ContactRecord>(
    inputs: *mut LaneInputs,
    lane: usize,
    record: &C,
    body_count: usize,
) {
    let contact = record.solver_contact();
    // SAFETY: the caller's contract; each assignment writes one `Copy` element in place.
    unsafe {
        (*inputs).body_a[lane] = checked_body_index(contact.body_a, body_count);
        (*inputs).body_b[lane] = checked_body_index(contact.body_b, body_count);
        (*inputs).masses[0][lane] = contact.inv_mass_a;
        (*inputs).masses[1][lane] = contact.inv_inertia_a;
        (*inputs).masses[2][lane] = contact.inv_mass_b;
        (*inputs).masses[3][lane] = contact.inv_inertia_b;
        (*inputs).normal[lane] = contact.manifold.normal;
        (*inputs).friction[lane] = contact.friction;
        (*inputs).restitution[lane] = contact.restitution;
        (*inputs).point_counts[lane] = contact.manifold.point_count.min(2) as u8;
        for slot in 0..2 {
            let mp = &contact.manifold.points[slot];
            (*inputs).points[slot].anchor_a[lane] = mp.anchor_a;
            (*inputs).points[slot].anchor_b[lane] = mp.anchor_b;
            (*inputs).points[slot].separation[lane] = mp.separation;
            (*inputs).points[slot].normal_impulse[lane] = mp.normal_impulse;
            (*inputs).points[slot].tangent_impulse[lane] = mp.tangent_impulse;
        }
    }
}
