// Tensor printing (burn's Display): the exact text of operator<< and to_string() for small Float, Int and
// Bool tensors, the elision of long dims, an empty tensor and a decorated device.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "burn/burn.hpp"
#include "burn/tensor/print_options.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace tensor_print_test {

/// burn's Display layout, written out by hand: data, then shape, device, kind and dtype.
std::string expected(const std::string& data, const std::string& shape, const std::string& device,
                     const std::string& kind, const std::string& dtype) {
    return "Tensor {\n  data:\n" + data + ",\n  shape:  " + shape + ",\n  device:  " + device +
           ",\n  kind:  " + kind + ",\n  dtype:  " + dtype + ",\n}";
}

template <class T>
std::string streamed(const T& t) {
    std::ostringstream os;
    os << t;
    return os.str();
}

TEST(TensorPrint, FloatIntAndBoolTextIsExact) {
    // f32 values print at 6 significant digits: 0.1f (0.100000001...) prints as 0.1, 1e-7 as 1e-07.
    auto f = Tensor<2>::from_floats({{1.5, -2.0, 0.1}, {3.0, 1e-7, 100.0}}, Device::cpu());
    const std::string want_f = expected("[[1.5, -2, 0.1], [3, 1e-07, 100]]", "[2, 3]", "cpu", "Float", "f32");
    EXPECT_EQ(f.to_string(), want_f);
    EXPECT_EQ(streamed(f), want_f);

    auto i = Tensor<1, Int>::from_ints({-3, 0, 42}, Device::cpu());
    const std::string want_i = expected("[-3, 0, 42]", "[3]", "cpu", "Int", "i32");
    EXPECT_EQ(i.to_string(), want_i);
    EXPECT_EQ(streamed(i), want_i);

    auto b = Tensor<2, Bool>::from_bool({{true, false}, {false, true}}, Device::cpu());
    const std::string want_b = expected("[[true, false], [false, true]]", "[2, 2]", "cpu", "Bool", "bool");
    EXPECT_EQ(b.to_string(), want_b);
    EXPECT_EQ(streamed(b), want_b);
}

TEST(TensorPrint, LongDimsEmptyTensorsDtypesAndDevices) {
    // More than 7 entries: the first and last three, as PyTorch and burn elide them.
    auto r = Tensor<1, Int>::arange(0, 10, Device::cpu());
    EXPECT_EQ(r.to_string(), expected("[0, 1, 2, ..., 7, 8, 9]", "[10]", "cpu", "Int", "i32"));
    // Exactly 7 entries are all printed.
    auto seven = Tensor<1, Int>::arange(0, 7, Device::cpu());
    EXPECT_EQ(seven.to_string(), expected("[0, 1, 2, 3, 4, 5, 6]", "[7]", "cpu", "Int", "i32"));
    // Elision applies per dim: a [2, 9] tensor keeps both rows, each elided.
    auto m = Tensor<1, Int>::arange(0, 18, Device::cpu()).reshape(Shape<2>{2, 9});
    EXPECT_EQ(m.to_string(), expected("[[0, 1, 2, ..., 6, 7, 8], [9, 10, 11, ..., 15, 16, 17]]", "[2, 9]",
                                      "cpu", "Int", "i32"));

    auto empty = Tensor<2>::zeros({0, 3}, Device::cpu());
    EXPECT_EQ(empty.to_string(), expected("[]", "[0, 3]", "cpu", "Float", "f32"));

    // The dtype and the decorated device are named as Device::parse reads them.
    auto d = Tensor<1>::from_floats({0.5, -0.25}, Device::cpu().autodiff()).cast(DType::f64);
    EXPECT_EQ(d.to_string(), expected("[0.5, -0.25]", "[2]", "autodiff(cpu)", "Float", "f64"));
    EXPECT_EQ(Device::parse("autodiff(cpu)"), d.device());
    auto h = Tensor<1, Int>::from_ints({7, -8}, Device::cpu()).cast(DType::i64);
    EXPECT_EQ(h.to_string(), expected("[7, -8]", "[2]", "cpu", "Int", "i64"));
}

/// Restores the default options when a test ends (they are process-wide).
struct RestorePrintOptions {
    ~RestorePrintOptions() { tensor::set_print_options({}); }
};

TEST(TensorPrint, PrintOptionsThresholdEdgeItemsAndPrecision) {
    RestorePrintOptions restore;
    auto r = Tensor<1, Int>::arange(0, 10, Device::cpu());
    tensor::set_print_options({10, 3, std::nullopt});  // 10 elements <= threshold: printed in full
    EXPECT_EQ(r.into_data().str(), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");
    tensor::set_print_options({0, 1, std::nullopt});  // summarised with one edge item per side
    EXPECT_EQ(r.into_data().str(), "[0, ..., 9]");
    tensor::set_print_options({0, 3, 2});  // two digits after the point
    auto f = Tensor<1>::from_floats({1.5, -2.0, 1.0 / 3.0}, Device::cpu());
    EXPECT_EQ(f.into_data().str(), "[1.50, -2.00, 0.33]");
    EXPECT_EQ(tensor::print_options().precision, std::optional<int>(2));
    tensor::set_print_options({});
    EXPECT_EQ(f.into_data().str(), "[1.5, -2, 0.333333]");
    EXPECT_THROW(tensor::set_print_options({0, 3, -1}), Error);
}

}  // namespace tensor_print_test
