#!/usr/bin/env bash
# What the operator's rules (override, block: operator.lua, KEYS[2]) cost a decision of token-bucket.lua,
# measured inside Redis: the server-side time of one EVALSHA (INFO commandstats usec_per_call) over
# N calls sent by redis-cli, the script before the rules (BASE) against the script now, interleaved,
# and MEMORY USAGE of a rules key. Every call is admitted (a bucket that never runs dry), so each one
# writes: the healthy path. Usage: experiments/operator-rules-cost.sh [rounds] [calls per round]
set -euo pipefail
ROUNDS=${1:-10}
N=${2:-50000}
BASE=${BASE:-9290b72}   # main before the operator's rules (hotpath's t, s fields)
cd "$(dirname "$0")/.."
R=src/main/resources/dev/tollgate/redis
DIR=$(mktemp -d)
trap 'redis-cli -s "$DIR/r.sock" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
git show "$BASE:$R/token-bucket.lua" > "$DIR/before.lua"
# The include LuaScript.named does: a line "-- #include operator" becomes operator.lua.
awk -v inc="$R/operator.lua" '/^-- #include operator$/ { while ((getline l < inc) > 0) print l; next } { print }' \
  "$R/token-bucket.lua" > "$DIR/now.lua"
redis-server --port 0 --unixsocket "$DIR/r.sock" --save '' --appendonly no --daemonize yes >/dev/null
sleep 0.3
C=(redis-cli -s "$DIR/r.sock")
BEFORE=$("${C[@]}" SCRIPT LOAD "$(cat "$DIR/before.lua")")
NOW=$("${C[@]}" SCRIPT LOAD "$(cat "$DIR/now.lua")")
H=AAAAAAAAAAAAAAAAAAAAAA   # a 22-character client hash, as StoreKeys writes
END=$(( ($(date +%s) + 3600) * 1000000 ))
"${C[@]}" SET "tg:op:{api:O$H}" "0 $END 1000000000000 1000000000 1000000" PX 3600000 >/dev/null
per_call() {
  "${C[@]}" CONFIG RESETSTAT >/dev/null
  "${C[@]}" -r "$N" EVALSHA "$@" >/dev/null
  "${C[@]}" INFO commandstats | sed -n 's/^cmdstat_evalsha:.*usec_per_call=\([0-9.]*\).*/\1/p'
}
echo "round,before_us,now_without_rules_us,now_with_override_us"
for i in $(seq "$ROUNDS"); do
  a=$(per_call "$BEFORE" 1 "tg:tb:{api:B$H}" 1000000000000 1000000000 1000000 1)
  b=$(per_call "$NOW" 2 "tg:tb:{api:N$H}" "tg:op:{api:N$H}" 1000000000000 1000000000 1000000 1)
  c=$(per_call "$NOW" 2 "tg:tb:{api:O$H}" "tg:op:{api:O$H}" 10 1 1000000 1)
  echo "$i,$a,$b,$c"
done
echo "MEMORY USAGE of a rules key (override in force): $("${C[@]}" MEMORY USAGE "tg:op:{api:O$H}") B"
"${C[@]}" SET "tg:op:{api:K$H}" "$END 0 0 0 0" PX 3600000 >/dev/null
echo "MEMORY USAGE of a rules key (a block only): $("${C[@]}" MEMORY USAGE "tg:op:{api:K$H}") B"
"${C[@]}" INFO server | grep redis_version
