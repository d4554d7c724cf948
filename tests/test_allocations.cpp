// "No allocation inside per-step loops" (layers/README.md rule 4), checked for whole training
// steps: the libc allocation entry points are interposed in this test binary (xtensor allocates
// through posix_memalign, the standard library through malloc) and counted while armed.
// Skipped under sanitizers, which interpose these functions themselves.
#include <doctest/doctest.h>

#include <cstdlib>  // defines __GLIBC__ on glibc systems

// gcc says __SANITIZE_ADDRESS__; clang 14 only answers __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define ATTN_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_TEST_ASAN 1
#endif
#endif

#if !defined(ATTN_TEST_ASAN) && defined(__GLIBC__)
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>

#include "attn/optim/adam.hpp"
#include "attn/train/classifier_step.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {
std::atomic<bool> g_armed{false};
std::atomic<std::size_t> g_allocations{0};
void count() {
  if (g_armed.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  count();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  count();
  return __libc_realloc(p, n);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  count();
  void* p = __libc_memalign(alignment, n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
}

using namespace attn;

namespace {
std::size_t allocations_during_steps(const ClassifierConfig& config, std::size_t steps) {
  SequenceClassifier model(config, 3);
  Adam optimizer(1e-3f);
  Rng rng(4);
  const SequenceDataset data = make_contains_token_task(64, 6, 12, config.vocab_size, 7, 5);
  std::vector<std::size_t> indices(16);
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  ClassifierBatch batch;
  make_batch(data, indices.data(), indices.size(), Padding::pre, batch);
  StepBuffers buffers;
  for (int warm = 0; warm < 3; ++warm) train_step(model, optimizer, batch, 1.f, rng, buffers);
  g_allocations = 0;
  g_armed = true;
  for (std::size_t s = 0; s < steps; ++s) train_step(model, optimizer, batch, 1.f, rng, buffers);
  g_armed = false;
  return g_allocations.load();
}
}  // namespace

TEST_CASE("allocations.the_counter_sees_xtensor_and_std_allocations") {
  g_allocations = 0;
  g_armed = true;
  Tensor2 t = xt::zeros<float>({8, 8});
  std::vector<int> v(100);
  g_armed = false;
  CHECK(g_allocations.load() >= 2);
}

TEST_CASE("allocations.training_steps_allocate_nothing_at_steady_state") {
  ClassifierConfig c;
  c.vocab_size = 20;
  c.embed_dim = 8;
  c.units = 8;
  c.attention_dim = 8;
  c.heads = 2;
  c.ff_dim = 16;
  c.max_len = 16;
  for (EncoderKind encoder : {EncoderKind::bilstm, EncoderKind::bigru, EncoderKind::transformer}) {
    for (PoolingKind pooling : {PoolingKind::attention, PoolingKind::mean}) {
      c.encoder = encoder;
      c.pooling = pooling;
      c.dropout = encoder == EncoderKind::transformer ? 0.1f : 0.f;
      CAPTURE(encoder_kind_name(encoder));
      CAPTURE(pooling_kind_name(pooling));
      CHECK(allocations_during_steps(c, 5) == 0);
    }
  }
}
#endif
