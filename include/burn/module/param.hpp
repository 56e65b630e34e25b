#pragma once
/// Parameters and buffers: the tensors a module owns.
#include <cstdint>
#include <iosfwd>
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

/// A trainable tensor of a module. Constructed parameters require gradients (on autodiff devices),
/// so `loss.backward()` reaches them; freeze with set_require_grad(false).
template <class T>
class Param {
  public:
    using value_type = T;
    Param() = default;
    Param(T value, ParamId id = ParamId::create(), bool require_grad = true)  // NOLINT: a tensor is a param
        : id_(id), require_grad_(require_grad), value_(mark(std::move(value), require_grad)) {}

    const T& val() const { return value_; }
    ParamId id() const { return id_; }
    bool is_require_grad() const { return require_grad_; }

    /// Replaces the tensor, keeping the id and the grad flag (what an optimizer step does).
    void set(T value) { value_ = mark(std::move(value), require_grad_); }
    /// Replaces the id (what load_from does with the ids a Burnpack file saved, so that optimizer
    /// state keyed by id lines up with the loaded parameters).
    void set_id(ParamId id) { id_ = id; }
    /// Freezes (false) or unfreezes (true) the parameter.
    void set_require_grad(bool on) {
        require_grad_ = on;
        value_ = mark(value_, on);
    }

  private:
    static T mark(T v, bool on) { return v.defined() ? v.set_require_grad(on) : v; }
    ParamId id_{};
    bool require_grad_ = true;
    T value_{};
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
