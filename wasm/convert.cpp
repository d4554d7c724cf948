#include "convert.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace attn::wasm {

void throw_js_error(const std::string& message) {
  static std::string buffer;
  buffer = message;
  // As a std::string, which embind decodes as UTF-8 (a const char* would be read as Latin-1 and
  // mangle "×" or an accented file name).
  val::global("Error").new_(val(buffer)).throw_();
}

bool read_flag(const val& v, const std::string& name) {
  if (is_absent(v)) return false;
  if (!v.isTrue() && !v.isFalse()) throw std::invalid_argument(name + " must be a boolean");
  return v.isTrue();
}

void read_exchange_buffers(const val& others, std::vector<std::vector<float>>& into) {
  const char* message = "applyGradient: the other shards' gradients must be an array of Float32Array";
  if (is_absent(others) || !val::global("Array").call<bool>("isArray", others)) throw std::invalid_argument(message);
  const std::size_t count = others["length"].as<std::size_t>();
  into.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const val buffer = others[k];
    if (is_absent(buffer) || !buffer.instanceof (val::global("Float32Array"))) throw std::invalid_argument(message);
    into[k].resize(buffer["length"].as<std::size_t>());
    val(emscripten::typed_memory_view(into[k].size(), into[k].data())).call<void>("set", buffer);
  }
}

std::size_t whole_number(double x, const std::string& name, double max) {
  if (!(x >= 0) || x != std::floor(x) || x > max) {
    throw std::invalid_argument(name + " must be a whole number between 0 and " +
                                std::to_string(static_cast<long long>(max)));
  }
  return static_cast<std::size_t>(x);
}

std::size_t read_whole(const val& x, const std::string& name, double max, std::size_t fallback) {
  return is_absent(x) ? fallback : read_whole(x, name, max);
}

std::size_t read_whole(const val& x, const std::string& name, double max) {
  if (!x.isNumber()) throw std::invalid_argument(name + " must be a number");
  return whole_number(x.as<double>(), name, max);
}

std::size_t option_whole(const val& options, const char* key, double max, std::size_t fallback) {
  return read_whole(is_absent(options) ? val::undefined() : options[key], std::string("options.") + key, max, fallback);
}

double option_number(const val& options, const char* key, double fallback) {
  if (is_absent(options) || is_absent(options[key])) return fallback;
  if (!options[key].isNumber()) throw std::invalid_argument(std::string("options.") + key + " must be a number");
  return options[key].as<double>();
}

val strings_to_js(const std::vector<std::string>& strings) {
  val out = val::array();
  for (const std::string& s : strings) out.call<void>("push", s);
  return out;
}

void check_value_count(std::initializer_list<double> extents, const std::string& what) {
  double count = 1;
  for (double extent : extents) count *= extent;
  if (count > kMaxValues) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", count);
    throw std::invalid_argument(what + " describes " + text + " values; at most 268435456");
  }
}

std::string snake_case(const std::string& key) {
  std::string snake;
  for (char c : key) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      snake += '_';
      snake += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      snake += c;
    }
  }
  return snake;
}

SettingValue setting_value_from_js(const val& value, const std::string& name) {
  const std::string type = value.typeOf().as<std::string>();
  if (type == "number") return value.as<double>();
  if (type == "boolean") return value.as<bool>();
  if (type == "string") return value.as<std::string>();
  throw std::invalid_argument(name + " must be a number, a boolean or a string");
}

val setting_value_to_js(const SettingValue& value) {
  if (const double* d = std::get_if<double>(&value)) return val(*d);
  if (const bool* b = std::get_if<bool>(&value)) return val(*b);
  return val(std::get<std::string>(value));
}

val setting_spec_to_js(const SettingSpec& spec, const SettingValue& default_value) {
  val out = val::object();
  out.set("name", camel_case(spec.name));
  out.set("key", spec.name);
  out.set("type", std::string(setting_type_name(spec.type)));
  out.set("default", setting_value_to_js(default_value));
  if (spec.type == SettingType::whole || spec.type == SettingType::number) {
    // Infinite ends travel as null (JSON has no Infinity).
    out.set("min", std::isinf(spec.range.min) ? val::null() : val(spec.range.min));
    out.set("max", std::isinf(spec.range.max) ? val::null() : val(spec.range.max));
    out.set("minOpen", spec.range.min_open);
    out.set("maxOpen", spec.range.max_open);
  }
  if (spec.type == SettingType::choice) out.set("choices", strings_to_js(spec.choices));
  out.set("help", spec.help);
  out.set("flag", spec.flag);
  out.set("rule", spec.rule());
  return out;
}

void for_each_setting(const val& settings, const std::string& name,
                      const std::function<void(const std::string&, const SettingValue&)>& visit) {
  if (is_absent(settings)) return;
  if (settings.typeOf().as<std::string>() != "object" || settings.isArray()) {
    throw std::invalid_argument(name + " must be an object of settings");
  }
  const val keys = val::global("Object").call<val>("keys", settings);
  const auto count = keys["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val value = settings[key];
    if (value.isUndefined()) continue;
    visit(snake_case(key), setting_value_from_js(value, name + "." + key));
  }
}

std::vector<std::uint8_t> read_bytes(const val& bytes, const std::string& name) {
  if (is_absent(bytes)) throw std::invalid_argument(name + " must be an ArrayBuffer or a Uint8Array");
  val view = bytes;
  if (bytes.instanceof (val::global("ArrayBuffer"))) {
    view = val::global("Uint8Array").new_(bytes);
  } else if (val::global("ArrayBuffer").call<bool>("isView", bytes)) {
    view = val::global("Uint8Array").new_(bytes["buffer"], bytes["byteOffset"], bytes["byteLength"]);
  } else {
    throw std::invalid_argument(name + " must be an ArrayBuffer or a Uint8Array");
  }
  std::vector<std::uint8_t> out(view["length"].as<std::size_t>());
  // The view over wasm memory is made after the allocation above (which may grow memory).
  val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", view);
  return out;
}

std::vector<std::size_t> read_shape(const val& obj, const std::string& name) {
  if (is_absent(obj) || obj.typeOf().as<std::string>() != "object") {
    throw std::invalid_argument(name + " must be a tensor object {shape, data}");
  }
  const val shape = obj["shape"];
  if (is_absent(shape) || !shape.isArray()) {
    throw std::invalid_argument(name + ".shape must be an array of sizes");
  }
  const auto length = shape["length"].as<std::size_t>();
  if (length > 8) throw std::invalid_argument(name + ".shape has " + std::to_string(length) + " dimensions; at most 8");
  std::vector<std::size_t> out;
  double count = 1;
  for (std::size_t i = 0; i < length; ++i) {
    const val extent = shape[i];
    const double d = extent.isNumber() ? extent.as<double>() : -1.0;
    if (!(d >= 0) || d != std::floor(d) || d > 1e8) {
      throw std::invalid_argument(name + ".shape[" + std::to_string(i) + "] must be a whole number >= 0");
    }
    out.push_back(static_cast<std::size_t>(d));
    count *= d;
  }
  check_value_count({count}, name + ".shape");
  return out;
}

std::size_t rank_of(const val& obj, const std::string& name) { return read_shape(obj, name).size(); }

namespace {
std::size_t checked_length(const val& data, const std::string& name, std::size_t expected) {
  if (is_absent(data) || data["length"].isUndefined()) {
    throw std::invalid_argument(name + ".data must be a Float32Array or an array of numbers");
  }
  const auto length = data["length"].as<std::size_t>();
  if (length != expected) {
    throw ShapeError(name + ".data has " + std::to_string(length) + " values but its shape needs " +
                     std::to_string(expected));
  }
  return length;
}
}  // namespace

std::vector<float> read_floats(const val& obj, const std::string& name, std::size_t expected, NonFinite allowed) {
  const val data = obj["data"];
  checked_length(data, name, expected);
  std::vector<float> values = emscripten::convertJSArrayToNumberVector<float>(data);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isfinite(values[i])) continue;
    const std::string where = name + ".data[" + std::to_string(i) + "]";
    if (allowed == NonFinite::reject) throw std::invalid_argument(where + " is not a finite number");
    if (values[i] < 0) continue;  // -Infinity: a masked score
    throw std::invalid_argument(where + (std::isnan(values[i]) ? " is NaN" : " is +Infinity") +
                                "; softmax scores must be numbers or -Infinity (a masked position)");
  }
  return values;
}

std::vector<std::uint8_t> read_mask_values(const val& obj, const std::string& name, std::size_t expected) {
  const val data = obj["data"];
  checked_length(data, name, expected);
  std::vector<std::uint8_t> values(expected);
  // Through Number(): accepts Uint8Array, numbers and booleans alike.
  const std::vector<double> raw = emscripten::convertJSArrayToNumberVector<double>(data);
  for (std::size_t i = 0; i < expected; ++i) values[i] = raw[i] != 0 ? 1 : 0;
  return values;
}

}  // namespace attn::wasm
