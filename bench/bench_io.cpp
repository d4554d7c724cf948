// Throughput of the data path the loaders run before any training: the tokenizer, raw inflate
// and gzip (inflate + CRC-32), natively. Prints one JSON object per line:
//   {"impl":"native","kernel":"io","what":"tokenize","mb":10.0,"mb_per_s":...,"mb_per_s_wall":...}
// Each figure is the best of 3 runs on generated review-like text, on the process CPU clock
// (the machine is shared; wall time is kept alongside). The output of each run is checked
// (the inflated bytes equal the input, the token count is stable), so a broken fast path cannot
// report a speed. These were timed doctest cases once; timing lives here now, the tests check
// behaviour only.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "attn/io/gzip.hpp"
#include "attn/io/inflate.hpp"
#include "attn/random.hpp"
#include "attn/text/tokenizer.hpp"
#include "support/archive_writer.hpp"

namespace {

using test_archive::Bytes;

struct Timing {
  double cpu_seconds;
  double wall_seconds;
};

template <class Run>
Timing best_of_3(Run run) {
  Timing best{1e300, 1e300};
  for (int i = 0; i < 3; ++i) {
    const auto wall_start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    run();
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    if (cpu < best.cpu_seconds) best.cpu_seconds = cpu;
    if (wall < best.wall_seconds) best.wall_seconds = wall;
  }
  return best;
}

void report(const char* what, double megabytes, const Timing& t, const std::string& extra = "") {
  std::printf(
      "{\"impl\":\"native\",\"kernel\":\"io\",\"what\":\"%s\",\"mb\":%.2f,\"mb_per_s\":%.1f,\"mb_per_s_wall\":%.1f%s}"
      "\n",
      what, megabytes, megabytes / t.cpu_seconds, megabytes / t.wall_seconds, extra.c_str());
  std::fflush(stdout);
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "bench_io: %s\n", what);
  std::exit(1);
}

// Review-like text: words, punctuation, <br /> tags, apostrophes, capitals, accents, emoji.
std::string review_text(std::size_t size) {
  static const char* pieces[] = {"the ",         "movie ",  "was ",     "GREAT",      "!! ",
                                 "I ",           "didn't ", "like ",    "'the ",      "end'. ",
                                 "<br /><br />", "Café ",   "acting, ", "plot ",      "\xF0\x9F\x98\x80 ",
                                 "and ",         "a ",      "film. ",   "wonderful ", "boring "};
  attn::Rng rng(3);
  std::string text;
  text.reserve(size + 32);
  while (text.size() < size) text += pieces[rng.below(20)];
  return text;
}

void bench_tokenize() {
  const std::string text = review_text(10'000'000);
  std::size_t tokens = 0;
  const Timing t = best_of_3([&] {
    const std::size_t n = attn::tokenize(text).size();
    if (tokens != 0 && n != tokens) fail("tokenize: the token count changed between runs");
    tokens = n;
  });
  if (tokens < 1'000'000) fail("tokenize: too few tokens");
  report("tokenize", text.size() / 1e6, t, ",\"tokens\":" + std::to_string(tokens));
}

void bench_inflate() {
  const std::string text = review_text(24u << 20);
  const Bytes plain(text.begin(), text.end());
  const Bytes stream = test_archive::deflate_fixed(plain);
  const Timing t = best_of_3([&] {
    if (attn::inflate_bytes(stream.data(), stream.size(), std::size_t(1) << 30) != plain) fail("inflate: wrong output");
  });
  report("inflate", plain.size() / 1e6, t);
}

void bench_gzip() {
  const std::string text = review_text(24u << 20);
  const Bytes plain(text.begin(), text.end());
  const Bytes gz = test_archive::gzip_fixed(plain);
  const Timing t = best_of_3([&] {
    attn::MemorySource source(gz.data(), gz.size(), "bench.gz");
    attn::GzipReader reader(source, std::uint64_t(1) << 30);
    Bytes out;
    out.reserve(plain.size());
    std::vector<std::uint8_t> buffer(65536);
    for (std::size_t n; (n = reader.read(buffer.data(), buffer.size())) != 0;)
      out.insert(out.end(), buffer.begin(), buffer.begin() + n);
    if (out != plain) fail("gzip: wrong output");
  });
  report("gzip", plain.size() / 1e6, t);
}

}  // namespace

int main() {
  bench_tokenize();
  bench_inflate();
  bench_gzip();
  return 0;
}
