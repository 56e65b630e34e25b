#pragma once
/// Learner(model, optimizer, lr_or_scheduler): what a training run changes. The model is on an
/// autodiff device; the learning rate is a plain number or any scheduler with `double step()` (the
/// optim schedulers; a scheduler's state is checkpointed when it has to_record()/load_record()).
#include <concepts>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "burn/optim/optimizer.hpp"

namespace burn::train {

/// A learning rate: a constant or a scheduler, type-erased. step() gives the rate for the next
/// optimizer step.
class LrSource {
  public:
    LrSource(double lr) : impl_(std::make_shared<Constant>(lr)) {}  // NOLINT: a plain rate
    template <class S>
    requires(!std::is_arithmetic_v<std::decay_t<S>> && !std::same_as<std::decay_t<S>, LrSource> &&
             requires(std::decay_t<S> & s) {
                 { s.step() } -> std::convertible_to<double>;
             }) LrSource(S&& scheduler)  // NOLINT: any scheduler
        : impl_(std::make_shared<Wrapped<std::decay_t<S>>>(std::forward<S>(scheduler))) {}
    LrSource(const LrSource& o) : impl_(o.impl_->clone()) {}
    LrSource(LrSource&&) noexcept = default;
    LrSource& operator=(const LrSource& o) {
        if (this != &o) impl_ = o.impl_->clone();
        return *this;
    }
    LrSource& operator=(LrSource&&) noexcept = default;

    double step() { return impl_->step(); }
    /// The momentum the scheduler gives for the step() just taken (one-cycle and cyclic with
    /// cycle_momentum), nullopt otherwise: the training loop sets it on the optimizer.
    std::optional<double> momentum() const { return impl_->momentum(); }
    /// The scheduler's state as named scalars (empty for a constant).
    std::map<std::string, double> state() const { return impl_->state(); }
    void load_state(const std::map<std::string, double>& s) { impl_->load_state(s); }

  private:
    struct Base {
        virtual ~Base() = default;
        virtual double step() = 0;
        virtual std::optional<double> momentum() const = 0;
        virtual std::map<std::string, double> state() const = 0;
        virtual void load_state(const std::map<std::string, double>&) = 0;
        virtual std::shared_ptr<Base> clone() const = 0;
    };
    struct Constant final : Base {
        explicit Constant(double v) : lr(v) {}
        double step() override { return lr; }
        std::optional<double> momentum() const override { return std::nullopt; }
        std::map<std::string, double> state() const override { return {}; }
        void load_state(const std::map<std::string, double>&) override {}
        std::shared_ptr<Base> clone() const override { return std::make_shared<Constant>(*this); }
        double lr;
    };
    template <class S>
    struct Wrapped final : Base {
        template <class A>
        explicit Wrapped(A&& a) : s(std::forward<A>(a)) {}
        double step() override { return static_cast<double>(s.step()); }
        std::optional<double> momentum() const override {
            if constexpr (requires { s.momentum(); })
                return s.momentum();
            else
                return std::nullopt;
        }
        std::map<std::string, double> state() const override {
            std::map<std::string, double> out;
            if constexpr (requires { s.to_record().scalars; }) {
                for (const auto& [k, v] : s.to_record().scalars) out[k] = static_cast<double>(v);
            }
            return out;
        }
        void load_state(const std::map<std::string, double>& st) override {
            if constexpr (requires {
                              s.to_record().scalars;
                              s.load_record(s.to_record());
                          }) {
                auto record = s.to_record();
                record.scalars.clear();
                for (const auto& [k, v] : st) record.scalars[k] = v;
                s.load_record(record);
            }
        }
        std::shared_ptr<Base> clone() const override { return std::make_shared<Wrapped>(s); }
        S s;
    };
    std::shared_ptr<Base> impl_;
};

/// A custom training strategy (burn's TrainingStrategy::Custom), given to
/// SupervisedTraining::with_training_strategy: one optimizer step, from the model, the optimizer, the
/// step's learning rate and the gradients to the new model. The built-in one is
/// `return optimizer.step(lr, std::move(model), grads);`.
template <class M>
using TrainingStrategy =
    std::function<M(M model, optim::Optimizer& optimizer, double lr, optim::GradientsParams& grads)>;

template <class M>
class Learner {
  public:
    Learner(M model, optim::Optimizer optimizer, LrSource lr)
        : model(std::move(model)), optimizer(std::move(optimizer)), lr(std::move(lr)) {}

    M model;
    optim::Optimizer optimizer;
    LrSource lr;
};
template <class M, class L>
Learner(M, optim::Optimizer, L) -> Learner<M>;

}  // namespace burn::train
