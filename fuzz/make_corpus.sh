#!/usr/bin/env bash
# Regenerates the checked-in seed corpora fuzz/corpus/<target>/ (a few KiB each): files written by
# burn's writers (build-fuzz/fuzz_seeds, built by scripts/fuzz) and by fuzz/make_corpus.py (fixture
# copies, pickles, zip archives). Run from anywhere after scripts/fuzz has built build-fuzz/:
#   fuzz/make_corpus.sh [build dir, default build-fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build-fuzz}"
ninja -C "$out" fuzz_seeds > /dev/null
"$out/fuzz_seeds" fuzz/corpus
python3 fuzz/make_corpus.py . fuzz/corpus
du -sh fuzz/corpus/* | sed 's|fuzz/corpus/||'
