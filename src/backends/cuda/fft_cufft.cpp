// The dft row (ops.def) on CUDA through cuFFT: the two planes interleaved into one complex buffer (the
// strided layer's region copy), one batched in-place C2C (f32) or Z2Z (f64) transform, and the planes
// read back as two strided views made contiguous. CUFFT_INVERSE is unscaled, as the row. cuFFT covers
// every length itself (Bluestein for large prime factors). Plans (without work areas: each run takes
// one from the caching allocator) are cached per (device, n, rows, dtype). BURN_CUDA_CUFFT=0 turns the
// kernel off (the row then runs its decomposition, a composition of matmuls).
#include <cufft.h>

#include <climits>
#include <map>
#include <mutex>
#include <tuple>

#include "backends/cuda/cuda_internal.hpp"
#include "platform/env.hpp"

namespace burn::cuda {

namespace {

void check_cufft(cufftResult r, const char* what) {
    if (r == CUFFT_SUCCESS) return;
    BURN_THROW_KIND(device, "[", ctx().op, "] cuFFT error ", static_cast<int>(r), " in ", what);
}

struct CufftPlan {
    cufftHandle handle = 0;
    std::size_t work = 0;  // bytes of work area
};

using CufftKey = std::tuple<int, int64_t, int64_t, int>;  // (device, n, rows, dtype)

struct CufftState {
    std::mutex mutex;  // held while a plan is set up and launched: a handle has one stream and work area
    std::map<CufftKey, CufftPlan> plans;
};
CufftState& cufft_state() {
    static auto* s = new CufftState();  // never destroyed: kernels may run during static destruction
    return *s;
}

CufftPlan make_cufft_plan(int64_t n, int64_t rows, DType dt) {
    CufftPlan p;
    check_cufft(cufftCreate(&p.handle), "cufftCreate");
    check_cufft(cufftSetAutoAllocation(p.handle, 0), "cufftSetAutoAllocation");
    long long len = n;
    check_cufft(cufftMakePlanMany64(p.handle, 1, &len, nullptr, 1, n, nullptr, 1, n,
                                    dt == DType::f64 ? CUFFT_Z2Z : CUFFT_C2C, rows, &p.work),
                "cufftMakePlanMany64");
    return p;
}

/// The planes of shape (the last dim n) interleaved: element strides 2x the contiguous ones.
Dims interleaved_strides(const Dims& shape) {
    Dims s = shape.contiguous_strides();
    for (int d = 0; d < s.rank(); ++d) s[d] *= 2;
    return s;
}

TensorRefs cufft_dft_kernel(const OpCall& call, TensorRefs& in) {
    const bool inverse = call.attrs<attrs::Dft>().inverse;
    const DType dt = call.dtype;
    const Dims& shape = call.shape;
    const int64_t n = shape[shape.rank() - 1], rows = n == 0 ? 0 : shape.numel() / n;
    if (rows == 0) return {alloc(shape, dt), alloc(shape, dt)};
    Dims cshape = shape;  // [..., n, 2]: (re, im) pairs
    cshape.push_back(2);
    const std::shared_ptr<CudaTensor> buf = alloc(cshape, dt);
    const Dims strides = interleaved_strides(shape);
    copy_region(as_cuda(in[0]), *buf, strides, 0);
    copy_region(as_cuda(in[1]), *buf, strides, 1);
    {
        CufftState& s = cufft_state();
        std::lock_guard<std::mutex> lock(s.mutex);
        const CufftKey key{ctx().device, n, rows, static_cast<int>(dt)};
        auto it = s.plans.find(key);
        const bool cached = it != s.plans.end() || s.plans.size() < 64;
        if (it == s.plans.end()) {
            const CufftPlan made = make_cufft_plan(n, rows, dt);
            it = s.plans.emplace(key, made).first;
        }
        const CufftPlan p = it->second;
        if (!cached) s.plans.erase(it);  // a one-off plan past 64 cached ones: destroyed below
        const std::shared_ptr<Storage> work = scratch(std::max<std::size_t>(p.work, 1));
        check_cufft(cufftSetWorkArea(p.handle, work->data), "cufftSetWorkArea");
        check_cufft(cufftSetStream(p.handle, ctx().stream), "cufftSetStream");
        const int dir = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
        if (dt == DType::f64) {
            auto* z = static_cast<cufftDoubleComplex*>(buf->storage->data);
            check_cufft(cufftExecZ2Z(p.handle, z, z, dir), "cufftExecZ2Z");
        } else {
            auto* c = static_cast<cufftComplex*>(buf->storage->data);
            check_cufft(cufftExecC2C(p.handle, c, c, dir), "cufftExecC2C");
        }
        if (!cached) cufftDestroy(p.handle);  // cuFFT waits for its launches
    }
    const Device dev = buf->device;
    TensorRefs out;
    for (int64_t part = 0; part < 2; ++part) {
        const TensorRef view = std::make_shared<CudaTensor>(shape, dt, dev, buf->storage, strides, part);
        out.push_back(Strided::contiguous_copy(view));
    }
    return out;
}

bool cufft_dft_ok(const OpCall& call, const TensorRefs&) {
    static const bool enabled = platform::env_var("BURN_CUDA_CUFFT").value_or("1") != "0";
    const int64_t n = call.shape.rank() >= 1 ? call.shape[call.shape.rank() - 1] : 0;
    return enabled && (call.dtype == DType::f32 || call.dtype == DType::f64) && n >= 1 && n <= INT_MAX;
}

}  // namespace

void register_fft(KernelTable& t) {
    t[idx(OpId::dft)] = {&cufft_dft_kernel, &cufft_dft_ok};
}

}  // namespace burn::cuda
