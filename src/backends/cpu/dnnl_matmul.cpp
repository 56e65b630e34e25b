// bf16 matmul through oneDNN (dnnl_matmul.hpp). One call splits into parts, each (a batch entry, a range
// of rows) run by its own single-threaded oneDNN matmul primitive on burn's threads (as dnnl_conv.cpp's
// convolutions: Debian's oneDNN threads with OpenMP, whose team stays at one thread). Primitives are
// cached by (rows, n, k, operand strides, output dtype); the operands are passed with their strides, so
// a transposed weight view is read in place.
#include "backends/cpu/dnnl_matmul.hpp"

#include "burn/build_config.hpp"

#if defined(BURN_HAVE_DNNL) && BURN_EXCEPTIONS
#include <omp.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dnnl.hpp>
#include <map>
#include <memory>
#include <vector>

#include "platform/env.hpp"
#include "platform/parallel.hpp"
#include "platform/sync.hpp"

namespace burn::cpu {

namespace {

using dnnl::memory;

platform::EnvSwitch g_dnnl_on("BURN_CPU_DNNL", true);
platform::EnvSwitch g_dnnl_matmul("BURN_CPU_DNNL_MATMUL", true);

/// A primitive and its scratchpad's size: each execution passes its own (user mode), because Debian's
/// oneDNN shares a primitive's internal scratchpad between the threads that run it.
struct MatmulPrim {
    dnnl::matmul prim;
    memory::desc scratchpad;
};

struct MatmulState {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    platform::Mutex mu;
    std::map<std::vector<int64_t>, std::shared_ptr<MatmulPrim>> prims;  // null: no kernel
};

/// A 64-byte aligned per-thread buffer of at least `bytes`.
void* matmul_scratch(std::size_t bytes) {
    struct Buf {
        void* p = nullptr;
        std::size_t n = 0;
        ~Buf() { std::free(p); }
    };
    static BURN_THREAD_LOCAL Buf buf;
    if (buf.n < bytes) {
        std::free(buf.p);
        buf.n = (bytes + 63) / 64 * 64;
        buf.p = std::aligned_alloc(64, buf.n);
    }
    return buf.p;
}

MatmulState& matmul_state() {
    static MatmulState* s = new MatmulState();  // lives for the whole process
    return *s;
}

bool cpu_has_avx512_bf16() {
    static const bool has = [] {
        const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
        return isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
    }();
    return has;
}

/// (row stride, column stride) of a rows x cols matrix as oneDNN reads it: a size-1 dim's stride is
/// free, so it is set to the dense value; false for a layout with a zero or negative stride.
bool strides_of(int64_t rows, int64_t cols, int64_t rs, int64_t cs, memory::dims& out) {
    if (rows == 1) rs = cols * std::max<int64_t>(cs, 1);
    if (cols == 1) cs = 1;
    if (rs <= 0 || cs <= 0) return false;
    out = {rs, cs};
    return true;
}

std::shared_ptr<MatmulPrim> matmul_primitive(MatmulState& st, int64_t rows, int64_t n, int64_t k,
                                             const memory::dims& as, const memory::dims& bs,
                                             memory::data_type out) {
    const std::vector<int64_t> key{rows, n, k, as[0], as[1], bs[0], bs[1], static_cast<int64_t>(out)};
    platform::Lock lock(st.mu);
    auto it = st.prims.find(key);
    if (it != st.prims.end()) return it->second;
    std::shared_ptr<MatmulPrim> p;
    try {
        const memory::desc a({rows, k}, memory::data_type::bf16, as), b({k, n}, memory::data_type::bf16, bs),
            c({rows, n}, out, memory::dims{n, 1});
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), attr, st.eng);
        p = std::make_shared<MatmulPrim>(MatmulPrim{dnnl::matmul(pd), pd.scratchpad_desc()});
    } catch (const dnnl::error&) {
        p = nullptr;  // no kernel for this layout: the built-in one runs
    }
    st.prims.emplace(key, p);
    return p;
}

/// Rows per part: the whole matrix when the batch entries alone fill the threads, else about threads /
/// batches parts per matrix of at least 32 rows (oneDNN's bf16 tiles are 16 or 32 rows tall).
int64_t rows_per_part(int64_t m, int64_t batches) {
    const int64_t threads = platform::threads();
    if (batches >= threads) return m;
    const int64_t parts = std::min((threads + batches - 1) / batches, std::max<int64_t>(1, m / 32));
    return (m + parts - 1) / parts;
}

}  // namespace

bool dnnl_bf16_matmul_available() {
    return g_dnnl_on.on() && g_dnnl_matmul.on() && cpu_has_avx512_bf16();
}

void set_dnnl_matmul_enabled(bool on) {
    g_dnnl_matmul.set(on);
}

bool dnnl_bf16_matmul(const CpuTensor& a, const CpuTensor& b, CpuTensor& out, int64_t m, int64_t n, int64_t k,
                      int64_t batches) {
    if (!dnnl_bf16_matmul_available() || a.dtype != DType::bf16 || b.dtype != DType::bf16) return false;
    if (out.dtype != DType::f32 && out.dtype != DType::bf16) return false;
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || m == 0 || n == 0 || k == 0) return false;
    const int r = a.shape.rank();
    memory::dims as, bs;
    if (!strides_of(m, k, a.strides[r - 2], a.strides[r - 1], as) ||
        !strides_of(k, n, b.strides[r - 2], b.strides[r - 1], bs))
        return false;
    const auto ao = matrix_batch_offsets(a, batches), bo = matrix_batch_offsets(b, batches);
    const memory::data_type odt = out.dtype == DType::f32 ? memory::data_type::f32 : memory::data_type::bf16;
    const int64_t rows = rows_per_part(m, batches), parts = (m + rows - 1) / rows;
    MatmulState& st = matmul_state();
    const auto full = matmul_primitive(st, rows, n, k, as, bs, odt);
    const int64_t last_rows = m - (parts - 1) * rows;
    const auto last = last_rows == rows ? full : matmul_primitive(st, last_rows, n, k, as, bs, odt);
    if (!full || !last) return false;
    const memory::desc bd({k, n}, memory::data_type::bf16, bs);
    const auto* abase = static_cast<const uint8_t*>(a.storage->data);
    const auto* bbase = static_cast<const uint8_t*>(b.storage->data);
    auto* obase = static_cast<uint8_t*>(out.raw());
    const int64_t osize = static_cast<int64_t>(size_of(out.dtype));
    platform::parallel_for(batches * parts, 1, [&](int64_t u0, int64_t u1) {
        if (omp_get_max_threads() != 1) omp_set_num_threads(1);
        dnnl::stream strm(st.eng);
        for (int64_t u = u0; u < u1; ++u) {
            const int64_t bi = u / parts, p = u % parts, r0 = p * rows,
                          nr = p + 1 == parts ? last_rows : rows;
            const memory::desc ad({nr, k}, memory::data_type::bf16, as), od({nr, n}, odt, memory::dims{n, 1});
            const auto i = static_cast<std::size_t>(bi);
            memory am(ad, st.eng, const_cast<uint8_t*>(abase + (ao[i] + r0 * as[0]) * 2));
            memory bm(bd, st.eng, const_cast<uint8_t*>(bbase + bo[i] * 2));
            memory om(od, st.eng, obase + (bi * m + r0) * n * osize);
            const MatmulPrim& mp = p + 1 == parts ? *last : *full;
            memory sm(mp.scratchpad, st.eng, matmul_scratch(mp.scratchpad.get_size()));
            mp.prim.execute(
                strm,
                {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, om}, {DNNL_ARG_SCRATCHPAD, sm}});
        }
        strm.wait();
    });
    return true;
}

}  // namespace burn::cpu

#else  // no oneDNN in this build

namespace burn::cpu {
bool dnnl_bf16_matmul(const CpuTensor&, const CpuTensor&, CpuTensor&, int64_t, int64_t, int64_t, int64_t) {
    return false;
}
bool dnnl_bf16_matmul_available() {
    return false;
}
void set_dnnl_matmul_enabled(bool) {}
}  // namespace burn::cpu

#endif
