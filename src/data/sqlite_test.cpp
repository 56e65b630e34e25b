// SqliteDataset against tests/fixtures/data/splits.db, written by Python's sqlite3 module
// (scripts/gen_data_fixtures.py): burn's layout, a table per split with row_id 1, 2, ...
#include "burn/data/sqlite.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <functional>
#include <thread>

#include "fixture_root.hpp"

using namespace burn;
using namespace burn::data;

namespace sqlite_test {

struct Row {
    double x = 0;
    int32_t label = 0;
    std::string name;
    std::vector<uint8_t> data;
    bool operator==(const Row&) const = default;
};

std::filesystem::path db() {
    return burn::testing::fixture_root() / "data" / "splits.db";
}

Row to_row(const SqliteRow& r) {
    return {r.get<double>("x"), r.get<int32_t>("label"), r.is_null("name") ? "-" : r.get<std::string>("name"),
            r.get<std::vector<uint8_t>>("data")};
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace sqlite_test

TEST(DataSqlite, SplitsAreTablesItemsAreRows) {
    if (!SqliteTable::available()) GTEST_SKIP() << "built without SQLite (BURN_SQLITE)";
    using namespace sqlite_test;
    EXPECT_EQ(SqliteTable::tables(db()), (std::vector<std::string>{"gap", "test", "train"}));
    SqliteDataset train(db(), "train", to_row);
    static_assert(std::is_same_v<decltype(train), SqliteDataset<Row>>);
    ASSERT_EQ(train.len(), 3u);
    EXPECT_EQ(train.table().columns(), (std::vector<std::string>{"row_id", "x", "label", "name", "data"}));
    EXPECT_EQ(*train.get(0), (Row{0.5, 3, "three", {0, 1}}));
    EXPECT_EQ(*train.get(1), (Row{-1.5, 1, "one", {}}));
    EXPECT_EQ(*train.get(2), (Row{2.0, 2, "-", {255}}));
    EXPECT_FALSE(train.get(3));
    SqliteDataset test(db(), "test", to_row);
    ASSERT_EQ(test.len(), 1u);
    EXPECT_EQ(test.get(0)->name, "zero");
}

TEST(DataSqlite, ConcurrentReadsAgree) {
    if (!SqliteTable::available()) GTEST_SKIP() << "built without SQLite (BURN_SQLITE)";
    SqliteDataset train(sqlite_test::db(), "train", sqlite_test::to_row);
    std::vector<std::thread> threads;
    std::atomic<int> wrong{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 200; ++i)
                wrong += train.get((i + t) % 3)->label != std::array{3, 1, 2}[(i + t) % 3];
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
}

TEST(DataSqlite, ErrorsNameTableRowAndColumn) {
    if (!SqliteTable::available()) GTEST_SKIP() << "built without SQLite (BURN_SQLITE)";
    using namespace sqlite_test;
    EXPECT_NE(error_of([] { SqliteTable(db(), "valid"); }).find("its tables: 'gap', 'test', 'train'"),
              std::string::npos);
    EXPECT_NE(error_of([] { SqliteTable("/nonexistent.db", "train"); }).find("does not exist"),
              std::string::npos);
    SqliteTable gap(db(), "gap");
    EXPECT_EQ(gap.len(), 2u);
    EXPECT_EQ(gap.row(0).get<int>("v"), 10);
    EXPECT_NE(error_of([&] { gap.row(1); }).find("row_id 2 does not exist"), std::string::npos);
    SqliteTable train(db(), "train");
    auto row = train.row(2);
    EXPECT_NE(error_of([&] { row.get<int>("name"); }).find("column 'name' holds NULL"), std::string::npos);
    EXPECT_NE(error_of([&] { row.get<std::string>("x"); }).find("holds REAL"), std::string::npos);
    EXPECT_NE(error_of([&] { row["nope"]; }).find("its columns are 'row_id', 'x'"), std::string::npos);
    EXPECT_EQ(row.get<float>("label"), 2.0f);  // INTEGER reads as a float too
}

TEST(DataSqlite, WithoutSqliteTheErrorSaysWhatToInstall) {
    if (SqliteTable::available()) GTEST_SKIP() << "this build has SQLite";
    EXPECT_NE(sqlite_test::error_of([] { SqliteTable(sqlite_test::db(), "train"); }).find("libsqlite3-dev"),
              std::string::npos);
}
