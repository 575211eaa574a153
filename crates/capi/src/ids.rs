//! Ids: bodies, shapes and joints are named by small values passed by copy.
//!
//! An id packs the object's slot index (low 32 bits) and the slot's generation (high 32 bits)
//! into one `uint64_t`. The world bumps a slot's generation when its object is destroyed, so an
//! id outlives its object harmlessly: every function given a stale id fails with
//! `PRISM_STATUS_INVALID_ID`, and never reaches a newer object that reuses the slot. Generation
//! 0 is never live, so a zeroed id (`{0}`) is never valid and can stand for "no object".

use prism::{BodyId, JointId, ShapeId};

/// A body of a world. `{0}` is never valid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PrismBodyId {
    /// Slot index (low 32 bits) and generation (high 32 bits).
    pub bits: u64,
}

/// A shape of a world. `{0}` is never valid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PrismShapeId {
    /// Slot index (low 32 bits) and generation (high 32 bits).
    pub bits: u64,
}

/// A joint of a world. `{0}` is never valid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PrismJointId {
    /// Slot index (low 32 bits) and generation (high 32 bits).
    pub bits: u64,
}

/// Packs an index and a generation.
fn pack(index: u32, generation: u32) -> u64 {
    u64::from(index) | (u64::from(generation) << 32)
}

/// The index (low half) and generation (high half) of packed bits.
fn unpack(bits: u64) -> (u32, u32) {
    (bits as u32, (bits >> 32) as u32)
}

macro_rules! id_conversions {
    ($($c:ident <-> $rust:ident),* $(,)?) => {$(
        impl From<$rust> for $c {
            fn from(id: $rust) -> $c {
                $c { bits: pack(id.index(), id.generation()) }
            }
        }

        impl From<$c> for $rust {
            fn from(id: $c) -> $rust {
                let (index, generation) = unpack(id.bits);
                $rust::new(index, generation)
            }
        }
    )*};
}

id_conversions!(
    PrismBodyId <-> BodyId,
    PrismShapeId <-> ShapeId,
    PrismJointId <-> JointId,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_zero_is_null() {
        let id = BodyId::new(7, 0xdead_beef);
        let packed = PrismBodyId::from(id);
        assert_eq!(packed.bits, 7 | (0xdead_beef_u64 << 32));
        assert_eq!(BodyId::from(packed), id);
        assert!(BodyId::from(PrismBodyId::default()).is_null());
        let shape = ShapeId::new(u32::MAX, u32::MAX);
        assert_eq!(ShapeId::from(PrismShapeId::from(shape)), shape);
    }
}
