#!/usr/bin/env bash
# Every function packaged in release (gatehouse package), then for each: the stripped
# bootstrap's size, the zip's size, and its cold start run from the unzipped package — from
# spawning bootstrap to its first response reaching the emulator, median of RUNS (20) — next
# to the floor: /bin/true spawned and reaped the same way, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
dist=Benchmarks/.build/dist
swift build -c release --product gatehouse
swift build -c release --package-path Benchmarks --product cold-start
gatehouse=.build/release/gatehouse
bench=Benchmarks/.build/release/cold-start
[ -n "${NO_PACKAGE:-}" ] || "$gatehouse" package --configuration release --output "$dist"

# State of the benchmark's own: keys, a store with the template's tables, the public JWKS.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SIGNING_KEYS_FILE="$work/signing-keys.json" GATEHOUSE_STORE="$work/store.sqlite"
"$gatehouse" keys generate >/dev/null
"$gatehouse" invoke Jwks --packaged --output "$dist" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["body"])' >"$work/jwks.json"

event_for() {
    case "$1" in
        Authorizer) echo events/authorizer-v2.json ;;
        *) echo "events/$(echo "$1" | sed -E 's/([a-z])([A-Z])/\1-\2/g' | tr 'A-Z' 'a-z').json" ;;
    esac
}

median() { grep '^cold start median' | awk '{print $4}'; }
floor=$("$bench" --floor --runs "$runs" | median)
echo
echo "| function | bootstrap | zip | cold start (median of $runs) | init (spawn → first /next) | floor: /bin/true |"
echo "|---|---:|---:|---:|---:|---:|"
for zip in "$dist"/*.zip; do
    name=$(basename "$zip" .zip)
    # Only the functions with a sample event in events/ are timed.
    [ -f "$(event_for "$name")" ] || continue
    "$gatehouse" invoke "$name" --packaged --output "$dist" --event "$(event_for "$name")" >/dev/null 2>&1 || true
    bootstrap="$dist/.unzipped/$name/bootstrap"
    extra=()
    [ "$name" = Authorizer ] && extra=(--serve-jwks "$work/jwks.json")
    out=$("$bench" --function "$name" --binary "$bootstrap" --event "$(event_for "$name")" --runs "$runs" 2>/dev/null \
        --signing-keys-file "$SIGNING_KEYS_FILE" --store "$GATEHOUSE_STORE" "${extra[@]}")
    cold=$(echo "$out" | median)
    init=$(echo "$out" | grep '^init median' | awk '{print $3}')
    size=$(stat -c %s "$bootstrap")
    zipsize=$(stat -c %s "$zip")
    printf '| %s | %.1f MB | %.1f MB | %s ms | %s ms | %s ms |\n' "$name" \
        "$(echo "$size / 1000000" | bc -l)" "$(echo "$zipsize / 1000000" | bc -l)" "$cold" "$init" "$floor"
done
