// CPU attention_backward (the adjoint of the attention row): the probabilities are recomputed from the
// saved logsumexp, p_ij = exp(s_ij - lse_i), one score at a time, so nothing of size Lq x Lk is stored.
// Two passes, each parallel and free of races: per query row, delta_i = g_i . out_i and dq_i = scale *
// sum_j ds_ij k_j; then per key row, dv_j = sum_i p_ij g_i and dk_j = scale * sum_i ds_ij q_i, with
// ds_ij = p_ij (g_i . v_j - delta_i). Masked keys have p = 0; a row with no key left (lse = -inf)
// contributes nothing. f16/bf16 compute in f32, f32 in f32, f64 in f64.
#include <algorithm>
#include <cmath>
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

template <class C>
C dot(const C* a, const C* b, int64_t n) {
    C s = 0;
    for (int64_t t = 0; t < n; ++t) s += a[t] * b[t];
    return s;
}

template <class C, class T>
void attention_backward_typed(const OpCall& call, const TensorRefs& in, CpuTensor& dq_out, CpuTensor& dk_out,
                              CpuTensor& dv_out) {
    const auto a = call.attrs<attrs::Attention>();
    const CpuTensor &q = as_cpu(in[1]), &k = as_cpu(in[2]), &v = as_cpu(in[3]);
    const int r = q.shape.rank();
    const int64_t lq = q.shape[r - 2], d = q.shape[r - 1], lk = k.shape[r - 2], dv = v.shape[r - 1];
    const int64_t batch = as_cpu(in[5]).shape.numel() / std::max<int64_t>(1, lq);
    const Rows<C> gr = rows_of<C>(as_cpu(in[0])), qr = rows_of<C>(q), kr = rows_of<C>(k), vr = rows_of<C>(v),
                  orow = rows_of<C>(as_cpu(in[4]));
    const Rows<C> lr = rows_of<C>(as_cpu(in[5]));
    const Mask hidden(a.has_mask ? &as_cpu(in[6]) : nullptr, q.shape, batch);
    const C scale = static_cast<C>(a.scale);
    // p_ij (0 when hidden or when the row has no key left)
    auto prob = [&](int64_t b, int64_t i, int64_t j) -> C {
        if (j >= key_end(a.causal, i, lq, lk)) return 0;
        const bool* mi = hidden.row(b, i);
        if (mi && mi[j * hidden.sj]) return 0;
        const C l = lr.p[b * lq + i];
        if (std::isinf(l)) return 0;
        return std::exp(dot(qr.p + (b * lq + i) * d, kr.p + (b * lk + j) * d, d) * scale - l);
    };
    std::vector<C> delta(static_cast<std::size_t>(batch * lq));
    T* dq = dq_out.data<T>();
    const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, lk * (d + dv)));
    platform::parallel_for(batch * lq, grain, [&](int64_t r0, int64_t r1) {
        std::vector<C> acc(static_cast<std::size_t>(d));
        for (int64_t row = r0; row < r1; ++row) {
            const int64_t b = row / lq, i = row % lq;
            const C* gi = gr.p + row * dv;
            const C di = dot(gi, orow.p + row * dv, dv);
            delta[static_cast<std::size_t>(row)] = di;
            std::fill(acc.begin(), acc.end(), C(0));
            for (int64_t j = 0; j < lk; ++j) {
                const C p = prob(b, i, j);
                if (p == 0) continue;
                const C ds = p * (dot(gi, vr.p + (b * lk + j) * dv, dv) - di);
                const C* kj = kr.p + (b * lk + j) * d;
                for (int64_t t = 0; t < d; ++t) acc[static_cast<std::size_t>(t)] += ds * kj[t];
            }
            for (int64_t t = 0; t < d; ++t) dq[row * d + t] = T(acc[static_cast<std::size_t>(t)] * scale);
        }
    });
    T* dk = dk_out.data<T>();
    T* dvp = dv_out.data<T>();
    platform::parallel_for(
        batch * lk, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, lq * (d + dv))),
        [&](int64_t r0, int64_t r1) {
            std::vector<C> ak(static_cast<std::size_t>(d)), av(static_cast<std::size_t>(dv));
            for (int64_t row = r0; row < r1; ++row) {
                const int64_t b = row / lk, j = row % lk;
                const C* vj = vr.p + row * dv;
                std::fill(ak.begin(), ak.end(), C(0));
                std::fill(av.begin(), av.end(), C(0));
                for (int64_t i = 0; i < lq; ++i) {
                    const C p = prob(b, i, j);
                    if (p == 0) continue;
                    const C* gi = gr.p + (b * lq + i) * dv;
                    const C ds = p * (dot(gi, vj, dv) - delta[static_cast<std::size_t>(b * lq + i)]);
                    const C* qi = qr.p + (b * lq + i) * d;
                    for (int64_t t = 0; t < d; ++t) ak[static_cast<std::size_t>(t)] += ds * qi[t];
                    for (int64_t t = 0; t < dv; ++t) av[static_cast<std::size_t>(t)] += p * gi[t];
                }
                for (int64_t t = 0; t < d; ++t) dk[row * d + t] = T(ak[static_cast<std::size_t>(t)] * scale);
                for (int64_t t = 0; t < dv; ++t) dvp[row * dv + t] = T(av[static_cast<std::size_t>(t)]);
            }
        });
}

TensorRefs attention_backward_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const Device& dev = in[1]->device;
    auto dq = alloc(in[1]->shape, in[1]->dtype, dev);
    auto dk = alloc(in[2]->shape, in[2]->dtype, dev);
    auto dv = alloc(in[3]->shape, in[3]->dtype, dev);
    // zeros where a pass has no rows to write (an empty dim elsewhere)
    for (const auto* t : {dq.get(), dk.get(), dv.get()})
        std::fill_n(static_cast<uint8_t*>(t->raw()), t->shape.numel() * size_of(t->dtype), uint8_t{0});
    if (in[1]->shape.numel() == 0 && in[2]->shape.numel() == 0) return {dq, dk, dv};
    dispatch_kinds<OpKinds::float_only>(call.dtype, "attention_backward", [&](auto tag) {
        using T = decltype(tag);
        attention_backward_typed<compute_t<T>, T>(call, in, *dq, *dk, *dv);
    });
    return {dq, dk, dv};
}

}  // namespace

void register_attention_backward(KernelTable& t) {
    t[idx(OpId::attention_backward)] = &attention_backward_kernel;
}

}  // namespace burn::cpu
