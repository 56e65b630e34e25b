// libFuzzer target: the restricted unpickler alone (store/pickle.hpp) on raw pickle streams: every
// opcode, the memo, globals (refused unless allow-listed), persistent ids, the arena. The pytorch
// target reaches it through whole files; this one starts at the first opcode.
#include <cstddef>
#include <cstdint>

#include "burn/core/error.hpp"
#include "store/pickle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    limits.max_tensors = 10000;
    try {
        auto u = burn::store::pickle::unpickle(data, size, limits);
        // Touch every value the arena holds (items point into it).
        std::size_t n = 0;
        for (const auto& v : u.arena) n += v->items.size() + v->s.size();
        if (u.consumed > size) __builtin_trap();
        (void)n;
    } catch (const burn::Error&) {
    }
    return 0;
}
