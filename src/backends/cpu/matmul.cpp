// CPU matmul kernels. The frontend has broadcast the batch dims (stride-0 views) and checked shapes.
// f32/f64 go to OpenBLAS when available: transposed views are passed with the transpose flag and
// strided batches by offset, so contiguous, transposed and broadcast inputs are never copied. Every
// other dtype (and f32/f64 without OpenBLAS) uses the built-in blocked kernel of gemm.cpp, which packs
// any strided layout itself, but bf16, which goes to oneDNN first on CPUs with AVX512-BF16 or AMX
// (dnnl_matmul.hpp). matmul_widen (bf16 operands, f32 product) takes the same oneDNN path.
#include <algorithm>
#include <atomic>
#include <climits>
#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/dnnl_matmul.hpp"
#include "backends/cpu/gemm.hpp"
#include "backends/cpu/kernels.hpp"
#include "platform/parallel.hpp"

#ifdef BURN_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace burn::cpu {

namespace {

/// Below this many multiply-adds per matrix, many batches run in parallel (one matrix per task).
constexpr int64_t kSmallBatchMacs = 64 * 64 * 64;

template <class T>
void matmul_fallback(const CpuTensor& a, const CpuTensor& b, CpuTensor& out, int64_t m, int64_t n, int64_t k,
                     int64_t batches) {
    const int r = a.shape.rank();
    const auto ao = matrix_batch_offsets(a, batches), bo = matrix_batch_offsets(b, batches);
    const T* ab = reinterpret_cast<const T*>(a.storage->data);
    const T* bb = reinterpret_cast<const T*>(b.storage->data);
    T* ob = out.data<T>();
    auto one = [&](int64_t bi) {
        const auto i = static_cast<std::size_t>(bi);
        gemm_fallback<T>(m, n, k, ab + ao[i], a.strides[r - 2], a.strides[r - 1], bb + bo[i],
                         b.strides[r - 2], b.strides[r - 1], ob + bi * m * n, n);
    };
    // One matrix per task when the batches share the threads evenly (or the matrices are small):
    // no synchronisation inside a product. Otherwise one product at a time on all threads.
    const int64_t threads = platform::threads();
    if (batches > 1 && (m * n * k <= kSmallBatchMacs || batches % threads == 0 || batches >= 4 * threads)) {
        const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, m * n * k));
        platform::parallel_for(batches, grain, [&](int64_t b0, int64_t b1) {
            for (int64_t bi = b0; bi < b1; ++bi) one(bi);  // nested: each gemm runs serially
        });
    } else {
        for (int64_t bi = 0; bi < batches; ++bi) one(bi);
    }
}

std::atomic<int> g_blas_use{static_cast<int>(BlasUse::automatic)};

#ifdef BURN_HAVE_OPENBLAS
/// Keeps OpenBLAS's thread count equal to burn's (burn::set_num_threads).
void sync_blas_threads() {
    static std::atomic<int> current{-1};
    const int want = platform::threads();
    if (current.load(std::memory_order_relaxed) != want) {
        openblas_set_num_threads(want);
        current.store(want, std::memory_order_relaxed);
    }
}

/// The instruction-set level of an OpenBLAS kernel name (x86 only; other names count as generic).
GemmIsa blas_level(const char* core) {
    const std::string c = core ? core : "";
    if (c == "SkylakeX" || c == "Cooperlake" || c == "SapphireRapids") return GemmIsa::avx512;
    if (c == "Haswell" || c == "Zen") return GemmIsa::avx2;
    return GemmIsa::generic;
}

bool blas_wanted(int64_t m, int64_t n, int64_t k, int64_t batches) {
    const auto use = static_cast<BlasUse>(g_blas_use.load(std::memory_order_relaxed));
    if (use != BlasUse::automatic) return use == BlasUse::always;
    if (!blas_preferred()) return false;
    return batches == 1 || m * n * k > kSmallBatchMacs || platform::threads() == 1;
}

/// How BLAS can read a rows x cols matrix with strides (rs, cs): row-major (lda = rs) or a transposed
/// row-major matrix (lda = cs). False for other layouts (broadcast rows, negative strides, gaps).
bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool& trans, int64_t& ld) {
    if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1))) {
        trans = false;
        ld = rows == 1 ? std::max<int64_t>(cols, 1) : rs;
    } else if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1))) {
        trans = true;
        ld = cols == 1 ? std::max<int64_t>(rows, 1) : cs;
    } else {
        return false;
    }
    return ld <= INT_MAX;
}

void blas_gemm(bool ta, bool tb, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
               float* c, int ldc) {
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f,
                a, lda, b, ldb, 0.0f, c, ldc);
}
void blas_gemm(bool ta, bool tb, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
               double* c, int ldc) {
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0,
                a, lda, b, ldb, 0.0, c, ldc);
}

/// f32/f64 through OpenBLAS; false when a dim does not fit BLAS's int (the caller falls back).
template <class T>
bool matmul_blas(TensorRef ar, TensorRef br, CpuTensor& out, int64_t m, int64_t n, int64_t k,
                 int64_t batches) {
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX) return false;
    const int r = out.shape.rank();
    bool ta = false, tb = false;
    int64_t lda = 0, ldb = 0;
    // Layouts BLAS cannot read (negative strides, broadcast rows) are copied to contiguous first.
    if (!blas_layout(m, k, as_cpu(ar).strides[r - 2], as_cpu(ar).strides[r - 1], ta, lda)) {
        ar = contiguous_copy(ar);
        blas_layout(m, k, as_cpu(ar).strides[r - 2], as_cpu(ar).strides[r - 1], ta, lda);
    }
    if (!blas_layout(k, n, as_cpu(br).strides[r - 2], as_cpu(br).strides[r - 1], tb, ldb)) {
        br = contiguous_copy(br);
        blas_layout(k, n, as_cpu(br).strides[r - 2], as_cpu(br).strides[r - 1], tb, ldb);
    }
    const CpuTensor& a = as_cpu(ar);
    const CpuTensor& b = as_cpu(br);
    sync_blas_threads();
    const T* ab = reinterpret_cast<const T*>(a.storage->data);
    const T* bb = reinterpret_cast<const T*>(b.storage->data);
    T* ob = out.data<T>();
    if (batches == 1) {
        blas_gemm(ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), ab + a.offset,
                  static_cast<int>(lda), bb + b.offset, static_cast<int>(ldb), ob, static_cast<int>(n));
        return true;
    }
    const auto ao = matrix_batch_offsets(a, batches), bo = matrix_batch_offsets(b, batches);
    for (int64_t bi = 0; bi < batches; ++bi) {
        const auto i = static_cast<std::size_t>(bi);
        blas_gemm(ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), ab + ao[i],
                  static_cast<int>(lda), bb + bo[i], static_cast<int>(ldb), ob + bi * m * n,
                  static_cast<int>(n));
    }
    return true;
}
#endif

TensorRefs matmul_kernel(const OpCall& call, TensorRefs& in) {
    const int r = call.shape.rank();
    auto out = alloc(call.shape, call.dtype, in[0]->device);
    const int64_t m = call.shape[r - 2], n = call.shape[r - 1], k = in[0]->shape[r - 1];
    if (call.shape.numel() == 0) return {out};
    const int64_t batches = call.shape.numel() / (m * n);
    dispatch_kinds<OpKinds::numeric>(call.dtype, "matmul", [&](auto tag) {
        using T = decltype(tag);
        if (k == 0) {
            T* o = out->data<T>();
            std::fill(o, o + call.shape.numel(), T{});
            return;
        }
        if constexpr (std::is_same_v<T, bf16>) {
            if (dnnl_bf16_matmul(as_cpu(in[0]), as_cpu(in[1]), *out, m, n, k, batches)) return;
        }
#ifdef BURN_HAVE_OPENBLAS
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
            if (blas_wanted(m, n, k, batches) && matmul_blas<T>(in[0], in[1], *out, m, n, k, batches)) return;
        }
#endif
        matmul_fallback<T>(as_cpu(in[0]), as_cpu(in[1]), *out, m, n, k, batches);
    });
    return {out};
}

/// matmul_widen: the product of the low operands with the float32 accumulator stored as is, as CUDA's
/// kernel does: bf16 through oneDNN where it runs; otherwise the operands widened (exactly) to the
/// output dtype and multiplied there (the f32 GEMM: BLAS where present), never rounded through the
/// operands' dtype.
TensorRefs matmul_widen_kernel(const OpCall& call, TensorRefs& in) {
    const DType ab = in[0]->dtype;
    const int r = call.shape.rank();
    if (ab == DType::bf16 && call.dtype == DType::f32 && call.shape.numel() > 0) {
        auto out = alloc(call.shape, call.dtype, in[0]->device);
        const int64_t m = call.shape[r - 2], n = call.shape[r - 1], k = in[0]->shape[r - 1];
        if (dnnl_bf16_matmul(as_cpu(in[0]), as_cpu(in[1]), *out, m, n, k, call.shape.numel() / (m * n)))
            return {out};
    }
    if (ab != call.dtype)
        for (std::size_t i = 0; i < 2; ++i) {
            const OpCall widen{OpId::cast, call.dtype, in[i]->shape, {}, {0, 0}};
            in[i] = CpuBackend::instance().execute(widen, {in[i]})[0];
        }
    OpCall product = call;
    product.op = OpId::matmul;
    return matmul_kernel(product, in);
}

/// linear: x [m, k] times the weight [n, k] read through a transposed view (no copy) by matmul_widen's
/// kernel, then the bias added to each row in place (the product's buffer is this call's own): what the
/// row's decomposition computes, as one op.
TensorRefs linear_kernel(const OpCall& call, TensorRefs& in) {
    const CpuTensor& w = as_cpu(in[1]);
    const int64_t m = call.shape[0], n = call.shape[1];
    OpCall product = call;
    product.op = OpId::matmul_widen;
    TensorRefs mm{
        in[0], Strided::view_of(w, Dims{w.shape[1], w.shape[0]}, Dims{w.strides[1], w.strides[0]}, w.offset)};
    TensorRefs y = matmul_widen_kernel(product, mm);
    if (in.size() < 3 || m == 0 || n == 0) return y;
    auto& out = const_cast<CpuTensor&>(as_cpu(y[0]));
    const CpuTensor& b = as_cpu(in[2]);
    dispatch_kinds<OpKinds::float_only>(call.dtype, "linear", [&](auto tag) {
        using T = decltype(tag);
        const T* bias = b.data<T>();
        const int64_t bs = b.strides[0];
        T* o = out.data<T>();
        platform::parallel_for(
            m, std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1)), [&](int64_t r0, int64_t r1) {
                for (int64_t r = r0; r < r1; ++r)
                    for (int64_t j = 0; j < n; ++j) {
                        using C = compute_t<T>;
                        o[r * n + j] = T(static_cast<C>(o[r * n + j]) + static_cast<C>(bias[j * bs]));
                    }
            });
    });
    return y;
}

}  // namespace

std::vector<int64_t> matrix_batch_offsets(const CpuTensor& t, int64_t batches) {
    std::vector<int64_t> off(static_cast<std::size_t>(batches));
    const int nb = t.shape.rank() - 2;
    for (int64_t bi = 0; bi < batches; ++bi) {
        int64_t rem = bi, o = t.offset;
        for (int d = nb - 1; d >= 0; --d) {
            o += (rem % t.shape[d]) * t.strides[d];
            rem /= t.shape[d];
        }
        off[static_cast<std::size_t>(bi)] = o;
    }
    return off;
}

void set_blas_use(BlasUse use) {
    g_blas_use.store(static_cast<int>(use), std::memory_order_relaxed);
}

bool blas_preferred() {
#ifdef BURN_HAVE_OPENBLAS
    static const bool preferred =
        static_cast<int>(blas_level(openblas_get_corename())) >= static_cast<int>(gemm_cpu_isa());
    return preferred;
#else
    return false;
#endif
}

const char* blas_core_name() {
#ifdef BURN_HAVE_OPENBLAS
    return openblas_get_corename();
#else
    return "";
#endif
}

int blas_num_threads() {
#ifdef BURN_HAVE_OPENBLAS
    return openblas_get_num_threads();
#else
    return 0;
#endif
}

void register_matmul(KernelTable& t) {
    t[idx(OpId::matmul)] = &matmul_kernel;
    t[idx(OpId::matmul_widen)] = &matmul_widen_kernel;
    t[idx(OpId::linear)] = &linear_kernel;
}

}  // namespace burn::cpu
