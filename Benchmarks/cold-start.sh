#!/usr/bin/env bash
# Cold start of the Jwks function, debug and release, median of 20, in one run:
# from spawning the binary to its response reaching the emulator.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
swift build --product Jwks
swift build --product gatehouse
swift build -c release --product Jwks
swift build -c release --package-path Benchmarks --product cold-start
bench=Benchmarks/.build/release/cold-start
# A key file of the benchmark's own, so the project's keys are never touched.
keys=$(mktemp -d)/signing-keys.json
SIGNING_KEYS_FILE="$keys" .build/debug/gatehouse keys generate >/dev/null
echo "== debug";   "$bench" --binary .build/debug/Jwks   --runs "$runs" --signing-keys-file "$keys"
echo "== release"; "$bench" --binary .build/release/Jwks --runs "$runs" --signing-keys-file "$keys"
stripped=$(mktemp)
strip -o "$stripped" .build/release/Jwks
echo "release Jwks stripped: $(du -h "$stripped" | cut -f1) ($(stat -c %s "$stripped") bytes)"
