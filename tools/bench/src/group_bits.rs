//! Box2D's collision filter expressed as Rapier's interaction-group bits.
//!
//! Box2D filters with a category, a mask and a group index: shapes collide when each one's
//! category meets the other's mask, except that shapes sharing a negative group never
//! collide. Rapier has only membership and filter bit sets, tested as
//! `(A.memberships & B.filter) ≠ 0 ∧ (B.memberships & A.filter) ≠ 0` — bits can enable
//! pairs but a plain category bit cannot single out "same group". So we give every
//! (group slot, category) pair its own bit:
//!
//! ```text
//! bit(slot, category) = 4·slot + category      slot 0 = no group, slot k = group −k (k ≤ 7)
//! memberships(A) = { bit(slot_A, c) : c ∈ category_A }
//! filter(A)      = { bit(s, c) : c ∈ mask_A, and s = 0 or slot_A = 0 or s ≠ slot_A }
//! ```
//!
//! Then `memberships(A) ∩ filter(B) ≠ ∅` holds exactly when `category_A ∩ mask_B ≠ ∅` and
//! not `slot_A = slot_B ≠ 0`, and the conjunction of both directions is Box2D's rule.
//! Four categories × eight slots fill Rapier's 32 bits; the scenes use categories 1 and 2
//! and groups −1..−5. Positive groups ("always collide") have no such encoding and are
//! refused.

use crate::engine::BenchError;
use scenes::description::Filter;

const CATEGORIES: u32 = 4;
const SLOTS: u32 = 8;

/// Rapier `(memberships, filter)` bits equivalent to `filter` under Box2D's rule.
pub fn rapier_group_bits(filter: &Filter) -> Result<(u32, u32), BenchError> {
    if filter.category == 0 || filter.category >> CATEGORIES != 0 {
        return Err(BenchError::new(format!(
            "category bits {:#x} do not fit the {CATEGORIES} categories Rapier's groups encode",
            filter.category
        )));
    }
    if filter.group > 0 || filter.group <= -(SLOTS as i32) {
        return Err(BenchError::new(format!(
            "collision group {} is outside −{}..=0",
            filter.group,
            SLOTS - 1
        )));
    }
    let own_slot = filter.group.unsigned_abs();
    let bit = |slot: u32, category: u32| 1u32 << (slot * CATEGORIES + category);
    let mut memberships = 0;
    let mut collides_with = 0;
    for category in 0..CATEGORIES {
        if filter.category & (1 << category) != 0 {
            memberships |= bit(own_slot, category);
        }
        if filter.mask & (1 << category) == 0 {
            continue;
        }
        for slot in 0..SLOTS {
            if slot == 0 || own_slot == 0 || slot != own_slot {
                collides_with |= bit(slot, category);
            }
        }
    }
    Ok((memberships, collides_with))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of small categories, masks and groups: the bit test agrees with
    /// Box2D's rule.
    #[test]
    fn bits_reproduce_box2d_filtering_exhaustively() {
        let mut filters = Vec::new();
        for category in 1..16u64 {
            for mask in [0u64, 1, 2, 3, 5, 13, 15, !2, u64::MAX] {
                for group in -7..=0 {
                    filters.push(Filter {
                        category,
                        mask,
                        group,
                    });
                }
            }
        }
        for a in &filters {
            let (ma, fa) = rapier_group_bits(a).unwrap();
            for b in &filters {
                let (mb, fb) = rapier_group_bits(b).unwrap();
                let rapier = (ma & fb) != 0 && (mb & fa) != 0;
                assert_eq!(rapier, a.collides_with(b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn unsupported_filters_are_errors() {
        let wide = Filter {
            category: 1 << 5,
            ..Filter::DEFAULT
        };
        assert!(rapier_group_bits(&wide).is_err());
        let positive = Filter {
            group: 3,
            ..Filter::DEFAULT
        };
        assert!(rapier_group_bits(&positive).is_err());
    }
}
