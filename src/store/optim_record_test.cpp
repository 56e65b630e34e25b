// Optimizer and scheduler state through Burnpack files, and parameter ids restored by load_from:
// train 3 steps, save model + optimizer + scheduler, load all three into fresh objects (a model with
// other values and other ids), and the 4th step is bit-identical to the uninterrupted run, for every
// optimizer and every scheduler.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <burn/burn.hpp>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace burn;

namespace {

struct Net {
    nn::Linear a;
    nn::Linear b;
    BURN_MODULE(Net, a, b)

    Tensor<2> forward(const Tensor<2>& x) const { return b.forward(activation::relu(a.forward(x))); }
};

Net make_net(uint64_t seed, const Device& device) {
    device.seed(seed);
    return Net{nn::LinearConfig{4, 6}.init(device), nn::LinearConfig{6, 3}.init(device)};
}

std::vector<std::vector<float>> values_of(const Net& m) {
    std::vector<std::vector<float>> out;
    module::visit_params(m, [&](const std::string&, const auto& p) {
        out.push_back(p.val().into_data().template to_vec<float>());
    });
    return out;
}

Net train_step(Net m, optim::Optimizer& opt, optim::LrScheduler& sched, int k) {
    auto dev = m.a.weight.val().device();
    // A different batch each step so the state matters.
    std::vector<float> xs, ys;
    for (int i = 0; i < 5 * 4; ++i) xs.push_back(static_cast<float>(std::sin(0.7 * i + k)));
    for (int i = 0; i < 5 * 3; ++i) ys.push_back(static_cast<float>(std::cos(0.3 * i - k)));
    auto x = Tensor<2>::from_data(TensorData(xs, Dims{5, 4}), dev);
    auto y = Tensor<2>::from_data(TensorData(ys, Dims{5, 3}), dev);
    auto loss = nn::loss::MseLoss{}.forward(m.forward(x), y, nn::loss::Reduction::Mean);
    auto grads = optim::GradientsParams::from_grads(loss.backward(), m);
    return opt.step(sched.step(), std::move(m), grads);
}

std::filesystem::path temp_file(const std::string& stem) {
    static std::atomic<int> n{0};
    return std::filesystem::temp_directory_path() /
           (stem + "_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + ".bpk");
}

struct Named {
    std::string name;
    std::function<optim::Optimizer()> make;
};

std::vector<Named> optimizers() {
    return {
        {"sgd_momentum", [] { return optim::SgdConfig{}.with_momentum(0.9).with_nesterov(true).init(); }},
        {"sgd_dampening", [] { return optim::SgdConfig{}.with_momentum(0.8).with_dampening(0.3).init(); }},
        {"adam", [] { return optim::AdamConfig{}.init(); }},
        {"adamw_amsgrad", [] { return optim::AdamWConfig{}.with_amsgrad(true).init(); }},
        {"rmsprop", [] { return optim::RmsPropConfig{}.with_centered(true).with_momentum(0.5).init(); }},
        {"adagrad", [] { return optim::AdaGradConfig{}.with_lr_decay(0.01).init(); }},
        {"lion", [] { return optim::LionConfig{}.init(); }},
    };
}

struct NamedSched {
    std::string name;
    std::function<optim::LrSchedulerAny()> make;
};

std::vector<NamedSched> schedulers() {
    return {
        {"constant", [] { return optim::LrSchedulerAny(0.05); }},
        {"linear",
         [] {
             return optim::LrSchedulerAny(optim::LinearLrSchedulerConfig{0.1, 0.01, 5}.init());
         }},
        {"cosine",
         [] {
             return optim::LrSchedulerAny(optim::CosineAnnealingLrSchedulerConfig{0.1, 2}.init());
         }},
        {"exponential",
         [] {
             return optim::LrSchedulerAny(optim::ExponentialLrSchedulerConfig{0.1, 0.7}.init());
         }},
        {"step",
         [] {
             return optim::LrSchedulerAny(optim::StepLrSchedulerConfig{0.1, 2, 0.5}.init());
         }},
        {"noam",
         [] {
             return optim::LrSchedulerAny(optim::NoamLrSchedulerConfig{0.5, 2, 16}.init());
         }},
        {"sequential",
         [] {
             return optim::LrSchedulerAny(optim::SequentialLrScheduler(
                 {optim::LinearLrSchedulerConfig{0.01, 0.1, 2}.init(),
                  optim::CosineAnnealingLrSchedulerConfig{0.1, 3}.with_restarts(false).init()},
                 {2}));
         }},
    };
}

/// 4 straight steps vs 3 steps + save + load into fresh objects + 1 step.
void check_resume(const Named& o, const NamedSched& s) {
    SCOPED_TRACE(o.name + " / " + s.name);
    auto dev = Device().autodiff();
    Net straight = make_net(21, dev);
    auto opt1 = o.make();
    auto sch1 = s.make();
    for (int k = 0; k < 4; ++k) straight = train_step(std::move(straight), opt1, sch1, k);

    Net run = make_net(21, dev);
    auto opt2 = o.make();
    auto sch2 = s.make();
    for (int k = 0; k < 3; ++k) run = train_step(std::move(run), opt2, sch2, k);
    auto model_path = temp_file("burn_model"), optim_path = temp_file("burn_optim"),
         sched_path = temp_file("burn_sched");
    {
        store::BurnpackStore m(model_path), op(optim_path), sc(sched_path);
        run.save_into(m);
        store::save_optimizer(op, opt2);
        store::save_scheduler(sc, sch2);
    }

    Net fresh = make_net(99, dev);  // other values, other ids
    EXPECT_NE(fresh.a.weight.id(), run.a.weight.id());
    auto opt3 = o.make();
    auto sch3 = s.make();
    store::BurnpackStore m(model_path), op(optim_path), sc(sched_path);
    ASSERT_TRUE(fresh.load_from(m).is_success());
    EXPECT_EQ(fresh.a.weight.id(), run.a.weight.id()) << "load_from restores the saved ParamIds";
    EXPECT_EQ(fresh.b.bias->id(), run.b.bias->id());
    store::load_optimizer(op, opt3);
    store::load_scheduler(sc, sch3);
    EXPECT_EQ(opt3.states().size(), opt2.states().size());
    fresh = train_step(std::move(fresh), opt3, sch3, 3);
    EXPECT_EQ(values_of(fresh), values_of(straight)) << "the resumed 4th step must be bit-identical";
    EXPECT_EQ(sch3.to_record().scalars, sch1.to_record().scalars);
    for (const auto& p : {model_path, optim_path, sched_path}) std::filesystem::remove(p);
}

TEST(OptimRecordStore, ResumeThroughBurnpackIsBitIdenticalForEveryOptimizer) {
    for (const auto& o : optimizers()) check_resume(o, schedulers()[1]);
}

TEST(OptimRecordStore, ResumeThroughBurnpackIsBitIdenticalForEveryScheduler) {
    for (const auto& s : schedulers()) check_resume(optimizers()[2], s);
}

TEST(OptimRecordStore, RecordsRoundTripExactlyInMemory) {
    auto dev = Device().autodiff();
    for (const auto& o : optimizers()) {
        SCOPED_TRACE(o.name);
        Net net = make_net(5, dev);
        auto opt = o.make();
        optim::LrSchedulerAny lr(0.01);
        for (int k = 0; k < 2; ++k) net = train_step(std::move(net), opt, lr, k);
        auto mem = store::BurnpackStore::in_memory();
        store::save_optimizer(mem, opt);
        auto back = store::BurnpackStore::from_bytes(mem.bytes());
        auto opt2 = o.make();
        store::load_optimizer(back, opt2);
        auto a = opt.to_record(), b = opt2.to_record();
        EXPECT_EQ(a.scalars, b.scalars);
        ASSERT_EQ(a.tensors.size(), b.tensors.size());
        EXPECT_FALSE(a.tensors.empty());
        for (const auto& [k, t] : a.tensors) {
            ASSERT_TRUE(b.tensors.count(k)) << k;
            EXPECT_EQ(ops::into_data(t), ops::into_data(b.tensors.at(k))) << k;
        }
    }
}

TEST(OptimRecordStore, WrongKindOfRecordIsAnErrorAndChangesNothing) {
    auto dev = Device().autodiff();
    Net net = make_net(5, dev);
    auto adam = optim::AdamConfig{}.init();
    optim::LrSchedulerAny lr(0.01);
    net = train_step(std::move(net), adam, lr, 0);
    auto mem = store::BurnpackStore::in_memory();
    store::save_optimizer(mem, adam);
    auto sgd = optim::SgdConfig{}.with_momentum(0.9).init();
    try {
        store::load_optimizer(mem, sgd);
        ADD_FAILURE() << "Adam state loaded into SGD";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[load_optimizer]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(adam.rule().name()), std::string::npos) << e.what();
    }
    EXPECT_TRUE(sgd.states().empty());
    // A model file is not an optimizer record; an optimizer record is not a scheduler record.
    auto model_mem = store::BurnpackStore::in_memory();
    net.save_into(model_mem);
    EXPECT_THROW(store::load_optimizer(model_mem, adam), Error);
    auto sched = optim::LrSchedulerAny(optim::StepLrSchedulerConfig{0.1, 2, 0.5}.init());
    EXPECT_THROW(store::load_scheduler(mem, sched), Error);
    auto sched_mem = store::BurnpackStore::in_memory();
    store::save_scheduler(sched_mem, sched);
    auto other = optim::LrSchedulerAny(optim::ExponentialLrSchedulerConfig{0.1, 0.5}.init());
    EXPECT_THROW(store::load_scheduler(sched_mem, other), Error);
}

TEST(OptimRecordStore, FormatsWithoutIdsKeepTheModulesIds) {
    // SafeTensors files carry no ids: load_from leaves the module's ids alone.
    auto dev = Device();
    Net a = make_net(1, dev), b = make_net(2, dev);
    auto path =
        std::filesystem::temp_directory_path() / ("burn_ids_" + std::to_string(::getpid()) + ".safetensors");
    store::SafetensorsStore out(path);
    a.save_into(out);
    auto before = b.a.weight.id();
    store::SafetensorsStore in(path);
    ASSERT_TRUE(b.load_from(in).is_success());
    EXPECT_EQ(b.a.weight.id(), before);
    EXPECT_EQ(values_of(b), values_of(a));
    std::filesystem::remove(path);
}

}  // namespace
