#pragma once
/// How tensors and TensorData print (burn's PrintOptions / set_print_options), process-wide:
///
///     tensor::set_print_options({.threshold = 1000, .edge_items = 2, .precision = 3});
///     std::cout << t;  // [[1.000, 2.500, ..., 7.125], ...]
///
/// A tensor of at most `threshold` elements prints in full; a larger one shows the first and last
/// `edge_items` entries of every dim longer than 2 * edge_items + 1 and "..." between them (PyTorch's
/// summarisation). The default threshold 0 summarises every such dim (this project's behaviour so far).
/// `precision` unset prints floats at 6 significant digits; set, with that many digits after the point.
/// Set the options before printing from several threads: they are read without a lock.
#include <cstddef>
#include <optional>

namespace burn::tensor {

struct PrintOptions {
    std::size_t threshold = 0;
    std::size_t edge_items = 3;
    std::optional<int> precision{};
};

/// Replaces the options (burn's set_print_options).
void set_print_options(const PrintOptions& options);
/// The options in force.
PrintOptions print_options();

}  // namespace burn::tensor
