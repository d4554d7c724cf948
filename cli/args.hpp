// Command-line parsing for `attn`: `attn <command> --name value ... --flag`. Every option is
// declared per command, so a typo is an error rather than silently ignored.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/io/settings_schema.hpp"

namespace attn::cli {

// Bad command-line arguments: the message says what is wrong; the caller adds the usage text.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct OptionSpec {
  std::string name;        // without the leading "--"
  std::string value_name;  // empty for a flag (no value)
  std::string help;
};

struct CommandSpec {
  std::string name;
  std::string summary;
  std::vector<OptionSpec> options;
  std::vector<std::string> required;
};

class Args {
 public:
  bool has(const std::string& name) const { return values_.count(name) || flags_.count(name); }
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  // Whole number in [min, max]; UsageError naming the option otherwise.
  std::size_t whole(const std::string& name, std::size_t fallback, std::size_t min, std::size_t max) const;
  // Finite number in (min_exclusive, max].
  double number(const std::string& name, double fallback, double min_exclusive, double max) const;
  // One of `choices`.
  std::string choice(const std::string& name, const std::string& fallback,
                     const std::vector<std::string>& choices) const;
  // The value of the settings field `spec` given as --<spec.flag> (which must be present), read
  // and checked by the field's type and range: whole numbers and choices with the wording of
  // whole() and choice(), numbers "--lr must be a finite number > 0, got 'x'".
  SettingValue setting(const SettingSpec& spec) const;

 private:
  friend Args parse_args(const CommandSpec&, const std::vector<std::string>&);
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

// Parses the arguments after the command name. Throws UsageError for unknown options, missing
// values, repeated options, stray positional arguments and missing required options.
Args parse_args(const CommandSpec& spec, const std::vector<std::string>& arguments);
// "usage: attn <command> ..." with one line per option.
std::string usage(const CommandSpec& spec);

}  // namespace attn::cli
