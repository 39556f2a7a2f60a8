#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster on 127.0.0.1 and
# TASKSPEC_PG_URL pointing at it. Installs the server from Debian packages when
# it is missing. The cluster lives in a temp folder and is removed on exit,
# also when the command fails.
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

cleanup() {
  as_pg "$pgbin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

as_pg "$pgbin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
as_pg "$pgbin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null
export TASKSPEC_PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: $TASKSPEC_PG_URL" >&2
"$@"
