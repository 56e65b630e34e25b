// Transaction and PendingData (burn/tensor/transaction.hpp, pending_data.hpp): reads that flush their
// devices before the first one waits.
#include "burn/tensor/transaction.hpp"

#include "burn/core/device.hpp"
#include "burn/core/error.hpp"

namespace burn {

PendingData::PendingData(TensorAny t) : t_(std::move(t)) {
    BURN_CHECK(t_.defined(), "[into_data_async] the tensor is undefined (default-constructed or moved from)");
    t_.device().flush();
}

TensorData PendingData::get() {
    BURN_CHECK(t_.defined(), "[PendingData::get] the values were already taken: get() returns them once");
    TensorAny t = std::move(t_);
    t_ = TensorAny();
    return ops::into_data(t);
}

std::vector<TensorData> Transaction::execute() const {
    for (std::size_t i = 0; i < tensors_.size(); ++i)
        BURN_CHECK(tensors_[i].defined(), "[Transaction::execute] tensor ", i, " of ", tensors_.size(),
                   " is undefined (default-constructed or moved from)");
    std::vector<Device> flushed;
    for (const TensorAny& t : tensors_) {
        bool seen = false;
        for (const Device& d : flushed) seen = seen || d == t.device();
        if (seen) continue;
        t.device().flush();
        flushed.push_back(t.device());
    }
    std::vector<TensorData> out;
    out.reserve(tensors_.size());
    for (const TensorAny& t : tensors_) out.push_back(ops::into_data(t));
    return out;
}

}  // namespace burn
