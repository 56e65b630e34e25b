// A tour of burn's tensors: creation, arithmetic with broadcasting, matmul, reductions, slicing,
// argmax, sorting, concatenation, reading out and errors. Each section prints what it does; a section
// that throws is reported and the program carries on, exiting non-zero at the end.
//
//   bash scripts/main.sh            (or: ./build-release/examples/tensor_demo)
#include <burn/burn.hpp>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace burn;

namespace {

int failed_sections = 0;

/// Runs one section of the tour, printing a header and what fn wrote to out; an error is reported
/// (after the lines that succeeded) rather than propagated.
template <class Fn>
void section(const std::string& title, Fn&& fn) {
    std::ostringstream out;
    std::cout << "\n=== " << title << " ===\n";
    try {
        fn(out);
        std::cout << out.str();
    } catch (const std::exception& e) {
        ++failed_sections;
        std::string done = out.str();
        if (!done.empty() && done.back() != '\n') done += " ...\n";
        std::cout << done << "!! this section failed: " << e.what() << "\n";
    }
}

template <class T>
std::string join(const std::vector<T>& values) {
    std::ostringstream out;
    out << "[";
    for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
    out << "]";
    return out.str();
}

}  // namespace

int main() {
    Device device;  // the default device: the CPU unless BURN_DEFAULT_DEVICE says otherwise
    device.seed(42);
    std::cout << "burn tensor demo on " << device << "\n";

    // The same 2 x 3 matrix is used throughout.
    auto a = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device);

    section("creation", [&](std::ostream& out) {
        out << "a = Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}}):\n" << a << "\n";
        out << "Tensor<2>::zeros({2, 2}) -> " << Tensor<2>::zeros({2, 2}, device).into_data() << "\n";
        out << "Tensor<1>::full({3}, 0.5) -> " << Tensor<1>::full({3}, 0.5, device).into_data() << "\n";
        out << "Tensor<1, Int>::arange(0, 5) -> " << Tensor<1, Int>::arange(0, 5, device).into_data() << "\n";
        out << "Tensor<2>::eye(3) -> " << Tensor<2>::eye(3, device).into_data() << "\n";
        auto noise = Tensor<2>::random({2, 3}, Distribution::Uniform(-1.0, 1.0), device);
        out << "Tensor<2>::random({2, 3}, Uniform(-1, 1)) -> " << noise.into_data() << "\n";
        auto halves = a.cast(DType::f16);
        out << "a.cast(DType::f16): dtype " << halves.dtype() << ", values " << halves.into_data() << "\n";
        auto mask = Tensor<1, Bool>::from_bool({true, false, true}, device);
        out << "Tensor<1, Bool>::from_bool({true, false, true}) -> " << mask.into_data() << "\n";
    });

    section("arithmetic and broadcasting", [&](std::ostream& out) {
        out << "a * 2 + 1 -> " << (a * 2.0 + 1.0).into_data() << "\n";
        out << "1 - a -> " << (1.0 - a).into_data() << "\n";
        auto row = Tensor<2>::from_floats({{10.0, 20.0, 30.0}}, device);  // [1, 3] stretches over rows
        out << "a + [[10, 20, 30]] (shape [1, 3]) -> " << (a + row).into_data() << "\n";
        auto column = Tensor<2>::from_floats({{100.0}, {200.0}}, device);  // [2, 1] stretches over columns
        out << "a + [[100], [200]] (shape [2, 1]) -> " << (a + column).into_data() << "\n";
        out << "a.exp() -> " << a.exp().into_data() << "\n";
        out << "a.greater_elem(2.5) -> " << a.greater_elem(2.5).into_data() << "\n";
        out << "activation::relu(a - 3) -> " << activation::relu(a - 3.0).into_data() << "\n";
    });

    section("matmul", [&](std::ostream& out) {
        auto b = Tensor<2>::from_floats({{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}, device);
        auto product = a.matmul(b);  // [2, 3] @ [3, 2] -> [2, 2]
        out << "a.matmul([[1, 0], [0, 1], [1, 1]]) -> " << product.into_data() << " shape " << product.shape()
            << "\n";
        out << "a.matmul(a.transpose()) -> " << a.matmul(a.transpose()).into_data() << "\n";
    });

    section("reductions", [&](std::ostream& out) {
        out << "a.sum() -> " << a.sum().into_scalar() << "\n";
        out << "a.mean() -> " << a.mean().into_scalar() << "\n";
        out << "a.sum_dim(1) (keeps the dim) -> " << a.sum_dim(1).into_data() << " shape "
            << a.sum_dim(1).shape() << "\n";
        out << "a.max_dim(0) -> " << a.max_dim(0).into_data() << "\n";
        out << "a.var(1) -> " << a.var(1).into_data() << "\n";
    });

    section("slicing and layout", [&](std::ostream& out) {
        out << "a.slice({all, {0, 2}}) -> " << a.slice({all, {0, 2}}).into_data() << "\n";
        out << "a.slice({1}) (a single index keeps the dim) -> " << a.slice({1}).into_data() << "\n";
        out << "a.slice({all, {-2, std::nullopt}}) (negatives count from the end) -> "
            << a.slice({all, {-2, std::nullopt}}).into_data() << "\n";
        out << "a.slice({all, {0, 3, -1}}) (a negative step walks [0, 3) backwards) -> "
            << a.slice({all, {0, 3, -1}}).into_data() << "\n";
        out << "a.reshape({3, -1}) -> " << a.reshape({3, -1}).into_data() << "\n";
        out << "a.transpose() -> " << a.transpose().into_data() << "\n";
        out << "a.flip({0}) -> " << a.flip({0}).into_data() << "\n";
    });

    section("argmax, sort and cat", [&](std::ostream& out) {
        auto scores = Tensor<2>::from_floats({{0.1, 0.7, 0.2}, {0.5, 0.3, 0.9}}, device);
        std::vector<int32_t> labels = scores.argmax(1).into_data().to_vec<int32_t>();
        out << "argmax(1) of [[0.1, 0.7, 0.2], [0.5, 0.3, 0.9]] -> " << join(labels) << "\n";
        auto [sorted, order] = scores.sort_with_indices(1, /*descending=*/true);
        out << "sort_with_indices(1, descending) -> values " << sorted.into_data() << ", indices "
            << order.into_data() << "\n";
        out << "Tensor<2>::cat({a, a}, 0) -> " << Tensor<2>::cat({a, a}, 0).into_data() << "\n";
    });

    section("reading out", [&](std::ostream& out) {
        std::vector<float> flat = a.into_data().to_vec<float>();
        out << "a.into_data().to_vec<float>() -> " << join(flat) << "\n";
        try {
            (void)a.into_data().to_vec<double>();  // the data is f32: to_vec never converts silently
            throw std::logic_error("to_vec<double>() of f32 data did not throw");
        } catch (const burn::Error& e) {
            out << "a.into_data().to_vec<double>() throws: " << e.what() << "\n";
        }
        out << "a.into_data().convert(DType::f64).to_vec<double>()[5] -> "
            << a.into_data().convert(DType::f64).to_vec<double>()[5] << "\n";
    });

    section("errors name the op, the shapes and the fix", [&](std::ostream& out) {
        auto wrong = Tensor<2>::ones({4, 5}, device);
        try {
            (void)(a + wrong);
            throw std::logic_error("a + ones({4, 5}) did not throw");
        } catch (const burn::ShapeError& e) {
            out << "a + ones({4, 5}) throws burn::ShapeError: " << e.what() << "\n";
        }
        try {
            (void)a.reshape({4, 2});
            throw std::logic_error("a.reshape({4, 2}) did not throw");
        } catch (const burn::Error& e) {
            out << "a.reshape({4, 2}) throws: " << e.what() << "\n";
        }
    });

    if (failed_sections > 0) {
        std::cout << "\n" << failed_sections << " section(s) failed\n";
        return EXIT_FAILURE;
    }
    std::cout << "\nall sections ran\n";
    return EXIT_SUCCESS;
}
