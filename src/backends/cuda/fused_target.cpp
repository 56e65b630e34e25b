// The lazy decorator's fusion target over a CUDA device (docs/fusion.md): a fused pass becomes one
// kernel (fused_source.cpp), compiled by NVRTC and cached (nvrtc.cpp), launched on the device's stream
// with no host synchronisation. Without NVRTC nothing fuses: lazy(cuda) then only forwards.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_internal.hpp"
#include "backends/cuda/fused_source.hpp"
#include "backends/cuda/nvrtc.hpp"
#include "decorators/lazy/fused_program.hpp"
#include "decorators/lazy/fusion_target.hpp"

namespace burn::cuda {

namespace {

constexpr int kBlockThreads = 256;  // the generated kernels' __launch_bounds__

bool aligned16(const void* p) {
    return reinterpret_cast<uintptr_t>(p) % 16 == 0;
}

bool broadcast_one(const CudaTensor& t) {
    if (t.shape.rank() == 0) return true;
    for (int64_t s : t.strides)
        if (s != 0) return false;
    return true;
}

class CudaTarget final : public lazy::FusionTarget {
  public:
    explicit CudaTarget(int index) : index_(index) {}

    bool fuses(OpId op) const override { return rtc::available() && fused::has_row(op); }
    // a group of up to 256 threads sums each row: rows longer than this are better left to sum_dim
    int64_t max_row() const override { return 16384; }
    lazy::Layout layout(const TensorRef& t) const override { return lazy::layout_of(as_cuda(t)); }
    TensorRef alloc(const Dims& shape, DType dtype, const Device&) override {
        TensorRef out;
        in_context(index_, "lazy", [&] { out = cuda::alloc(shape, dtype); });
        return out;
    }
    TensorRef view(const TensorRef& t, const Dims& shape, const Dims& strides) override {
        return Strided::view_of(as_cuda(t), shape, strides, 0);
    }
    TensorRef contiguous(const TensorRef& t) override {
        TensorRef out;
        in_context(index_, "lazy", [&] { out = cuda::contiguous(t); });
        return out;
    }
    void run(const lazy::Program& p) override {
        in_context(index_, "lazy", [&] { launch(p); });
    }
    std::string describe(const lazy::Program&) const override { return "one CUDA kernel"; }
    // one op gains nothing from a generated kernel; the eager one launches with less host work
    bool eager_single_ops() const override { return true; }

  private:
    void launch(const lazy::Program& p) const {
        const int64_t n = p.shape.numel();
        if (n == 0) return;
        fused::Shape shape;
        std::vector<fused::Operand> operands;
        bool vec4 = n >= 4;
        for (const lazy::Leaf& l : p.leaves) {
            const CudaTensor& t = as_cuda(l.tensor);
            fused::Read r = broadcast_one(t)                ? fused::Read::scalar
                            : (l.flat || t.is_contiguous()) ? fused::Read::dense
                                                            : fused::Read::strided;
            shape.reads.push_back(r);
            operands.push_back(fused::Operand{t.raw(), t.dtype, t.strides});
            if (r == fused::Read::strided) vec4 = false;
            if (r == fused::Read::dense && t.dtype == DType::f32 && !l.to_bool && !aligned16(t.raw()))
                vec4 = false;
        }
        std::vector<void*> outputs;
        int64_t row = 0;
        for (const lazy::Output& o : p.outputs) {
            const CudaTensor& t = as_cuda(o.tensor);
            outputs.push_back(t.raw());
            if (t.dtype == DType::f32 && !aligned16(t.raw())) vec4 = false;
            if (o.row > 0) row = o.row;
        }
        shape.vec4 = vec4 && row == 0;
        shape.row_threads = row == 0 ? 0 : row <= 32 ? 32 : row <= 64 ? 64 : row <= 128 ? 128 : 256;
        shape.index32 = n < (int64_t(1) << 31);
        // A program of a known signature reuses its kernel: only the argument block is built (the
        // source, and the compile cache's lookup by it, cost more than the launch at small sizes).
        std::vector<int64_t> sig = fused::signature(p, shape, operands);
        const void* fn = nullptr;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (generation_ != rtc::generation()) {  // the loaded kernels were dropped
                kernels_.clear();
                generation_ = rtc::generation();
            }
            auto it = kernels_.find(sig);
            if (it != kernels_.end()) {
                fn = it->second;
                rtc::count_memory_hit();
            }
        }
        fused::Kernel k = fused::generate(p, shape, operands, outputs, fn == nullptr);
        if (!fn) {
            fn = rtc::kernel(k.source, fused::Kernel::kName, index_, rtc::fused_headers());
            std::lock_guard<std::mutex> lock(mutex_);
            kernels_.emplace(std::move(sig), fn);
        }
        // reductions: a group of row_threads threads per row; vec4: a thread per 4 elements
        const int64_t units = row > 0      ? n / row * shape.row_threads
                              : shape.vec4 ? std::max<int64_t>(1, n / 4)
                                           : n;
        const int64_t blocks =
            std::min<int64_t>((units + kBlockThreads - 1) / kBlockThreads, int64_t(1) << 30);
        void* params[] = {k.args.data()};
        BURN_CUDA_CHECK(cudaLaunchKernel(fn, dim3(static_cast<unsigned>(blocks)), dim3(kBlockThreads), params,
                                         0, ctx().stream));
    }

    int index_;
    mutable std::mutex mutex_;
    mutable std::map<std::vector<int64_t>, const void*> kernels_;  // by signature
    mutable int64_t generation_ = 0;
};

}  // namespace

lazy::FusionTarget* fusion_target(const Device& device) {
    static std::mutex m;
    static auto* targets = new std::vector<std::unique_ptr<CudaTarget>>(64);  // for the process
    std::lock_guard<std::mutex> lock(m);
    auto& t = (*targets)[static_cast<std::size_t>(device.index())];
    if (!t) t = std::make_unique<CudaTarget>(device.index());
    return t.get();
}

}  // namespace burn::cuda
