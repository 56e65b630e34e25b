#include "burn/nn/unfold.hpp"

#include "burn/core/error.hpp"

namespace burn::nn {

namespace {
void check_positive(const char* config, const char* field, std::array<std::size_t, 2> v) {
    BURN_CHECK(v[0] >= 1 && v[1] >= 1, "[", config, "] ", field, " must be at least 1 in each dim, got ",
               v[0], " x ", v[1]);
}
}  // namespace

Unfold4d Unfold4dConfig::init() const {
    check_positive("Unfold4dConfig", "kernel_size", kernel_size);
    check_positive("Unfold4dConfig", "stride", stride);
    check_positive("Unfold4dConfig", "dilation", dilation);
    return Unfold4d{kernel_size, stride, dilation, padding};
}

Fold4d Fold4dConfig::init() const {
    check_positive("Fold4dConfig", "kernel_size", kernel_size);
    check_positive("Fold4dConfig", "stride", stride);
    check_positive("Fold4dConfig", "dilation", dilation);
    return Fold4d{output_size, kernel_size, stride, dilation, padding};
}

}  // namespace burn::nn
