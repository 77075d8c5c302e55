// A small strict JSON parser for tests that validate the command's machine-readable output
// (tenferro info --json, tenferro bench --json, --stats). Throws std::runtime_error on
// malformed text.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tenferro::testing {

struct JsonValue {
  using Object = std::map<std::string, JsonValue>;
  using Array = std::vector<JsonValue>;
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> value;

  bool is_object() const { return std::holds_alternative<Object>(value); }
  bool is_array() const { return std::holds_alternative<Array>(value); }
  bool is_number() const { return std::holds_alternative<double>(value); }
  bool is_string() const { return std::holds_alternative<std::string>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  const Object& object() const { return std::get<Object>(value); }
  const Array& array() const { return std::get<Array>(value); }
  double number() const { return std::get<double>(value); }
  const std::string& string() const { return std::get<std::string>(value); }
  bool boolean() const { return std::get<bool>(value); }
  bool has(const std::string& key) const { return is_object() && object().count(key) > 0; }
  const JsonValue& operator[](const std::string& key) const { return object().at(key); }
};

JsonValue parse_json(std::string_view text);

}  // namespace tenferro::testing
