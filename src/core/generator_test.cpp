// Generator and GeneratorScope: a thread's own random stream, in front of the device's shared one.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

namespace {

std::vector<float> draw(std::size_t n) {
    return Tensor<1>::random({n}, Distribution::Default, Device::cpu()).into_data().to_vec<float>();
}

}  // namespace

TEST(Generator, SeedRestartsTheStream) {
    Generator g(7);
    EXPECT_EQ(g.initial_seed(), 7u);
    auto first = g.reserve(10);
    auto second = g.reserve(5);
    EXPECT_EQ(first.key, 7u);
    EXPECT_EQ(first.offset, 0u);
    EXPECT_EQ(second.offset, 10u);
    g.seed(9);
    EXPECT_EQ(g.reserve(1).offset, 0u);
    EXPECT_EQ(g.initial_seed(), 9u);
    Generator copy = g;  // a handle: copies share the stream
    copy.reserve(3);
    EXPECT_EQ(g.reserve(1).offset, 4u);
}

TEST(Generator, ScopeTakesPrecedenceOverTheDeviceStream) {
    std::vector<float> a, b;
    {
        GeneratorScope scope(Generator(5));
        a = draw(64);
        Device::cpu().seed(1234);  // the device's stream is not the scope's
        auto a2 = draw(64);
        EXPECT_NE(a, a2);  // the scope's stream moved on
    }
    {
        GeneratorScope scope(Generator(5));
        b = draw(64);
    }
    EXPECT_EQ(a, b);

    // Outside any scope the device's stream is used, untouched by what scopes drew.
    Device::cpu().seed(3);
    auto c = draw(32);
    Device::cpu().seed(3);
    {
        GeneratorScope scope(Generator(8));
        (void)draw(100);
        {
            GeneratorScope inner(Generator(3));  // the innermost scope wins
            (void)draw(10);
        }
        (void)draw(10);
    }
    EXPECT_EQ(draw(32), c);
}

TEST(Generator, ThreadsWithTheirOwnScopesDrawWhatTheyDrawAlone) {
    auto work = [](uint64_t seed) {
        GeneratorScope scope{Generator(seed)};
        std::vector<float> out;
        for (int i = 0; i < 200; ++i) {
            auto v = draw(17);
            out.insert(out.end(), v.begin(), v.end());
        }
        return out;
    };
    const auto alone1 = work(1), alone2 = work(2);
    std::vector<float> together1, together2;
    std::thread t1([&] { together1 = work(1); });
    std::thread t2([&] { together2 = work(2); });
    t1.join();
    t2.join();
    EXPECT_EQ(together1, alone1);
    EXPECT_EQ(together2, alone2);
}
