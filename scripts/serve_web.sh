#!/usr/bin/env bash
# Serves the page of examples/web (docs/wasm.md, "The page") on 127.0.0.1 with the headers the pthreads
# variant needs for SharedArrayBuffer (Cross-Origin-Opener-Policy: same-origin,
# Cross-Origin-Embedder-Policy: require-corp) and application/wasm for .wasm files.
# usage: bash scripts/serve_web.sh [DIR] [PORT]     (default: build-wasm/web, port 8000; PORT 0 picks a
#        free port; the first line printed is "serving DIR at http://127.0.0.1:PORT/")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$root/build-wasm/web}"
port="${2:-8000}"
[ -f "$dir/index.html" ] || { echo "serve_web.sh: no page in $dir (run: bash scripts/build_wasm.sh st)" >&2; exit 1; }
exec python3 -u - "$dir" "$port" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
                      ".json": "application/json", ".bpk": "application/octet-stream"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: errors only
        if len(args) > 1 and str(args[1])[:1] in "45":
            sys.stderr.write("serve_web: " + (fmt % args) + "\n")

directory, port = sys.argv[1], int(sys.argv[2])
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=directory))
print(f"serving {directory} at http://127.0.0.1:{server.server_address[1]}/", flush=True)
server.serve_forever()
PY
