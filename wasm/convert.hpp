// Conversions between JS values and attn tensors, and C++ → JS error translation.
// JS tensors are plain objects {shape: number[], data: Float32Array | number[]} (row-major);
// masks use Uint8Array (or number[]/boolean[]) data, 1 = visible.
// Every conversion here copies: the data handed in or out is owned by the caller afterwards.
#pragma once

#include <emscripten/val.h>

#include <array>
#include <exception>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "attn/io/settings_schema.hpp"
#include "attn/tensor.hpp"

namespace attn::wasm {

using emscripten::val;

// Throws a JS Error carrying `message`. The message is copied into a static buffer first:
// a JS throw unwinds past C++ destructors, so nothing on the stack may own heap memory.
[[noreturn]] void throw_js_error(const std::string& message);

// Runs `body`; a C++ exception becomes a JS Error with the exception's message.
template <class Body>
auto guarded(Body&& body) -> decltype(body()) {
  static std::string failure;  // reused: see throw_js_error
  try {
    return body();
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "attention engine: unknown C++ exception";
  }
  throw_js_error(failure);
}

// True when `v` is undefined or null (an omitted optional argument).
inline bool is_absent(const val& v) { return v.isUndefined() || v.isNull(); }

// An optional boolean option: false when absent; throws std::invalid_argument "<name> must be a
// boolean" for anything but true / false.
bool read_flag(const val& v, const std::string& name);

// camelCase -> snake_case ("learningRate" -> "learning_rate"); snake_case passes as is.
std::string snake_case(const std::string& key);
// A JS number, boolean or string as a SettingValue; anything else throws std::invalid_argument
// "<name> must be a number, a boolean or a string".
SettingValue setting_value_from_js(const val& value, const std::string& name);
val setting_value_to_js(const SettingValue& value);
// A schema's field as the page sees it: {name (camelCase), key (snake_case), type, default, min,
// max, minOpen, maxOpen, choices, help, flag}.
val setting_spec_to_js(const SettingSpec& spec, const SettingValue& default_value);

// A plain JS settings object ({embedDim: 32, encoder: 'bilstm', ...}) read straight into `Config`
// through its schema (io/settings_schema.hpp): camelCase or snake_case keys, undefined values
// skipped, each value checked with the schema's one wording, then the schema's finish step. The
// one conversion of settings at the boundary (no JSON text in between). undefined/null -> the
// defaults.
// Calls visit(snake_case key, value) for each defined key of a plain JS settings object;
// undefined/null settings visit nothing. `name` is for errors.
void for_each_setting(const val& settings, const std::string& name,
                      const std::function<void(const std::string&, const SettingValue&)>& visit);

template <class Config>
Config settings_from_js(const SettingsSchema<Config>& schema, const val& settings, const std::string& name) {
  Config config;
  for_each_setting(settings, name,
                   [&](const std::string& key, const SettingValue& value) { schema.set(config, key, value); });
  schema.finish(config);
  return config;
}

// Every field of `config` as {camelCaseName: value} (a copy).
template <class Config>
val settings_to_js(const SettingsSchema<Config>& schema, const Config& config) {
  val out = val::object();
  for (const auto& f : schema.fields()) out.set(camel_case(f.spec.name), setting_value_to_js(f.get(config)));
  return out;
}

// The fields of `schema` with their defaults (setting_spec_to_js), in the schema's order.
template <class Config>
val schema_to_js(const SettingsSchema<Config>& schema) {
  val out = val::array();
  for (const auto& f : schema.fields()) out.call<void>("push", setting_spec_to_js(f.spec, schema.default_of(f)));
  return out;
}

// Copies a Uint8Array / ArrayBuffer / typed-array view into wasm memory in one block copy
// (TypedArray.set, not element by element: an aclImdb archive is 84 MB).
std::vector<std::uint8_t> read_bytes(const val& bytes, const std::string& name);

// The most values one tensor or mask handed in may describe: 2^28 (1 GiB of floats). wasm32's
// size_t is 32 bits, so without this bound a shape like [65536, 65536] would wrap its product
// to 0, pass the data-length check with no data and be read out of bounds.
constexpr double kMaxValues = 268435456.0;

// Throws std::invalid_argument "<what> describes N values; at most 268435456" unless the
// product of `extents` (each already a whole number) is within kMaxValues.
void check_value_count(std::initializer_list<double> extents, const std::string& what);

// x as a count: throws std::invalid_argument "<name> must be a whole number between 0 and <max>"
// unless x is a whole number in [0, max].
std::size_t whole_number(double x, const std::string& name, double max);

// The optional number arguments and options of every binding, one wording:
// read_whole: `fallback` when x is absent; "<name> must be a number" for anything but a number;
// whole_number's rule otherwise. option_whole / option_number read options[key] (options may be
// absent) under the name "options.<key>"; option_number takes any number.
std::size_t read_whole(const val& x, const std::string& name, double max, std::size_t fallback);
// The same for an argument that must be given (absent: "<name> must be a number").
std::size_t read_whole(const val& x, const std::string& name, double max);
std::size_t option_whole(const val& options, const char* key, double max, std::size_t fallback);
double option_number(const val& options, const char* key, double fallback);

// A JS array of strings (a copy).
val strings_to_js(const std::vector<std::string>& strings);

// A new typed array of `type` ("Float32Array", "Int32Array", "Uint8Array", ...) holding a copy
// of `values` (`new Float32Array(view)` copies out of the wasm heap).
template <class T>
val typed_array_copy(const char* type, const std::vector<T>& values) {
  return val::global(type).new_(emscripten::typed_memory_view(values.size(), values.data()));
}

// The other shards' exchange buffers of a data-parallel step from JS (docs/data-parallel.md):
// `others` (an array of Float32Array, else std::invalid_argument "applyGradient: the other
// shards' gradients must be an array of Float32Array") copied into `into` (one vector each).
void read_exchange_buffers(const val& others, std::vector<std::vector<float>>& into);

// Reads obj.shape (an array of non-negative integers, their product within kMaxValues); `name`
// is used in error messages.
std::vector<std::size_t> read_shape(const val& obj, const std::string& name);
// Number of dimensions of a JS tensor object (its shape's length).
std::size_t rank_of(const val& obj, const std::string& name);
// What a float tensor handed in may hold besides finite numbers. One rule, the engine's softmax
// rule (attention/softmax.hpp): -Infinity is accepted exactly where softmax scores are (it means
// a masked position); everywhere else, and NaN or +Infinity anywhere, is an error.
enum class NonFinite { reject, masked_scores };

// Reads obj.data as floats, checking its length against the product of `shape` and its values
// against `allowed`: "<name>.data[i] is not a finite number", or for scores
// "<name>.data[i] is NaN (or +Infinity); softmax scores must be numbers or -Infinity (a masked position)".
std::vector<float> read_floats(const val& obj, const std::string& name, std::size_t expected,
                               NonFinite allowed = NonFinite::reject);
std::vector<std::uint8_t> read_mask_values(const val& obj, const std::string& name, std::size_t expected);

template <std::size_t N>
xt::xtensor<float, N> to_tensor(const val& obj, const std::string& name, NonFinite allowed = NonFinite::reject) {
  const std::vector<std::size_t> shape = read_shape(obj, name);
  if (shape.size() != N) {
    throw ShapeError(name + " must have " + std::to_string(N) + " dimensions, got shape " + shape_string(shape));
  }
  std::array<std::size_t, N> fixed{};
  std::size_t count = 1;
  for (std::size_t i = 0; i < N; ++i) {
    fixed[i] = shape[i];
    count *= shape[i];
  }
  const std::vector<float> values = read_floats(obj, name, count, allowed);
  xt::xtensor<float, N> out = xt::empty<float>(fixed);
  std::copy(values.begin(), values.end(), out.begin());
  return out;
}

template <std::size_t N>
xt::xtensor<std::uint8_t, N> to_mask(const val& obj, const std::string& name) {
  const std::vector<std::size_t> shape = read_shape(obj, name);
  if (shape.size() != N) {
    throw ShapeError(name + " must have " + std::to_string(N) + " dimensions, got shape " + shape_string(shape));
  }
  std::array<std::size_t, N> fixed{};
  std::size_t count = 1;
  for (std::size_t i = 0; i < N; ++i) {
    fixed[i] = shape[i];
    count *= shape[i];
  }
  const std::vector<std::uint8_t> values = read_mask_values(obj, name, count);
  xt::xtensor<std::uint8_t, N> out = xt::empty<std::uint8_t>(fixed);
  std::copy(values.begin(), values.end(), out.begin());
  return out;
}

// {shape, data: Float32Array} (a copy) for a float tensor; Uint8Array data for a mask.
template <class T, std::size_t N>
val to_js(const xt::xtensor<T, N>& tensor) {
  val shape = val::array();
  for (std::size_t extent : tensor.shape()) shape.call<void>("push", extent);
  const char* array_type = std::is_same<T, float>::value ? "Float32Array" : "Uint8Array";
  // `new Float32Array(view)` copies out of the wasm heap; the view itself is never exposed.
  val data = val::global(array_type).new_(emscripten::typed_memory_view(tensor.size(), tensor.data()));
  val out = val::object();
  out.set("shape", shape);
  out.set("data", data);
  return out;
}

// The fields a training session's progress report has in common (the sentiment and the seq2seq
// sessions each add their own): `step` is the session's total step count, `epoch_to_js` the
// session's conversion of one finished epoch.
template <class Progress, class EpochToJs>
void set_run_progress(val& out, const Progress& p, double step, EpochToJs epoch_to_js) {
  out.set("stepsRun", static_cast<double>(p.steps_run));
  out.set("step", step);
  out.set("epoch", static_cast<double>(p.last.epoch));
  out.set("loss", p.last.loss);
  // `new Float32Array(view)` copies out of the wasm heap.
  out.set("losses", val::global("Float32Array").new_(emscripten::typed_memory_view(p.losses.size(), p.losses.data())));
  out.set("elapsed", p.last.elapsed);
  out.set("examplesPerSecond", p.last.examples_per_second);
  out.set("plannedSteps", static_cast<double>(p.planned_steps));
  out.set("batchesPerEpoch", static_cast<double>(p.batches_per_epoch));
  val epochs = val::array();
  for (const auto& e : p.epochs) epochs.call<void>("push", epoch_to_js(e));
  out.set("epochs", epochs);
  out.set("done", p.done);
  out.set("earlyStopped", p.early_stopped);
  out.set("bestEpoch", p.best_epoch);
}

}  // namespace attn::wasm
