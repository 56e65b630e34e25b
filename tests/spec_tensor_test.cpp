// The tensor examples of the public contract, copied verbatim from shared/spec/seed_examples_test.cpp
// (suite SeedExamples). They run in burn_tests and, through tests/consumer/, against burn::burn as an
// outside project sees it (add_subdirectory and find_package). Keep them unchanged.
#include <burn/burn.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace burn;

TEST(SeedExamples, TensorConstruction) {
    Device device;
    auto a = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device);
    EXPECT_EQ(a.dims(), (Shape<2>{2, 3}));

    auto zeros = Tensor<2>::zeros({2, 3}, device);
    auto ones = Tensor<1>::ones({4}, device);
    EXPECT_EQ(zeros.dims(), (Shape<2>{2, 3}));
    EXPECT_EQ(ones.dims(), (Shape<1>{4}));

    // Int and Bool are kinds, the second template parameter.
    auto ints = Tensor<1, Int>::from_ints({1, 2, 3}, device);
    auto mask = ints.greater_elem(1);
    std::vector<bool> flags = mask.into_data().to_vec<bool>();
    EXPECT_EQ(flags, (std::vector<bool>{false, true, true}));
}

TEST(SeedExamples, ArithmeticAndReductions) {
    Device device;
    auto a = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device);
    auto b = Tensor<2>::from_floats({{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}, device);

    auto product = a.matmul(b);  // [2,3] @ [3,2] -> [2,2]
    std::vector<float> values = product.into_data().to_vec<float>();
    EXPECT_EQ(values, (std::vector<float>{4.0, 5.0, 10.0, 11.0}));

    float total = a.mul_scalar(2.0).sum().into_scalar();
    EXPECT_EQ(total, 42.0f);
    EXPECT_EQ((a * 2.0).sum().into_scalar(), 42.0f);  // operators are spelled as in C++

    auto per_row = a.sum_dim(1);  // reductions along one axis keep it, with size 1
    EXPECT_EQ(per_row.dims(), (Shape<2>{2, 1}));
}

TEST(SeedExamples, ReshapeSliceAndReadOut) {
    Device device;
    auto a = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device);

    auto reshaped = a.reshape({3, 2});
    EXPECT_EQ(reshaped.dims(), (Shape<2>{3, 2}));

    // all rows, first two columns
    auto sliced = a.slice({all, {0, 2}});
    EXPECT_EQ(sliced.dims(), (Shape<2>{2, 2}));

    std::vector<float> flat = a.into_data().to_vec<float>();
    EXPECT_EQ(flat, (std::vector<float>{1.0, 2.0, 3.0, 4.0, 5.0, 6.0}));

    // to_vec names the element type and refuses a different dtype rather than converting.
    EXPECT_THROW(a.argmax(1).into_data().to_vec<float>(), burn::Error);
}
