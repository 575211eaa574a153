//! Colouring the constraint graph of the pyramid scenes from scratch.
//!
//! The contact graph is generated directly from the scene geometry (`crates/scenes`): in a
//! pyramid of base `n`, row `i` holds boxes `j = i..n` at `x = a·(2j − i + 1)`, so box `(i, j)`
//! touches its right neighbour `(i, j + 1)` and rests on `(i − 1, j − 1)` and `(i − 1, j)`;
//! the bottom row rests on the static ground. That gives `n(n−1)/2` side contacts,
//! `n(n−1)` resting contacts and `n` ground contacts per pyramid: 145 for base 10 (58,000 for
//! many_pyramids' 400 pyramids) and 14,950 for large_pyramid's base 100, matching the contact
//! counts Box2D reports for those scenes. Contacts are added box by box in creation order, as
//! they would begin touching on the first step.
//!
//! Before timing, the occupancy of each colour is printed for the default policy and two
//! alternatives (which is how the default was checked), and for a shuffled insertion order,
//! closer to the order in which a broadphase reports new pairs.

use criterion::{Criterion, criterion_group, criterion_main};
use graph_coloring::{
    ColorIndex, ColoringPolicy, ConstraintGraph, ConstraintKind, Endpoint, GRAPH_COLOR_COUNT,
};
use std::hint::black_box;

/// The static ground's body id (static bodies take no bit, any id works).
const GROUND: Endpoint = Endpoint::fixed(u32::MAX);

/// The contacts of `count` pyramids of base `base`, as pairs of endpoints.
fn pyramid_contacts(base: u32, count: u32) -> Vec<(Endpoint, Endpoint)> {
    let mut contacts = Vec::new();
    let mut first_body = 0;
    for _ in 0..count {
        // Body id of box (row, column) of this pyramid, rows stored bottom-up.
        let row_start = |row: u32| first_body + row * base - row * (row.saturating_sub(1)) / 2;
        let id = |row: u32, column: u32| row_start(row) + (column - row);
        for row in 0..base {
            for column in row..base {
                let this = Endpoint::dynamic(id(row, column));
                if column > row {
                    contacts.push((Endpoint::dynamic(id(row, column - 1)), this));
                }
                if row == 0 {
                    contacts.push((this, GROUND));
                } else {
                    contacts.push((Endpoint::dynamic(id(row - 1, column - 1)), this));
                    contacts.push((Endpoint::dynamic(id(row - 1, column)), this));
                }
            }
        }
        first_body += base * (base + 1) / 2;
    }
    contacts
}

fn color_all(graph: &mut ConstraintGraph, contacts: &[(Endpoint, Endpoint)]) {
    for (handle, &(a, b)) in contacts.iter().enumerate() {
        graph.add(ConstraintKind::Contact, handle as u32, a, b);
    }
}

/// `contacts` in a fixed pseudo-random order (Fisher-Yates with xorshift64*), standing in for
/// the order in which a broadphase reports new pairs.
fn shuffled(contacts: &[(Endpoint, Endpoint)]) -> Vec<(Endpoint, Endpoint)> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut out = contacts.to_vec();
    for i in (1..out.len()).rev() {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let j = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

fn print_occupancy(scene: &str, order: &str, name: &str, graph: &ConstraintGraph) {
    let used: Vec<String> = graph
        .occupancy(ConstraintKind::Contact)
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(c, n)| format!("{c}:{n}"))
        .collect();
    println!(
        "{scene} ({order}): policy {name}: colours in use {}, occupancy [{}], overflow {}",
        graph.colors_in_use(),
        used.join(" "),
        graph.contacts(ColorIndex::OVERFLOW).len(),
    );
}

fn report_occupancy(scene: &str, contacts: &[(Endpoint, Endpoint)]) {
    println!("{scene}: {} contacts", contacts.len());
    let policies = [
        (
            "default (all 24 for dynamic pairs, static from the back down to 1)",
            ColoringPolicy::default(),
        ),
        (
            "static down to 0",
            ColoringPolicy {
                dynamic_colors: GRAPH_COLOR_COUNT,
                static_floor: 0,
            },
        ),
        (
            "dynamic pairs in 0..20 only",
            ColoringPolicy {
                dynamic_colors: 20,
                static_floor: 1,
            },
        ),
    ];
    for (name, policy) in policies {
        let mut graph = ConstraintGraph::with_policy(policy);
        color_all(&mut graph, contacts);
        print_occupancy(scene, "creation order", name, &graph);
    }
    let mut graph = ConstraintGraph::new();
    color_all(&mut graph, &shuffled(contacts));
    print_occupancy(scene, "shuffled order", "default", &graph);
}

fn coloring(c: &mut Criterion) {
    let scenes = [
        ("many_pyramids", pyramid_contacts(10, 400)),
        ("large_pyramid", pyramid_contacts(100, 1)),
    ];
    for (scene, contacts) in &scenes {
        report_occupancy(scene, contacts);
        c.bench_function(&format!("coloring/{scene}/fresh_graph"), |b| {
            b.iter(|| {
                let mut graph = ConstraintGraph::new();
                color_all(&mut graph, black_box(contacts));
                graph
            })
        });
        let mut graph = ConstraintGraph::new();
        c.bench_function(&format!("coloring/{scene}/reused_graph"), |b| {
            b.iter(|| {
                graph.clear();
                color_all(&mut graph, black_box(contacts));
                graph.colors_in_use()
            })
        });
    }
}

criterion_group!(benches, coloring);
criterion_main!(benches);
