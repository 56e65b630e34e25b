#include "backends/cpu/cpu_backend.hpp"

#include <cstdio>
#include <cstring>
#include <limits>

#include "backends/cpu/kernels.hpp"
#include "burn/backend/registry.hpp"
#include "decorators/lazy/fusion_target.hpp"
#include "platform/memory.hpp"
#include "platform/sync.hpp"

namespace burn::cpu {

namespace {
/// The op that allocation errors name: the op being executed (its name is looked up only when an error
/// needs it: execute runs on every op), kFromData, or kNone outside both.
constexpr int kNone = -1, kFromData = -2;
BURN_THREAD_LOCAL int t_op = kNone;

/// Sets the op that allocation errors name for the duration of one execute (or from_host).
struct OpScope {
    explicit OpScope(int op) : prev(t_op) { t_op = op; }
    ~OpScope() { t_op = prev; }
    int prev;
};

std::string human_bytes(uint64_t b) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(b);
    int u = 0;
    while (v >= 1024 && u < 6) v /= 1024, ++u;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f %s", u ? 3 : 0, v, units[u]);
    return buf;
}

/// The byte count of a new tensor, or a burn::Error when it cannot fit this machine's memory.
std::size_t checked_bytes(const Dims& shape, DType dtype) {
    // check_shape's test, without looking up the op's name unless it fails (then check_shape throws).
    int64_t n = 0;
    if (!shape_fits(shape, size_of(dtype), n)) n = check_shape(shape, current_op(), size_of(dtype));
    const uint64_t bytes = static_cast<uint64_t>(n) * size_of(dtype);
    static const uint64_t limit = platform::memory_limit_bytes();  // read once: alloc is hot
    BURN_CHECK(limit == 0 || bytes <= limit, "[", current_op(), "] a ", dtype, " tensor of shape ", shape,
               " needs ", bytes, " bytes (", human_bytes(bytes), ") but this machine has ", limit, " bytes (",
               human_bytes(limit), ") of memory; use smaller shapes or batches");
    // A 32-bit address space (wasm32) holds less than int64 counts allow: refuse rather than wrap.
    BURN_CHECK(bytes <= std::numeric_limits<std::size_t>::max() - 4096, "[", current_op(), "] a ", dtype,
               " tensor of shape ", shape, " needs ", bytes, " bytes (", human_bytes(bytes),
               "), more than a ", 8 * sizeof(void*),
               "-bit address space holds; use smaller shapes or batches");
    return static_cast<std::size_t>(bytes);
}
}  // namespace

const char* current_op() {
    if (t_op >= 0) return op_name(static_cast<OpId>(t_op)).data();
    return t_op == kFromData ? "from_data" : "cpu";
}

std::shared_ptr<CpuTensor> alloc(const Dims& shape, DType dtype, const Device& device) {
    auto storage = std::make_shared<Storage>(checked_bytes(shape, dtype));
    return std::make_shared<CpuTensor>(shape, dtype, device, std::move(storage), shape.contiguous_strides(),
                                       0);
}

const CpuTensor& as_cpu(const TensorRef& t) {
    return static_cast<const CpuTensor&>(*t);
}

void throw_dtype_not_built(DType d, const char* op) {
    BURN_THROW_KIND(dtype, "[", op, "] this build's cpu backend has no kernels for dtype ", d,
                    ": it was configured with -DBURN_CPU_DTYPES=", BURN_CPU_DTYPE_LIST, "; add ", d,
                    " to that list (or set it to all) and rebuild, or cast to a built dtype first");
}

CpuBackend::CpuBackend() {
    table_.fill(nullptr);
    register_creation(table_);
    register_elementwise(table_);
    register_views(table_);
    register_reduce(table_);
    register_scan(table_);
    register_sort(table_);
    register_index(table_);
    register_matmul(table_);
    register_conv(table_);
    register_conv_fused(table_);
    register_pool(table_);
    register_interpolate(table_);
    register_optim(table_);
    register_norm(table_);
    register_attention(table_);
    register_dft(table_);
}

TensorRef CpuBackend::from_host(const TensorData& data, const Device& device) {
    OpScope scope(kFromData);
    auto t = alloc(data.shape(), data.dtype(), device);
    if (!data.bytes().empty()) std::memcpy(t->storage->data, data.bytes().data(), data.bytes().size());
    return t;
}

TensorData CpuBackend::to_host(const TensorRef& tensor) {
    TensorRef t = tensor;
    if (!as_cpu(t).is_contiguous()) {
        OpCall copy{OpId::copy, t->dtype, t->shape, {}, {0, 0}};
        TensorRefs in{t};
        t = execute(copy, std::move(in))[0];
    }
    const auto& c = as_cpu(t);
    std::size_t n = static_cast<std::size_t>(c.shape.numel()) * size_of(c.dtype);
    std::vector<uint8_t> bytes(n);
    if (n) std::memcpy(bytes.data(), c.raw(), n);
    return TensorData(std::move(bytes), c.shape, c.dtype);
}

bool CpuBackend::supports(const OpCall& call, const TensorRefs&) const {
    return table_[static_cast<std::size_t>(call.op)] != nullptr;
}

namespace {
[[noreturn, gnu::noinline, gnu::cold]] void throw_no_kernel(OpId op) {
    BURN_THROW("[", op, "] the cpu backend has no kernel for this op");
}
}  // namespace

TensorRefs CpuBackend::execute(const OpCall& call, TensorRefs inputs) {
    OpScope scope(static_cast<int>(call.op));
    const Kernel k = table_[static_cast<std::size_t>(call.op)];
    if (k == nullptr) [[unlikely]]
        throw_no_kernel(call.op);
    return k(call, inputs);
}

DeviceStats CpuBackend::stats(const Device&) {
    const AllocatorStats a = allocator_stats();
    DeviceStats s;
    s.allocated_bytes = static_cast<int64_t>(a.live_bytes);
    s.reserved_bytes = static_cast<int64_t>(a.live_bytes + a.cached_bytes);
    return s;
}

void CpuBackend::memory_cleanup(const Device&) {
    empty_cache();
}

bool CpuBackend::supports_dtype(const Device&, DType dtype) const {
    return kernel_dtype_built(dtype);
}

CpuBackend& CpuBackend::instance() {
    static CpuBackend* backend = new CpuBackend();  // lives for the whole process
    return *backend;
}

}  // namespace burn::cpu

namespace burn::detail {

/// The registry's entry, listed first by the file cmake/registry.cmake generates.
BackendEntry backend_entry_cpu() {
    BackendEntry e;
    e.name = "cpu";
    e.title = "CPU";
    e.indexed = false;
    e.device_count = [] { return 1; };
    e.backend = [](int) -> Backend& { return cpu::CpuBackend::instance(); };
    e.fusion = [](const Device&) -> lazy::FusionTarget* { return &lazy::cpu_target(); };
    return e;
}

}  // namespace burn::detail
