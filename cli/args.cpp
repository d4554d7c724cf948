#include "args.hpp"

#include <cmath>
#include <cstdlib>

namespace attn::cli {

std::string Args::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::size_t Args::whole(const std::string& name, std::size_t fallback, std::size_t min, std::size_t max) const {
  if (!values_.count(name)) return fallback;
  const std::string& text = values_.at(name);
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || x != std::floor(x) || x < static_cast<double>(min) ||
      x > static_cast<double>(max)) {
    throw UsageError("--" + name + " must be a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got '" + text + "'");
  }
  return static_cast<std::size_t>(x);
}

double Args::number(const std::string& name, double fallback, double min_exclusive, double max) const {
  if (!values_.count(name)) return fallback;
  const std::string& text = values_.at(name);
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x) || x <= min_exclusive || x > max) {
    char range[96];
    std::snprintf(range, sizeof range, "greater than %g and at most %g", min_exclusive, max);
    throw UsageError("--" + name + " must be a number " + range + ", got '" + text + "'");
  }
  return x;
}

std::string Args::choice(const std::string& name, const std::string& fallback,
                         const std::vector<std::string>& choices) const {
  const std::string value = get(name, fallback);
  std::string valid;
  for (const std::string& c : choices) {
    if (c == value) return value;
    valid += (valid.empty() ? "" : "|") + c;
  }
  throw UsageError("--" + name + " must be one of " + valid + ", got '" + value + "'");
}

SettingValue Args::setting(const SettingSpec& spec) const {
  const std::string& name = spec.flag;
  const std::string text = get(name);
  const SettingRange& r = spec.range;
  switch (spec.type) {
    case SettingType::boolean:
      if (text != "true" && text != "false")
        throw UsageError("--" + name + " must be true or false, got '" + text + "'");
      return text == "true";
    case SettingType::choice:
      return choice(name, "", spec.choices);
    case SettingType::whole:
      return static_cast<double>(whole(name, 0, static_cast<std::size_t>(r.min), static_cast<std::size_t>(r.max)));
    case SettingType::number:
      break;
  }
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !r.contains(x)) {
    const std::string rule = spec.rule();
    throw UsageError("--" + name + " must be a " +
                     (rule.rfind("finite and ", 0) == 0 ? "finite number " + rule.substr(11) : "number " + rule) +
                     ", got '" + text + "'");
  }
  return x;
}

Args parse_args(const CommandSpec& spec, const std::vector<std::string>& arguments) {
  Args args;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& word = arguments[i];
    if (word.rfind("--", 0) != 0 || word.size() == 2) {
      throw UsageError("unexpected argument '" + word + "' (options start with --)");
    }
    std::string name = word.substr(2);
    std::string inline_value;
    bool has_inline = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_inline = true;
    }
    const OptionSpec* option = nullptr;
    for (const OptionSpec& o : spec.options) {
      if (o.name == name) option = &o;
    }
    if (option == nullptr) throw UsageError("unknown option '--" + name + "' for 'attn " + spec.name + "'");
    if (args.has(name)) throw UsageError("--" + name + " is given twice");
    if (option->value_name.empty()) {
      if (has_inline) throw UsageError("--" + name + " takes no value");
      args.flags_.insert(name);
      continue;
    }
    if (has_inline) {
      args.values_[name] = inline_value;
    } else {
      if (i + 1 >= arguments.size()) throw UsageError("--" + name + " needs a value (" + option->value_name + ")");
      args.values_[name] = arguments[++i];
    }
  }
  for (const std::string& name : spec.required) {
    if (!args.has(name)) throw UsageError("missing required option --" + name);
  }
  return args;
}

std::string usage(const CommandSpec& spec) {
  std::string out = "usage: attn " + spec.name;
  for (const std::string& name : spec.required) {
    for (const OptionSpec& o : spec.options) {
      if (o.name == name) out += " --" + o.name + " " + o.value_name;
    }
  }
  out += " [options]\n  " + spec.summary + "\noptions:\n";
  for (const OptionSpec& o : spec.options) {
    std::string left = "  --" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
    if (left.size() < 26) left.resize(26, ' ');
    out += left + " " + o.help + "\n";
  }
  return out;
}

}  // namespace attn::cli
