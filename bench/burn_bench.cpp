// burn-bench: runs the workloads of /work/shared/bench/WORKLOADS.md and prints one JSON line per
// workload, {"workload": NAME, "device": DEV, "median_ms": X, ...}, for compare.py to pair with
// PyTorch's figures. Other output (progress, errors) goes to stderr and never starts with '{'.
//
//   burn-bench [--device cpu|cuda] [--lazy] [--threads N] [--only NAME] [--list]
//
// --lazy (or BURN_BENCH_LAZY=1 in the environment, which compare.py passes through) runs every
// workload on the device's lazy decorator (docs/fusion.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "harness.hpp"

namespace {

struct Args {
    std::string device = "cpu";
    int threads = 0;
    std::string only;
    bool list = false;
    bool breakdown = false;
    bool lazy = false;
};

[[noreturn]] void usage(const char* why) {
    if (why) std::fprintf(stderr, "burn-bench: %s\n", why);
    std::fprintf(
        stderr,
        "usage: burn-bench [--device cpu|cuda] [--lazy] [--threads N] [--only NAME] [--list] [--breakdown]\n"
        "  --device  where to run (default cpu)\n"
        "  --lazy    on the device's lazy decorator (fused elementwise chains; also BURN_BENCH_LAZY=1)\n"
        "  --threads CPU threads; 0 = the library default (all hardware threads)\n"
        "  --only    run one workload (see --list)\n"
        "  --list    print the implemented workloads and exit\n"
        "  --breakdown  also time the training steps by phase (forward, backward, optimizer)\n");
    std::exit(why ? 2 : 0);
}

Args parse(int argc, char** argv) {
    Args a;
    if (const char* e = std::getenv("BURN_BENCH_LAZY")) a.lazy = std::strcmp(e, "1") == 0;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        std::string value;
        bool has_value = false;
        if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            has_value = true;
        }
        auto next = [&]() -> std::string {
            if (has_value) return value;
            if (i + 1 >= argc) usage((arg + " needs a value").c_str());
            return argv[++i];
        };
        if (arg == "--device") {
            a.device = next();
        } else if (arg == "--threads") {
            std::string v = next();
            char* end = nullptr;
            long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || n < 0)
                usage(("--threads needs a count >= 0, got '" + v + "'").c_str());
            a.threads = static_cast<int>(n);
        } else if (arg == "--only") {
            a.only = next();
        } else if (arg == "--lazy") {
            a.lazy = true;
        } else if (arg == "--breakdown") {
            a.breakdown = true;
        } else if (arg == "--list") {
            a.list = true;
        } else if (arg == "--help" || arg == "-h") {
            usage(nullptr);
        } else {
            usage(("unknown argument '" + arg + "'").c_str());
        }
    }
    if (a.device != "cpu" && a.device != "cuda")
        usage(("--device must be cpu or cuda, got '" + a.device + "'").c_str());
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    Args args = parse(argc, argv);
    std::vector<bench::Workload> table = bench::all_workloads();

    if (args.list) {
        for (const auto& w : table) std::printf("%s\n", w.name.c_str());
        return 0;
    }
    if (!args.only.empty()) {
        bool in_table =
            std::any_of(table.begin(), table.end(), [&](const auto& w) { return w.name == args.only; });
        const auto& known = bench::contract_names();
        if (!in_table && std::find(known.begin(), known.end(), args.only) == known.end())
            usage(("no workload named '" + args.only + "' (see --list)").c_str());
        if (!in_table) {
            std::fprintf(stderr, "burn-bench: %s is not implemented yet\n", args.only.c_str());
            return 0;
        }
    }

    bench::Context ctx;
    ctx.gpu = args.device == "cuda";
    try {
        ctx.device = ctx.gpu ? burn::Device::cuda(0) : burn::Device::cpu();
        if (args.lazy) ctx.device = ctx.device.lazy();
    } catch (const burn::Error& e) {
        std::fprintf(stderr, "burn-bench: error: device '%s' is not available: %s\n", args.device.c_str(),
                     e.what());
        return 3;
    }
    if (args.threads > 0) burn::set_num_threads(args.threads);
    const int threads = burn::num_threads();
    std::fprintf(stderr, "burn-bench: device %s, %d CPU thread(s)\n", ctx.device.str().c_str(), threads);

    int failed = 0;
    for (const auto& w : table) {
        if (!args.only.empty() && w.name != args.only) continue;
        try {
            ctx.device.seed(0);
            std::optional<bench::Case> c = w.make(ctx);
            if (!c) continue;  // no variant of this workload on this device
            double ms = bench::time_median_ms(*c, ctx.device, w.warmup, w.reps);
            std::string extra = c->extra ? c->extra(ms) : std::string();
            std::printf("%s\n",
                        bench::json_line(w.name, args.device, threads, ms, c->units, c->unit, extra).c_str());
            std::fflush(stdout);
            if (args.breakdown) bench::print_breakdown(w.name, *c, ctx.device, w.warmup, w.reps);
        } catch (const burn::Error& e) {
            // A workload whose ops are missing or failing is skipped (compare.py lists it as missing).
            std::fprintf(stderr, "burn-bench: %s failed: %s\n", w.name.c_str(), e.what());
            ++failed;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "burn-bench: %s failed (%s)\n", w.name.c_str(), e.what());
            ++failed;
        }
    }
    if (failed) std::fprintf(stderr, "burn-bench: %d workload(s) failed\n", failed);
    return 0;
}
