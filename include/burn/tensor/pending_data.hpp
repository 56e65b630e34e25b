#pragma once
/// Reads started now and finished later (burn's into_data_async / into_scalar_async): constructing a
/// PendingData flushes the tensor's device (Device::flush: a lazy device launches its pending graphs,
/// a GPU keeps computing), so the host can do other work before get() waits for the values.
#include <utility>

#include "burn/tensor/ops.hpp"

namespace burn {

class PendingData {
  public:
    /// Starts the read of t: flushes its device. Throws burn::Error for an undefined tensor.
    explicit PendingData(TensorAny t);
    /// Waits for the device and returns the values. Once: a second call throws burn::Error.
    TensorData get();
    /// get() of a one-element tensor, converted to T.
    template <class T>
    T scalar() {
        TensorData d = get();
        BURN_CHECK_KIND(d.numel() == 1, shape, "[PendingData::scalar] the tensor has ", d.numel(),
                        " elements; scalar() needs exactly one");
        return d.convert(dtype_of<T>).template to_vec<T>()[0];
    }
    /// Whether get() has not been called yet.
    bool valid() const { return t_.defined(); }

  private:
    TensorAny t_;
};

}  // namespace burn
