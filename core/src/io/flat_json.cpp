#include "attn/io/flat_json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attn {
namespace {

struct Parser {
  const std::string& s;
  std::size_t i = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("invalid JSON at offset " + std::to_string(i) + ": " + what);
  }
  void skip_space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  }
  void expect(char c) {
    skip_space();
    if (i >= s.size() || s[i] != c) fail(std::string("expected '") + c + "'");
    ++i;
  }
  std::string string_literal() {
    expect('"');
    std::string out;
    while (true) {
      if (i >= s.size()) fail("unterminated string");
      const char c = s[i++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size()) fail("unterminated escape");
      const char e = s[i++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (i + 4 > s.size()) fail("short \\u escape");
          const unsigned code = static_cast<unsigned>(std::strtoul(s.substr(i, 4).c_str(), nullptr, 16));
          i += 4;
          // Basic Multilingual Plane only (configurations are ASCII in practice).
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default:
          fail(std::string("unknown escape \\") + e);
      }
    }
  }
};

}  // namespace

std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

FlatJson FlatJson::parse(const std::string& text) {
  FlatJson out;
  Parser p{text};
  p.expect('{');
  p.skip_space();
  if (p.i < text.size() && text[p.i] == '}') {
    ++p.i;
  } else {
    while (true) {
      p.skip_space();
      const std::string key = p.string_literal();
      p.expect(':');
      p.skip_space();
      if (p.i >= text.size()) p.fail("missing value");
      Value v{Type::string, "", 0};
      const char c = text[p.i];
      if (c == '"') {
        v.text = p.string_literal();
      } else if (text.compare(p.i, 4, "true") == 0 || text.compare(p.i, 5, "false") == 0) {
        v.type = Type::boolean;
        v.text = text[p.i] == 't' ? "true" : "false";
        p.i += v.text.size();
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        const char* begin = text.c_str() + p.i;
        char* end = nullptr;
        v.number = std::strtod(begin, &end);
        if (end == begin || !std::isfinite(v.number)) p.fail("bad number");
        v.type = Type::number;
        v.text.assign(begin, static_cast<std::size_t>(end - begin));
        p.i += static_cast<std::size_t>(end - begin);
      } else if (c == '{' || c == '[') {
        p.fail("nested values are not supported in key '" + key + "'");
      } else {
        p.fail("unexpected character");
      }
      if (out.values_.count(key)) p.fail("duplicate key '" + key + "'");
      out.values_[key] = v;
      p.skip_space();
      if (p.i < text.size() && text[p.i] == ',') {
        ++p.i;
        continue;
      }
      p.expect('}');
      break;
    }
  }
  p.skip_space();
  if (p.i != text.size()) p.fail("trailing characters");
  return out;
}

std::string FlatJson::dump() const {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : values_) {
    if (!first) out += ",";
    first = false;
    out += json_quote(key) + ":" +
           (value.type == Type::string ? json_quote(value.text) : value.text);  // arrays: pre-rendered
  }
  return out + "}";
}

namespace {
// Whole numbers up to 2^53 exactly (sizes and seeds above 10^9 must survive a round trip, which
// 9 significant digits do not give: 1073741824 would come back as 1073741820); anything else
// with the 9 digits that carry a float exactly.
std::string number_text(double value) {
  char buf[32];
  if (value == std::floor(value) && std::fabs(value) <= 9007199254740992.0) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.9g", value);
  }
  return buf;
}
}  // namespace

FlatJson& FlatJson::set(const std::string& key, const std::string& value) {
  values_[key] = Value{Type::string, value, 0};
  return *this;
}

FlatJson& FlatJson::set(const std::string& key, double value) {
  if (!std::isfinite(value)) throw std::invalid_argument("FlatJson: '" + key + "' is not a finite number");
  values_[key] = Value{Type::number, number_text(value), value};
  return *this;
}

FlatJson& FlatJson::set(const std::string& key, bool value) {
  values_[key] = Value{Type::boolean, value ? "true" : "false", 0};
  return *this;
}

FlatJson& FlatJson::set(const std::string& key, const std::vector<double>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) throw std::invalid_argument("FlatJson: '" + key + "' holds a non-finite number");
    text += (i ? "," : "") + number_text(values[i]);
  }
  values_[key] = Value{Type::array, text + "]", 0};
  return *this;
}

FlatJson& FlatJson::set(const std::string& key, const std::vector<std::string>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + json_quote(values[i]);
  values_[key] = Value{Type::array, text + "]", 0};
  return *this;
}

const FlatJson::Value& FlatJson::at(const std::string& key, Type type) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw std::invalid_argument("configuration is missing '" + key + "'");
  if (it->second.type != type) {
    const char* names[] = {"a string", "a number", "a boolean", "an array"};
    throw std::invalid_argument("configuration value '" + key + "' must be " + names[static_cast<int>(type)]);
  }
  return it->second;
}

std::vector<std::string> FlatJson::keys() const {
  std::vector<std::string> out;
  for (const auto& entry : values_) out.push_back(entry.first);
  return out;
}

std::string FlatJson::get_string(const std::string& key) const { return at(key, Type::string).text; }
double FlatJson::get_number(const std::string& key) const { return at(key, Type::number).number; }
bool FlatJson::get_bool(const std::string& key) const { return at(key, Type::boolean).text == "true"; }

std::size_t FlatJson::get_size(const std::string& key, std::size_t max) const {
  const double x = get_number(key);
  if (x < 0 || x != std::floor(x) || x > static_cast<double>(max)) {
    throw std::invalid_argument("configuration value '" + key + "' must be a whole number between 0 and " +
                                std::to_string(max));
  }
  return static_cast<std::size_t>(x);
}

}  // namespace attn
