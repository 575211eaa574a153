//! Unit tests of placement, removal and the invariant check.

use crate::{
    ColorIndex, ColoringPolicy, ConstraintGraph, ConstraintKind, Endpoint, GRAPH_COLOR_COUNT,
    Moved, Slot,
};
use std::collections::BTreeMap;

const CONTACT: ConstraintKind = ConstraintKind::Contact;
const JOINT: ConstraintKind = ConstraintKind::Joint;

fn color(c: usize) -> ColorIndex {
    ColorIndex::new(c).unwrap()
}

#[test]
fn chain_alternates_two_colours() {
    let mut graph = ConstraintGraph::new();
    let bodies = 11u32;
    let slots: Vec<Slot> = (0..bodies - 1)
        .map(|i| graph.add(CONTACT, i, Endpoint::dynamic(i), Endpoint::dynamic(i + 1)))
        .collect();
    for (i, slot) in slots.iter().enumerate() {
        assert_eq!(slot.color, color(i % 2), "link {i}");
        assert_eq!(slot.index as usize, i / 2);
    }
    assert_eq!(graph.colors_in_use(), 2);
    assert_eq!(graph.contacts(color(0)), &[0, 2, 4, 6, 8]);
    assert_eq!(graph.contacts(color(1)), &[1, 3, 5, 7, 9]);
    assert!(graph.overflow_contacts().is_empty());
}

#[test]
fn star_overflows_past_the_colour_count() {
    let mut graph = ConstraintGraph::new();
    let leaves = 30u32;
    for leaf in 1..=leaves {
        graph.add(CONTACT, leaf, Endpoint::dynamic(0), Endpoint::dynamic(leaf));
    }
    // The hub is in every colour after 24 constraints; each colour holds exactly one.
    assert_eq!(graph.occupancy(CONTACT), [1; GRAPH_COLOR_COUNT]);
    for c in 0..GRAPH_COLOR_COUNT {
        assert_eq!(graph.contacts(color(c)), &[c as u32 + 1]);
    }
    assert_eq!(graph.overflow_contacts(), &[25, 26, 27, 28, 29, 30]);
    assert_eq!(graph.len(CONTACT), leaves as usize);
}

#[test]
fn static_attached_constraints_fill_from_the_back_and_skip_colour_zero() {
    let mut graph = ConstraintGraph::new();
    let ground = Endpoint::fixed(1000);
    let first = graph.add(CONTACT, 0, Endpoint::dynamic(5), ground);
    let second = graph.add(CONTACT, 1, ground, Endpoint::dynamic(5));
    let other_body = graph.add(CONTACT, 2, Endpoint::dynamic(6), ground);
    assert_eq!(first.color, color(GRAPH_COLOR_COUNT - 1));
    assert_eq!(second.color, color(GRAPH_COLOR_COUNT - 2));
    assert_eq!(other_body.color, color(GRAPH_COLOR_COUNT - 1));
    // One body touching the ground many times walks down to colour 1, never 0, then overflows.
    let mut graph = ConstraintGraph::new();
    let placed: Vec<Slot> = (0..25)
        .map(|h| graph.add(CONTACT, h, Endpoint::dynamic(3), ground))
        .collect();
    for (h, slot) in placed.iter().take(23).enumerate() {
        assert_eq!(slot.color, color(GRAPH_COLOR_COUNT - 1 - h));
    }
    assert_eq!(placed[23].color, ColorIndex::OVERFLOW);
    assert_eq!(placed[24].color, ColorIndex::OVERFLOW);
    assert!(graph.contacts(color(0)).is_empty());
}

#[test]
fn policy_limits_are_respected() {
    let policy = ColoringPolicy {
        dynamic_colors: 2,
        static_floor: 20,
    };
    let mut graph = ConstraintGraph::with_policy(policy);
    let slots: Vec<Slot> = (1..=3)
        .map(|leaf| graph.add(CONTACT, leaf, Endpoint::dynamic(0), Endpoint::dynamic(leaf)))
        .collect();
    assert_eq!(slots[0].color, color(0));
    assert_eq!(slots[1].color, color(1));
    assert_eq!(slots[2].color, ColorIndex::OVERFLOW);
    let ground = Endpoint::fixed(99);
    let statics: Vec<Slot> = (0..5)
        .map(|h| graph.add(CONTACT, 10 + h, Endpoint::dynamic(7), ground))
        .collect();
    let colours: Vec<usize> = statics.iter().map(|s| s.color.index()).collect();
    assert_eq!(colours, vec![23, 22, 21, 20, GRAPH_COLOR_COUNT]);
}

#[test]
fn contacts_and_joints_share_body_sets() {
    let mut graph = ConstraintGraph::new();
    let contact = graph.add(CONTACT, 0, Endpoint::dynamic(0), Endpoint::dynamic(1));
    let joint = graph.add(JOINT, 0, Endpoint::dynamic(1), Endpoint::dynamic(2));
    assert_eq!(
        contact,
        Slot {
            color: color(0),
            index: 0
        }
    );
    assert_eq!(
        joint,
        Slot {
            color: color(1),
            index: 0
        }
    );
    assert_eq!(graph.joints(color(1)), &[0]);
    assert!(graph.joints(color(0)).is_empty());
}

#[test]
fn remove_reports_the_handle_that_moved() {
    let mut graph = ConstraintGraph::new();
    let pairs = [(0, 1), (2, 3), (4, 5)];
    let slots: Vec<Slot> = pairs
        .iter()
        .enumerate()
        .map(|(h, &(a, b))| {
            graph.add(
                CONTACT,
                h as u32,
                Endpoint::dynamic(a),
                Endpoint::dynamic(b),
            )
        })
        .collect();
    assert!(slots.iter().all(|s| s.color == color(0)));
    let moved = graph.remove(
        CONTACT,
        0,
        slots[0],
        Endpoint::dynamic(0),
        Endpoint::dynamic(1),
    );
    assert_eq!(
        moved,
        Some(Moved {
            handle: 2,
            new_slot: Slot {
                color: color(0),
                index: 0
            }
        })
    );
    assert_eq!(graph.contacts(color(0)), &[2, 1]);
    // Removing the last entry moves nothing.
    let moved = graph.remove(
        CONTACT,
        1,
        slots[1],
        Endpoint::dynamic(2),
        Endpoint::dynamic(3),
    );
    assert_eq!(moved, None);
    // Bodies 0 and 1 are free again in colour 0.
    let again = graph.add(CONTACT, 7, Endpoint::dynamic(1), Endpoint::dynamic(0));
    assert_eq!(
        again,
        Slot {
            color: color(0),
            index: 1
        }
    );
    let lookup = |_: ConstraintKind, h: u32| match h {
        2 => (Endpoint::dynamic(4), Endpoint::dynamic(5)),
        _ => (Endpoint::dynamic(1), Endpoint::dynamic(0)),
    };
    assert_eq!(graph.validate_handles(lookup), Ok(()));
}

#[test]
fn force_overflow_sends_everything_to_overflow() {
    let mut graph = ConstraintGraph::new();
    graph.set_force_overflow(true);
    for i in 0..10u32 {
        let slot = graph.add(CONTACT, i, Endpoint::dynamic(i), Endpoint::dynamic(i + 1));
        assert_eq!(
            slot,
            Slot {
                color: ColorIndex::OVERFLOW,
                index: i
            }
        );
    }
    graph.add(JOINT, 0, Endpoint::dynamic(0), Endpoint::fixed(50));
    assert_eq!(graph.colors_in_use(), 0);
    assert_eq!(graph.overflow_contacts().len(), 10);
    assert_eq!(graph.overflow_joints(), &[0]);
}

#[test]
fn validate_catches_a_lookup_that_disagrees() {
    let mut graph = ConstraintGraph::new();
    graph.add(CONTACT, 0, Endpoint::dynamic(0), Endpoint::dynamic(1));
    graph.add(CONTACT, 1, Endpoint::dynamic(2), Endpoint::dynamic(3));
    // Pretend both constraints hold body 0: the colour would write body 0 twice.
    let wrong = |_: ConstraintKind, h: u32| (Endpoint::dynamic(0), Endpoint::dynamic(h + 10));
    let err = graph.validate_handles(wrong).unwrap_err();
    assert!(err.contains("body 0 twice"), "{err}");
    // Pretend constraint 1 holds bodies 2 and 4: bit 3 is then stale and bit 4 missing.
    let drifted = |_: ConstraintKind, h: u32| match h {
        0 => (Endpoint::dynamic(0), Endpoint::dynamic(1)),
        _ => (Endpoint::dynamic(2), Endpoint::dynamic(4)),
    };
    assert!(graph.validate_handles(drifted).is_err());
}

/// A small deterministic generator (xorshift64*), so the tests need no extra dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(Clone, Copy, Debug)]
struct Live {
    a: Endpoint,
    b: Endpoint,
    slot: Slot,
}

/// The caller's side of the bookkeeping: every live constraint and where the graph keeps it.
struct Model {
    graph: ConstraintGraph,
    live: BTreeMap<(u8, u32), Live>,
    next_handle: u32,
}

impl Model {
    fn endpoint(rng: &mut Rng, bodies: u64) -> Endpoint {
        let body = rng.below(bodies) as u32;
        // Every fifth body is static.
        Endpoint {
            body,
            dynamic: !body.is_multiple_of(5),
        }
    }

    fn add_random(&mut self, rng: &mut Rng, bodies: u64) {
        let a = Self::endpoint(rng, bodies);
        let b = Self::endpoint(rng, bodies);
        if a.body == b.body || !(a.dynamic || b.dynamic) {
            return;
        }
        let kind = if rng.below(4) == 0 { JOINT } else { CONTACT };
        let handle = self.next_handle;
        self.next_handle += 1;
        let slot = self.graph.add(kind, handle, a, b);
        self.live.insert((kind as u8, handle), Live { a, b, slot });
    }

    fn remove_random(&mut self, rng: &mut Rng) {
        if self.live.is_empty() {
            return;
        }
        let Some(&key) = self
            .live
            .keys()
            .nth(rng.below(self.live.len() as u64) as usize)
        else {
            return;
        };
        let kind = if key.0 == JOINT as u8 { JOINT } else { CONTACT };
        let gone = self.live.remove(&key).unwrap();
        if let Some(moved) = self.graph.remove(kind, key.1, gone.slot, gone.a, gone.b) {
            self.live.get_mut(&(kind as u8, moved.handle)).unwrap().slot = moved.new_slot;
        }
    }

    fn check(&self) {
        let lookup = |kind: ConstraintKind, h: u32| {
            let live = self.live[&(kind as u8, h)];
            (live.a, live.b)
        };
        self.graph.validate_handles(lookup).unwrap();
        for (&(kind, handle), live) in &self.live {
            let kind = if kind == JOINT as u8 { JOINT } else { CONTACT };
            let list = self.graph.handles(kind, live.slot.color);
            assert_eq!(list[live.slot.index as usize], handle);
        }
        assert_eq!(
            self.graph.len(CONTACT) + self.graph.len(JOINT),
            self.live.len(),
            "every live handle is stored exactly once"
        );
    }

    fn layout(&self) -> Vec<Vec<u32>> {
        (0..=GRAPH_COLOR_COUNT)
            .flat_map(|c| {
                let color = ColorIndex::new(c).unwrap_or(ColorIndex::OVERFLOW);
                [
                    self.graph.contacts(color).to_vec(),
                    self.graph.joints(color).to_vec(),
                ]
            })
            .collect()
    }
}

fn run_random(seed: u64, bodies: u64, steps: usize) -> Model {
    let mut rng = Rng(seed);
    let mut model = Model {
        graph: ConstraintGraph::new(),
        live: BTreeMap::new(),
        next_handle: 0,
    };
    for step in 0..steps {
        // Grow to a few hundred constraints, then churn around that size.
        if model.live.len() < 300 && rng.below(3) != 0 {
            model.add_random(&mut rng, bodies);
        } else {
            model.remove_random(&mut rng);
        }
        if step.is_multiple_of(37) {
            model.check();
        }
    }
    model.check();
    model
}

#[test]
fn random_add_remove_keeps_the_invariant() {
    for seed in [1, 2, 0xDEAD_BEEF] {
        // 30 bodies (24 dynamic) and about 300 constraints: an average dynamic degree near 20,
        // dense enough that some constraints overflow and removals free colours again.
        let model = run_random(seed, 30, 4000);
        assert!(model.live.len() > 250);
        let overflowed =
            model.graph.overflow_contacts().len() + model.graph.overflow_joints().len();
        assert!(overflowed > 0, "seed {seed}: nothing overflowed");
        assert!(model.graph.colors_in_use() == GRAPH_COLOR_COUNT);
    }
}

#[test]
fn same_sequence_gives_same_layout() {
    let first = run_random(42, 60, 2000);
    let second = run_random(42, 60, 2000);
    assert_eq!(first.layout(), second.layout());
}

/// The contacts of one pyramid of base `base` (box `(row, column)` touches its right
/// neighbour and the two boxes it rests on; the bottom row touches the static ground), added
/// box by box in creation order.
fn pyramid(base: u32) -> Vec<(Endpoint, Endpoint)> {
    let ground = Endpoint::fixed(u32::MAX);
    let id = |row: u32, column: u32| row * base - row * row.saturating_sub(1) / 2 + column - row;
    let mut contacts = Vec::new();
    for row in 0..base {
        for column in row..base {
            let this = Endpoint::dynamic(id(row, column));
            if column > row {
                contacts.push((Endpoint::dynamic(id(row, column - 1)), this));
            }
            if row == 0 {
                contacts.push((this, ground));
                continue;
            }
            contacts.push((Endpoint::dynamic(id(row - 1, column - 1)), this));
            contacts.push((Endpoint::dynamic(id(row - 1, column)), this));
        }
    }
    contacts
}

#[test]
fn pyramid_colours_without_overflow_and_ground_contacts_go_last() {
    for base in [10, 100] {
        let contacts = pyramid(base);
        let n = base as usize;
        assert_eq!(contacts.len(), n * (n - 1) / 2 + n * (n - 1) + n);
        let mut graph = ConstraintGraph::new();
        for (h, &(a, b)) in contacts.iter().enumerate() {
            graph.add(CONTACT, h as u32, a, b);
        }
        let occupancy = graph.occupancy(CONTACT);
        println!("pyramid base {base}: {occupancy:?}");
        assert!(graph.overflow_contacts().is_empty());
        // Every bottom box has exactly one ground contact, so all fit the last colour.
        assert_eq!(occupancy[GRAPH_COLOR_COUNT - 1], n);
        // An interior box touches six boxes (two beside, two below, two above), and those six
        // contacts pairwise share it, so no colouring uses fewer than six colours for the
        // box-box contacts; created bottom-up, first-fit reaches that optimum.
        let box_colours = occupancy[..GRAPH_COLOR_COUNT - 1]
            .iter()
            .filter(|&&k| k > 0)
            .count();
        assert_eq!(box_colours, 6, "{occupancy:?}");
        assert_eq!(occupancy[6..GRAPH_COLOR_COUNT - 1].iter().sum::<usize>(), 0);
        let lookup = |_: ConstraintKind, h: u32| contacts[h as usize];
        assert_eq!(graph.validate_handles(lookup), Ok(()));
    }
}
