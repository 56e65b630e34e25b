// f32 convolution forward through oneDNN (dnnl_conv.hpp). oneDNN's fast f32 kernels on x86 read and
// write channels-last activations (nhwc; brgconv, and brdgmm for depthwise). A 2-D convolution therefore
// returns its output channels-last (a CpuTensor with permuted strides, like PyTorch's channels_last
// memory format) and takes a channels-last input as it is: a chain of convolutions and the elementwise
// ops between them (which keep the layout, elementwise.cpp) reorders only the first input. The exception
// is a 1x1 convolution of a row-major input, which oneDNN runs as a GEMM in that layout and which stays
// row-major; 1-D and 3-D convolutions keep the row-major layout too and reorder in and out of oneDNN's
// choice on each call. The reordered weights are cached, primitives by geometry. A call is split into
// dense parts (ranges of images; for one image, ranges of output rows, or of output channels or of
// groups when row-major) that run on burn's threads, each through a single-threaded primitive (see
// run_part for why oneDNN's own OpenMP team is not used).
//
// Weight cache safety: an entry keeps a reference to the weight tensor's storage. The CPU backend
// only overwrites a buffer in place when its tensor holds the only reference to the storage
// (strided::Tensor::is_unique_dense), so a cached storage is never modified: an optimizer step
// writes new buffers, and the entries of storages that only the cache still references are dropped
// on the next lookup.
#include "backends/cpu/dnnl_conv.hpp"

#include "backends/cpu/conv_winograd.hpp"
#include "burn/build_config.hpp"

#if defined(BURN_HAVE_DNNL) && BURN_EXCEPTIONS
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dnnl.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/dnnl_conv_parts.hpp"
#include "platform/env.hpp"
#include "platform/parallel.hpp"
#include "platform/sync.hpp"

namespace burn::cpu {

namespace {

using dnnl::memory;
using dnnl_parts::make_parts;
using dnnl_parts::Part;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

platform::EnvSwitch g_enabled("BURN_CPU_DNNL", true);

/// A cached weight reorder: the source storage (kept alive, hence never overwritten) and its copy in
/// the primitive's layout.
struct CachedWeights {
    std::shared_ptr<Storage> source;
    memory blocked;
};

struct Prim {
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward conv;
    // src in, dst out, when the layouts differ (no scratchpad); dst_in: the residual (in the caller's y)
    // into a blocked dst, for the sum post-op
    dnnl::reorder to_blocked, to_plain, dst_in;
    memory::desc user_src, user_wei, user_dst, scratchpad;
    bool reorder_src = false, reorder_wei = false, reorder_dst = false, residual_in = false;
    bool sum = false;  // a fused residual: the sum post-op reads dst
    std::map<std::pair<const Storage*, int64_t>, CachedWeights> weights;
};

/// Everything oneDNN: the engine, the primitive cache and its lock.
struct State {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    platform::Mutex mu;
    std::map<std::vector<int64_t>, std::shared_ptr<Prim>> prims;  // null: unsupported geometry
    int64_t weight_bytes = 0;
};

State& state() {
    static State* s = new State();  // lives for the whole process (used from static destructors)
    return *s;
}

/// Above this many cached weight bytes the cache is emptied before adding more.
constexpr int64_t kWeightCacheBytes = int64_t(1) << 30;

Tag plain_tag(int rank) {
    return rank == 3 ? Tag::ncw : rank == 4 ? Tag::nchw : Tag::ncdhw;
}
Tag channels_last_tag(int rank) {
    return rank == 3 ? Tag::nwc : rank == 4 ? Tag::nhwc : Tag::ndhwc;
}
Tag plain_weight_tag(int rank, bool grouped) {
    if (grouped) return rank == 3 ? Tag::goiw : rank == 4 ? Tag::goihw : Tag::goidhw;
    return rank == 3 ? Tag::oiw : rank == 4 ? Tag::oihw : Tag::oidhw;
}

/// oneDNN's post-ops for an epilogue: sum (the residual, already in dst), then relu or clip.
dnnl::post_ops post_ops_of(const ConvEpilogue& e) {
    dnnl::post_ops po;
    if (e.residual) po.append_sum(1.f);
    if (e.lo == 0 && std::isinf(e.hi) && e.hi > 0)
        po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    else if (!std::isinf(e.lo) || !std::isinf(e.hi))
        po.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, static_cast<float>(e.lo),
                          static_cast<float>(e.hi));
    return po;
}

bool winograd_enabled() {
    return winograd::enabled();
}

/// Whether a 2-D convolution (one part of a call) goes to oneDNN's Winograd kernels (F(2x2, 3x3) or
/// F(4x4, 3x3), AVX-512 only): 3x3, stride 1, no dilation, one group, at least 64 input and output
/// channels in blocks of 16, and at least 392 output pixels (images x rows x columns) to share the
/// transformed weights, which are 4x the size of the plain ones. Measured on ResNet-18 (batch 2, one
/// thread, per layer, ms, Winograd / direct nhwc): 64 channels at 56x56 1.09 / 2.22, 128 at 28x28 1.04 /
/// 2.13, 256 at 14x14 1.80 / 2.03, 512 at 7x7 3.41 / 2.62 (the weights stream from memory). With fewer
/// channels the reorders in and out of the blocked layout eat the gain: the MNIST convnet's 32 -> 64 at
/// 14x14 (cnn_train, batch 64) took 7.6-7.9 ms per forward against 6.6-7.0 direct.
bool winograd_pays(const attrs::Conv& a, const Dims& xs, const Dims& ws, const Dims& ys) {
    if (xs.rank() != 4 || a.groups != 1 || !winograd_enabled()) return false;
    for (std::size_t k = 0; k < 2; ++k)
        if (ws[static_cast<int>(k) + 2] != 3 || a.stride[k] != 1 || a.dilation[k] != 1) return false;
    return xs[1] >= 64 && ws[0] >= 64 && xs[1] % 16 == 0 && ws[0] % 16 == 0 && ys[0] * ys[2] * ys[3] >= 392;
}

/// The primitive for this geometry, made on first use; null when oneDNN has no kernel for it. x_cl: the
/// caller's x is channels-last; y_cl: the output is (then the primitive reads and writes channels-last
/// and x_cl must hold too).
std::shared_ptr<Prim> make_prim(const attrs::Conv& a, const Dims& xs, const Dims& ws, const Dims& ys,
                                bool bias, bool x_cl, bool y_cl, const ConvEpilogue* epi) {
    const int rank = xs.rank(), s = rank - 2;
    const int64_t groups = a.groups;
    memory::dims src(xs.begin(), xs.end()), dst(ys.begin(), ys.end()), wei;
    if (groups > 1) {
        wei.push_back(groups);
        wei.push_back(ws[0] / groups);
        for (int i = 1; i < ws.rank(); ++i) wei.push_back(ws[i]);
    } else {
        wei.assign(ws.begin(), ws.end());
    }
    memory::dims strides, dil, pad_l, pad_r;
    for (int i = 0; i < s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        strides.push_back(a.stride[k]);
        dil.push_back(a.dilation[k] - 1);
        pad_l.push_back(a.pad_begin[k]);
        // The end padding that makes the output size exact (oneDNN checks it); negative when the
        // output drops trailing input positions (a 1x1 with stride 2 on an even size), which only some
        // oneDNN kernels accept (the others throw: no primitive).
        pad_r.push_back((ys[i + 2] - 1) * a.stride[k] + (ws[i + 2] - 1) * a.dilation[k] + 1 - xs[i + 2] -
                        a.pad_begin[k]);
    }
    auto p = std::make_shared<Prim>();
    p->user_src = memory::desc(src, kF32, x_cl ? channels_last_tag(rank) : plain_tag(rank));
    p->user_dst = memory::desc(dst, kF32, y_cl ? channels_last_tag(rank) : plain_tag(rank));
    p->user_wei = memory::desc(wei, kF32, plain_weight_tag(rank, groups > 1));
    bool pointwise = true;
    for (int i = 0; i < s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        pointwise = pointwise && ws[i + 2] == 1 && a.stride[k] == 1 && a.pad_begin[k] == 0 && pad_r[k] == 0;
    }
    // A 1x1 convolution of row-major activations reads and writes the plain layout (oneDNN runs it as a
    // GEMM): the reorders in and out cost more than a blocked kernel saves (mobilenet_v2 batch 8: 136 against
    // 228 ms, best of 10, on the loaded 2-core machine of docs/performance.md).
    const memory::desc any_wei(wei, kF32, Tag::any),
        bias_md(bias ? memory::dims{ys[1]} : memory::dims{}, kF32, Tag::x);
    // The primitive with activations in layout act (Tag::any: oneDNN's choice); false when it has none.
    auto make_desc = [&](const std::shared_ptr<Prim>& p, Tag act, dnnl::algorithm alg) {
        const memory::desc any_src(src, kF32, act), any_dst(dst, kF32, act);
        try {
            const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, alg, any_src, any_wei,
                                                    bias ? bias_md : memory::desc(), any_dst, strides, dil,
                                                    pad_l, pad_r);
            // Parts of one call can run the same primitive on several threads at once: each passes its
            // own scratchpad (Debian's oneDNN shares a primitive's internal one between threads).
            // (Two objects: a copy of a dnnl::primitive_attr shares its handle, and a reorder takes no
            // eltwise post-op.)
            dnnl::primitive_attr attr, conv_attr;
            attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
            conv_attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
            if (epi) conv_attr.set_post_ops(post_ops_of(*epi));
            p->pd = dnnl::convolution_forward::primitive_desc(d, conv_attr, state().eng);
            p->conv = dnnl::convolution_forward(p->pd);
            p->scratchpad = p->pd.scratchpad_desc();
            p->reorder_src = p->pd.src_desc() != p->user_src;
            p->reorder_wei = p->pd.weights_desc() != p->user_wei;
            p->reorder_dst = p->pd.dst_desc() != p->user_dst;
            const dnnl::engine& eng = state().eng;
            // the sum post-op reads the residual from dst: the caller's y, reordered in when blocked
            p->sum = epi && epi->residual;
            p->residual_in = p->reorder_dst && p->sum;
            if (p->residual_in)
                p->dst_in = dnnl::reorder(
                    dnnl::reorder::primitive_desc(eng, p->user_dst, eng, p->pd.dst_desc(), attr));
            if (p->reorder_src)
                p->to_blocked = dnnl::reorder(
                    dnnl::reorder::primitive_desc(eng, p->user_src, eng, p->pd.src_desc(), attr));
            if (p->reorder_dst)
                p->to_plain = dnnl::reorder(
                    dnnl::reorder::primitive_desc(eng, p->pd.dst_desc(), eng, p->user_dst, attr));
        } catch (const dnnl::error&) {
            return false;
        }
        return true;
    };
    // Winograd when it pays (see winograd_pays), on oneDNN's blocked layout with reorders; else
    // channels-last in and out when asked, else (should oneDNN have no kernel for that) its choice,
    // with reorders.
    if (winograd_pays(a, xs, ws, ys) && make_desc(p, Tag::any, dnnl::algorithm::convolution_winograd))
        return p;
    for (const Tag act : {y_cl                       ? channels_last_tag(rank)
                          : pointwise && groups == 1 ? plain_tag(rank)
                                                     : Tag::any,
                          Tag::any}) {
        if (make_desc(p, act, dnnl::algorithm::convolution_direct)) return p;
    }
    return nullptr;
}

/// A 64-byte aligned per-thread buffer of at least `bytes` (contents unspecified).
void* scratch_bytes(int slot, std::size_t bytes) {
    struct Buf {
        void* p = nullptr;
        std::size_t n = 0;
        ~Buf() { std::free(p); }
    };
    static BURN_THREAD_LOCAL Buf bufs[4];
    Buf& b = bufs[slot];
    if (b.n < bytes) {
        std::free(b.p);
        b.n = (bytes + 63) / 64 * 64;
        b.p = std::aligned_alloc(64, b.n);
    }
    return b.p;
}

/// The weights in the primitive's layout: cached by storage and offset (see the file comment). Call
/// with the state's lock held.
memory blocked_weights(State& st, Prim& p, const std::shared_ptr<Storage>& storage, const float* w) {
    for (auto it = p.weights.begin(); it != p.weights.end();) {
        if (it->second.source.use_count() == 1) {  // only the cache still references it
            st.weight_bytes -= static_cast<int64_t>(it->second.blocked.get_desc().get_size());
            it = p.weights.erase(it);
        } else {
            ++it;
        }
    }
    const auto key =
        std::make_pair(static_cast<const Storage*>(storage.get()),
                       static_cast<int64_t>(reinterpret_cast<const uint8_t*>(w) - storage->data));
    auto it = p.weights.find(key);
    if (it != p.weights.end()) return it->second.blocked;
    const auto bytes = static_cast<int64_t>(p.pd.weights_desc().get_size());
    if (st.weight_bytes + bytes > kWeightCacheBytes) {
        for (auto& [k, q] : st.prims)
            if (q) q->weights.clear();
        st.weight_bytes = 0;
    }
    memory user(p.user_wei, st.eng, const_cast<float*>(w));
    memory blocked(p.pd.weights_desc(), st.eng);
    dnnl::stream strm(st.eng);
    dnnl::reorder(user, blocked).execute(strm, user, blocked);
    strm.wait();
    p.weights.emplace(key, CachedWeights{storage, blocked});
    st.weight_bytes += bytes;
    return blocked;
}

/// A part's primitive and weights, ready to run; prim is null when oneDNN has no kernel for it.
struct Ready {
    std::shared_ptr<Prim> prim;
    memory wei;
};

Ready prepare_part(State& st, const Part& q, bool bias, bool x_cl, bool y_cl, const CpuTensor& w,
                   const ConvEpilogue* epi) {
    const attrs::Conv& a = q.a;
    std::vector<int64_t> key(q.xs.begin(), q.xs.end());
    key.insert(key.end(), q.ws.begin(), q.ws.end());
    key.insert(key.end(), q.ys.begin(), q.ys.end());
    for (int i = 0; i < 3; ++i) {
        const auto k = static_cast<std::size_t>(i);
        key.insert(key.end(), {a.stride[k], a.pad_begin[k], a.dilation[k]});
    }
    key.insert(key.end(), {a.groups, bias, x_cl, y_cl, epi != nullptr, winograd_enabled()});
    if (epi) {
        int64_t bounds[2];
        std::memcpy(bounds, &epi->lo, sizeof(double));
        std::memcpy(bounds + 1, &epi->hi, sizeof(double));
        key.insert(key.end(), {epi->residual != nullptr, bounds[0], bounds[1]});
    }
    auto it = st.prims.find(key);
    if (it == st.prims.end())
        it = st.prims.emplace(key, make_prim(a, q.xs, q.ws, q.ys, bias, x_cl, y_cl, epi)).first;
    Ready r{it->second, memory()};
    if (r.prim && r.prim->reorder_wei)
        r.wei = blocked_weights(st, *r.prim, w.storage, w.data<float>() + q.w_off);
    return r;
}

/// The tensors' first elements.
struct Bases {
    const float* x;
    const float* w;
    const float* b;
    float* y;
};

/// Runs one prepared part on the calling thread.
void run_part(const State& st, const Part& q, const Ready& r, const Bases& t) {
    // Debian's oneDNN threads with OpenMP. Its team stays at one thread (the parts run on burn's
    // threads): libgomp's idle workers spin for milliseconds after each parallel region, and on a
    // machine with few cores that spinning starves the thread pool's next op.
    if (omp_get_max_threads() != 1) omp_set_num_threads(1);
    const Prim& p = *r.prim;
    const dnnl::engine& eng = st.eng;
    dnnl::stream strm(eng);
    memory user_src(p.user_src, eng, const_cast<float*>(t.x + q.x_off));
    // A range of y's channels goes through a dense buffer (Part::y_channels): pixel i's channels are
    // buffer[i * oc, (i + 1) * oc) and y[i * y_channels + b_off, ...).
    const int64_t oc = q.ys[1], pixels = q.y_channels ? q.ys.numel() / oc : 0;
    float* y_part = t.y + q.y_off;
    if (q.y_channels) {
        y_part =
            static_cast<float*>(scratch_bytes(3, static_cast<std::size_t>(q.ys.numel()) * sizeof(float)));
        if (p.sum)
            for (int64_t i = 0; i < pixels; ++i)
                std::memcpy(y_part + i * oc, t.y + i * q.y_channels + q.b_off,
                            static_cast<std::size_t>(oc) * sizeof(float));
    }
    memory user_dst(p.user_dst, eng, y_part);
    memory src = user_src, dst = user_dst, wei = r.wei;
    if (p.reorder_src) {
        src = memory(p.pd.src_desc(), eng, scratch_bytes(0, p.pd.src_desc().get_size()));
        p.to_blocked.execute(strm, user_src, src);
    }
    if (p.reorder_dst) dst = memory(p.pd.dst_desc(), eng, scratch_bytes(1, p.pd.dst_desc().get_size()));
    if (p.residual_in) p.dst_in.execute(strm, user_dst, dst);
    if (!p.reorder_wei) wei = memory(p.user_wei, eng, const_cast<float*>(t.w + q.w_off));
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, src},
        {DNNL_ARG_WEIGHTS, wei},
        {DNNL_ARG_DST, dst},
        {DNNL_ARG_SCRATCHPAD, memory(p.scratchpad, eng, scratch_bytes(2, p.scratchpad.get_size()))}};
    if (t.b) args.emplace(DNNL_ARG_BIAS, memory(p.pd.bias_desc(), eng, const_cast<float*>(t.b + q.b_off)));
    p.conv.execute(strm, args);
    if (p.reorder_dst) {
        p.to_plain.execute(strm, dst, user_dst);
    }
    strm.wait();
    for (int64_t i = 0; i < pixels; ++i)
        std::memcpy(t.y + i * q.y_channels + q.b_off, y_part + i * oc,
                    static_cast<std::size_t>(oc) * sizeof(float));
}

/// x reordered into the channels-last layout (one oneDNN reorder per image, in parallel).
std::shared_ptr<CpuTensor> channels_last_copy(const CpuTensor& x) {
    auto out = alloc(x.shape, x.dtype, x.device);
    out->strides = CpuTensor::channels_last_strides(x.shape);
    const int64_t n = x.shape[0], img = x.shape.numel() / std::max<int64_t>(1, n);
    memory::dims d(x.shape.begin(), x.shape.end());
    d[0] = 1;
    const memory::desc from(d, kF32, plain_tag(x.shape.rank())),
        to(d, kF32, channels_last_tag(x.shape.rank()));
    const float* src = x.data<float>();
    float* dst = out->data<float>();
    const dnnl::engine& eng = state().eng;
    const dnnl::reorder r(dnnl::reorder::primitive_desc(eng, from, eng, to));
    platform::parallel_for(n, 1, [&](int64_t i0, int64_t i1) {
        if (omp_get_max_threads() != 1) omp_set_num_threads(1);
        dnnl::stream strm(eng);
        for (int64_t i = i0; i < i1; ++i) {
            memory a(from, eng, const_cast<float*>(src + i * img)), b(to, eng, dst + i * img);
            r.execute(strm, a, b);
        }
        strm.wait();
    });
    return out;
}

/// y = r, the sum post-op's operand: a parallel memcpy when both have one dense layout (copy_region's
/// strided loops gather a channels-last tensor element by element).
void preload(const CpuTensor& r, CpuTensor& y) {
    if (!r.is_dense() || !r.same_layout(y)) return copy_region(r, y, y.strides, y.offset);
    const float* src = r.data<float>();
    float* dst = y.data<float>();
    platform::parallel_for(y.shape.numel(), 1 << 16, [&](int64_t b, int64_t e) {
        std::memcpy(dst + b, src + b, static_cast<std::size_t>(e - b) * sizeof(float));
    });
}

/// The convolution with y channels-last or not; null (nothing computed) when a part has no kernel.
std::shared_ptr<CpuTensor> forward(const attrs::Conv& a, const CpuTensor& x, bool x_cl, const CpuTensor& w,
                                   const CpuTensor* b, const Dims& y_shape, bool y_cl,
                                   const ConvEpilogue* epi) {
    const std::vector<Part> parts = make_parts(a, x.shape, w.shape, y_shape, y_cl);
    State& st = state();
    if (omp_get_max_threads() != 1) omp_set_num_threads(1);  // weight reorders too (see run_part)
    std::vector<Ready> ready;
    {
        platform::Lock lock(st.mu);
        for (const Part& q : parts) {
            ready.push_back(prepare_part(st, q, b != nullptr, x_cl || y_cl, y_cl, w, epi));
            if (!ready.back().prim) return nullptr;
        }
    }
    std::shared_ptr<CpuTensor> x_copy;
    if (y_cl && !x_cl) x_copy = channels_last_copy(x);
    auto y = alloc(y_shape, DType::f32, x.device);
    if (y_cl) y->strides = CpuTensor::channels_last_strides(y_shape);
    if (epi && epi->residual) preload(*epi->residual, *y);
    const Bases bases{x_copy ? x_copy->data<float>() : x.data<float>(), w.data<float>(),
                      b ? b->data<float>() : nullptr, y->data<float>()};
    platform::parallel_for(static_cast<int64_t>(parts.size()), 1, [&](int64_t p0, int64_t p1) {
        for (int64_t i = p0; i < p1; ++i) {
            const auto k = static_cast<std::size_t>(i);
            run_part(st, parts[k], ready[k], bases);
        }
    });
    return y;
}

}  // namespace

std::shared_ptr<CpuTensor> dnnl_conv_forward(const attrs::Conv& a, const CpuTensor& x, const CpuTensor& w,
                                             const CpuTensor* b, const Dims& y_shape,
                                             const ConvEpilogue* epi) {
    const int rank = x.shape.rank();
    const bool x_cl = !x.is_contiguous() && x.is_channels_last();
    if (!dnnl_conv_available() || rank < 3 || rank > 5 || x.dtype != DType::f32 || w.dtype != DType::f32 ||
        (b && b->dtype != DType::f32) || !(x.is_contiguous() || x_cl) || !w.is_contiguous() ||
        (b && !b->is_contiguous()) || y_shape.numel() == 0)
        return nullptr;
    bool pointwise = a.groups == 1;
    for (int i = 2; i < rank; ++i) {
        const auto k = static_cast<std::size_t>(i - 2);
        pointwise = pointwise && w.shape[i] == 1 && a.stride[k] == 1 && a.pad_begin[k] == 0 &&
                    y_shape[i] == x.shape[i];
    }
    // 2-D: channels-last out (see the file comment), but for a 1x1 of a row-major input
    if (rank == 4 && (x_cl || !pointwise)) {
        if (auto y = forward(a, x, x_cl, w, b, y_shape, true, epi)) return y;
    }
    return forward(a, x, x_cl, w, b, y_shape, false, epi);
}

bool dnnl_conv_available() {
    return g_enabled.on();
}

void set_dnnl_conv_enabled(bool on) {
    g_enabled.set(on);
}

void set_dnnl_winograd_enabled(bool on) {
    winograd::set_enabled(on);
}

std::vector<std::string> dnnl_conv_kernels() {
    State& st = state();
    platform::Lock lock(st.mu);
    std::vector<std::string> out;
    for (const auto& [key, p] : st.prims)
        if (p) out.push_back(p->pd.impl_info_str());
    return out;
}

}  // namespace burn::cpu

#else  // no oneDNN in this build

namespace burn::cpu {

std::shared_ptr<CpuTensor> dnnl_conv_forward(const attrs::Conv&, const CpuTensor&, const CpuTensor&,
                                             const CpuTensor*, const Dims&, const ConvEpilogue*) {
    return nullptr;
}

bool dnnl_conv_available() {
    return false;
}

void set_dnnl_conv_enabled(bool) {}

void set_dnnl_winograd_enabled(bool) {}

std::vector<std::string> dnnl_conv_kernels() {
    return {};
}

}  // namespace burn::cpu

#endif
