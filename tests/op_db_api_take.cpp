// Op-database entries of take (slices along a dim at indices of any rank) and repeat (tiling every
// dim), composites with `ops` = {}: references index the host values directly.
#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_take {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

void add_entries(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("take", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"take", dt};
            auto idx = [](const Dims& s, std::vector<double> v) { return data_of(s, v, DType::i64); };
            return std::vector<Sample>{sample(Tag::basic, {g({3, 4}), idx({2}, {2, 0})}, {0}),
                                       sample(Tag::basic, {g({3, 4}), idx({2, 3}, {3, 0, 1, 1, 2, 3})}, {1}),
                                       sample(Tag::basic, {g({2, 3, 2}), idx({2, 2}, {1, 0, 2, 2})}, {-2}),
                                       sample(Tag::empty, {g({3, 4}), idx({0}, {})}, {0})};
        };
        e.forward = [](V in, A a) { return ops::take(in[0], a.ints[0], in[1]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]), ix = ref::host(in[1]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            Dims s;
            for (int k = 0; k < d; ++k) s.push_back(x.shape[k]);
            for (int64_t n : ix.shape) s.push_back(n);
            for (int k = d + 1; k < x.rank(); ++k) s.push_back(x.shape[k]);
            ref::Host o = ref::filled(s, 0);
            for (int64_t i = 0; i < o.numel(); ++i) {
                auto oi = ref::unravel(i, s);
                std::vector<int64_t> ii(oi.begin() + d, oi.begin() + d + ix.rank());
                std::vector<int64_t> xi(oi.begin(), oi.begin() + d);
                xi.push_back(static_cast<int64_t>(ix.v[static_cast<std::size_t>(ref::ravel(ii, ix.shape))]));
                xi.insert(xi.end(), oi.begin() + d + ix.rank(), oi.end());
                o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(xi, x.shape))];
            }
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("index past the dim", "[select]|[take]", [](const Device& d) {
            ops::take(f32({2, 2}, d), 0, ops::full({1}, 5, DType::i64, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("repeat", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"repeat", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3})}, {2, 3}), sample(Tag::basic, {g({2, 1, 2})}, {1, 3, 2}),
                sample(Tag::scalar, {g({1})}, {4}), sample(Tag::empty, {g({2, 3})}, {0, 1})};
        };
        e.forward = [](V in, A a) { return ops::repeat(in[0], a.ints); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            Dims s = x.shape;
            for (int k = 0; k < s.rank(); ++k) s[k] *= a.ints[static_cast<std::size_t>(k)];
            ref::Host o = ref::filled(s, 0);
            for (int64_t i = 0; i < o.numel(); ++i) {
                auto oi = ref::unravel(i, s);
                for (int k = 0; k < s.rank(); ++k) oi[static_cast<std::size_t>(k)] %= x.shape[k];
                o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(oi, x.shape))];
            }
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("one count for rank 2", "[repeat]", [](const Device& d) {
            ops::repeat(f32({2, 2}, d), {2});
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

}  // namespace api_take

void add_api_take_entries(std::vector<OpEntry>& db) {
    api_take::add_entries(db);
}

}  // namespace burn::opdb
