//! How deep two boxes overlap, from their poses, by the separating axis theorem.
//!
//! Two convex shapes are disjoint exactly when some axis separates their projections; for two
//! rectangles the four edge normals are the only candidates. Projected on a unit axis `n`, a
//! box of half extents `(hx, hy)` with axes `u, v` covers `c·n ± (hx |u·n| + hy |v·n|)`, so
//! along `n` the two boxes overlap by
//!
//! ```text
//!   o(n) = rA(n) + rB(n) − |(cB − cA)·n|
//! ```
//!
//! The penetration depth — the shortest push that separates them — is the smallest `o(n)` over
//! the four normals. When it is negative the boxes are apart and `−o` is a lower bound on
//! their distance (exact when a face faces a face, as in a stack).

use super::Pose;
use prism::Vec2;

/// The penetration depth (m) of two boxes with half extents `half_a`, `half_b` at poses `a`,
/// `b` (centred on the body origins): positive when they overlap, negative when apart.
pub fn box_box(a: &Pose, half_a: Vec2, b: &Pose, half_b: Vec2) -> f32 {
    let axes_a = axes(a.angle);
    let axes_b = axes(b.angle);
    let offset = b.position - a.position;
    axes_a
        .iter()
        .chain(&axes_b)
        .map(|&n| radius(axes_a, half_a, n) + radius(axes_b, half_b, n) - offset.dot(n).abs())
        .fold(f32::INFINITY, f32::min)
}

/// How far (m) a box with half extents `half` at `pose` reaches below the line `y = top`
/// (negative when its lowest corner is above it).
pub fn box_below_line(pose: &Pose, half: Vec2, top: f32) -> f32 {
    let reach = radius(axes(pose.angle), half, Vec2::new(0.0, 1.0));
    top - (pose.position.y - reach)
}

/// A box's two unit axes at `angle`.
fn axes(angle: f32) -> [Vec2; 2] {
    let (sin, cos) = angle.sin_cos();
    [Vec2::new(cos, sin), Vec2::new(-sin, cos)]
}

/// The half-width of a box's projection on the unit axis `n`.
fn radius(axes: [Vec2; 2], half: Vec2, n: Vec2) -> f32 {
    half.x * axes[0].dot(n).abs() + half.y * axes[1].dot(n).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f32, y: f32, angle: f32) -> Pose {
        Pose {
            position: Vec2::new(x, y),
            angle,
        }
    }

    const UNIT: Vec2 = Vec2::new(0.5, 0.5);

    /// Two unit boxes stacked 2 cm into each other overlap by 2 cm; 3 cm apart, by −3 cm;
    /// side by side with a 0.3 m horizontal shift the vertical overlap still decides.
    #[test]
    fn stacked_boxes() {
        let light = pose(0.0, 0.5, 0.0);
        assert!((box_box(&light, UNIT, &pose(0.0, 1.48, 0.0), UNIT) - 0.02).abs() < 1e-6);
        assert!((box_box(&light, UNIT, &pose(0.0, 1.53, 0.0), UNIT) + 0.03).abs() < 1e-6);
        assert!((box_box(&light, UNIT, &pose(0.3, 1.48, 0.0), UNIT) - 0.02).abs() < 1e-6);
        // Deep sideways overlap: the horizontal push (0.1 m) is the shorter one.
        assert!((box_box(&light, UNIT, &pose(0.9, 0.8, 0.0), UNIT) - 0.1).abs() < 1e-6);
    }

    /// A unit box turned 45° standing on its corner: the corner reaches √2/2 below its centre,
    /// so centred at y = 0.7 it is 7.1 mm into the ground; a box resting on it along the
    /// vertical axis reaches √2/2 + 0.5 down.
    #[test]
    fn turned_box_corner() {
        let diamond = pose(0.0, 0.7, std::f32::consts::FRAC_PI_4);
        let half_diagonal = std::f32::consts::FRAC_1_SQRT_2;
        let depth = box_below_line(&diamond, UNIT, 0.0);
        assert!((depth - (half_diagonal - 0.7)).abs() < 1e-6, "{depth}");
        let above = pose(0.0, 0.7 + half_diagonal + 0.5 - 0.01, 0.0);
        let depth = box_box(&diamond, UNIT, &above, UNIT);
        assert!((depth - 0.01).abs() < 1e-5, "{depth}");
        assert!((box_below_line(&pose(0.0, 0.5, 0.0), UNIT, 0.0)).abs() < 1e-7);
    }
}
