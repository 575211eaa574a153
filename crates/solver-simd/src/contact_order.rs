//! The order in which a colour's contacts are cut into bundles.
//!
//! No dynamic body appears twice in a colour, so the order of a colour's contacts changes no
//! bit of what the solver computes: each lane of each bundle updates its own two bodies, and
//! nothing else reads them during the colour. What the order does decide is *which thread
//! touches which bodies*. The executor (`executor.rs`) gives worker `w` the `w`-th segment of
//! every colour's blocks, and a colour's blocks are its bundles in order. The graph keeps its
//! records in the order contacts arrived, with holes filled from the end (swap-remove), so
//! in a tumbling pile a segment of colour 0 and the same segment of colour 1 name unrelated
//! bodies: every body's state crosses between the cores' caches several times per substep,
//! once for each colour it is in.
//!
//! Ordering each colour by its contacts' lower awake body index makes worker `w`'s segment of
//! every colour cover about the same range of awake bodies, so a body's state mostly stays in
//! one core's cache. Awake bodies are numbered by the awake set, which keeps bodies that
//! arrived together — a pyramid, a pile's neighbours at the time they woke — together.
//!
//! The order is made by a counting sort on buckets of the body range (about one bucket per
//! bundle), stable within a bucket: O(contacts + buckets) per colour, reading each record's
//! two body indices. That reading is the cost — each record's line, last written by whichever
//! core collided or stored it — so an order is kept while its colour's count is unchanged and
//! remade every [`ORDER_REFRESH_STEPS`] steps: in a resting pyramid nothing moves between
//! colours. In a tumbling pile most colours change their count every step and are ordered
//! every step; keeping their orders in between (trimmed and extended to the new count) cost
//! more in the solve passes than it saved. The orders are made in a stage of their own, one
//! block per colour, before the preparation. A colour of at most [`UNSORTED_MAX`] contacts
//! keeps the graph's order (one or two blocks; nothing to share), and with one worker every
//! colour does.
//!
//! ```text
//!   bucket(c) = ⌊min(body_a, body_b) · buckets / body_count⌋      (a static side is NULL_BODY,
//!   order     = contacts by bucket, then by position in the colour  larger than any index)
//! ```

use crate::constraints::ContactRecord;
use crate::wide::LANES;

/// Colours of at most this many contacts keep the graph's order.
pub(crate) const UNSORTED_MAX: usize = 4 * LANES;

/// The most buckets one colour is sorted into: enough for one per bundle in the colours of
/// the benchmark scenes (many_pyramids' largest has 1,350 bundles), few enough for the
/// bucket starts to live on the stack.
const MAX_BUCKETS: usize = 2048;

/// Writes into `order` (as long as `contacts`) the positions of one colour's `contacts` in
/// the order its bundles take them (module notes); `body_count` is the number of awake
/// bodies, and `buckets` (as long as `contacts`) is scratch.
pub(crate) fn order_colour<C: ContactRecord>(
    contacts: &[C],
    body_count: usize,
    order: &mut [u32],
    buckets: &mut [u16],
) {
    let n = contacts.len().min(order.len()).min(buckets.len());
    if n <= UNSORTED_MAX || body_count == 0 {
        order
            .iter_mut()
            .zip(0..)
            .for_each(|(place, position)| *place = position);
        return;
    }
    let bucket_count = n.div_ceil(LANES).min(MAX_BUCKETS);
    let last_body = body_count as u32 - 1;
    // bucket = ⌊key · bucket_count / body_count⌋ as a multiply and a shift: with
    // scale = ⌊bucket_count · 2³² / body_count⌋ and key < body_count, ⌊key · scale / 2³²⌋ is
    // below bucket_count (it may be one less than the exact quotient: a boundary moves, no
    // more). A 64-bit division per record was most of the stage's time.
    let scale = ((bucket_count as u64) << 32) / body_count as u64;
    // starts[b] ← the first place of bucket b: an exclusive prefix sum of the bucket sizes.
    let mut starts = [0u32; MAX_BUCKETS + 1];
    for (record, slot) in contacts[..n].iter().zip(&mut buckets[..n]) {
        let contact = record.solver_contact();
        let key = contact.body_a.min(contact.body_b).min(last_body);
        let bucket = ((u64::from(key) * scale) >> 32) as usize;
        *slot = bucket as u16;
        starts[bucket + 1] += 1;
    }
    for b in 1..=bucket_count {
        starts[b] += starts[b - 1];
    }
    for (position, &bucket) in (0..).zip(&buckets[..n]) {
        let place = &mut starts[usize::from(bucket)];
        order[*place as usize] = position;
        *place += 1;
    }
}

/// Steps an ordered colour whose count does not change keeps its order before it is ordered
/// again (module notes).
pub(crate) const ORDER_REFRESH_STEPS: u32 = 16;

/// Every colour's order, and which colours the step's order stage orders.
#[derive(Debug, Default)]
pub(crate) struct ContactOrders {
    /// Per colour, the positions of its records in bundle order.
    pub(crate) per_color: Vec<Vec<u32>>,
    /// Per colour, each record's bucket while the colour is being ordered (scratch).
    pub(crate) buckets: Vec<Vec<u16>>,
    /// The colours to order this step.
    pub(crate) to_order: Vec<u32>,
    /// Whether the orders were last made by sorting (several workers) rather than kept.
    sorted: bool,
    /// Steps since every sorted colour was last ordered.
    age: u32,
}

impl ContactOrders {
    /// Sizes each colour's order for its `counts` and chooses the colours to order: with one
    /// worker (`sort` false) every order is the identity, kept while the colour's count is
    /// the same; with several, a colour is ordered when its count changed, when the orders
    /// were the identity, and every [`ORDER_REFRESH_STEPS`] steps. A kept order is a
    /// permutation of the colour's positions whatever moved inside the colour, and any
    /// permutation gives the same bits: keeping one can cost speed, never a bit of the result.
    pub(crate) fn plan(&mut self, counts: impl ExactSizeIterator<Item = usize>, sort: bool) {
        self.per_color.resize_with(counts.len(), Vec::new);
        self.buckets.resize_with(self.per_color.len(), Vec::new);
        self.to_order.clear();
        let age = self.age.saturating_add(1);
        let refresh = sort && (!self.sorted || age >= ORDER_REFRESH_STEPS);
        self.age = if refresh { 0 } else { age };
        let switched = sort != self.sorted;
        self.sorted = sort;
        for (color, (order, count)) in self.per_color.iter_mut().zip(counts).enumerate() {
            if order.len() == count && !switched && !refresh {
                continue;
            }
            if sort && count > UNSORTED_MAX {
                order.resize(count, 0);
                self.buckets[color].resize(count, 0);
                self.to_order.push(color as u32);
            } else {
                order.clear();
                order.extend(0..count as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverContact;
    use crate::constraints::tests::contact;
    use core_soa::NULL_BODY;

    #[test]
    fn a_large_colour_is_ordered_by_its_lower_body_and_keeps_every_contact_once() {
        // 64 contacts over 200 bodies, in a scrambled order, some against a static body.
        let contacts: Vec<SolverContact> = (0..64u32)
            .map(|i| {
                let a = (i * 37) % 64 * 3;
                if i % 5 == 0 {
                    contact(NULL_BODY, a)
                } else {
                    contact(a + 1, a)
                }
            })
            .collect();
        let mut order = vec![u32::MAX; 64];
        order_colour(&contacts, 200, &mut order, &mut [0; 64]);
        let ordered = &order[..];
        let mut seen = ordered.to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..64).collect::<Vec<u32>>());
        let key = |p: u32| {
            let c = &contacts[p as usize];
            c.body_a.min(c.body_b)
        };
        // A bucket per bundle (eight with eight lanes) of about 200 / buckets bodies (25 with
        // eight lanes): a key never goes down by a whole bucket.
        let buckets = 64u32.div_ceil(LANES as u32);
        let width = 200u32.div_ceil(buckets);
        assert!(ordered.windows(2).all(|w| key(w[0]) < key(w[1]) + width));
        // Sorted by bucket (the multiply-and-shift of the code), and within a bucket in the
        // colour's order.
        let bucket = |p: u32| (u64::from(key(p)) * ((u64::from(buckets) << 32) / 200)) >> 32;
        assert!(ordered.windows(2).all(|w| bucket(w[0]) <= bucket(w[1])));
        assert!(
            ordered
                .windows(2)
                .all(|w| bucket(w[0]) < bucket(w[1]) || w[0] < w[1])
        );
    }

    #[test]
    fn a_small_colour_keeps_the_graphs_order() {
        let contacts: Vec<SolverContact> = (0..UNSORTED_MAX as u32)
            .rev()
            .map(|i| contact(i, i + 100))
            .collect();
        let mut order = vec![u32::MAX; UNSORTED_MAX];
        order_colour(&contacts, 200, &mut order, &mut [0; UNSORTED_MAX]);
        assert_eq!(order, (0..UNSORTED_MAX as u32).collect::<Vec<u32>>());
    }

    #[test]
    fn orders_are_made_on_a_count_change_and_every_refresh_and_kept_between() {
        let big = UNSORTED_MAX + 1;
        let mut orders = ContactOrders::default();
        orders.plan([big, 3].into_iter(), true);
        assert_eq!(
            orders.to_order,
            [0],
            "the small colour keeps the graph's order"
        );
        assert_eq!(orders.per_color[0].len(), big);
        assert_eq!(orders.buckets[0].len(), big);
        assert_eq!(orders.per_color[1], [0, 1, 2]);
        for step in 1..ORDER_REFRESH_STEPS {
            orders.plan([big, 3].into_iter(), true);
            assert!(orders.to_order.is_empty(), "kept at step {step}");
        }
        orders.plan([big, 3].into_iter(), true);
        assert_eq!(orders.to_order, [0], "refreshed");
        orders.plan([big + 1, 3].into_iter(), true);
        assert_eq!(orders.to_order, [0], "the count changed");
        assert_eq!(orders.per_color[0].len(), big + 1);
        orders.plan([big + 1, 3].into_iter(), false);
        assert!(orders.to_order.is_empty(), "one worker orders nothing");
        assert_eq!(
            orders.per_color[0],
            (0..big as u32 + 1).collect::<Vec<u32>>()
        );
    }
}
