#!/usr/bin/env bash
# `gatehouse users import` of the 1,000 users of Tests/Fixtures/Supabase/users.csv (Supabase's
# export shape, bcrypt hashes from Python's bcrypt) into a fresh SQLite store, release build:
# hyperfine's mean over RUNS (10) imports, and users per second. Needs hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10}
[ -n "${NO_BUILD:-}" ] || swift build -c release --product gatehouse
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
users=$(($(wc -l <Tests/Fixtures/Supabase/users.csv) - 1))
hyperfine --runs "$runs" --export-json "$work/result.json" \
    --prepare "rm -f $work/store.sqlite $work/store.sqlite-wal $work/store.sqlite-shm" \
    "GATEHOUSE_STORE=$work/store.sqlite SIGNING_KEYS_FILE=$work/keys.json .build/release/gatehouse users import Tests/Fixtures/Supabase/users.csv" \
    >/dev/null
python3 - "$work/result.json" "$users" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
users = int(sys.argv[2])
print(f"users import: {users} rows (CSV lines after the header), mean {result['mean'] * 1000:.0f} ms "
      f"(min {result['min'] * 1000:.0f}), {users / result['mean']:.0f} users/s")
PY
