#include "attn/io/settings_schema.hpp"

#include <cctype>
#include <cstdio>

namespace attn {

const char* setting_type_name(SettingType type) {
  switch (type) {
    case SettingType::whole:
      return "whole";
    case SettingType::number:
      return "number";
    case SettingType::boolean:
      return "boolean";
    case SettingType::choice:
      return "choice";
  }
  return "unknown";
}

bool SettingRange::contains(double x) const {
  if (std::isnan(x)) return false;
  const bool low = min_open ? x > min : x >= min;
  const bool high = std::isinf(max) ? std::isfinite(x) : (max_open ? x < max : x <= max);
  return low && high;
}

namespace {
std::string number_text(double x) {
  char text[32];
  // Whole numbers in full (1073741824, not 1.07374182e+09); others as float32 shows them.
  std::snprintf(text, sizeof text, x == std::floor(x) && std::fabs(x) < 1e15 ? "%.0f" : "%.9g", x);
  return text;
}
}  // namespace

std::string SettingSpec::rule() const {
  switch (type) {
    case SettingType::boolean:
      return "true or false";
    case SettingType::choice: {
      std::string out = "one of ";
      for (std::size_t i = 0; i < choices.size(); ++i) out += (i ? ", " : "") + choices[i];
      return out;
    }
    case SettingType::whole:
      if (std::isinf(range.max)) return ">= " + number_text(range.min);
      return "a whole number from " + number_text(range.min) + " to " + number_text(range.max);
    case SettingType::number:
      if (std::isinf(range.min) && std::isinf(range.max)) return "finite";
      if (std::isinf(range.max))
        return std::string("finite and ") + (range.min_open ? "> " : ">= ") + number_text(range.min);
      return "in " + std::string(range.min_open ? "(" : "[") + number_text(range.min) + ", " + number_text(range.max) +
             (range.max_open ? ")" : "]");
  }
  return "";
}

std::string SettingSpec::value_text(const SettingValue& value) {
  if (const double* d = std::get_if<double>(&value)) return number_text(*d);
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  // A long value is cut (at a UTF-8 character boundary): a message must stay readable whatever
  // was typed or sent.
  const std::string& text = std::get<std::string>(value);
  constexpr std::size_t kShown = 80;
  if (text.size() <= kShown) return "'" + text + "'";
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return "'" + text.substr(0, cut) + "…' (" + std::to_string(text.size()) + " bytes)";
}

void SettingSpec::check(const SettingValue& value, const std::string& owner) const {
  bool ok = false;
  switch (type) {
    case SettingType::boolean:
      ok = std::holds_alternative<bool>(value);
      break;
    case SettingType::choice:
      if (const std::string* s = std::get_if<std::string>(&value)) {
        for (const std::string& c : choices) ok = ok || c == *s;
      }
      break;
    case SettingType::whole:
      if (const double* d = std::get_if<double>(&value)) ok = range.contains(*d) && *d == std::floor(*d);
      break;
    case SettingType::number:
      if (const double* d = std::get_if<double>(&value)) ok = range.contains(*d);
      break;
  }
  if (!ok) throw std::invalid_argument(owner + ": " + name + " must be " + rule() + ", got " + value_text(value));
}

std::string camel_case(const std::string& snake) {
  std::string out;
  bool upper = false;
  for (char c : snake) {
    if (c == '_') {
      upper = true;
    } else {
      out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    }
  }
  return out;
}

}  // namespace attn
