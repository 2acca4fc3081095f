#!/usr/bin/env bash
# Renders tollgate-dashboard.png from a real run: the demo WAR (target/tollgate.war, built by mvn package
# and unpacked Liberty in target/liberty/wlp, as mvn verify leaves it) on a Liberty server of its own with
# a Redis of its own; traffic that is allowed, denied, degraded (Redis frozen) and a @OncePerCluster job;
# one scrape of /metrics; render.py draws the panels; headless Chromium takes the picture.
# Usage: src/main/grafana/render-from-demo.sh HTTP_PORT HTTPS_PORT
set -euo pipefail
cd "$(dirname "$0")/../../.."
http=${1:?HTTP port}; https=${2:?HTTPS port}
wlp=target/liberty/wlp; dir=$wlp/usr/servers/dashboard; out=target/dashboard
redis_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$out"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --pidfile "$PWD/$out/redis.pid"
trap '"$wlp/bin/server" stop dashboard >/dev/null 2>&1 || true; kill -CONT "$(cat "$out/redis.pid")" 2>/dev/null || true; kill "$(cat "$out/redis.pid")" 2>/dev/null || true' EXIT
[ -d "$dir" ] || "$wlp/bin/server" create dashboard >/dev/null
cp src/main/liberty/config/server.xml "$dir/server.xml"
mkdir -p "$dir/apps" && cp target/tollgate.war "$dir/apps/"
printf 'http.port=%s\nhttps.port=%s\n' "$http" "$https" > "$dir/bootstrap.properties"
printf -- '-Dtollgate.redis.url=redis://127.0.0.1:%s\n' "$redis_port" > "$dir/jvm.options"
rm -f "$dir/logs/messages.log"
"$wlp/bin/server" start dashboard >/dev/null
for _ in $(seq 600); do grep -q 'CWWKZ0001I' "$dir/logs/messages.log" 2>/dev/null && break; sleep 0.5; done
base=http://localhost:$http
get() { curl -s -o /dev/null -w '%{http_code} ' "$@"; }
for _ in $(seq 15); do get "$base/demo/hello"; done
for _ in $(seq 8); do get "$base/demo/window"; done
for _ in $(seq 4); do get "$base/demo/tier/free"; done
for _ in $(seq 3); do get -X POST "$base/demo/job"; done
kill -STOP "$(cat "$out/redis.pid")"
for _ in $(seq 6); do get "$base/demo/hello"; done
kill -CONT "$(cat "$out/redis.pid")"
echo
curl -s "$base/metrics?scope=application" > "$out/scrape.txt"
when=$(date -u '+%Y-%m-%d %H:%M UTC')
python3 src/main/grafana/render.py src/main/grafana/tollgate-dashboard.json "$out/scrape.txt" "$out/dashboard.html" \
  "Drawn by src/main/grafana/render.py (not Grafana) from one scrape of the demo's /metrics at $when, after render-from-demo.sh's traffic: 15 calls of /demo/hello (10 per burst), 8 of /demo/window, 4 of /demo/tier/free, 3 @OncePerCluster starts, then 6 calls with Redis frozen. Bars are totals since the server started, not rates: one scrape has no rate."
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --hide-scrollbars \
  --window-size=1264,600 --screenshot="$PWD/src/main/grafana/tollgate-dashboard.png" "file://$PWD/$out/dashboard.html" 2>/dev/null
echo "src/main/grafana/tollgate-dashboard.png"
