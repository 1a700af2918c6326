#!/usr/bin/env bash
# Import benchmark: 200 000 customers (~160 MB of JSON) through the built CLI
# (`node dist/src/cli/import.js`), measured by /usr/bin/time -v: elapsed time and peak
# resident memory, against the database in DATABASE_URL (or, when it is unset, a fresh
# embedded database in a temporary DATA_DIR). Two runs: the import, then the same file
# again (the idempotent re-run: nothing to write). Targets: < 60 s and < 500 MB each.
#
#   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/imp200k test/bench/import-200k.sh
#
# IMPORT_BENCH_FILE (default /tmp/import-200k.json) is generated when missing;
# IMPORT_BENCH_CUSTOMERS (default 200000) sizes it; IMPORT_BENCH_RUNS (default 2).
# Exits 1 when a run fails or misses a target.
set -euo pipefail
cd "$(dirname "$0")/../.."

customers="${IMPORT_BENCH_CUSTOMERS:-200000}"
file="${IMPORT_BENCH_FILE:-/tmp/import-$((customers / 1000))k.json}"
runs="${IMPORT_BENCH_RUNS:-2}"
max_seconds=60
max_kb=$((500 * 1024))

if [[ ! -x /usr/bin/time ]]; then
  echo "import-200k: /usr/bin/time is missing (apt-get install time)" >&2
  exit 2
fi

if [[ ! -s "$file" ]]; then
  echo "== generating $file ($customers customers)"
  node test/fixtures/generate.mjs --customers "$customers" --out "$file"
fi

echo "== building"
npm run build --silent

if [[ -n "${DATABASE_URL:-}" ]]; then
  echo "== database: ${DATABASE_URL%%\?*}"
else
  export DATA_DIR="${DATA_DIR:-$(mktemp -d /tmp/import-bench-XXXXXX)}"
  echo "== database: embedded PGlite in $DATA_DIR/pglite (set DATABASE_URL for PostgreSQL)"
fi

status=0
for run in $(seq 1 "$runs"); do
  label=$([[ $run -eq 1 ]] && echo "import" || echo "re-run $((run - 1)) (same file again)")
  echo "== run $run: $label"
  timing="$(mktemp)"
  set +e
  /usr/bin/time -v -o "$timing" node dist/src/cli/import.js "$file"
  code=$?
  set -e
  elapsed="$(sed -n 's/^\s*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$timing")"
  kb="$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$timing")"
  rm -f "$timing"
  seconds="$(awk -v t="$elapsed" 'BEGIN { n = split(t, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }')"
  verdict="ok"
  if [[ $code -ne 0 ]]; then verdict="FAILED (exit $code)"; status=1;
  elif awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s >= m) }' || [[ "$kb" -ge "$max_kb" ]]; then verdict="MISSED the target"; status=1; fi
  printf '   elapsed %s s, peak RSS %d MB (targets < %d s, < %d MB): %s\n' "$seconds" "$((kb / 1024))" "$max_seconds" "$((max_kb / 1024))" "$verdict"
done
exit $status
