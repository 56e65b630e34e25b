// CPU attention (the attention row of ops.def, scaled dot-product attention): each query row runs one
// pass over the keys with an online softmax (a running max, the running sum of exp(s - max) and the
// running exp-weighted sum of the values, rescaled when the max grows: the flash-attention recurrence),
// so a row needs O(Dv) memory whatever Lk, and the scores are never stored; the row's logsumexp m + log(l)
// is the second output (attention_backward recomputes the probabilities from it). Rows of (batch, query) run
// in parallel. f16/bf16 compute in f32, f32 in f32, f64 in f64. Masked keys (the mask, and with causal
// the keys j > i + Lk - Lq) are skipped; a row with none left is NaN, as the decomposition gives.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/attention_rows.hpp"
#include "backends/cpu/kernels.hpp"
#include "platform/parallel.hpp"

namespace burn::cpu {

namespace {

using attn::key_end;
using attn::Mask;
using attn::Rows;
using attn::rows_of;

template <class C, class T>
void attention_typed(const OpCall& call, const CpuTensor& q, const CpuTensor& k, const CpuTensor& v,
                     const CpuTensor* mask, CpuTensor& out, CpuTensor& lse_out) {
    const auto a = call.attrs<attrs::Attention>();
    const int r = q.shape.rank();
    const int64_t lq = q.shape[r - 2], d = q.shape[r - 1], lk = k.shape[r - 2], dv = v.shape[r - 1];
    const int64_t batch = lse_out.shape.numel() / lq;  // > 0: the caller returns early when empty
    const Rows<C> qr = rows_of<C>(q), kr = rows_of<C>(k), vr = rows_of<C>(v);
    const Mask hidden(mask, q.shape, batch);
    T* y = out.data<T>();
    C* lse = lse_out.data<C>();
    const C scale = static_cast<C>(a.scale), minus_inf = -std::numeric_limits<C>::infinity();
    platform::parallel_for(batch * lq, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, lk * (d + dv))),
                           [&](int64_t r0, int64_t r1) {
                               std::vector<C> acc(static_cast<std::size_t>(dv));
                               for (int64_t row = r0; row < r1; ++row) {
                                   const int64_t b = row / lq, i = row % lq;
                                   const C* qi = qr.p + row * d;
                                   const C* kb = kr.p + b * lk * d;
                                   const C* vb = vr.p + b * lk * dv;
                                   const bool* mi = hidden.row(b, i);
                                   const int64_t last = key_end(a.causal, i, lq, lk);
                                   C m = minus_inf, l = 0;
                                   std::fill(acc.begin(), acc.end(), C(0));
                                   for (int64_t j = 0; j < last; ++j) {
                                       if (mi && mi[j * hidden.sj]) continue;
                                       C s = 0;
                                       const C* kj = kb + j * d;
                                       for (int64_t t = 0; t < d; ++t) s += qi[t] * kj[t];
                                       s *= scale;
                                       const C* vj = vb + j * dv;
                                       if (s > m) {  // rescale what was summed under the old max
                                           const C f = std::exp(m - s);
                                           l *= f;
                                           for (int64_t t = 0; t < dv; ++t)
                                               acc[static_cast<std::size_t>(t)] *= f;
                                           m = s;
                                       }
                                       const C p = std::exp(s - m);
                                       l += p;
                                       for (int64_t t = 0; t < dv; ++t)
                                           acc[static_cast<std::size_t>(t)] += p * vj[t];
                                   }
                                   T* yi = y + row * dv;
                                   const C nan = std::numeric_limits<C>::quiet_NaN();
                                   for (int64_t t = 0; t < dv; ++t)
                                       yi[t] = T(l > 0 ? acc[static_cast<std::size_t>(t)] / l : nan);
                                   lse[row] = l > 0 ? m + std::log(l) : minus_inf;
                               }
                           });
}

TensorRefs attention_kernel(const OpCall& call, TensorRefs& in) {
    const TensorRef q = contiguous(in[0]), k = contiguous(in[1]), v = contiguous(in[2]);
    const CpuTensor* mask = in.size() > 3 ? &as_cpu(in[3]) : nullptr;
    const std::vector<TensorMeta> metas = call.outputs();
    auto out = alloc(metas[0].shape, metas[0].dtype, in[0]->device);
    auto lse = alloc(metas[1].shape, metas[1].dtype, in[0]->device);
    if (metas[1].shape.numel() == 0) return {out, lse};
    dispatch_kinds<OpKinds::float_only>(call.dtype, "attention", [&](auto tag) {
        using T = decltype(tag);
        attention_typed<compute_t<T>, T>(call, as_cpu(q), as_cpu(k), as_cpu(v), mask, *out, *lse);
    });
    return {out, lse};
}

}  // namespace

void register_attention(KernelTable& t) {
    t[idx(OpId::attention)] = &attention_kernel;
    register_attention_backward(t);
}

}  // namespace burn::cpu
