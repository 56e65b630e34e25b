// SqliteDatasetWriter: files it writes read back through SqliteDataset (and SqliteTable), the temporary file
// and completion rules, and errors. tests/fixtures/data/splits.db (Python's sqlite3) is the layout the
// reader was written against; the first test rewrites its rows and reads back the same values.
#include "burn/data/sqlite_writer.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <thread>

#include "burn/data/fake.hpp"
#include "train/training_test_util.hpp"

using namespace burn;
using namespace burn::data;
namespace fs = std::filesystem;

namespace sqlite_writer_test {

struct Row {
    double x = 0;
    int32_t label = 0;
    std::string name;
    std::vector<uint8_t> data;
    bool operator==(const Row&) const = default;
};

Row to_row(const SqliteRow& r) {
    return {r.get<double>("x"), r.get<int32_t>("label"), r.is_null("name") ? "-" : r.get<std::string>("name"),
            r.get<std::vector<uint8_t>>("data")};
}

SqliteColumns columns(const Row& r) {
    SqliteValue name = r.name == "-" ? SqliteValue() : SqliteValue(r.name);
    return {{"x", r.x}, {"label", int64_t{r.label}}, {"name", name}, {"data", r.data}};
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(DataSqliteWriter, WrittenSplitsReadBackThroughSqliteDataset) {
    if (!SqliteDatasetWriter::available()) GTEST_SKIP() << "built without SQLite (BURN_SQLITE)";
    const fs::path db = train_test::fresh_dir("sqlite_writer") / "splits.db";
    const std::vector<Row> rows = {{0.5, 3, "three", {0, 1}}, {-1.5, 1, "one", {}}, {2.0, 2, "-", {255}}};
    {
        SqliteDatasetWriter writer(db);
        EXPECT_EQ(writer.file(), db);
        for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(writer.write("train", columns(rows[i])), i);
        // the same columns in another order
        EXPECT_EQ(writer.write("test", {{"name", std::string("zero")},
                                        {"data", std::vector<uint8_t>{9}},
                                        {"label", int64_t{0}},
                                        {"x", 0.25}}),
                  0u);
        EXPECT_EQ(writer.len("train"), 3u);
        EXPECT_EQ(writer.len("valid"), 0u);
        EXPECT_FALSE(fs::exists(db));  // only the temporary file until completed
        EXPECT_TRUE(fs::exists(db.string() + ".tmp"));
        writer.set_completed();
        EXPECT_TRUE(writer.is_completed());
        EXPECT_FALSE(fs::exists(db.string() + ".tmp"));
        const std::string e = error_of([&] { writer.write("train", columns(rows[0])); });
        EXPECT_NE(e.find("rows cannot be added after set_completed()"), std::string::npos) << e;
    }
    EXPECT_EQ(SqliteTable::tables(db), (std::vector<std::string>{"test", "train"}));
    SqliteDataset train(db, "train", to_row);
    EXPECT_EQ(train.table().columns(), (std::vector<std::string>{"row_id", "x", "label", "name", "data"}));
    EXPECT_EQ(train.to_vec(), rows);
    SqliteDataset test(db, "test", to_row);
    ASSERT_EQ(test.len(), 1u);
    EXPECT_EQ(*test.get(0), (Row{0.25, 0, "zero", {9}}));
    // what Python's sqlite3 wrote for the reader's fixture, rewritten here, reads the same
    SqliteDataset fixture_like(db, "train", [](const SqliteRow& r) { return r.get<std::string>("name"); });
    EXPECT_EQ(*fixture_like.get(1), "one");
}

TEST(DataSqliteWriter, OverwriteThreadsAndWholeDatasets) {
    if (!SqliteDatasetWriter::available()) GTEST_SKIP() << "built without SQLite (BURN_SQLITE)";
    const fs::path dir = train_test::fresh_dir("sqlite_writer_threads");
    const fs::path db = dir / "numbers.db";
    {
        SqliteDatasetWriter first(db);
        first.write("train", {{"v", int64_t{1}}});
        first.set_completed();
    }
    std::string e = error_of([&] { SqliteDatasetWriter again(db); });
    EXPECT_NE(e.find("'" + db.string() + "' exists; pass overwrite = true"), std::string::npos) << e;
    {
        SqliteDatasetWriter writer(db, /*overwrite=*/true);
        // four threads write 50 rows each; every value lands once and row_ids run 1..200
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 50; ++i) writer.write("train", {{"v", int64_t{t * 1000 + i}}});
            });
        for (auto& th : threads) th.join();
        // a whole dataset through a function
        FakeDataset fake(7, 5, [](Rng& rng) { return static_cast<int64_t>(rng.below(100)); });
        EXPECT_EQ(writer.write_all("fake", fake, [](int64_t v) { return SqliteColumns{{"v", v}}; }), 7u);
        writer.set_completed();
        const SqliteDataset fake_back(db, "fake", [](const SqliteRow& r) { return r.get<int64_t>("v"); });
        EXPECT_EQ(fake_back.to_vec(), fake.to_vec());
    }
    SqliteDataset back(db, "train", [](const SqliteRow& r) { return r.get<int64_t>("v"); });
    ASSERT_EQ(back.len(), 200u);  // the first file's single row is gone: replaced
    std::set<int64_t> seen;
    for (auto v : back.to_vec()) seen.insert(v);
    EXPECT_EQ(seen.size(), 200u);
    EXPECT_EQ(*seen.begin(), 0);
    EXPECT_EQ(*seen.rbegin(), 3049);
}

TEST(DataSqliteWriter, UncompletedWritersLeaveNothingAndRowsAreChecked) {
    if (!SqliteDatasetWriter::available()) GTEST_SKIP() << "built without SQLite (BURN_SQLITE)";
    const fs::path dir = train_test::fresh_dir("sqlite_writer_errors");
    const fs::path db = dir / "partial.db";
    {
        SqliteDatasetWriter writer(db);
        writer.write("train", {{"x", 1.0}, {"label", int64_t{1}}});
        writer.write("train", {{"x", int64_t{2}}, {"label", SqliteValue()}});  // an integer into REAL; NULL
        std::string e = error_of([&] { writer.write("train", {{"x", 1.0}}); });
        EXPECT_NE(
            e.find("split 'train' has the columns 'x', 'label' (from its first row); this row lacks 'label'"),
            std::string::npos)
            << e;
        e = error_of([&] { writer.write("train", {{"x", 1.0}, {"label", int64_t{1}}, {"more", 1.0}}); });
        EXPECT_NE(e.find("this row has more (3 columns)"), std::string::npos) << e;
        e = error_of([&] { writer.write("train", {{"x", 1.0}, {"label", std::string("one")}}); });
        EXPECT_NE(e.find("column 'label' is INTEGER (from the split's first row) but this row gives TEXT"),
                  std::string::npos)
            << e;
        e = error_of([&] { writer.write("train", {{"row_id", int64_t{1}}}); });
        EXPECT_NE(e.find("'row_id' is the writer's own"), std::string::npos) << e;
        e = error_of([&] { writer.write("train", {{"x", 1.0}, {"x", 2.0}}); });
        EXPECT_NE(e.find("names column 'x' twice"), std::string::npos) << e;
        EXPECT_EQ(writer.len("train"), 2u);  // rejected rows were not written
    }
    EXPECT_FALSE(fs::exists(db));
    EXPECT_FALSE(fs::exists(db.string() + ".tmp"));  // destroyed before set_completed(): removed
    const std::string e = error_of([&] { SqliteDatasetWriter(dir / "no" / "such" / "folder.db"); });
    EXPECT_NE(e.find("cannot create"), std::string::npos) << e;
    EXPECT_NE(e.find("does the folder exist"), std::string::npos) << e;
}

}  // namespace sqlite_writer_test
