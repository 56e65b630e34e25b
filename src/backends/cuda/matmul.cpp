// matmul through cuBLAS: row-major C = A B is column-major C^T = B^T A^T, so operands that are
// row-major or transposed views go straight in (no copies), batched with one stride per operand
// (broadcast batch dims have stride 0). f32 uses TF32 tensor cores only when allowed (allow_tf32).
#include <cublas_v2.h>

#include <climits>

#include "backends/cuda/cuda_internal.hpp"

namespace burn::cuda {

namespace {

void check_blas(cublasStatus_t st, const char* what) {
    if (st == CUBLAS_STATUS_SUCCESS) return;
    BURN_THROW_KIND(device, "[", ctx().op, "] cuBLAS error ", cublasGetStatusName(st), " (",
                    cublasGetStatusString(st), ") in ", what);
}

/// Column-major form of a row-major r x c operand: (transposed?, leading dim), or false.
bool blas_layout(int64_t r, int64_t c, int64_t rs, int64_t cs, bool& trans, int64_t& ld) {
    const int64_t rs1 = r == 1 ? std::max<int64_t>(c, 1) : rs, cs1 = c == 1 ? 1 : cs;
    if (cs1 == 1 && rs1 >= std::max<int64_t>(c, 1)) {
        trans = false;  // row-major: its column-major view is the transpose, op N on the swapped product
        ld = rs1;
        return true;
    }
    const int64_t rs2 = r == 1 ? 1 : rs, cs2 = c == 1 ? std::max<int64_t>(r, 1) : cs;
    if (rs2 == 1 && cs2 >= std::max<int64_t>(r, 1)) {
        trans = true;
        ld = cs2;
        return true;
    }
    return false;
}

/// One stride over the batch dims [0, rank - 2), or false when they do not collapse.
bool batch_stride(const CudaTensor& t, int64_t& stride) {
    const int r = t.shape.rank();
    stride = 0;
    int64_t expect = -1, prev_size = 1, prev_stride = 0;
    for (int d = r - 3; d >= 0; --d) {
        if (t.shape[d] == 1) continue;
        if (expect < 0) {
            stride = t.strides[d];
            expect = 0;
        } else if (t.strides[d] != prev_stride * prev_size) {
            return false;
        }
        prev_size = t.shape[d];
        prev_stride = t.strides[d];
    }
    return true;
}

/// matmul, and matmul_widen (call.dtype f32 over f16/bf16 operands: cuBLAS writes its float32 result).
TensorRefs matmul_kernel(const OpCall& call, TensorRefs& in) {
    const int r = call.shape.rank();
    const DType ab = in[0]->dtype;
    auto out = alloc(call.shape, call.dtype);
    const int64_t m = call.shape[r - 2], n = call.shape[r - 1], k = in[0]->shape[r - 1];
    if (call.shape.numel() == 0) return {out};
    if (k == 0) {
        BURN_CUDA_CHECK(
            cudaMemsetAsync(out->raw(), 0, call.shape.numel() * size_of(call.dtype), ctx().stream));
        return {out};
    }
    const int64_t batches = call.shape.numel() / (m * n);
    TensorRef ta = in[0], tb = in[1];
    MatRef ops[2];
    for (int i = 0; i < 2; ++i) {
        TensorRef& t = i == 0 ? ta : tb;
        const int64_t rows = i == 0 ? m : k, cols = i == 0 ? k : n;
        for (int attempt = 0; attempt < 2; ++attempt) {
            const CudaTensor& x = as_cuda(t);
            bool trans;
            int64_t ld, bs;
            if (blas_layout(rows, cols, x.strides[r - 2], x.strides[r - 1], trans, ld) &&
                batch_stride(x, bs)) {
                ops[i] = MatRef{x.raw(), x.strides[r - 2], x.strides[r - 1], bs};
                break;
            }
            t = contiguous_copy(t);
        }
    }
    gemm(ab, m, n, k, ops[0], ops[1], out->raw(), n, m * n, batches, 1.0, 0.0, call.dtype);
    return {out};
}

bool matmul_ok(const OpCall& call, const TensorRefs&) {
    return call.dtype != DType::boolean;
}

/// matmul_widen's kernel: f16/bf16 operands into f32 (or the operands' own dtype: a plain matmul).
bool matmul_widen_ok(const OpCall& call, const TensorRefs& in) {
    const DType ab = in[0]->dtype;
    return call.dtype == ab || (call.dtype == DType::f32 && (ab == DType::f16 || ab == DType::bf16));
}

/// Integer matmul: cuBLAS has no integer gemm of these types, so ints multiply in f64 (exact while
/// every partial sum stays below 2^53 in magnitude) and convert back.
TensorRefs int_matmul_kernel(const OpCall& call, TensorRefs& in) {
    if (is_float(call.dtype)) return matmul_kernel(call, in);
    TensorRefs wide{cast_to(in[0], DType::f64), cast_to(in[1], DType::f64)};
    OpCall c = call;
    c.dtype = DType::f64;
    return {cast_to(matmul_kernel(c, wide)[0], call.dtype)};
}

}  // namespace

void gemm(DType dtype, int64_t m, int64_t n, int64_t k, const MatRef& a, const MatRef& b, void* c,
          int64_t ldc, int64_t c_batch_stride, int64_t batches, double alpha, double beta,
          std::optional<DType> c_dtype) {
    BURN_CHECK(m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && batches <= INT_MAX, "[", ctx().op,
               "] matrix too large for cuBLAS (", m, " x ", k, " x ", n, ")");
    bool ta, tb;
    int64_t lda, ldb;
    bool ok_a = blas_layout(m, k, a.rs, a.cs, ta, lda), ok_b = blas_layout(k, n, b.rs, b.cs, tb, ldb);
    BURN_CHECK(ok_a && ok_b, "[", ctx().op, "] internal: gemm operand is neither row- nor column-major");
    cublasHandle_t h = ctx().blas;
    // Column-major: C^T (n x m) = op(B^T) (n x k) * op(A^T) (k x m).
    const cublasOperation_t opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N, opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int N = static_cast<int>(n), M = static_cast<int>(m), K = static_cast<int>(k),
              B = static_cast<int>(batches);
    if (dtype == DType::f32 || dtype == DType::f16 || dtype == DType::bf16) {
        // f16 / bf16 operands accumulate in f32 on the tensor cores; f32 is exact f32 unless TF32 is on.
        const float al = static_cast<float>(alpha), be = static_cast<float>(beta);
        const cudaDataType_t t = dtype == DType::f32   ? CUDA_R_32F
                                 : dtype == DType::f16 ? CUDA_R_16F
                                                       : CUDA_R_16BF;
        const cublasComputeType_t ct =
            dtype == DType::f32 && allow_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        const DType cd = c_dtype.value_or(dtype);
        BURN_CHECK(cd == dtype || cd == DType::f32, "[", ctx().op, "] internal: gemm of ", dtype, " into ",
                   cd);
        const cudaDataType_t tc = cd == DType::f32 ? CUDA_R_32F : t;
        check_blas(cublasGemmStridedBatchedEx(h, opb, opa, N, M, K, &al, b.data, t, static_cast<int>(ldb),
                                              b.batch_stride, a.data, t, static_cast<int>(lda),
                                              a.batch_stride, &be, c, tc, static_cast<int>(ldc),
                                              c_batch_stride, B, ct, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx");
    } else if (dtype == DType::f64) {
        BURN_CHECK(c_dtype.value_or(dtype) == dtype, "[", ctx().op, "] internal: f64 gemm into ", *c_dtype);
        check_blas(cublasDgemmStridedBatched(h, opb, opa, N, M, K, &alpha, static_cast<const double*>(b.data),
                                             static_cast<int>(ldb), b.batch_stride,
                                             static_cast<const double*>(a.data), static_cast<int>(lda),
                                             a.batch_stride, &beta, static_cast<double*>(c),
                                             static_cast<int>(ldc), c_batch_stride, B),
                   "cublasDgemmStridedBatched");
    } else {
        BURN_THROW_KIND(dtype, "[", ctx().op, "] the cuda backend multiplies float matrices, got ", dtype);
    }
}

void register_matmul(KernelTable& t) {
    t[idx(OpId::matmul)] = {&int_matmul_kernel, &matmul_ok};
    t[idx(OpId::matmul_widen)] = {&matmul_kernel, &matmul_widen_ok};
}

}  // namespace burn::cuda
