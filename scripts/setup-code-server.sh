#!/usr/bin/env bash
# Installs what the real-VS-Code end-to-end test (test/e2e-vscode/) needs:
# Debian's chromium and the libraries code-server's native modules build
# against, then code-server 4.100.3 into a per-machine cache outside the repo
# (a 300 MB install that takes minutes; it must not be part of `npm ci`).
#
# Idempotent: a second run finds the cached install and only prints its path.
# Prints the code-server binary's path as the last line of stdout.
# See shared design notes "editors.md" for why each step is here.
set -euo pipefail

VERSION=4.100.3
TOOLS="${TASKSPEC_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/taskspec-tools}"
PREFIX="$TOOLS/code-server-$VERSION"
BIN="$PREFIX/node_modules/.bin/code-server"

log() { echo "setup-code-server: $*" >&2; }

install_debian_packages() {
  local wanted=(chromium ripgrep libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config)
  local missing=()
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    log "missing Debian packages (need root to install): ${missing[*]}"
    return 1
  fi
  log "installing Debian packages: ${missing[*]}"
  # Wait for another apt client (e.g. a parallel setup step) instead of failing.
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "${missing[@]}" >&2
}

# @vscode/ripgrep's postinstall downloads rg from the internet, which this
# machine cannot reach; it first looks in this cache, so put Debian's rg there.
seed_ripgrep_cache() {
  local tmp="${TMPDIR:-/tmp}"
  local cache="$tmp/vscode-ripgrep-cache-1.15.11"
  local tarball="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  [ -f "$tarball" ] && return 0
  if [ "$(uname -m)" != x86_64 ]; then
    log "ripgrep cache seeding only knows x86_64; the install may try the network"
    return 0
  fi
  local work
  work="$(mktemp -d)"
  cp /usr/bin/rg "$work/rg"
  mkdir -p "$cache"
  tar -czf "$tarball.partial" -C "$work" rg
  mv "$tarball.partial" "$tarball"
  rm -rf "$work"
}

install_code_server() {
  local stage="$PREFIX.partial.$$"
  rm -rf "$stage"
  mkdir -p "$stage"
  # A package.json of its own so npm never walks up into a workspace.
  echo '{ "name": "taskspec-tools-code-server", "private": true }' >"$stage/package.json"
  log "installing code-server@$VERSION into $PREFIX (takes a few minutes)"
  (
    cd "$stage"
    # unsafe_perm: as root, code-server's postinstall must run its nested npm
    # install as root; yes: node-pty's `npx` call cancels without a tty.
    npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --loglevel=error "code-server@$VERSION" >&2
  )
  "$stage/node_modules/.bin/code-server" --version >/dev/null
  rm -rf "$PREFIX"
  mv "$stage" "$PREFIX"
}

mkdir -p "$TOOLS"
# One installer at a time per machine (CI and a developer may both start one).
exec 9>"$TOOLS/.code-server.lock"
flock 9

install_debian_packages
if [ -x "$BIN" ] && "$BIN" --version >/dev/null 2>&1; then
  log "code-server $VERSION already installed"
else
  seed_ripgrep_cache
  install_code_server
fi
echo "$BIN"
