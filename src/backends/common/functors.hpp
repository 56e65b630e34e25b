#pragma once
// One functor per row of elementwise.def: burn::fn::exp_fn{}(x, p0, p1) and so on. Shared by every
// backend's kernels and by the op-database's reference (instantiated with double).
#include "backends/common/scalar_math.hpp"

namespace burn::fn {

#define BURN_UNARY(name, kinds, body, vjp, domain)                                                \
    struct name##_fn {                                                                            \
        template <class T>                                                                        \
        BURN_HD T operator()(T x, [[maybe_unused]] double p0, [[maybe_unused]] double p1) const { \
            return body;                                                                          \
        }                                                                                         \
    };
#define BURN_UNARY_PRED(name, kinds, body, domain) \
    struct name##_fn {                             \
        template <class T>                         \
        BURN_HD bool operator()(T x) const {       \
            return body;                           \
        }                                          \
    };
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    struct name##_fn {                                       \
        template <class T>                                   \
        BURN_HD T operator()(T a, T b) const {               \
            return body;                                     \
        }                                                    \
    };
#define BURN_COMPARE(name, kinds, body, domain)   \
    struct name##_fn {                            \
        template <class T>                        \
        BURN_HD bool operator()(T a, T b) const { \
            return body;                          \
        }                                         \
    };
#define BURN_TERNARY(name, kinds, body, domain)        \
    struct name##_fn {                                 \
        template <class T>                             \
        BURN_HD T operator()(bool c, T a, T b) const { \
            return body;                               \
        }                                              \
    };
#include "burn/backend/elementwise.def"

}  // namespace burn::fn
