// The dft row (ops.def): the complex DFT of the rows of (re, im), unscaled both ways. Its frontend, infer
// and decomposition (fft_factored.cpp's composition: one table matmul up to kDirectMax points, four-step
// splits and Bluestein beyond), and the query fft.cpp asks to choose between the row and its own direct
// tables. The CPU runs it with kissfft (src/backends/cpu/fft_kiss.cpp), CUDA with cuFFT
// (src/backends/cuda/fft_cufft.cpp); autodiff's rule is the DFT of the other sign (rules_structural.cpp).
#include <array>

#include "ops/common.hpp"
#include "ops/decompose.hpp"
#include "ops/fft_factored.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace fft_impl {

std::pair<TensorAny, TensorAny> dft(TensorAny re, TensorAny im, bool inverse) {
    check_defined(re, "dft");
    check_defined(im, "dft");
    const OpCall c = make(OpId::dft, attrs::Dft{inverse}, metas(re, im));
    TensorRefs out = run(c, take(std::move(re), std::move(im)));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1]))};
}

bool has_native_dft(const Device& device, DType dtype, int64_t n) {
    OpCall c = make_call(OpId::dft, attrs::Dft{false});
    const std::array<TensorMeta, 2> in{TensorMeta{dtype, Dims{1, n}}, TensorMeta{dtype, Dims{1, n}}};
    infer_call(c, in);
    return device.backend().supports(c, {});
}

}  // namespace fft_impl

namespace detail {

void add_fft_decompositions(DecompositionTable& t) {
    t.set(OpId::dft, [](const OpCall& c, const std::vector<TensorAny>& in) -> std::vector<TensorAny> {
        const int64_t n = in[0].shape()[in[0].rank() - 1];
        const int64_t direct = n <= fft_impl::kDirectMax ? fft_impl::kDirectMax : fft_impl::kSplitDirect;
        auto [re, im] = fft_impl::dft_rows(in[0], in[1], c.attrs<attrs::Dft>().inverse, direct);
        return {std::move(re), std::move(im)};
    });
}

}  // namespace detail

}  // namespace burn::ops

namespace burn::op_infer {

Outs infer_dft(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &re = in[0], &im = in[1];
    BURN_CHECK_KIND(re.dtype == DType::f32 || re.dtype == DType::f64, dtype,
                    "[dft] transforms float32 or float64 rows, got ", describe(re),
                    "; cast 16-bit floats to float32 first");
    BURN_CHECK_KIND(re.dtype == im.dtype && re.shape == im.shape, shape,
                    "[dft] the real and imaginary parts must have one shape and dtype: ", describe(re),
                    " and ", describe(im));
    BURN_CHECK_KIND(re.shape.rank() >= 1 && re.shape[re.shape.rank() - 1] >= 1, shape,
                    "[dft] needs rows of at least one point (rank >= 1), got ", describe(re));
    return {re, im};
}

}  // namespace burn::op_infer
