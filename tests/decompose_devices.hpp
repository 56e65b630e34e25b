#pragma once
// The test devices of the decompose tests: ForwardingBackends (forwarding_backend.hpp), registered
// once per process, each running on the CPU the rows its filter allows:
//   "decomp"  every row but one target row, which therefore runs its decomposition
//   "prim"    the primitive rows only: a new backend that implements the primitive set and nothing else
//   "full"    every row (to learn which derived rows a frontend calls by itself)
// They are listed (Device::available, Device::of) only while a DecomposeDevices value is alive, so the
// op sweep's Devices check and other device loops do not pick them up.
#include <set>

#include "burn/backend/registry.hpp"
#include "forwarding_backend.hpp"
#include "ops/decompose.hpp"

namespace burn::testing {

class DecomposeDevices {
  public:
    DecomposeDevices() { state().listed = true; }
    ~DecomposeDevices() {
        state().listed = false;
        state().target = OpId::count_;
    }
    DecomposeDevices(const DecomposeDevices&) = delete;
    DecomposeDevices& operator=(const DecomposeDevices&) = delete;

    /// f(device) on "decomp" with only `op` decomposed; every other row runs its CPU kernel.
    template <class F>
    auto decomposing(OpId op, F&& f) const {
        const Target target(op);
        return f(device(kDecomp));
    }
    /// How often "decomp" was asked for its target row (and so ran the decomposition), in all.
    int target_hits() const { return state().hits; }
    /// f(device) on "prim"; reached gets the derived rows dispatch decomposed.
    template <class F>
    auto primitives(F&& f, std::set<OpId>& reached) const {
        state().seen.clear();
        auto r = f(device(kPrim));
        reached = state().seen;
        return r;
    }
    /// f(device) on "full"; reached gets the derived rows dispatched (all run their kernels).
    template <class F>
    void full(F&& f, std::set<OpId>& reached) const {
        state().seen.clear();
        f(device(kFull));
        reached = state().seen;
    }

  private:
    enum Which { kDecomp, kPrim, kFull };
    struct State {
        OpId target = OpId::count_;
        int hits = 0;
        std::set<OpId> seen;
        bool listed = false;
        ForwardingBackend* backends[3] = {};
        Device devices[3];
    };
    static State& state() {
        static State s;
        return s;
    }
    struct Target {
        explicit Target(OpId op) { state().target = op; }
        ~Target() { state().target = OpId::count_; }
    };

    template <int I>
    static Backend& backend_at(int) {
        return *state().backends[I];
    }

    template <int I>
    static void add(std::string_view name, bool (*allow)(OpId)) {
        auto* b = new ForwardingBackend(std::string(name));  // lives for the whole process
        b->allow = allow;
        state().backends[I] = b;
        BackendEntry e;
        e.name = name;
        e.title = name;
        e.device_count = [] { return state().listed ? 1 : 0; };
        e.backend = &backend_at<I>;
        register_backend(e);
        b->device_ = state().devices[I] = Device::of(name, 0);
    }

    static Device device(Which w) {
        static const bool registered = [] {
            add<kDecomp>("decomp", [](OpId op) {
                if (op != state().target) return true;
                ++state().hits;
                return false;
            });
            add<kPrim>("prim", [](OpId op) {
                if (ops::is_primitive(op)) return true;
                state().seen.insert(op);
                return false;
            });
            add<kFull>("full", [](OpId op) {
                if (!ops::is_primitive(op)) state().seen.insert(op);
                return true;
            });
            return true;
        }();
        (void)registered;
        return state().devices[w];
    }
};

}  // namespace burn::testing
