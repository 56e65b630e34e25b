#include "burn/train/async_checkpointer.hpp"

#include "burn/tensor/ops.hpp"
#include "train/background_queue.hpp"

namespace burn::train {

AsyncCheckpointer::AsyncCheckpointer(Checkpointer checkpointer)
    : checkpointer_(std::make_shared<Checkpointer>(std::move(checkpointer))),
      queue_(std::make_unique<detail::BackgroundQueue>("AsyncCheckpointer")) {}

AsyncCheckpointer::~AsyncCheckpointer() = default;

void AsyncCheckpointer::save(const CheckpointInfo& info, const std::map<std::string, CheckpointRecord>& parts,
                             const config::Value& state) {
    auto copy = std::make_shared<std::map<std::string, CheckpointRecord>>(parts);
    if (queue_->threaded())  // tensors nobody else holds: the writer thread reads them alone
        for (auto& [name, record] : *copy)
            for (auto& [key, t] : record.tensors) t = ops::from_data(ops::into_data(t), t.device());
    auto target = checkpointer_;
    queue_->submit([target, info, copy, state] { target->save(info, *copy, state); });
}

void AsyncCheckpointer::then(std::function<void(Checkpointer&)> f) {
    auto target = checkpointer_;
    queue_->submit([target, f = std::move(f)] { f(*target); });
}

void AsyncCheckpointer::flush() {
    queue_->flush();
}

}  // namespace burn::train
