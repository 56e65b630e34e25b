// burnpack-inspect: lists what a Burnpack file holds (tensors with dtype, shape, elements, bytes and
// parameter id; totals; scalars; metadata). burn's burnpack_inspect example, as a tool.
//   burnpack-inspect model.bpk
#include <burn/core/error.hpp>
#include <burn/store/burnpack_inspect.hpp>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2 || argv[1][0] == '-') {
        std::fprintf(stderr,
                     "usage: burnpack-inspect MODEL.bpk\n  lists the tensors, scalars and metadata\n");
        return 2;
    }
    try {
        burn::store::BurnpackStore store(argv[1]);
        std::fputs(burn::store::burnpack_inspect(store).c_str(), stdout);
    } catch (const burn::Error& e) {
        std::fprintf(stderr, "burnpack-inspect: %s\n", e.what());
        return 1;
    }
    return 0;
}
