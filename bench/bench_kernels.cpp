// Times the hot kernels against their plain-loop references, and whole training steps of the
// sentiment models, and prints one JSON object per line:
//   {"impl":"native","kernel":"gemm","variant":"fast","m":32,"n":512,"k":128,"gflops":...}
//   {"impl":"native","kernel":"exp","variant":"fast","n":4096,"melem_per_s":...}
//   {"impl":"native","kernel":"train_step","model":"bilstm-attention","ms_per_step":...,"tokens_per_s":...}
// The same source runs natively and, compiled with Emscripten, under node (wasm SIMD and wasm
// scalar builds); scripts/bench.mjs runs all three and lines them up, and bench/browser/ loads
// the wasm builds into Chromium. Each figure is the median of several samples, each sample long
// enough (>= 20 ms) for the clock, after a warm-up.
//
// Two clocks: wall time, and the process's CPU time where the platform has one (natively, and
// under node through process.cpuUsage). The machine this runs on is shared, so wall time
// measures the load as much as the code; "gflops" / "ms_per_step" come from CPU time when it is
// available ("clock":"cpu") and the wall-clock figures are kept alongside ("*_wall").
//
// With arguments it runs one item (the browser bench times each item on its own):
//   attn_bench gemm M N K | attn_bench gemm-transformer | attn_bench vector | attn_bench peak (x86-64)
//   | attn_bench train bilstm-attention|transformer-1block|transformer-seq2seq|rnnsearch-seq2seq
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#else
#include <ctime>
#endif
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#include <immintrin.h>
#endif

#if defined(ATTN_BENCH_OPENBLAS)
#include <cblas.h>
#endif

#include "attn/kernels/gemm.hpp"
#include "attn/kernels/vector_math.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/optim/adam.hpp"
#include "attn/optim/clip.hpp"
#include "attn/random.hpp"
#include "attn/train/classifier_step.hpp"

namespace {

#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
const char* const kImpl = "wasm-simd";
#elif defined(__EMSCRIPTEN__)
const char* const kImpl = "wasm-scalar";
#else
const char* const kImpl = "native";
#endif

constexpr int kSamples = 7;
constexpr double kMinSampleSeconds = 0.02;
constexpr double kWarmUpSeconds = 0.25;

volatile float sink;  // keeps results observable so no call is optimised away

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

#if defined(__EMSCRIPTEN__)
// CPU seconds of the node process (user + system), or -1 in a browser, which has no such clock.
EM_JS(double, process_cpu_seconds, (), {
  if (typeof process != 'undefined' && process.cpuUsage) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) * 1e-6;
  }
  return -1;
});
#else
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
#endif

// Seconds per call on both clocks; cpu < 0 when the platform has no CPU clock.
struct Timing {
  double cpu;
  double wall;
  double fastest_wall;  // the fastest sample: on a shared machine, the one least interrupted
  double best() const { return cpu > 0 ? cpu : wall; }
  const char* clock() const { return cpu > 0 ? "cpu" : "wall"; }
};

// The clock that paces warm-up and calibration: CPU time where there is one, so that a loaded
// machine cannot cut the warm-up short (V8 compiles its optimised tier on a background thread,
// which needs CPU time too; measured after 50 ms of wall time on a busy machine, wasm still ran
// its baseline code, 4× slower).
double work_seconds() {
  const double cpu = process_cpu_seconds();
  return cpu >= 0 ? cpu : std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median seconds per call of `run` on each clock: a warm-up of at least kWarmUpSeconds (packing
// buffers grow, caches fill, and V8 swaps its baseline wasm code for optimised code, which only
// happens between calls), a calibration that picks how many calls make one sample, then kSamples
// samples.
template <class F>
Timing median_seconds_per_call(F&& run) {
  // Without a CPU clock (a browser) the wall-clock warm-up is longer, the machine being shared.
  const double warm_up_seconds = process_cpu_seconds() >= 0 ? kWarmUpSeconds : 4 * kWarmUpSeconds;
  const double warm_up = work_seconds();
  do run();
  while (work_seconds() - warm_up < warm_up_seconds);
  int calls = 1;
  for (;;) {
    const double start = work_seconds();
    for (int i = 0; i < calls; ++i) run();
    if (work_seconds() - start >= kMinSampleSeconds) break;
    calls *= 2;
  }
  std::vector<double> wall, cpu;
  for (int s = 0; s < kSamples; ++s) {
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) run();
    wall.push_back(seconds_since(start) / calls);
    cpu.push_back((process_cpu_seconds() - cpu_start) / calls);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {cpu[kSamples / 2] > 0 ? cpu[kSamples / 2] : -1.0, wall[kSamples / 2], wall.front()};
}

#if defined(ATTN_BENCH_OPENBLAS)
// OpenBLAS's sgemm behind gemm's signature (row-major, the same transposes and leading dimensions).
void openblas_gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
                   std::size_t lda, const float* b, std::size_t ldb, float beta, float* c, std::size_t ldc) {
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a, static_cast<int>(lda), b,
              static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}
#endif

void bench_gemm(attn::Rng& rng, std::size_t m, std::size_t n, std::size_t k) {
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (float& x : a) x = rng.uniform(-1.f, 1.f);
  for (float& x : b) x = rng.uniform(-1.f, 1.f);
  const double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  // "fast" is gemm as the engine runs it (the best kernel for this CPU). Then, where there is more
  // than one: each micro-kernel on its own ("kernel:<name>"), the wasm mul + add kernel where the
  // relaxed-SIMD FMA one runs ("fast-mul-add"), OpenBLAS's sgemm when the native bench was built
  // with it ("openblas", one thread; CMakeLists.txt finds it), and the plain loop ("reference").
  struct Variant {
    std::string name;
    std::function<void()> select;
    decltype(&attn::kernels::gemm) gemm;
  };
  using attn::kernels::GemmKernel;
  const auto use_kernel = [](GemmKernel kernel) {
    return [kernel] {
      attn::kernels::set_gemm_fma(true);
      attn::kernels::set_gemm_kernel(kernel);
    };
  };
  std::vector<Variant> variants{{"fast", use_kernel(GemmKernel::best), &attn::kernels::gemm}};
  const GemmKernel kernels[] = {GemmKernel::avx512, GemmKernel::avx2_fma, GemmKernel::simd4};
  if (attn::kernels::set_gemm_kernel(GemmKernel::avx2_fma)) {
    for (const GemmKernel kernel : kernels)
      if (attn::kernels::set_gemm_kernel(kernel))
        variants.push_back(
            {std::string("kernel:") + attn::kernels::gemm_implementation(), use_kernel(kernel), &attn::kernels::gemm});
  }
  attn::kernels::set_gemm_kernel(GemmKernel::best);
  if (attn::kernels::set_gemm_fma(true))
    variants.push_back({"fast-mul-add", [] { attn::kernels::set_gemm_fma(false); }, &attn::kernels::gemm});
#if defined(ATTN_BENCH_OPENBLAS)
  variants.push_back({"openblas", [] {}, &openblas_gemm});
#endif
  variants.push_back({"reference", use_kernel(GemmKernel::best), &attn::kernels::gemm_reference});
  for (const Variant& v : variants) {
    v.select();
    const std::string impl = v.name == "openblas" ? "openblas sgemm" : attn::kernels::gemm_implementation();
    const Timing t = median_seconds_per_call([&] {
      v.gemm(false, false, m, n, k, 1.f, a.data(), k, b.data(), n, 0.f, c.data(), n);
      sink = c[0];
    });
    std::printf(
        "{\"impl\":\"%s\",\"kernel\":\"gemm\",\"variant\":\"%s\",\"gemm_impl\":\"%s\",\"m\":%zu,\"n\":%zu,"
        "\"k\":%zu,\"gflops\":%.3f,\"gflops_wall\":%.3f,\"gflops_fastest_wall\":%.3f,\"clock\":\"%s\"}\n",
        kImpl, v.name.c_str(), impl.c_str(), m, n, k, flops / t.best() * 1e-9, flops / t.wall * 1e-9,
        flops / t.fastest_wall * 1e-9, t.clock());
    std::fflush(stdout);
  }
  attn::kernels::set_gemm_fma(true);
  attn::kernels::set_gemm_kernel(GemmKernel::best);
}

// The GEMM calls of one Transformer training step (bench_train_step's transformer-1block: batch
// 32 × 200 tokens, d_model 32, 2 heads of 16, FF 64), each with the flags, leading dimensions,
// alpha and beta the layers pass (core/src/layers/dense.cpp, multi_head_attention.cpp) and how
// many times a step runs it. Prints GFLOP/s per call and the milliseconds all of them take per
// step, for gemm as the engine runs it ("fast") and, where the FMA kernel runs, the mul + add one.
void bench_transformer_gemms(attn::Rng& rng) {
  struct Call {
    const char* what;
    bool ta, tb;
    std::size_t m, n, k, lda, ldb, ldc;
    float alpha, beta;
    int count;
  };
  constexpr std::size_t kRows = 32 * 200, kT = 200, kD = 32, kHd = 16, kFf = 64;
  constexpr int kHeads = 32 * 2;
  const Call calls[] = {
      {"dense fwd d->d", false, false, kRows, kD, kD, kD, kD, kD, 1.f, 0.f, 4},
      {"dense fwd d->ff", false, false, kRows, kFf, kD, kD, kFf, kFf, 1.f, 0.f, 1},
      {"dense fwd ff->d", false, false, kRows, kD, kFf, kFf, kD, kD, 1.f, 0.f, 1},
      {"dense dW d->d", true, false, kD, kD, kRows, kD, kD, kD, 1.f, 1.f, 4},
      {"dense dW d->ff", true, false, kD, kFf, kRows, kD, kFf, kFf, 1.f, 1.f, 1},
      {"dense dW ff->d", true, false, kFf, kD, kRows, kFf, kD, kD, 1.f, 1.f, 1},
      {"dense dx d->d", false, true, kRows, kD, kD, kD, kD, kD, 1.f, 0.f, 4},
      {"dense dx d->ff", false, true, kRows, kD, kFf, kFf, kFf, kD, 1.f, 0.f, 1},
      {"dense dx ff->d", false, true, kRows, kFf, kD, kD, kD, kFf, 1.f, 0.f, 1},
      {"S = s QK^T", false, true, kT, kT, kHd, kD, kD, kT, 0.25f, 0.f, kHeads},
      {"O = PV", false, false, kT, kHd, kT, kT, kD, kD, 1.f, 0.f, kHeads},
      {"dP = dO V^T", false, true, kT, kT, kHd, kD, kD, kT, 1.f, 0.f, kHeads},
      {"dV^T = dO^T P", true, false, kHd, kT, kT, kD, kT, kT, 1.f, 0.f, kHeads},
      {"dQ = dS K", false, false, kT, kHd, kT, kT, kD, kD, 1.f, 0.f, kHeads},
      {"dK^T = Q^T dS", true, false, kHd, kT, kT, kD, kT, kT, 1.f, 0.f, kHeads},
  };
  std::vector<std::pair<std::string, std::function<void()>>> variants{
      {"fast", [] { attn::kernels::set_gemm_fma(true); }}};
  if (attn::kernels::set_gemm_fma(true))
    variants.push_back({"fast-mul-add", [] { attn::kernels::set_gemm_fma(false); }});
  for (const auto& [variant, select] : variants) {
    select();
    double step_seconds = 0, step_flops = 0;
    for (const Call& call : calls) {
      const std::size_t a_rows = call.ta ? call.k : call.m, b_rows = call.tb ? call.n : call.k;
      std::vector<float> a(a_rows * call.lda), b(b_rows * call.ldb), c(call.m * call.ldc);
      for (float& x : a) x = rng.uniform(-1.f, 1.f);
      for (float& x : b) x = rng.uniform(-1.f, 1.f);
      const Timing t = median_seconds_per_call([&] {
        attn::kernels::gemm(call.ta, call.tb, call.m, call.n, call.k, call.alpha, a.data(), call.lda, b.data(),
                            call.ldb, call.beta, c.data(), call.ldc);
        sink = c[0];
      });
      const double flops = 2.0 * static_cast<double>(call.m * call.n * call.k);
      step_seconds += call.count * t.best();
      step_flops += call.count * flops;
      std::printf(
          "{\"impl\":\"%s\",\"kernel\":\"gemm_transformer\",\"variant\":\"%s\",\"gemm_impl\":\"%s\","
          "\"call\":\"%s\",\"trans_a\":%d,\"trans_b\":%d,\"m\":%zu,\"n\":%zu,\"k\":%zu,\"per_step\":%d,"
          "\"gflops\":%.3f,\"clock\":\"%s\"}\n",
          kImpl, variant.c_str(), attn::kernels::gemm_implementation(), call.what, call.ta, call.tb, call.m, call.n,
          call.k, call.count, flops / t.best() * 1e-9, t.clock());
      std::fflush(stdout);
    }
    std::printf(
        "{\"impl\":\"%s\",\"kernel\":\"gemm_transformer_step\",\"variant\":\"%s\",\"gemm_impl\":\"%s\","
        "\"ms_per_step\":%.3f,\"mflop\":%.1f,\"gflops\":%.3f}\n",
        kImpl, variant.c_str(), attn::kernels::gemm_implementation(), step_seconds * 1e3, step_flops * 1e-6,
        step_flops / step_seconds * 1e-9);
    std::fflush(stdout);
  }
  attn::kernels::set_gemm_fma(true);
}

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
// The ceiling of any GEMM kernel on one core: 12 independent chains of AVX-512 fused
// multiply-adds (AVX2 where the CPU has no AVX-512) with no memory traffic. The empty asm keeps
// every chain in a register and each step's multiply-adds from being folded.
#define ATTN_FMA_CHAINS(V, FMADD, SET1, LANES)                                                                       \
  V x = SET1(1.0000001f), y = SET1(0.999999f), a0 = SET1(0.f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, \
    a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;                                                                   \
  for (long i = 0; i < iters; ++i) {                                                                                 \
    a0 = FMADD(a0, x, y), a1 = FMADD(a1, x, y), a2 = FMADD(a2, x, y), a3 = FMADD(a3, x, y);                          \
    a4 = FMADD(a4, x, y), a5 = FMADD(a5, x, y), a6 = FMADD(a6, x, y), a7 = FMADD(a7, x, y);                          \
    a8 = FMADD(a8, x, y), a9 = FMADD(a9, x, y), a10 = FMADD(a10, x, y), a11 = FMADD(a11, x, y);                      \
    __asm__ volatile(""                                                                                              \
                     : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), "+v"(a6), "+v"(a7), "+v"(a8),     \
                       "+v"(a9), "+v"(a10), "+v"(a11));                                                              \
  }                                                                                                                  \
  float out[LANES];                                                                                                  \
  std::memcpy(out, &a0, sizeof out);                                                                                 \
  return out[0] + out[LANES - 1] + a11[0]

__attribute__((target("avx512f,fma"), noinline)) float fma_chains_avx512(long iters) {
  ATTN_FMA_CHAINS(__m512, _mm512_fmadd_ps, _mm512_set1_ps, 16);
}
__attribute__((target("avx2,fma"), noinline)) float fma_chains_avx2(long iters) {
  ATTN_FMA_CHAINS(__m256, _mm256_fmadd_ps, _mm256_set1_ps, 8);
}
#undef ATTN_FMA_CHAINS

void bench_fma_peak() {
  const bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) return;
  const long iters = 1 << 16;
  const Timing t = median_seconds_per_call([&] { sink = avx512 ? fma_chains_avx512(iters) : fma_chains_avx2(iters); });
  const double flops = 12.0 * 2.0 * (avx512 ? 16 : 8) * static_cast<double>(iters);
  std::printf(
      "{\"impl\":\"%s\",\"kernel\":\"fma_peak\",\"isa\":\"%s\",\"gflops\":%.3f,\"gflops_wall\":%.3f,\"clock\":\"%s\"}"
      "\n",
      kImpl, avx512 ? "avx512" : "avx2", flops / t.best() * 1e-9, flops / t.wall * 1e-9, t.clock());
  std::fflush(stdout);
}
#endif

void bench_vector_math(attn::Rng& rng, std::size_t n) {
  std::vector<float> x(n), y(n);
  // The range the gates see, with both signs and both polynomial branches of tanh.
  for (float& v : x) v = rng.uniform(-8.f, 8.f);
  struct Kernel {
    const char* name;
    const char* variant;
    void (*f)(const float*, float*, std::size_t);
  };
  const Kernel kernels[] = {
      {"exp", "fast", attn::kernels::exp},         {"exp", "reference", attn::kernels::exp_reference},
      {"sigmoid", "fast", attn::kernels::sigmoid}, {"sigmoid", "reference", attn::kernels::sigmoid_reference},
      {"tanh", "fast", attn::kernels::tanh},       {"tanh", "reference", attn::kernels::tanh_reference}};
  for (const Kernel& kernel : kernels) {
    const Timing t = median_seconds_per_call([&] {
      kernel.f(x.data(), y.data(), n);
      sink = y[n / 2];
    });
    std::printf(
        "{\"impl\":\"%s\",\"kernel\":\"%s\",\"variant\":\"%s\",\"n\":%zu,\"melem_per_s\":%.1f,\"clock\":\"%s\"}\n",
        kImpl, kernel.name, kernel.variant, n, static_cast<double>(n) / t.best() * 1e-6, t.clock());
    std::fflush(stdout);
  }
}

// One full optimisation step (forward, BCE, backward, clipping, Adam) on a batch of random
// reviews: batch 32 × maxlen 200 tokens, vocabulary 5000, no padding.
void bench_train_step(const char* name, const attn::ClassifierConfig& config) {
  const std::size_t batch_size = 32, maxlen = 200;
  attn::SequenceClassifier model(config, 1);
  attn::Adam optimizer(1e-3f);
  attn::Rng rng(5);
  attn::ClassifierBatch batch;
  batch.ids = xt::empty<std::int32_t>({batch_size, maxlen});
  batch.mask = xt::ones<std::uint8_t>({batch_size, maxlen});
  batch.labels = xt::empty<float>({batch_size});
  for (auto& id : batch.ids)
    id = static_cast<std::int32_t>(4 + rng.below(static_cast<std::uint32_t>(config.vocab_size - 4)));
  for (auto& label : batch.labels) label = static_cast<float>(rng.below(2));
  attn::StepBuffers buffers;
  const Timing t =
      median_seconds_per_call([&] { sink = attn::train_step(model, optimizer, batch, 5.f, rng, buffers).loss; });
  const double tokens = static_cast<double>(batch_size * maxlen);
  std::printf(
      "{\"impl\":\"%s\",\"kernel\":\"train_step\",\"model\":\"%s\",\"batch\":%zu,\"maxlen\":%zu,"
      "\"params\":%zu,\"ms_per_step\":%.2f,\"tokens_per_s\":%.0f,\"ms_per_step_wall\":%.2f,"
      "\"ms_per_step_fastest_wall\":%.2f,\"clock\":\"%s\"}\n",
      kImpl, name, batch_size, maxlen, attn::parameter_count(model.parameters()), t.best() * 1e3, tokens / t.best(),
      t.wall * 1e3, t.fastest_wall * 1e3, t.clock());
  std::fflush(stdout);
}

attn::ClassifierConfig model_config(const std::string& name) {
  attn::ClassifierConfig config;  // (a) Embedding(5000, 32) → BiLSTM(32) → additive attention → Dense(1)
  config.vocab_size = 5000;
  config.embed_dim = 32;
  config.units = 32;
  config.attention_dim = 32;
  if (name == "transformer-1block") {  // 1 pre-norm block, d_model 32, 2 heads, FF 64
    config.encoder = attn::EncoderKind::transformer;
    config.heads = 2;
    config.ff_dim = 64;
    config.layers = 1;
  }
  return config;
}

const char* const kModels[] = {"bilstm-attention", "transformer-1block"};

// One optimisation step of a translation model at the size issue 27 compares with PyTorch
// (bench/pytorch_seq2seq.py holds the twins): batch 64, 10 source tokens, targets of BOS + 9
// tokens + EOS (10 decoder positions), vocabularies of 6,000 per side, no padding; the trainer's
// step (Seq2SeqTrainingRun::step): zero the gradients, teacher-forced forward of all positions,
// loss, backward, global-norm clipping at 5, Adam.
//   transformer-seq2seq  D 128, 4 heads, FF 512, 2 + 2 blocks, dropout 0.1, label smoothing 0.1
//   rnnsearch-seq2seq    Bahdanau attention, GRU cells, embeddings and units 128 (decoder 256)
// Run on its own (`attn_bench train transformer-seq2seq|rnnsearch-seq2seq`), not in `all`: the
// translation bench (bench/translation_bench.mjs) runs it.
std::unique_ptr<attn::TrainableTranslator> seq2seq_model(const std::string& name, std::size_t vocab) {
  if (name == "transformer-seq2seq") {
    attn::TransformerSeq2SeqConfig config;
    config.source_vocab = config.target_vocab = vocab;
    config.d_model = 128;
    config.heads = 4;
    config.ff_dim = 512;
    config.encoder_layers = config.decoder_layers = 2;
    config.dropout = 0.1f;
    config.label_smoothing = 0.1f;
    return std::make_unique<attn::TransformerSeq2Seq>(config, 1);
  }
  attn::Seq2SeqConfig config;
  config.source_vocab = config.target_vocab = vocab;
  config.embed = config.units = config.attention_dim = 128;
  config.cell = attn::CellKind::gru;
  config.attention = attn::AttentionForm::bahdanau;
  config.score = attn::ScoreKind::additive;
  return std::make_unique<attn::Seq2SeqModel>(config, 1);
}

void bench_seq2seq_step(const std::string& name) {
  const std::size_t batch_size = 64, source_len = 10, target_len = 11, vocab = 6000;
  const std::unique_ptr<attn::TrainableTranslator> model = seq2seq_model(name, vocab);
  attn::Adam optimizer(1e-3f);
  attn::Rng rng(5);
  attn::TokenIds source = xt::empty<std::int32_t>({batch_size, source_len});
  attn::TokenIds target = xt::empty<std::int32_t>({batch_size, target_len});
  for (auto& id : source) id = static_cast<std::int32_t>(4 + rng.below(static_cast<std::uint32_t>(vocab - 4)));
  for (auto& id : target) id = static_cast<std::int32_t>(4 + rng.below(static_cast<std::uint32_t>(vocab - 4)));
  for (std::size_t b = 0; b < batch_size; ++b) {
    target(b, 0) = 1;               // BOS
    target(b, target_len - 1) = 2;  // EOS
  }
  const attn::ParameterList& params = model->parameters();
  const Timing t = median_seconds_per_call([&] {
    attn::zero_grads(params);
    sink = model->train_batch(source, target, 1.f, rng);
    attn::clip_grad_norm(params, 5.f);
    optimizer.step(params);
  });
  // Where the step's time goes, each section timed on its own the same way: the teacher-forced
  // forward and loss (loss(): no gradient), forward + backward (train_batch), the gradient norm and
  // clipping, Adam. Backward = the second minus the first.
  const Timing forward = median_seconds_per_call([&] { sink = model->loss(source, target); });
  const Timing forward_backward = median_seconds_per_call([&] {
    attn::zero_grads(params);
    sink = model->train_batch(source, target, 1.f, rng);
  });
  const Timing clip = median_seconds_per_call([&] { sink = attn::clip_grad_norm(params, 5.f); });
  const Timing adam = median_seconds_per_call([&] { optimizer.step(params); });
  std::printf(
      "{\"impl\":\"%s\",\"kernel\":\"train_step_sections\",\"model\":\"%s\",\"forward_loss_ms\":%.2f,"
      "\"backward_ms\":%.2f,\"zero_forward_backward_ms\":%.2f,\"clip_ms\":%.2f,\"adam_ms\":%.2f,\"clock\":\"%s\"}\n",
      kImpl, name.c_str(), forward.best() * 1e3, (forward_backward.best() - forward.best()) * 1e3,
      forward_backward.best() * 1e3, clip.best() * 1e3, adam.best() * 1e3, forward.clock());
  const double tokens = static_cast<double>(batch_size * (target_len - 1));
  std::printf(
      "{\"impl\":\"%s\",\"kernel\":\"train_step\",\"model\":\"%s\",\"batch\":%zu,"
      "\"source_len\":%zu,\"target_len\":%zu,\"vocab\":%zu,\"params\":%zu,\"ms_per_step\":%.2f,"
      "\"target_tokens_per_s\":%.0f,\"ms_per_step_wall\":%.2f,\"ms_per_step_fastest_wall\":%.2f,"
      "\"clock\":\"%s\"}\n",
      kImpl, name.c_str(), batch_size, source_len, target_len - 1, vocab, attn::parameter_count(params), t.best() * 1e3,
      tokens / t.best(), t.wall * 1e3, t.fastest_wall * 1e3, t.clock());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
#if defined(ATTN_BENCH_OPENBLAS)
  // One thread from the start: OpenBLAS's idle pool threads otherwise spin (sched_yield) and
  // count in the process CPU time of every item, not only of its own sgemm.
  openblas_set_num_threads(1);
#endif
  attn::Rng rng(2024);
  const std::string item = argc > 1 ? argv[1] : "all";
  if (item == "gemm" && argc == 5) {
    bench_gemm(rng, std::strtoul(argv[2], nullptr, 10), std::strtoul(argv[3], nullptr, 10),
               std::strtoul(argv[4], nullptr, 10));
    return 0;
  }
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
  if (item == "peak") {
    bench_fma_peak();
    return 0;
  }
#endif
  if (item == "gemm-transformer") {
    bench_transformer_gemms(rng);
    return 0;
  }
  if (item == "vector") {
    bench_vector_math(rng, 4096);
    return 0;
  }
  if (item == "train" && argc == 3 &&
      (std::string(argv[2]) == "transformer-seq2seq" || std::string(argv[2]) == "rnnsearch-seq2seq")) {
    bench_seq2seq_step(argv[2]);
    return 0;
  }
  if (item == "train" && argc == 3) {
    bench_train_step(argv[2], model_config(argv[2]));
    return 0;
  }
  if (item != "all") {
    std::fprintf(stderr,
                 "usage: attn_bench [gemm M N K | gemm-transformer | vector | train "
                 "%s|%s|transformer-seq2seq|rnnsearch-seq2seq]\n",
                 kModels[0], kModels[1]);
    return 2;
  }
  struct Size {
    std::size_t m, n, k;
  };
  // The products our models run: projections (32×128·128×512), attention heads (64³), a large
  // square (256³), tall-skinny batched projections and a tiny one that is all overhead.
  const Size sizes[] = {{32, 512, 128}, {64, 64, 64}, {256, 256, 256}, {6400, 128, 32}, {32, 128, 32}, {1, 4, 3}};
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
  bench_fma_peak();
#endif
  for (const Size& s : sizes) bench_gemm(rng, s.m, s.n, s.k);
  bench_vector_math(rng, 4096);
  for (const char* model : kModels) bench_train_step(model, model_config(model));
  return 0;
}
