// CSV (RFC 4180) parsing for from_csv: quoted fields, doubled quotes, \n or \r\n line ends.
#include "burn/data/csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "platform/files.hpp"

namespace burn::data {

CsvTable parse_csv(std::string_view text, const CsvOptions& options, std::string_view name) {
    BURN_CHECK(options.delimiter != options.quote && options.delimiter != '\n' && options.delimiter != '\r',
               "[parse_csv] the delimiter must differ from the quote character and the line ends");
    CsvTable table;
    std::vector<std::string> record;
    std::string field;
    std::size_t line = 1, record_line = 1;
    bool quoted = false;       // inside a quoted field
    bool was_quoted = false;   // the current field was quoted (text after its closing quote is an error)
    bool record_empty = true;  // nothing seen on this record yet (an empty line is skipped)
    auto end_field = [&] {
        record.push_back(std::move(field));
        field.clear();
        was_quoted = false;
    };
    auto end_record = [&] {
        if (record_empty && record.empty() && field.empty()) return;  // an empty line
        end_field();
        if (table.columns.empty()) {
            // The first record: the header, or (without one) the width every record must have.
            if (options.has_header) {
                table.columns = std::move(record);
                record.clear();
                record_empty = true;
                return;
            }
            for (std::size_t i = 0; i < record.size(); ++i) table.columns.push_back(std::to_string(i));
        }
        BURN_CHECK_KIND(record.size() == table.columns.size(), io, "[from_csv] '", name, "' line ",
                        record_line, " has ", record.size(), " fields where the ",
                        options.has_header ? "header" : "first record", " has ", table.columns.size(),
                        " (a field holding the delimiter or a line break must be quoted)");
        table.rows.push_back(std::move(record));
        table.lines.push_back(record_line);
        record.clear();
        record_empty = true;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == options.quote) {
                if (i + 1 < text.size() && text[i + 1] == options.quote) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                    was_quoted = true;
                }
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
        if (c == '\n' || c == '\r') {
            end_record();
            ++line;
            record_line = line;
            continue;
        }
        if (record_empty) record_line = line;
        record_empty = false;
        if (c == options.delimiter) {
            end_field();
        } else if (c == options.quote) {
            BURN_CHECK_KIND(field.empty() && !was_quoted, io, "[from_csv] '", name, "' line ", line,
                            ": a quote inside an unquoted field; quote the whole field and double the quotes "
                            "inside it (\"say \"\"hi\"\"\")");
            quoted = true;
        } else {
            BURN_CHECK_KIND(
                !was_quoted, io, "[from_csv] '", name, "' line ", line,
                ": text after a closing quote; a quote inside a quoted field is written twice (\"\")");
            field += c;
        }
    }
    BURN_CHECK_KIND(!quoted, io, "[from_csv] '", name, "': the quoted field that starts on line ",
                    record_line, " is never closed (the file is truncated, or a quote is missing)");
    end_record();
    return table;
}

CsvTable read_csv(const std::filesystem::path& path, const CsvOptions& options) {
    std::string text = platform::read_file(path, "from_csv");
    std::string_view view = text;
    if (view.starts_with("\xEF\xBB\xBF")) view.remove_prefix(3);  // a UTF-8 byte order mark
    return parse_csv(view, options, path.string());
}

const std::string& CsvRow::operator[](std::size_t column) const {
    BURN_CHECK_KIND(column < size(), index, "[from_csv] '", name_, "' line ", line(), ": column ", column,
                    " is out of range for ", size(), " columns");
    return table_->rows[row_][column];
}

const std::string& CsvRow::operator[](std::string_view column) const {
    for (std::size_t i = 0; i < size(); ++i)
        if (table_->columns[i] == column) return table_->rows[row_][i];
    std::string names;
    for (const auto& c : table_->columns) names += (names.empty() ? "'" : ", '") + c + "'";
    BURN_THROW_KIND(io, "[from_csv] '", name_, "' has no column '", column, "'; its columns are ", names);
}

bool CsvRow::has(std::string_view column) const {
    for (const auto& c : table_->columns)
        if (c == column) return true;
    return false;
}

std::string_view CsvRow::trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (s.starts_with('+')) s.remove_prefix(1);  // from_chars takes no '+'
    return s;
}

bool CsvRow::parse_real(std::string_view s, double& out) {
    const std::string text(s);  // strtod needs a terminated string
    char* end = nullptr;
    errno = 0;
    out = std::strtod(text.c_str(), &end);
    const bool overflow = errno == ERANGE && std::isinf(out);
    return end == text.c_str() + text.size() && !overflow;
}

std::string CsvRow::column_name(std::size_t column) const {
    return column < size() ? table_->columns[column] : std::to_string(column);
}

void CsvRow::bad_value(const std::string& column, const std::string& text, const char* expected) const {
    BURN_THROW_KIND(io, "[from_csv] '", name_, "' line ", line(), " column '", column, "': '", text,
                    "' is not ", expected,
                    "; fix the file, or read the column as std::string and convert it yourself");
}

}  // namespace burn::data
