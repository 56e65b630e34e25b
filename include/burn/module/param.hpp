#pragma once
/// Parameters and buffers: the tensors a module owns.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>

#include "burn/tensor/tensor.hpp"

namespace burn {

/// A stable identity for a parameter: persisted in saved files, used to key optimizer state.
class ParamId {
  public:
    /// A fresh, process-unique id.
    static ParamId create();
    constexpr ParamId() = default;
    explicit constexpr ParamId(uint64_t value) : value_(value) {}
    constexpr uint64_t value() const { return value_; }
    friend constexpr bool operator==(ParamId a, ParamId b) { return a.value_ == b.value_; }
    friend constexpr bool operator!=(ParamId a, ParamId b) { return a.value_ != b.value_; }
    friend constexpr bool operator<(ParamId a, ParamId b) { return a.value_ < b.value_; }

  private:
    uint64_t value_ = 0;
};
std::ostream& operator<<(std::ostream& os, ParamId id);
namespace detail {
class Text;
}
detail::Text& operator<<(detail::Text& os, ParamId id);

namespace detail {
/// The once-only initialisation of an uninitialized parameter, shared by its copies so that every copy
/// sees the same values (src/module/module.cpp).
class LazyTensor {
  public:
    LazyTensor(std::function<TensorAny()> init, Dims shape, DType dtype, Device device);
    /// Runs init on the first call (once, whichever copy asks first; thread-safe), checks that it gave
    /// the declared shape and dtype, and returns the tensor.
    TensorAny get();
    bool initialized() const;
    const Dims& shape() const { return shape_; }
    DType dtype() const { return dtype_; }
    const Device& device() const { return device_; }

  private:
    std::function<TensorAny()> init_;
    Dims shape_;
    DType dtype_;
    Device device_;
    struct Once;
    std::shared_ptr<Once> once_;
};
}  // namespace detail

/// A trainable tensor of a module. Constructed parameters require gradients (on autodiff devices),
/// so `loss.backward()` reaches them; freeze with set_require_grad(false).
template <class T>
class Param {
  public:
    using value_type = T;
    Param() = default;
    Param(T value, ParamId id = ParamId::create(), bool require_grad = true)  // NOLINT: a tensor is a param
        : id_(id), require_grad_(require_grad), value_(mark(std::move(value), require_grad)) {}

    /// A parameter whose tensor is made by init(device) on first use (burn's Param::uninitialized): val()
    /// runs it once (copies share the result); its shape, dtype and device are known before (lazy_shape,
    /// lazy_dtype, lazy_device), and load_from fills it without running init. set() replaces it
    /// uninitialized. init must return a tensor of that shape and dtype on device.
    static Param uninitialized(ParamId id, std::function<T(const Device&)> init, const Device& device,
                               Dims shape, DType dtype = T::kind::default_dtype, bool require_grad = true) {
        Param p;
        p.id_ = id;
        p.require_grad_ = require_grad;
        p.lazy_ = std::make_shared<detail::LazyTensor>(
            [init = std::move(init), device] { return init(device).handle(); }, shape, dtype, device);
        return p;
    }

    /// The tensor (running a lazy initialisation first; not thread-safe on one Param object before
    /// that: materialise a module before sharing it across threads, num_params() does).
    const T& val() const {
        if (lazy_) materialize();
        return value_;
    }
    ParamId id() const { return id_; }
    bool is_require_grad() const { return require_grad_; }
    /// False only for an uninitialized parameter whose init has not run (for this copy).
    bool is_initialized() const { return !lazy_ || lazy_->initialized(); }
    /// Shape, dtype and device without initialising.
    Dims lazy_shape() const { return lazy_ ? lazy_->shape() : value_.handle().shape(); }
    DType lazy_dtype() const { return lazy_ ? lazy_->dtype() : value_.handle().dtype(); }
    Device lazy_device() const { return lazy_ ? lazy_->device() : value_.handle().device(); }

    /// Replaces the tensor, keeping the id and the grad flag (what an optimizer step does).
    void set(T value) {
        lazy_.reset();
        value_ = mark(std::move(value), require_grad_);
    }
    /// Replaces the id (what load_from does with the ids a Burnpack file saved, so that optimizer
    /// state keyed by id lines up with the loaded parameters).
    void set_id(ParamId id) { id_ = id; }
    /// Freezes (false) or unfreezes (true) the parameter.
    void set_require_grad(bool on) {
        require_grad_ = on;
        if (!lazy_) value_ = mark(value_, on);
    }

  private:
    static T mark(T v, bool on) { return v.defined() ? v.set_require_grad(on) : v; }
    void materialize() const {
        value_ = mark(T(lazy_->get()), require_grad_);
        lazy_.reset();
    }
    ParamId id_{};
    bool require_grad_ = true;
    mutable T value_{};
    mutable std::shared_ptr<detail::LazyTensor> lazy_{};
};

/// A non-trainable tensor a module owns and saves (BatchNorm's running statistics): moved by
/// to_device, saved and loaded, never given gradients, not counted by num_params.
template <class T>
class Buffer {
  public:
    using value_type = T;
    Buffer() = default;
    Buffer(T value, ParamId id = ParamId::create()) : id_(id), value_(value.detach()) {}  // NOLINT
    const T& val() const { return value_; }
    ParamId id() const { return id_; }
    void set(T value) { value_ = value.detach(); }
    void set_id(ParamId id) { id_ = id; }

  private:
    ParamId id_{};
    T value_{};
};

}  // namespace burn
