// The dft row (ops.def) on the CPU through kissfft (Debian's libkissfft-dev, float32; CMake's
// BURN_KISSFFT defines BURN_HAVE_KISSFFT on this file only). Float32 rows run here, in parallel over the
// rows; float64 rows (kissfft's build is float32 only) run the row's decomposition from here, the
// composition of matmuls of fft_factored.cpp, so that autodiff still records one dft node. Builds
// without kissfft (wasm, bare metal) and BURN_CPU_KISSFFT=0 leave the row out of the table: dispatch
// then decomposes it and the transforms keep their direct tables (fft.cpp). kissfft's butterflies are
// radix 2, 3, 4 and 5 and a generic one of O(p^2) per prime factor p, so a length whose large prime
// factors make that costlier than two power-of-two transforms runs Bluestein's chirp-z here (the chirp
// in float64, rounded). The inverse is conj(F(conj(x))): every plan is a forward one, cached per length.
#include "backends/cpu/kernels.hpp"

#if BURN_HAVE_KISSFFT
#include <kissfft/kiss_fft.h>

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "ops/decompose.hpp"
#include "platform/env.hpp"
#include "platform/parallel.hpp"

namespace burn::cpu {

namespace {

/// Rows longer than this decline (kissfft counts in int; Bluestein's length is up to 4 n).
constexpr int64_t kKissMaxPoints = int64_t(1) << 28;

struct KissCfg {  // a forward kissfft plan of n points
    explicit KissCfg(int64_t n) : cfg(kiss_fft_alloc(static_cast<int>(n), 0, nullptr, nullptr)) {
        BURN_CHECK(cfg != nullptr, "[dft] kissfft could not plan a transform of ", n, " points");
    }
    ~KissCfg() { kiss_fft_free(cfg); }
    KissCfg(const KissCfg&) = delete;
    KissCfg& operator=(const KissCfg&) = delete;
    kiss_fft_cfg cfg;
};

struct KissPlan {
    int64_t n = 0, m = 0;  // m > 0: Bluestein through transforms of m points
    std::unique_ptr<KissCfg> cfg;
    std::vector<kiss_fft_cpx> chirp;   // c_j = e^(-pi i j^2 / n), j < n
    std::vector<kiss_fft_cpx> filter;  // the m-point DFT of conj(c) at offsets -(n-1)..n-1, divided by m
};

/// Whether kissfft's own factorisation of n costs more than Bluestein with m points: its work is about
/// n times the sum of n's prime factors (the generic butterfly of p is p multiply-adds per point).
bool kiss_use_bluestein(int64_t n, int64_t m) {
    int64_t sum = 0, rest = n;
    for (int64_t p = 2; p * p <= rest; ++p)
        while (rest % p == 0) {
            sum += p;
            rest /= p;
        }
    if (rest > 1) sum += rest;
    if (rest <= 5) return false;  // every factor has its own butterfly
    const double log2m = std::log2(static_cast<double>(m));
    return static_cast<double>(n) * static_cast<double>(sum) > static_cast<double>(m) * (4 * log2m + 8);
}

std::shared_ptr<const KissPlan> make_kiss_plan(int64_t n) {
    auto p = std::make_shared<KissPlan>();
    p->n = n;
    int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    if (!kiss_use_bluestein(n, m)) {
        p->cfg = std::make_unique<KissCfg>(n);
        return p;
    }
    p->m = m;
    p->cfg = std::make_unique<KissCfg>(m);
    constexpr double kPi = 3.14159265358979323846;
    p->chirp.resize(static_cast<std::size_t>(n));
    for (int64_t j = 0; j < n; ++j) {  // j^2 mod 2n: exact angles
        const double a = -kPi * static_cast<double>((j * j) % (2 * n)) / static_cast<double>(n);
        p->chirp[static_cast<std::size_t>(j)] = {static_cast<float>(std::cos(a)),
                                                 static_cast<float>(std::sin(a))};
    }
    std::vector<kiss_fft_cpx> b(static_cast<std::size_t>(m), kiss_fft_cpx{0, 0});
    for (int64_t j = 0; j < n; ++j) {
        const kiss_fft_cpx c = p->chirp[static_cast<std::size_t>(j)];
        b[static_cast<std::size_t>(j)] = {c.r, -c.i};
        if (j > 0) b[static_cast<std::size_t>(m - j)] = {c.r, -c.i};
    }
    p->filter.resize(static_cast<std::size_t>(m));
    kiss_fft(p->cfg->cfg, b.data(), p->filter.data());
    const float inv_m = 1.0f / static_cast<float>(m);
    for (auto& f : p->filter) f = {f.r * inv_m, f.i * inv_m};
    return p;
}

/// The plan of n points, cached (at most 64 lengths: an overflowing cache starts again).
std::shared_ptr<const KissPlan> kiss_plan(int64_t n) {
    static std::mutex mutex;
    static auto* cache = new std::map<int64_t, std::shared_ptr<const KissPlan>>();  // never destroyed
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache->find(n); it != cache->end()) return it->second;
    if (cache->size() >= 64) cache->clear();
    auto p = make_kiss_plan(n);
    cache->emplace(n, p);
    return p;
}

inline kiss_fft_cpx kiss_mul(kiss_fft_cpx a, kiss_fft_cpx b) {
    return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
}

/// One row: y = DFT(x) (s = 1) or conj(DFT(conj(x))) (s = -1, the inverse). buf holds n points, work 2m.
void kiss_row(const KissPlan& p, const float* xr, const float* xi, float* yr, float* yi, float s,
              kiss_fft_cpx* buf, kiss_fft_cpx* work) {
    const int64_t n = p.n;
    if (p.m == 0) {
        for (int64_t j = 0; j < n; ++j) work[j] = {xr[j], s * xi[j]};
        kiss_fft(p.cfg->cfg, work, buf);
    } else {  // X_k = c_k sum_j (x_j c_j) conj(c)_(k - j): a circular convolution of m points
        kiss_fft_cpx *a = work, *spec = work + p.m;
        for (int64_t j = 0; j < n; ++j)
            a[j] = kiss_mul({xr[j], s * xi[j]}, p.chirp[static_cast<std::size_t>(j)]);
        for (int64_t j = n; j < p.m; ++j) a[j] = {0, 0};
        kiss_fft(p.cfg->cfg, a, spec);
        for (int64_t k = 0; k < p.m; ++k) {  // the product, conjugated: the inverse as a forward transform
            const kiss_fft_cpx v = kiss_mul(spec[k], p.filter[static_cast<std::size_t>(k)]);
            spec[k] = {v.r, -v.i};
        }
        kiss_fft(p.cfg->cfg, spec, a);
        for (int64_t k = 0; k < n; ++k)
            buf[k] = kiss_mul({a[k].r, -a[k].i}, p.chirp[static_cast<std::size_t>(k)]);
    }
    for (int64_t k = 0; k < n; ++k) {
        yr[k] = buf[k].r;
        yi[k] = s * buf[k].i;
    }
}

/// Float64 rows, and rows too long for kissfft's int: the row's decomposition, on this device.
TensorRefs kiss_dft_composed(const OpCall& call, TensorRefs& in) {
    const std::vector<TensorAny> args{TensorAny(std::move(in[0])), TensorAny(std::move(in[1]))};
    std::vector<TensorAny> out = ops::decomposition(OpId::dft)(call, args);
    return {std::move(out[0]).ref(), std::move(out[1]).ref()};
}

TensorRefs kiss_dft_kernel(const OpCall& call, TensorRefs& in) {
    if (call.dtype != DType::f32 || call.shape[call.shape.rank() - 1] > kKissMaxPoints)
        return kiss_dft_composed(call, in);
    const float s = call.attrs<attrs::Dft>().inverse ? -1.0f : 1.0f;
    const TensorRef re = contiguous(in[0]), im = contiguous(in[1]);
    const CpuTensor &xr = as_cpu(re), &xi = as_cpu(im);
    const int64_t n = call.shape[call.shape.rank() - 1], rows = n == 0 ? 0 : call.shape.numel() / n;
    auto yr = alloc(call.shape, DType::f32, xr.device), yi = alloc(call.shape, DType::f32, xr.device);
    if (rows == 0) return {yr, yi};
    const float *pr = xr.data<float>(), *pi = xi.data<float>();
    float *qr = yr->data<float>(), *qi = yi->data<float>();
    if (n == 1) {  // one point: itself
        for (int64_t r = 0; r < rows; ++r) {
            qr[r] = pr[r];
            qi[r] = pi[r];
        }
        return {yr, yi};
    }
    const std::shared_ptr<const KissPlan> plan = kiss_plan(n);
    const int64_t scratch = n + 2 * std::max(plan->m, n);
    platform::parallel_for(rows, std::max<int64_t>(1, 16384 / n), [&](int64_t b, int64_t e) {
        std::vector<kiss_fft_cpx> tmp(static_cast<std::size_t>(scratch));
        for (int64_t r = b; r < e; ++r)
            kiss_row(*plan, pr + r * n, pi + r * n, qr + r * n, qi + r * n, s, tmp.data(), tmp.data() + n);
    });
    return {yr, yi};
}

}  // namespace

void register_dft(KernelTable& t) {
    if (platform::env_var("BURN_CPU_KISSFFT").value_or("1") != "0") t[idx(OpId::dft)] = &kiss_dft_kernel;
}

}  // namespace burn::cpu

#else  // no kissfft: the row's decomposition runs

namespace burn::cpu {

void register_dft(KernelTable&) {}

}  // namespace burn::cpu

#endif
