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

#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/optim/adam.hpp"
#include "attn/optim/clip.hpp"
#include "attn/train/classifier_session.hpp"
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

TEST_CASE("allocations.seq2seq_training_steps_allocate_nothing_at_steady_state") {
  // Both scheduled-sampling paths (ratio 1: one output product; 0.5: per-step argmax).
  TokenIds source = xt::zeros<std::int32_t>({4, 6}), target = xt::zeros<std::int32_t>({4, 7});
  for (std::size_t b = 0; b < 4; ++b) {
    for (std::size_t t = 0; t < 6 - b; ++t) source(b, t) = static_cast<std::int32_t>(4 + (b + t) % 6);
    target(b, 0) = kBosId;
    for (std::size_t t = 1; t < 6 - b; ++t) target(b, t) = static_cast<std::int32_t>(4 + (b * t) % 6);
    target(b, 6 - b) = kEosId;
  }
  for (AttentionForm form : {AttentionForm::none, AttentionForm::bahdanau, AttentionForm::luong}) {
    for (CellKind cell : {CellKind::lstm, CellKind::gru}) {
      Seq2SeqConfig c;
      c.source_vocab = c.target_vocab = 10;
      c.embed = 8;
      c.units = 8;
      c.attention_dim = 8;
      c.cell = cell;
      c.attention = form;
      c.score = form == AttentionForm::luong ? ScoreKind::general : ScoreKind::additive;
      CAPTURE(attention_form_name(form));
      CAPTURE(cell_kind_name(cell));
      Seq2SeqModel model(c, 3);
      Adam optimizer(1e-3f);
      Rng rng(4);
      auto step = [&](float ratio) {
        zero_grads(model.parameters());
        model.train_batch(source, target, ratio, rng);
        clip_grad_norm(model.parameters(), 1.f);
        optimizer.step(model.parameters());
      };
      for (int warm = 0; warm < 2; ++warm) {
        step(1.f);
        step(0.5f);
      }
      g_allocations = 0;
      g_armed = true;
      for (int s = 0; s < 3; ++s) {
        step(1.f);
        step(0.5f);
      }
      g_armed = false;
      CHECK(g_allocations.load() == 0);
    }
  }
}

TEST_CASE("allocations.transformer_seq2seq_training_steps_allocate_nothing_at_steady_state") {
  TokenIds source = xt::zeros<std::int32_t>({4, 6}), target = xt::zeros<std::int32_t>({4, 7});
  for (std::size_t b = 0; b < 4; ++b) {
    for (std::size_t t = 0; t < 6 - b; ++t) source(b, t) = static_cast<std::int32_t>(4 + (b + t) % 6);
    target(b, 0) = kBosId;
    for (std::size_t t = 1; t < 6 - b; ++t) target(b, t) = static_cast<std::int32_t>(4 + (b * t) % 6);
    target(b, 6 - b) = kEosId;
  }
  for (bool tied : {false, true}) {
    CAPTURE(tied);
    TransformerSeq2SeqConfig c;
    c.source_vocab = c.target_vocab = 10;
    c.d_model = 8;
    c.heads = 2;
    c.ff_dim = 16;
    c.dropout = 0.1f;
    c.label_smoothing = 0.1f;
    c.share_embeddings = c.tie_output = tied;
    TransformerSeq2Seq model(c, 3);
    Adam optimizer(1e-3f);
    Rng rng(4);
    auto step = [&] {
      zero_grads(model.parameters());
      model.train_batch(source, target, rng);
      optimizer.step(model.parameters());
    };
    for (int warm = 0; warm < 2; ++warm) step();
    g_allocations = 0;
    g_armed = true;
    for (int s = 0; s < 3; ++s) step();
    g_armed = false;
    CHECK(g_allocations.load() == 0);
  }
}

TEST_CASE("allocations.a_resumable_run_steps_without_allocating_within_an_epoch") {
  // maxlen 4 truncates every synthetic review (at least 4 tokens + <start>), so all batches are
  // [16, 4]: the shapes repeat and the run's buffers are reused. 64 reviews, no validation:
  // 4 batches per epoch; the first step draws the epoch's batch order, the next ones must not
  // allocate at all (pause/resume between them is free).
  TextPipelineConfig pipeline_config;
  pipeline_config.num_words = 100;
  pipeline_config.maxlen = 4;
  TextPipeline pipeline(pipeline_config);
  const std::vector<LabelledText> texts = synthetic_labelled_texts(64, 3);
  pipeline.fit(texts);
  const EncodedDataset train = encode_dataset(pipeline, texts);
  ClassifierConfig c;
  c.vocab_size = 100;
  c.embed_dim = c.units = c.attention_dim = 8;
  SequenceClassifier model(c, 1);
  TrainerConfig config;
  config.batch_size = 16;
  ClassifierTrainingRun run(model, pipeline, train, EncodedDataset{}, config);
  run.step();
  g_allocations = 0;
  g_armed = true;
  run.step();
  run.step();
  g_armed = false;
  CHECK(g_allocations.load() == 0);
  CHECK(run.result().steps == 3);
}

#endif
