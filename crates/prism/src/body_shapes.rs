//! A body's list of shape ids, kept inside the body record while it is short.
//!
//! Every step's finalize reads the shapes of each awake body that may have left its fat
//! boxes (`finalize.rs`): body record, then its shape ids, then each shape record. With the
//! ids in a `Vec`, the second read is a separate heap block per body, scattered through
//! memory; profiling a pile that is smashed apart put 40 % of the box test's samples on that
//! one load. Nearly every body has one or two shapes, so up to [`INLINE_SHAPES`] ids live in
//! the record itself and only longer lists go to the heap. The list dereferences to a slice in
//! attachment order, so readers see no difference, and its snapshot encoding is the slice's,
//! as the `Vec` it replaces was encoded.

use core::ops::Deref;
use core_soa::ShapeId;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};

/// Shape ids stored in the body record itself.
pub(crate) const INLINE_SHAPES: usize = 2;

/// The shape ids of one body, in attachment order.
#[derive(Clone, Debug)]
pub(crate) enum BodyShapes {
    /// The first `len` ids of `ids` (the rest are unused).
    Inline {
        len: u8,
        ids: [ShapeId; INLINE_SHAPES],
    },
    /// More than fit inline.
    Spilled(Vec<ShapeId>),
}

impl Default for BodyShapes {
    fn default() -> Self {
        BodyShapes::Inline {
            len: 0,
            ids: [ShapeId::default(); INLINE_SHAPES],
        }
    }
}

impl BodyShapes {
    /// Appends `id`, moving the list to the heap when it outgrows the record.
    pub(crate) fn push(&mut self, id: ShapeId) {
        match self {
            BodyShapes::Inline { len, ids } if usize::from(*len) < INLINE_SHAPES => {
                ids[usize::from(*len)] = id;
                *len += 1;
            }
            BodyShapes::Inline { ids, .. } => {
                let mut spilled = ids.to_vec();
                spilled.push(id);
                *self = BodyShapes::Spilled(spilled);
            }
            BodyShapes::Spilled(ids) => ids.push(id),
        }
    }

    /// Keeps the ids for which `keep` holds, in order (back inline once they fit).
    pub(crate) fn retain(&mut self, keep: impl FnMut(&ShapeId) -> bool) {
        let mut kept: Vec<ShapeId> = self.iter().copied().collect();
        kept.retain(keep);
        *self = BodyShapes::from(kept);
    }
}

impl From<Vec<ShapeId>> for BodyShapes {
    fn from(ids: Vec<ShapeId>) -> Self {
        if ids.len() > INLINE_SHAPES {
            return BodyShapes::Spilled(ids);
        }
        let mut shapes = BodyShapes::default();
        for id in ids {
            shapes.push(id);
        }
        shapes
    }
}

impl Deref for BodyShapes {
    type Target = [ShapeId];

    #[inline]
    fn deref(&self) -> &[ShapeId] {
        match self {
            BodyShapes::Inline { len, ids } => &ids[..usize::from(*len)],
            BodyShapes::Spilled(ids) => ids,
        }
    }
}

impl<'a> IntoIterator for &'a BodyShapes {
    type Item = &'a ShapeId;
    type IntoIter = core::slice::Iter<'a, ShapeId>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Equal when the ids are, wherever they are stored.
impl PartialEq for BodyShapes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// Encoded as the list of ids (the same bytes as the `Vec` the record once held).
impl Snap for BodyShapes {
    fn put(&self, w: &mut Writer) {
        self.to_vec().put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(BodyShapes::from(Vec::<ShapeId>::get(r)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_soa::snapshot::{Reader, Writer};

    fn ids(count: u32) -> Vec<ShapeId> {
        (0..count).map(|i| ShapeId::new(i * 3, i + 1)).collect()
    }

    #[test]
    fn pushes_spill_past_the_inline_ids_and_keep_their_order() {
        for count in 0..6 {
            let mut shapes = BodyShapes::default();
            for &id in &ids(count) {
                shapes.push(id);
            }
            assert_eq!(&*shapes, &ids(count)[..]);
            let spilled = matches!(shapes, BodyShapes::Spilled(_));
            assert_eq!(spilled, count as usize > INLINE_SHAPES);
        }
    }

    #[test]
    fn retain_removes_in_order_and_comes_back_inline() {
        let mut shapes = BodyShapes::from(ids(4));
        let all = ids(4);
        shapes.retain(|&id| id != all[1]);
        assert_eq!(&*shapes, &[all[0], all[2], all[3]][..]);
        shapes.retain(|&id| id != all[0]);
        assert_eq!(&*shapes, &[all[2], all[3]][..]);
        assert!(matches!(shapes, BodyShapes::Inline { len: 2, .. }));
        shapes.retain(|_| false);
        assert!(shapes.is_empty());
    }

    #[test]
    fn encodes_as_the_list_of_ids() {
        for count in [0, 1, 2, 5] {
            let shapes = BodyShapes::from(ids(count));
            let (mut as_list, mut as_shapes) = (Writer::default(), Writer::default());
            ids(count).put(&mut as_list);
            shapes.put(&mut as_shapes);
            let bytes = as_shapes.into_bytes();
            assert_eq!(bytes, as_list.into_bytes());
            let decoded = BodyShapes::get(&mut Reader::new(&bytes)).unwrap();
            assert_eq!(decoded, shapes);
        }
    }
}
