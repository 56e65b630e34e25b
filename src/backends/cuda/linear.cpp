// linear (y = x w^T + bias, the row nn::Linear runs) as one cuBLASLt GEMM whose epilogue adds the bias:
// no second pass over the output. Row-major Y [m, n] = X [m, k] W [n, k]^T is, column-major,
// Y^T [n, m] = op_T(W) X^T: W goes in as A transposed, X as B, both without copies when their rows
// are dense. f16/bf16 operands accumulate in float32 and write float32 (autocast's widened linear) or
// their own dtype; f32 uses TF32 only when allowed (allow_tf32), as matmul does. Measured on the H100
// for GPT-2's shapes: the epilogue costs 0.7-1.6 us against 26-93 us for a separate bias add
// (docs/mixed_precision.md). A plan (descriptors and the heuristic's algorithm) is cached per shape.
// BURN_CUDA_LINEAR=0 turns the kernel off (the row then runs its decomposition: matmul, then the add).
#include <cublasLt.h>

#include <climits>
#include <map>
#include <mutex>
#include <tuple>

#include "backends/cuda/cuda_internal.hpp"
#include "platform/env.hpp"

namespace burn::cuda {

namespace {

void check_lt(cublasStatus_t st, const char* what) {
    if (st == CUBLAS_STATUS_SUCCESS) return;
    BURN_THROW_KIND(device, "[", ctx().op, "] cuBLASLt error ", cublasGetStatusName(st), " (",
                    cublasGetStatusString(st), ") in ", what);
}

cudaDataType_t cuda_type(DType d) {
    return d == DType::f32 ? CUDA_R_32F : d == DType::f16 ? CUDA_R_16F : CUDA_R_16BF;
}

constexpr std::size_t kWorkspace = 32u << 20;  // cuBLASLt's recommendation for Hopper

struct Plan {
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo{};
};

// (device, m, n, k, ldw, ldx, operand dtype, output dtype, bias?, tf32?, W's alignment, X's alignment)
using PlanKey = std::tuple<int, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, bool, bool, int, int>;

/// The alignment of p in bytes, up to 256 (cuBLASLt's heuristic assumes 256 unless told otherwise).
int alignment(const void* p) {
    const auto a = reinterpret_cast<uintptr_t>(p);
    int b = 1;
    while (b < 256 && a % static_cast<uintptr_t>(b * 2) == 0) b *= 2;
    return b;
}

/// The per-process cuBLASLt state: one handle per device, the plans, the workspaces.
struct LtState {
    std::mutex mutex;
    std::map<int, cublasLtHandle_t> handles;
    std::map<PlanKey, Plan> plans;
};
LtState& lt_state() {
    static LtState* s = new LtState();  // never destroyed: kernels may run during static destruction
    return *s;
}

/// The plan for key, made (and its algorithm chosen by cuBLASLt's heuristic) on first use; null when
/// cuBLASLt has no algorithm for it.
const Plan* plan_for(const PlanKey& key, cublasLtHandle_t h) {
    LtState& s = lt_state();
    auto it = s.plans.find(key);
    if (it != s.plans.end()) return it->second.desc ? &it->second : nullptr;
    const auto [device, m, n, k, ldw, ldx, ab_i, out_i, has_bias, tf32, align_w, align_x] = key;
    (void)device;
    const auto ab = static_cast<DType>(ab_i), out = static_cast<DType>(out_i);
    Plan p;
    const cublasComputeType_t ct =
        ab == DType::f32 && tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    check_lt(cublasLtMatmulDescCreate(&p.desc, ct, CUDA_R_32F), "cublasLtMatmulDescCreate");
    const cublasOperation_t t = CUBLAS_OP_T, nn = CUBLAS_OP_N;
    check_lt(cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)), "TRANSA");
    check_lt(cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &nn, sizeof(nn)), "TRANSB");
    const cublasLtEpilogue_t ep = has_bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
    check_lt(cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &ep, sizeof(ep)),
             "EPILOGUE");
    if (has_bias) {
        const cudaDataType_t bt = cuda_type(out);
        check_lt(cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof(bt)),
                 "BIAS_DATA_TYPE");
    }
    // Column-major: A = W as [k, n] (ld ldw), B = X as [k, m] (ld ldx), C = Y^T as [n, m] (ld n).
    check_lt(cublasLtMatrixLayoutCreate(&p.a, cuda_type(ab), static_cast<uint64_t>(k),
                                        static_cast<uint64_t>(n), ldw),
             "layout A");
    check_lt(cublasLtMatrixLayoutCreate(&p.b, cuda_type(ab), static_cast<uint64_t>(k),
                                        static_cast<uint64_t>(m), ldx),
             "layout B");
    check_lt(cublasLtMatrixLayoutCreate(&p.c, cuda_type(out), static_cast<uint64_t>(n),
                                        static_cast<uint64_t>(m), n),
             "layout C");
    cublasLtMatmulPreference_t pref = nullptr;
    check_lt(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    const std::size_t ws = kWorkspace;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
    // Views into a larger buffer may start anywhere: an algorithm that assumes more alignment would fail.
    const uint32_t aw = static_cast<uint32_t>(align_w), ax = static_cast<uint32_t>(align_x);
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &aw, sizeof(aw));
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &ax, sizeof(ax));
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    const cublasStatus_t st =
        cublasLtMatmulAlgoGetHeuristic(h, p.desc, p.a, p.b, p.c, p.c, pref, 1, &result, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
        cublasLtMatrixLayoutDestroy(p.a);
        cublasLtMatrixLayoutDestroy(p.b);
        cublasLtMatrixLayoutDestroy(p.c);
        cublasLtMatmulDescDestroy(p.desc);
        s.plans.emplace(key, Plan{});  // remembered: the decomposition runs instead
        return nullptr;
    }
    p.algo = result.algo;
    return &s.plans.emplace(key, p).first->second;
}

cublasLtHandle_t handle_for(int device) {
    LtState& s = lt_state();
    auto it = s.handles.find(device);
    if (it != s.handles.end()) return it->second;
    cublasLtHandle_t h = nullptr;
    check_lt(cublasLtCreate(&h), "cublasLtCreate");
    s.handles.emplace(device, h);
    return h;
}

/// The plan of key on its device (the heuristic asks the current device: supports() runs outside the
/// backend's device scope), with the state's lock held by the caller.
const Plan* plan_on_device(const PlanKey& key) {
    const int device = std::get<0>(key);
    int cur = -1;
    cudaGetDevice(&cur);
    if (cur != device) BURN_CUDA_CHECK(cudaSetDevice(device));
    struct Restore {
        int cur, device;
        ~Restore() {
            if (cur >= 0 && cur != device) cudaSetDevice(cur);
        }
    } restore{cur, device};
    return plan_for(key, handle_for(device));
}

/// The leading dim of a row-major [rows, cols] operand with dense rows, or 0 when it has none.
int64_t row_ld(const CudaTensor& t) {
    const int64_t rows = t.shape[0], cols = t.shape[1];
    const int64_t cs = cols == 1 ? 1 : t.strides[1],
                  rs = rows == 1 ? std::max<int64_t>(cols, 1) : t.strides[0];
    return cs == 1 && rs >= std::max<int64_t>(cols, 1) ? rs : 0;
}

TensorRefs linear_kernel(const OpCall& call, TensorRefs& in) {
    const int64_t m = call.shape[0], n = call.shape[1], k = in[0]->shape[1];
    const DType ab = in[0]->dtype, out = call.dtype;
    for (int i = 0; i < 2; ++i)
        if (row_ld(as_cuda(in[i])) == 0) in[i] = contiguous_copy(in[i]);
    const CudaTensor &x = as_cuda(in[0]), &w = as_cuda(in[1]);
    const bool has_bias = in.size() == 3;
    TensorRef bias;
    if (has_bias) {
        bias = contiguous(in[2]);
        if (alignment(as_cuda(bias).raw()) < 16) bias = contiguous_copy(bias);  // a fresh, aligned block
    }
    auto y = alloc(call.shape, out);
    const PlanKey key{ctx().device,
                      m,
                      n,
                      k,
                      row_ld(w),
                      row_ld(x),
                      static_cast<int>(ab),
                      static_cast<int>(out),
                      has_bias,
                      allow_tf32(),
                      alignment(w.raw()),
                      alignment(x.raw())};
    std::lock_guard<std::mutex> lock(lt_state().mutex);
    const Plan* p = plan_on_device(key);
    cublasLtHandle_t h = handle_for(ctx().device);
    BURN_CHECK(p != nullptr,
               "[linear] internal: cuBLASLt has no algorithm for this call; linear_ok asks first");
    if (has_bias) {
        const void* bp = as_cuda(bias).raw();
        check_lt(cublasLtMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof(bp)),
                 "BIAS_POINTER");
    }
    auto ws = scratch(kWorkspace);
    const float alpha = 1.0f, beta = 0.0f;
    check_lt(cublasLtMatmul(h, p->desc, &alpha, w.raw(), p->a, x.raw(), p->b, &beta, y->raw(), p->c, y->raw(),
                            p->c, &p->algo, ws->data, kWorkspace, ctx().stream),
             "cublasLtMatmul");
    return {y};
}

/// Float operands of sizes cuBLASLt takes, into their own dtype or f16/bf16 into f32, and an algorithm
/// for the shape; anything else (empty or huge shapes, f64) runs the decomposition.
bool linear_ok(const OpCall& call, const TensorRefs& in) {
    static const bool enabled = platform::env_var("BURN_CUDA_LINEAR").value_or("1") != "0";
    if (!enabled) return false;
    const DType ab = in[0]->dtype, out = call.dtype;
    const bool types = ab == out ? (ab == DType::f32 || ab == DType::f16 || ab == DType::bf16)
                                 : (out == DType::f32 && (ab == DType::f16 || ab == DType::bf16));
    const int64_t m = call.shape[0], n = call.shape[1], k = in[0]->shape[1];
    if (!types || m == 0 || n == 0 || k == 0 || m > INT_MAX || n > INT_MAX || k > INT_MAX) return false;
    const CudaTensor &x = as_cuda(in[0]), &w = as_cuda(in[1]);
    // What linear_kernel will pass: operands without dense rows are copied (to fresh, aligned blocks).
    const int64_t ldx = row_ld(x) ? row_ld(x) : k, ldw = row_ld(w) ? row_ld(w) : k;
    const int ax = row_ld(x) ? alignment(x.raw()) : 256, aw = row_ld(w) ? alignment(w.raw()) : 256;
    const PlanKey key{
        x.storage->device, m,  n, k, ldw, ldx, static_cast<int>(ab), static_cast<int>(out), in.size() == 3,
        allow_tf32(),      aw, ax};
    std::lock_guard<std::mutex> lock(lt_state().mutex);
    return plan_on_device(key) != nullptr;
}

}  // namespace

void register_linear(KernelTable& t) {
    t[idx(OpId::linear)] = {&linear_kernel, &linear_ok};
}

}  // namespace burn::cuda
