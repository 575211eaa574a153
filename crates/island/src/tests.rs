//! Tests of islands, splitting, sleep timers and solver sets, including a randomised comparison
//! of island membership with brute-force connected components.

use crate::*;
use core_soa::IdPool;

/// xorshift64* with a fixed seed, so randomised tests replay the same sequence every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: u32) -> u32 {
        (self.next() % bound as u64) as u32
    }
}

fn graph_with_bodies(count: u32) -> IslandGraph {
    let mut graph = IslandGraph::new();
    for body in 0..count {
        graph.add_body(body).unwrap();
    }
    graph
}

fn sorted(items: &[u32]) -> Vec<u32> {
    let mut items = items.to_vec();
    items.sort_unstable();
    items
}

/// The bodies of the island holding `body`, sorted.
fn members(graph: &IslandGraph, body: u32) -> Vec<u32> {
    sorted(graph.bodies(graph.island_of(body).unwrap()).unwrap())
}

/// Brute-force components: for each body, the smallest body of its component (union-find with
/// the smaller index as root, no balancing — simple enough to trust).
fn brute_force_component_minimum(body_count: u32, edges: &[(u32, u32)]) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..body_count).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            x = parent[x as usize];
        }
        x
    }
    for &(a, b) in edges {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
    (0..body_count).map(|b| root(&mut parent, b)).collect()
}

/// For each body, the smallest body of its island.
fn island_minimum(graph: &IslandGraph, body_count: u32) -> Vec<u32> {
    (0..body_count)
        .map(|b| *members(graph, b).first().unwrap())
        .collect()
}

#[test]
fn linking_a_chain_merges_everything_into_one_island() {
    let mut graph = graph_with_bodies(5);
    assert_eq!(graph.island_count(), 5);
    let first = graph.link(ConstraintKey::contact(0), 0, 1).unwrap();
    // Equal sizes: the lower slot (body 0's island) survives, body 1's island is absorbed.
    assert_eq!(first.island.index(), 0);
    assert_eq!(first.absorbed.map(|i| i.index()), Some(1));
    assert!(
        !graph.contains(first.absorbed.unwrap()),
        "absorbed id is stale"
    );
    graph.link(ConstraintKey::joint(0), 3, 4).unwrap();
    graph.link(ConstraintKey::contact(1), 1, 2).unwrap();
    assert_eq!(graph.island_count(), 2);
    assert_eq!(members(&graph, 2), vec![0, 1, 2]);
    assert_eq!(members(&graph, 4), vec![3, 4]);

    for body in 0..6 {
        let index = graph.island_of(body).map(|island| island.index());
        assert_eq!(graph.island_index_of(body), index, "body {body}");
    }
    assert!(graph.island_index_of(4).is_some() && graph.island_index_of(99).is_none());

    // {0,1,2} is larger than {3,4}: its id survives whichever body is named first.
    let big = graph.island_of(0).unwrap();
    let outcome = graph.link(ConstraintKey::contact(2), 4, 2).unwrap();
    assert_eq!(outcome.island, big);
    assert_eq!(graph.island_count(), 1);
    assert_eq!(members(&graph, 3), vec![0, 1, 2, 3, 4]);
    let mut constraints = graph.constraints(big).unwrap().to_vec();
    constraints.sort();
    let expected = [0, 1, 2].map(ConstraintKey::contact);
    assert_eq!(&constraints[..3], &expected);
    assert_eq!(constraints[3], ConstraintKey::joint(0));
    assert_eq!(
        graph.constraint_bodies(ConstraintKey::contact(2)),
        Some((4, 2))
    );
    assert_eq!(graph.constraint_remove_count(big), Ok(0));
    let all = [
        (ConstraintKey::contact(0), 0, 1),
        (ConstraintKey::joint(0), 3, 4),
        (ConstraintKey::contact(1), 1, 2),
        (ConstraintKey::contact(2), 4, 2),
    ];
    assert_eq!(graph.validate(&[0, 1, 2, 3, 4], &all), Ok(()));
}

#[test]
fn a_constraint_inside_one_island_does_not_merge() {
    let mut graph = graph_with_bodies(3);
    graph.link(ConstraintKey::contact(0), 0, 1).unwrap();
    let outcome = graph.link(ConstraintKey::joint(5), 1, 0).unwrap();
    assert_eq!(outcome.absorbed, None);
    assert_eq!(graph.constraints(outcome.island).unwrap().len(), 2);
    assert_eq!(graph.island_count(), 2);
}

#[test]
fn unlink_marks_a_candidate_and_split_yields_the_components() {
    // Chain 0 - 1 - 2 - 3 - 4; removing the middle link (1-2) leaves {0,1} and {2,3,4}.
    let mut graph = graph_with_bodies(5);
    for (i, (a, b)) in [(0, 1), (1, 2), (2, 3), (3, 4)].into_iter().enumerate() {
        graph.link(ConstraintKey::contact(i as u32), a, b).unwrap();
    }
    let island = graph.unlink(ConstraintKey::contact(1)).unwrap();
    assert_eq!(graph.constraint_remove_count(island), Ok(1));
    assert_eq!(graph.split_candidates().collect::<Vec<_>>(), vec![island]);
    assert_eq!(graph.island_count(), 1, "unlinking alone does not split");

    let parts = graph.split(island).unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0], island, "the first component keeps the id");
    assert_eq!(members(&graph, 0), vec![0, 1]);
    assert_eq!(members(&graph, 3), vec![2, 3, 4]);
    assert_eq!(
        graph.island_of(0),
        Some(island),
        "body 0 was first in the list"
    );
    assert_eq!(graph.island_of(4), Some(parts[1]));
    assert_eq!(
        graph.constraints(parts[0]).unwrap(),
        &[ConstraintKey::contact(0)]
    );
    assert_eq!(
        sorted(
            &graph
                .constraints(parts[1])
                .unwrap()
                .iter()
                .map(|k| k.index)
                .collect::<Vec<_>>()
        ),
        vec![2, 3]
    );
    for part in parts {
        assert_eq!(graph.constraint_remove_count(part), Ok(0));
    }
    assert_eq!(graph.split_candidates().count(), 0);
    let linked = [
        (ConstraintKey::contact(0), 0, 1),
        (ConstraintKey::contact(2), 2, 3),
        (ConstraintKey::contact(3), 3, 4),
    ];
    assert_eq!(graph.validate(&[0, 1, 2, 3, 4], &linked), Ok(()));
}

#[test]
fn splitting_a_still_connected_island_keeps_it_whole() {
    // A triangle loses one edge: still connected.
    let mut graph = graph_with_bodies(3);
    graph.link(ConstraintKey::contact(0), 0, 1).unwrap();
    graph.link(ConstraintKey::contact(1), 1, 2).unwrap();
    graph.link(ConstraintKey::contact(2), 2, 0).unwrap();
    let island = graph.unlink(ConstraintKey::contact(1)).unwrap();
    let bodies = graph.bodies(island).unwrap().to_vec();
    let constraints = graph.constraints(island).unwrap().to_vec();
    assert_eq!(graph.split(island).unwrap(), vec![island]);
    assert_eq!(members(&graph, 2), vec![0, 1, 2]);
    assert_eq!(graph.constraint_remove_count(island), Ok(0));
    // One piece: the lists come back in the same order, and every record still matches.
    assert_eq!(graph.bodies(island).unwrap(), bodies);
    assert_eq!(graph.constraints(island).unwrap(), constraints);
    let linked = [
        (ConstraintKey::contact(0), 0, 1),
        (ConstraintKey::contact(2), 2, 0),
    ];
    assert_eq!(graph.validate(&[0, 1, 2], &linked), Ok(()));
}

#[test]
fn removing_bodies_requires_unlinking_and_frees_empty_islands() {
    let mut graph = graph_with_bodies(3);
    graph.link(ConstraintKey::joint(0), 0, 1).unwrap();
    assert_eq!(
        graph.remove_body(1),
        Err(IslandError::BodyHasConstraints { body: 1, linked: 1 })
    );
    let island = graph.unlink(ConstraintKey::joint(0)).unwrap();
    // Removing body 0 (position 0) moves body 1 into its place; the island stays live.
    assert_eq!(graph.remove_body(0), Ok(None));
    assert_eq!(graph.bodies(island).unwrap(), &[1]);
    assert_eq!(graph.remove_body(1), Ok(Some(island)));
    assert!(!graph.contains(island));
    assert_eq!(graph.island_of(1), None);
    assert_eq!(graph.island_count(), 1);
    assert_eq!(graph.validate(&[2], &[]), Ok(()));
    // The body can come back as a fresh singleton.
    let again = graph.add_body(0).unwrap();
    assert_eq!(graph.bodies(again).unwrap(), &[0]);
}

#[test]
fn misuse_is_reported_and_changes_nothing() {
    let mut graph = graph_with_bodies(2);
    assert_eq!(graph.add_body(1), Err(IslandError::BodyAlreadyAdded(1)));
    assert_eq!(graph.add_body(u32::MAX), Err(IslandError::ReservedIndex));
    let key = ConstraintKey::contact(0);
    assert_eq!(graph.link(key, 0, 7), Err(IslandError::UnknownBody(7)));
    assert_eq!(graph.island_count(), 2, "failed link merged nothing");
    graph.link(key, 0, 1).unwrap();
    assert_eq!(
        graph.link(key, 1, 0),
        Err(IslandError::ConstraintAlreadyLinked(key))
    );
    let joint = ConstraintKey::joint(0);
    assert_eq!(
        graph.unlink(joint),
        Err(IslandError::ConstraintNotLinked(joint))
    );
    assert_eq!(graph.remove_body(9), Err(IslandError::UnknownBody(9)));
    let stale = IslandId::NULL;
    assert_eq!(graph.bodies(stale), Err(IslandError::StaleIsland(stale)));
    assert_eq!(graph.split(stale), Err(IslandError::StaleIsland(stale)));
    assert_eq!(graph.validate(&[0, 1], &[(key, 0, 1)]), Ok(()));
}

#[test]
fn validate_catches_a_caller_view_that_disagrees() {
    let mut graph = graph_with_bodies(3);
    graph.link(ConstraintKey::contact(0), 0, 1).unwrap();
    let linked = [(ConstraintKey::contact(0), 0, 1)];
    assert_eq!(graph.validate(&[0, 1, 2], &linked), Ok(()));
    assert!(graph.validate(&[0, 1], &linked).is_err(), "missing body 2");
    assert!(
        graph.validate(&[0, 1, 2], &[]).is_err(),
        "missing constraint"
    );
    let wrong_bodies = [(ConstraintKey::contact(0), 0, 2)];
    assert!(graph.validate(&[0, 1, 2], &wrong_bodies).is_err());
}

/// What a random session produced: the final islands' bodies, and how many splits found the
/// island had really fallen apart (to show the sequence exercises splitting).
struct Session {
    islands: Vec<Vec<u32>>,
    splits_that_separated: usize,
}

/// One random link/unlink session, splitting every candidate after each round of 40 edits.
fn random_session(seed: u64, check: bool) -> Session {
    const BODIES: u32 = 200;
    let mut rng = Rng(seed);
    let mut graph = graph_with_bodies(BODIES);
    let all_bodies: Vec<u32> = (0..BODIES).collect();
    let mut pools = [IdPool::new(), IdPool::new()];
    let mut linked: Vec<(ConstraintKey, u32, u32)> = Vec::new();
    let mut splits_that_separated = 0;
    for _round in 0..60 {
        for _ in 0..40 {
            // Hover around 120 edges on 200 bodies (mean degree ~1.2): near the percolation
            // threshold, so component sizes vary from singletons to a large cluster.
            let link_odds = if linked.len() < 120 { 6 } else { 4 };
            if linked.is_empty() || rng.below(10) < link_odds {
                let kind = rng.below(2) as usize;
                let index = pools[kind].alloc();
                let key = if kind == 0 {
                    ConstraintKey::contact(index)
                } else {
                    ConstraintKey::joint(index)
                };
                let (a, b) = (rng.below(BODIES), rng.below(BODIES));
                graph.link(key, a, b).unwrap();
                linked.push((key, a, b));
            } else {
                let (key, _, _) = linked.swap_remove(rng.below(linked.len() as u32) as usize);
                graph.unlink(key).unwrap();
                let kind = (key.kind == ConstraintKind::Joint) as usize;
                assert!(pools[kind].free(key.index));
            }
        }
        if check {
            // Before splitting, islands may be unions of components but never cut one.
            graph.validate(&all_bodies, &linked).unwrap();
        }
        let candidates: Vec<IslandId> = graph.split_candidates().collect();
        for island in candidates {
            if graph.split(island).unwrap().len() > 1 {
                splits_that_separated += 1;
            }
        }
        assert_eq!(graph.split_candidates().count(), 0);
        if check {
            let edges: Vec<(u32, u32)> = linked.iter().map(|&(_, a, b)| (a, b)).collect();
            assert_eq!(
                island_minimum(&graph, BODIES),
                brute_force_component_minimum(BODIES, &edges)
            );
            graph.validate(&all_bodies, &linked).unwrap();
        }
    }
    let islands = graph
        .islands()
        .map(|island| graph.bodies(island).unwrap().to_vec())
        .collect();
    Session {
        islands,
        splits_that_separated,
    }
}

#[test]
fn random_link_unlink_and_split_match_brute_force_components() {
    for seed in [1, 0xDEAD_BEEF, 0x1234_5678_9ABC] {
        let session = random_session(seed, true);
        let total: usize = session.islands.iter().map(Vec::len).sum();
        assert_eq!(total, 200, "every body is in exactly one island");
        let largest = session.islands.iter().map(Vec::len).max().unwrap();
        assert!(
            session.splits_that_separated >= 50,
            "splits really separate"
        );
        assert!(
            largest >= 10 && session.islands.len() >= 20,
            "a varied graph"
        );
    }
}

#[test]
fn the_same_calls_give_the_same_islands() {
    assert_eq!(
        random_session(77, false).islands,
        random_session(77, false).islands
    );
}

#[test]
fn sleep_timer_resets_on_motion_and_accumulates_at_rest() {
    let threshold = DEFAULT_SLEEP_THRESHOLD;
    let dt = 1.0 / 60.0;
    let mut time = 0.0;
    for _ in 0..30 {
        time = update_sleep_time(time, 0.01, threshold, dt);
    }
    assert!((time - 0.5).abs() < 1e-5, "30 steps of 1/60 s: {time}");
    // Spinning: extent 0.5 m at 0.2 rad/s sweeps 0.1 m/s > 0.05 m/s.
    let spin = sleep_speed(0.0, -0.2, 0.5, 0.0, dt);
    assert!((spin - 0.1).abs() < 1e-7);
    assert_eq!(update_sleep_time(time, spin, threshold, dt), 0.0);
    assert_eq!(update_sleep_time(time, 0.051, threshold, dt), 0.0);
    assert_eq!(update_sleep_time(time, f32::NAN, threshold, dt), 0.0);
    // Exactly at the threshold still counts as resting.
    assert_eq!(update_sleep_time(0.25, 0.05, threshold, 0.25), 0.5);
    // The fastest point: 0.3 m/s of travel plus 0.5 m × 0.1 rad/s of turn.
    assert!((sleep_speed(0.3, 0.1, 0.5, 0.0, dt) - 0.35).abs() < 1e-7);
    // A body the step moved 2 mm while it ends at rest (position correction): half of
    // 0.002 m / (1/60 s) is 0.06 m/s, above the threshold.
    let pushed = sleep_speed(0.0, 0.0, 0.5, 0.002, dt);
    assert!((pushed - 0.06).abs() < 1e-6, "{pushed}");
    assert_eq!(update_sleep_time(time, pushed, threshold, dt), 0.0);
    // A step's motion that only matches its final speed does not raise it.
    assert_eq!(sleep_speed(0.03, 0.0, 0.5, 0.03 * dt, dt), 0.03);
    // A broken velocity or motion is never rest.
    for speed in [
        sleep_speed(f32::NAN, 0.0, 0.5, 0.0, dt),
        sleep_speed(0.0, 0.0, 0.5, f32::NAN, dt),
    ] {
        assert!(speed.is_nan());
        assert_eq!(update_sleep_time(time, speed, threshold, dt), 0.0);
    }
}

/// Three chains recorded with given sleep times; returns the graph and the island ids.
fn islands_with_times(times: &[&[f32]]) -> (IslandGraph, Vec<IslandId>) {
    let mut graph = IslandGraph::new();
    let mut next_body = 0;
    let mut next_contact = 0;
    let mut ids = Vec::new();
    for chain in times {
        let first = next_body;
        for _ in 0..chain.len() {
            graph.add_body(next_body).unwrap();
            if next_body > first {
                let key = ConstraintKey::contact(next_contact);
                graph.link(key, next_body - 1, next_body).unwrap();
                next_contact += 1;
            }
            next_body += 1;
        }
        ids.push(graph.island_of(first).unwrap());
    }
    graph.begin_sleep_pass();
    let mut body = 0;
    for chain in times {
        for &time in *chain {
            graph.record_sleep_time(body, time).unwrap();
            body += 1;
        }
    }
    (graph, ids)
}

#[test]
fn island_sleeps_only_when_every_body_rested_and_nothing_is_pending() {
    let (mut graph, ids) = islands_with_times(&[&[0.6, 0.5, 0.7], &[0.9, 0.49, 2.0], &[3.0]]);
    assert_eq!(
        graph.island_rest(ids[1]),
        Ok(Some(IslandRest {
            min_sleep_time: 0.49,
            max_sleep_time: 2.0
        }))
    );
    assert_eq!(
        graph.islands_ready_to_sleep(TIME_TO_SLEEP),
        vec![ids[0], ids[2]]
    );
    // A pending removal (the chain 0-1-2 loses 1-2) blocks sleep until the split.
    graph.unlink(ConstraintKey::contact(1)).unwrap();
    assert_eq!(graph.islands_ready_to_sleep(TIME_TO_SLEEP), vec![ids[2]]);
    assert_eq!(graph.split_candidate(TIME_TO_SLEEP), Some(ids[0]));
    let parts = graph.split(ids[0]).unwrap();
    // Both halves rested ≥ 0.5 s: their summaries are rebuilt from this pass's records.
    let mut ready = graph.islands_ready_to_sleep(TIME_TO_SLEEP);
    ready.sort();
    let mut expected = vec![parts[0], parts[1], ids[2]];
    expected.sort();
    assert_eq!(ready, expected);
    assert_eq!(
        graph.island_rest(parts[1]),
        Ok(Some(IslandRest {
            min_sleep_time: 0.7,
            max_sleep_time: 0.7
        }))
    );
    // A new pass forgets everything until bodies are recorded again.
    graph.begin_sleep_pass();
    assert!(graph.islands_ready_to_sleep(TIME_TO_SLEEP).is_empty());
    assert_eq!(graph.island_rest(ids[2]), Ok(None));
    graph.record_sleep_time(6, 0.5).unwrap();
    assert_eq!(graph.islands_ready_to_sleep(TIME_TO_SLEEP), vec![ids[2]]);
}

#[test]
fn the_sleepiest_candidate_is_split_first() {
    // Island A: max rest 1.5; B: max rest 2.0; C: max rest 2.0 and larger; D: 9.0 but no
    // pending removal; E: moving (max 0.3) with a pending removal.
    let (mut graph, ids) = islands_with_times(&[
        &[1.5, 0.0],
        &[2.0, 0.1],
        &[0.2, 2.0, 0.0],
        &[9.0, 9.0],
        &[0.3, 0.0],
    ]);
    assert_eq!(
        graph.split_candidate(TIME_TO_SLEEP),
        None,
        "no candidates yet"
    );
    for island in [ids[0], ids[1], ids[2], ids[4]] {
        let key = graph.constraints(island).unwrap()[0];
        graph.unlink(key).unwrap();
    }
    // B and C tie on 2.0 s; C has more bodies.
    assert_eq!(graph.split_candidate(TIME_TO_SLEEP), Some(ids[2]));
    graph.split(ids[2]).unwrap();
    assert_eq!(graph.split_candidate(TIME_TO_SLEEP), Some(ids[1]));
    graph.split(ids[1]).unwrap();
    assert_eq!(graph.split_candidate(TIME_TO_SLEEP), Some(ids[0]));
    graph.split(ids[0]).unwrap();
    // E never rested long enough: it is not chosen, though it is still a candidate.
    assert_eq!(graph.split_candidate(TIME_TO_SLEEP), None);
    assert_eq!(graph.split_candidates().collect::<Vec<_>>(), vec![ids[4]]);
    assert_eq!(graph.split_candidate(0.25), Some(ids[4]));
}

#[test]
fn merging_with_an_unrecorded_island_forgets_the_rest_summary() {
    let (mut graph, ids) = islands_with_times(&[&[1.0], &[1.0]]);
    graph.add_body(2).unwrap();
    graph.link(ConstraintKey::joint(0), 0, 1).unwrap();
    let merged = graph.island_of(0).unwrap();
    assert_eq!(merged, ids[0]);
    assert_eq!(
        graph.island_rest(merged).unwrap().map(|r| r.min_sleep_time),
        Some(1.0)
    );
    graph.link(ConstraintKey::joint(1), 1, 2).unwrap();
    assert_eq!(
        graph.island_rest(merged),
        Ok(None),
        "body 2 was never recorded"
    );
    assert!(graph.islands_ready_to_sleep(TIME_TO_SLEEP).is_empty());
}

#[test]
fn solver_set_ids_are_handed_out_and_reused_last_in_first_out() {
    let mut graph = graph_with_bodies(4);
    let islands: Vec<IslandId> = graph.islands().collect();
    let mut sets = SolverSets::new();
    assert_eq!(sets.set_of(islands[0]), SolverSetId::AWAKE);
    let set_ids: Vec<SolverSetId> = islands
        .iter()
        .take(3)
        .map(|&island| sets.sleep_island(&graph, island).unwrap())
        .collect();
    assert_eq!(
        set_ids.iter().map(|s| s.index()).collect::<Vec<_>>(),
        vec![3, 4, 5]
    );
    assert!(set_ids.iter().all(|s| s.is_sleeping()));
    assert_eq!(sets.set_of(islands[1]), set_ids[1]);
    assert_eq!(sets.island_in(set_ids[2]), Some(islands[2]));
    assert_eq!(sets.sleeping_set_count(), 3);
    assert_eq!(sets.set_capacity(), 6);
    assert_eq!(
        sets.sleep_island(&graph, islands[1]),
        Err(IslandError::IslandAlreadyAsleep(islands[1]))
    );

    assert_eq!(sets.wake_set(set_ids[1]), Ok(islands[1]));
    assert_eq!(sets.wake_island(islands[0]), Some(set_ids[0]));
    assert_eq!(sets.wake_island(islands[0]), None, "already awake");
    assert_eq!(
        sets.wake_set(set_ids[0]),
        Err(IslandError::NotASleepingSet(set_ids[0]))
    );
    assert_eq!(
        sets.wake_set(SolverSetId::AWAKE),
        Err(IslandError::NotASleepingSet(SolverSetId::AWAKE))
    );
    assert!(!sets.is_asleep(islands[1]));
    // The most recently freed id (3, from island 0) comes back first, then 4.
    assert_eq!(sets.sleep_island(&graph, islands[3]).unwrap().index(), 3);
    assert_eq!(sets.sleep_island(&graph, islands[1]).unwrap().index(), 4);
    assert_eq!(sets.set_capacity(), 6, "no new set was needed");
    let listed: Vec<(u32, IslandId)> = sets.sleeping_sets().map(|(s, i)| (s.index(), i)).collect();
    assert_eq!(
        listed,
        vec![(3, islands[3]), (4, islands[1]), (5, islands[2])]
    );
    assert_eq!(sets.validate(&graph), Ok(()));

    // Pending removals forbid sleep; a sleeping island that dies is caught by validation.
    graph.link(ConstraintKey::contact(0), 0, 2).unwrap();
    assert!(
        sets.validate(&graph).is_err(),
        "island 2 was absorbed while asleep"
    );
    let awake = graph.island_of(0).unwrap();
    graph.unlink(ConstraintKey::contact(0)).unwrap();
    assert_eq!(
        sets.sleep_island(&graph, awake),
        Err(IslandError::PendingRemovals(awake))
    );
    assert_eq!(
        sets.sleep_island(&graph, IslandId::NULL),
        Err(IslandError::StaleIsland(IslandId::NULL))
    );
}
