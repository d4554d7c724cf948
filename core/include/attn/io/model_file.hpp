// The model file: one versioned binary format holding a model's configuration and all its
// parameters, identical on every host (little-endian throughout, written byte by byte).
//
//   offset  size        field
//   0       8           magic "ATTNMODL"
//   8       4           u32 format version (1)
//   12      4           u32 L: config length, then L bytes of UTF-8 config text (the model's
//                       configuration as JSON, produced by the caller: opaque to this layer)
//   .       4           u32 tensor count, then per tensor:
//                         u32 name length + name bytes, u32 rank R, R × u64 dims,
//                         Π dims × float32 data (row-major)
//   end−4   4           u32 CRC-32 (IEEE 802.3, as zlib's crc32) of every byte before it
//
// Reading trusts nothing: every length is checked against the bytes that remain before anything
// is allocated or read, so a truncated or corrupted file throws ModelFileError and never reads
// past the end or asks for gigabytes. Float data is copied bit for bit (NaN payloads, −0 and
// denormals survive a round trip).
//
// Shapes: tensors are stored flat with their shape (any rank up to 8), as a ParameterList
// publishes them; nothing here depends on B, T, D...
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/layers/parameter.hpp"

namespace attn {

// Every failure to read, parse, load or write a model file (bad arguments to save_model are
// std::invalid_argument: they are bugs in the caller, not in the file).
class ModelFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr std::uint32_t kModelFileVersion = 1;

struct NamedTensor {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<float> data;  // Π shape floats, row-major
};

struct ModelFile {
  std::uint32_t version = kModelFileVersion;
  std::string config_json;
  std::vector<NamedTensor> tensors;  // in file order (the model's parameter order)
};

// The file bytes for `config_json` and the VALUES of `params` (gradients are not saved).
// Parameter names must be unique (std::invalid_argument otherwise).
std::vector<std::uint8_t> save_model(const std::string& config_json, const ParameterList& params);

// Parses and validates `size` bytes at `data`: magic, version, every length, the checksum, no
// trailing bytes, no duplicate tensor names. Throws ModelFileError.
ModelFile read_model(const std::uint8_t* data, std::size_t size);
inline ModelFile read_model(const std::vector<std::uint8_t>& bytes) { return read_model(bytes.data(), bytes.size()); }

// Copies the file's tensors into `into`'s values, matched by name. Every parameter must be in
// the file with the same shape and the file must hold nothing else; otherwise throws
// ModelFileError("this file holds a model of another architecture: ...") naming the missing,
// unexpected and mis-shaped tensors, and changes no value.
void load_parameters(const ModelFile& file, const ParameterList& into);

// Loader guards shared by every model kind (`what` names it in messages, e.g. "sentiment model"):
// the floats the file holds, to refuse a configuration that describes a larger model before it
// is built (a damaged file must not allocate gigabytes), ...
double stored_floats(const ModelFile& file);
// ... and NaN/Inf weights or finite ones above kMaxParameterMagnitude (a model saved after its
// training diverged, or a damaged file with a valid checksum), which would load and then overflow
// to NaN inside the first softmax: ModelFileError naming the tensor. Trained weights stay orders
// of magnitude below the bound; below it, none of the models' products can overflow float32.
constexpr float kMaxParameterMagnitude = 1e6f;
void require_usable_parameters(const ModelFile& file, const std::string& what);

// CRC-32 (IEEE, reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF).
std::uint32_t crc32(const std::uint8_t* data, std::size_t size);

// --- files on disk (POSIX; in model_file_disk.cpp so the wasm module, built without a file
// system, never links them) ---

// Replaces the file at `path` with `bytes`: writes a temporary file in the same folder, fsyncs
// it, then renames it over `path` (atomic on POSIX), so a crash or error at any point leaves
// either the old file or the new one, never a mix. Throws ModelFileError (the temporary file is
// removed).
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes);

// The whole content of the regular file at `path`. Throws ModelFileError when it does not exist,
// cannot be read, is not a regular file or is larger than max_bytes (default 1 GiB).
std::vector<std::uint8_t> read_file(const std::string& path, std::size_t max_bytes = std::size_t{1} << 30);

}  // namespace attn
