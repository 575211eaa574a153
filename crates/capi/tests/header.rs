//! The committed header `include/prism.h` must be what cbindgen generates from the current
//! source. This test regenerates it in memory and compares; with `PRISM_BLESS_HEADER=1` it
//! writes the new header instead:
//!
//! ```text
//! PRISM_BLESS_HEADER=1 cargo test -p prism-capi --profile ci --test header
//! ```

use std::path::Path;

const REGENERATE: &str = "PRISM_BLESS_HEADER=1 cargo test -p prism-capi --profile ci --test header";

fn generated_header() -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut bytes = Vec::new();
    bindings.write(&mut bytes);
    String::from_utf8(bytes).expect("the header is UTF-8")
}

#[test]
fn committed_header_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/prism.h");
    let generated = generated_header();
    if std::env::var_os("PRISM_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("include/prism.h is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == generated {
        return;
    }
    let first_difference = committed
        .lines()
        .zip(generated.lines())
        .position(|(old, new)| old != new)
        .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
    let line = |text: &str| {
        text.lines()
            .nth(first_difference)
            .unwrap_or("<end of file>")
            .to_string()
    };
    panic!(
        "crates/capi/include/prism.h is out of date with the source: it first differs at line \
         {} (committed: {:?}, generated: {:?}). Regenerate it with\n    {REGENERATE}\nand \
         commit the result.",
        first_difference + 1,
        line(&committed),
        line(&generated),
    );
}

/// Every exported function and structure is in the header: a spot check that the generator
/// followed every module.
#[test]
fn header_declares_the_whole_interface() {
    let header = generated_header();
    for name in [
        "PrismStatus prism_world_create(",
        "PrismStatus prism_world_step(",
        "PrismStatus prism_body_create(",
        "PrismStatus prism_shape_create_polygon(",
        "PrismStatus prism_make_box(",
        "PrismStatus prism_joint_create_revolute(",
        "PrismStatus prism_world_cast_ray_closest(",
        "PrismStatus prism_world_get_contact_events(",
        "PrismStatus prism_world_get_counters(",
        "const char *prism_last_error(void)",
        "typedef struct PrismWorld PrismWorld;",
        "#define PRISM_MAX_POLYGON_VERTICES 8",
        "PRISM_STATUS_OK = 0,",
    ] {
        assert!(header.contains(name), "the header lacks `{name}`");
    }
}
