// The CPU side of a fused pass: one block loop per elementwise row (generated from elementwise.def,
// the same functors as the CPU's own kernels, so a fused chain gives the eager values), the loads
// that read an input's block through its strides, and the parallel walk over blocks.
#include <algorithm>
#include <cstring>

#include "backends/common/functors.hpp"
#include "backends/cpu/kernels.hpp"
#include "backends/cpu/simd_act.hpp"
#include "decorators/lazy/fused_program.hpp"
#include "decorators/lazy/fusion_target.hpp"

namespace burn::lazy {

namespace {

// Rows of kinds B compute on bool (0 / 1 in the registers); every other row on float32.
#define BURN_UNARY(name, kinds, body, vjp, domain)                                        \
    void name##_block(const float* const* a, float* o, int64_t n, double p0, double p1) { \
        const float* x = a[0];                                                            \
        for (int64_t i = 0; i < n; ++i) o[i] = fn::name##_fn{}(x[i], p0, p1);             \
    }
#define BURN_UNARY_PRED(name, kinds, body, domain)                                              \
    void name##_block(const float* const* a, float* o, int64_t n, double, double) {             \
        const float* x = a[0];                                                                  \
        if constexpr (#kinds[0] == 'B') {                                                       \
            for (int64_t i = 0; i < n; ++i) o[i] = fn::name##_fn{}(x[i] != 0.0f) ? 1.0f : 0.0f; \
        } else {                                                                                \
            for (int64_t i = 0; i < n; ++i) o[i] = fn::name##_fn{}(x[i]) ? 1.0f : 0.0f;         \
        }                                                                                       \
    }
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain)                        \
    void name##_block(const float* const* a, float* o, int64_t n, double, double) { \
        const float* x = a[0];                                                      \
        const float* y = a[1];                                                      \
        if constexpr (#kinds[0] == 'B') {                                           \
            for (int64_t i = 0; i < n; ++i)                                         \
                o[i] = fn::name##_fn{}(x[i] != 0.0f, y[i] != 0.0f) ? 1.0f : 0.0f;   \
        } else {                                                                    \
            for (int64_t i = 0; i < n; ++i) o[i] = fn::name##_fn{}(x[i], y[i]);     \
        }                                                                           \
    }
#define BURN_COMPARE(name, kinds, body, domain)                                           \
    void name##_block(const float* const* a, float* o, int64_t n, double, double) {       \
        const float* x = a[0];                                                            \
        const float* y = a[1];                                                            \
        for (int64_t i = 0; i < n; ++i) o[i] = fn::name##_fn{}(x[i], y[i]) ? 1.0f : 0.0f; \
    }
#define BURN_TERNARY(name, kinds, body, domain)                                           \
    void name##_block(const float* const* a, float* o, int64_t n, double, double) {       \
        const float* c = a[0];                                                            \
        const float* x = a[1];                                                            \
        const float* y = a[2];                                                            \
        for (int64_t i = 0; i < n; ++i) o[i] = fn::name##_fn{}(c[i] != 0.0f, x[i], y[i]); \
    }
#include "burn/backend/elementwise.def"

// The rows whose eager f32 kernels are vectorised routines (cpu/elementwise.cpp): the same routines.
void exp_simd(const float* const* a, float* o, int64_t n, double, double) {
    cpu::simd::exp(a[0], o, n);
}
void gelu_simd(const float* const* a, float* o, int64_t n, double, double) {
    cpu::simd::gelu(a[0], o, n);
}
void gelu_backward_simd(const float* const* a, float* o, int64_t n, double, double) {
    cpu::simd::gelu_backward(a[0], a[1], o, n);
}
void clamp_select(const float* const* a, float* o, int64_t n, double lo_d, double hi_d) {
    const float lo = float(lo_d), hi = float(hi_d);
    const float* x = a[0];
    for (int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        const float up = v < lo ? lo : v;  // NaN stays NaN, as the eager kernel
        o[i] = up > hi ? hi : up;
    }
}

struct Table {
    BlockFn fns[kNumOps] = {};
    Table() {
#define BURN_UNARY(name, kinds, body, vjp, domain) fns[static_cast<int>(OpId::name)] = &name##_block;
#define BURN_UNARY_PRED(name, kinds, body, domain) fns[static_cast<int>(OpId::name)] = &name##_block;
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    fns[static_cast<int>(OpId::name)] = &name##_block;
#define BURN_COMPARE(name, kinds, body, domain) fns[static_cast<int>(OpId::name)] = &name##_block;
#define BURN_TERNARY(name, kinds, body, domain) fns[static_cast<int>(OpId::name)] = &name##_block;
#include "burn/backend/elementwise.def"
        fns[static_cast<int>(OpId::exp)] = &exp_simd;
        fns[static_cast<int>(OpId::gelu)] = &gelu_simd;
        fns[static_cast<int>(OpId::gelu_backward)] = &gelu_backward_simd;
        fns[static_cast<int>(OpId::clamp)] = &clamp_select;
    }
};

template <class T>
inline float load_as(T v, bool to_bool) {
    if (to_bool) return static_cast<float>(v) != 0.0f ? 1.0f : 0.0f;
    return static_cast<float>(static_cast<cpu::compute_t<T>>(v));
}

/// dst[0, n) = elements [start, start + n) of t in row-major order, read through t's strides.
template <class T>
void gather(const cpu::CpuTensor& t, int64_t start, int64_t n, float* dst, bool to_bool, bool flat) {
    const T* base = reinterpret_cast<const T*>(t.storage->data);
    const int r = t.shape.rank();
    if (flat || t.is_contiguous()) {
        const T* p = base + t.offset + start;
        if (to_bool) {
            for (int64_t i = 0; i < n; ++i) dst[i] = load_as<T>(p[i], true);
        } else {
            for (int64_t i = 0; i < n; ++i) dst[i] = load_as<T>(p[i], false);
        }
        return;
    }
    int64_t idx[kMaxRank] = {};
    int64_t rem = start, off = t.offset;
    for (int d = r - 1; d >= 0; --d) {
        idx[d] = rem % t.shape[d];
        rem /= t.shape[d];
        off += idx[d] * t.strides[d];
    }
    const int64_t last = t.shape[r - 1], st = t.strides[r - 1];
    for (int64_t done = 0; done < n;) {
        const int64_t len = std::min(last - idx[r - 1], n - done);
        const T* p = base + off;
        if (st == 0) {
            const float v = load_as<T>(*p, to_bool);
            std::fill(dst + done, dst + done + len, v);
        } else {
            for (int64_t j = 0; j < len; ++j) dst[done + j] = load_as<T>(p[j * st], to_bool);
        }
        done += len;
        idx[r - 1] += len;
        off += len * st;
        for (int d = r - 1; d > 0 && idx[d] == t.shape[d]; --d) {
            off -= idx[d] * t.strides[d];
            idx[d] = 0;
            ++idx[d - 1];
            off += t.strides[d - 1];
        }
    }
}

void gather_leaf(const Leaf& leaf, int64_t start, int64_t n, float* dst) {
    const cpu::CpuTensor& t = cpu::as_cpu(leaf.tensor);
    if (t.shape.rank() == 0) {
        cpu::visit_kernel_dtype(t.dtype, "lazy", [&](auto tag) {
            using T = decltype(tag);
            dst[0] = load_as<T>(*t.data<T>(), leaf.to_bool);
        });
        return;
    }
    cpu::visit_kernel_dtype(
        t.dtype, "lazy", [&](auto tag) { gather<decltype(tag)>(t, start, n, dst, leaf.to_bool, leaf.flat); });
}

/// The sum of a row as the eager sum_dim adds it (cpu/reduce.cpp): chunks of 1024 values in 16 float
/// lanes (vectorised), the chunks combined in double.
double row_sum(const float* p, int64_t n) {
    double total = 0;
    for (int64_t s = 0; s < n; s += 1024) {
        const int64_t end = std::min(n, s + 1024);
        float lanes[16] = {};
        int64_t i = s;
        for (; i + 16 <= end; i += 16)
            for (int j = 0; j < 16; ++j) lanes[j] += p[i + j];
        double chunk = 0;
        for (; i < end; ++i) chunk += static_cast<double>(p[i]);
        for (int j = 0; j < 16; ++j) chunk += static_cast<double>(lanes[j]);
        total += chunk;
    }
    return total;
}

/// Where each slot's block lives: a register of the scratch, an input's memory or an output's.
struct Plan {
    std::vector<BlockFn> fn;             // slot -> the row's block loop (Kind::op)
    std::vector<int> reg;                // slot -> scratch register, -1 when direct
    std::vector<const float*> leaf_ptr;  // slot -> f32 contiguous input read in place
    std::vector<float*> out_ptr;         // slot -> f32 output written in place
    std::vector<int> constants;          // slots filled once per task
    int registers = 0;
};

Plan plan(const Program& p) {
    const int n = static_cast<int>(p.steps.size());
    Plan pl;
    pl.fn.assign(n, nullptr);
    for (int s = 0; s < n; ++s)
        if (p.steps[s].kind == Step::Kind::op) pl.fn[s] = block_fn(p.steps[s].op);
    pl.reg.assign(n, -1);
    pl.leaf_ptr.assign(n, nullptr);
    pl.out_ptr.assign(n, nullptr);
    std::vector<int> last(n, -1);
    for (int s = 0; s < n; ++s)
        for (int k = 0; k < p.steps[s].nargs; ++k) last[p.steps[s].args[k]] = s;
    for (const Output& o : p.outputs) {
        const Step& st = p.steps[o.slot];
        if (o.row == 0 && !o.reused && st.kind == Step::Kind::op && o.tensor->dtype == DType::f32 &&
            !pl.out_ptr[o.slot])
            pl.out_ptr[o.slot] = cpu::as_cpu(o.tensor).data<float>();
        else
            last[o.slot] = n;  // stored after the last step
    }
    std::vector<int> free_regs;
    auto take = [&] {
        if (free_regs.empty()) return pl.registers++;
        int r = free_regs.back();
        free_regs.pop_back();
        return r;
    };
    for (int s = 0; s < n; ++s) {  // constants first: filled once per task, their registers never reused
        if (p.steps[s].kind != Step::Kind::constant) continue;
        pl.reg[s] = pl.registers++;
        pl.constants.push_back(s);
    }
    for (int s = 0; s < n; ++s) {
        const Step& st = p.steps[s];
        if (st.kind == Step::Kind::constant) continue;
        for (int k = 0; k < st.nargs; ++k) {  // an argument read for the last time frees its register
            const int a = st.args[k];
            if (last[a] == s && pl.reg[a] >= 0 && p.steps[a].kind != Step::Kind::constant &&
                std::count(st.args, st.args + k, a) == 0)
                free_regs.push_back(pl.reg[a]);
        }
        if (st.kind == Step::Kind::load) {
            const Leaf& leaf = p.leaves[static_cast<std::size_t>(st.leaf)];
            const cpu::CpuTensor& t = cpu::as_cpu(leaf.tensor);
            if (t.dtype == DType::f32 && !leaf.to_bool && (leaf.flat || t.is_contiguous()) &&
                t.shape.rank() > 0) {
                pl.leaf_ptr[s] = t.data<float>();
                continue;
            }
        }
        if (st.kind == Step::Kind::op && pl.out_ptr[s]) continue;
        pl.reg[s] = take();
    }
    return pl;
}

void run_blocks(const Program& p);

/// The CPU's fusion target: passes over blocks of kBlock elements (rows, for a reduction tail) in
/// parallel on the thread pool.
class CpuTarget final : public FusionTarget {
  public:
    bool fuses(OpId op) const override { return block_fn(op) != nullptr; }
    int64_t max_row() const override { return 16384; }  // a block holds whole rows, registers a block each
    Layout layout(const TensorRef& t) const override { return layout_of(cpu::as_cpu(t)); }
    TensorRef alloc(const Dims& shape, DType dtype, const Device& below) override {
        return cpu::alloc(shape, dtype, below);
    }
    TensorRef view(const TensorRef& t, const Dims& shape, const Dims& strides) override {
        return cpu::Strided::view_of(cpu::as_cpu(t), shape, strides, 0);
    }
    TensorRef contiguous(const TensorRef& t) override { return cpu::contiguous(t); }
    void run(const Program& p) override { run_blocks(p); }
    std::string describe(const Program& p) const override {
        const int64_t numel = p.shape.numel();
        return std::to_string((numel + kBlock - 1) / kBlock) + " block(s) of " + std::to_string(kBlock);
    }
};

}  // namespace

BlockFn block_fn(OpId op) {
    static const Table table;
    return table.fns[static_cast<int>(op)];
}

FusionTarget& cpu_target() {
    static CpuTarget* target = new CpuTarget();  // for the process
    return *target;
}

namespace {

void run_blocks(const Program& p) {
    const int64_t numel = p.shape.numel();
    const int64_t B = p.block;
    const int64_t blocks = (numel + B - 1) / B;
    const Plan pl = plan(p);
    const int nslots = static_cast<int>(p.steps.size());
    // in parallel from 32K elements on, as the eager kernels (kGrain)
    platform::parallel_for(blocks, std::max<int64_t>(1, cpu::kGrain / B), [&](int64_t b0, int64_t b1) {
        std::vector<float> scratch(static_cast<std::size_t>(pl.registers) * B);
        std::vector<const float*> at(static_cast<std::size_t>(nslots));
        auto reg = [&](int s) { return scratch.data() + static_cast<int64_t>(pl.reg[s]) * B; };
        for (int s : pl.constants) std::fill(reg(s), reg(s) + B, p.steps[s].value);
        for (int64_t b = b0; b < b1; ++b) {
            const int64_t start = b * B, n = std::min(B, numel - start);
            for (int s = 0; s < nslots; ++s) {
                const Step& st = p.steps[s];
                switch (st.kind) {
                    case Step::Kind::load:
                        if (pl.leaf_ptr[s]) {
                            at[s] = pl.leaf_ptr[s] + start;
                        } else {
                            gather_leaf(p.leaves[static_cast<std::size_t>(st.leaf)], start, n, reg(s));
                            at[s] = reg(s);
                        }
                        break;
                    case Step::Kind::constant:
                        at[s] = reg(s);
                        break;
                    case Step::Kind::op:
                    case Step::Kind::to_bool: {
                        float* out = pl.out_ptr[s] ? pl.out_ptr[s] + start : reg(s);
                        const float* args[3] = {st.nargs > 0 ? at[st.args[0]] : nullptr,
                                                st.nargs > 1 ? at[st.args[1]] : nullptr,
                                                st.nargs > 2 ? at[st.args[2]] : nullptr};
                        if (st.kind == Step::Kind::op) {
                            pl.fn[s](args, out, n, st.p0, st.p1);
                        } else {
                            for (int64_t i = 0; i < n; ++i) out[i] = args[0][i] != 0.0f ? 1.0f : 0.0f;
                        }
                        at[s] = out;
                        break;
                    }
                }
            }
            for (const Output& o : p.outputs) {
                const float* v = at[o.slot];
                if (o.row > 0) {  // blocks hold whole rows
                    float* dst = cpu::as_cpu(o.tensor).data<float>() + start / o.row;
                    for (int64_t r = 0; r < n / o.row; ++r) dst[r] = float(row_sum(v + r * o.row, o.row));
                } else if (o.tensor->dtype == DType::f32) {
                    float* dst = cpu::as_cpu(o.tensor).data<float>() + start;
                    if (dst != v) std::memcpy(dst, v, static_cast<std::size_t>(n) * sizeof(float));
                } else {
                    bool* dst = cpu::as_cpu(o.tensor).data<bool>() + start;
                    for (int64_t i = 0; i < n; ++i) dst[i] = v[i] != 0.0f;
                }
            }
        }
    });
}

}  // namespace

}  // namespace burn::lazy
