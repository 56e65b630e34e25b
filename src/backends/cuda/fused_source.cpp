// The CUDA source of a fused pass (fused_source.hpp). A program
//   %0 = load in0 f32; %1 = load in1 f32; %2 = mul %0 %1; %3 = const 2; %4 = add %2 %3 -> out0 f32
// becomes, with every input dense and aligned (vec4),
//   struct Args { long long n; const float* in0; const float* in1; float* out0; double c3; ... };
//   extern "C" __global__ void burn_fused(const Args a) {
//     for (j = thread; j < n / 4; j += threads) {   // 16-byte loads, 4 elements per thread
//       float r0[4]; load4(r0, a.in0, j); ...
//       float r2[4]; for k: r2[k] = burn::fn::mul_fn{}(r0[k], r1[k]);
//       const float r3 = float(a.c3);                // uniform: once, not per element
//       ... store4(a.out0, j, r4);
//     }
//     for (i = 4 * (n / 4) + thread; i < n; i += threads) { the same, one element at a time }
//   }
#include "backends/cuda/fused_source.hpp"

#include <array>
#include <cstring>
#include <sstream>

#include "burn/core/error.hpp"

namespace burn::cuda::fused {

namespace {

using lazy::Program;
using lazy::Step;

/// A row's form: U unary (with p0, p1), P predicate, B binary, C compare, T ternary; `bools`: kinds B
/// (computed on bool: registers hold 0 / 1).
struct Row {
    const char* name = nullptr;
    char form = 0;
    bool bools = false;
};

std::array<Row, kNumOps> make_rows() {
    std::array<Row, kNumOps> r{};
#define BURN_ROW(name, f, kinds) r[static_cast<std::size_t>(OpId::name)] = Row{#name, f, #kinds[0] == 'B'};
#define BURN_UNARY(name, kinds, body, vjp, domain) BURN_ROW(name, 'U', kinds)
#define BURN_UNARY_PRED(name, kinds, body, domain) BURN_ROW(name, 'P', kinds)
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) BURN_ROW(name, 'B', kinds)
#define BURN_COMPARE(name, kinds, body, domain) BURN_ROW(name, 'C', kinds)
#define BURN_TERNARY(name, kinds, body, domain) BURN_ROW(name, 'T', kinds)
#include "burn/backend/elementwise.def"
#undef BURN_ROW
    return r;
}

const Row& row(OpId op) {
    static const std::array<Row, kNumOps> rows = make_rows();
    return rows[static_cast<std::size_t>(op)];
}

const char* c_type(DType d) {
    switch (d) {
        case DType::f32:
            return "float";
        case DType::f64:
            return "double";
        case DType::f16:
            return "unsigned short";  // bits, converted by burn_ld
        case DType::bf16:
            return "unsigned short";
        case DType::i64:
            return "long long";
        case DType::i32:
            return "int";
        case DType::i16:
            return "short";
        case DType::i8:
            return "signed char";
        case DType::u8:
            return "unsigned char";
        case DType::boolean:
            return "bool";
    }
    return "float";
}

/// The load of an input's element as the CPU's fused loads convert it (fused_kernels.cpp, load_as).
std::string convert(DType d, const std::string& v, bool to_bool) {
    std::string f;
    switch (d) {
        case DType::f16:
            f = "burn_half(" + v + ")";
            break;
        case DType::bf16:
            f = "burn_bf16(" + v + ")";
            break;
        case DType::boolean:
            f = "(" + v + " ? 1.0f : 0.0f)";
            break;
        default:
            f = "static_cast<float>(" + v + ")";
            break;
    }
    return to_bool ? "(" + f + " != 0.0f ? 1.0f : 0.0f)" : f;
}

struct Emitter {
    const Program& p;
    const Shape& shape;
    bool text = true;    // false: the argument block only
    std::string fields;  // the Args struct's members
    std::vector<uint64_t> args;
    std::vector<bool> uniform;  // per slot: the same value for every element

    // `decl` makes the member's declaration, called only when the source is wanted: a known kernel's
    // launch builds the argument block alone, with no string work (it runs for every pass).
    template <class Decl>
    void field(const Decl& decl, uint64_t value) {
        if (text) fields += "    " + std::string(decl()) + ";\n";
        args.push_back(value);
    }
    template <class Decl>
    void field_ptr(const Decl& decl, const void* ptr) {
        uint64_t v = 0;
        std::memcpy(&v, &ptr, sizeof(ptr));
        field(decl, v);
    }
    template <class Name>
    void field_double(const Name& name, double d) {
        uint64_t v = 0;
        std::memcpy(&v, &d, sizeof(d));
        field([&] { return "double " + std::string(name()); }, v);
    }

    /// slot s's value at lane k (vec4) or at the element (scalar body: k empty)
    std::string at(int s, const std::string& k) const {
        const std::string r = "r" + std::to_string(s);
        return uniform[static_cast<std::size_t>(s)] || k.empty() ? r : r + "[" + k + "]";
    }

    std::string expr(int s, const std::string& k) const {
        const Step& st = p.steps[static_cast<std::size_t>(s)];
        auto a = [&](int i) { return at(st.args[i], k); };
        if (st.kind == Step::Kind::to_bool) return "(" + a(0) + " != 0.0f ? 1.0f : 0.0f)";
        const Row& rw = row(st.op);
        const std::string fn = std::string("burn::fn::") + rw.name + "_fn{}";
        const std::string ps = "a.p" + std::to_string(s);
        switch (rw.form) {
            case 'U':
                return fn + "(" + a(0) + ", " + ps + "_0, " + ps + "_1)";
            case 'P':
                return rw.bools ? "(" + fn + "(" + a(0) + " != 0.0f) ? 1.0f : 0.0f)"
                                : "(" + fn + "(" + a(0) + ") ? 1.0f : 0.0f)";
            case 'B':
                return rw.bools ? "(" + fn + "(" + a(0) + " != 0.0f, " + a(1) + " != 0.0f) ? 1.0f : 0.0f)"
                                : fn + "(" + a(0) + ", " + a(1) + ")";
            case 'C':
                return "(" + fn + "(" + a(0) + ", " + a(1) + ") ? 1.0f : 0.0f)";
            case 'T':
                return fn + "(" + a(0) + " != 0.0f, " + a(1) + ", " + a(2) + ")";
        }
        BURN_THROW("[lazy] no CUDA form of ", st.op);
    }
};

}  // namespace

bool has_row(OpId op) {
    return row(op).name != nullptr;
}

std::vector<int64_t> signature(const Program& p, const Shape& shape, const std::vector<Operand>& leaves) {
    auto u = [](auto v) { return static_cast<uint64_t>(v); };
    std::vector<int64_t> sig{p.shape.rank(), shape.vec4, shape.index32, shape.row_threads,
                             static_cast<int64_t>(leaves.size())};
    for (std::size_t l = 0; l < leaves.size(); ++l)
        sig.push_back(
            static_cast<int64_t>(u(shape.reads[l]) | u(leaves[l].dtype) << 8 | u(p.leaves[l].to_bool) << 16));
    for (const Step& st : p.steps)  // slots and leaves below 1024 (a chain is at most 48 ops)
        sig.push_back(static_cast<int64_t>(u(st.kind) | u(st.op) << 8 | u(st.leaf + 1) << 20 |
                                           u(st.args[0] + 1) << 30 | u(st.args[1] + 1) << 40 |
                                           u(st.args[2] + 1) << 50 | u(st.nargs) << 60));
    for (const lazy::Output& o : p.outputs)
        sig.push_back(static_cast<int64_t>(u(o.slot) | u(o.tensor->dtype) << 32));
    return sig;
}

Kernel generate(const Program& p, const Shape& shape, const std::vector<Operand>& leaves,
                const std::vector<void*>& outputs, bool source) {
    BURN_CHECK(leaves.size() == p.leaves.size() && shape.reads.size() == p.leaves.size() &&
                   outputs.size() == p.outputs.size(),
               "[lazy] fused CUDA kernel: operands do not match the program");
    Emitter e{p, shape, source, {}, {}, {}};
    if (source) e.uniform.assign(p.steps.size(), false);
    const int rank = p.shape.rank();
    bool any_strided = false;
    for (Read r : shape.reads) any_strided = any_strided || r == Read::strided;
    BURN_CHECK(!(any_strided && shape.vec4), "[lazy] fused CUDA kernel: vec4 with a strided input");
    const char* idx = shape.index32 ? "unsigned" : "long long";

    const bool reduce = shape.row_threads > 0;
    BURN_CHECK(!(reduce && shape.vec4), "[lazy] fused CUDA kernel: vec4 with a reduction tail");
    e.args.reserve(8 + 2 * p.leaves.size() + p.outputs.size() + 2 * p.steps.size());
    e.field([] { return "long long n"; }, static_cast<uint64_t>(p.shape.numel()));
    if (reduce) e.field([] { return "long long row"; }, static_cast<uint64_t>(p.shape[rank - 1]));
    if (any_strided)
        for (int d = 0; d < rank; ++d)
            e.field([&] { return "long long d" + std::to_string(d); }, static_cast<uint64_t>(p.shape[d]));
    for (std::size_t l = 0; l < leaves.size(); ++l) {
        auto name = [&] { return "in" + std::to_string(l); };
        e.field_ptr([&] { return std::string("const ") + c_type(leaves[l].dtype) + "* " + name(); },
                    leaves[l].data);
        if (shape.reads[l] == Read::strided)
            for (int d = 0; d < rank; ++d)
                e.field([&] { return "long long " + name() + "_s" + std::to_string(d); },
                        static_cast<uint64_t>(leaves[l].strides[d]));
    }
    for (std::size_t o = 0; o < outputs.size(); ++o)
        e.field_ptr(
            [&] {
                return std::string(p.outputs[o].tensor->dtype == DType::boolean ? "bool" : "float") +
                       "* out" + std::to_string(o);
            },
            outputs[o]);
    for (std::size_t s = 0; s < p.steps.size(); ++s) {
        const Step& st = p.steps[s];
        if (st.kind == Step::Kind::constant)
            e.field_double([&] { return "c" + std::to_string(s); }, st.value);
        if (st.kind == Step::Kind::op && row(st.op).form == 'U') {
            e.field_double([&] { return "p" + std::to_string(s) + "_0"; }, st.p0);
            e.field_double([&] { return "p" + std::to_string(s) + "_1"; }, st.p1);
        }
    }
    if (!source) return Kernel{"", std::move(e.args)};
    // uniform slots: constants, scalar inputs, and ops over uniform slots only
    for (std::size_t s = 0; s < p.steps.size(); ++s) {
        const Step& st = p.steps[s];
        bool u =
            st.kind == Step::Kind::constant ||
            (st.kind == Step::Kind::load && shape.reads[static_cast<std::size_t>(st.leaf)] == Read::scalar);
        if (st.kind == Step::Kind::op || st.kind == Step::Kind::to_bool) {
            u = true;
            for (int k = 0; k < st.nargs; ++k) u = u && e.uniform[static_cast<std::size_t>(st.args[k])];
        }
        e.uniform[s] = u;
    }

    std::ostringstream os;
    os << "#include \"backends/common/functors.hpp\"\n"
       << "#include \"burn_fused_support.h\"\n"
       << "struct Args {\n"
       << e.fields << "};\n"
       << "extern \"C\" __global__ void __launch_bounds__(256) " << Kernel::kName << "(const Args a) {\n";
    // the uniform slots, once per thread
    for (std::size_t s = 0; s < p.steps.size(); ++s) {
        if (!e.uniform[s]) continue;
        const Step& st = p.steps[s];
        os << "    const float r" << s << " = ";
        if (st.kind == Step::Kind::constant)
            os << "static_cast<float>(a.c" << s << ")";
        else if (st.kind == Step::Kind::load)
            os << convert(leaves[static_cast<std::size_t>(st.leaf)].dtype,
                          "a.in" + std::to_string(st.leaf) + "[0]",
                          p.leaves[static_cast<std::size_t>(st.leaf)].to_bool);
        else
            os << e.expr(static_cast<int>(s), "");
        os << ";\n";
    }
    if (!reduce)
        os << "    const long long threads = static_cast<long long>(blockDim.x) * gridDim.x;\n"
           << "    const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n";

    // The body for one element i (scalar) or for lanes 4j..4j+3 (vec4).
    auto body = [&](bool vec) {
        const std::string k = vec ? "k" : "";
        const std::string lanes = "        for (int k = 0; k < 4; ++k) ";
        if (!vec && any_strided) {  // the coordinates of element i in the pass's shape
            os << "        " << idx << " rem = static_cast<" << idx << ">(i);\n";
            for (int d = rank - 1; d >= 0; --d) {
                os << "        const " << idx << " x" << d << " = ";
                if (d == 0)
                    os << "rem;\n";
                else
                    os << "rem % static_cast<" << idx << ">(a.d" << d << "); rem /= static_cast<" << idx
                       << ">(a.d" << d << ");\n";
            }
        }
        for (std::size_t s = 0; s < p.steps.size(); ++s) {
            if (e.uniform[s]) continue;
            const Step& st = p.steps[s];
            const std::string r = "r" + std::to_string(s);
            if (st.kind == Step::Kind::load) {
                const auto l = static_cast<std::size_t>(st.leaf);
                const std::string in = "a.in" + std::to_string(l);
                const DType dt = leaves[l].dtype;
                const bool tb = p.leaves[l].to_bool;
                if (vec) {
                    os << "        float " << r << "[4];\n";
                    if (dt == DType::f32 && !tb)
                        os << "        burn_load4(" << r << ", " << in << ", j);\n";
                    else
                        os << "#pragma unroll\n"
                           << lanes << r << "[k] = " << convert(dt, in + "[4 * j + k]", tb) << ";\n";
                } else if (shape.reads[l] == Read::strided) {
                    os << "        const float " << r << " = "
                       << convert(
                              dt,
                              in + "[" +
                                  [&] {
                                      std::string off;
                                      for (int d = 0; d < rank; ++d) {
                                          off += (off.empty() ? "" : " + ") +
                                                 std::string("static_cast<long long>(x") + std::to_string(d) +
                                                 ") * " + in + "_s" + std::to_string(d);
                                      }
                                      return off.empty() ? std::string("0") : off;
                                  }() +
                                  "]",
                              tb)
                       << ";\n";
                } else {
                    os << "        const float " << r << " = " << convert(dt, in + "[i]", tb) << ";\n";
                }
                continue;
            }
            if (vec)
                os << "        float " << r << "[4];\n#pragma unroll\n"
                   << lanes << r << "[k] = " << e.expr(int(s), k) << ";\n";
            else
                os << "        const float " << r << " = " << e.expr(int(s), "") << ";\n";
        }
        for (std::size_t o = 0; o < p.outputs.size(); ++o) {
            const int s = p.outputs[o].slot;
            const std::string out = "a.out" + std::to_string(o);
            const bool is_bool = p.outputs[o].tensor->dtype == DType::boolean;
            if (p.outputs[o].row > 0) {
                os << "        acc" << o << " += " << e.at(s, "") << ";\n";
            } else if (vec && !e.uniform[static_cast<std::size_t>(s)] && !is_bool) {
                os << "        burn_store4(" << out << ", j, r" << s << ");\n";
            } else if (vec) {
                os << "#pragma unroll\n"
                   << lanes << out
                   << "[4 * j + k] = " << (is_bool ? "(" + e.at(s, k) + " != 0.0f)" : e.at(s, k)) << ";\n";
            } else {
                os << "        " << out
                   << "[i] = " << (is_bool ? "(" + e.at(s, "") + " != 0.0f)" : e.at(s, "")) << ";\n";
            }
        }
    };
    if (reduce) {
        // one group of row_threads threads per row: each sums its strided share of the row's elements,
        // then the group adds the shares (warp shuffles, then one partial per warp)
        const int tpr = shape.row_threads;
        std::string accs;
        os << "    constexpr int TPR = " << tpr << ";\n"
           << "    const long long rows = a.n / a.row;\n"
           << "    const int group = threadIdx.x / TPR, lane = threadIdx.x % TPR;\n"
           << "    const long long rowi = static_cast<long long>(blockIdx.x) * (256 / TPR) + group;\n";
        for (std::size_t o = 0; o < p.outputs.size(); ++o)
            if (p.outputs[o].row > 0) os << "    float acc" << o << " = 0.0f;\n";
        os << "    if (rowi < rows) {\n"
           << "    for (long long c = lane; c < a.row; c += TPR) {\n"
           << "        const long long i = rowi * a.row + c;\n";
        body(false);
        os << "    }\n    }\n";
        if (tpr > 32) os << "    __shared__ float part[8][" << p.outputs.size() << "];\n";
        for (std::size_t o = 0; o < p.outputs.size(); ++o) {
            if (p.outputs[o].row == 0) continue;
            const std::string acc = "acc" + std::to_string(o);
            os << "    for (int off = 16; off > 0; off >>= 1) " << acc << " += __shfl_down_sync(0xffffffffu, "
               << acc << ", off);\n";
            if (tpr > 32)
                os << "    if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32][" << o << "] = " << acc
                   << ";\n";
        }
        if (tpr > 32) {
            os << "    __syncthreads();\n";
            for (std::size_t o = 0; o < p.outputs.size(); ++o) {
                if (p.outputs[o].row == 0) continue;
                os << "    if (lane == 0) {\n        acc" << o << " = 0.0f;\n"
                   << "        for (int w = 0; w < TPR / 32; ++w) acc" << o
                   << " += part[group * (TPR / 32) + w][" << o << "];\n    }\n";
            }
        }
        for (std::size_t o = 0; o < p.outputs.size(); ++o)
            if (p.outputs[o].row > 0)
                os << "    if (lane == 0 && rowi < rows) a.out" << o << "[rowi] = acc" << o << ";\n";
    } else if (shape.vec4) {
        os << "    const long long nv = a.n / 4;\n"
           << "    for (long long j = first; j < nv; j += threads) {\n";
        body(true);
        os << "    }\n"
           << "    for (long long i = 4 * nv + first; i < a.n; i += threads) {\n";
        body(false);
        os << "    }\n";
    } else {
        os << "    for (long long i = first; i < a.n; i += threads) {\n";
        body(false);
        os << "    }\n";
    }
    os << "}\n";
    return Kernel{os.str(), std::move(e.args)};
}

}  // namespace burn::cuda::fused
