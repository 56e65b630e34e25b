// Learning-rate schedulers against torch.optim.lr_scheduler over 100 epochs (fixtures made by
// scripts/gen_optim_fixtures.py), state round trips, composition and bad settings.
#include "burn/optim/lr_scheduler.hpp"

#include "burn/optim/lr_scheduler_cyclic.hpp"
#include "burn/optim/lr_scheduler_plateau.hpp"
#include "optim_test_util.hpp"

namespace burn::optim_test {
namespace {

using optim::LrSchedulerAny;

LrSchedulerAny make_scheduler(const std::string& kind, const config::Value& cfg) {
    if (kind == "linear") return optim::LinearLrSchedulerConfig::from_json(cfg).init();
    if (kind == "cosine") return optim::CosineAnnealingLrSchedulerConfig::from_json(cfg).init();
    if (kind == "exponential") return optim::ExponentialLrSchedulerConfig::from_json(cfg).init();
    if (kind == "step") return optim::StepLrSchedulerConfig::from_json(cfg).init();
    if (kind == "noam") return optim::NoamLrSchedulerConfig::from_json(cfg).init();
    if (kind == "one_cycle") return optim::OneCycleLrSchedulerConfig::from_json(cfg).init();
    if (kind == "cyclic") return optim::CyclicLrSchedulerConfig::from_json(cfg).init();
    if (kind == "chained_linear_exponential")
        return optim::ChainedLrScheduler(
            {optim::LinearLrSchedulerConfig::from_json(cfg.at("factor")).init(),
             optim::ExponentialLrSchedulerConfig::from_json(cfg.at("base")).init()});
    if (kind == "chained_step_exponential")
        return optim::ChainedLrScheduler(
            {optim::StepLrSchedulerConfig::from_json(cfg.at("factor")).init(),
             optim::ExponentialLrSchedulerConfig::from_json(cfg.at("base")).init()});
    std::size_t milestone = cfg.at("milestone").as_uint64();
    LrSchedulerAny warmup = optim::LinearLrSchedulerConfig::from_json(cfg.at("warmup")).init();
    if (kind == "sequential_linear_cosine")
        return optim::SequentialLrScheduler(
            {warmup, optim::CosineAnnealingLrSchedulerConfig::from_json(cfg.at("decay")).init()},
            {milestone});
    EXPECT_EQ(kind, "sequential_linear_exponential");
    return optim::SequentialLrScheduler(
        {warmup, optim::ExponentialLrSchedulerConfig::from_json(cfg.at("decay")).init()}, {milestone});
}

TEST(LrScheduler, EveryScheduleMatchesTorchOver100Steps) {
    auto fixture = load_fixture("schedulers.json");
    const auto& cases = fixture.at("cases");
    ASSERT_EQ(cases.size(), 23u);
    int with_momentum = 0;
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
        if (c.at("kind").as_string() == "plateau") continue;  // LrScheduler, PlateauMatchesTorch
        auto s = make_scheduler(c.at("kind").as_string(), c.at("config"));
        auto want = doubles(c.at("lrs"));
        ASSERT_EQ(want.size(), 100u);
        const bool cycles =
            c.find("momentums") != nullptr;  // torch's cycle_momentum: the momentum of each step
        std::vector<double> got, momentum;
        for (std::size_t k = 0; k < want.size(); ++k) {
            got.push_back(s.step());
            const std::optional<double> m = s.momentum();
            ASSERT_EQ(m.has_value(), cycles) << "step " << k;
            if (m) momentum.push_back(*m);
        }
        // torch updates most schedules recursively (lr *= factor); ours are closed forms.
        expect_close(got, want, 1e-12, 1e-15, c.at("name").as_string());
        if (cycles) {
            expect_close(momentum, doubles(c.at("momentums")), 1e-12, 1e-15,
                         c.at("name").as_string() + " momentum");
            ++with_momentum;
        }
    }
    EXPECT_EQ(with_momentum, 4);
}

TEST(LrScheduler, RecordRoundTripContinuesIdentically) {
    auto fixture = load_fixture("schedulers.json");
    const auto& cases = fixture.at("cases");
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
        if (c.at("kind").as_string() == "plateau") continue;
        auto straight = make_scheduler(c.at("kind").as_string(), c.at("config"));
        auto first = make_scheduler(c.at("kind").as_string(), c.at("config"));
        std::vector<double> a, b;
        for (int k = 0; k < 100; ++k) a.push_back(straight.step());
        for (int k = 0; k < 37; ++k) b.push_back(first.step());
        auto record = first.to_record();
        auto second = make_scheduler(c.at("kind").as_string(), c.at("config"));
        second.load_record(record);
        for (int k = 37; k < 100; ++k) b.push_back(second.step());
        EXPECT_EQ(a, b);
        EXPECT_EQ(straight.to_record().scalars, second.to_record().scalars);
    }
}

TEST(LrScheduler, PlainDoubleIsAConstantSchedule) {
    LrSchedulerAny s = 0.003;
    for (int k = 0; k < 5; ++k) EXPECT_EQ(s.step(), 0.003);
    EXPECT_STREQ(s.name(), "ConstantLr");
    auto take = [](LrSchedulerAny sched) { return sched.step(); };
    EXPECT_EQ(take(1e-3), 1e-3);
    EXPECT_EQ(take(optim::ExponentialLrSchedulerConfig{0.5, 0.5}.init()), 0.5);
    // Copies are independent.
    LrSchedulerAny e = optim::ExponentialLrSchedulerConfig{1.0, 0.5}.init();
    e.step();
    LrSchedulerAny copy = e;
    EXPECT_EQ(e.step(), 0.5);
    EXPECT_EQ(copy.step(), 0.5);
    EXPECT_EQ(copy.step(), 0.25);
}

TEST(LrScheduler, SemanticsAtTheEdges) {
    auto linear = optim::LinearLrSchedulerConfig{0.2, 0.5, 3}.init();
    std::vector<double> got;
    for (int k = 0; k < 5; ++k) got.push_back(linear.step());
    expect_close(got, {0.2, 0.3, 0.4, 0.5, 0.5}, 1e-15, 0, "linear");  // burn's documented example
    auto cosine = optim::CosineAnnealingLrSchedulerConfig{1.0, 4}.with_restarts(false).init();
    EXPECT_EQ(cosine.lr_at(4), 0.0);
    EXPECT_EQ(cosine.lr_at(1000), 0.0) << "without restarts the schedule stays at min_lr";
    auto sgdr = optim::CosineAnnealingLrSchedulerConfig{1.0, 4}.init();
    EXPECT_EQ(sgdr.lr_at(4), 1.0) << "a warm restart";
    auto step = optim::StepLrSchedulerConfig{1.0, 2}.init();  // burn's default gamma 0.1
    EXPECT_EQ(step.lr_at(3), 0.1);
    auto noam = optim::NoamLrSchedulerConfig{1.0}.with_warmup_steps(4).with_model_size(16).init();
    EXPECT_DOUBLE_EQ(noam.step(), 0.25 * 1.0 / 8.0) << "n = 1: n * warmup^-1.5";
    EXPECT_EQ(noam.iteration(), 1u);
}

TEST(LrScheduler, BadSettingsAndRecordsThrow) {
    EXPECT_THROW((optim::LinearLrSchedulerConfig{0.1, 0.2, 0}.init()), Error);
    EXPECT_THROW((optim::LinearLrSchedulerConfig{std::nan(""), 0.2, 5}.init()), Error);
    EXPECT_THROW((optim::ExponentialLrSchedulerConfig{0.1, 1.5}.init()), Error);
    EXPECT_THROW((optim::ExponentialLrSchedulerConfig{0.1, 0.0}.init()), Error);
    EXPECT_THROW((optim::CosineAnnealingLrSchedulerConfig{0.1, 10}.with_period_mult(0).init()), Error);
    EXPECT_THROW((optim::StepLrSchedulerConfig{0.1, 0}.init()), Error);
    EXPECT_THROW((optim::NoamLrSchedulerConfig{1.0}.with_warmup_steps(0).init()), Error);
    EXPECT_THROW(LrSchedulerAny(-0.1), Error);
    EXPECT_THROW((optim::SequentialLrScheduler({0.1, 0.2}, {})), Error);
    EXPECT_THROW((optim::SequentialLrScheduler({0.1, 0.2, 0.3}, {5, 5})), Error);

    auto s = optim::ExponentialLrSchedulerConfig{1.0, 0.5}.init();
    EXPECT_THROW(s.load_record({{{"iteration", 1.5}}}), Error);
    EXPECT_THROW(s.load_record({{{"step", 1.0}}}), Error);
    optim::SequentialLrScheduler seq({0.1, 0.2}, {3});
    seq.step();
    auto good = seq.to_record();
    EXPECT_EQ(good.scalars,
              (std::map<std::string, double>{{"iteration", 1}, {"0.iteration", 1}, {"1.iteration", 0}}));
    auto bad = good;
    bad.scalars["7.iteration"] = 0;
    EXPECT_THROW(seq.load_record(bad), Error);
    bad = good;
    bad.scalars["1.iteration"] = -1;
    EXPECT_THROW(seq.load_record(bad), Error);
    EXPECT_EQ(seq.to_record().scalars, good.scalars) << "a rejected record leaves the state as it was";
}

// ReduceLROnPlateau: lrs[k] is the rate during epoch k, read before observe(metrics[k]).
TEST(LrScheduler, PlateauMatchesTorch) {
    auto fixture = load_fixture("schedulers.json");
    const auto& cases = fixture.at("cases");
    std::size_t seen = 0;
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        if (c.at("kind").as_string() != "plateau") continue;
        ++seen;
        SCOPED_TRACE(c.at("name").as_string());
        auto config = optim::ReduceLrOnPlateauConfig::from_json(c.at("config"));
        optim::ReduceLrOnPlateau straight(config), first(config), second(config);
        auto metrics = doubles(c.at("metrics"));
        std::vector<double> got, resumed;
        for (std::size_t k = 0; k < metrics.size(); ++k) {
            got.push_back(straight.step());
            EXPECT_EQ(straight.step(), got.back()) << "step() does not change the rate";
            straight.observe(metrics[k]);
        }
        expect_close(got, doubles(c.at("lrs")), 1e-12, 1e-15, c.at("name").as_string());
        EXPECT_LT(got.back(), got.front()) << "the case must reduce the rate";
        // A record taken mid-run continues identically.
        for (std::size_t k = 0; k < 45; ++k) resumed.push_back(first.step()), first.observe(metrics[k]);
        second.load_record(first.to_record());
        for (std::size_t k = 45; k < metrics.size(); ++k)
            resumed.push_back(second.step()), second.observe(metrics[k]);
        EXPECT_EQ(resumed, got);
        EXPECT_EQ(second.to_record().scalars, straight.to_record().scalars);
    }
    EXPECT_EQ(seen, 2u);
}

TEST(LrScheduler, CyclicAndPlateauSemanticsAndBadSettings) {
    // One cycle: the peak is max_lr at the end of the warm-up; past total_steps it throws, as torch.
    auto one = optim::OneCycleLrSchedulerConfig{0.1, 10}.with_pct_start(0.5).init();
    EXPECT_DOUBLE_EQ(one.lr_at(0), 0.1 / 25);
    EXPECT_DOUBLE_EQ(one.lr_at(4), 0.1);
    EXPECT_DOUBLE_EQ(one.lr_at(9), 0.1 / 25 / 1e4);
    EXPECT_THROW((void)one.lr_at(10), Error);
    EXPECT_THROW((optim::OneCycleLrSchedulerConfig{0.1, 0}.init()), Error);
    EXPECT_THROW((optim::OneCycleLrSchedulerConfig{0.1, 10}.with_pct_start(1.5).init()), Error);
    // Cyclic triangular: a triangle wave between base and max.
    auto tri = optim::CyclicLrSchedulerConfig{0.0, 1.0, 2}.init();
    std::vector<double> got;
    for (std::size_t i = 0; i < 6; ++i) got.push_back(tri.lr_at(i));
    expect_close(got, {0.0, 0.5, 1.0, 0.5, 0.0, 0.5}, 1e-15, 1e-15, "triangle");
    EXPECT_THROW((optim::CyclicLrSchedulerConfig{0.1, 1.0, 0}.init()), Error);
    EXPECT_THROW((optim::CyclicLrSchedulerConfig{0.1, 1.0, 2}.with_gamma(0.0).init()), Error);
    // Chained: the product, each part advancing.
    optim::ChainedLrScheduler chained({optim::ExponentialLrSchedulerConfig{2.0, 0.5}.init(), 0.25});
    EXPECT_EQ(chained.step(), 0.5);
    EXPECT_EQ(chained.step(), 0.25);
    EXPECT_EQ(chained.to_record().scalars,
              (std::map<std::string, double>{{"0.iteration", 2}, {"1.iteration", 2}}));
    EXPECT_THROW(chained.load_record({{{"iteration", 1}}}), Error);
    EXPECT_THROW((optim::ChainedLrScheduler({})), Error);
    // Plateau: patience 1 in mode min (abs threshold 0): a second epoch without improvement reduces.
    optim::ReduceLrOnPlateau p(
        optim::ReduceLrOnPlateauConfig{1.0}.with_patience(1).with_threshold(0.0).with_factor(0.5));
    for (double m : {3.0, 2.0, 2.0}) p.observe(m);
    EXPECT_EQ(p.step(), 1.0);
    p.observe(2.5);
    EXPECT_EQ(p.step(), 0.5);
    EXPECT_EQ(p.best(), 2.0);
    EXPECT_THROW(p.observe(std::nan("")), Error);
    EXPECT_THROW((optim::ReduceLrOnPlateau(optim::ReduceLrOnPlateauConfig{1.0}.with_factor(1.0))), Error);
    EXPECT_THROW(p.load_record({{{"lr", 0.1}}}), Error);
    EXPECT_EQ(p.step(), 0.5) << "a rejected record leaves the state as it was";
}

TEST(LrScheduler, ComposedAveragesSumsOrMultipliesTheRates) {
    // Exponential(2, 0.5) gives 2, 1, 0.5; Exponential(1, 0.1) gives 1, 0.1, 0.01; the constant 0.25.
    auto make = [](optim::LrReduction r) {
        return optim::ComposedLrScheduler({optim::ExponentialLrSchedulerConfig{2.0, 0.5}.init(),
                                           optim::ExponentialLrSchedulerConfig{1.0, 0.1}.init(), 0.25},
                                          r);
    };
    auto avg = make(optim::LrReduction::avg), sum = make(optim::LrReduction::sum);
    auto prod = make(optim::LrReduction::prod);
    EXPECT_DOUBLE_EQ(avg.step(), (2 + 1 + 0.25) / 3);
    EXPECT_DOUBLE_EQ(avg.step(), (1 + 0.1 + 0.25) / 3);
    EXPECT_DOUBLE_EQ(sum.step(), 3.25);
    EXPECT_DOUBLE_EQ(sum.step(), 1.35);
    EXPECT_DOUBLE_EQ(prod.step(), 0.5);
    EXPECT_DOUBLE_EQ(prod.step(), 0.025);
    // The state round-trips: a fresh one loaded from the record continues identically.
    auto resumed = make(optim::LrReduction::avg);
    resumed.load_record(avg.to_record());
    EXPECT_EQ(resumed.reduction(), optim::LrReduction::avg);
    EXPECT_DOUBLE_EQ(resumed.step(), avg.step());
    EXPECT_DOUBLE_EQ(resumed.step(), (0.25 + 0.001 + 0.25) / 3);
}

}  // namespace
}  // namespace burn::optim_test
