// The bare-metal example (docs/embedded.md): the MNIST MLP and convnet of models.hpp classify 100
// held-out test digits. Weights and digits are Burnpacks compiled into the image by burn-embed
// (model_weights.cpp, mnist_digits.cpp) and read in place; every other byte comes from the static arena
// (BURN_ARENA_BYTES). The same file is built for the host (the reference predictions) and for
// Cortex-M4/M55 under qemu; scripts/baremetal_check.sh compares the two.
// Prints each model's predictions and score, then `N of 100 correct` (the convnet's) as its last line.
// Bad-input modes (the error handler must name the op and sizes, then the program exits 3):
//   --corrupt-pack   the weights' header with a damaged magic number
//   --truncated-pack the weights cut to half their size
//   --small-arena    the convnet run with all but 16 KiB of the arena taken
//   --shape-error    a matmul of [2, 3] by [4, 5] (kind 1, a shape error)
//   --dtype-error    an f64 op in a build whose BURN_CPU_DTYPES leaves f64 out (the message names the option)
#include <burn/build_config.hpp>
#include <burn/core/arena.hpp>
#include <burn/embed/burnpack_view.hpp>
#include <cstdio>
#include <cstring>
#include <vector>

#include "board.hpp"
#include "models.hpp"

extern const unsigned char model_weights[];
extern const std::size_t model_weights_size;
extern const unsigned char mnist_digits[];
extern const std::size_t mnist_digits_size;

using namespace burn;

namespace {

constexpr int kDigits = 100;

void on_error(ErrorKind kind, const char* message) {
    std::printf("burn error (kind %d): %s\n", static_cast<int>(kind), message);
    board::exit(3);
}

/// Classifies the digits one at a time (batch 1, as a sensor would deliver them); prints the
/// predictions and returns the number correct.
template <class Model>
int evaluate(const char* label, const Model& model, const Tensor<3, Int>& images,
             const std::vector<int>& labels) {
    reset_arena_peak();
    const std::size_t before = arena_stats().in_use;
    char predictions[kDigits + 1] = {};
    int correct = 0;
    uint64_t instructions = 0;
    for (int i = 0; i < kDigits; ++i) {
        const uint64_t start = board::instructions();
        auto x = images.narrow(0, i, 1).float_() / 255.0;  // [1, 28, 28] in [0, 1]
        const int predicted = static_cast<int>(model.forward(x).argmax(1).into_scalar());
        instructions += board::instructions() - start;
        predictions[i] = static_cast<char>('0' + predicted);
        correct += predicted == labels[static_cast<std::size_t>(i)];
    }
    const ArenaStats s = arena_stats();
    std::printf("%s predictions: %s\n", label, predictions);
    std::printf(
        "%s: %d of %d correct; arena peak %lu bytes during inference (%lu before it); "
        "%lu instructions per inference\n",
        label, correct, kDigits, static_cast<unsigned long>(s.peak), static_cast<unsigned long>(before),
        static_cast<unsigned long>(instructions / kDigits));
    return correct;
}

alignas(256) unsigned char g_bad_pack[64];

}  // namespace

int main(int argc, char** argv) {
    set_error_handler(on_error);
    const char* mode = argc > 1 ? argv[1] : "";
    std::printf(
        "burn bare-metal MNIST on %s: weights %lu bytes and digits %lu bytes in flash, arena %lu bytes\n",
        board::name(), static_cast<unsigned long>(model_weights_size),
        static_cast<unsigned long>(mnist_digits_size), static_cast<unsigned long>(arena_stats().capacity));
    if (std::strcmp(mode, "--corrupt-pack") == 0) {
        std::memcpy(g_bad_pack, model_weights, sizeof g_bad_pack);
        g_bad_pack[0] ^= 0x01;  // the magic
        embed::BurnpackView bad(g_bad_pack, sizeof g_bad_pack, "model_weights");
        std::printf("a corrupt pack was accepted\n");
        return 1;
    }
    if (std::strcmp(mode, "--truncated-pack") == 0) {
        embed::BurnpackView bad(model_weights, model_weights_size / 2, "model_weights");
        std::printf("a truncated pack was accepted\n");
        return 1;
    }

    if (std::strcmp(mode, "--shape-error") == 0) {
        auto a = Tensor<2>::zeros({2, 3}, Device::cpu()), b = Tensor<2>::zeros({4, 5}, Device::cpu());
        (void)a.matmul(b);
        std::printf("a bad matmul returned\n");
        return 1;
    }
    if (std::strcmp(mode, "--dtype-error") == 0) {
        auto a = Tensor<1>::ones({3}, Device::cpu(), DType::f64);
        (void)a.exp();
        std::printf("f64 ran in a build without f64 kernels\n");
        return 1;
    }

    const embed::BurnpackView weights(model_weights, model_weights_size, "model_weights");
    const embed::BurnpackView digits(mnist_digits, mnist_digits_size, "mnist_digits");
    const auto images = digits.get<3, Int>("images", {kDigits, 28, 28});  // u8 grey levels
    std::vector<int> labels;
    for (int64_t v : digits.get<1, Int>("labels", {kDigits}).int_(DType::i64).to_vec<int64_t>())
        labels.push_back(static_cast<int>(v));
    const bm::Mlp mlp = bm::Mlp::from_pack(weights);
    const bm::ConvNet cnn = bm::ConvNet::from_pack(weights);

    if (std::strcmp(mode, "--small-arena") == 0) {
        const std::size_t free_bytes = arena_stats().largest_free;
        std::printf("taking all but 16 KiB of the %lu free bytes\n", static_cast<unsigned long>(free_bytes));
        std::vector<unsigned char> hog(free_bytes > 16384 + 64 ? free_bytes - 16384 - 64 : 0);
        evaluate("cnn", cnn, images, labels);
        std::printf("the convnet ran in a 16 KiB arena\n");
        return 1;
    }

    const int mlp_correct = evaluate("mlp", mlp, images, labels);
    const int cnn_correct = evaluate("cnn", cnn, images, labels);
    std::printf("mlp: %d of %d correct\n", mlp_correct, kDigits);
    std::printf("%d of %d correct\n", cnn_correct, kDigits);
    board::exit(0);
}
