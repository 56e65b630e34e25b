// The portable core at work: a build of burn_core with threads, exceptions, RTTI and the file system all
// off (tests/portable/CMakeLists.txt; what WebAssembly and bare-metal builds start from) runs the MNIST
// convnet of examples/mnist forward and checks its logits against a float64 reference written here with
// plain loops over the same parameters. Prints one line; exits 1 when they differ. With --error it makes
// a bad matmul instead, with --dtype-error an f64 tensor (the build's BURN_CPU_DTYPES leaves f64 out):
// the installed error handler prints the message and exits 3.
#include <burn/build_config.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mnist_cnn.hpp"

#if BURN_THREADS || BURN_EXCEPTIONS || BURN_FILESYSTEM
#error "tests/portable builds burn with BURN_THREADS, BURN_EXCEPTIONS and BURN_FILESYSTEM off"
#endif

using namespace burn;

namespace {

using Vec = std::vector<double>;

Vec values(const TensorAny& t) {
    auto v = ops::into_data(t).to_vec<float>();
    return Vec(v.begin(), v.end());
}

// [n, c, h, w] -> [n, o, h, w]: 3x3, padding 1, stride 1, then ReLU.
Vec conv3x3_relu(const Vec& x, int n, int c, int hw, const nn::Conv2d& conv, int o) {
    Vec w = values(conv.weight.val().handle()), b = values(conv.bias->val().handle()),
        y(size_t(n) * o * hw * hw);
    for (int i = 0; i < n; ++i)
        for (int oc = 0; oc < o; ++oc)
            for (int r = 0; r < hw; ++r)
                for (int q = 0; q < hw; ++q) {
                    double s = b[oc];
                    for (int ic = 0; ic < c; ++ic)
                        for (int kr = 0; kr < 3; ++kr)
                            for (int kq = 0; kq < 3; ++kq) {
                                int rr = r + kr - 1, qq = q + kq - 1;
                                if (rr < 0 || qq < 0 || rr >= hw || qq >= hw) continue;
                                s += x[((size_t(i) * c + ic) * hw + rr) * hw + qq] *
                                     w[((size_t(oc) * c + ic) * 3 + kr) * 3 + kq];
                            }
                    y[((size_t(i) * o + oc) * hw + r) * hw + q] = std::max(s, 0.0);
                }
    return y;
}

Vec maxpool2(const Vec& x, int n, int c, int hw) {
    int h2 = hw / 2;
    Vec y(size_t(n) * c * h2 * h2);
    for (int p = 0; p < n * c; ++p)
        for (int r = 0; r < h2; ++r)
            for (int q = 0; q < h2; ++q) {
                const double* s = &x[(size_t(p) * hw + 2 * r) * hw + 2 * q];
                y[(size_t(p) * h2 + r) * h2 + q] = std::max(std::max(s[0], s[1]), std::max(s[hw], s[hw + 1]));
            }
    return y;
}

// [n, in] -> [n, out]; the weight is [out, in].
Vec linear(const Vec& x, int n, int in, const nn::Linear& fc, int out, bool relu) {
    Vec w = values(fc.weight.val().handle()), b = values(fc.bias->val().handle()), y(size_t(n) * out);
    for (int i = 0; i < n; ++i)
        for (int o = 0; o < out; ++o) {
            double s = b[o];
            for (int k = 0; k < in; ++k) s += x[size_t(i) * in + k] * w[size_t(o) * in + k];
            y[size_t(i) * out + o] = relu ? std::max(s, 0.0) : s;
        }
    return y;
}

// Without exceptions an error reaches this handler; it must not return to the library.
void on_error(ErrorKind kind, const char* message) {
    std::printf("portable mnist forward: burn error (kind %d): %s\n", static_cast<int>(kind), message);
    std::fflush(stdout);
    std::_Exit(3);
}

}  // namespace

int main(int argc, char** argv) {
    set_error_handler(on_error);
    if (argc > 1 && std::string(argv[1]) == "--error") {  // the handler path: a shape error, then exit 3
        auto a = Tensor<2>::zeros({2, 3}, Device::cpu()), b = Tensor<2>::zeros({4, 5}, Device::cpu());
        (void)a.matmul(b);
        std::printf("portable mnist forward: a bad matmul returned\n");
        return 1;
    }
    if (argc > 1 && std::string(argv[1]) == "--dtype-error") {  // a dtype BURN_CPU_DTYPES left out
        auto a = Tensor<1>::ones({3}, Device::cpu(), DType::f64);
        (void)a.exp();
        std::printf("portable mnist forward: f64 ran in a build without f64 kernels\n");
        return 1;
    }
    Device::cpu().seed(42);
    Cnn model;
    const int n = 4;
    auto images = Tensor<3>::random({n, 28, 28}, Distribution::Uniform(0, 1), Device::cpu());
    Vec got = values(model.forward(images).handle());

    Vec x = values(images.handle());
    x = maxpool2(conv3x3_relu(x, n, 1, 28, model.conv1, 32), n, 32, 28);
    x = maxpool2(conv3x3_relu(x, n, 32, 14, model.conv2, 64), n, 64, 14);
    Vec want = linear(linear(x, n, 3136, model.fc1, 128, true), n, 128, model.fc2, 10, false);

    double worst = 0, scale = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        worst = std::max(worst, std::fabs(got[i] - want[i]));
        scale = std::max(scale, std::fabs(want[i]));
    }
    const bool ok = got.size() == want.size() && worst <= 1e-4 * std::max(1.0, scale);
    std::printf(
        "portable mnist forward (threads %d, exceptions %d, filesystem %d): %d digits, %zu logits, "
        "max |burn - float64 reference| = %.3g (largest logit %.3g): %s\n",
        BURN_THREADS, BURN_EXCEPTIONS, BURN_FILESYSTEM, n, got.size(), worst, scale, ok ? "OK" : "MISMATCH");
    return ok ? 0 : 1;
}
