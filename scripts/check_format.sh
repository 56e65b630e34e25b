#!/usr/bin/env bash
# Checks that C++ sources follow the checked-in .clang-format (scripts/test.sh runs it first, so CI
# fails on an unformatted file). With file arguments it checks those; without, every tracked C++ file.
#   scripts/check_format.sh [--fix] [file ...]     --fix rewrites the files instead of checking them
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
burn_install_packages clang-format
cd "$BURN_ROOT"
fix=0
if [ "${1:-}" = "--fix" ]; then
    fix=1
    shift
fi
files=()
for f in "$@"; do  # C++ sources only: clang-format would mangle CMake files, scripts and docs
    case "$f" in *.cpp | *.hpp | *.cu | *.cuh | *.h | *.cc) files+=("$f") ;; esac
done
if [ $# -gt 0 ] && [ ${#files[@]} -eq 0 ]; then
    exit 0
fi
if [ ${#files[@]} -eq 0 ]; then
    mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' '*.cc')
fi
if [ "$fix" = 1 ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
# One clang-format process per 100 files, two at a time: one process per file took 94 s of CI's 30
# minutes for 800 files (its start-up, not the formatting); this takes 6 s. The files at fault are read
# back from its messages ("FILE:LINE:COL: error: code should be clang-formatted").
messages=$(printf '%s\0' "${files[@]}" | xargs -0 -n 100 -P 2 clang-format --dry-run -Werror 2>&1 >/dev/null) || true
mapfile -t bad < <(grep -E ': error: ' <<<"$messages" | sed -E 's/:[0-9]+:[0-9]+: error: .*//' | sort -u)
if [ ${#bad[@]} -gt 0 ]; then
    echo "check_format: ${#bad[@]} file(s) do not follow .clang-format (fix: scripts/check_format.sh --fix FILE...):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    clang-format --dry-run "${bad[0]}" 2>&1 | head -n 20 >&2
    exit 1
fi
if grep -q . <<<"$messages"; then  # clang-format failed another way (a file it cannot read, a bad .clang-format)
    echo "check_format: clang-format failed:" >&2
    head -n 20 <<<"$messages" >&2
    exit 1
fi
echo "check_format: ${#files[@]} files follow .clang-format"
