#include "support/json_value.hpp"

#include <cstdlib>
#include <stdexcept>

namespace tenferro::testing {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}
  JsonValue document() {
    JsonValue v = value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }
  JsonValue value() {
    const char c = peek();
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return JsonValue{string()};
    if (literal("true")) return JsonValue{true};
    if (literal("false")) return JsonValue{false};
    if (literal("null")) return JsonValue{nullptr};
    return number();
  }
  JsonValue object() {
    expect('{');
    JsonValue::Object o;
    if (peek() == '}') {
      ++pos_;
      return JsonValue{o};
    }
    while (true) {
      if (peek() != '"') fail("expected a key");
      std::string key = string();
      expect(':');
      if (!o.emplace(key, value()).second) fail("duplicate key " + key);
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return JsonValue{o};
    }
  }
  JsonValue array() {
    expect('[');
    JsonValue::Array a;
    if (peek() == ']') {
      ++pos_;
      return JsonValue{a};
    }
    while (true) {
      a.push_back(value());
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']');
      return JsonValue{a};
    }
  }
  std::string string() {
    expect('"');
    std::string s;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return s;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        s += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          s += e;
          break;
        case 'n':
          s += '\n';
          break;
        case 't':
          s += '\t';
          break;
        case 'r':
          s += '\r';
          break;
        case 'b':
          s += '\b';
          break;
        case 'f':
          s += '\f';
          break;
        case 'u':
          if (pos_ + 4 > text_.size()) fail("short \\u escape");
          s += '?';  // tests only need to know the text is well-formed
          pos_ += 4;
          break;
        default:
          fail("bad escape");
      }
    }
  }
  JsonValue number() {
    const std::string rest(text_.substr(pos_, 64));
    char* end = nullptr;
    const double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str()) fail("expected a value");
    pos_ += static_cast<std::size_t>(end - rest.c_str());
    return JsonValue{v};
  }
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

JsonValue parse_json(std::string_view text) {
  return Parser(text).document();
}

}  // namespace tenferro::testing
