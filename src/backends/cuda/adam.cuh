#pragma once
// The Adam(W) update of one element, shared by adam_step (nn.cu) and adam_step_multi (optim_multi.cu),
// so that the two ops round identically. Each product, sum and quotient is an explicitly rounded
// intrinsic: otherwise nvcc contracts `a * b + c` into an FMA as the surrounding code suggests, and the
// two kernels, the same expressions in different loops, differed by an ulp in a few elements (found on
// an H100, session 16). The cost is nil: the update is bound by its 7 memory streams.
#include <cuda_runtime.h>

namespace burn::cuda {

__device__ __forceinline__ float add_rn(float a, float b) {
    return __fadd_rn(a, b);
}
__device__ __forceinline__ double add_rn(double a, double b) {
    return __dadd_rn(a, b);
}
__device__ __forceinline__ float sub_rn(float a, float b) {
    return __fsub_rn(a, b);
}
__device__ __forceinline__ double sub_rn(double a, double b) {
    return __dsub_rn(a, b);
}
__device__ __forceinline__ float mul_rn(float a, float b) {
    return __fmul_rn(a, b);
}
__device__ __forceinline__ double mul_rn(double a, double b) {
    return __dmul_rn(a, b);
}
__device__ __forceinline__ float div_rn(float a, float b) {
    return __fdiv_rn(a, b);
}
__device__ __forceinline__ double div_rn(double a, double b) {
    return __ddiv_rn(a, b);
}
__device__ __forceinline__ float sqrt_rn(float a) {
    return __fsqrt_rn(a);
}
__device__ __forceinline__ double sqrt_rn(double a) {
    return __dsqrt_rn(a);
}

/// The hyper-parameters of ops::AdamStepHyper as read from the device: b1, b2, step, eps, decay, l2.
template <class T>
struct AdamConsts {
    T b1, b2, step, eps, decay, l2, w1, w2;
    __device__ explicit AdamConsts(const double* h)
        : b1(T(h[0])),
          b2(T(h[1])),
          step(T(h[2])),
          eps(T(h[3])),
          decay(T(h[4])),
          l2(T(h[5])),
          w1(T(1 - h[0])),
          w2(T(1 - h[1])) {}
};

/// p, g, m, v -> (p', m', v'): g += l2 p; m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
/// p' = decay p - step m' / (sqrt(v') + eps).
template <class T>
__device__ __forceinline__ void adam_update(const AdamConsts<T>& c, T p, T g, T m, T v, T& pw, T& mw, T& vw) {
    const T gi = add_rn(g, mul_rn(c.l2, p));
    mw = add_rn(mul_rn(c.b1, m), mul_rn(c.w1, gi));
    vw = add_rn(mul_rn(c.b2, v), mul_rn(mul_rn(c.w2, gi), gi));
    pw = sub_rn(mul_rn(c.decay, p), div_rn(mul_rn(c.step, mw), add_rn(sqrt_rn(vw), c.eps)));
}

}  // namespace burn::cuda
