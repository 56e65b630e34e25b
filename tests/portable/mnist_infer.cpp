// The smallest inference program on the portable core: the MNIST convnet forward on one random digit
// ([1, 1, 28, 28], the cnn_infer_b1 workload of burn-bench), timed. docs/wasm.md measures its .wasm size
// and compares its speed in node with the same program built natively.
// usage: mnist_infer [RUNS]   (default 200; 10 warm-up runs first) -> the median time of one forward.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mnist_cnn.hpp"

using namespace burn;

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
    Device::cpu().seed(42);
    Cnn model;
    auto image = Tensor<3>::random({1, 28, 28}, Distribution::Normal(0, 1), Device::cpu());
    int digit = 0;
    std::vector<double> ms;
    for (int i = -10; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto logits = model.forward(image);
        const auto v = logits.into_data().to_vec<float>();  // reading the result waits for it
        digit = static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        if (i >= 0) ms.push_back(took.count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("mnist_infer: %.4f ms per digit (median of %d runs, best %.4f), class %d\n",
                ms[ms.size() / 2], runs, ms.front(), digit);
    return 0;
}
