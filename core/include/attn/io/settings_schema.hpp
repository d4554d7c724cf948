// One table per settings struct: each field's name, type, range, choices, help text and command-
// line flag, with how to read and write it. The table drives the struct's JSON reading and
// writing, its range checks (one wording of errors), the CLI's flags and `--help` lines, and what
// the page is told about the settings (wasm/convert.hpp's settings_to_js / settings_from_js; a node
// test holds the hand-written TypeScript to it). A field's default is the struct's own member
// initialiser — read from a default-constructed struct, never written here a second time.
//
// Errors, one wording for every struct:
//   "<Owner>: unknown setting '<key>'"
//   "<Owner>: <name> must be <rule>, got <value>"   (rule from the field, e.g. "in [0, 1)")
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "attn/io/flat_json.hpp"

namespace attn {

// A setting's value as it travels (JSON, a JS object, the command line): whole numbers and
// numbers as double, flags as bool, choices as their name.
using SettingValue = std::variant<double, bool, std::string>;

enum class SettingType { whole, number, boolean, choice };

// "whole", "number", "boolean", "choice".
const char* setting_type_name(SettingType type);

// [min, max] with either end open; max may be +infinity (then the rule reads "finite and > 0").
struct SettingRange {
  double min = 0, max = std::numeric_limits<double>::infinity();
  bool min_open = false, max_open = false;
  bool contains(double x) const;
};

// The part of a field that does not depend on the struct: enough for errors, help and TypeScript.
struct SettingSpec {
  std::string name;  // snake_case: the JSON key (the page's camelCase key is derived from it)
  SettingType type = SettingType::number;
  SettingRange range;                // whole and number
  std::vector<std::string> choices;  // choice
  std::string help;                  // one line, no default (help_line adds it)
  std::string flag;                  // the CLI's --flag, or empty when the CLI has none

  // What a valid value is: "a whole number from 1 to 1000", ">= 5", "finite and > 0", "in [0, 1)",
  // "one of adam, adamw, sgd", "true or false".
  std::string rule() const;
  // `value` as a message shows it: 3, 0.5, 'rmsprop', true.
  static std::string value_text(const SettingValue& value);
  // Throws std::invalid_argument "<owner>: <name> must be <rule>, got <value>" unless `value` has
  // this field's type and lies in its range or choices.
  void check(const SettingValue& value, const std::string& owner) const;
};

// name -> nameCamelCase ("learning_rate" -> "learningRate").
std::string camel_case(const std::string& snake);

template <class Config>
struct SettingField {
  SettingSpec spec;
  std::function<SettingValue(const Config&)> get;
  std::function<void(Config&, const SettingValue&)> set;  // the value is checked first
};

template <class Config>
class SettingsSchema {
 public:
  using Field = SettingField<Config>;
  // `finish` runs after reading (derived fields, cross-field validation); it may be empty.
  SettingsSchema(std::string owner, std::vector<Field> fields, std::function<void(Config&)> finish = {})
      : owner_(std::move(owner)), fields_(std::move(fields)), finish_(std::move(finish)) {}

  const std::string& owner() const { return owner_; }
  const std::vector<Field>& fields() const { return fields_; }
  const Field* find(const std::string& name) const {
    for (const Field& f : fields_) {
      if (f.spec.name == name) return &f;
    }
    return nullptr;
  }
  const Field& at(const std::string& name) const {
    const Field* f = find(name);
    if (f == nullptr) throw std::invalid_argument(owner_ + ": unknown setting '" + name + "'");
    return *f;
  }

  // Checks `value` against the field `name` and stores it.
  void set(Config& config, const std::string& name, const SettingValue& value) const {
    const Field& f = at(name);
    f.spec.check(value, owner_);
    f.set(config, value);
  }
  // Every field's range and choice check on `config` (a struct built in code, not read).
  void check(const Config& config) const {
    for (const Field& f : fields_) f.spec.check(f.get(config), owner_);
  }
  void finish(Config& config) const {
    if (finish_) finish_(config);
  }

  // How read() treats keys: a model file holds every field (require_all), except fields added
  // after files were first written (optional); `ignored` keys belong to the file, not the struct.
  struct ReadRules {
    bool require_all = false;
    std::vector<std::string> optional, ignored;
  };

  // Reads the keys of `json` over `base` (unknown keys rejected, values checked), then finish().
  Config read(const FlatJson& json, Config base = Config{}, const ReadRules& rules = {}) const {
    auto listed = [](const std::vector<std::string>& names, const std::string& name) {
      for (const std::string& n : names) {
        if (n == name) return true;
      }
      return false;
    };
    for (const std::string& key : json.keys()) {
      if (listed(rules.ignored, key)) continue;
      const Field& f = at(key);
      set(base, key, json_value(json, key, f.spec.type));
    }
    if (rules.require_all) {
      for (const Field& f : fields_) {
        if (!listed(rules.optional, f.spec.name) && !json.has(f.spec.name)) {
          throw std::invalid_argument(owner_ + ": missing setting '" + f.spec.name + "'");
        }
      }
    }
    finish(base);
    return base;
  }
  Config read(const std::string& json) const { return read(FlatJson::parse(json)); }

  // Every field of `config` into `out` (which may already hold other keys, e.g. "model").
  FlatJson& write(const Config& config, FlatJson& out) const {
    for (const Field& f : fields_) {
      const SettingValue v = f.get(config);
      if (const double* d = std::get_if<double>(&v)) out.set(f.spec.name, *d);
      if (const bool* b = std::get_if<bool>(&v)) out.set(f.spec.name, *b);
      if (const std::string* s = std::get_if<std::string>(&v)) out.set(f.spec.name, *s);
    }
    return out;
  }
  std::string write(const Config& config) const {
    FlatJson j;
    return write(config, j).dump();
  }

  // The default of each field: its value in a default-constructed Config.
  SettingValue default_of(const Field& f) const { return f.get(Config{}); }

 private:
  // The value under `key` as it is written; a value of the wrong kind comes back as what it is,
  // so check() names it ("must be a whole number ..., got 'ten'").
  static SettingValue json_value(const FlatJson& json, const std::string& key, SettingType type) {
    const bool numeric = type == SettingType::whole || type == SettingType::number;
    try {
      if (numeric) return json.get_number(key);
      if (type == SettingType::boolean) return json.get_bool(key);
      return json.get_string(key);
    } catch (const std::invalid_argument&) {
    }
    try {
      return json.get_number(key);
    } catch (const std::invalid_argument&) {
    }
    try {
      return json.get_bool(key);
    } catch (const std::invalid_argument&) {
    }
    return json.get_string(key);
  }

  std::string owner_;
  std::vector<Field> fields_;
  std::function<void(Config&)> finish_;
};

// Field builders. `access` returns the member (a reference into the struct), so one builder
// serves a member of a nested struct too: [](TrainerConfig& c) -> auto& { return c.epochs; }.
template <class Config, class Access>
SettingField<Config> whole_setting(std::string name, Access access, SettingRange range, std::string help,
                                   std::string flag = "") {
  using T = std::decay_t<decltype(access(std::declval<Config&>()))>;
  return {{std::move(name), SettingType::whole, range, {}, std::move(help), std::move(flag)},
          [access](const Config& c) { return SettingValue(static_cast<double>(access(const_cast<Config&>(c)))); },
          [access](Config& c, const SettingValue& v) { access(c) = static_cast<T>(std::get<double>(v)); }};
}

template <class Config, class Access>
SettingField<Config> number_setting(std::string name, Access access, SettingRange range, std::string help,
                                    std::string flag = "") {
  using T = std::decay_t<decltype(access(std::declval<Config&>()))>;
  return {{std::move(name), SettingType::number, range, {}, std::move(help), std::move(flag)},
          [access](const Config& c) { return SettingValue(static_cast<double>(access(const_cast<Config&>(c)))); },
          [access](Config& c, const SettingValue& v) { access(c) = static_cast<T>(std::get<double>(v)); }};
}

template <class Config, class Access>
SettingField<Config> flag_setting(std::string name, Access access, std::string help, std::string flag = "") {
  return {{std::move(name), SettingType::boolean, {}, {}, std::move(help), std::move(flag)},
          [access](const Config& c) { return SettingValue(static_cast<bool>(access(const_cast<Config&>(c)))); },
          [access](Config& c, const SettingValue& v) { access(c) = std::get<bool>(v); }};
}

// A string member that holds one of `choices`.
template <class Config, class Access>
SettingField<Config> choice_setting(std::string name, Access access, std::vector<std::string> choices, std::string help,
                                    std::string flag = "") {
  return {{std::move(name), SettingType::choice, {}, std::move(choices), std::move(help), std::move(flag)},
          [access](const Config& c) { return SettingValue(std::string(access(const_cast<Config&>(c)))); },
          [access](Config& c, const SettingValue& v) { access(c) = std::get<std::string>(v); }};
}

// An enum member with its names, in the order the choices are listed.
template <class Config, class Access, class Enum>
SettingField<Config> enum_setting(std::string name, Access access, std::vector<std::pair<std::string, Enum>> names,
                                  std::string help, std::string flag = "") {
  std::vector<std::string> choices;
  for (const auto& n : names) choices.push_back(n.first);
  return {{std::move(name), SettingType::choice, {}, std::move(choices), std::move(help), std::move(flag)},
          [access, names](const Config& c) {
            const Enum e = access(const_cast<Config&>(c));
            for (const auto& n : names) {
              if (n.second == e) return SettingValue(n.first);
            }
            return SettingValue(std::string("unknown"));
          },
          [access, names](Config& c, const SettingValue& v) {
            for (const auto& n : names) {
              if (n.first == std::get<std::string>(v)) access(c) = n.second;
            }
          }};
}

// The fields of `inner` as fields of Outer, reached through `access` (Outer& -> Inner&), keeping
// only those named in `names` (all when empty).
template <class Outer, class Inner, class Access>
std::vector<SettingField<Outer>> nested_settings(const SettingsSchema<Inner>& inner, Access access,
                                                 const std::vector<std::string>& names = {}) {
  std::vector<SettingField<Outer>> out;
  for (const SettingField<Inner>& f : inner.fields()) {
    bool wanted = names.empty();
    for (const std::string& n : names) wanted = wanted || n == f.spec.name;
    if (!wanted) continue;
    auto get = f.get;
    auto set = f.set;
    out.push_back({f.spec, [access, get](const Outer& o) { return get(access(const_cast<Outer&>(o))); },
                   [access, set](Outer& o, const SettingValue& v) { set(access(o), v); }});
  }
  return out;
}

// Ranges used by several structs.
inline SettingRange whole_range(double min, double max) { return {min, max}; }
inline SettingRange at_least(double min) { return {min, std::numeric_limits<double>::infinity()}; }
inline SettingRange above(double min) { return {min, std::numeric_limits<double>::infinity(), true}; }
inline SettingRange rate_range() { return {0, 1, false, true}; }  // [0, 1)
// Seeds travel as JSON numbers (doubles): 32 bits keep them exact everywhere.
inline SettingRange seed_range() { return {0, 4294967295.0}; }

}  // namespace attn
