#include "burn/store/optim_record.hpp"

#include "burn/tensor/ops.hpp"

namespace burn::store {

namespace {

void check_kind(const Record& r, const char* kind, const std::string& name, const char* op) {
    auto k = r.metadata.find("burn.record");
    BURN_CHECK(
        k != r.metadata.end() && k->second == kind, "[", op, "] the record is not ",
        kind == std::string("optimizer") ? "an optimizer" : "a learning-rate scheduler", " record (",
        k == r.metadata.end() ? std::string("no 'burn.record' metadata") : "'burn.record' = " + k->second,
        ")");
    auto n = r.metadata.find(kind);
    BURN_CHECK(n != r.metadata.end() && n->second == name, "[", op, "] the record holds ",
               n == r.metadata.end() ? std::string("state of an unnamed ") + kind : n->second + " state",
               " but the target is ", name);
}

}  // namespace

Record to_record(const optim::Optimizer& optimizer) {
    optim::OptimizerRecord o = optimizer.to_record();
    Record r;
    for (auto& [k, t] : o.tensors) r.tensors[k] = ops::inner_of(t);
    for (auto& [k, v] : o.scalars) r.scalars[k] = Scalar(v);
    r.metadata["burn.record"] = "optimizer";
    r.metadata["optimizer"] = optimizer.rule().name();
    return r;
}

void load_record(optim::Optimizer& optimizer, const Record& record) {
    check_kind(record, "optimizer", optimizer.rule().name(), "load_optimizer");
    optim::OptimizerRecord o;
    o.tensors = record.tensors;
    for (const auto& [k, v] : record.scalars) o.scalars[k] = v.as_f64();
    optimizer.load_record(o);
}

Record to_record(const optim::LrScheduler& scheduler) {
    Record r;
    for (const auto& [k, v] : scheduler.to_record().scalars) r.scalars[k] = Scalar(v);
    r.metadata["burn.record"] = "lr_scheduler";
    r.metadata["lr_scheduler"] = scheduler.name();
    return r;
}

void load_record(optim::LrScheduler& scheduler, const Record& record) {
    check_kind(record, "lr_scheduler", scheduler.name(), "load_scheduler");
    BURN_CHECK(record.tensors.empty(), "[load_scheduler] a scheduler record holds no tensors, this one has ",
               record.tensors.size());
    optim::LrSchedulerRecord s;
    for (const auto& [k, v] : record.scalars) s.scalars[k] = v.as_f64();
    scheduler.load_record(s);
}

void save_optimizer(BurnpackStore& store, const optim::Optimizer& optimizer) {
    store.save_record(to_record(optimizer));
}

void load_optimizer(BurnpackStore& store, optim::Optimizer& optimizer, const Device& device) {
    load_record(optimizer, store.load_record(device));
}

void save_scheduler(BurnpackStore& store, const optim::LrScheduler& scheduler) {
    store.save_record(to_record(scheduler));
}

void load_scheduler(BurnpackStore& store, optim::LrScheduler& scheduler) {
    load_record(scheduler, store.load_record());
}

}  // namespace burn::store
