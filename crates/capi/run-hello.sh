#!/usr/bin/env bash
# Builds the static C library, compiles examples/hello.c against it with the system C compiler,
# runs it, and fails unless it exits 0 (the falling box came to rest on the ground).
#
#   crates/capi/run-hello.sh            # ci profile (optimised, unwinding; shares the tests' build)
#   PROFILE=capi crates/capi/run-hello.sh   # the shipping profile (release with unwinding)
set -euo pipefail
cd "$(dirname "$0")/../.."

profile="${PROFILE:-ci}"
target_dir="${CARGO_TARGET_DIR:-target}"
case "$profile" in
  dev) out="$target_dir/debug" ;;
  *) out="$target_dir/$profile" ;;
esac

cargo build -p prism-capi --profile "$profile"
"${CC:-cc}" -std=c11 -Wall -Wextra -Wpedantic -Werror -I crates/capi/include \
  crates/capi/examples/hello.c "$out/libprism_capi.a" -lm -lpthread -ldl -o "$out/hello"
"$out/hello"
