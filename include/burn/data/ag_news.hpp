#pragma once
/// AG News (burn's AgNewsDataset): news articles in four classes, read from the CSV files of the
/// ag_news_csv archive (train.csv, 120,000 rows; test.csv, 7,600), which are not downloaded: give the
/// folder they were extracted to. Each row is "label","title","content" without a header; labels are
/// "1" (World), "2" (Sports), "3" (Business), "4" (Sci/Tech) as written in the file.
///
///     auto train = data::AgNewsDataset::train("data/ag_news_csv");
///     train.get(0)->title;
#include <filesystem>
#include <string>

#include "burn/data/dataset.hpp"

namespace burn::data {

struct AgNewsItem {
    std::string label;  // "1" to "4", as in the file
    std::string title;
    std::string content;
};

struct AgNewsDataset {
    /// folder/train.csv and folder/test.csv. Throws burn::IoError naming the file when it is missing
    /// or a row does not have three fields.
    static InMemDataset<AgNewsItem> train(const std::filesystem::path& folder);
    static InMemDataset<AgNewsItem> test(const std::filesystem::path& folder);
    /// Any file in that format.
    static InMemDataset<AgNewsItem> from_file(const std::filesystem::path& csv);
    /// The class names, label "1" first.
    static const char* class_name(int label_1_to_4);
};

}  // namespace burn::data
