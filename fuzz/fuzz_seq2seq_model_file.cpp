// libFuzzer target: seq2seq model files. load_seq2seq must either load a model that decodes a
// short source greedily, or throw ModelFileError. First byte even: the rest is the file as is;
// odd: the harness rewrites the trailing CRC-32 to match, so mutations reach what lies behind it
// (as in fuzz_model_file.cpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/io/model_file.hpp"
#include "attn/models/seq2seq.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const fuzz::Bytes bytes = fuzz::model_file_input(data, size);
  try {
    std::string extra;
    const attn::Seq2SeqModel model = attn::load_seq2seq(bytes, &extra);
    // Ids 4.. are ordinary tokens; stay inside the source vocabulary.
    const int token = model.config().source_vocab > 4 ? 4 : attn::kUnkId;
    model.greedy(std::vector<int>{token, token}, 4);
  } catch (const attn::ModelFileError&) {
  }
  return 0;
}
