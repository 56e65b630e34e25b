// The CUDA backend: one instance per device, one stream per device. Ops are queued on the stream and
// run asynchronously; the host waits only in to_host and sync. View ops edit strides like the CPU's.
#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cuda/cuda_internal.hpp"
#include "backends/cuda/error_slots.hpp"
#include "backends/cuda/nvml.hpp"
#include "burn/backend/registry.hpp"
#include "platform/env.hpp"

namespace burn::cuda {

namespace {

struct Discovery {
    int count = 0;
    std::string reason;
};
const Discovery& discovery() {
    static const Discovery d = [] {
        Discovery r;
        cudaError_t err = cudaGetDeviceCount(&r.count);
        if (err != cudaSuccess) {
            r.count = 0;
            r.reason = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
            cudaGetLastError();
        } else if (r.count == 0) {
            r.reason = "no CUDA device found";
        }
        return r;
    }();
    return d;
}

bool env_on(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::string(v) != "0";
}
bool g_profile = env_on("BURN_CUDA_PROFILE");
/// BURN_CUDA_PROFILE=2: rows per op, dtypes and shapes ("cast f32[8192,768]->bf16").
bool g_profile_shapes = [] {
    const char* v = std::getenv("BURN_CUDA_PROFILE");
    return v && std::string(v) == "2";
}();

/// The row name of a call in BURN_CUDA_PROFILE=2's table.
std::string profile_key(const OpCall& call, const TensorRefs& inputs, const TensorRefs& outputs) {
    std::string key(op_name(call.op));
    auto shape = [](const TensorRef& t) {
        std::string s = std::string(burn::name(t->dtype)) + "[";
        for (int i = 0; i < t->shape.rank(); ++i) s += (i ? "," : "") + std::to_string(t->shape[i]);
        return s + "]";
    };
    for (std::size_t i = 0; i < inputs.size() && i < 2; ++i)
        if (inputs[i]) key += " " + shape(inputs[i]);
    if (!outputs.empty() && outputs[0]) key += " -> " + shape(outputs[0]);
    return key;
}

/// BURN_CUDA_PROFILE=1: device time per op (events around each execute), printed at exit.
struct Profile {
    struct Pending {
        std::string key;
        cudaEvent_t start, end;
    };
    std::mutex mutex;
    std::vector<Pending> pending;
    std::map<std::string, std::pair<int64_t, double>> totals;  // op -> (calls, ms)
    void drain() {
        for (auto& p : pending) {
            float ms = 0;
            if (cudaEventSynchronize(p.end) == cudaSuccess &&
                cudaEventElapsedTime(&ms, p.start, p.end) == cudaSuccess) {
                auto& t = totals[p.key];
                t.first++;
                t.second += ms;
            }
            cudaEventDestroy(p.start);
            cudaEventDestroy(p.end);
        }
        pending.clear();
    }
    ~Profile() {
        drain();
        std::vector<std::pair<double, std::string>> rows;
        double all = 0;
        for (auto& [op, t] : totals) {
            rows.push_back({t.second, op});
            all += t.second;
        }
        std::sort(rows.rbegin(), rows.rend());
        std::fprintf(stderr, "burn cuda profile: %.3f ms of device time in ops\n", all);
        for (auto& [ms, op] : rows)
            std::fprintf(stderr, "  %-60s %8lld calls %10.3f ms %5.1f%%\n", op.c_str(),
                         static_cast<long long>(totals[op].first), ms, all > 0 ? 100 * ms / all : 0.0);
    }
};
Profile& profile() {
    static Profile p;  // destroyed at exit: prints the table
    return p;
}
/// BURN_CUDA_MEMSTATS=1: the caching allocator's statistics of each device used, printed at exit.
struct MemStatsAtExit {
    std::mutex mutex;
    std::vector<int> devices;
    ~MemStatsAtExit() {
        for (int d : devices) {
            const MemoryStats m = memory_stats(d);
            std::fprintf(stderr,
                         "burn cuda memory cuda:%d: peak %.3f GiB, allocated %.3f GiB, reserved %.3f GiB, "
                         "%lld cudaMalloc calls, %lld cache hits, %lld out-of-memory retries\n",
                         d, double(m.peak) / (1 << 30), double(m.allocated) / (1 << 30),
                         double(m.reserved) / (1 << 30), static_cast<long long>(m.device_mallocs),
                         static_cast<long long>(m.cache_hits), static_cast<long long>(m.oom_retries));
        }
    }
};
void note_memstats(int device) {
    static const bool on = env_on("BURN_CUDA_MEMSTATS");
    if (!on) return;
    static MemStatsAtExit m;
    std::lock_guard<std::mutex> lock(m.mutex);
    m.devices.push_back(device);
}
bool g_tf32 = env_on("BURN_CUDA_TF32");
thread_local Context t_ctx;

class CudaBackend final : public Backend {
  public:
    explicit CudaBackend(int index) : index_(index), device_(Device::cuda(index)) {
        BURN_CUDA_CHECK(cudaSetDevice(index));
        note_memstats(index);
        BURN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        cublasStatus_t st = cublasCreate(&blas_);
        BURN_CHECK_KIND(st == CUBLAS_STATUS_SUCCESS, device, "[cuda] cublasCreate failed on cuda:", index,
                        " (", cublasGetStatusName(st), ")");
        cublasSetStream(blas_, stream_);
        errors_ = std::make_unique<ErrorSlots>(stream_);
        void* pinned = nullptr;
        if (cudaMallocHost(&pinned, kSlots * kSlotBytes) == cudaSuccess) {
            staging_ = static_cast<uint8_t*>(pinned);
            for (auto& e : slot_done_) {
                BURN_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
                BURN_CUDA_CHECK(cudaEventRecord(e, stream_));
            }
        } else {
            cudaGetLastError();  // no pinned memory: every upload takes the pageable path
        }
        name_ = "cuda";
        register_views(table_);
        register_elementwise(table_);
        register_layout(table_);
        register_index(table_);
        register_reduce(table_);
        register_softmax(table_);
        register_matmul(table_);
        register_linear(table_);
        register_nn(table_);
        register_pool(table_);
        register_interpolate(table_);
        register_sort(table_);
        register_norm(table_);
        register_attention(table_);
        register_optim_multi(table_);
        register_fft(table_);
    }
    std::string_view name() const override { return name_; }

    TensorRef from_host(const TensorData& data, const Device&) override {
        Scope s(this, "from_host");
        auto t = alloc(data.shape(), data.dtype());
        const std::size_t n = data.bytes().size();
        if (n == 0) return t;
        if (n <= kSlotBytes && staging_) {
            // Small uploads (optimizer hyper-parameters, labels) go through pinned slots: truly
            // asynchronous, where a pageable copy may wait for the stream.
            std::lock_guard<std::mutex> lock(staging_mutex_);  // data-loader threads upload too
            const int k = next_slot_;
            next_slot_ = (next_slot_ + 1) % kSlots;
            BURN_CUDA_CHECK(cudaEventSynchronize(slot_done_[k]));  // the slot's last copy has finished
            uint8_t* slot = staging_ + static_cast<std::size_t>(k) * kSlotBytes;
            std::memcpy(slot, data.bytes().data(), n);
            BURN_CUDA_CHECK(cudaMemcpyAsync(t->raw(), slot, n, cudaMemcpyHostToDevice, stream_));
            BURN_CUDA_CHECK(cudaEventRecord(slot_done_[k], stream_));
            return t;
        }
        BURN_CUDA_CHECK(cudaMemcpyAsync(t->raw(), data.bytes().data(), n, cudaMemcpyHostToDevice, stream_));
        return t;
    }

    TensorData to_host(const TensorRef& tensor) override {
        Scope s(this, "to_host");
        TensorRef t = contiguous(tensor);
        const auto& c = as_cuda(t);
        std::size_t n = static_cast<std::size_t>(c.shape.numel()) * size_of(c.dtype);
        std::vector<uint8_t> bytes(n);
        if (n) BURN_CUDA_CHECK(cudaMemcpyAsync(bytes.data(), c.raw(), n, cudaMemcpyDeviceToHost, stream_));
        errors_->synchronize();  // raises an index error a kernel recorded since the last read
        return TensorData(std::move(bytes), c.shape, c.dtype);
    }

    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        const KernelEntry& k = table_[idx(call.op)];
        return k.run && (!k.ok || k.ok(call, inputs));
    }

    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        Scope s(this, op_name(call.op).data());
        const KernelEntry& k = table_[idx(call.op)];
        if (k.run && (!k.ok || k.ok(call, inputs))) {
            if (!g_profile) return k.run(call, inputs);
            Profile& p = profile();
            cudaEvent_t a, b;
            cudaEventCreate(&a);
            cudaEventCreate(&b);
            cudaEventRecord(a, stream_);
            const TensorRefs in = g_profile_shapes ? inputs : TensorRefs{};  // k.run may consume inputs
            TensorRefs out = k.run(call, inputs);
            cudaEventRecord(b, stream_);
            std::string key = g_profile_shapes ? profile_key(call, in, out) : std::string(op_name(call.op));
            std::lock_guard<std::mutex> lock(p.mutex);
            p.pending.push_back({std::move(key), a, b});
            if (p.pending.size() > 4096) p.drain();
            return out;
        }
        BURN_THROW_KIND(device, "[", call.op, "] not supported by the cuda backend for dtype ", call.dtype,
                        " (a device decorated with host_fallback runs such ops on the CPU)");
    }

    void sync() override {
        Scope s(this, "sync");
        errors_->synchronize();
    }

    void memory_cleanup(const Device&) override {
        Scope s(this, "memory_cleanup");
        errors_->synchronize();
        empty_cache(index_);
    }

    DeviceStats stats(const Device&) override {
        const MemoryStats m = memory_stats(index_);
        DeviceStats st;
        st.allocated_bytes = static_cast<int64_t>(m.allocated);
        st.reserved_bytes = static_cast<int64_t>(m.reserved);
        st.peak_bytes = static_cast<int64_t>(m.peak);
        int cur = -1;
        cudaGetDevice(&cur);
        std::size_t free_bytes = 0, total_bytes = 0;
        if (cudaSetDevice(index_) == cudaSuccess && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
            st.total_bytes = static_cast<int64_t>(total_bytes);
        else
            cudaGetLastError();
        if (cur >= 0 && cur != index_) cudaSetDevice(cur);
        st.utilization = gpu_utilization(index_);
        return st;
    }

    ~CudaBackend() override = default;

    void in_context(const char* op, const std::function<void()>& f) {
        Scope s(this, op);
        f();
    }

  private:
    struct Scope {
        Scope(CudaBackend* b, const char* op) : saved(t_ctx) {
            int cur = -1;
            cudaGetDevice(&cur);
            if (cur != b->index_) BURN_CUDA_CHECK(cudaSetDevice(b->index_));
            t_ctx = Context{b->index_, b->stream_, b->blas_, op, b->errors_.get()};
        }
        ~Scope() { t_ctx = saved; }
        Context saved;
    };

    static constexpr int kSlots = 64;
    static constexpr std::size_t kSlotBytes = 64 * 1024;
    uint8_t* staging_ = nullptr;  // kSlots pinned slots for small uploads
    std::array<cudaEvent_t, kSlots> slot_done_{};
    int next_slot_ = 0;
    std::mutex staging_mutex_;
    int index_;
    Device device_;
    cudaStream_t stream_ = nullptr;
    cublasHandle_t blas_ = nullptr;
    std::unique_ptr<ErrorSlots> errors_;
    std::string name_;
    KernelTable table_{};
};

}  // namespace

int device_count() {
    return discovery().count;
}
std::string unavailable_reason() {
    return discovery().reason;
}

Backend& backend(int index) {
    static std::mutex m;
    static auto* backends = new std::vector<CudaBackend*>(64, nullptr);  // live for the process
    std::lock_guard<std::mutex> lock(m);
    auto& b = (*backends)[static_cast<std::size_t>(index)];
    if (!b) b = new CudaBackend(index);
    return *b;
}

Context& ctx() {
    return t_ctx;
}

void in_context(int index, const char* op, const std::function<void()>& f) {
    static_cast<CudaBackend&>(backend(index)).in_context(op, f);
}

void set_allow_tf32(bool on) {
    g_tf32 = on;
}
bool allow_tf32() {
    return g_tf32;
}

const CudaTensor& as_cuda(const TensorRef& t) {
    return static_cast<const CudaTensor&>(*t);
}

std::shared_ptr<CudaTensor> alloc(const Dims& shape, DType dtype) {
    const Context& c = ctx();
    auto storage =
        std::make_shared<Storage>(c.device, static_cast<std::size_t>(shape.numel()) * size_of(dtype), c.op);
    return std::make_shared<CudaTensor>(shape, dtype, Device::cuda(c.device), std::move(storage),
                                        shape.contiguous_strides(), 0);
}

bool keep_layout() {
    static platform::EnvSwitch on("BURN_CUDA_KEEP_LAYOUT", true);
    return on.on();
}

Dims tensor_strides(const TensorRef& t) {
    return as_cuda(t).strides;
}

std::shared_ptr<CudaTensor> alloc_strided(const Dims& shape, DType dtype, const Dims& strides) {
    const Context& c = ctx();
    auto storage =
        std::make_shared<Storage>(c.device, static_cast<std::size_t>(shape.numel()) * size_of(dtype), c.op);
    return std::make_shared<CudaTensor>(shape, dtype, Device::cuda(c.device), std::move(storage), strides, 0);
}

std::shared_ptr<Storage> scratch(std::size_t bytes) {
    return std::make_shared<Storage>(ctx().device, bytes, ctx().op);
}

void throw_cuda(cudaError_t err, const char* what, const char* file, int line) {
    cudaGetLastError();
    const char* base = std::strrchr(file, '/');
    BURN_THROW_KIND(device, "[", ctx().op, "] CUDA error ", cudaGetErrorName(err), " (",
                    cudaGetErrorString(err), ") in ", what, " at ", base ? base + 1 : file, ":", line);
}

void register_views(KernelTable& t) {
    t[idx(OpId::reshape)] = {&Strided::reshape, nullptr};
    t[idx(OpId::permute)] = {&Strided::permute, nullptr};
    t[idx(OpId::expand)] = {&Strided::expand, nullptr};
    t[idx(OpId::slice)] = {&Strided::slice, nullptr};
}

}  // namespace burn::cuda

namespace burn::detail {

/// The registry's entry, listed by the file cmake/registry.cmake generates.
BackendEntry backend_entry_cuda() {
    BackendEntry e;
    e.name = "cuda";
    e.title = "CUDA";
    e.option = "BURN_CUDA";
    e.device_count = &cuda::device_count;
    e.unavailable_reason = &cuda::unavailable_reason;
    e.backend = &cuda::backend;
    e.fusion = &cuda::fusion_target;
    return e;
}

}  // namespace burn::detail
