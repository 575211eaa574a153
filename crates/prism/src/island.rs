//! Islands: which dynamic bodies are coupled, so that they may sleep and wake together.
//!
//! An island is a connected component of the graph whose vertices are the dynamic bodies and
//! whose edges are the touching contacts and the joints between two dynamic bodies. Static and kinematic bodies are not vertices: a box resting on the ground must
//! not join every other box on the ground into one island, and the solver never moves them, so
//! they cannot carry motion from one island to another.
//!
//! The bookkeeping itself — merge on link, deferred split, sleep records, sleeping set ids — is
//! the `island` crate's [`IslandGraph`] and [`SolverSets`]; this module is the World's side:
//!
//! ```text
//!   create a dynamic body            create_island_for_body    graph.add_body   (own island)
//!   contact begins touching          link_contact              wake both; graph.link (union)
//!   contact stops touching/destroyed unlink_contact            graph.unlink  (split candidate)
//!     … in the step's contact pass   unlink_contact_from       the same, beside the solver
//!   destroy a dynamic body           remove_body_from_island   graph.remove_body
//! ```
//!
//! Bodies and contacts are named by their stable arena indices, so a body keeps its island
//! record while its sim moves between the awake set and a sleeping set (`solver_set.rs`), and a
//! contact keeps its link while its sim moves between colours and set stores.
//!
//! Linking wakes: a contact that begins touching between an awake body and a sleeping one joins
//! the two islands, and a merged island must be awake (Box2D's rule: touching wakes). Unlinking
//! requires an awake island too; the callers guarantee it (a contact stops touching only in the
//! narrowphase, which sees awake contacts only, and a destroyed contact is brought back to the
//! awake store first).
//!
//! The state kept here, [`Islands`], also holds which island sleeps in which set and the body
//! sleep and wake events. The `validate` feature checks it all against a brute-force
//! recomputation ([`World::validate_islands`]).

use crate::sleep::BodyEventBuffers;
use crate::world::World;
use core_soa::BodyType;
use island::{ConstraintKey, IslandGraph, IslandId, SolverSets};

/// The World's island and sleep state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Islands {
    /// Every dynamic body's island, and the constraints linked in each.
    pub(crate) graph: IslandGraph,
    /// Which island sleeps in which sleeping solver set.
    pub(crate) sets: SolverSets,
    /// Sleep and wake events.
    pub(crate) events: BodyEventBuffers,
}

impl World {
    /// Gives a new dynamic body an island of its own (no-op for other bodies).
    pub(crate) fn create_island_for_body(&mut self, body_index: u32) {
        let dynamic = self
            .bodies
            .get_by_index(body_index)
            .is_some_and(|body| body.body_type == BodyType::Dynamic);
        if dynamic {
            let added = self.islands.graph.add_body(body_index);
            debug_assert!(added.is_ok(), "island for body {body_index}: {added:?}");
        }
    }

    /// Takes a body whose contacts are all destroyed out of its island (no-op for bodies that
    /// have none). Its island is awake: destroying a body wakes it first.
    pub(crate) fn remove_body_from_island(&mut self, body_index: u32) {
        if self.islands.graph.island_of(body_index).is_some() {
            let removed = self.islands.graph.remove_body(body_index);
            debug_assert!(removed.is_ok(), "remove body {body_index}: {removed:?}");
        }
    }

    /// Links touching contact `contact_index` (arena index) into the islands: wakes any
    /// sleeping body it touches, and if both bodies are dynamic joins their islands. A no-op
    /// for a contact that is not touching or is already linked.
    pub(crate) fn link_contact(&mut self, contact_index: u32) {
        let Some(contact) = self.contacts.get_by_index(contact_index) else {
            return;
        };
        let (body_a, body_b) = (contact.edges[0].body, contact.edges[1].body);
        if !self
            .contact_sim(contact_index)
            .is_some_and(|sim| sim.touching)
        {
            return;
        }
        self.wake_island_of(body_a);
        self.wake_island_of(body_b);
        let key = ConstraintKey::contact(contact_index);
        let graph = &mut self.islands.graph;
        let both_in_islands =
            graph.island_of(body_a).is_some() && graph.island_of(body_b).is_some();
        if both_in_islands && graph.island_of_constraint(key).is_none() {
            let linked = graph.link(key, body_a, body_b);
            debug_assert!(linked.is_ok(), "link contact {contact_index}: {linked:?}");
        }
    }

    /// Unlinks contact `contact_index` (arena index) if it is linked; its island becomes a
    /// split candidate. The island must be awake.
    pub(crate) fn unlink_contact(&mut self, contact_index: u32) {
        unlink_contact_from(&mut self.islands.graph, contact_index);
    }

    /// The island of a body, if it is dynamic (arena index).
    pub(crate) fn island_of_body(&self, body_index: u32) -> Option<IslandId> {
        self.islands.graph.island_of(body_index)
    }
}

/// Unlinks contact `contact_index` (arena index) from `graph` if it is linked; its island
/// becomes a split candidate. The island must be awake. ([`World::unlink_contact`] on the
/// graph alone, for the contact-state pass's unlinks run beside the solver: `narrowphase.rs`.)
pub(crate) fn unlink_contact_from(graph: &mut IslandGraph, contact_index: u32) {
    let key = ConstraintKey::contact(contact_index);
    if graph.island_of_constraint(key).is_some() {
        let unlinked = graph.unlink(key);
        debug_assert!(
            unlinked.is_ok(),
            "unlink contact {contact_index}: {unlinked:?}"
        );
    }
}

mod checks {
    //! The `validate` feature's island checks: the island graph against the touching contacts
    //! (the constraint graph, recomputed by brute force), and every body's solver set against
    //! its island's sleep state.

    use crate::solver_set::{AWAKE_SET, DISABLED_SET, STATIC_SET};
    use crate::world::World;
    use core_soa::BodyType;
    use island::ConstraintKey;

    impl World {
        /// Island membership equals the connected components of the touching contacts between
        /// dynamic bodies (a brute-force search in the island crate); every linked constraint's
        /// bodies are in its island; each body's solver set matches its island's state; the
        /// contact stores are consistent.
        pub(crate) fn validate_islands(&self) -> Result<(), String> {
            let dynamic: Vec<u32> = self
                .bodies
                .iter()
                .filter(|(_, body)| body.body_type == BodyType::Dynamic)
                .filter(|(_, body)| body.set_index != DISABLED_SET)
                .map(|(id, _)| id.index())
                .collect();
            let linked = self.touching_dynamic_pairs();
            self.islands
                .graph
                .validate(&dynamic, &linked)
                .map_err(|e| format!("islands: {e}"))?;
            self.islands
                .sets
                .validate(&self.islands.graph)
                .map_err(|e| format!("solver sets: {e}"))?;
            self.validate_body_sets()?;
            self.validate_set_stores()
        }

        /// The edges of the island graph, recomputed: every touching contact between two dynamic
        /// bodies, wherever it is stored, and every joint between two enabled dynamic bodies.
        fn touching_dynamic_pairs(&self) -> Vec<(ConstraintKey, u32, u32)> {
            let is_dynamic = |body: u32| {
                self.bodies.get_by_index(body).is_some_and(|b| {
                    b.body_type == BodyType::Dynamic && b.set_index != DISABLED_SET
                })
            };
            let contacts = self.contacts.iter().filter_map(|(id, contact)| {
                let (a, b) = (contact.edges[0].body, contact.edges[1].body);
                let touching = self.contact_sim(id.index())?.touching;
                (touching && is_dynamic(a) && is_dynamic(b)).then_some((
                    ConstraintKey::contact(id.index()),
                    a,
                    b,
                ))
            });
            let joints = self.joints.arena.iter().filter_map(|(id, joint)| {
                let (a, b) = (joint.edges[0].body, joint.edges[1].body);
                (is_dynamic(a) && is_dynamic(b)).then_some((ConstraintKey::joint(id.index()), a, b))
            });
            contacts.chain(joints).collect()
        }

        /// Static bodies in the static set, kinematic bodies awake, dynamic bodies in the set of
        /// their island; a disabled body has no island (the rest of the disabled set's rules
        /// are in `validate.rs`).
        fn validate_body_sets(&self) -> Result<(), String> {
            for (id, body) in self.bodies.iter() {
                if body.set_index == DISABLED_SET {
                    if self.island_of_body(id.index()).is_some() {
                        return Err(format!("disabled body {id:?} has an island"));
                    }
                    continue;
                }
                let expected = match body.body_type {
                    BodyType::Static => STATIC_SET,
                    BodyType::Kinematic => AWAKE_SET,
                    BodyType::Dynamic => {
                        let island = self
                            .island_of_body(id.index())
                            .ok_or(format!("dynamic body {id:?} has no island"))?;
                        match self.islands.sets.sleeping_set_of(island) {
                            Some(set) => set.index(),
                            None => AWAKE_SET,
                        }
                    }
                };
                if body.set_index != expected {
                    return Err(format!(
                        "body {id:?} is in set {} but belongs in {expected}",
                        body.set_index
                    ));
                }
            }
            for (set, island) in self.islands.sets.sleeping_sets() {
                let index = set.index() as usize;
                let held = self.solver_sets.get(index).map_or(0, |s| s.bodies.len());
                let members = self.islands.graph.bodies(island).map_or(0, <[u32]>::len);
                if held != members {
                    return Err(format!(
                        "{set:?} holds {held} bodies, its island {island:?} has {members}"
                    ));
                }
            }
            Ok(())
        }
    }
}
