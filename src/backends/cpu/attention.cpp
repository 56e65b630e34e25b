// CPU attention (the attention row of ops.def, scaled dot-product attention): each query row runs one
// pass over the keys with an online softmax (a running max, the running sum of exp(s - max) and the
// running exp-weighted sum of the values, rescaled when the max grows: the flash-attention recurrence),
// so a row needs O(Dv) memory whatever Lk, and the scores are never stored. Rows of (batch, query) run
// in parallel. f16/bf16 compute in f32, f32 in f32, f64 in f64. Masked keys (the mask, and with causal
// the keys j > i + Lk - Lq) are skipped; a row with none left is NaN, as the decomposition gives.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels.hpp"
#include "platform/parallel.hpp"

namespace burn::cpu {

namespace {

/// The operands as dense rows in the compute dtype C: q [B, Lq, D], k [B, Lk, D], v [B, Lk, Dv].
template <class C>
struct Rows {
    std::vector<C> buf;  // for f16/bf16: the converted copy
    const C* p = nullptr;
};

template <class C>
Rows<C> rows_of(const CpuTensor& t) {
    Rows<C> r;
    visit_kernel_dtype(t.dtype, "attention", [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, C>) {
            r.p = t.data<C>();
        } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, f16> ||
                             std::is_same_v<T, bf16>) {
            const T* src = t.data<T>();
            r.buf.resize(static_cast<std::size_t>(t.shape.numel()));
            for (std::size_t i = 0; i < r.buf.size(); ++i) r.buf[i] = static_cast<C>(float(src[i]));
            r.p = r.buf.data();
        }
    });
    return r;
}

template <class C, class T>
void attention_typed(const OpCall& call, const CpuTensor& q, const CpuTensor& k, const CpuTensor& v,
                     const CpuTensor* mask, CpuTensor& out) {
    const auto a = call.attrs<attrs::Attention>();
    const int r = q.shape.rank();
    const int64_t lq = q.shape[r - 2], d = q.shape[r - 1], lk = k.shape[r - 2], dv = v.shape[r - 1];
    const int64_t batch = out.shape.numel() / (lq * dv);  // > 0: the caller returns early when empty
    const Rows<C> qr = rows_of<C>(q), kr = rows_of<C>(k), vr = rows_of<C>(v);
    // the mask's element offset of each batch row (its broadcast dims have stride 0)
    std::vector<int64_t> mask_batch;
    int64_t ms_i = 0, ms_j = 0;
    if (mask) {
        auto stride = [&](int dim) { return mask->shape[dim] == 1 ? 0 : mask->strides[dim]; };
        ms_i = stride(r - 2), ms_j = stride(r - 1);
        mask_batch.resize(static_cast<std::size_t>(batch));
        for (int64_t b = 0; b < batch; ++b) {
            int64_t rest = b, off = 0;
            for (int dim = r - 3; dim >= 0; --dim) {
                off += rest % q.shape[dim] * stride(dim);
                rest /= q.shape[dim];
            }
            mask_batch[static_cast<std::size_t>(b)] = off;
        }
    }
    const bool* mbase = mask ? mask->data<bool>() : nullptr;
    T* y = out.data<T>();
    const C scale = static_cast<C>(a.scale), minus_inf = -std::numeric_limits<C>::infinity();
    platform::parallel_for(
        batch * lq, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, lk * (d + dv))),
        [&](int64_t r0, int64_t r1) {
            std::vector<C> acc(static_cast<std::size_t>(dv));
            for (int64_t row = r0; row < r1; ++row) {
                const int64_t b = row / lq, i = row % lq;
                const C* qi = qr.p + row * d;
                const C* kb = kr.p + b * lk * d;
                const C* vb = vr.p + b * lk * dv;
                const bool* mi = mbase ? mbase + mask_batch[static_cast<std::size_t>(b)] + i * ms_i : nullptr;
                const int64_t last = a.causal ? std::min(lk, i + lk - lq + 1) : lk;
                C m = minus_inf, l = 0;
                std::fill(acc.begin(), acc.end(), C(0));
                for (int64_t j = 0; j < last; ++j) {
                    if (mi && mi[j * ms_j]) continue;
                    C s = 0;
                    const C* kj = kb + j * d;
                    for (int64_t t = 0; t < d; ++t) s += qi[t] * kj[t];
                    s *= scale;
                    const C* vj = vb + j * dv;
                    if (s > m) {  // rescale what was summed under the old max
                        const C f = std::exp(m - s);
                        l *= f;
                        for (int64_t t = 0; t < dv; ++t) acc[static_cast<std::size_t>(t)] *= f;
                        m = s;
                    }
                    const C p = std::exp(s - m);
                    l += p;
                    for (int64_t t = 0; t < dv; ++t) acc[static_cast<std::size_t>(t)] += p * vj[t];
                }
                T* yi = y + row * dv;
                const C nan = std::numeric_limits<C>::quiet_NaN();
                for (int64_t t = 0; t < dv; ++t)
                    yi[t] = T(l > 0 ? acc[static_cast<std::size_t>(t)] / l : nan);
            }
        });
}

TensorRefs attention_kernel(const OpCall& call, TensorRefs& in) {
    const TensorRef q = contiguous(in[0]), k = contiguous(in[1]), v = contiguous(in[2]);
    const CpuTensor* mask = in.size() > 3 ? &as_cpu(in[3]) : nullptr;
    auto out = alloc(call.shape, call.dtype, in[0]->device);
    if (call.shape.numel() == 0) return {out};
    visit_kernel_dtype(call.dtype, "attention", [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, f16> || std::is_same_v<T, bf16>) {
            attention_typed<compute_t<T>, T>(call, as_cpu(q), as_cpu(k), as_cpu(v), mask, *out);
        } else {
            BURN_THROW_KIND(dtype, "[attention] the cpu backend has no kernel for dtype ", call.dtype);
        }
    });
    return {out};
}

}  // namespace

void register_attention(KernelTable& t) {
    t[idx(OpId::attention)] = &attention_kernel;
}

}  // namespace burn::cpu
