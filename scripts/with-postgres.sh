#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster on 127.0.0.1 and
# TASKSPEC_PG_URL pointing at it, and a throwaway S3-compatible server
# (scripts/s3-server.js) with TASKSPEC_S3_URL naming a bucket on it (and the
# AWS_* credentials it accepts). Installs PostgreSQL from Debian packages when
# it is missing. Both live in a temp folder, removed on exit, also when the
# command fails. Benchmarks set TASKSPEC_PG_FSYNC=on (tests run with fsync off)
# and TASKSPEC_PG_SETTINGS for more server settings ("-c name=value ...").
set -euo pipefail

pgbin=""
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && pgbin="$d"; done
if [ -z "$pgbin" ]; then
  echo "with-postgres: installing PostgreSQL from Debian packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && pgbin="$d"; done
fi

dir=$(mktemp -d /tmp/taskspec-pg.XXXXXX)
chown postgres "$dir" 2>/dev/null || true
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

s3pid=""
cleanup() {
  as_pg "$pgbin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  if [ -n "$s3pid" ]; then kill "$s3pid" 2>/dev/null || true; wait "$s3pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

as_pg "$pgbin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
as_pg "$pgbin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${TASKSPEC_PG_FSYNC:-off} -c max_connections=200 ${TASKSPEC_PG_SETTINGS:-}" start >/dev/null
export TASKSPEC_PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
# for tests that restart the server mid-run (pg_ctl restart -m immediate), as the user that owns it
export TASKSPEC_PG_CTL="$pgbin/pg_ctl" TASKSPEC_PG_DATA="$dir/data"
echo "with-postgres: $TASKSPEC_PG_URL" >&2

mkdir -p "$dir/s3"
node "$(dirname "$0")/s3-server.js" "$dir/s3" taskspec >"$dir/s3.endpoint" 2>"$dir/s3.log" &
s3pid=$!
for _ in $(seq 100); do [ -s "$dir/s3.endpoint" ] && break; sleep 0.1; done
[ -s "$dir/s3.endpoint" ] || { echo "with-postgres: the S3 server did not start: $(cat "$dir/s3.log")" >&2; exit 1; }
export TASKSPEC_S3_URL="s3://taskspec?endpoint=$(head -1 "$dir/s3.endpoint")"
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1 AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
echo "with-postgres: $TASKSPEC_S3_URL" >&2
"$@"
