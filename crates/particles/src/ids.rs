//! Typed generational handles for the objects of a particle system.
//!
//! Each handle wraps core-soa's [`Id`] (a slot index and the generation it was issued for) and
//! is handed out by core-soa's [`core_soa::Arena`], so a handle to a destroyed particle, spring,
//! constraint, anchor or force field is detected as stale instead of aliasing whatever reuses
//! its slot. The types are distinct so that a `SpringId` cannot be passed where a `ParticleId` is
//! expected.

use core_soa::{ArenaKey, Id};

/// Defines a `Copy` handle type wrapping an [`Id`].
macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Id);

        impl $name {
            /// A handle that is never valid.
            pub const NULL: $name = $name(Id::NULL);

            /// The slot index.
            #[inline]
            pub const fn index(self) -> u32 {
                self.0.index()
            }

            /// The slot generation this handle was issued for.
            #[inline]
            pub const fn generation(self) -> u32 {
                self.0.generation()
            }

            /// Whether this handle is never valid (generation 0).
            #[inline]
            pub const fn is_null(self) -> bool {
                self.0.is_null()
            }

            /// The untyped handle.
            #[inline]
            pub const fn raw(self) -> Id {
                self.0
            }
        }

        impl ArenaKey for $name {
            #[inline]
            fn from_id(id: Id) -> Self {
                $name(id)
            }
            #[inline]
            fn id(self) -> Id {
                self.0
            }
        }
    };
}

typed_id!(
    /// A handle to a particle (free, or a bead on a curve).
    ParticleId
);
typed_id!(
    /// A handle to a damped spring (between two particles, or a particle and an anchor).
    SpringId
);
typed_id!(
    /// A handle to an implicit constraint `C(x) = 0`.
    ConstraintId
);
typed_id!(
    /// A handle to an anchor: an external point whose motion the caller sets every step.
    AnchorId
);
typed_id!(
    /// A handle to a user force field.
    ForceFieldId
);
