#pragma once
/// The learning-rate range test (Smith 2015; fastai's lr_find): train for a few iterations while the
/// learning rate grows geometrically from start_lr to end_lr, record the smoothed loss, and suggest the
/// rate where the loss falls fastest. The model and optimizer are copies: nothing the caller holds is
/// trained.
///
///     auto found = train::find_learning_rate(model, optim::AdamConfig().init(), train_loader);
///     std::printf("suggested lr %g\n", found.suggestion);   // found.lrs, found.losses: the curve
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/core/generator.hpp"
#include "burn/data/dataloader.hpp"
#include "burn/optim/optimizer.hpp"
#include "burn/train/output.hpp"

namespace burn::train {

struct LrFinderOptions {
    double start_lr = 1e-7;
    double end_lr = 10.0;
    std::size_t iterations = 100;  // learning rates tried, one step each (the loader restarts as needed)
    double smoothing = 0.98;       // the loss's exponential moving average (bias-corrected)
    double divergence = 4.0;       // stop once the smoothed loss exceeds this many times its minimum
    uint64_t seed = 42;            // the generator of the steps (dropout, random ops)
};

struct LrFinderResult {
    std::vector<double> lrs;                                        // the rate of each step taken
    std::vector<double> losses;                                     // the smoothed loss after each
    std::vector<double> raw_losses;                                 // each step's batch loss
    double suggestion = std::numeric_limits<double>::quiet_NaN();   // where the smoothed loss falls fastest
    double min_loss_lr = std::numeric_limits<double>::quiet_NaN();  // the rate of the lowest smoothed loss
    bool diverged = false;  // stopped early: the loss blew up (or became NaN)
};

/// The rate where the smoothed loss, against log(lr), has its steepest descent, among the points before
/// its minimum (central differences; the ends one-sided). NaN with fewer than 3 points.
double steepest_descent_lr(const std::vector<double>& lrs, const std::vector<double>& losses);

/// The range test on model (taken by value) with optimizer (copied per call; it is stateful). The model
/// has the training loop's `train_step(batch)`, whose output's `metric_input().loss` is the batch loss.
template <class M, class TB>
LrFinderResult find_learning_rate(M model, optim::Optimizer optimizer, data::DataLoaderPtr<TB> loader,
                                  LrFinderOptions options = {}) {
    BURN_CHECK(loader != nullptr && loader->num_batches() > 0,
               "[find_learning_rate] the loader has no batches");
    BURN_CHECK(options.start_lr > 0 && options.end_lr > options.start_lr && options.iterations >= 2,
               "[find_learning_rate] needs 0 < start_lr < end_lr and iterations >= 2, got start_lr ",
               options.start_lr, ", end_lr ", options.end_lr, ", iterations ", options.iterations);
    BURN_CHECK(options.smoothing >= 0 && options.smoothing < 1 && options.divergence > 1,
               "[find_learning_rate] needs smoothing in [0, 1) and divergence > 1, got ", options.smoothing,
               " and ", options.divergence);
    auto devices = model.devices();
    const Device device = devices.empty() ? Device().autodiff() : devices.front();
    BURN_CHECK_KIND(device.is_autodiff(), device, "[find_learning_rate] the model is on ", device,
                    ", which records no gradients; build it on ", device, ".autodiff()");
    auto batches = loader->to_device(device);
    Generator generator(options.seed);
    GeneratorScope scope(generator);
    LrFinderResult r;
    const double ratio = options.end_lr / options.start_lr;
    double avg = 0, best = std::numeric_limits<double>::infinity();
    std::size_t epoch = 0;
    auto it = batches->iter(epoch);
    for (std::size_t i = 0; i < options.iterations; ++i) {
        auto batch = it->next();
        if (!batch) {
            it = batches->iter(++epoch);
            batch = it->next();
        }
        const double lr = options.start_lr * std::pow(ratio, static_cast<double>(i) /
                                                                 static_cast<double>(options.iterations - 1));
        auto out = model.train_step(*batch);
        const auto loss = to_metric_input(out.item).loss;
        BURN_CHECK(loss.has_value(), "[find_learning_rate] the training output carries no loss");
        model = optimizer.step(lr, std::move(model), out.grads);
        avg = options.smoothing * avg + (1 - options.smoothing) * *loss;
        const double smoothed = avg / (1 - std::pow(options.smoothing, static_cast<double>(i + 1)));
        r.lrs.push_back(lr);
        r.raw_losses.push_back(*loss);
        r.losses.push_back(smoothed);
        if (!std::isfinite(smoothed) || smoothed > options.divergence * best) {
            r.diverged = true;
            break;
        }
        if (smoothed < best) {
            best = smoothed;
            r.min_loss_lr = lr;
        }
    }
    r.suggestion = steepest_descent_lr(r.lrs, r.losses);
    return r;
}

}  // namespace burn::train
