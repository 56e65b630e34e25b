#pragma once
// Shared by the CPU attention kernels (attention.cpp, attention_backward.cpp): the operands as dense
// rows in the compute dtype, and the mask's element offsets (its broadcast dims read with stride 0).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu::attn {

/// A tensor as dense rows in the compute dtype C (a converted copy for f16/bf16).
template <class C>
struct Rows {
    std::vector<C> buf;
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

/// The mask of the scores [..., Lq, Lk] (the row's: the scores' rank, dims 1 or full): hidden(b, i, j).
struct Mask {
    const bool* base = nullptr;
    std::vector<int64_t> batch;  // element offset of each batch row
    int64_t si = 0, sj = 0;

    Mask(const CpuTensor* m, const Dims& q_shape, int64_t batches) {
        if (!m) return;
        const int r = q_shape.rank();
        auto stride = [&](int dim) { return m->shape[dim] == 1 ? 0 : m->strides[dim]; };
        si = stride(r - 2), sj = stride(r - 1);
        batch.resize(static_cast<std::size_t>(batches));
        for (int64_t b = 0; b < batches; ++b) {
            int64_t rest = b, off = 0;
            for (int dim = r - 3; dim >= 0; --dim) {
                off += rest % q_shape[dim] * stride(dim);
                rest /= q_shape[dim];
            }
            batch[static_cast<std::size_t>(b)] = off;
        }
        base = m->data<bool>();
    }
    /// The row i of batch b (null without a mask); hidden key j: row[j * sj].
    const bool* row(int64_t b, int64_t i) const {
        return base ? base + batch[static_cast<std::size_t>(b)] + i * si : nullptr;
    }
};

/// The first key past the visible ones of query i (causal: keys j <= i + Lk - Lq; else all Lk).
inline int64_t key_end(bool causal, int64_t i, int64_t lq, int64_t lk) {
    if (!causal) return lk;
    const int64_t e = i + lk - lq + 1;
    return e < 0 ? 0 : e < lk ? e : lk;
}

}  // namespace burn::cpu::attn
