//! Continuous collision: fast bodies are swept over the step and moved back to their first
//! impact, so that they cannot pass through thin obstacles between two steps.
//!
//! Speculative contacts (`collision`'s manifolds keep points up to the speculative distance)
//! stop every body whose contacts exist before it arrives; what they cannot stop is a body
//! that crosses an obstacle within one step, before any contact was made. That is a body that
//! moves farther in a step than it is thick, so the finalize pass (`finalize.rs`) picks out,
//! as Box2D v3 does, the awake dynamic bodies that are not resting and whose motion bound
//!
//! ```text
//!   max(|Δc| + chord(Δq)·max_extent,  (|v| + |ω|·max_extent)·dt)  >  ½·min_extent
//! ```
//!
//! — the larger of the step's displacement of the farthest point and the same at the final
//! velocity — exceeds half the body's *min extent* (`BodySim::min_extent`: the smallest shape
//! thickness about its centroid, `mass.rs`). Those bodies are *fast*; only they are swept.
//!
//! ## The sweep
//!
//! A fast body's motion over the step is the sweep from its pose at the start of the step
//! (`center0`, `rotation0`) to its pose now: the centre of mass on a straight line, the
//! rotation normalised-interpolated (`collision::Sweep`). For each of its shapes the box
//! swept between the two poses is queried in the broadphase, and every candidate passes
//! these filters, as in Box2D's continuous query:
//!
//! ```text
//!   same body                                    skip
//!   a sensor (on either side)                    skip (sensors never stop a body)
//!   shape filters refuse the pair                skip
//!   the custom filter refuses the pair           skip (hooks.rs; asked as for a new pair)
//!   the pre-solve hook decides the pair          skip (it cannot be asked about an impact
//!                                                that has no manifold yet: a one-way
//!                                                platform must let a fast body through)
//!   the other body is a dynamic bullet           skip (bullets are not swept against bullets)
//!   a joint joins the bodies without collision   skip
//!   chain segment: the shape's centroid starts   skip (one-sided: its back is open)
//!     behind it, or approaches it by less than
//!     a quarter of the min extent and ends more
//!     than that in front of it                   skip (the contacts will see it in time)
//! ```
//!
//! then gives a time of impact (`collision::time_of_impact`, conservative advancement on the
//! GJK distance). The search for each candidate is limited to the earliest impact found so
//! far. If an impact was found at `t < 1`, the body is moved back to its pose at `t` (velocity
//! unchanged). The next step's pair update finds the obstacle, the narrowphase gives a
//! speculative contact, and the solver stops the body as it stops any other.
//!
//! **Where a body stops.** As in Box2D (`ToiInput::new`): sharp shapes a linear slop short of
//! touching, so the next step's contact is speculative and the solver closes the gap rigidly;
//! rounded ones (circles, capsules, rounded polygons) a slop into the obstacle, so the
//! contact starts touching and is solved softly. At bullet speeds the soft contact lets a few
//! per cent of the approach speed through its first substep: a 5 cm ball at 200 m/s stopped
//! at a static wall then sinks 2.3 cm into it before it is pushed back (its centre stays in
//! front). Stopping rounded shapes a slop short as well was tried: it removes that sinking but
//! leaves every fast rounded body that lands on the ground hovering a slop above it for a
//! step, and a ball glancing off a fast plate with friction sank deeper (3.7 cm against
//! 1.5 cm), so Box2D's rule stays.
//!
//! **Shapes already touching.** A shape that touches an obstacle at the start of the step has
//! time of impact 0 and would never be swept; for it, as in Box2D, a small disc about its
//! centroid (a quarter of the shape's inner radius) is swept instead, so a body pressed against
//! one wall still cannot cross the next. The disc moves along the straight path of the
//! centroid: a disc does not care how the body turns, and a body turning by nearly half a turn
//! in a step (the solver lets a body turn π/4 per substep, Box2D π/4 per step) has no
//! interpolated rotation to sweep. Beyond Box2D: if the disc itself already touches the
//! obstacle and its path closes in, the shape is deep in the obstacle — the solver let the far
//! end of a body spun up by a glancing hit swing through a wall — and the body is held at its
//! start pose (`t = 0`) for the contact to push it out. Measured on 120 bodies (capsules,
//! 16 × 6 cm boxes, circles) fired one at a time at 120 m/s at a closed chain room: without
//! the hold 13 elongated ones left the room, with it none (Box2D, whose rotation limit keeps
//! such spins down, lost none); the shooting gallery of `tests/continuous.rs` lost 7 of its
//! 604 bodies without it.
//!
//! **Moving obstacles.** A bullet is swept against a moving body's *final* pose, as in Box2D.
//! That is right when they meet (the bullet stops where the obstacle will be), but not when
//! the two were already in contact at the start of the step: a bullet pushed along by a fast
//! body starts on the far side of the pusher's final pose and would be "stopped" there,
//! through it. So a moving obstacle whose shape was within the speculative distance of the
//! bullet's at the start of the step (their contact had points, and the solver kept them
//! apart) is not an impact.
//!
//! ## Against what, and in which order
//!
//! A fast body is swept against static shapes only. A *bullet* (`BodyDef::is_bullet`) is also
//! swept against dynamic and kinematic bodies, awake or asleep, in a later pass, once every
//! other body, fast ones included, has its final pose: those bodies are obstacles standing at
//! that pose. So the two passes read only what no sweep of the same pass writes — static
//! shapes, or the final poses of non-bullets — and each body's result depends on nothing but
//! its own sweep and those obstacles. The non-bullet sweeps run at the end of each finalize
//! chunk, over that chunk's fast bodies while their sims are still in cache (their escapes are
//! applied after the other bodies', in chunk order); the bullets, in awake-set order, are cut
//! into fixed chunks of [`BULLET_CHUNK`] and their new poses applied in that order. The result
//! is the same for any worker count.
//!
//! ## Cost
//!
//! A body that is not fast costs the motion test. A fast body costs, per shape, two boxes (the
//! end-of-step one is reused by the box test unless the body is moved back), a tree query, and
//! a time of impact per obstacle in its swept box — typically two to four GJK calls; the
//! distance proxies are made only for an obstacle that passes the filters. The step profile's
//! `continuous` field times the sweeps.

use crate::body::Body;
use crate::error::PrismError;
use crate::finalize::{apply_escape, test_body};
use crate::hooks::{Hooks, custom_filter_accepts};
use crate::joint::{JointRecord, joint_forbids_collision};
use crate::profile::zone;
use crate::shape::ShapeRecord;
use crate::solver_set::{AWAKE_SET, SolverSet};
use crate::world::World;
use collision::geometry::{compute_aabb, shape_centroid, shape_inner_radius};
use collision::tree::DynamicTree;
use collision::{
    Aabb, DistanceInput, LINEAR_SLOP, SPECULATIVE_DISTANCE, Shape, ShapeProxy, SimplexCache, Sweep,
    ToiInput, ToiState, shape_distance, time_of_impact,
};
use core_soa::{
    Arena, BodyId, BodySim, BodyState, BodyType, JointId, Rot, ShapeId, Transform, Vec2,
    body_flags, cross,
};

/// Bullets per parallel task: a bullet's sweep costs microseconds, so small tasks spread a
/// volley over every worker.
const BULLET_CHUNK: usize = 16;

/// The fraction of a shape's min extent (and of a body's) that counts as its core: the radius
/// of the fallback disc, and the chain early-out's distances (Box2D's value).
const CORE_FRACTION: f32 = 0.25;

/// Whether a dynamic body moved far enough this step to be swept (see the module notes);
/// `dt` is the step. The caller leaves out resting bodies.
pub(crate) fn is_fast(sim: &BodySim, state: &BodyState, dt: f32) -> bool {
    if state.flags & body_flags::DYNAMIC == 0 {
        return false;
    }
    // Most fast bodies are plainly fast: their centre alone moved (or would move) well over
    // the threshold. Squared lengths with a 1 % margin decide those without a square root or a
    // division, and leave every case near the threshold to the exact test below, so the
    // answer is the same.
    let clear = 1.01 * 0.5 * sim.min_extent;
    let (velocity, displacement) = (state.linear_velocity, state.delta_position);
    let clear_sq = clear * clear;
    if velocity.length_squared() * (dt * dt) > clear_sq || displacement.length_squared() > clear_sq
    {
        return true;
    }
    let reach = sim.max_extent;
    let speed = state.linear_velocity.length() + state.angular_velocity.abs() * reach;
    let travel = state.delta_position.length() + rotation_chord(state.delta_rotation) * reach;
    travel.max(speed * dt) > 0.5 * sim.min_extent
}

/// `|R(q) − I|`, how far a turn by `q` moves a point at unit distance from the centre: the
/// chord `√((c − 1)² + s²)` of the normalised `q`.
pub(crate) fn rotation_chord(q: Rot) -> f32 {
    let norm = (q.c * q.c + q.s * q.s).sqrt();
    let (c, s) = (q.c / norm, q.s / norm);
    ((c - 1.0) * (c - 1.0) + s * s).sqrt()
}

/// The poses of the bodies a sweep meets: the solver sets below the awake set (static,
/// disabled) and, for the bullet pass, the awake and sleeping sets (empty in the non-bullet
/// pass, which holds the awake set for writing).
#[derive(Clone, Copy)]
struct ObstacleSims<'a> {
    below_awake: &'a [SolverSet],
    from_awake: &'a [SolverSet],
}

impl<'a> ObstacleSims<'a> {
    fn sim(&self, body: &Body) -> Option<&'a BodySim> {
        let awake = AWAKE_SET as usize;
        let set = body.set_index as usize;
        let sets = if set < awake {
            self.below_awake.get(set)
        } else {
            self.from_awake.get(set - awake)
        };
        sets?.bodies.sims().get(body.local_index as usize)
    }
}

/// What a sweep reads: the shapes and bodies, the trees it queries and the obstacles' poses.
#[derive(Clone, Copy)]
pub(crate) struct Obstacles<'a> {
    bodies: &'a Arena<Body, BodyId>,
    shapes: &'a Arena<ShapeRecord, ShapeId>,
    joints: &'a Arena<JointRecord, JointId>,
    static_tree: &'a DynamicTree,
    /// For bullets, the moving and sleeping trees; `None` for the other fast bodies.
    body_trees: Option<[&'a DynamicTree; 2]>,
    sims: ObstacleSims<'a>,
    hooks: &'a Hooks,
}

/// One shape of the fast body, on its sweep. Its distance proxy and centroids are made only
/// for the rare candidate that passes the box test and the filters (`Obstacles::impact`).
struct FastShape<'a> {
    /// The shape's arena index and record.
    index: u32,
    record: &'a ShapeRecord,
}

impl FastShape<'_> {
    /// The shape's centroid at the start and the end of the sweep (world).
    fn centroids(&self, fast: &FastBody<'_>) -> (Vec2, Vec2) {
        let centroid = shape_centroid(&self.record.geometry);
        (fast.start.apply(centroid), fast.end.apply(centroid))
    }
}

/// The fast body being swept.
struct FastBody<'a> {
    body: &'a Body,
    index: u32,
    sweep: Sweep,
    /// The body's transform at the start and at the end of the sweep.
    start: Transform,
    end: Transform,
    min_extent: f32,
}

impl<'a> Obstacles<'a> {
    /// The obstacles of a fast body that is not a bullet: the static shapes (see the module
    /// notes). `below_awake` are the solver sets below the awake set (static, disabled).
    pub(crate) fn static_only(
        world: (&'a Arena<Body, BodyId>, &'a Arena<ShapeRecord, ShapeId>),
        joints: &'a Arena<JointRecord, JointId>,
        static_tree: &'a DynamicTree,
        below_awake: &'a [SolverSet],
        hooks: &'a Hooks,
    ) -> Self {
        let (bodies, shapes) = world;
        Obstacles {
            bodies,
            shapes,
            joints,
            static_tree,
            body_trees: None,
            sims: ObstacleSims {
                below_awake,
                from_awake: &[],
            },
            hooks,
        }
    }

    /// The bodies and shapes the sweeps read.
    pub(crate) fn bodies_and_shapes(
        &self,
    ) -> (&'a Arena<Body, BodyId>, &'a Arena<ShapeRecord, ShapeId>) {
        (self.bodies, self.shapes)
    }

    /// Sweeps the fast body of `sim` and moves it back to its first impact, if it has one;
    /// returns whether it did. `end_boxes` receives each of the body's shapes with its tight
    /// box at the body's pose at the end of the step, which the box test reuses when the body
    /// was not moved back; it is left empty when no shape needed a sweep.
    pub(crate) fn sweep(
        &self,
        sim: &mut BodySim,
        end_boxes: &mut Vec<(ShapeId, &'a ShapeRecord, Aabb)>,
    ) -> bool {
        let t = self.first_impact(sim, end_boxes);
        if t < 1.0 {
            move_to_impact(sim, t);
        }
        t < 1.0
    }

    /// The earliest fraction of the step at which the body of `sim` meets an obstacle, or 1
    /// (see the module notes); pushes each shape with its end-of-step box to `end_boxes`.
    fn first_impact(
        &self,
        sim: &BodySim,
        end_boxes: &mut Vec<(ShapeId, &'a ShapeRecord, Aabb)>,
    ) -> f32 {
        end_boxes.clear();
        let Some(body) = self.bodies.get_by_index(sim.body) else {
            return 1.0;
        };
        let sweep = body_sweep(sim);
        if self.body_trees.is_none() && !self.static_in_reach(&sweep, sim.max_extent) {
            return 1.0;
        }
        let start = Transform::new(sweep.c1 - sweep.q1.rotate(sweep.local_center), sweep.q1);
        let fast = FastBody {
            body,
            index: sim.body,
            sweep,
            start,
            end: sim.transform,
            min_extent: sim.min_extent,
        };
        let mut fraction = 1.0;
        for (id, record) in body_shapes(body, self.shapes) {
            let end_box = compute_aabb(&record.geometry, sim.transform);
            end_boxes.push((id, record, end_box));
            if record.is_sensor {
                continue;
            }
            let shape = FastShape {
                index: id.index(),
                record,
            };
            let swept = compute_aabb(&record.geometry, start).union(&end_box);
            let mut query = |tree: &DynamicTree| {
                tree.query(&swept, u64::MAX, |_proxy, user_data| {
                    if let Some(t) = self.impact(&fast, &shape, user_data as u32, fraction) {
                        fraction = t;
                    }
                    true
                });
            };
            query(self.static_tree);
            for tree in self.body_trees.iter().flatten() {
                query(tree);
            }
        }
        fraction
    }

    /// Whether any static shape's box may lie within `max_extent` of the centre of mass's path
    /// on `sweep` — where every point of the body passes during the step. If not, the body can
    /// hit nothing static, and its shapes need no sweep (a body high above the ground, or any
    /// body in a world without static shapes). One query of the static tree with the path's
    /// box, grown by the extent, decides it, where each shape's sweep would query it again.
    ///
    /// Every shape's swept box lies inside that box: a point of the body is within
    /// `max_extent` of the centre at both ends of the step. The box is grown a little more for
    /// the rounding of the shapes' boxes, which is relative to the coordinates (as in the
    /// finalize's motion bound), so whenever a shape's sweep would find a candidate this query
    /// finds one too, and skipping the sweeps changes no result.
    fn static_in_reach(&self, sweep: &Sweep, max_extent: f32) -> bool {
        let path = Aabb {
            min: sweep.c1.min(sweep.c2),
            max: sweep.c1.max(sweep.c2),
        };
        let far = path.min.abs().max(path.max.abs()).max_element();
        let rounding = 16.0 * f32::EPSILON * (far + max_extent) + 1.0e-6;
        let reach = path.fattened(max_extent + rounding);
        let mut found = false;
        self.static_tree.query(&reach, u64::MAX, |_, _| {
            found = true;
            false
        });
        found
    }

    /// The time of impact of `shape` with the shape at arena index `other_index`, if that
    /// shape passes the filters and the impact comes before `fraction` (module notes).
    fn impact(
        &self,
        fast: &FastBody<'_>,
        shape: &FastShape<'_>,
        other_index: u32,
        fraction: f32,
    ) -> Option<f32> {
        let (other, other_body, other_sim) = self.candidate(fast, shape, other_index)?;
        let proxy = ShapeProxy::from_shape(&other.geometry);
        let shape_proxy = ShapeProxy::from_shape(&shape.record.geometry);
        let t = first_contact(
            (&proxy, other_sim.transform),
            fast,
            (shape, shape_proxy),
            fraction,
        )?;
        let moving = other_body.set_index == AWAKE_SET && other_body.body_type != BodyType::Static;
        if moving && self.touched(fast, shape_proxy, other_sim, &proxy) {
            return None;
        }
        Some(t)
    }

    /// The shape at arena index `other_index` with its body and the body's sim, if the
    /// continuous query's filters let it stop `shape` (module notes).
    fn candidate(
        &self,
        fast: &FastBody<'_>,
        shape: &FastShape<'_>,
        other_index: u32,
    ) -> Option<(&ShapeRecord, &Body, &BodySim)> {
        let other = self.shapes.get_by_index(other_index)?;
        if other.body.index() == fast.index
            || other.is_sensor
            || !shape.record.filter.should_collide(&other.filter)
            || !self.hooks_allow(shape, other_index, other)
        {
            return None;
        }
        let other_body = self.bodies.get(other.body)?;
        let is_bullet = other_body.is_bullet && other_body.body_type == BodyType::Dynamic;
        let joined = fast.body.joints.count > 0
            && joint_forbids_collision(self.bodies, self.joints, fast.index, other.body.index());
        if is_bullet || joined {
            return None;
        }
        let other_sim = self.sims.sim(other_body)?;
        if let Shape::ChainSegment(chain) = &other.geometry {
            let obstacle = other_sim.transform;
            let (p1, p2) = (
                obstacle.apply(chain.segment.point1),
                obstacle.apply(chain.segment.point2),
            );
            let centroids = shape.centroids(fast);
            if passes_chain(p1, p2, centroids, CORE_FRACTION * fast.min_extent) {
                return None;
            }
        }
        Some((other, other_body, other_sim))
    }

    /// Whether the world's hooks let the fast shape be stopped by the shape at arena index
    /// `other_index`: the custom filter accepts the pair, and the pre-solve hook (if set) does
    /// not decide their contacts.
    fn hooks_allow(&self, fast: &FastShape<'_>, other_index: u32, other: &ShapeRecord) -> bool {
        let decided_by_pre_solve = self.hooks.pre_solve.is_some()
            && (fast.record.enable_pre_solve_events || other.enable_pre_solve_events);
        !decided_by_pre_solve
            && custom_filter_accepts(
                self.hooks.custom_filter.as_deref(),
                self.shapes,
                (fast.index, fast.record),
                (other_index, other),
            )
    }

    /// Whether the fast shape and a moving obstacle were within the speculative distance of
    /// each other at the start of the step: then their contact had points and the solver
    /// kept them apart during the step, and a sweep against the obstacle's final pose must
    /// not be trusted — a bullet pushed along by a fast body starts on the far side of the
    /// pusher's final pose and would be "stopped" there, through it.
    fn touched(
        &self,
        fast: &FastBody<'_>,
        shape_proxy: ShapeProxy,
        other: &BodySim,
        other_proxy: &ShapeProxy,
    ) -> bool {
        let other_start = Transform::new(
            other.center0 - other.rotation0.rotate(other.local_center),
            other.rotation0,
        );
        let input = DistanceInput {
            proxy_a: *other_proxy,
            xf_a: other_start,
            proxy_b: shape_proxy,
            xf_b: fast.start,
            use_radii: true,
        };
        shape_distance(&input, &mut SimplexCache::default()).distance < SPECULATIVE_DISTANCE
    }
}

/// When `shape` on its sweep first comes within a slop of the obstacle `proxy` standing at
/// `obstacle`, if before `fraction`: its time of impact, or that of a small disc about its
/// centroid if it touches the obstacle at the start; 0 if that disc touches it too and closes
/// in (module notes).
fn first_contact(
    (proxy, obstacle): (&ShapeProxy, Transform),
    fast: &FastBody<'_>,
    (shape, shape_proxy): (&FastShape<'_>, ShapeProxy),
    fraction: f32,
) -> Option<f32> {
    let still = Sweep::stationary(obstacle, Vec2::ZERO);
    let toi = |proxy_b: ShapeProxy, sweep_b: Sweep| {
        let input = ToiInput {
            max_fraction: fraction,
            ..ToiInput::new(*proxy, still, proxy_b, sweep_b)
        };
        time_of_impact(&input)
    };
    let t = toi(shape_proxy, fast.sweep).fraction;
    if t > 0.0 {
        return (t < fraction).then_some(t);
    }
    // Touching at the start (or turning too far to sweep): a disc along the centroid's path.
    let radius = CORE_FRACTION * shape_inner_radius(&shape.record.geometry);
    let disc = ShapeProxy::new(&[Vec2::ZERO], radius).ok()?;
    let (centroid1, centroid2) = shape.centroids(fast);
    let path = Sweep {
        local_center: Vec2::ZERO,
        c1: centroid1,
        c2: centroid2,
        q1: Rot::IDENTITY,
        q2: Rot::IDENTITY,
    };
    let core = toi(disc, path);
    let closing = core.normal.dot(centroid2 - centroid1) < 0.0;
    let deep = core.fraction == 0.0 && core.state == ToiState::Hit && closing;
    ((core.fraction > 0.0 || deep) && core.fraction < fraction).then_some(core.fraction)
}

/// Whether a chain segment from `p1` to `p2` (world) may be left to the contacts: the shape's
/// centroid starts behind it (its back side is open), or approaches it by less than `core`
/// and ends more than `core` in front of it (Box2D's early-out for fast motion along a chain).
/// The free side is the right of `p1 → p2`: `cross(c − p1, e) > 0` there.
fn passes_chain(p1: Vec2, p2: Vec2, (centroid1, centroid2): (Vec2, Vec2), core: f32) -> bool {
    let edge = p2 - p1;
    let length = edge.length();
    if length <= LINEAR_SLOP {
        return false;
    }
    let direction = edge / length;
    let separation1 = cross(centroid1 - p1, direction);
    let separation2 = cross(centroid2 - p1, direction);
    separation1 < 0.0 || (separation1 - separation2 < core && separation2 > core)
}

/// The body's motion over the step: from its pose at the start of the step to its pose now.
fn body_sweep(sim: &BodySim) -> Sweep {
    Sweep {
        local_center: sim.local_center,
        c1: sim.center0,
        c2: sim.center,
        q1: sim.rotation0,
        q2: sim.transform.q,
    }
}

/// Moves the body back along its sweep to the fraction `t` of the step (velocity unchanged).
fn move_to_impact(sim: &mut BodySim, t: f32) {
    let sweep = body_sweep(sim);
    let q = Rot::nlerp(sweep.q1, sweep.q2, t);
    let center = (1.0 - t) * sweep.c1 + t * sweep.c2;
    sim.center = center;
    sim.transform = Transform::new(center - q.rotate(sweep.local_center), q);
}

/// The body's shapes that exist, with their ids, in `Body::shapes` order.
pub(crate) fn body_shapes<'a>(
    body: &'a Body,
    shapes: &'a Arena<ShapeRecord, ShapeId>,
) -> impl Iterator<Item = (ShapeId, &'a ShapeRecord)> + 'a {
    body.shapes
        .iter()
        .filter_map(|&id| Some((id, shapes.get(id)?)))
}

impl World {
    /// Sweeps the fast bullets (awake-set indices, in order) against every body, now that all
    /// others have their final poses; moves those that hit back to the impact and re-inserts
    /// the proxies that left their fat boxes.
    pub(crate) fn sweep_bullets(&mut self, bullets: &[u32], parallel: bool) {
        zone!("continuous_bullets");
        let fractions: Vec<f32> = {
            let (below_awake, from_awake) = self.solver_sets.split_at(AWAKE_SET as usize);
            let broadphase = &self.broadphase;
            let obstacles = Obstacles {
                body_trees: Some([&broadphase.moving_tree, &broadphase.sleeping_tree]),
                sims: ObstacleSims {
                    below_awake,
                    from_awake,
                },
                ..Obstacles::static_only(
                    (&self.bodies, &self.shapes),
                    &self.joints.arena,
                    &broadphase.static_tree,
                    below_awake,
                    &self.hooks,
                )
            };
            let sims = from_awake[0].bodies.sims();
            let sweep = |bullets: &[u32]| -> Vec<f32> {
                zone!("continuous_bullets chunk");
                let mut boxes = Vec::new();
                let mut sweep_one =
                    |&index: &u32| obstacles.first_impact(&sims[index as usize], &mut boxes);
                bullets.iter().map(&mut sweep_one).collect()
            };
            if parallel {
                let chunks: Vec<&[u32]> = bullets.chunks(BULLET_CHUNK).collect();
                let swept = workers::map(chunks.len(), |chunk| sweep(chunks[chunk]));
                swept.into_iter().flatten().collect()
            } else {
                sweep(bullets)
            }
        };
        let mut escapes = Vec::new();
        let (sims, states) = self.solver_sets[AWAKE_SET as usize]
            .bodies
            .sims_and_states_mut();
        for (&index, &t) in bullets.iter().zip(&fractions) {
            let sim = &mut sims[index as usize];
            if t < 1.0 {
                move_to_impact(sim, t);
            }
            let state = &states[index as usize];
            test_body(&self.bodies, &self.shapes, sim, state, &mut escapes);
        }
        if escapes.is_empty() {
            return;
        }
        for escape in escapes {
            apply_escape(&mut self.shapes, &mut self.broadphase, escape);
        }
        self.refit_moving_tree();
    }

    /// Makes a body a bullet or not (see [`crate::BodyDef::is_bullet`]). Takes effect at the
    /// next step; does not wake the body. Only dynamic bodies are ever swept.
    ///
    /// Errors: a stale `id` ([`PrismError::InvalidId`]).
    pub fn set_bullet(&mut self, id: BodyId, is_bullet: bool) -> Result<(), PrismError> {
        self.body_mut(id)?.is_bullet = is_bullet;
        if let Some((_, state)) = self.body_sim_state_mut(id.index()) {
            if is_bullet {
                state.flags |= body_flags::BULLET;
            } else {
                state.flags &= !body_flags::BULLET;
            }
        }
        Ok(())
    }

    /// Whether the body is a bullet.
    pub fn is_bullet(&self, id: BodyId) -> Result<bool, PrismError> {
        Ok(self.body(id)?.is_bullet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_measure_the_turn() {
        assert_eq!(rotation_chord(Rot::IDENTITY), 0.0);
        for angle in [0.1f32, 1.0, 2.5, -0.7] {
            let chord = rotation_chord(Rot::from_angle(angle));
            let expected = 2.0 * (0.5 * angle).abs().sin();
            assert!((chord - expected).abs() < 1e-6, "{angle}: {chord}");
        }
        // Not normalised: the same turn.
        let q = Rot { c: 2.0, s: 0.0 };
        assert_eq!(rotation_chord(q), 0.0);
    }

    /// A body is fast when its motion bound passes half its min extent, by displacement or by
    /// final speed; kinematic bodies never are.
    #[test]
    fn fast_bodies_moved_half_their_thickness() {
        let sim = BodySim {
            min_extent: 0.1,
            max_extent: 1.0,
            ..BodySim::default()
        };
        let moving = |dx: f32, v: f32, w: f32| BodyState {
            delta_position: Vec2::new(dx, 0.0),
            linear_velocity: Vec2::new(v, 0.0),
            angular_velocity: w,
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        };
        let dt = 0.1;
        assert!(!is_fast(&sim, &moving(0.049, 0.49, 0.0), dt));
        assert!(is_fast(&sim, &moving(0.051, 0.0, 0.0), dt));
        assert!(is_fast(&sim, &moving(0.0, 0.51, 0.0), dt));
        // 0.51 rad/s at 1 m from the centre: 5.1 cm in the step.
        assert!(is_fast(&sim, &moving(0.0, 0.0, 0.51), dt));
        let turned = BodyState {
            delta_rotation: Rot::from_angle(0.06),
            ..moving(0.0, 0.0, 0.0)
        };
        assert!(is_fast(&sim, &turned, dt));
        let kinematic = BodyState {
            flags: body_flags::KINEMATIC,
            ..moving(5.0, 50.0, 0.0)
        };
        assert!(!is_fast(&sim, &kinematic, dt));
        let shapeless = BodySim::default();
        assert!(!is_fast(&shapeless, &moving(100.0, 1000.0, 0.0), dt));
    }
}
