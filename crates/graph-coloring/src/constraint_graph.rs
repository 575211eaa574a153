//! The constraint graph: [`GRAPH_COLOR_COUNT`] colours plus an overflow set.
//!
//! Each colour is a body bitset and two dense lists: the caller's contact records and joint
//! records (of types `C` and `J`; plain `u32` handles in the simplest use). Adding a constraint
//! picks a colour by the policy described in the crate docs, sets the bits of its dynamic
//! bodies and pushes its record; removing clears the bits and swap-removes the record, so the
//! record that was last in the list moves into the removed one's position and the caller must
//! update the [`Slot`] it keeps for it. Both are O(1) apart from the colour search, which is at
//! most [`GRAPH_COLOR_COUNT`] bit tests per body. The records live in the colours, so a solver
//! can read and write a colour's constraints in place.

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
    /// A contact constraint between two shapes' bodies.
    Contact,
    /// A joint between two bodies.
    Joint,
}

/// One end of a constraint: the body's stable index and whether the solver may move it.
/// Static and kinematic bodies are `dynamic: false`; they take no bit in any colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The body's index in the caller's body numbering (stable while it is in the graph).
    pub body: u32,
    /// Whether the body is dynamic: only dynamic bodies take a bit in a colour's body set.
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

    /// Whether this is the overflow set rather than a colour.
    pub const fn is_overflow(self) -> bool {
        self.0 as usize == GRAPH_COLOR_COUNT
    }
}

/// Where a handle is stored: its colour and its position in that colour's list of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The colour (or the overflow set) holding the handle.
    pub color: ColorIndex,
    /// The handle's position in that colour's list of its kind.
    pub index: u32,
}

/// Reported by [`ConstraintGraph::remove`] when the last handle of the list moved into the
/// removed one's position: the caller must store `new_slot` for `handle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The handle that moved (the last of its list before the removal).
    pub handle: u32,
    /// Where it is now: the removed handle's old slot.
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
    /// Colours `0..dynamic_colors` are open to constraints between two dynamic bodies (values
    /// above [`GRAPH_COLOR_COUNT`] count as [`GRAPH_COLOR_COUNT`]; 0 sends them all to the
    /// overflow set).
    pub dynamic_colors: usize,
    /// The lowest colour a constraint with a static body may take; such constraints search
    /// downwards from the last colour (values above [`GRAPH_COLOR_COUNT`] count as it).
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
#[derive(Clone, Debug)]
pub(crate) struct Color<C, J> {
    /// The dynamic bodies this colour's constraints hold (unused by the overflow set).
    pub(crate) bodies: BitSet,
    pub(crate) contacts: Vec<C>,
    pub(crate) joints: Vec<J>,
}

impl<C, J> Default for Color<C, J> {
    fn default() -> Self {
        Color {
            bodies: BitSet::default(),
            contacts: Vec::new(),
            joints: Vec::new(),
        }
    }
}

impl<C, J> Color<C, J> {
    fn is_empty(&self) -> bool {
        self.contacts.is_empty() && self.joints.is_empty()
    }

    fn len(&self, kind: ConstraintKind) -> usize {
        match kind {
            ConstraintKind::Contact => self.contacts.len(),
            ConstraintKind::Joint => self.joints.len(),
        }
    }
}

/// The persistent colouring of all touching constraints between awake bodies, holding their
/// contact records `C` and joint records `J`.
#[derive(Clone, Debug)]
pub struct ConstraintGraph<C = u32, J = u32> {
    /// `GRAPH_COLOR_COUNT` colours followed by the overflow set.
    pub(crate) colors: Vec<Color<C, J>>,
    pub(crate) policy: ColoringPolicy,
    pub(crate) force_overflow: bool,
}

impl<C, J> Default for ConstraintGraph<C, J> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C, J> ConstraintGraph<C, J> {
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
            colors: (0..=GRAPH_COLOR_COUNT).map(|_| Color::default()).collect(),
            policy,
            force_overflow: false,
        }
    }

    /// The colouring policy the graph was created with.
    pub fn policy(&self) -> ColoringPolicy {
        self.policy
    }

    /// When set, constraints added from now on go to the overflow set (the scalar solver
    /// path), which is the reference the wide path is compared against. Constraints already
    /// placed keep their slots.
    pub fn set_force_overflow(&mut self, force: bool) {
        self.force_overflow = force;
    }

    /// Whether new constraints are sent to the overflow set (see [`Self::set_force_overflow`]).
    pub fn force_overflow(&self) -> bool {
        self.force_overflow
    }

    /// Places contact record `contact` between `a` and `b` and returns where it is stored.
    /// The caller keeps the slot and passes it (with the same endpoints) to
    /// [`Self::remove_contact`].
    pub fn add_contact(&mut self, contact: C, a: Endpoint, b: Endpoint) -> Slot {
        let color = self.place(a, b);
        let list = &mut self.colors[color.index()].contacts;
        list.push(contact);
        Slot {
            color,
            index: last_index(list.len()),
        }
    }

    /// Places joint record `joint` between `a` and `b` (see [`Self::add_contact`]).
    pub fn add_joint(&mut self, joint: J, a: Endpoint, b: Endpoint) -> Slot {
        let color = self.place(a, b);
        let list = &mut self.colors[color.index()].joints;
        list.push(joint);
        Slot {
            color,
            index: last_index(list.len()),
        }
    }

    /// Removes and returns the contact record at `slot`, added with the endpoints `a` and `b`.
    /// The colour's last record moves into its position (unless it was the last): the caller
    /// must update the slot it keeps for that one.
    pub fn remove_contact(&mut self, slot: Slot, a: Endpoint, b: Endpoint) -> C {
        self.release(slot.color, a, b);
        self.colors[slot.color.index()]
            .contacts
            .swap_remove(slot.index as usize)
    }

    /// Removes and returns the joint record at `slot` (see [`Self::remove_contact`]).
    pub fn remove_joint(&mut self, slot: Slot, a: Endpoint, b: Endpoint) -> J {
        self.release(slot.color, a, b);
        self.colors[slot.color.index()]
            .joints
            .swap_remove(slot.index as usize)
    }

    /// The contact records of `color` (which may be [`ColorIndex::OVERFLOW`]).
    pub fn contacts(&self, color: ColorIndex) -> &[C] {
        &self.colors[color.index()].contacts
    }

    /// The contact records of `color`, for writing.
    pub fn contacts_mut(&mut self, color: ColorIndex) -> &mut [C] {
        &mut self.colors[color.index()].contacts
    }

    /// The joint records of `color`.
    pub fn joints(&self, color: ColorIndex) -> &[J] {
        &self.colors[color.index()].joints
    }

    /// The joint records of `color`, for writing.
    pub fn joints_mut(&mut self, color: ColorIndex) -> &mut [J] {
        &mut self.colors[color.index()].joints
    }

    /// Every colour's contact and joint records for writing at once, colours in order and the
    /// overflow set last.
    pub fn colors_mut(&mut self) -> impl Iterator<Item = (&mut Vec<C>, &mut Vec<J>)> {
        self.colors
            .iter_mut()
            .map(|color| (&mut color.contacts, &mut color.joints))
    }

    /// The contact records that found no colour.
    pub fn overflow_contacts(&self) -> &[C] {
        self.contacts(ColorIndex::OVERFLOW)
    }

    /// The joint records that found no colour.
    pub fn overflow_joints(&self) -> &[J] {
        self.joints(ColorIndex::OVERFLOW)
    }

    /// How many constraints of `kind` each colour holds (the overflow set not included).
    pub fn occupancy(&self, kind: ConstraintKind) -> [usize; GRAPH_COLOR_COUNT] {
        std::array::from_fn(|c| self.colors[c].len(kind))
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
        self.colors.iter().map(|c| c.len(kind)).sum()
    }

    /// Whether no colour and not the overflow set holds any constraint of either kind.
    pub fn is_empty(&self) -> bool {
        self.colors.iter().all(Color::is_empty)
    }

    /// Removes every constraint, keeping allocations.
    pub fn clear(&mut self) {
        for color in &mut self.colors {
            color.bodies.clear();
            color.contacts.clear();
            color.joints.clear();
        }
    }

    /// Chooses the colour of a new constraint between `a` and `b` and takes its bodies' bits.
    fn place(&mut self, a: Endpoint, b: Endpoint) -> ColorIndex {
        let color = self.choose_color(a, b);
        if !color.is_overflow() {
            let bodies = &mut self.colors[color.index()].bodies;
            for end in [a, b].into_iter().filter(|e| e.dynamic) {
                bodies.set(end.body as usize);
            }
        }
        color
    }

    /// Gives back the bits of a constraint between `a` and `b` leaving `color`.
    fn release(&mut self, color: ColorIndex, a: Endpoint, b: Endpoint) {
        if color.is_overflow() {
            return;
        }
        let bodies = &mut self.colors[color.index()].bodies;
        for end in [a, b].into_iter().filter(|e| e.dynamic) {
            debug_assert!(
                bodies.get(end.body as usize),
                "body {} not in colour",
                end.body
            );
            bodies.unset(end.body as usize);
        }
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

/// The position of the last of `len` records, as a slot index.
fn last_index(len: usize) -> u32 {
    u32::try_from(len - 1).expect("more than u32::MAX constraints in a colour")
}

/// The graph of plain handles: each constraint is its caller's `u32` index, and removal reports
/// which handle moved ([`Moved`]).
impl ConstraintGraph<u32, u32> {
    /// Places constraint `handle` of `kind` between `a` and `b`.
    pub fn add(&mut self, kind: ConstraintKind, handle: u32, a: Endpoint, b: Endpoint) -> Slot {
        match kind {
            ConstraintKind::Contact => self.add_contact(handle, a, b),
            ConstraintKind::Joint => self.add_joint(handle, a, b),
        }
    }

    /// Removes constraint `handle` stored at `slot` with the endpoints it was added with. If
    /// another handle moved into its position, returns it with its new slot.
    pub fn remove(
        &mut self,
        kind: ConstraintKind,
        handle: u32,
        slot: Slot,
        a: Endpoint,
        b: Endpoint,
    ) -> Option<Moved> {
        debug_assert_eq!(
            self.handles(kind, slot.color).get(slot.index as usize),
            Some(&handle),
            "handle {handle} is not at {slot:?}"
        );
        match kind {
            ConstraintKind::Contact => self.remove_contact(slot, a, b),
            ConstraintKind::Joint => self.remove_joint(slot, a, b),
        };
        let list = self.handles(kind, slot.color);
        list.get(slot.index as usize).map(|&moved| Moved {
            handle: moved,
            new_slot: slot,
        })
    }

    /// The handles of `kind` stored in `color`.
    pub fn handles(&self, kind: ConstraintKind, color: ColorIndex) -> &[u32] {
        match kind {
            ConstraintKind::Contact => self.contacts(color),
            ConstraintKind::Joint => self.joints(color),
        }
    }
}
