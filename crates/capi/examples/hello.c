/*
 * Hello, Prism: a 1 m box falls onto the ground and comes to rest.
 *
 * The ground is a static 40 m x 2 m box whose top face is at y = 0. The falling box is a 1 m
 * dynamic box released at rest with its centre at y = 4. It falls 3.5 m in
 * sqrt(2 * 3.5 / 10) = 0.84 s, so 90 steps at 60 Hz (1.5 s) leave it over half a second to
 * settle. At rest its centre is half its height above the ground, y = 0.5, give or take the
 * solver's tolerated overlap (the linear slop, 0.005 m); it has not moved sideways or turned.
 *
 * Build and run (from the repository root):
 *   crates/capi/run-hello.sh
 * or
 *   cargo build -p prism-capi --profile ci
 *   cc -I crates/capi/include crates/capi/examples/hello.c target/ci/libprism_capi.a \
 *      -lm -lpthread -ldl -o hello && ./hello
 */

#include <math.h>
#include <stdio.h>

#include "prism.h"

/* Returns 1 from main with the status and the last error if a call fails. */
#define CHECK(call)                                                                     \
    do {                                                                                \
        PrismStatus status_ = (call);                                                   \
        if (status_ != PRISM_STATUS_OK) {                                               \
            fprintf(stderr, "%s failed: %s: %s\n", #call, prism_status_name(status_),   \
                    prism_last_error());                                                \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

int main(void) {
    PrismWorldDef world_def = prism_default_world_def();
    world_def.gravity = (PrismVec2){0.0f, -10.0f};
    PrismWorld *world = NULL;
    CHECK(prism_world_create(&world_def, &world));

    /* The ground: a static box 40 m wide and 2 m high, its top face at y = 0. */
    PrismBodyDef ground_def = prism_default_body_def();
    ground_def.position = (PrismVec2){0.0f, -1.0f};
    PrismBodyId ground;
    CHECK(prism_body_create(world, &ground_def, &ground));
    PrismPolygon ground_box;
    CHECK(prism_make_box(20.0f, 1.0f, &ground_box));
    PrismShapeDef shape_def = prism_default_shape_def();
    PrismShapeId ground_shape;
    CHECK(prism_shape_create_polygon(world, ground, &shape_def, &ground_box, &ground_shape));

    /* The falling box: 1 m x 1 m, density 1, released at rest 3.5 m above the ground. */
    PrismBodyDef box_def = prism_default_body_def();
    box_def.body_type = PRISM_BODY_TYPE_DYNAMIC;
    box_def.position = (PrismVec2){0.0f, 4.0f};
    PrismBodyId box;
    CHECK(prism_body_create(world, &box_def, &box));
    PrismPolygon unit_box;
    CHECK(prism_make_box(0.5f, 0.5f, &unit_box));
    PrismShapeId box_shape;
    CHECK(prism_shape_create_polygon(world, box, &shape_def, &unit_box, &box_shape));

    const float time_step = 1.0f / 60.0f;
    const uint32_t substeps = 4;
    for (int i = 0; i < 90; ++i) {
        CHECK(prism_world_step(world, time_step, substeps));
    }

    PrismVec2 position;
    float angle;
    PrismVec2 velocity;
    CHECK(prism_body_get_position(world, box, &position));
    CHECK(prism_body_get_angle(world, box, &angle));
    CHECK(prism_body_get_linear_velocity(world, box, &velocity));
    printf("box position: (%.4f, %.4f) m, angle %.4f rad, speed %.4f m/s\n", position.x,
           position.y, angle, hypotf(velocity.x, velocity.y));

    CHECK(prism_world_destroy(world));

    /* Resting on the ground: centre 0.5 m above it within the linear slop, not drifted sideways,
     * not turned, and at rest. */
    int resting = fabsf(position.y - 0.5f) < 0.01f && fabsf(position.x) < 0.01f &&
                  fabsf(angle) < 0.01f && hypotf(velocity.x, velocity.y) < 0.05f;
    if (!resting) {
        fprintf(stderr, "the box is not resting on the ground at y = 0.5\n");
        return 1;
    }
    printf("the box rests on the ground\n");
    return 0;
}
