// AgNewsDataset: the three-column, header-less CSV files of ag_news_csv.
#include "burn/data/ag_news.hpp"

#include "burn/core/error.hpp"
#include "burn/data/csv.hpp"

namespace burn::data {

InMemDataset<AgNewsItem> AgNewsDataset::from_file(const std::filesystem::path& csv) {
    CsvOptions options;
    options.has_header = false;
    return from_csv(
        csv,
        [&](const CsvRow& row) {
            BURN_CHECK_KIND(row.size() == 3, io, "[AgNewsDataset] '", csv.string(), "' line ", row.line(),
                            " has ", row.size(), " fields; AG News rows are \"label\",\"title\",\"content\"");
            return AgNewsItem{row[std::size_t{0}], row[std::size_t{1}], row[std::size_t{2}]};
        },
        options);
}

InMemDataset<AgNewsItem> AgNewsDataset::train(const std::filesystem::path& folder) {
    return from_file(folder / "train.csv");
}

InMemDataset<AgNewsItem> AgNewsDataset::test(const std::filesystem::path& folder) {
    return from_file(folder / "test.csv");
}

const char* AgNewsDataset::class_name(int label) {
    static const char* const kNames[] = {"World", "Sports", "Business", "Sci/Tech"};
    BURN_CHECK_KIND(label >= 1 && label <= 4, index, "[AgNewsDataset::class_name] labels are 1 to 4, got ",
                    label);
    return kNames[label - 1];
}

}  // namespace burn::data
