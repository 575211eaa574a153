//! The broadphase: which shape pairs might touch.
//!
//! Two dynamic AABB trees hold one proxy per shape: the *static* tree (shapes of static bodies,
//! margin 0: they never move, so their boxes need no slack) and the *moving* tree (dynamic and
//! kinematic bodies, margin [`fat_margin`]: a shape may drift up to 5 cm before its proxy
//! must be re-inserted). Each proxy's user data is its shape's arena index. A third tree, the
//! *sleeping* tree, holds the proxies of sleeping bodies, moved there and back when their island
//! sleeps and wakes (`solver_set.rs`), so that the moving tree stays as small as the awake
//! world; it is queried wherever the moving tree is.
//!
//! A moving proxy's box is not its shape's tight box but its *reach* ([`proxy_box`]): the tight
//! box grown by the speculative distance, the gap at which the narrowphase starts reporting
//! speculative points. The fat box holds the reach with a margin to spare, and a proxy is
//! re-inserted when its reach leaves it, so two shapes closer than the speculative distance
//! always have overlapping fat boxes, and their contact exists before they can touch, however
//! their boxes sit inside their fat boxes.
//!
//! The margin trades pairs for re-insertions, and the right trade depends on the shape's size:
//! a fixed margin that is small for a 1 m box is large for a 0.25 m one, whose fat box then
//! overlaps many neighbours it cannot reach within a step. So the margin is an eighth of the
//! shape's radius, capped at 5 cm — Box2D v3's rule, which keeps the contact counts of every
//! scene with Box2D's (the counts the pair search and the narrowphase pay for). With the cap at
//! 10 cm, scenes of large moving shapes kept 10 % more pairs than Box2D (compounds 29,340
//! against 26,717; 26,425 with 5 cm). Growing a re-inserted box along the body's motion
//! (several steps of its displacement, as Box2D v2 did) was tried and dropped: fast bodies
//! then drag huge boxes through everything (the spinner scene went from 22,887 contacts to
//! 259,199).
//!
//! Only proxies that were created or re-inserted can start new overlaps, so those go in the
//! *move buffer*, and the pair update queries only them:
//!
//! ```text
//!   for each moved proxy P (in buffer order):
//!       query the moving and sleeping trees with P's fat box   (every P)
//!       query the static tree with P's fat box        (only if P is not static)
//!       keep a hit Q unless: Q is P; Q also moved and has the lower index (the pair is found
//!       from Q's side); same body; no dynamic body; filters refuse; pair already has a contact;
//!       either is a sensor (sensors make no contacts: `sensor.rs`); the custom filter refuses
//!       (`hooks.rs`, only if either shape asked for it)
//!   sort the kept pairs, drop duplicates; the next phase creates their contacts in that
//!   order, beside the moving tree's rebuild (`narrowphase.rs`)
//! ```
//!
//! **When most proxies moved, the moving tree is walked against itself.** In a scene where
//! nearly everything moves (debris in a spinning drum, a pile being smashed) the move buffer
//! holds most of the moving tree, and the queries above walk the top of the tree once per
//! proxy and meet every pair of two moved proxies twice. So once the moved proxies of the
//! moving tree whose masks accept its categories number at least [`WALK_MIN_MOVED`] of the
//! tree's proxy count (estimated from a sample of the buffer), the moving-tree part of the
//! search is one walk of the tree against itself (`collision::tree`'s `self_overlap`), which
//! meets each overlapping pair of proxies once and shares the walk above them; a pair is kept
//! if one of its proxies moved and it passes the tests above with that proxy as the query.
//! The moved proxies still query the sleeping and static trees, and moved proxies of the other
//! trees still query the moving tree. The pairs are the same either way (the sort below
//! removes any order), so the choice is only about speed (one thread, interleaved runs: the
//! pair phase of spinner 3.95 → 2.20 ms/step, smash 2.73 → 1.58, tumbler 0.94 → 0.45).
//!
//! The queries only read the trees, so with several workers the move buffer is cut into fixed
//! chunks of [`QUERY_CHUNK`] proxies queried in parallel, each chunk into its own list; the lists
//! are concatenated in chunk order; the walk is cut into [`WALK_TASKS`] pieces run the same way,
//! beside the queries (one `join`). With one worker the whole buffer is one chunk and the walk one
//! piece, on the caller's thread, with no task machinery at all. Sorting then makes contact
//! creation order — and so contact ids, graph colours and solver order — independent of tree
//! layout, hash order and how the queries were split among threads. The *pair set* (a hash set of
//! 64-bit pair keys) answers "does this pair already have a contact?"; it is only ever probed,
//! never iterated.

use crate::body::Body;
use crate::contact::pair_key;
use crate::def::Filter;
use crate::hooks::{CustomFilterFn, custom_filter_accepts};
use crate::profile::zone;
use crate::shape::ShapeRecord;
use crate::world::World;
use collision::geometry::{shape_centroid, shape_extent};
use collision::tree::{DynamicTree, OverlapTask};
use collision::{Aabb, SPECULATIVE_DISTANCE, Shape};
use core_soa::{Arena, BitSet, BodyId, BodyType, ShapeId};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The most a moving proxy's fat box extends beyond the shape's reach ([`proxy_box`]), in
/// metres: the margin of shapes of 0.4 m radius and larger ([`fat_margin`]).
pub(crate) const FAT_MARGIN: f32 = 0.05;

/// A smaller shape's margin per metre of its radius (its farthest point from its centroid).
pub(crate) const FAT_MARGIN_PER_RADIUS: f32 = 0.125;

/// The slack around `geometry`'s reach in a tree of kind `kind`: none in the static tree (a
/// static shape does not move), else [`FAT_MARGIN_PER_RADIUS`] of its radius, at most
/// [`FAT_MARGIN`]. Scaled so a small shape, which a given margin lets overlap many more
/// neighbours' fat boxes relative to its size, is not paired with all of them (see the module
/// notes).
pub(crate) fn fat_margin(kind: TreeKind, geometry: &Shape) -> f32 {
    match kind {
        TreeKind::Static => 0.0,
        TreeKind::Moving | TreeKind::Sleeping => {
            let radius = shape_extent(geometry, shape_centroid(geometry));
            FAT_MARGIN.min(FAT_MARGIN_PER_RADIUS * radius)
        }
    }
}

/// The box a proxy in a tree of kind `kind` stands for, given its shape's tight box: the tight
/// box itself in the static tree, the tight box grown by the speculative distance (the shape's
/// reach) in the moving and sleeping trees (see the module notes).
#[inline]
pub(crate) fn proxy_box(kind: TreeKind, tight: Aabb) -> Aabb {
    match kind {
        TreeKind::Static => tight,
        TreeKind::Moving | TreeKind::Sleeping => tight.fattened(SPECULATIVE_DISTANCE),
    }
}

/// Hashes a pair key for the pair set with one multiply and a rotation. Multiplying by the
/// golden-ratio constant (Fibonacci hashing) mixes every key bit into the *high* bits of the
/// product, while its low bits depend only on the key's low bits — the higher shape index of
/// the pair; the table picks buckets by the low bits, so the result is rotated to bring the
/// well-mixed high bits down (as `rustc-hash` does). The pair
/// set is probed for every overlap a query finds, so the default SipHash — built to resist
/// adversarial keys, which shape indices are not — was a measurable part of the pair search.
/// The set is never iterated, so the hash cannot affect any order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher {
    hash: u64,
}

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.hash = (self.hash ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Builds [`PairHasher`]s for the pair set.
pub(crate) type BuildPairHasher = BuildHasherDefault<PairHasher>;

/// Moved proxies per parallel query task: a task is a few tree queries, so it must be large
/// enough that scheduling it costs less than the queries, and small enough that a burst of
/// moved proxies (an explosion, a smash) spreads over every worker.
const QUERY_CHUNK: usize = 32;

/// The pair search walks the moving tree against itself once its moved proxies that can pair
/// within it number at least this part of its proxy count (`(part, whole)`): see the module
/// notes.
const WALK_MIN_MOVED: (usize, usize) = (1, 2);

/// How many entries of the move buffer [`BroadPhase::walks_moving_tree`] looks at.
const WALK_SAMPLE: usize = 64;

/// A moving tree of fewer proxies is always searched by queries (a walk's set-up is not worth
/// it for a handful of proxies).
const WALK_MIN_PROXIES: usize = 64;

/// Pieces the walk is cut into for the workers. The breadth-first cut leaves pieces of very
/// different sizes, so there must be many more than workers: cut into 64, one piece of
/// spinner's walk held most of the work and the second worker sat idle (two threads, pair
/// phase 1.45 ms/step against 1.14 with 512 pieces).
const WALK_TASKS: usize = 512;

/// Which tree a proxy lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TreeKind {
    Static,
    Moving,
    /// Shapes of sleeping bodies (see `solver_set.rs`): never moved, so awake proxies' inserts
    /// and removals do not pay for their depth; moved proxies query it like the moving tree.
    Sleeping,
}

/// The three trees, the move buffer and the set of pairs that have a contact.
#[derive(Clone, Debug)]
pub(crate) struct BroadPhase {
    pub(crate) static_tree: DynamicTree,
    pub(crate) moving_tree: DynamicTree,
    pub(crate) sleeping_tree: DynamicTree,
    /// Shape indices whose proxies were created or re-inserted since the last pair update.
    move_buffer: Vec<u32>,
    /// Membership of `move_buffer`, by shape index.
    moved: BitSet,
    /// Shape indices whose fat box changed since the last narrowphase (see
    /// [`BroadPhase::fat_box_changed`]), and their membership.
    fat_box_changes: Vec<u32>,
    fat_box_changed: BitSet,
    /// Keys ([`pair_key`]) of the shape pairs that have a contact.
    pub(crate) pair_set: HashSet<u64, BuildPairHasher>,
}

/// The broadphase's records of moved proxies and changed fat boxes, borrowed apart from its
/// trees ([`BroadPhase::split_moving_tree`]).
pub(crate) struct MoveRecords<'b> {
    move_buffer: &'b mut Vec<u32>,
    moved: &'b mut BitSet,
    fat_box_changes: &'b mut Vec<u32>,
    fat_box_changed: &'b mut BitSet,
}

impl MoveRecords<'_> {
    /// [`BroadPhase::buffer_move`].
    pub(crate) fn buffer_move(&mut self, shape_index: u32) {
        if !self.moved.get(shape_index as usize) {
            self.moved.set(shape_index as usize);
            self.move_buffer.push(shape_index);
        }
        self.note_fat_box_change(shape_index);
    }

    /// [`BroadPhase::note_fat_box_change`].
    fn note_fat_box_change(&mut self, shape_index: u32) {
        if !self.fat_box_changed.get(shape_index as usize) {
            self.fat_box_changed.set(shape_index as usize);
            self.fat_box_changes.push(shape_index);
        }
    }
}

/// The category mask a moved proxy queries the trees with. A tree node keeps the union of its
/// subtree's category bits, so a query skips every subtree none of whose shapes the moved
/// shape's mask accepts: a whole layer of shapes that never collide with each other (the
/// circles of a joint grid, debris in its own category) costs one root test instead of a walk.
/// The skip must never drop a pair the filter would keep. A pair with the same *positive*
/// group index collides whatever its masks say, so a shape with a positive group queries with
/// every bit; any other pair collides only if `mask_a & category_b != 0` (a pair in the same
/// negative group never collides), which is exactly what the pruning tests.
pub(crate) fn query_mask(filter: &Filter) -> u64 {
    if filter.group_index > 0 {
        u64::MAX
    } else {
        filter.mask_bits
    }
}

impl BroadPhase {
    pub(crate) fn new() -> BroadPhase {
        BroadPhase {
            static_tree: DynamicTree::new(0.0),
            // Every moving or sleeping proxy is created and moved with its own `fat_margin`;
            // the trees' own margin is only the cap, never applied.
            moving_tree: DynamicTree::new(FAT_MARGIN),
            sleeping_tree: DynamicTree::new(FAT_MARGIN),
            move_buffer: Vec::new(),
            moved: BitSet::new(),
            fat_box_changes: Vec::new(),
            fat_box_changed: BitSet::new(),
            pair_set: HashSet::default(),
        }
    }

    pub(crate) fn tree(&self, kind: TreeKind) -> &DynamicTree {
        match kind {
            TreeKind::Static => &self.static_tree,
            TreeKind::Moving => &self.moving_tree,
            TreeKind::Sleeping => &self.sleeping_tree,
        }
    }

    pub(crate) fn tree_mut(&mut self, kind: TreeKind) -> &mut DynamicTree {
        match kind {
            TreeKind::Static => &mut self.static_tree,
            TreeKind::Moving => &mut self.moving_tree,
            TreeKind::Sleeping => &mut self.sleeping_tree,
        }
    }

    /// Creates a proxy for shape `shape_index` and buffers it for the next pair update.
    pub(crate) fn create_proxy(
        &mut self,
        kind: TreeKind,
        aabb: Aabb,
        margin: f32,
        category_bits: u64,
        shape_index: u32,
    ) -> u32 {
        let proxy = self.tree_mut(kind).create_proxy_with_margin(
            aabb,
            margin,
            category_bits,
            u64::from(shape_index),
        );
        self.buffer_move(shape_index);
        proxy
    }

    /// Destroys a proxy and takes its shape out of the move buffer.
    pub(crate) fn destroy_proxy(&mut self, kind: TreeKind, proxy: u32, shape_index: u32) {
        self.tree_mut(kind).destroy_proxy(proxy);
        if self.is_moved(shape_index) {
            self.moved.unset(shape_index as usize);
            self.move_buffer.retain(|&s| s != shape_index);
        }
    }

    /// Adds a shape to the move buffer (once). A proxy is buffered when it was created or
    /// re-inserted, that is when its fat box changed, so this also notes that change.
    pub(crate) fn buffer_move(&mut self, shape_index: u32) {
        self.split_moving_tree().1.buffer_move(shape_index);
    }

    /// Records that shape `shape_index`'s fat box changed (every write of a shape's
    /// `fat_aabb` goes through here, directly or by [`BroadPhase::buffer_move`]).
    pub(crate) fn note_fat_box_change(&mut self, shape_index: u32) {
        self.split_moving_tree().1.note_fat_box_change(shape_index);
    }

    /// The moving tree and the move records apart, so that the finalize can move leaves and
    /// buffer the moves at the same time, on two workers.
    pub(crate) fn split_moving_tree(&mut self) -> (&mut DynamicTree, MoveRecords<'_>) {
        let records = MoveRecords {
            move_buffer: &mut self.move_buffer,
            moved: &mut self.moved,
            fat_box_changes: &mut self.fat_box_changes,
            fat_box_changed: &mut self.fat_box_changed,
        };
        (&mut self.moving_tree, records)
    }

    /// Whether shape `shape_index`'s fat box may have changed since the last narrowphase.
    ///
    /// The narrowphase destroys a contact whose shapes' fat boxes stopped overlapping. The
    /// overlap is a function of the two fat boxes only, so a contact that passed the test in
    /// the last narrowphase and whose two fat boxes have not changed since passes it again:
    /// in a resting scene almost every contact can skip reading its shapes' records.
    #[inline]
    pub(crate) fn fat_box_changed(&self, shape_index: u32) -> bool {
        self.fat_box_changed.get(shape_index as usize)
    }

    /// Forgets the recorded changes: called when the narrowphase has seen them.
    pub(crate) fn clear_fat_box_changes(&mut self) {
        for &shape_index in &self.fat_box_changes {
            self.fat_box_changed.unset(shape_index as usize);
        }
        self.fat_box_changes.clear();
    }

    /// Whether shape `shape_index`'s proxy is in the move buffer.
    pub(crate) fn is_moved(&self, shape_index: u32) -> bool {
        self.moved.get(shape_index as usize)
    }

    /// The new pairs `(lower shape index, higher shape index)` the moved proxies overlap, sorted,
    /// without duplicates, filtered (see the module notes). Empties the move buffer. With
    /// `parallel`, the moved proxies are queried across the caller's workers; the sort makes
    /// the result independent of how the work was split.
    pub(crate) fn find_new_pairs(
        &mut self,
        shapes: &Arena<ShapeRecord, ShapeId>,
        bodies: &Arena<Body, BodyId>,
        parallel: bool,
        custom_filter: Option<&CustomFilterFn>,
    ) -> Vec<(u32, u32)> {
        let walk = self.walks_moving_tree(shapes);
        self.search_pairs((shapes, bodies, custom_filter), parallel, walk)
    }

    /// [`BroadPhase::find_new_pairs`] with the moving tree's pairs found by the walk (`walk`)
    /// or by the moved proxies' queries.
    fn search_pairs(
        &mut self,
        context: PairContext<'_>,
        parallel: bool,
        walk: bool,
    ) -> Vec<(u32, u32)> {
        let query = |moved: &[u32]| {
            zone!("pairs chunk");
            let mut pairs = Vec::new();
            for &shape_index in moved {
                self.pairs_of(shape_index, context, walk, &mut pairs);
            }
            pairs
        };
        let walked = || {
            if walk {
                self.moving_tree_pairs(context, parallel)
            } else {
                Vec::new()
            }
        };
        // With several workers, the queries and the walk share them (one fork and join for both).
        let (mut pairs, walked): (Vec<(u32, u32)>, _) = if parallel {
            let queried = || {
                let chunks: Vec<&[u32]> = self.move_buffer.chunks(QUERY_CHUNK).collect();
                let found = workers::map(chunks.len(), |chunk| query(chunks[chunk]));
                found.into_iter().flatten().collect()
            };
            workers::join(queried, walked)
        } else {
            (query(&self.move_buffer), walked())
        };
        pairs.extend(walked);
        for &shape_index in &self.move_buffer {
            self.moved.unset(shape_index as usize);
        }
        self.move_buffer.clear();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// Whether the moving tree's new pairs are found by walking the tree against itself
    /// rather than by the moved proxies' queries of it (see the module notes): when the moved
    /// proxies of the moving tree that can pair with its proxies are at least
    /// [`WALK_MIN_MOVED`] of the tree's proxy count. Their share of the move buffer is taken
    /// from [`WALK_SAMPLE`] entries spread over it. Either way gives the same pairs; this only
    /// picks the cheaper search.
    fn walks_moving_tree(&self, shapes: &Arena<ShapeRecord, ShapeId>) -> bool {
        let (part, whole) = WALK_MIN_MOVED;
        let (proxies, moved) = (self.moving_tree.proxy_count(), self.move_buffer.len());
        if proxies < WALK_MIN_PROXIES || moved * whole < proxies * part {
            return false;
        }
        // A layer of shapes whose filters refuse each other (a joint grid's circles) is cut
        // off at the root by every query's mask, but not by the walk, which would meet all
        // its overlaps only to refuse them.
        let categories = self.moving_tree.categories();
        let stride = moved.div_ceil(WALK_SAMPLE);
        let sample = self.move_buffer.iter().step_by(stride);
        let (mut sampled, mut pairing) = (0, 0);
        for shape in sample.filter_map(|&index| shapes.get_by_index(index)) {
            sampled += 1;
            let in_tree = shape.tree == TreeKind::Moving;
            pairing += usize::from(in_tree && query_mask(&shape.filter) & categories != 0);
        }
        sampled > 0 && moved * pairing * whole >= proxies * sampled * part
    }

    /// Appends the new pairs of one moved proxy to `pairs`: a query of the moving and sleeping
    /// trees, and of the static tree too if the proxy is not itself static. With `walk`, a
    /// proxy of the moving tree does not query that tree: the walk finds those pairs.
    fn pairs_of(
        &self,
        query_index: u32,
        context: PairContext<'_>,
        walk: bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        let (shapes, bodies, _) = context;
        let Some(query_shape) = shapes.get_by_index(query_index).filter(|s| !s.is_sensor) else {
            return;
        };
        let query_dynamic = is_dynamic(bodies, query_shape.body);
        let mut visit = |_proxy: u32, user_data: u64| {
            let other_index = user_data as u32;
            let query = (query_index, query_shape, query_dynamic);
            if self.reports_pair(query, other_index, context) {
                pairs.push((query_index.min(other_index), query_index.max(other_index)));
            }
            true
        };
        let fat = query_shape.fat_aabb;
        let mask = query_mask(&query_shape.filter);
        if !(walk && query_shape.tree == TreeKind::Moving) {
            self.moving_tree.query(&fat, mask, &mut visit);
        }
        self.sleeping_tree.query(&fat, mask, &mut visit);
        if query_shape.tree != TreeKind::Static {
            self.static_tree.query(&fat, mask, &mut visit);
        }
    }

    /// The new pairs of two proxies of the moving tree, at least one of them moved, found by
    /// walking the tree against itself (`collision::tree`'s `self_overlap`), in pieces across
    /// the workers when `parallel`. Each overlapping pair is met once and kept by the same tests
    /// as a query's hit, with the moved one as the query.
    fn moving_tree_pairs(&self, context: PairContext<'_>, parallel: bool) -> Vec<(u32, u32)> {
        let tree = &self.moving_tree;
        let walk = |task: OverlapTask| {
            zone!("pairs walk");
            let mut pairs = Vec::new();
            tree.overlapping_leaves(task, |a, b| {
                if let Some(pair) = self.walked_pair(a as u32, b as u32, context) {
                    pairs.push(pair);
                }
            });
            pairs
        };
        if parallel {
            let tasks = tree.overlap_tasks(WALK_TASKS);
            let found = workers::map(tasks.len(), |task| walk(tasks[task]));
            found.into_iter().flatten().collect()
        } else {
            tree.overlap_tasks(1).into_iter().flat_map(walk).collect()
        }
    }

    /// The pair `(lower, higher)` of two overlapping moving proxies (shape indices `a`, `b`)
    /// if it is new: one of them moved and the pair passes a query's tests.
    fn walked_pair(&self, a: u32, b: u32, context: PairContext<'_>) -> Option<(u32, u32)> {
        let (query, other) = match (self.is_moved(a), self.is_moved(b)) {
            (false, false) => return None,
            (true, _) => (a, b),
            (false, true) => (b, a),
        };
        if self.pair_set.contains(&pair_key(query, other)) {
            return None;
        }
        let (shapes, bodies, _) = context;
        let query_shape = shapes.get_by_index(query).filter(|s| !s.is_sensor)?;
        let query_dynamic = is_dynamic(bodies, query_shape.body);
        self.admits_pair((query, query_shape, query_dynamic), other, context)
            .then_some((a.min(b), a.max(b)))
    }

    /// Whether the query of moved proxy `query` (its index, record and whether its body is
    /// dynamic) reports its overlap with `other_index`. The tests run from the cheapest: most
    /// overlaps a moved proxy finds already have a contact, and are dismissed by the pair set
    /// before either shape record or body is read.
    fn reports_pair(
        &self,
        query: (u32, &ShapeRecord, bool),
        other_index: u32,
        context: PairContext<'_>,
    ) -> bool {
        let query_index = query.0;
        // When both moved, only the query of the lower index reports the pair.
        if other_index == query_index || (other_index < query_index && self.is_moved(other_index)) {
            return false;
        }
        !self.pair_set.contains(&pair_key(query_index, other_index))
            && self.admits_pair(query, other_index, context)
    }

    /// The tests of a new pair that read the shapes and bodies: distinct bodies, no sensor,
    /// filters, a dynamic body, the custom filter.
    fn admits_pair(
        &self,
        (query_index, query_shape, query_dynamic): (u32, &ShapeRecord, bool),
        other_index: u32,
        (shapes, bodies, custom_filter): PairContext<'_>,
    ) -> bool {
        let Some(other) = shapes.get_by_index(other_index) else {
            return false;
        };
        query_shape.body != other.body
            && !other.is_sensor
            && query_shape.filter.should_collide(&other.filter)
            && (query_dynamic || is_dynamic(bodies, other.body))
            && {
                // The hook sees the pair as its contact would: lower shape index first.
                let (query, other) = ((query_index, query_shape), (other_index, other));
                let (a, b) = if query_index < other_index {
                    (query, other)
                } else {
                    (other, query)
                };
                custom_filter_accepts(custom_filter, shapes, a, b)
            }
    }

    /// The buffered proxies' shape indices (for validation).
    pub(crate) fn move_buffer(&self) -> &[u32] {
        &self.move_buffer
    }
}

/// What a pair query reads besides the trees: the shapes, the bodies and the custom filter.
type PairContext<'a> = (
    &'a Arena<ShapeRecord, ShapeId>,
    &'a Arena<Body, BodyId>,
    Option<&'a CustomFilterFn>,
);

/// Whether `body` is a live dynamic body.
fn is_dynamic(bodies: &Arena<Body, BodyId>, body: BodyId) -> bool {
    bodies
        .get(body)
        .is_some_and(|b| b.body_type == BodyType::Dynamic)
}

impl World {
    /// Step phase 1: the new overlapping pairs of the moved proxies, sorted (see the module
    /// notes); [`World::create_pair_contacts`] makes their contacts.
    pub(crate) fn find_new_pairs(&mut self) -> Vec<(u32, u32)> {
        zone!("pairs");
        let parallel = self.parallel_step;
        let custom_filter = self.hooks.custom_filter.as_deref();
        self.broadphase
            .find_new_pairs(&self.shapes, &self.bodies, parallel, custom_filter)
    }

    /// Creates the contacts of the new pairs `pairs`, in order. Bodies joined by a joint
    /// without `collide_connected` get no contact. Reads and writes no tree.
    pub(crate) fn create_pair_contacts(&mut self, pairs: Vec<(u32, u32)>) {
        zone!("create contacts");
        for (shape_a, shape_b) in pairs {
            if !self.joint_filters_shape_pair(shape_a, shape_b) {
                self.create_contact(shape_a, shape_b);
            }
        }
    }
}

/// Snapshot encoding (`snapshot.rs`): the three trees as they are, the move buffer and the
/// fat-box changes in order with their membership bits, and the pair set sorted (it is only
/// looked up, never iterated, so its hash layout is not state).
impl core_soa::snapshot::Snap for BroadPhase {
    fn put(&self, w: &mut core_soa::snapshot::Writer) {
        self.static_tree.put(w);
        self.moving_tree.put(w);
        self.sleeping_tree.put(w);
        self.move_buffer.put(w);
        self.moved.put(w);
        self.fat_box_changes.put(w);
        self.fat_box_changed.put(w);
        let mut pairs: Vec<u64> = self.pair_set.iter().copied().collect();
        pairs.sort_unstable();
        pairs.put(w);
    }
    fn get(
        r: &mut core_soa::snapshot::Reader<'_>,
    ) -> Result<Self, core_soa::snapshot::SnapshotError> {
        let mut broadphase = BroadPhase {
            static_tree: r.field("BroadPhase.static_tree")?,
            moving_tree: r.field("BroadPhase.moving_tree")?,
            sleeping_tree: r.field("BroadPhase.sleeping_tree")?,
            move_buffer: r.field("BroadPhase.move_buffer")?,
            moved: r.field("BroadPhase.moved")?,
            fat_box_changes: r.field("BroadPhase.fat_box_changes")?,
            fat_box_changed: r.field("BroadPhase.fat_box_changed")?,
            pair_set: HashSet::default(),
        };
        let pairs: Vec<u64> = r.field("BroadPhase.pair_set")?;
        if pairs.windows(2).any(|two| two[0] >= two[1]) {
            return Err(r.error("BroadPhase.pair_set", "pairs not sorted and distinct"));
        }
        broadphase.pair_set.extend(pairs);
        Ok(broadphase)
    }
}

impl BroadPhase {
    /// The buffered proxies' shape indices, and the shapes whose fat boxes changed, with
    /// their membership bits (for the structural checks).
    pub(crate) fn buffers(&self) -> [(&[u32], &BitSet); 2] {
        [
            (&self.move_buffer, &self.moved),
            (&self.fat_box_changes, &self.fat_box_changed),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDef, ShapeDef, Vec2, make_box};
    use collision::Circle;
    use std::sync::Arc;

    /// A crowd of 400 unit boxes and circles 1.5 m apart, thrown about in all directions at
    /// 5 m/s with zero gravity over a static floor, so they soon collide: some bodies carry two
    /// shapes (pairs on one body), some a sensor, some share a negative group (never collide),
    /// one is kinematic.
    fn crowd(workers: u32) -> World {
        let mut world = World::weightless(workers);
        let floor = world.create_body(&BodyDef::default()).unwrap();
        let slab = make_box(20.0, 0.5).unwrap();
        world
            .create_polygon_shape(floor, &ShapeDef::default(), &slab)
            .unwrap();
        for k in 0..400 {
            let at = Vec2::new((k % 20) as f32 * 1.5, 1.2 + (k / 20) as f32 * 1.5);
            let mut def = BodyDef::dynamic_at(at);
            let turn = k as f32 * 2.399;
            def.linear_velocity = Vec2::new(turn.cos(), turn.sin()) * 5.0;
            def.angular_velocity = (k % 7) as f32 - 3.0;
            if k == 210 {
                def.body_type = BodyType::Kinematic;
            }
            let body = world.create_body(&def).unwrap();
            let mut shape = ShapeDef::default();
            if k % 11 == 0 {
                shape.filter.group_index = -3;
            }
            if k % 2 == 0 {
                let square = make_box(0.5, 0.5).unwrap();
                world.create_polygon_shape(body, &shape, &square).unwrap();
            } else {
                let circle = Circle {
                    center: Vec2::ZERO,
                    radius: 0.5,
                };
                world.create_circle_shape(body, &shape, &circle).unwrap();
            }
            if k % 5 == 0 {
                let (small, offset) = (
                    Circle {
                        center: Vec2::new(0.3, 0.0),
                        radius: 0.3,
                    },
                    ShapeDef {
                        is_sensor: k % 10 == 0,
                        ..ShapeDef::default()
                    },
                );
                world.create_circle_shape(body, &offset, &small).unwrap();
            }
        }
        world
    }

    /// The pairs the next step's search would find, by the walk or by queries, on one thread
    /// or on the world's workers.
    fn next_pairs(world: &World, parallel: bool, walk: bool) -> Vec<(u32, u32)> {
        let mut broadphase = world.broadphase.clone();
        let context = (&world.shapes, &world.bodies, None);
        let threads = Arc::clone(&world.workers);
        threads.install(|| broadphase.search_pairs(context, parallel, walk))
    }

    #[test]
    fn walking_the_moving_tree_finds_the_pairs_the_queries_find() {
        let mut world = crowd(2);
        let (mut walked_steps, mut walked_pairs) = (0, 0);
        for _ in 0..30 {
            world.step(1.0 / 60.0, 4).unwrap();
            let by_queries = next_pairs(&world, false, false);
            assert_eq!(next_pairs(&world, false, true), by_queries);
            assert_eq!(next_pairs(&world, true, true), by_queries);
            assert_eq!(next_pairs(&world, true, false), by_queries);
            if world.broadphase.walks_moving_tree(&world.shapes) {
                walked_steps += 1;
                walked_pairs += by_queries.len();
            }
        }
        // The crowd scatters: most steps move half the proxies or more, and many find new
        // pairs.
        assert!(walked_steps >= 8, "{walked_steps} steps took the walk");
        assert!(
            walked_pairs >= 100,
            "{walked_pairs} new pairs in those steps"
        );
    }

    #[test]
    fn shapes_that_refuse_each_other_are_searched_by_queries() {
        // Everything moves, but every shape's mask refuses the one category they all have:
        // queries cut the layer off at the root, a walk would meet every overlap to refuse it.
        let mut world = crowd(1);
        world.step(1.0 / 60.0, 4).unwrap();
        assert!(world.broadphase.walks_moving_tree(&world.shapes));
        let shapes: Vec<ShapeId> = world.shapes.iter().map(|(id, _)| id).collect();
        for shape in shapes {
            let filter = Filter {
                category_bits: 2,
                mask_bits: !2,
                group_index: 0,
            };
            world.set_shape_filter(shape, filter).unwrap();
        }
        world.step(1.0 / 60.0, 4).unwrap();
        assert!(
            world.broadphase.move_buffer.len() * 2 >= world.broadphase.moving_tree.proxy_count()
        );
        assert!(!world.broadphase.walks_moving_tree(&world.shapes));
        assert_eq!(
            next_pairs(&world, false, true),
            next_pairs(&world, false, false)
        );
    }
}
