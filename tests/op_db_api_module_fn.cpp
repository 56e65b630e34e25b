// Op-database entries of the composite module functions (burn's burn::tensor::module; no rows of their
// own, so `ops` is {}): embedding, batch_norm (statistics given) and batch_norm_train (the batch's own
// statistics). References are naive float64 loops over the host values.
#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_module_fn {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// The channel of flat position i of a tensor of shape s ([N, C, ...]).
int64_t channel_of(int64_t i, const Dims& s) {
    return ref::unravel(i, s)[1];
}

/// (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c] for every element of x.
ref::Host normalise(const ref::Host& x, const ref::Host& gamma, const ref::Host& beta,
                    const std::vector<double>& mean, const std::vector<double>& var, double eps) {
    ref::Host o = x;
    for (int64_t i = 0; i < x.numel(); ++i) {
        const auto c = static_cast<std::size_t>(channel_of(i, x.shape));
        double& v = o.v[static_cast<std::size_t>(i)];
        v = (v - mean[c]) / std::sqrt(var[c] + eps) * gamma.v[c] + beta.v[c];
    }
    return o;
}

void add_embedding(std::vector<OpEntry>& db) {
    OpEntry e = entry("embedding", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"embedding", dt};
        return std::vector<Sample>{sample(Tag::basic, {g({5, 3}), g.index({2, 4}, 5)}),
                                   sample(Tag::basic, {g({4, 2}), g.index({3}, 4, DType::i64)}),
                                   sample(Tag::basic, {g({3, 2}), g.index({2, 2, 2}, 3, DType::u8)}),
                                   sample(Tag::scalar, {g({1, 1}), g.index({1}, 1)}),
                                   sample(Tag::empty, {g({3, 2}), g.index({0, 2}, 3)})};
    };
    e.forward = [](V in, A) { return ops::embedding(in[0], in[1]); };
    e.reference = [](In in, A) {
        ref::Host w = ref::host(in[0]), idx = ref::host(in[1]);
        const int64_t d = w.shape[1];
        Dims os = idx.shape;
        os.push_back(d);
        ref::Host o = ref::filled(os, 0);
        for (int64_t i = 0; i < idx.numel(); ++i)
            for (int64_t j = 0; j < d; ++j)
                o.v[static_cast<std::size_t>(i * d + j)] = w.v[static_cast<std::size_t>(
                    static_cast<int64_t>(idx.v[static_cast<std::size_t>(i)]) * d + j)];
        return out(o, in[0].dtype());
    };
    e.bad.push_back(bad("float indices", "[embedding]", [](const Device& d) {
        ops::embedding(f32({3, 2}, d), f32({2}, d));
    }));
    e.bad.push_back(bad("weights of rank 3", "[embedding]", [](const Device& d) {
        ops::embedding(f32({3, 2, 1}, d), ops::full({2}, 0, DType::i32, d));
    }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

void add_batch_norm(std::vector<OpEntry>& db) {
    {
        // inputs {x, gamma, beta, mean, variance}; reals {eps}
        OpEntry e = entry("batch_norm", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"batch_norm", dt};
            auto channels = [&](Dims x, int64_t c, double eps, Tag t = Tag::basic) {
                return sample(t, {g(x), g({c}), g({c}), g({c}), g({c}, Domain::positive)}, {}, {eps});
            };
            return std::vector<Sample>{channels({2, 3}, 3, 1e-5), channels({2, 3, 4}, 3, 1e-5),
                                       channels({2, 2, 3, 2}, 2, 0.1), channels({1, 1}, 1, 1e-5, Tag::scalar),
                                       channels({0, 3, 2}, 3, 1e-5, Tag::empty)};
        };
        e.forward = [](V in, A a) { return ops::batch_norm(in[0], in[1], in[2], in[3], in[4], a.reals[0]); };
        e.reference = [](In in, A a) {
            const ref::Host m = ref::host(in[3]), v = ref::host(in[4]);
            return out(normalise(ref::host(in[0]), ref::host(in[1]), ref::host(in[2]), m.v, v.v, a.reals[0]),
                       in[0].dtype());
        };
        auto call = [](Dims x, int64_t c, int64_t c_mean) {
            return [x, c, c_mean](const Device& d) {
                ops::batch_norm(f32(x, d), f32({c}, d), f32({c}, d), f32({c_mean}, d), f32({c}, d), 1e-5);
            };
        };
        e.bad.push_back(bad("rank 1 input", "[batch_norm]", call({3}, 3, 3)));
        e.bad.push_back(bad("gamma [2] for 3 channels", "[batch_norm]", call({2, 3}, 2, 2)));
        e.bad.push_back(bad("mean [4] for 3 channels", "[batch_norm]", call({2, 3}, 3, 4)));
        e.bad.push_back(bad("f64 variance", "[batch_norm]", [](const Device& d) {
            ops::batch_norm(f32({2, 3}, d), f32({3}, d), f32({3}, d), f32({3}, d),
                            ops::full({3}, 1, DType::f64, d), 1e-5);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1, 2, 3, 4};
        db.push_back(std::move(e));
    }
    {
        // inputs {x, gamma, beta}; reals {eps}; the output (the statistics are checked in norm_test.cpp)
        OpEntry e = entry("batch_norm_train", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"batch_norm_train", dt};
            // gamma |.| < 0.9: x * scale stays moderate, so that f16 / bf16's x * scale + shift (the
            // module's formula) does not cancel away the result
            return std::vector<Sample>{
                sample(Tag::basic, {g({8, 3}), g({3}, Domain::unit), g({3})}, {}, {1e-5}),
                sample(Tag::basic, {g({2, 3, 4}), g({3}, Domain::unit), g({3})}, {}, {1e-5}),
                sample(Tag::basic, {g({2, 2, 3, 2}), g({2}, Domain::unit), g({2})}, {}, {0.1})};
        };
        e.forward = [](V in, A a) { return ops::batch_norm_train(in[0], in[1], in[2], a.reals[0]).output; };
        e.reference = [](In in, A a) {
            const ref::Host x = ref::host(in[0]);
            const auto c = static_cast<std::size_t>(x.shape[1]);
            std::vector<double> mean(c, 0), var(c, 0), count(c, 0);
            for (int64_t i = 0; i < x.numel(); ++i) {
                const auto k = static_cast<std::size_t>(channel_of(i, x.shape));
                mean[k] += x.v[static_cast<std::size_t>(i)];
                count[k] += 1;
            }
            for (std::size_t k = 0; k < c; ++k) mean[k] /= count[k];
            for (int64_t i = 0; i < x.numel(); ++i) {
                const auto k = static_cast<std::size_t>(channel_of(i, x.shape));
                const double dv = x.v[static_cast<std::size_t>(i)] - mean[k];
                var[k] += dv * dv / count[k];  // biased
            }
            return out(normalise(x, ref::host(in[1]), ref::host(in[2]), mean, var, a.reals[0]),
                       in[0].dtype());
        };
        // f16 / bf16: the statistics (computed in f32) and the normalisation round to the dtype
        e.tol = [](DType dt) {
            return dt == DType::f16 || dt == DType::bf16 ? Tol{5e-2, 5e-2} : default_tol(dt);
        };
        e.bad.push_back(bad("beta [2] for 3 channels", "[batch_norm_train]", [](const Device& d) {
            ops::batch_norm_train(f32({2, 3}, d), f32({3}, d), f32({2}, d), 1e-5);
        }));
        e.bad.push_back(bad("rank 1 input", "[batch_norm_train]", [](const Device& d) {
            ops::batch_norm_train(f32({3}, d), f32({3}, d), f32({3}, d), 1e-5);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1, 2};
        db.push_back(std::move(e));
    }
}

}  // namespace api_module_fn

void add_api_module_fn_entries(std::vector<OpEntry>& db) {
    api_module_fn::add_embedding(db);
    api_module_fn::add_batch_norm(db);
}

}  // namespace burn::opdb
