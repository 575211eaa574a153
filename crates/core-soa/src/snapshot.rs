//! A small bounded binary codec for world snapshots.
//!
//! A snapshot is a raw dump of the engine's internal state, so every crate that owns a piece of
//! that state implements [`Snap`] for its own types, next to their private fields. The format is
//! deliberately plain:
//!
//! ```text
//!   integers, floats   little-endian, fixed width (f32 as its bits, usize as u64)
//!   bool               one byte, 0 or 1 (anything else is refused)
//!   Option<T>          a tag byte (0 none, 1 some), then T
//!   Vec<T>             a u32 element count, then the elements
//!   [T; N]             the N elements (N is fixed by the type)
//!   struct             its fields in declaration order (the `snap_struct!` macro)
//!   enum               a tag byte, then the variant's fields
//! ```
//!
//! **Hostile input.** The reader never trusts a length: every read checks the bytes left first,
//! and a `Vec` is grown element by element as each decodes (its initial capacity is capped), so a
//! forged count of `u32::MAX` fails at the end of the buffer after allocating at most what the
//! buffer's real bytes can fill. Every element encodes to at least one byte, so a count larger than
//! the bytes left is refused before decoding anything. Values with a range (enum tags, booleans,
//! counts of fixed arrays) are checked as they are read; cross-references between structures are
//! for the owner of the whole state to check after decoding (the `prism` crate's snapshot
//! module does).
//!
//! Scratch that a step rebuilds before reading (search stacks, build buffers) is not written:
//! `snap_struct!` takes a `skip` list of fields decoded as their `Default`.

use crate::{
    Arena, ArenaKey, BodyId, BodySim, BodyState, BodyType, ContactId, Id, JointId, Rot, ShapeId,
    Transform, Vec2,
};

/// Why a snapshot could not be decoded: the field being read, the reason, and the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotError {
    /// The innermost field being decoded (`Type.field`), or a description of the check.
    pub what: String,
    /// What was wrong with it.
    pub reason: String,
    /// Where in the buffer the reader was.
    pub offset: usize,
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} (at byte {})",
            self.what, self.reason, self.offset
        )
    }
}

impl std::error::Error for SnapshotError {}

/// Appends encoded values to a byte buffer.
#[derive(Debug, Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends raw bytes.
    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends any encodable value.
    #[inline]
    pub fn put<T: Snap>(&mut self, value: &T) {
        value.put(self);
    }

    /// Appends a collection length as a `u32` (lengths beyond `u32::MAX` cannot occur in a
    /// world, whose indices are `u32`).
    #[inline]
    pub fn count(&mut self, len: usize) {
        let len = u32::try_from(len).expect("collection longer than u32::MAX");
        self.bytes(&len.to_le_bytes());
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads encoded values from a byte slice, refusing anything out of bounds.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, offset: 0 }
    }

    /// The bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.offset
    }

    /// The position of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// An error at the current position.
    pub fn error(&self, what: &str, reason: impl Into<String>) -> SnapshotError {
        SnapshotError {
            what: what.to_string(),
            reason: reason.into(),
            offset: self.offset,
        }
    }

    /// The next `n` bytes, or an error if fewer are left.
    #[inline]
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], SnapshotError> {
        if n > self.remaining() {
            return Err(self.error("", format!("truncated: {n} bytes needed")));
        }
        let bytes = &self.bytes[self.offset..self.offset + n];
        self.offset += n;
        Ok(bytes)
    }

    /// The next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], SnapshotError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// Decodes a `T`, naming `what` in the error if the failure has no name yet.
    #[inline]
    pub fn field<T: Snap>(&mut self, what: &str) -> Result<T, SnapshotError> {
        T::get(self).map_err(|mut error| {
            if error.what.is_empty() {
                error.what = what.to_string();
            }
            error
        })
    }

    /// A collection length: a `u32` no larger than the bytes left (every element takes at
    /// least one byte), so no forged length can make the caller allocate.
    pub fn count(&mut self) -> Result<usize, SnapshotError> {
        let len = u32::from_le_bytes(self.array()?) as usize;
        if len > self.remaining() {
            return Err(self.error("", format!("length {len} exceeds the bytes left")));
        }
        Ok(len)
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> Result<(), SnapshotError> {
        match self.remaining() {
            0 => Ok(()),
            extra => Err(self.error("end", format!("{extra} bytes left over"))),
        }
    }
}

/// A type that can be written to and read back from a snapshot, exactly.
///
/// `get(put(x)) == x` bit for bit, and `get` never panics: it returns an error for input no
/// `put` could have produced where the type can tell (a bad tag, a short buffer).
pub trait Snap: Sized {
    /// Appends `self`.
    fn put(&self, w: &mut Writer);
    /// Reads a value (at least one byte is always consumed or an error returned).
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError>;
}

macro_rules! snap_int {
    ($($ty:ty),*) => {$(
        impl Snap for $ty {
            #[inline]
            fn put(&self, w: &mut Writer) {
                w.bytes(&self.to_le_bytes());
            }
            #[inline]
            fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
                Ok(<$ty>::from_le_bytes(r.array()?))
            }
        }
    )*};
}

snap_int!(u8, u16, u32, u64, i32, f32);

impl Snap for usize {
    fn put(&self, w: &mut Writer) {
        (*self as u64).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let value = u64::get(r)?;
        usize::try_from(value).map_err(|_| r.error("", format!("{value} overflows usize")))
    }
}

impl Snap for bool {
    fn put(&self, w: &mut Writer) {
        (*self as u8).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        match u8::get(r)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(r.error("", format!("boolean byte {other}"))),
        }
    }
}

impl<T: Snap> Snap for Option<T> {
    fn put(&self, w: &mut Writer) {
        match self {
            None => 0u8.put(w),
            Some(value) => {
                1u8.put(w);
                value.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        match u8::get(r)? {
            0 => Ok(None),
            1 => Ok(Some(T::get(r)?)),
            other => Err(r.error("", format!("option tag {other}"))),
        }
    }
}

/// The most elements a decoded `Vec` reserves before it has read them.
const MAX_RESERVE: usize = 4096;

impl<T: Snap> Snap for Vec<T> {
    fn put(&self, w: &mut Writer) {
        w.count(self.len());
        for item in self {
            item.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let len = r.count()?;
        let mut items = Vec::with_capacity(len.min(MAX_RESERVE));
        for _ in 0..len {
            items.push(T::get(r)?);
        }
        Ok(items)
    }
}

impl<T: Snap, const N: usize> Snap for [T; N] {
    fn put(&self, w: &mut Writer) {
        for item in self {
            item.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let mut items = Vec::with_capacity(N);
        for _ in 0..N {
            items.push(T::get(r)?);
        }
        // The vector has exactly N elements.
        items
            .try_into()
            .map_err(|_| r.error("", "array length mismatch"))
    }
}

impl<A: Snap, B: Snap> Snap for (A, B) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok((A::get(r)?, B::get(r)?))
    }
}

/// Implements [`Snap`] for a struct with named fields: each listed field in order, and the
/// fields after `skip` (scratch) left out and decoded as their `Default`. Decoding builds the
/// struct with a literal, so a field missing from both lists does not compile.
#[macro_export]
macro_rules! snap_struct {
    ($ty:ident { $($field:ident),* $(,)? } $(skip { $($skipped:ident),* $(,)? })?) => {
        impl $crate::snapshot::Snap for $ty {
            fn put(&self, w: &mut $crate::snapshot::Writer) {
                $( $crate::snapshot::Snap::put(&self.$field, w); )*
            }
            fn get(
                r: &mut $crate::snapshot::Reader<'_>,
            ) -> Result<Self, $crate::snapshot::SnapshotError> {
                Ok($ty {
                    $( $field: r.field(concat!(stringify!($ty), ".", stringify!($field)))?, )*
                    $($( $skipped: Default::default(), )*)?
                })
            }
        }
    };
}

snap_struct!(Rot { c, s });
snap_struct!(Transform { p, q });
snap_struct!(BodySim {
    transform,
    center,
    rotation0,
    center0,
    local_center,
    force,
    torque,
    mass,
    inv_mass,
    inertia,
    inv_inertia,
    linear_damping,
    angular_damping,
    gravity_scale,
    body,
    max_extent,
    min_extent,
    sleep_threshold,
    sleep_time,
    enable_sleep,
    fat_slack,
    fat_extent,
});
snap_struct!(BodyState {
    linear_velocity,
    angular_velocity,
    flags,
    delta_position,
    delta_rotation,
});

impl Snap for Vec2 {
    fn put(&self, w: &mut Writer) {
        self.x.put(w);
        self.y.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(Vec2::new(f32::get(r)?, f32::get(r)?))
    }
}

impl Snap for Id {
    fn put(&self, w: &mut Writer) {
        self.index().put(w);
        self.generation().put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(Id::new(u32::get(r)?, u32::get(r)?))
    }
}

macro_rules! snap_typed_id {
    ($($ty:ident),*) => {$(
        impl Snap for $ty {
            fn put(&self, w: &mut Writer) {
                self.raw().put(w);
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
                Ok($ty::from_id(Id::get(r)?))
            }
        }
    )*};
}

snap_typed_id!(BodyId, ShapeId, JointId, ContactId);

impl Snap for BodyType {
    fn put(&self, w: &mut Writer) {
        let tag: u8 = match self {
            BodyType::Static => 0,
            BodyType::Kinematic => 1,
            BodyType::Dynamic => 2,
        };
        tag.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        match u8::get(r)? {
            0 => Ok(BodyType::Static),
            1 => Ok(BodyType::Kinematic),
            2 => Ok(BodyType::Dynamic),
            other => Err(r.error("", format!("body type tag {other}"))),
        }
    }
}

impl<T: Snap, K: ArenaKey> Snap for Arena<T, K> {
    fn put(&self, w: &mut Writer) {
        self.put_slots(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Arena::get_slots(r)
    }
}
