#pragma once
// The cuDNN library, opened at the first convolution (cudnn_library.cpp), and the switches of the
// cuDNN path; used by cudnn_conv.cpp. Only these two files see cudnn.h (BURN_HAVE_CUDNN).
#include <string>

#include "backends/cuda/conv.hpp"

#ifdef BURN_HAVE_CUDNN
#include <cudnn.h>
#endif

namespace burn::cuda::cudnn {

bool verbose();  // BURN_CUDA_VERBOSE
/// Whether this direction's algorithm is picked by cudnnFind (timing) instead of the heuristics:
/// BURN_CUDA_CUDNN_BENCHMARK=1 every direction, 0 none, unset the forward only.
bool benchmark(bool forward);
/// Statistics for cudnn_status(): a convolution run through cuDNN, or one it had no algorithm for.
void count(bool ran);

#ifdef BURN_HAVE_CUDNN
// The cuDNN functions used, resolved with dlsym (the header gives their types; nothing links to them).
#define BURN_CUDNN_FUNCTIONS(X)                       \
    X(cudnnGetVersion)                                \
    X(cudnnGetErrorString)                            \
    X(cudnnCreate)                                    \
    X(cudnnSetStream)                                 \
    X(cudnnCreateTensorDescriptor)                    \
    X(cudnnSetTensorNdDescriptor)                     \
    X(cudnnCreateFilterDescriptor)                    \
    X(cudnnSetFilterNdDescriptor)                     \
    X(cudnnCreateConvolutionDescriptor)               \
    X(cudnnSetConvolutionNdDescriptor)                \
    X(cudnnSetConvolutionGroupCount)                  \
    X(cudnnSetConvolutionMathType)                    \
    X(cudnnGetConvolutionNdForwardOutputDim)          \
    X(cudnnGetConvolutionForwardAlgorithm_v7)         \
    X(cudnnGetConvolutionBackwardDataAlgorithm_v7)    \
    X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)  \
    X(cudnnFindConvolutionForwardAlgorithm)           \
    X(cudnnFindConvolutionBackwardDataAlgorithm)      \
    X(cudnnFindConvolutionBackwardFilterAlgorithm)    \
    X(cudnnGetConvolutionForwardWorkspaceSize)        \
    X(cudnnGetConvolutionBackwardDataWorkspaceSize)   \
    X(cudnnGetConvolutionBackwardFilterWorkspaceSize) \
    X(cudnnConvolutionForward)                        \
    X(cudnnConvolutionBackwardData)                   \
    X(cudnnConvolutionBackwardFilter)

struct Api {
#define BURN_CUDNN_MEMBER(name) decltype(&::name) name = nullptr;
    BURN_CUDNN_FUNCTIONS(BURN_CUDNN_MEMBER)
#undef BURN_CUDNN_MEMBER
};

struct Library {
    Api api;
    bool ok = false;
    std::string detail;  // the version and path, or why it did not load
    long version = 0;
};

/// Loads the library at the first call (thread-safe); .ok says whether it did, .detail why not.
const Library& library();
inline const Api& api() {
    return library().api;
}
#endif

}  // namespace burn::cuda::cudnn
