#pragma once
/// Optimizer and learning-rate scheduler state through Burnpack files (or any store::Record).
///
///     store::BurnpackStore model_file("model.bpk"), optim_file("optim.bpk");
///     model.save_into(model_file);                  // saves the parameter ids with the tensors
///     store::save_optimizer(optim_file, optimizer);  // state keyed "<param id>.<state name>"
///     ...
///     model.load_from(model_file);                  // restores the tensors and the parameter ids
///     store::load_optimizer(optim_file, optimizer);  // lines up with the restored ids
///
/// Optimizer records hold the moments as tensors and the step counts as f64 scalars, plus metadata
/// "burn.record" = "optimizer" and "optimizer" = the rule's name (Adam, Sgd, ...); loading into an
/// optimizer of another kind is an error naming both. Scheduler records hold the scheduler's scalars,
/// metadata "burn.record" = "lr_scheduler" and "lr_scheduler" = its name.
#include "burn/optim/lr_scheduler.hpp"
#include "burn/optim/optimizer.hpp"
#include "burn/store/burnpack.hpp"
#include "burn/store/record.hpp"

namespace burn::store {

Record to_record(const optim::Optimizer& optimizer);
/// Replaces the optimizer's state; throws (changing nothing) when the record is not an optimizer
/// record of this rule.
void load_record(optim::Optimizer& optimizer, const Record& record);
Record to_record(const optim::LrScheduler& scheduler);
void load_record(optim::LrScheduler& scheduler, const Record& record);

/// Writes the optimizer's state to store (atomically, for file stores).
void save_optimizer(BurnpackStore& store, const optim::Optimizer& optimizer);
/// Reads the optimizer's state from store; state tensors are created on device (they move to each
/// parameter's device at its next step anyway).
void load_optimizer(BurnpackStore& store, optim::Optimizer& optimizer, const Device& device = Device());
void save_scheduler(BurnpackStore& store, const optim::LrScheduler& scheduler);
void load_scheduler(BurnpackStore& store, optim::LrScheduler& scheduler);

}  // namespace burn::store
