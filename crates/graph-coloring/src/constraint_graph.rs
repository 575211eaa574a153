//! The constraint graph: [`GRAPH_COLOR_COUNT`] colours plus an overflow set.
//!
//! Each colour is a body bitset and two dense handle lists (contacts, joints). Adding a
//! constraint picks a colour by the policy described in the crate docs, sets the bits of its
//! dynamic bodies and pushes its handle; removing clears the bits and swap-removes the handle,
//! reporting which handle moved so the caller can update the [`Slot`] it stores. Both are O(1)
//! apart from the colour search, which is at most [`GRAPH_COLOR_COUNT`] bit tests per body.

use core_soa::BitSet;

/// The number of colours. Box2D v3 uses the same count. A pyramid of boxes needs six colours
/// for its box-box contacts (each interior box touches six boxes) plus one for the ground, so
/// 24 leaves room for dense scenes (a drum full of boxes, a body touching many others) before
/// anything overflows.
pub const GRAPH_COLOR_COUNT: usize = 24;

/// Whether an entry is a contact or a joint. The two kinds share each colour's body set (a
/// joint and a contact on the same body never share a colour) but keep separate handle lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    Contact,
    Joint,
}

impl ConstraintKind {
    const ALL: [ConstraintKind; 2] = [ConstraintKind::Contact, ConstraintKind::Joint];

    fn list_index(self) -> usize {
        match self {
            ConstraintKind::Contact => 0,
            ConstraintKind::Joint => 1,
        }
    }
}

/// One end of a constraint: the body's stable index and whether the solver may move it.
/// Static and kinematic bodies are `dynamic: false`; they take no bit in any colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub body: u32,
    pub dynamic: bool,
}

impl Endpoint {
    /// A body the solver moves.
    pub const fn dynamic(body: u32) -> Endpoint {
        Endpoint {
            body,
            dynamic: true,
        }
    }

    /// A static or kinematic body (never written by the solver).
    pub const fn fixed(body: u32) -> Endpoint {
        Endpoint {
            body,
            dynamic: false,
        }
    }
}

/// A colour `0..GRAPH_COLOR_COUNT`, or [`ColorIndex::OVERFLOW`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColorIndex(u8);

impl ColorIndex {
    /// The overflow set: constraints that found no colour.
    pub const OVERFLOW: ColorIndex = ColorIndex(GRAPH_COLOR_COUNT as u8);

    /// Colour `index`, or `None` if `index >= GRAPH_COLOR_COUNT`.
    pub const fn new(index: usize) -> Option<ColorIndex> {
        if index < GRAPH_COLOR_COUNT {
            Some(ColorIndex(index as u8))
        } else {
            None
        }
    }

    /// The colour's number; [`GRAPH_COLOR_COUNT`] for the overflow set.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn is_overflow(self) -> bool {
        self.0 as usize == GRAPH_COLOR_COUNT
    }
}

/// Where a handle is stored: its colour and its position in that colour's list of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    pub color: ColorIndex,
    pub index: u32,
}

/// Reported by [`ConstraintGraph::remove`] when the last handle of the list moved into the
/// removed one's position: the caller must store `new_slot` for `handle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    pub handle: u32,
    pub new_slot: Slot,
}

/// Which colours each class of constraint may use.
///
/// - `dynamic_colors`: constraints between two dynamic bodies search colours
///   `0..dynamic_colors` from the front.
/// - `static_floor`: constraints with one static body search from colour
///   `GRAPH_COLOR_COUNT - 1` down to `static_floor` (inclusive).
///
/// The default is `dynamic_colors = 24`, `static_floor = 1`. Every two-dynamic constraint may
/// use every colour, so none overflows earlier than it must. Static-attached constraints start
/// at the back, and stay out of colour 0, the largest colour, whose bundles are the fullest.
/// Measured on the pyramid scenes (the `coloring` benchmark prints the occupancy for this and
/// two alternatives), neither bound binds: box-box contacts fill colours 0..6 and the ground
/// contacts colour 23 whichever policy is used. Box2D additionally keeps the last four colours
/// for static-attached constraints; here that is `dynamic_colors = 20`, available but not the
/// default, since it would overflow dense two-dynamic clusters four colours sooner for no
/// measured gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColoringPolicy {
    pub dynamic_colors: usize,
    pub static_floor: usize,
}

impl Default for ColoringPolicy {
    fn default() -> Self {
        ColoringPolicy {
            dynamic_colors: GRAPH_COLOR_COUNT,
            static_floor: 1,
        }
    }
}

/// A set of constraints that share no dynamic body (or, for the overflow set, any constraints).
#[derive(Clone, Debug, Default)]
pub(crate) struct Color {
    /// The dynamic bodies this colour's constraints hold (unused by the overflow set).
    pub(crate) bodies: BitSet,
    /// Handles, one list per [`ConstraintKind`].
    pub(crate) handles: [Vec<u32>; 2],
}

impl Color {
    fn is_empty(&self) -> bool {
        self.handles.iter().all(Vec::is_empty)
    }
}

/// The persistent colouring of all touching constraints between awake bodies.
#[derive(Clone, Debug)]
pub struct ConstraintGraph {
    /// `GRAPH_COLOR_COUNT` colours followed by the overflow set.
    pub(crate) colors: Vec<Color>,
    policy: ColoringPolicy,
    force_overflow: bool,
}

impl Default for ConstraintGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl ConstraintGraph {
    /// An empty graph with the default [`ColoringPolicy`].
    pub fn new() -> Self {
        Self::with_policy(ColoringPolicy::default())
    }

    /// An empty graph with the given policy (bounds are clamped to the colour count).
    pub fn with_policy(policy: ColoringPolicy) -> Self {
        let policy = ColoringPolicy {
            dynamic_colors: policy.dynamic_colors.min(GRAPH_COLOR_COUNT),
            static_floor: policy.static_floor.min(GRAPH_COLOR_COUNT),
        };
        ConstraintGraph {
            colors: vec![Color::default(); GRAPH_COLOR_COUNT + 1],
            policy,
            force_overflow: false,
        }
    }

    pub fn policy(&self) -> ColoringPolicy {
        self.policy
    }

    /// When set, constraints added from now on go to the overflow set (the scalar solver
    /// path), which is the reference the wide path is compared against. Constraints already
    /// placed keep their slots.
    pub fn set_force_overflow(&mut self, force: bool) {
        self.force_overflow = force;
    }

    pub fn force_overflow(&self) -> bool {
        self.force_overflow
    }

    /// Places constraint `handle` of `kind` between `a` and `b` and returns where it is stored.
    /// The caller keeps the slot and passes it (with the same endpoints) to [`Self::remove`].
    pub fn add(&mut self, kind: ConstraintKind, handle: u32, a: Endpoint, b: Endpoint) -> Slot {
        let color = self.choose_color(a, b);
        let target = &mut self.colors[color.index()];
        if !color.is_overflow() {
            for end in [a, b].into_iter().filter(|e| e.dynamic) {
                target.bodies.set(end.body as usize);
            }
        }
        let list = &mut target.handles[kind.list_index()];
        let index = u32::try_from(list.len()).expect("more than u32::MAX constraints in a colour");
        list.push(handle);
        Slot { color, index }
    }

    /// Removes constraint `handle` stored at `slot` (as returned by [`Self::add`] or a later
    /// [`Moved`]), with the endpoints it was added with. If another handle moved into its
    /// position, returns it with its new slot.
    pub fn remove(
        &mut self,
        kind: ConstraintKind,
        handle: u32,
        slot: Slot,
        a: Endpoint,
        b: Endpoint,
    ) -> Option<Moved> {
        let source = &mut self.colors[slot.color.index()];
        if !slot.color.is_overflow() {
            for end in [a, b].into_iter().filter(|e| e.dynamic) {
                debug_assert!(
                    source.bodies.get(end.body as usize),
                    "body {} not in colour",
                    end.body
                );
                source.bodies.unset(end.body as usize);
            }
        }
        let list = &mut source.handles[kind.list_index()];
        let index = slot.index as usize;
        debug_assert_eq!(
            list.get(index),
            Some(&handle),
            "handle {handle} is not at {slot:?}"
        );
        list.swap_remove(index);
        list.get(index).map(|&moved| Moved {
            handle: moved,
            new_slot: slot,
        })
    }

    /// The handles of `kind` stored in `color` (which may be [`ColorIndex::OVERFLOW`]).
    pub fn handles(&self, kind: ConstraintKind, color: ColorIndex) -> &[u32] {
        &self.colors[color.index()].handles[kind.list_index()]
    }

    /// The contact handles of colour `color`.
    pub fn contacts(&self, color: ColorIndex) -> &[u32] {
        self.handles(ConstraintKind::Contact, color)
    }

    /// The joint handles of colour `color`.
    pub fn joints(&self, color: ColorIndex) -> &[u32] {
        self.handles(ConstraintKind::Joint, color)
    }

    /// The contact handles that found no colour.
    pub fn overflow_contacts(&self) -> &[u32] {
        self.contacts(ColorIndex::OVERFLOW)
    }

    /// The joint handles that found no colour.
    pub fn overflow_joints(&self) -> &[u32] {
        self.joints(ColorIndex::OVERFLOW)
    }

    /// How many constraints of `kind` each colour holds (the overflow set not included).
    pub fn occupancy(&self, kind: ConstraintKind) -> [usize; GRAPH_COLOR_COUNT] {
        std::array::from_fn(|c| self.colors[c].handles[kind.list_index()].len())
    }

    /// The number of colours (not counting overflow) that hold at least one constraint.
    pub fn colors_in_use(&self) -> usize {
        self.colors[..GRAPH_COLOR_COUNT]
            .iter()
            .filter(|c| !c.is_empty())
            .count()
    }

    /// The total number of constraints of `kind`, overflow included.
    pub fn len(&self, kind: ConstraintKind) -> usize {
        self.colors
            .iter()
            .map(|c| c.handles[kind.list_index()].len())
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.colors.iter().all(Color::is_empty)
    }

    /// Removes every constraint, keeping allocations.
    pub fn clear(&mut self) {
        for color in &mut self.colors {
            color.bodies.clear();
            color.handles.iter_mut().for_each(Vec::clear);
        }
    }

    pub(crate) fn kinds() -> [ConstraintKind; 2] {
        ConstraintKind::ALL
    }

    pub(crate) fn list_of(kind: ConstraintKind) -> usize {
        kind.list_index()
    }

    /// The colour a new constraint between `a` and `b` goes to, per the policy.
    fn choose_color(&self, a: Endpoint, b: Endpoint) -> ColorIndex {
        if self.force_overflow {
            return ColorIndex::OVERFLOW;
        }
        let found = match (a.dynamic, b.dynamic) {
            (true, true) if a.body == b.body => {
                debug_assert!(false, "constraint between body {} and itself", a.body);
                None
            }
            (true, true) => self.first_free_from_front(a.body, b.body),
            (true, false) => self.last_free_from_back(a.body),
            (false, true) => self.last_free_from_back(b.body),
            (false, false) => {
                debug_assert!(false, "constraint between two non-dynamic bodies");
                None
            }
        };
        found.map_or(ColorIndex::OVERFLOW, |c| ColorIndex(c as u8))
    }

    fn first_free_from_front(&self, body_a: u32, body_b: u32) -> Option<usize> {
        let (a, b) = (body_a as usize, body_b as usize);
        (0..self.policy.dynamic_colors)
            .find(|&c| !self.colors[c].bodies.get(a) && !self.colors[c].bodies.get(b))
    }

    fn last_free_from_back(&self, body: u32) -> Option<usize> {
        let body = body as usize;
        (self.policy.static_floor..GRAPH_COLOR_COUNT)
            .rev()
            .find(|&c| !self.colors[c].bodies.get(body))
    }
}
