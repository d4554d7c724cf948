#include "attn/io/model_file.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace attn {
namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'M', 'O', 'D', 'L'};
constexpr std::uint32_t kMaxRank = 8;  // our tensors are rank <= 4; anything above is corruption

std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

class Writer {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    out_.insert(out_.end(), p, p + n);
  }
  void u32(std::uint32_t x) {
    for (int k = 0; k < 4; ++k) out_.push_back(static_cast<std::uint8_t>(x >> (8 * k)));
  }
  void u64(std::uint64_t x) {
    for (int k = 0; k < 8; ++k) out_.push_back(static_cast<std::uint8_t>(x >> (8 * k)));
  }
  void floats(const float* data, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, data + i, 4);
      u32(bits);
    }
  }
  std::vector<std::uint8_t>& out() { return out_; }

 private:
  std::vector<std::uint8_t> out_;
};

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return size_ - pos_; }

  // Throws the truncation error unless n bytes remain (n in 64 bits: counts × sizes from a
  // corrupted file must not wrap around on 32-bit wasm).
  void need(std::uint64_t n, const std::string& what) const {
    if (n > remaining()) {
      throw ModelFileError("model file is truncated: expected " + std::to_string(n) + " more bytes at offset " +
                           std::to_string(pos_) + " (" + what + "), but only " + std::to_string(remaining()) +
                           " remain");
    }
  }
  std::uint32_t u32(const std::string& what) {
    need(4, what);
    std::uint32_t x = 0;
    for (int k = 0; k < 4; ++k) x |= static_cast<std::uint32_t>(data_[pos_ + k]) << (8 * k);
    pos_ += 4;
    return x;
  }
  std::uint64_t u64(const std::string& what) {
    need(8, what);
    std::uint64_t x = 0;
    for (int k = 0; k < 8; ++k) x |= static_cast<std::uint64_t>(data_[pos_ + k]) << (8 * k);
    pos_ += 8;
    return x;
  }
  std::string text(std::size_t n, const std::string& what) {
    need(n, what);
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }
  // n was checked against remaining() / 4 by the caller.
  void floats(float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits = 0;
      for (int k = 0; k < 4; ++k) bits |= static_cast<std::uint32_t>(data_[pos_ + k]) << (8 * k);
      std::memcpy(out + i, &bits, 4);
      pos_ += 4;
    }
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

std::uint32_t checked_u32(std::size_t n, const std::string& what) {
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("save_model: " + what + " (" + std::to_string(n) + ") does not fit in 32 bits");
  }
  return static_cast<std::uint32_t>(n);
}

// "a, b, c" (at most 8 items, then "and N more": a model of another family can differ in
// hundreds of tensors).
std::string join_limited(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < 8; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > 8) out += " and " + std::to_string(items.size() - 8) + " more";
  return out;
}

}  // namespace

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) {
  static const std::array<std::uint32_t, 256> table = make_crc_table();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::vector<std::uint8_t> save_model(const std::string& config_json, const ParameterList& params) {
  std::set<std::string> seen;
  for (const Parameter& p : params) {
    std::size_t elements = 1;
    for (std::size_t extent : p.shape) elements *= extent;
    if (elements != p.size) {
      throw std::invalid_argument("save_model: parameter '" + p.name + "' has shape " + shape_string(p.shape) +
                                  " but size " + std::to_string(p.size));
    }
    if (!seen.insert(p.name).second) {
      throw std::invalid_argument("save_model: two parameters are named '" + p.name +
                                  "'; names must be unique to be loaded back");
    }
  }
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  w.u32(kModelFileVersion);
  w.u32(checked_u32(config_json.size(), "config length"));
  w.bytes(config_json.data(), config_json.size());
  w.u32(checked_u32(params.size(), "tensor count"));
  for (const Parameter& p : params) {
    w.u32(checked_u32(p.name.size(), "length of name '" + p.name + "'"));
    w.bytes(p.name.data(), p.name.size());
    w.u32(checked_u32(p.shape.size(), "rank of '" + p.name + "'"));
    for (std::size_t extent : p.shape) w.u64(extent);
    w.floats(p.value, p.size);
  }
  const std::uint32_t checksum = crc32(w.out().data(), w.out().size());
  w.u32(checksum);
  return std::move(w.out());
}

ModelFile read_model(const std::uint8_t* data, std::size_t size) {
  if (size == 0) throw ModelFileError("not an Attention Playground model file (it is empty)");
  // A short prefix of the magic is a truncated file; anything else is another kind of file.
  if (std::memcmp(data, kMagic, std::min(size, sizeof kMagic)) != 0) {
    throw ModelFileError("not an Attention Playground model file (bad magic)");
  }
  Reader r(data, size);
  r.text(sizeof kMagic, "magic");
  ModelFile file;
  file.version = r.u32("format version");
  if (file.version != kModelFileVersion) {
    throw ModelFileError("model file version " + std::to_string(file.version) +
                         " is not supported (this build reads version " + std::to_string(kModelFileVersion) + ")");
  }
  const std::uint32_t config_length = r.u32("config length");
  file.config_json = r.text(config_length, "config text");
  const std::uint32_t count = r.u32("tensor count");
  // Each tensor takes at least 8 bytes (name length and rank), so a corrupted count cannot make
  // us reserve or loop beyond what the file could hold.
  r.need(std::uint64_t{count} * 8, "at least 8 bytes for each of " + std::to_string(count) + " tensors");
  file.tensors.reserve(count);
  std::set<std::string> names;
  for (std::uint32_t t = 0; t < count; ++t) {
    NamedTensor tensor;
    const std::string which = "tensor " + std::to_string(t);
    const std::uint32_t name_length = r.u32(which + " name length");
    tensor.name = r.text(name_length, which + " name");
    // A corrupted name can be any bytes and very long: quote at most 64 of them.
    const std::string label =
        which + " '" + (tensor.name.size() > 64 ? tensor.name.substr(0, 64) + "..." : tensor.name) + "'";
    if (!names.insert(tensor.name).second) {
      throw ModelFileError("model file is corrupted: " + label + " appears twice");
    }
    const std::uint32_t rank = r.u32(label + " rank");
    if (rank > kMaxRank) {
      throw ModelFileError("model file is corrupted: " + label + " has rank " + std::to_string(rank) + " (at most " +
                           std::to_string(kMaxRank) + " is supported)");
    }
    r.need(std::uint64_t{rank} * 8, label + " dims");
    // The element count is checked against the bytes left after every factor, so neither the
    // product nor the allocation can blow up.
    const std::uint64_t max_elements = (r.remaining() - std::uint64_t{rank} * 8) / 4;
    std::uint64_t elements = 1;
    for (std::uint32_t k = 0; k < rank; ++k) {
      const std::uint64_t extent = r.u64(label + " dims");
      if (extent > std::numeric_limits<std::uint32_t>::max()) {
        throw ModelFileError("model file is corrupted: " + label + " dimension " + std::to_string(k) + " is " +
                             std::to_string(extent));
      }
      tensor.shape.push_back(static_cast<std::size_t>(extent));
      elements *= extent;  // both factors < 2^32: no overflow before the check below
      if (elements > max_elements) {
        throw ModelFileError("model file is truncated: " + label + " declares more values than the " +
                             std::to_string(r.remaining()) + " bytes left at offset " + std::to_string(r.offset()) +
                             " can hold");
      }
    }
    r.need(elements * 4, label + " data");
    tensor.data.resize(static_cast<std::size_t>(elements));
    r.floats(tensor.data.data(), tensor.data.size());
    file.tensors.push_back(std::move(tensor));
  }
  const std::size_t payload_end = r.offset();
  const std::uint32_t stored = r.u32("checksum");
  if (r.remaining() != 0) {
    throw ModelFileError("model file is corrupted: " + std::to_string(r.remaining()) +
                         " unexpected bytes after the checksum at offset " + std::to_string(r.offset()));
  }
  if (crc32(data, payload_end) != stored) throw ModelFileError("model file is corrupted: checksum mismatch");
  return file;
}

double stored_floats(const ModelFile& file) {
  double floats = 0;
  for (const NamedTensor& tensor : file.tensors) floats += static_cast<double>(tensor.data.size());
  return floats;
}

void require_usable_parameters(const ModelFile& file, const std::string& what) {
  for (const NamedTensor& tensor : file.tensors) {
    for (float value : tensor.data) {
      if (!std::isfinite(value)) {
        throw ModelFileError("this " + what + " holds non-finite parameter values (NaN or Inf) in '" + tensor.name +
                             "'; it cannot predict");
      }
      if (std::fabs(value) > kMaxParameterMagnitude) {
        throw ModelFileError("this " + what + " holds a parameter value of " + std::to_string(value) + " in '" +
                             tensor.name +
                             "', beyond the plausible range of ±1e6 (a damaged file or a diverged "
                             "training run); it cannot predict");
      }
    }
  }
}

void load_parameters(const ModelFile& file, const ParameterList& into) {
  std::map<std::string, const NamedTensor*> by_name;
  for (const NamedTensor& t : file.tensors) by_name[t.name] = &t;
  std::vector<std::string> misshaped, missing, unexpected;
  std::set<std::string> wanted;
  for (const Parameter& p : into) {
    wanted.insert(p.name);
    auto found = by_name.find(p.name);
    if (found == by_name.end()) {
      missing.push_back("'" + p.name + "'");
    } else if (found->second->shape != p.shape) {
      misshaped.push_back("'" + p.name + "' is " + shape_string(found->second->shape) + " in the file but " +
                          shape_string(p.shape) + " in this model");
    }
  }
  for (const NamedTensor& t : file.tensors) {
    if (wanted.count(t.name) == 0) unexpected.push_back("'" + t.name + "'");
  }
  if (!misshaped.empty() || !missing.empty() || !unexpected.empty()) {
    std::vector<std::string> parts;
    if (!misshaped.empty()) parts.push_back("shape mismatch: " + join_limited(misshaped));
    if (!missing.empty()) parts.push_back("missing from the file: " + join_limited(missing));
    if (!unexpected.empty()) parts.push_back("not in this model: " + join_limited(unexpected));
    std::string message = "this file holds a model of another architecture:";
    for (std::size_t i = 0; i < parts.size(); ++i) message += (i ? "; " : " ") + parts[i];
    throw ModelFileError(message);
  }
  for (const Parameter& p : into) {
    const NamedTensor& t = *by_name[p.name];
    std::copy(t.data.begin(), t.data.end(), p.value);
  }
}

}  // namespace attn
