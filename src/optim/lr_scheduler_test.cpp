// Learning-rate schedulers against torch.optim.lr_scheduler over 100 epochs (fixtures made by
// scripts/gen_optim_fixtures.py), state round trips, composition and bad settings.
#include "burn/optim/lr_scheduler.hpp"

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
    ASSERT_EQ(cases.size(), 10u);
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
        auto s = make_scheduler(c.at("kind").as_string(), c.at("config"));
        auto want = doubles(c.at("lrs"));
        ASSERT_EQ(want.size(), 100u);
        std::vector<double> got;
        for (std::size_t k = 0; k < want.size(); ++k) got.push_back(s.step());
        // torch updates most schedules recursively (lr *= factor); ours are closed forms.
        expect_close(got, want, 1e-12, 1e-15, c.at("name").as_string());
    }
}

TEST(LrScheduler, RecordRoundTripContinuesIdentically) {
    auto fixture = load_fixture("schedulers.json");
    const auto& cases = fixture.at("cases");
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
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

}  // namespace
}  // namespace burn::optim_test
