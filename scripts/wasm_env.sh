# shellcheck shell=bash
# Sourced by the WebAssembly scripts (build_wasm.sh, wasm_infer.sh; docs/wasm.md) after common.sh:
# installs Debian's emscripten 3.1.6 when missing and sets up what its em++ and node need.

# emscripten itself; nlohmann-json's headers and GoogleTest's sources are copied or compiled for wasm32.
burn_install_packages emscripten nlohmann-json3-dev googletest
# NodeSource's node does not search Debian's node modules, where emscripten's -O2 link finds acorn.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

# Fills the dependency prefix $1 (found through -DCMAKE_FIND_ROOT_PATH=$1) with nlohmann-json's headers
# and CMake package: em++ must never see -I/usr/include, where glibc's headers are.
burn_wasm_json_prefix() {
    local deps="$1"
    if [ ! -f "$deps/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake" ]; then
        mkdir -p "$deps/include" "$deps/share/cmake"
        cp -r /usr/include/nlohmann "$deps/include/"
        cp -r /usr/share/cmake/nlohmann_json "$deps/share/cmake/"
    fi
}
