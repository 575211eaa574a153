//! Tests of the contact manifolds against hand-computed geometry.
//!
//! Most cases are built in a canonical frame where B sits above A with a known gap `g` between
//! the surfaces, so the expected normal is +y, every point's separation is `g` and each point
//! lies at a known x, at height `top_of_a + g/2`. Each case is then also placed in the world by
//! a rotated and translated frame, and evaluated with the shapes in both orders.

use super::*;
use crate::hull::{make_box, make_polygon, make_rounded_box};
use crate::shapes::{Capsule, ChainSegment, Circle, Segment};
use core_soa::Rot;
use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4};

/// Geometric tolerance (m): a few f32 ulps of coordinates of magnitude ~5.
const TOLERANCE: f32 = 2e-5;

fn transform(x: f32, y: f32, angle: f32) -> Transform {
    Transform::new(Vec2::new(x, y), Rot::from_angle(angle))
}

fn assert_vec_close(actual: Vec2, expected: Vec2, tolerance: f32, what: &str) {
    assert!(
        (actual - expected).length() <= tolerance,
        "{what}: got {actual:?}, expected {expected:?}"
    );
}

/// Both anchors reproduce the point from their body origins.
fn assert_anchors(manifold: &Manifold, xf_a: Transform, xf_b: Transform) {
    for point in manifold.points() {
        assert_vec_close(
            point.anchor_a + xf_a.p,
            point.point,
            TOLERANCE,
            "anchor_a + p_a",
        );
        assert_vec_close(
            point.anchor_b + xf_b.p,
            point.point,
            TOLERANCE,
            "anchor_b + p_b",
        );
        assert_eq!(point.normal_impulse, 0.0);
        assert_eq!(point.tangent_impulse, 0.0);
    }
}

fn circle(radius: f32) -> Shape {
    Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius,
    })
}

fn horizontal_capsule(half_length: f32, radius: f32) -> Shape {
    Shape::Capsule(Capsule {
        center1: Vec2::new(-half_length, 0.0),
        center2: Vec2::new(half_length, 0.0),
        radius,
    })
}

fn segment(x1: f32, x2: f32) -> Shape {
    Shape::Segment(Segment {
        point1: Vec2::new(x1, 0.0),
        point2: Vec2::new(x2, 0.0),
    })
}

/// A chain link on the x axis from `x1` down to `x2 < x1` (so its free side is +y), with
/// collinear ghosts one unit beyond each end.
fn flat_chain_link(x1: f32, x2: f32) -> ChainSegment {
    ChainSegment {
        ghost1: Vec2::new(x1 + 1.0, 0.0),
        segment: Segment {
            point1: Vec2::new(x1, 0.0),
            point2: Vec2::new(x2, 0.0),
        },
        ghost2: Vec2::new(x2 - 1.0, 0.0),
        chain_id: 0,
    }
}

/// A stacking case in the canonical frame: A at the origin, B centred at
/// `(b_x, b_base_y + gap)`; the contact points lie at `xs` and height `a_top + gap/2`.
struct StackCase<'a> {
    name: &'static str,
    shape_a: Shape,
    shape_b: Shape,
    b_x: f32,
    b_base_y: f32,
    a_top: f32,
    xs: &'a [f32],
}

/// The world frames the canonical configuration is placed in.
fn placements() -> [Transform; 2] {
    [Transform::IDENTITY, transform(3.7, -2.1, 0.7)]
}

/// Checks one case at gap `gap` in every placement and both orders.
fn check_stack_case(case: &StackCase<'_>, gap: f32) {
    for frame in placements() {
        let xf_a = frame;
        let xf_b = frame.mul(transform(case.b_x, case.b_base_y + gap, 0.0));
        let normal = frame.q.rotate(Vec2::Y);
        let manifold = collide(&case.shape_a, xf_a, &case.shape_b, xf_b);
        let label = format!("{} gap {gap}", case.name);
        if gap >= SPECULATIVE_DISTANCE {
            assert_eq!(manifold.point_count, 0, "{label}: expected no points");
            let swapped = collide(&case.shape_b, xf_b, &case.shape_a, xf_a);
            assert_eq!(
                swapped.point_count, 0,
                "{label} swapped: expected no points"
            );
            continue;
        }
        assert_eq!(manifold.point_count, case.xs.len(), "{label}: point count");
        assert_vec_close(manifold.normal, normal, 1e-5, &label);
        assert_anchors(&manifold, xf_a, xf_b);
        let mut expected: Vec<Vec2> = case
            .xs
            .iter()
            .map(|&x| frame.apply(Vec2::new(x, case.a_top + 0.5 * gap)))
            .collect();
        for point in manifold.points() {
            assert!(
                (point.separation - gap).abs() < TOLERANCE,
                "{label}: separation {}",
                point.separation
            );
            let nearest = expected
                .iter()
                .position(|&e| (e - point.point).length() < TOLERANCE)
                .unwrap_or_else(|| {
                    panic!(
                        "{label}: unexpected point {:?}, expected {expected:?}",
                        point.point
                    )
                });
            expected.remove(nearest);
        }

        let swapped = collide(&case.shape_b, xf_b, &case.shape_a, xf_a);
        assert_eq!(
            swapped.point_count, manifold.point_count,
            "{label} swapped: point count"
        );
        assert_vec_close(swapped.normal, -normal, 1e-5, &format!("{label} swapped"));
        assert_anchors(&swapped, xf_b, xf_a);
        for point in swapped.points() {
            assert!(
                (point.separation - gap).abs() < TOLERANCE,
                "{label} swapped: separation"
            );
        }
    }
}

fn check_all_gaps(case: &StackCase<'_>) {
    for gap in [-0.02, 0.0, 0.01, 0.05] {
        check_stack_case(case, gap);
    }
}

#[test]
fn collide_circle_circle() {
    check_all_gaps(&StackCase {
        name: "circle-circle",
        shape_a: circle(0.5),
        shape_b: circle(0.3),
        b_x: 0.0,
        b_base_y: 0.8,
        a_top: 0.5,
        xs: &[0.0],
    });
}

#[test]
fn collide_capsule_circle() {
    check_all_gaps(&StackCase {
        name: "capsule-circle",
        shape_a: horizontal_capsule(1.0, 0.25),
        shape_b: circle(0.5),
        b_x: 0.3,
        b_base_y: 0.75,
        a_top: 0.25,
        xs: &[0.3],
    });
}

#[test]
fn collide_capsule_capsule_parallel_gives_two_clipped_points() {
    check_all_gaps(&StackCase {
        name: "capsule-capsule parallel",
        shape_a: horizontal_capsule(1.0, 0.25),
        shape_b: horizontal_capsule(0.5, 0.25),
        b_x: 0.2,
        b_base_y: 0.5,
        a_top: 0.25,
        xs: &[-0.3, 0.7],
    });
    // Hanging past A's end: B's outer end is clipped to A's extent (x = 1).
    check_all_gaps(&StackCase {
        name: "capsule-capsule overhanging",
        shape_a: horizontal_capsule(1.0, 0.25),
        shape_b: horizontal_capsule(0.5, 0.25),
        b_x: 0.8,
        b_base_y: 0.5,
        a_top: 0.25,
        xs: &[0.3, 1.0],
    });
}

#[test]
fn collide_capsule_capsule_standing_gives_one_point() {
    let standing = Shape::Capsule(Capsule {
        center1: Vec2::ZERO,
        center2: Vec2::new(0.0, 1.0),
        radius: 0.25,
    });
    check_all_gaps(&StackCase {
        name: "capsule-capsule standing",
        shape_a: horizontal_capsule(1.0, 0.25),
        shape_b: standing,
        b_x: 0.3,
        b_base_y: 0.5,
        a_top: 0.25,
        xs: &[0.3],
    });
}

/// A capsule tilted on another keeps the point under its lower end with the same id whether
/// the raised end is still within the speculative distance (two points) or not (one point).
#[test]
fn collide_tilted_capsule_keeps_the_id_of_its_lower_end() {
    let lower_capsule = horizontal_capsule(1.0, 0.25);
    let mut ids_seen = Vec::new();
    for rise in [0.01, 0.05] {
        // The ends are 1 m apart, so the raised end is `rise` higher than the lower one.
        let angle = f32::asin(rise);
        let xf_b = transform(0.0, 0.5 + 0.5 * rise, angle);
        let m = collide(
            &lower_capsule,
            Transform::IDENTITY,
            &horizontal_capsule(0.5, 0.25),
            xf_b,
        );
        assert_vec_close(m.normal, Vec2::Y, 1e-6, "normal");
        let lower_end = m
            .points()
            .iter()
            .find(|p| p.separation.abs() < TOLERANCE)
            .expect("lower end point");
        assert_vec_close(
            lower_end.point,
            Vec2::new(-0.5 * angle.cos(), 0.25),
            TOLERANCE,
            "lower end",
        );
        ids_seen.push(lower_end.id);
        if rise < SPECULATIVE_DISTANCE {
            assert_eq!(m.point_count, 2);
            let raised = m
                .points()
                .iter()
                .find(|p| p.id != lower_end.id)
                .expect("raised end point");
            assert!(
                (raised.separation - rise).abs() < TOLERANCE,
                "raised {}",
                raised.separation
            );
        } else {
            assert_eq!(m.point_count, 1);
        }
    }
    assert_eq!(ids_seen[0], ids_seen[1]);
}

#[test]
fn collide_polygon_and_standing_capsule() {
    let standing = Shape::Capsule(Capsule {
        center1: Vec2::ZERO,
        center2: Vec2::new(0.0, 1.0),
        radius: 0.2,
    });
    check_all_gaps(&StackCase {
        name: "polygon-standing capsule",
        shape_a: Shape::Polygon(make_box(1.0, 0.5).unwrap()),
        shape_b: standing,
        b_x: 0.3,
        b_base_y: 0.7,
        a_top: 0.5,
        xs: &[0.3],
    });
}

#[test]
fn collide_polygon_circle_face_and_corner() {
    check_all_gaps(&StackCase {
        name: "polygon-circle",
        shape_a: Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        shape_b: circle(0.3),
        b_x: 0.1,
        b_base_y: 0.8,
        a_top: 0.5,
        xs: &[0.1],
    });
    // Off the corner (0.5, 0.5) along the diagonal: the normal is the diagonal and the
    // separation is the distance from the corner less the radius.
    for gap in [-0.02, 0.01] {
        let centre = Vec2::splat(0.5) + (0.3 + gap) * Vec2::splat(FRAC_1_SQRT_2);
        let xf_b = transform(centre.x, centre.y, 0.0);
        let m = collide(
            &Shape::Polygon(make_box(0.5, 0.5).unwrap()),
            Transform::IDENTITY,
            &circle(0.3),
            xf_b,
        );
        assert_eq!(m.point_count, 1);
        assert_vec_close(m.normal, Vec2::splat(FRAC_1_SQRT_2), 1e-5, "corner normal");
        assert!((m.points[0].separation - gap).abs() < TOLERANCE);
        let expected = Vec2::splat(0.5) + 0.5 * gap * Vec2::splat(FRAC_1_SQRT_2);
        assert_vec_close(m.points[0].point, expected, TOLERANCE, "corner point");
    }
}

#[test]
fn collide_polygon_capsule() {
    check_all_gaps(&StackCase {
        name: "polygon-capsule",
        shape_a: Shape::Polygon(make_box(1.0, 0.5).unwrap()),
        shape_b: horizontal_capsule(0.5, 0.2),
        b_x: 0.1,
        b_base_y: 0.7,
        a_top: 0.5,
        xs: &[-0.4, 0.6],
    });
}

#[test]
fn collide_polygon_polygon() {
    check_all_gaps(&StackCase {
        name: "box-box offset",
        shape_a: Shape::Polygon(make_box(1.0, 0.5).unwrap()),
        shape_b: Shape::Polygon(make_box(0.5, 0.25).unwrap()),
        b_x: 0.7,
        b_base_y: 0.75,
        a_top: 0.5,
        xs: &[0.2, 1.0],
    });
}

#[test]
fn collide_octagons_face_to_face() {
    let circumradius = 0.5;
    let points: Vec<Vec2> = (0..8)
        .map(|k| {
            let angle = (22.5f32 + 45.0 * k as f32).to_radians();
            circumradius * Vec2::new(angle.cos(), angle.sin())
        })
        .collect();
    let octagon = make_polygon(&points, 0.0).expect("regular octagon");
    let apothem = circumradius * 22.5f32.to_radians().cos();
    let half_face = circumradius * 22.5f32.to_radians().sin();
    check_all_gaps(&StackCase {
        name: "octagon-octagon",
        shape_a: Shape::Polygon(octagon),
        shape_b: Shape::Polygon(octagon),
        b_x: 0.0,
        b_base_y: 2.0 * apothem,
        a_top: apothem,
        xs: &[-half_face, half_face],
    });
}

#[test]
fn collide_rounded_polygon_polygon() {
    // Core 0.4 + radius 0.1: the rounded box's top surface is at y = 0.5.
    check_all_gaps(&StackCase {
        name: "rounded box-box",
        shape_a: Shape::Polygon(make_rounded_box(0.4, 0.4, 0.1).unwrap()),
        shape_b: Shape::Polygon(make_box(0.3, 0.5).unwrap()),
        b_x: 0.05,
        b_base_y: 1.0,
        a_top: 0.5,
        xs: &[-0.25, 0.35],
    });
    check_all_gaps(&StackCase {
        name: "rounded box-rounded box",
        shape_a: Shape::Polygon(make_rounded_box(0.4, 0.4, 0.1).unwrap()),
        shape_b: Shape::Polygon(make_rounded_box(0.2, 0.3, 0.05).unwrap()),
        b_x: 0.0,
        b_base_y: 0.85,
        a_top: 0.5,
        xs: &[-0.2, 0.2],
    });
}

/// Corner to corner along each diagonal, sharp and rounded: the closest features are two
/// vertices, so the normal is the diagonal and the separation the gap between the surfaces.
#[test]
fn collide_corners_use_the_vertex_to_vertex_normal() {
    // Cores with half extent 0.4 and corners at (±0.4, ±0.4); B's nearest core corner is
    // offset by k along the diagonal, so the surfaces are k·√2 − (r_a + r_b) apart.
    for radius in [0.0, 0.1] {
        let shape = Shape::Polygon(make_rounded_box(0.4, 0.4, radius).unwrap());
        for diagonal in [
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
        ] {
            for gap in [0.01, 0.05] {
                let k = (gap + 2.0 * radius) * FRAC_1_SQRT_2;
                let centre = (0.8 + k) * diagonal;
                let xf_b = transform(centre.x, centre.y, 0.0);
                let m = collide(&shape, Transform::IDENTITY, &shape, xf_b);
                let swapped = collide(&shape, xf_b, &shape, Transform::IDENTITY);
                if gap >= SPECULATIVE_DISTANCE {
                    assert_eq!((m.point_count, swapped.point_count), (0, 0));
                    continue;
                }
                let normal = diagonal * FRAC_1_SQRT_2;
                assert_eq!(
                    (m.point_count, swapped.point_count),
                    (1, 1),
                    "diagonal {diagonal:?}"
                );
                assert_vec_close(m.normal, normal, 1e-5, "diagonal normal");
                assert_vec_close(swapped.normal, -normal, 1e-5, "swapped normal");
                assert!((m.points[0].separation - gap).abs() < TOLERANCE);
                assert!((swapped.points[0].separation - gap).abs() < TOLERANCE);
                let midway = 0.4 * diagonal + (radius + 0.5 * gap) * normal;
                assert_vec_close(m.points[0].point, midway, TOLERANCE, "midway point");
                assert_vec_close(
                    swapped.points[0].point,
                    midway,
                    TOLERANCE,
                    "swapped midway point",
                );
                assert_anchors(&m, Transform::IDENTITY, xf_b);
                assert_anchors(&swapped, xf_b, Transform::IDENTITY);
            }
        }
    }
}

#[test]
fn collide_segment_pairs() {
    check_all_gaps(&StackCase {
        name: "segment-circle",
        shape_a: segment(-1.0, 1.0),
        shape_b: circle(0.5),
        b_x: 0.2,
        b_base_y: 0.5,
        a_top: 0.0,
        xs: &[0.2],
    });
    check_all_gaps(&StackCase {
        name: "segment-capsule",
        shape_a: segment(-1.0, 1.0),
        shape_b: horizontal_capsule(0.5, 0.2),
        b_x: 0.0,
        b_base_y: 0.2,
        a_top: 0.0,
        xs: &[-0.5, 0.5],
    });
    check_all_gaps(&StackCase {
        name: "segment-polygon",
        shape_a: segment(-1.0, 1.0),
        shape_b: Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        b_x: 0.2,
        b_base_y: 0.5,
        a_top: 0.0,
        xs: &[-0.3, 0.7],
    });
}

#[test]
fn collide_chain_pairs() {
    let link = Shape::ChainSegment(flat_chain_link(1.0, -1.0));
    check_all_gaps(&StackCase {
        name: "chain-circle",
        shape_a: link,
        shape_b: circle(0.5),
        b_x: 0.2,
        b_base_y: 0.5,
        a_top: 0.0,
        xs: &[0.2],
    });
    check_all_gaps(&StackCase {
        name: "chain-capsule",
        shape_a: link,
        shape_b: horizontal_capsule(0.5, 0.2),
        b_x: 0.0,
        b_base_y: 0.2,
        a_top: 0.0,
        xs: &[-0.5, 0.5],
    });
    check_all_gaps(&StackCase {
        name: "chain-polygon",
        shape_a: link,
        shape_b: Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        b_x: 0.2,
        b_base_y: 0.5,
        a_top: 0.0,
        xs: &[-0.3, 0.7],
    });
}

#[test]
fn collide_segments_and_chains_never_touch_each_other() {
    let link = Shape::ChainSegment(flat_chain_link(1.0, -1.0));
    let free = segment(-1.0, 1.0);
    let crossing = transform(0.0, 0.0, 1.0);
    for (a, b) in [(link, link), (link, free), (free, link), (free, free)] {
        assert_eq!(
            collide(&a, Transform::IDENTITY, &b, crossing).point_count,
            0
        );
    }
}

#[test]
fn collide_chain_back_side_gives_no_contact() {
    let link = Shape::ChainSegment(flat_chain_link(1.0, -1.0));
    // Overlapping from behind: the circle's centre and the box's centroid are below the link.
    let below = transform(0.2, -0.3, 0.0);
    assert_eq!(
        collide(&link, Transform::IDENTITY, &circle(0.5), below).point_count,
        0
    );
    assert_eq!(
        collide(&circle(0.5), below, &link, Transform::IDENTITY).point_count,
        0
    );
    let box_shape = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    assert_eq!(
        collide(&link, Transform::IDENTITY, &box_shape, below).point_count,
        0
    );
    assert_eq!(
        collide(
            &link,
            Transform::IDENTITY,
            &horizontal_capsule(0.5, 0.4),
            below
        )
        .point_count,
        0
    );
    // The same circle mirrored above the link does touch it, pushed up.
    let above = transform(0.2, 0.3, 0.0);
    let m = collide(&link, Transform::IDENTITY, &circle(0.5), above);
    assert_eq!(m.point_count, 1);
    assert!((m.points[0].separation + 0.2).abs() < TOLERANCE);
}

/// Every manifold a box gets from the two links of a flat chain while sliding across their join
/// at x = 0, for several heights (touching, sinking slightly, hovering within the speculative
/// distance) and slight tilts: the normal is always straight up and the box never loses support.
#[test]
fn collide_box_sliding_over_a_chain_join_sees_only_up_normals() {
    let right = Shape::ChainSegment(ChainSegment {
        ghost1: Vec2::new(4.0, 0.0),
        segment: Segment {
            point1: Vec2::new(2.0, 0.0),
            point2: Vec2::ZERO,
        },
        ghost2: Vec2::new(-2.0, 0.0),
        chain_id: 0,
    });
    let left = Shape::ChainSegment(ChainSegment {
        ghost1: Vec2::new(2.0, 0.0),
        segment: Segment {
            point1: Vec2::ZERO,
            point2: Vec2::new(-2.0, 0.0),
        },
        ghost2: Vec2::new(-4.0, 0.0),
        chain_id: 0,
    });
    let shapes = [
        Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        horizontal_capsule(0.5, 0.5),
        circle(0.5),
    ];
    for shape in &shapes {
        for height in [0.5, 0.497, 0.51] {
            for tilt_degrees in [0.0f32, 0.3, -0.3] {
                for step in -150..=150 {
                    let x = step as f32 * 0.01;
                    let xf_b = transform(x, height, tilt_degrees.to_radians());
                    let mut supporting_points = 0;
                    for link in [&right, &left] {
                        let m = collide(link, Transform::IDENTITY, shape, xf_b);
                        if m.point_count > 0 {
                            assert!(
                                m.normal.y > 0.9999,
                                "x {x} height {height}: normal {:?}",
                                m.normal
                            );
                        }
                        supporting_points += m.point_count;
                    }
                    assert!(supporting_points > 0, "x {x} height {height}: lost support");
                }
            }
        }
    }
}

/// On a convex corner (a hill top) a box tilted to lie on the slope of the far side rests on
/// the vertex with its own face normal, which lies inside the smooth cone there.
#[test]
fn collide_box_on_convex_chain_corner_uses_its_face_normal() {
    // Flat top to the right of the origin, then a 30° slope down to the left.
    let slope = Vec2::new(-30f32.to_radians().cos(), -30f32.to_radians().sin());
    let top = Shape::ChainSegment(ChainSegment {
        ghost1: Vec2::new(4.0, 0.0),
        segment: Segment {
            point1: Vec2::new(2.0, 0.0),
            point2: Vec2::ZERO,
        },
        ghost2: 2.0 * slope,
        chain_id: 0,
    });
    // The box is tilted by 15° (halfway between the two faces' normals) and its bottom face
    // touches the corner at the face's midpoint.
    let tilt = 15f32.to_radians();
    let face_normal = Vec2::new(-tilt.sin(), tilt.cos());
    let centre = 0.5 * face_normal;
    let m = collide(
        &top,
        Transform::IDENTITY,
        &Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        transform(centre.x, centre.y, tilt),
    );
    assert_eq!(m.point_count, 1);
    assert_vec_close(m.normal, face_normal, 1e-5, "face normal");
    assert!(m.points[0].separation.abs() < TOLERANCE);
    assert_vec_close(m.points[0].point, Vec2::ZERO, TOLERANCE, "at the corner");
}

/// A circle over a convex corner (a hill top) touches the vertex: exactly one of the two links
/// meeting there reports it, with the normal from the vertex to the centre.
#[test]
fn collide_circle_on_convex_chain_corner_touches_the_vertex_once() {
    let slope = Vec2::new(-30f32.to_radians().cos(), -30f32.to_radians().sin());
    let top = Shape::ChainSegment(ChainSegment {
        ghost1: Vec2::new(4.0, 0.0),
        segment: Segment {
            point1: Vec2::new(2.0, 0.0),
            point2: Vec2::ZERO,
        },
        ghost2: 2.0 * slope,
        chain_id: 0,
    });
    let down = Shape::ChainSegment(ChainSegment {
        ghost1: Vec2::new(2.0, 0.0),
        segment: Segment {
            point1: Vec2::ZERO,
            point2: 2.0 * slope,
        },
        ghost2: 4.0 * slope,
        chain_id: 0,
    });
    for lean_degrees in [5.0f32, 15.0, 25.0] {
        let direction = Vec2::new(
            -lean_degrees.to_radians().sin(),
            lean_degrees.to_radians().cos(),
        );
        let gap = 0.01;
        let centre = (0.5 + gap) * direction;
        let ball = transform(centre.x, centre.y, 0.0);
        let from_top = collide(&top, Transform::IDENTITY, &circle(0.5), ball);
        let from_down = collide(&down, Transform::IDENTITY, &circle(0.5), ball);
        assert_eq!(
            (from_top.point_count, from_down.point_count),
            (0, 1),
            "lean {lean_degrees}"
        );
        assert_vec_close(from_down.normal, direction, 1e-5, "vertex normal");
        assert!((from_down.points[0].separation - gap).abs() < TOLERANCE);
    }
}

fn sorted_ids(manifold: &Manifold) -> Vec<u16> {
    let mut ids: Vec<u16> = manifold.points().iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids
}

#[test]
fn collide_box_resting_on_box() {
    let unit_box = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let lower = Transform::IDENTITY;
    let upper = transform(0.0, 1.0, 0.0);
    let m = collide(&unit_box, lower, &unit_box, upper);
    assert_eq!(m.point_count, 2);
    assert_vec_close(m.normal, Vec2::Y, 1e-6, "normal");
    assert_anchors(&m, lower, upper);
    let mut xs: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(
        (xs[0] + 0.5).abs() < 1e-5 && (xs[1] - 0.5).abs() < 1e-5,
        "xs {xs:?}"
    );
    for point in m.points() {
        assert!(point.separation.abs() < 1e-5);
        assert!((point.point.y - 0.5).abs() < 1e-5);
    }
    let ids = sorted_ids(&m);
    assert_ne!(ids[0], ids[1]);

    // The same two ids for small motions.
    for nudged in [
        transform(0.001, 1.0, 0.0),
        transform(-0.001, 0.999, 0.0),
        transform(0.0, 1.0, 0.5f32.to_radians()),
    ] {
        let moved = collide(&unit_box, lower, &unit_box, nudged);
        assert_eq!(moved.point_count, 2);
        assert_eq!(sorted_ids(&moved), ids, "ids after nudge {nudged:?}");
    }
    let rotated = collide(
        &unit_box,
        lower,
        &unit_box,
        transform(0.0, 1.0, -0.5f32.to_radians()),
    );
    assert_eq!(sorted_ids(&rotated), ids);
}

#[test]
fn collide_box_balanced_on_its_corner() {
    let unit_box = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let upper = transform(0.0, 0.5 + FRAC_1_SQRT_2 * 1.0, FRAC_PI_4);
    let m = collide(&unit_box, Transform::IDENTITY, &unit_box, upper);
    assert_eq!(m.point_count, 1);
    assert_vec_close(m.normal, Vec2::Y, 1e-6, "normal");
    assert!(m.points[0].separation.abs() < 1e-5);
    assert_vec_close(m.points[0].point, Vec2::new(0.0, 0.5), 1e-5, "corner");
}

#[test]
fn collide_far_apart_bodies_keep_precision() {
    // The same resting pair a kilometre from the origin: the local-frame evaluation keeps the
    // separation within f32 rounding of the coordinates.
    let unit_box = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let lower = transform(1000.0, -1000.0, 0.0);
    let upper = transform(1000.0, -999.0, 0.0);
    let m = collide(&unit_box, lower, &unit_box, upper);
    assert_eq!(m.point_count, 2);
    for point in m.points() {
        assert!(point.separation.abs() < 1e-4);
        assert!((point.anchor_a.y - 0.5).abs() < 1e-4 && (point.anchor_b.y + 0.5).abs() < 1e-4);
    }
}

/// A capsule with a zero-length core is the circle it looks like, against every shape family.
#[test]
fn collide_point_capsule_behaves_as_a_circle() {
    let point_capsule = Shape::Capsule(Capsule {
        center1: Vec2::ZERO,
        center2: Vec2::ZERO,
        radius: 0.3,
    });
    let as_circle = circle(0.3);
    let link = Shape::ChainSegment(flat_chain_link(1.0, -1.0));
    let box_shape = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    for (base, base_top) in [(box_shape, 0.5), (link, 0.0)] {
        // Off a corner for the box, over the middle for the link.
        let xf_b = transform(0.55, base_top + 0.31, 0.0);
        let expected = collide(&base, Transform::IDENTITY, &as_circle, xf_b);
        let actual = collide(&base, Transform::IDENTITY, &point_capsule, xf_b);
        assert_eq!(actual.point_count, 1);
        assert_eq!(actual.point_count, expected.point_count);
        assert_vec_close(actual.normal, expected.normal, 1e-6, "normal");
        assert!((actual.points[0].separation - expected.points[0].separation).abs() < 1e-6);
    }
}

/// Bad input never panics: a polygon with an impossible vertex count gives no contact, and
/// non-finite transforms give no contact or non-finite numbers, never a crash.
#[test]
fn collide_bad_input_does_not_panic() {
    let mut broken = make_box(0.5, 0.5).unwrap();
    broken.count = 0;
    let box_shape = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let link = Shape::ChainSegment(flat_chain_link(1.0, -1.0));
    let near = transform(0.0, 0.9, 0.0);
    for other in [
        box_shape,
        circle(0.5),
        horizontal_capsule(0.5, 0.2),
        link,
        segment(-1.0, 1.0),
    ] {
        assert_eq!(
            collide(&Shape::Polygon(broken), Transform::IDENTITY, &other, near).point_count,
            0
        );
        assert_eq!(
            collide(&other, near, &Shape::Polygon(broken), Transform::IDENTITY).point_count,
            0
        );
    }
    let nan = transform(f32::NAN, 0.0, 0.0);
    let shapes = [
        box_shape,
        circle(0.5),
        horizontal_capsule(0.5, 0.2),
        link,
        segment(-1.0, 1.0),
    ];
    for a in &shapes {
        for b in &shapes {
            let m = collide(a, Transform::IDENTITY, b, nan);
            assert!(m.point_count <= 2);
        }
    }
}

/// A short capsule tilted by 60° over a long one touches it with its lower end: one point,
/// normal perpendicular to the long core, separation the end's height less both radii.
#[test]
fn collide_tilted_short_capsule_touches_with_its_end() {
    let a = horizontal_capsule(1.0, 0.1);
    let tilt = 60f32.to_radians();
    for gap in [-0.02, 0.01] {
        // B's lower core end sits at (0.25, 0.2 + gap).
        let xf_b = transform(0.3, 0.2 + 0.1 * tilt.sin() + gap, tilt);
        let m = collide(&a, Transform::IDENTITY, &horizontal_capsule(0.1, 0.1), xf_b);
        assert_eq!(m.point_count, 1);
        assert_vec_close(m.normal, Vec2::Y, 1e-5, "normal");
        assert!((m.points[0].separation - gap).abs() < TOLERANCE);
        assert_vec_close(
            m.points[0].point,
            Vec2::new(0.25, 0.1 + 0.5 * gap),
            TOLERANCE,
            "end point",
        );
    }
}
