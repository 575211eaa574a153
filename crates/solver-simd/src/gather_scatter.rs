//! Moving body states between the awake-state array and the lanes of the wide solver.
//!
//! A bundle of [`LANES`] constraints refers to its bodies by index into the awake
//! [`BodyState`] array. Before a wide kernel runs, [`gather`] reads those states and turns them
//! "sideways" into a [`BodyStateW`], one field per wide register, one body per lane; after it,
//! [`scatter`] turns them back and stores them.
//!
//! ```text
//!   states[i0] = [vx vy ω flags dpx dpy qc qs]        vx    = [vx(i0) vx(i1) … vx(i7)]
//!   states[i1] = [vx vy ω flags dpx dpy qc qs]   ⇄    vy    = [vy(i0) vy(i1) … vy(i7)]
//!      …                                               …
//!   states[i7] = [vx vy ω flags dpx dpy qc qs]        qs    = [qs(i0) qs(i1) … qs(i7)]
//! ```
//!
//! A [`BodyState`] is exactly eight 4-byte fields, 32 bytes, 32-byte aligned, so with eight
//! lanes the gather is an 8 × 8 transpose. Done on eight 256-bit rows it takes 24 shuffles
//! (unpacks, shuffles, and eight permutes across the two 128-bit halves of a register), all on
//! the one execution port that does shuffles, and a bundle pass gathers two bodies per lane.
//! Instead each register is loaded as the same half of two rows four apart (a 128-bit load
//! and an insert from memory, which run on the load ports), and a 4 × 4 transpose inside each
//! half finishes the job — 16 shuffles:
//!
//! ```text
//!   t_i = [vx_i vy_i ω_i f_i | vx_i+4 vy_i+4 ω_i+4 f_i+4]                   i = 0 … 3
//!   unpack lo/hi (t0, t1) and (t2, t3), pick pairs:   vx = [vx_0 … vx_3 | vx_4 … vx_7], …
//! ```
//!
//! and the same for the second halves `[dpx dpy qc qs]`. (Against the full transpose, one
//! worker, three to four alternating rounds: `large_pyramid` biased pass 0.629 → 0.607 ms/step
//! and relax 0.609 → 0.567; `benches/results/NOTES.md`.) The flags word travels through the
//! transposes as the bit pattern of an f32; shuffles move bits without interpreting them, so
//! it comes out unchanged. Where eight lanes are not available (the
//! `scalar` feature or a build without AVX2), the same result is produced lane by lane; both
//! versions are public so tests and the micro-benchmark can compare them.
//!
//! Rules every version follows, and the tests check:
//! - a lane whose index is [`NULL_BODY`] (a static body, or an unused lane of the last bundle)
//!   gathers [`BodyState::IDENTITY`]: zero velocity, no displacement, flags 0;
//! - scatter writes a lane back only if its index is not [`NULL_BODY`] *and* the stored state
//!   has [`body_flags::DYNAMIC`]: kinematic bodies keep the velocity they were given, and a
//!   padded lane writes nothing;
//! - a written lane stores its velocity half, `[vx vy ω flags]`, with the flags as carried in
//!   the bundle (kernels leave them as gathered), and leaves the displacement half as stored.
//!
//! The kernels reach bodies through [`BodyLanes`]: a plain slice of states on one thread, or
//! [`SharedBodies`] when several threads solve bundles of one colour at once, each writing
//! only the dynamic bodies of its own bundles (the colour invariant).
//!
//! **Scatter writes back velocities only.** A bundle pass (warm start, solve, relax,
//! restitution) changes a body's velocities and nothing else: the displacement half of the
//! row, `[dpx dpy qc qs]`, is read for the current separation but comes out as it went in. So
//! scatter turns back only the first four fields — a 4 × 8 transpose (four unpacks and four
//! shuffles), which leaves each lane in one 128-bit half of a register — and stores 16 bytes
//! per written lane, leaving the other 16 untouched. The memory after a pass is the same as if
//! whole rows had been stored, for half the transpose and half the stores.
//!
//! Indices other than [`NULL_BODY`] must be in bounds: they are built by the solver from its
//! own awake-state array, so an out-of-range index is an internal bug and panics like any slice
//! index. The colour invariant guarantees no dynamic body appears in two lanes of a bundle.

// Unsafe code is confined here: the wide gather and scatter read and write bodies by the colour
// invariant; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::wide::{FloatW, LANES, RotW, Vec2W};
use core_soa::{BodyState, NULL_BODY, SharedSlice, body_flags};

/// [`LANES`] body states, field by field.
#[derive(Clone, Copy, Debug)]
pub struct BodyStateW {
    /// Linear velocity of each lane's body (m/s).
    pub linear_velocity: Vec2W,
    /// Angular velocity of each lane's body (rad/s).
    pub angular_velocity: FloatW,
    /// The [`body_flags`] of each lane (0 for a [`NULL_BODY`] lane).
    pub flags: [u32; LANES],
    /// Position change of each lane's body since the step began (m).
    pub delta_position: Vec2W,
    /// Rotation of each lane's body since the step began.
    pub delta_rotation: RotW,
}

impl Default for BodyStateW {
    fn default() -> Self {
        BodyStateW::identity()
    }
}

impl BodyStateW {
    /// Every lane [`BodyState::IDENTITY`].
    pub fn identity() -> BodyStateW {
        BodyStateW::from_lanes(&[BodyState::IDENTITY; LANES])
    }

    /// Lane `i` is `states[i]`.
    pub fn from_lanes(states: &[BodyState; LANES]) -> BodyStateW {
        BodyStateW {
            linear_velocity: Vec2W::from_lanes(states.map(|s| s.linear_velocity)),
            angular_velocity: FloatW::from_array(states.map(|s| s.angular_velocity)),
            flags: states.map(|s| s.flags),
            delta_position: Vec2W::from_lanes(states.map(|s| s.delta_position)),
            delta_rotation: RotW::from_lanes(states.map(|s| s.delta_rotation)),
        }
    }

    /// The state of each lane.
    // The AVX2 build transposes instead; the portable path and the tests use this.
    #[cfg_attr(
        all(not(feature = "scalar"), target_feature = "avx2"),
        allow(dead_code)
    )]
    pub fn to_lanes(self) -> [BodyState; LANES] {
        let v = self.linear_velocity.to_lanes();
        let w = self.angular_velocity.to_array();
        let dp = self.delta_position.to_lanes();
        let dq = self.delta_rotation.to_lanes();
        core::array::from_fn(|i| BodyState {
            linear_velocity: v[i],
            angular_velocity: w[i],
            flags: self.flags[i],
            delta_position: dp[i],
            delta_rotation: dq[i],
        })
    }
}

/// The state a constraint sees for body `index`: the stored one, or the identity for
/// [`NULL_BODY`] (by reference, so the transposed gather loads straight from it).
#[inline]
pub(crate) fn state_or_identity(states: &[BodyState], index: u32) -> &BodyState {
    if index == NULL_BODY {
        &BodyState::IDENTITY
    } else {
        &states[index as usize]
    }
}

/// Whether scatter may write body `index`: a real index of a dynamic body.
#[inline]
fn writable(states: &[BodyState], index: u32) -> bool {
    index != NULL_BODY && states[index as usize].flags & body_flags::DYNAMIC != 0
}

/// Reads the states at `indices` into lanes (identity for [`NULL_BODY`]), with the fastest
/// version this build has.
#[inline]
pub fn gather(states: &[BodyState], indices: &[u32; LANES]) -> BodyStateW {
    #[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
    {
        gather_transposed(states, indices)
    }
    #[cfg(not(all(not(feature = "scalar"), target_feature = "avx2")))]
    {
        gather_lanewise(states, indices)
    }
}

/// Writes the velocity halves of the lanes of `bundle` back to the dynamic bodies at
/// `indices` (module notes), with the fastest version this build has.
#[inline]
pub fn scatter(states: &mut [BodyState], indices: &[u32; LANES], bundle: &BodyStateW) {
    #[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
    {
        scatter_transposed(states, indices, bundle)
    }
    #[cfg(not(all(not(feature = "scalar"), target_feature = "avx2")))]
    {
        scatter_lanewise(states, indices, bundle)
    }
}

/// [`gather`] one lane at a time: the portable reference version.
#[cfg_attr(
    all(not(feature = "scalar"), target_feature = "avx2"),
    allow(dead_code)
)]
#[inline]
pub fn gather_lanewise(states: &[BodyState], indices: &[u32; LANES]) -> BodyStateW {
    BodyStateW::from_lanes(&indices.map(|index| *state_or_identity(states, index)))
}

/// [`scatter`] one lane at a time: the portable reference version.
#[cfg_attr(
    all(not(feature = "scalar"), target_feature = "avx2"),
    allow(dead_code)
)]
#[inline]
pub fn scatter_lanewise(states: &mut [BodyState], indices: &[u32; LANES], bundle: &BodyStateW) {
    let rows = velocity_rows_lanewise(bundle);
    for (&index, row) in indices.iter().zip(rows) {
        if writable(states, index) {
            *velocity_half(&mut states[index as usize]) = row;
        }
    }
}

/// [`gather`] as sixteen 128-bit loads and two 4 × 4 transposes per half ([`transpose_at`]).
#[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
#[inline]
pub fn gather_transposed(states: &[BodyState], indices: &[u32; LANES]) -> BodyStateW {
    transpose_at(indices.map(|index| state_or_identity(states, index)))
}

/// Lane `i` is `*rows[i]`: an 8 × 8 transpose whose step across the two 128-bit halves of a
/// register is done by the loads (module notes).
#[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
#[inline]
fn transpose_at(rows: [&BodyState; LANES]) -> BodyStateW {
    use std::arch::x86_64::{__m128, __m256, _mm256_castps128_ps256, _mm256_insertf128_ps};
    // A BodyState is two 16-byte halves, `[vx vy ω flags]` and `[dpx dpy qc qs]`, of plain
    // old data; reading one as an `__m128` is a 16-byte load.
    let half = |row: &BodyState, h: usize| -> __m128 {
        bytemuck::cast(bytemuck::cast_ref::<BodyState, [[u32; 4]; 2]>(row)[h])
    };
    let pair = |i: usize, h: usize| -> __m256 {
        // SAFETY: AVX intrinsics, compiled only when the build enables AVX2 (and so AVX)
        // everywhere; they only move bits.
        unsafe {
            _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(half(rows[i], h)),
                half(rows[i + 4], h),
            )
        }
    };
    let [vx, vy, w, flags] = transpose_halves([pair(0, 0), pair(1, 0), pair(2, 0), pair(3, 0)]);
    let [dpx, dpy, qc, qs] = transpose_halves([pair(0, 1), pair(1, 1), pair(2, 1), pair(3, 1)]);
    let float = |v: __m256| FloatW(bytemuck::cast(v));
    BodyStateW {
        linear_velocity: Vec2W::new(float(vx), float(vy)),
        angular_velocity: float(w),
        flags: bytemuck::cast::<__m256, [u32; LANES]>(flags),
        delta_position: Vec2W::new(float(dpx), float(dpy)),
        delta_rotation: RotW {
            c: float(qc),
            s: float(qs),
        },
    }
}

/// A 4 × 4 transpose inside each 128-bit half of four registers: element `j` of register `i`
/// goes to element `i` of register `j`, in both halves at once.
#[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
#[inline]
fn transpose_halves(
    [t0, t1, t2, t3]: [std::arch::x86_64::__m256; 4],
) -> [std::arch::x86_64::__m256; 4] {
    use std::arch::x86_64::{_mm256_shuffle_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps};
    // SAFETY: as in `transpose_at`: AVX is enabled for the whole build; bits only move.
    unsafe {
        // [a0 b0 a1 b1], [a2 b2 a3 b3], [c0 d0 c1 d1], [c2 d2 c3 d3] in each half …
        let (ab_lo, ab_hi) = (_mm256_unpacklo_ps(t0, t1), _mm256_unpackhi_ps(t0, t1));
        let (cd_lo, cd_hi) = (_mm256_unpacklo_ps(t2, t3), _mm256_unpackhi_ps(t2, t3));
        // … then the matching pairs side by side: [a0 b0 c0 d0], [a1 b1 c1 d1], ….
        [
            _mm256_shuffle_ps::<0x44>(ab_lo, cd_lo),
            _mm256_shuffle_ps::<0xEE>(ab_lo, cd_lo),
            _mm256_shuffle_ps::<0x44>(ab_hi, cd_hi),
            _mm256_shuffle_ps::<0xEE>(ab_hi, cd_hi),
        ]
    }
}

/// [`scatter`] as a 4 × 8 transpose and one 128-bit store per written lane.
#[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
#[inline]
pub fn scatter_transposed(states: &mut [BodyState], indices: &[u32; LANES], bundle: &BodyStateW) {
    let rows = velocity_rows_transposed(bundle);
    let mut written = 0;
    for (lane, &index) in indices.iter().enumerate() {
        written |= u32::from(writable(states, index)) << lane;
    }
    for_written_lanes(written, |lane| {
        *velocity_half(&mut states[indices[lane] as usize]) = rows[lane];
    });
}

/// The first half of a state's row, `[vx vy ω flags]`, as bits: what scatter writes.
#[inline]
fn velocity_half(state: &mut BodyState) -> &mut [u32; 4] {
    &mut bytemuck::cast_mut::<BodyState, [[u32; 4]; 2]>(state)[0]
}

/// Each lane's `[vx vy ω flags]` half-row, with the fastest version this build has.
#[inline]
fn velocity_rows(bodies: &BodyStateW) -> [[u32; 4]; LANES] {
    #[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
    {
        velocity_rows_transposed(bodies)
    }
    #[cfg(not(all(not(feature = "scalar"), target_feature = "avx2")))]
    {
        velocity_rows_lanewise(bodies)
    }
}

/// [`velocity_rows`] lane by lane: the portable reference version.
#[cfg_attr(
    all(not(feature = "scalar"), target_feature = "avx2"),
    allow(dead_code)
)]
#[inline]
fn velocity_rows_lanewise(bodies: &BodyStateW) -> [[u32; 4]; LANES] {
    bodies
        .to_lanes()
        .map(|mut state| *velocity_half(&mut state))
}

/// [`velocity_rows`] as a 4 × 8 transpose: four unpacks and four shuffles leave each lane's
/// half-row in one 128-bit half of a register.
#[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
#[inline]
fn velocity_rows_transposed(bodies: &BodyStateW) -> [[u32; 4]; LANES] {
    use std::arch::x86_64::__m256;
    let vx: __m256 = bytemuck::cast(bodies.linear_velocity.x.0);
    let vy: __m256 = bytemuck::cast(bodies.linear_velocity.y.0);
    let w: __m256 = bytemuck::cast(bodies.angular_velocity.0);
    let flags: __m256 = bytemuck::cast(bodies.flags);
    // The gather's 4 × 4 transpose inside each half, which is its own inverse: the half-rows
    // of lanes 0 | 4, 1 | 5, 2 | 6 and 3 | 7.
    let pairs = transpose_halves([vx, vy, w, flags]).map(bytemuck::cast::<__m256, [[u32; 4]; 2]>);
    core::array::from_fn(|lane| pairs[lane % 4][lane / 4])
}

/// The lanes [`SharedBodies`] writes, one bit per lane: a real index whose carried flags say
/// dynamic (the gathered flags, which kernels leave as they are).
#[inline]
fn writable_lanes(indices: &[u32; LANES], flags: &[u32; LANES]) -> u32 {
    let mut written = 0;
    for lane in 0..LANES {
        let dynamic = indices[lane] != NULL_BODY && flags[lane] & body_flags::DYNAMIC != 0;
        written |= u32::from(dynamic) << lane;
    }
    written
}

/// Calls `write` for each lane set in `written`. Every lane of a bundle deep in a pile is
/// usually written, and that case runs without a branch per lane.
#[inline]
fn for_written_lanes(written: u32, write: impl FnMut(usize)) {
    const EVERY_LANE: u32 = (1 << LANES) - 1;
    if written == EVERY_LANE {
        (0..LANES).for_each(write);
    } else {
        (0..LANES)
            .filter(|lane| written & (1 << lane) != 0)
            .for_each(write);
    }
}

/// Reading and writing the bodies of a bundle's lanes.
pub trait BodyLanes {
    /// The states of `indices` ([`BodyState::IDENTITY`] for [`NULL_BODY`]).
    fn gather(&self, indices: &[u32; LANES]) -> BodyStateW;
    /// Writes the velocity halves of the lanes of `bodies` back to the dynamic bodies among
    /// `indices`; the displacement half of each row is left as stored (no bundle pass changes
    /// it: module notes).
    fn scatter(&mut self, indices: &[u32; LANES], bodies: &BodyStateW);
}

impl BodyLanes for [BodyState] {
    #[inline]
    fn gather(&self, indices: &[u32; LANES]) -> BodyStateW {
        gather(self, indices)
    }

    #[inline]
    fn scatter(&mut self, indices: &[u32; LANES], bodies: &BodyStateW) {
        scatter(self, indices, bodies)
    }
}

/// The awake body states as seen by one thread solving bundles of one colour while other
/// threads solve other bundles of the same colour.
pub struct SharedBodies<'s, 'a> {
    states: &'s SharedSlice<'a, BodyState>,
}

impl<'s, 'a> SharedBodies<'s, 'a> {
    /// A view of `states` for solving bundles of one colour.
    ///
    /// # Safety
    /// While the view is used, no other thread may access a dynamic body that the bundles
    /// passed through this view name, and no thread may write any other body they name. The
    /// colour invariant (no dynamic body twice in a colour) together with disjoint blocks of
    /// one colour per thread gives exactly this; scatter never writes a non-dynamic body.
    pub unsafe fn new(states: &'s SharedSlice<'a, BodyState>) -> SharedBodies<'s, 'a> {
        SharedBodies { states }
    }
}

impl BodyLanes for SharedBodies<'_, '_> {
    #[inline]
    fn gather(&self, indices: &[u32; LANES]) -> BodyStateW {
        let rows = indices.map(|index| {
            if index == NULL_BODY {
                &BodyState::IDENTITY
            } else {
                // SAFETY: `new`'s contract: nobody writes the bodies of this thread's bundles
                // while it reads them (the references die with this call).
                unsafe { self.states.get(index as usize) }
            }
        });
        rows_to_lanes(rows)
    }

    #[inline]
    fn scatter(&mut self, indices: &[u32; LANES], bodies: &BodyStateW) {
        let rows = velocity_rows(bodies);
        let written = writable_lanes(indices, &bodies.flags);
        for_written_lanes(written, |lane| {
            let index = indices[lane] as usize;
            // SAFETY: `new`'s contract: this dynamic body belongs to this thread's bundle
            // alone while the view is used.
            let state = unsafe { &mut self.states.slice_mut(index..index + 1)[0] };
            *velocity_half(state) = rows[lane];
        });
    }
}

/// Lane `i` is `*rows[i]`: the transpose where AVX2 is available.
#[inline]
fn rows_to_lanes(rows: [&BodyState; LANES]) -> BodyStateW {
    #[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
    {
        transpose_at(rows)
    }
    #[cfg(not(all(not(feature = "scalar"), target_feature = "avx2")))]
    {
        BodyStateW::from_lanes(&rows.map(|row| *row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_soa::{Rot, Vec2};

    const BODIES: usize = 64;

    /// Distinct, recognisable states: body k has velocity (k, −k)…, and every third body is
    /// kinematic, every fifth static-like (no flag), the rest dynamic.
    fn states() -> Vec<BodyState> {
        (0..BODIES)
            .map(|k| {
                let f = k as f32;
                let flags = match k {
                    _ if k % 5 == 0 => 0,
                    _ if k % 3 == 0 => body_flags::KINEMATIC,
                    _ => body_flags::DYNAMIC | ((k as u32 % 2) * body_flags::BULLET),
                };
                BodyState {
                    linear_velocity: Vec2::new(f + 0.25, -f),
                    angular_velocity: 0.5 * f - 3.0,
                    flags,
                    delta_position: Vec2::new(f * 0.01, 1.0 - f),
                    delta_rotation: Rot::from_angle(0.1 * f),
                }
            })
            .collect()
    }

    /// Index bundles covering every body exactly once, in a scrambled order, with NULL lanes
    /// sprinkled in and one all-NULL bundle at the end.
    fn bundles() -> Vec<[u32; LANES]> {
        let mut next = 0u32;
        let mut bundles = Vec::new();
        for b in 0.. {
            if next as usize >= BODIES {
                break;
            }
            bundles.push(core::array::from_fn(|lane| {
                if (b * 7 + lane * 3) % 5 == 0 || next as usize >= BODIES {
                    NULL_BODY
                } else {
                    next += 1;
                    // A fixed permutation of 0..BODIES (37 is coprime to 64).
                    (next - 1) * 37 % BODIES as u32
                }
            }));
        }
        bundles.push([NULL_BODY; LANES]);
        bundles
    }

    fn bump(bundle: &mut BodyStateW) {
        let one = FloatW::one();
        bundle.linear_velocity.x += one;
        bundle.angular_velocity -= one;
        bundle.delta_position.y += one;
    }

    #[test]
    fn gather_then_scatter_leaves_states_unchanged() {
        let original = states();
        let mut states = original.clone();
        for indices in bundles() {
            let bundle = gather(&states, &indices);
            scatter(&mut states, &indices, &bundle);
        }
        assert_eq!(states, original);
    }

    #[test]
    fn gather_reads_states_and_null_lanes_as_identity() {
        let states = states();
        let mut saw_null = false;
        for indices in bundles() {
            let lanes = gather(&states, &indices).to_lanes();
            for (&index, got) in indices.iter().zip(lanes) {
                if index == NULL_BODY {
                    saw_null = true;
                    assert_eq!(got, BodyState::IDENTITY);
                } else {
                    assert_eq!(got, states[index as usize]);
                }
            }
        }
        assert!(saw_null);
    }

    #[test]
    fn scatter_writes_only_dynamic_bodies() {
        let original = states();
        let mut states = original.clone();
        let mut written = 0;
        for indices in bundles() {
            let mut bundle = gather(&states, &indices);
            bump(&mut bundle);
            scatter(&mut states, &indices, &bundle);
        }
        for (k, (now, before)) in states.iter().zip(&original).enumerate() {
            if before.flags & body_flags::DYNAMIC != 0 {
                written += 1;
                assert_eq!(
                    now.linear_velocity.x,
                    before.linear_velocity.x + 1.0,
                    "body {k}"
                );
                assert_eq!(
                    now.angular_velocity,
                    before.angular_velocity - 1.0,
                    "body {k}"
                );
                // `bump` moved the displacement too, but scatter writes velocities only.
                assert_eq!(
                    (now.flags, now.delta_position, now.delta_rotation),
                    (before.flags, before.delta_position, before.delta_rotation),
                    "body {k}"
                );
            } else {
                assert_eq!(now, before, "non-dynamic body {k} was written");
            }
        }
        assert!(written > 0 && written < BODIES);
    }

    #[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
    #[test]
    fn transposed_and_lanewise_agree() {
        let mut by_transpose = states();
        let mut by_lane = by_transpose.clone();
        for indices in bundles() {
            let mut a = gather_transposed(&by_transpose, &indices);
            let mut b = gather_lanewise(&by_lane, &indices);
            assert_eq!(a.to_lanes(), b.to_lanes());
            bump(&mut a);
            bump(&mut b);
            scatter_transposed(&mut by_transpose, &indices, &a);
            scatter_lanewise(&mut by_lane, &indices, &b);
            let bytes = |s: &[BodyState]| bytemuck::cast_slice::<BodyState, u8>(s).to_vec();
            assert_eq!(bytes(&by_transpose), bytes(&by_lane));
        }
    }

    /// The shared view (used by the multi-worker passes) decides on the carried flags and
    /// writes through the 16-byte half-row; on gathered bundles it must leave exactly what the
    /// plain-slice scatter leaves.
    #[test]
    fn shared_view_scatters_as_the_slice_does() {
        let mut by_slice = states();
        let mut by_view = by_slice.clone();
        for indices in bundles() {
            let mut bundle = gather(&by_slice, &indices);
            bump(&mut bundle);
            scatter(&mut by_slice, &indices, &bundle);
            let shared = SharedSlice::new(&mut by_view);
            // SAFETY: one thread, one view: nothing else reads or writes these states.
            let mut view = unsafe { SharedBodies::new(&shared) };
            let mut bundle = view.gather(&indices);
            bump(&mut bundle);
            view.scatter(&indices, &bundle);
        }
        assert_eq!(by_view, by_slice);
        assert_ne!(by_view, states(), "the bumped velocities were written");
    }
}
