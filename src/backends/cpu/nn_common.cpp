#include "backends/cpu/nn_common.hpp"

#include <climits>

#include "backends/cpu/gemm.hpp"

#ifdef BURN_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace burn::cpu::nn {

TensorRef to_compute(const TensorRef& t) {
    if (!is_half(t->dtype)) return contiguous(t);
    TensorRef src = contiguous(t);
    const CpuTensor& s = as_cpu(src);
    auto out = alloc(s.shape, DType::f32, s.device);
    float* o = out->data<float>();
    const int64_t n = s.shape.numel();
    auto convert = [&](auto tag) {
        using H = decltype(tag);
        const H* p = s.data<H>();
        platform::parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) o[i] = static_cast<float>(p[i]);
        });
    };
    if (s.dtype == DType::f16)
        convert(f16{});
    else
        convert(bf16{});
    return out;
}

TensorRef from_compute(const TensorRef& t, DType to) {
    if (t->dtype == to) return t;
    const CpuTensor& s = as_cpu(t);
    auto out = alloc(s.shape, to, s.device);
    const float* p = s.data<float>();
    const int64_t n = s.shape.numel();
    auto convert = [&](auto tag) {
        using H = decltype(tag);
        H* o = out->data<H>();
        platform::parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) o[i] = H(p[i]);
        });
    };
    if (to == DType::f16)
        convert(f16{});
    else
        convert(bf16{});
    return out;
}

namespace {
#ifdef BURN_HAVE_OPENBLAS
/// BLAS's view of a rows x cols operand with strides (rs, cs): row-major or transposed row-major.
bool blas_operand(int64_t rows, int64_t cols, int64_t rs, int64_t cs, CBLAS_TRANSPOSE& trans, int& ld) {
    int64_t l = 0;
    if (cs == 1 && rs >= std::max<int64_t>(cols, 1)) {
        trans = CblasNoTrans;
        l = rs;
    } else if (rs == 1 && cs >= std::max<int64_t>(rows, 1)) {
        trans = CblasTrans;
        l = cs;
    } else {
        return false;
    }
    if (l > INT_MAX) return false;
    ld = static_cast<int>(l);
    return true;
}

void blas_call(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const float* a, int lda, const float* b,
               int ldb, float* c, int ldc) {
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
}
void blas_call(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const double* a, int lda, const double* b,
               int ldb, double* c, int ldc) {
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}
#endif
}  // namespace

bool parallel_images() { return !blas_preferred(); }

template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs,
          int64_t b_cs, T* c, int64_t ldc) {
    if (m <= 0 || n <= 0) return;
#ifdef BURN_HAVE_OPENBLAS
    if (blas_preferred() && k > 0 && m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && ldc <= INT_MAX) {
        CBLAS_TRANSPOSE ta, tb;
        int lda = 0, ldb = 0;
        if (blas_operand(m, k, a_rs, a_cs, ta, lda) && blas_operand(k, n, b_rs, b_cs, tb, ldb)) {
            blas_call(ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), a, lda, b, ldb, c,
                      static_cast<int>(ldc));
            return;
        }
    }
#endif
    gemm_fallback<T>(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t, const float*, int64_t, int64_t,
                          float*, int64_t);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t, const double*, int64_t,
                           int64_t, double*, int64_t);

}  // namespace burn::cpu::nn
