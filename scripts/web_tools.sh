# shellcheck shell=bash
# Sourced by scripts/web_check.sh and scripts/web_bench.sh after common.sh: Debian's chromium, and npm
# packages in one folder (BURN_WEB_TOOLS, default build-wasm/web-tools), installed only when missing.

BURN_WEB_TOOLS="${BURN_WEB_TOOLS:-$BURN_ROOT/build-wasm/web-tools}"

# burn_web_npm NAME@VERSION...: installs those npm packages into $BURN_WEB_TOOLS unless present.
burn_web_npm() {
    local spec missing=()
    for spec in "$@"; do
        local name="${spec%@*}" version="${spec##*@}"
        local manifest="$BURN_WEB_TOOLS/node_modules/$name/package.json"
        if ! [ -f "$manifest" ] || ! grep -q "\"version\": \"$version\"" "$manifest"; then missing+=("$spec"); fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    mkdir -p "$BURN_WEB_TOOLS"
    [ -f "$BURN_WEB_TOOLS/package.json" ] || echo '{"private": true}' >"$BURN_WEB_TOOLS/package.json"
    (cd "$BURN_WEB_TOOLS" && npm install --no-audit --no-fund --silent "${missing[@]}")
}

burn_install_packages chromium
burn_ensure_npm
burn_web_npm playwright-core@1.65.1
export NODE_PATH="$BURN_WEB_TOOLS/node_modules${NODE_PATH:+:$NODE_PATH}"

# burn_web_serve DIR: starts scripts/serve_web.sh on a free port; sets WEB_URL and WEB_SERVER (its pid).
burn_web_serve() {
    local log
    log="$(mktemp)"
    bash "$BURN_ROOT/scripts/serve_web.sh" "$1" 0 >"$log" 2>&1 &
    # shellcheck disable=SC2034  # read by the scripts that source this file
    WEB_SERVER=$!
    local _
    for _ in $(seq 1 100); do
        WEB_URL="$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$log")"
        [ -n "$WEB_URL" ] && break
        sleep 0.1
    done
    [ -n "$WEB_URL" ] || { cat "$log"; echo "web: the server did not start" >&2; return 1; }
}
