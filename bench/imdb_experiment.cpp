// Real-data measurement (not a test): model (a) — Embedding(5000, 32) → BiLSTM(32) → additive
// attention → Dense — on the training half of aclImdb, holding out 10% of it (stratified,
// seeded) as our own test split. Prints JSON lines: one per stage, one per epoch, one result.
//
//   attn_imdb_experiment <aclImdb.tar.gz> [--maxlen 500] [--epochs 3] [--batch 32]
//                        [--lr 0.001] [--max-seconds 840] [--seed 1]
//
// --max-seconds cancels training (through the step callback) once the budget is spent; the
// model then keeps the best validation epoch's parameters when one finished, else the last.
// Build: cmake -S . -B build/native-exp -DCMAKE_BUILD_TYPE=Release -DATTN_XTENSOR_ASSERT=OFF
//        -DATTN_BUILD_TESTS=OFF && cmake --build build/native-exp --target attn_imdb_experiment
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/byte_source.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/models/sentiment_model.hpp"
#include "attn/random.hpp"

using namespace attn;

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_metrics(const char* stage, const ClassificationMetrics& m, double seconds) {
  std::printf("{\"stage\": \"%s\", \"examples\": %zu, \"loss\": %.5f, \"accuracy\": %.5f, \"precision\": %.5f, "
              "\"recall\": %.5f, \"f1\": %.5f, \"seconds\": %.2f}\n",
              stage, m.count(), m.loss, m.accuracy, m.precision, m.recall, m.f1, seconds);
  std::fflush(stdout);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <aclImdb.tar.gz> [--maxlen N] [--epochs N] [--batch N] [--lr X] "
                         "[--max-seconds S] [--seed N]\n", argv[0]);
    return 2;
  }
  std::size_t maxlen = 500, epochs = 3, batch = 32;
  double lr = 1e-3, max_seconds = 840;
  std::uint64_t seed = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* value = argv[i + 1];
    if (key == "--maxlen") maxlen = std::strtoul(value, nullptr, 10);
    else if (key == "--epochs") epochs = std::strtoul(value, nullptr, 10);
    else if (key == "--batch") batch = std::strtoul(value, nullptr, 10);
    else if (key == "--lr") lr = std::strtod(value, nullptr);
    else if (key == "--max-seconds") max_seconds = std::strtod(value, nullptr);
    else if (key == "--seed") seed = std::strtoull(value, nullptr, 10);
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    FileSource source(argv[1]);
    const std::vector<LabelledText> all = load_aclimdb_archive(source, "train");
    std::printf("{\"stage\": \"load\", \"examples\": %zu, \"seconds\": %.2f}\n", all.size(), seconds_since(start));

    // Our own test split: 10% of each class, chosen by a seeded shuffle.
    Rng rng(seed, 0x7e57);
    std::vector<bool> is_test(all.size(), false);
    for (int label = 0; label <= 1; ++label) {
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].label == label) members.push_back(i);
      }
      for (std::size_t i = members.size(); i > 1; --i) {
        std::swap(members[i - 1], members[rng.below(static_cast<std::uint32_t>(i))]);
      }
      for (std::size_t k = 0; k < members.size() / 10; ++k) is_test[members[k]] = true;
    }
    std::vector<LabelledText> train, test;
    for (std::size_t i = 0; i < all.size(); ++i) (is_test[i] ? test : train).push_back(all[i]);

    TextPipelineConfig pipeline;
    pipeline.num_words = 5000;
    pipeline.maxlen = maxlen;
    ClassifierConfig model;  // defaults: Embedding 32, BiLSTM 32, additive attention A = 32
    model.embed_dim = 32;
    model.units = 32;
    model.attention_dim = 32;
    TrainerConfig trainer;
    trainer.epochs = epochs;
    trainer.batch_size = batch;
    trainer.learning_rate = static_cast<float>(lr);
    trainer.validation_split = 0.05f;
    trainer.seed = seed;
    // The nested configs are printed as JSON strings so every line stays flat JSON.
    FlatJson config_line;
    config_line.set("stage", "config")
        .set("train", static_cast<double>(train.size()))
        .set("test", static_cast<double>(test.size()))
        .set("num_words", static_cast<double>(pipeline.num_words))
        .set("maxlen", static_cast<double>(pipeline.maxlen))
        .set("model", model.to_json())
        .set("trainer", trainer.to_json());
    std::printf("%s\n", config_line.dump().c_str());
    std::fflush(stdout);

    const auto train_start = std::chrono::steady_clock::now();
    TrainingCallbacks callbacks;
    std::size_t last_report = 0;
    callbacks.on_step = [&](const StepProgress& p) {
      if (p.step - last_report >= 100) {
        last_report = p.step;
        std::printf("{\"stage\": \"step\", \"step\": %zu, \"epoch\": %zu, \"loss\": %.4f, \"examples_per_second\": "
                    "%.1f, \"elapsed\": %.1f}\n",
                    p.step, p.epoch, p.loss, p.examples_per_second, p.elapsed);
        std::fflush(stdout);
      }
      return seconds_since(train_start) < max_seconds;
    };
    callbacks.on_epoch = [&](const EpochProgress& e) {
      std::printf("{\"stage\": \"epoch\", \"epoch\": %zu, \"train_loss\": %.4f, \"train_accuracy\": %.4f, "
                  "\"val_loss\": %.4f, \"val_accuracy\": %.4f, \"seconds\": %.1f}\n",
                  e.epoch, e.train_loss, e.train_accuracy, e.validation.loss, e.validation.accuracy, e.seconds);
      std::fflush(stdout);
      return true;
    };
    SentimentTraining t = train_sentiment_model(train, pipeline, model, trainer, seed, callbacks);
    const double train_seconds = seconds_since(train_start);
    const auto eval_start = std::chrono::steady_clock::now();
    const ClassificationMetrics m = evaluate(t.model, test);
    print_metrics("held_out_test", m, seconds_since(eval_start));
    std::printf("{\"stage\": \"result\", \"held_out_accuracy\": %.5f, \"train_seconds\": %.1f, \"total_seconds\": "
                "%.1f, \"epochs_completed\": %zu, \"best_epoch\": %d, \"cancelled\": %s, \"steps\": %zu, "
                "\"maxlen\": %zu}\n",
                m.accuracy, train_seconds, seconds_since(start), t.result.history.size(), t.result.best_epoch,
                t.result.cancelled ? "true" : "false", t.result.steps, maxlen);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
