#!/usr/bin/env bash
# Measures what including burn costs a user: compiles one file that includes <burn/burn.hpp> and defines
# the spec's Mlp (docs/nn.md, "Compile time"), with `g++ -O2 -std=c++20 -I include -c`, ccache bypassed.
# Prints the wall time and the compiler's user+sys CPU time of each run and their minimum (the least
# disturbed by other work on the machine).
#
#   scripts/compile_time.sh [runs=3] [compiler=g++]
#
# Exits non-zero when the minimum CPU time exceeds BURN_COMPILE_LIMIT_S (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cxx=${2:-g++}
limit=${BURN_COMPILE_LIMIT_S:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/mlp.cpp" <<'CPP'
#include <burn/burn.hpp>

using namespace burn;

struct Mlp {
    nn::Linear hidden;
    nn::Relu activation;
    nn::Linear output;

    explicit Mlp(const Device& device)
        : hidden(nn::LinearConfig{4, 8}.init(device)),
          activation(),
          output(nn::LinearConfig{8, 1}.init(device)) {}

    Tensor<2> forward(const Tensor<2>& input) const {
        auto x = activation.forward(hidden.forward(input));
        return output.forward(x);
    }

    BURN_MODULE(Mlp, hidden, activation, output)
};

std::size_t run() {
    Device device;
    Mlp model(device);
    auto y = model.forward(Tensor<2>::zeros({3, 4}, device));
    return model.num_params() + static_cast<std::size_t>(y.dims()[0]);
}
CPP
best_cpu=""
best_wall=""
for i in $(seq 1 "$runs"); do
    # TIMEFORMAT: wall, user, sys in seconds.
    t=$( { TIMEFORMAT='%R %U %S'; time "$cxx" -O2 -std=c++20 -I include -c "$tmp/mlp.cpp" -o "$tmp/mlp.o"; } 2>&1 )
    read -r wall user sys <<<"$t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    echo "run $i: wall ${wall} s, cpu ${cpu} s"
    if [[ -z "$best_cpu" ]] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then best_cpu=$cpu; fi
    if [[ -z "$best_wall" ]] || awk -v a="$wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then best_wall=$wall; fi
done
echo "compile time of the spec's Mlp with $("$cxx" --version | head -1): min wall ${best_wall} s, min cpu ${best_cpu} s (limit ${limit} s)"
echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$best_cpu" -v l="$limit" 'BEGIN { exit !(a <= l) }'
