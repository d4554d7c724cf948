// libFuzzer target: model files. read_model must reject every damaged file with ModelFileError;
// load_sentiment_model must either load a usable model (it then predicts a finite probability
// for a short text) or throw ModelFileError. First byte even: the rest is the file as is (the
// CRC-32 rejects almost every mutation). Odd: the harness rewrites the trailing CRC-32 to match,
// so mutations reach the lengths, the tensors and the configuration JSON behind it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "attn/io/model_file.hpp"
#include "attn/train/sentiment_training.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const fuzz::Bytes bytes = fuzz::model_file_input(data, size);
  try {
    attn::read_model(bytes);
  } catch (const attn::ModelFileError&) {
  }
  try {
    const attn::SentimentModel model = attn::load_sentiment_model(bytes);
    const std::vector<float> p = attn::predict(model, {"a good film", ""});
    if (p.size() != 2) std::abort();
  } catch (const attn::ModelFileError&) {
  }
  return 0;
}
