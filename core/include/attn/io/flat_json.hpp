// Flat JSON objects ({"key": value, ...} with string, number and boolean values): the format of
// model configurations inside model files and of the CLI's --json lines. Nested values are
// rejected with a clear message; that is all a configuration needs.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

class FlatJson {
 public:
  FlatJson() = default;
  // Throws std::invalid_argument with the offset of the problem for malformed text.
  static FlatJson parse(const std::string& text);
  std::string dump() const;

  FlatJson& set(const std::string& key, const std::string& value);
  FlatJson& set(const std::string& key, const char* value) { return set(key, std::string(value)); }
  FlatJson& set(const std::string& key, double value);
  FlatJson& set(const std::string& key, bool value);
  // Arrays are for output only (the CLI's --json lines); parse() still rejects nested values.
  FlatJson& set(const std::string& key, const std::vector<double>& values);
  FlatJson& set(const std::string& key, const std::vector<std::string>& values);

  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::vector<std::string> keys() const;
  // Typed getters throw std::invalid_argument naming the key when it is missing or of another type.
  std::string get_string(const std::string& key) const;
  double get_number(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  // Non-negative whole number that fits `max`.
  std::size_t get_size(const std::string& key, std::size_t max = 1u << 30) const;

 private:
  enum class Type { string, number, boolean, array };
  struct Value {
    Type type;
    std::string text;  // string value, or the number/boolean as written
    double number = 0;
  };
  const Value& at(const std::string& key, Type type) const;
  std::map<std::string, Value> values_;
};

// `text` as a JSON string literal, quotes included: " \ and control characters escaped, other
// bytes (UTF-8) as they are. FlatJson::dump writes its strings with it.
std::string json_quote(const std::string& text);

}  // namespace attn
