#pragma once
// A non-owning reference to a callable (C++26's std::function_ref, which libc++ 13 and libstdc++ 12 do not
// have): a pointer to the callable and a pointer to one small trampoline per callable type. The library's
// parallel_for takes one instead of a std::function: every lambda passed as a std::function instantiates
// the whole type-erasure machinery (the CPU elementwise kernels alone made 1,040 such instantiations,
// 40 % of that file's compile time under clang), and a std::function holding a lambda that captures more
// than two references allocates on the heap at every call.
//
// It refers to the callable, it does not copy it: keep the callable alive while the FunctionRef is used,
// as for a function parameter (a lambda passed inline lives until the call returns).
#include <memory>
#include <type_traits>
#include <utility>

namespace burn::platform {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
  public:
    template <class F, std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef> &&
                                            std::is_invocable_r_v<R, F&, Args...>,
                                        int> = 0>
    FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor): binds like a function parameter
        : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_(&call<std::remove_reference_t<F>>) {}

    R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

  private:
    template <class F>
    static R call(void* object, Args... args) {
        return (*static_cast<F*>(object))(std::forward<Args>(args)...);
    }

    void* object_;
    R (*call_)(void*, Args...);
};

}  // namespace burn::platform
