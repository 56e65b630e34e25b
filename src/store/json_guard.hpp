#pragma once
// Parses untrusted JSON and CBOR with nlohmann-json after a first pass that rejects nesting deeper
// than the limit (nlohmann's CBOR reader recurses per level, so a deep file could exhaust the stack)
// and converts every parse failure into a burn::Error.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace burn::store::detail {

enum class Syntax { json, cbor };

/// The parsed document; throws burn::Error "[op] corrupt <what>: <reason>".
nlohmann::json parse_untrusted(const uint8_t* data, std::size_t size, Syntax syntax, int max_depth,
                               std::string_view op, std::string_view what);

/// v as an unsigned 64-bit integer; throws "[op] tensor 'name': 'field' is not a non-negative integer".
uint64_t json_u64(const nlohmann::json& v, std::string_view op, const std::string& name, const char* field);

}  // namespace burn::store::detail
