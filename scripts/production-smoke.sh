#!/usr/bin/env bash
# Production smoke test (run by .ci/run): the committed tree, cloned afresh, installed with
# dependencies only and started the way production starts it —
#   NODE_ENV=production npm ci --omit=dev && npm start
# It must build the web app and the server bundle, migrate an empty database and serve the app.
# Catches a start path that needs a dev dependency (tsx, a Vite plugin, a type-only package…).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=$(mktemp -d)
server_group=''
cleanup() {
  # npm, its shell and the server run in a process group of their own (setsid below): all of them
  # are stopped, gracefully first. (The server's pid used to be read from its log, which is written
  # asynchronously: when the line was not there yet, the server was left running after the test.)
  if [ -n "$server_group" ]; then
    kill -TERM -- "-$server_group" 2>/dev/null || true
    for _ in $(seq 1 40); do
      kill -0 -- "-$server_group" 2>/dev/null || break
      sleep 0.25
    done
    kill -KILL -- "-$server_group" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

git clone -q . "$dir/app"
cd "$dir/app"
NODE_ENV=production npm ci --omit=dev --no-audit --no-fund

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
NODE_ENV=production PORT="$port" HOST=127.0.0.1 DATA_DIR="$dir/data" SMTP_URL=smtp://127.0.0.1:9 \
  METRICS_PORT=0 SEED_DEMO=false LOG_LEVEL=info setsid npm start >"$dir/start.log" 2>&1 &
server_group=$!

ok=''
for _ in $(seq 1 240); do
  if curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then ok=1; break; fi
  if ! kill -0 "$server_group" 2>/dev/null; then break; fi
  sleep 1
done
if [ -z "$ok" ]; then
  echo "Production start failed:" >&2
  tail -40 "$dir/start.log" >&2
  exit 1
fi
# The home page comes with the server's first view in #root (ADR 0048: the SSR build works as installed).
curl -sf "http://127.0.0.1:$port/" | grep -q '<div id="root" data-first-view' || { echo "the web app is not served with its first view" >&2; exit 1; }
# Crawlers get rules, not the app's page (Lighthouse's SEO audit read index.html as robots.txt).
curl -sfi "http://127.0.0.1:$port/robots.txt" | grep -qi '^content-type: text/plain' || { echo "robots.txt is not served as text" >&2; exit 1; }
curl -sf "http://127.0.0.1:$port/robots.txt" | grep -q '^Disallow: /api/' || { echo "robots.txt does not keep crawlers off the API" >&2; exit 1; }
# The log is written asynchronously (pino): give the start-up line a few seconds to reach the file.
tools=''
for _ in $(seq 1 20); do
  if grep -q 'video tools: ffmpeg' "$dir/start.log"; then tools=1; break; fi
  sleep 0.5
done
[ -n "$tools" ] || { echo "no video tools line in the start log" >&2; tail -20 "$dir/start.log" >&2; exit 1; }
echo "Production smoke test passed: npm ci --omit=dev && npm start serves on port $port"
