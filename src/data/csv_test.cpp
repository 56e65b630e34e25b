// from_csv and from_json_rows: files written here, items compared with the values written.
#include <gtest/gtest.h>

#include <fstream>

#include "burn/data/data.hpp"
#include "train/training_test_util.hpp"

using namespace burn;
using namespace burn::data;

namespace csv_test {

struct House {
    float area = 0;
    int32_t rooms = 0;
    std::string city;
    bool operator==(const House&) const = default;
};

struct Sample {
    std::vector<float> x;
    int32_t label = 0;
    std::string tag = "none";
    BURN_CONFIG(Sample, x, label, tag)
};

// A file in a fresh temporary folder, removed at the end of the test.
class TextFile {
  public:
    explicit TextFile(const std::string& text, const std::string& ext = ".csv") {
        path_ = std::filesystem::temp_directory_path() /
                ("burn_csv_test_" + train_test::process_tag() + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name() + ext);
        std::ofstream(path_, std::ios::binary) << text;
    }
    ~TextFile() { std::filesystem::remove(path_); }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

House to_house(const CsvRow& row) {
    return {row.get<float>("area"), row.get<int32_t>("rooms"), row["city"]};
}

std::string csv_error(const std::string& text, CsvOptions options = {}) {
    try {
        parse_csv(text, options, "t.csv");
    } catch (const IoError& e) {
        return e.what();
    }
    return "";
}

}  // namespace csv_test

TEST(DataCsv, RowsBecomeItems) {
    using namespace csv_test;
    TextFile file(
        "area,rooms,city\n52.5,2,Lyon\r\n120,5,\"Paris, France\"\n\n 7.25 ,+1,\"say \"\"hi\"\"\"\n");
    auto houses = from_csv(file.path(), to_house);
    static_assert(std::is_same_v<decltype(houses), InMemDataset<House>>);
    ASSERT_EQ(houses.len(), 3u);
    EXPECT_EQ(*houses.get(0), (House{52.5f, 2, "Lyon"}));
    EXPECT_EQ(*houses.get(1), (House{120.0f, 5, "Paris, France"}));
    EXPECT_EQ(*houses.get(2), (House{7.25f, 1, "say \"hi\""}));
}

TEST(DataCsv, QuotedLineBreaksHeaderlessAndDelimiters) {
    auto t = parse_csv("1;\"two\nlines\";3\n4;;\"\"\n", CsvOptions{';', '"', false});
    EXPECT_EQ(t.columns, (std::vector<std::string>{"0", "1", "2"}));
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.rows[0][1], "two\nlines");
    EXPECT_EQ(t.rows[1], (std::vector<std::string>{"4", "", ""}));
    EXPECT_EQ(t.lines, (std::vector<std::size_t>{1, 3}));
    auto no_final_newline = parse_csv("a,b\n1,2");
    ASSERT_EQ(no_final_newline.rows.size(), 1u);
    EXPECT_EQ(no_final_newline.rows[0][1], "2");
}

TEST(DataCsv, TypedColumnsByNameAndPosition) {
    auto t = parse_csv("id,flag,score,name\n7,true,-2.5e1,x\n");
    CsvRow row(t, 0, "t.csv");
    EXPECT_EQ(row.get<int64_t>("id"), 7);
    EXPECT_EQ(row.get<uint8_t>(std::size_t{0}), 7);
    EXPECT_TRUE(row.get<bool>("flag"));
    EXPECT_EQ(row.get<double>("score"), -25.0);
    EXPECT_EQ(row.get<std::string>(3), "x");
    EXPECT_TRUE(row.has("name"));
    EXPECT_FALSE(row.has("age"));
    EXPECT_EQ(row.line(), 2u);
    try {
        row.get<int32_t>("name");
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("line 2 column 'name': 'x' is not an integer"),
                  std::string::npos)
            << e.what();
    }
    try {
        row["age"];
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("its columns are 'id', 'flag', 'score', 'name'"),
                  std::string::npos);
    }
    EXPECT_THROW(row.get<int8_t>(std::size_t{9}), IndexError);
    auto big = parse_csv("v\n300\n");
    EXPECT_THROW(CsvRow(big, 0, "b.csv").get<uint8_t>("v"), IoError);  // out of range
}

TEST(DataCsv, MalformedFilesNameLineAndFix) {
    using csv_test::csv_error;
    EXPECT_NE(csv_error("a,b\n1,2\n3\n").find("line 3 has 1 fields where the header has 2"),
              std::string::npos);
    EXPECT_NE(csv_error("a\n\"open\n").find("never closed"), std::string::npos);
    EXPECT_NE(csv_error("a\nx\"y\n").find("quote inside an unquoted field"), std::string::npos);
    EXPECT_NE(csv_error("a\n\"x\"y\n").find("text after a closing quote"), std::string::npos);
    EXPECT_THROW(from_csv("/nonexistent/f.csv", csv_test::to_house), IoError);
}

TEST(DataJsonRows, DecodesConfigStructsAndFunctions) {
    using namespace csv_test;
    TextFile file("{\"x\": [0.5, 1], \"label\": 3, \"tag\": \"a\"}\n\n{\"x\": [], \"label\": 1}\r\n",
                  ".jsonl");
    auto samples = from_json_rows<Sample>(file.path());
    ASSERT_EQ(samples.len(), 2u);
    EXPECT_EQ(samples.get(0)->x, (std::vector<float>{0.5f, 1.0f}));
    EXPECT_EQ(samples.get(0)->label, 3);
    EXPECT_EQ(samples.get(0)->tag, "a");
    EXPECT_TRUE(samples.get(1)->x.empty());
    EXPECT_EQ(samples.get(1)->tag, "none");  // missing keys keep their defaults
    auto labels =
        from_json_rows(file.path(), [](const config::Value& v) { return v.at("label").as_int64(); });
    EXPECT_EQ(labels.items(), (std::vector<int64_t>{3, 1}));
}

TEST(DataJsonRows, BadLineNamesFileAndLine) {
    csv_test::TextFile file("{\"label\": 1}\n{\"label\": \n", ".jsonl");
    try {
        read_json_rows(file.path());
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(".jsonl line 2"), std::string::npos) << e.what();
    }
}
