// Embind class Seq2SeqSession: a built-in task's data and model, chunked
// training, greedy / beam decoding with alignments, exact-match evaluation.
// Conversion only: the work is attn::Seq2SeqSession
// (core/include/attn/train/seq2seq_session.hpp). Views and copies are
// documented in attn_engine.d.ts.
#include <emscripten/bind.h>

#include <cmath>
#include <memory>

#include "attn/train/seq2seq_recipes.hpp"
#include "attn/train/seq2seq_session.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

val metrics_to_js(const Seq2SeqMetrics &m) {
  val out = val::object();
  out.set("count", static_cast<double>(m.count));
  out.set("exactMatch", m.exact_match);
  out.set("tokenAccuracy", m.token_accuracy);
  val lengths = val::array();
  for (const Seq2SeqLengthMetrics &l : m.by_source_length) {
    val row = val::object();
    row.set("sourceLength", static_cast<double>(l.source_length));
    row.set("count", static_cast<double>(l.count));
    row.set("exact", static_cast<double>(l.exact));
    lengths.call<void>("push", row);
  }
  out.set("byLength", lengths);
  return out;
}

// Seq2SeqEvaluation -> Seq2SeqMetrics' fields (per pair) with exactMatch by source, and the BLEU fields.
val evaluation_to_js(const Seq2SeqEvaluation &e) {
  val out = metrics_to_js(e.pairs);
  out.set("pairExactMatch", e.pairs.exact_match);
  // Task parallel: by source against all its references; the built-in tasks keep the per-pair figure.
  if (e.has_bleu) out.set("exactMatch", e.exact_match);
  out.set("sentences", static_cast<double>(e.sentences));
  out.set("bleu", e.has_bleu ? val(e.bleu) : val::null());
  out.set("chrf", e.chrf);
  out.set("teacherForcedAccuracy", e.teacher_forced_accuracy);
  val buckets = val::array();
  for (const LengthBucket &b : e.by_length) {
    val row = val::object();
    row.set("minLength", static_cast<double>(b.min_words));
    row.set("maxLength", static_cast<double>(b.max_words));
    row.set("sentences", static_cast<double>(b.sentences));
    row.set("bleu", b.bleu.score);
    buckets.call<void>("push", row);
  }
  out.set("bleuByLength", buckets);
  return out;
}

// {tokens, unknownTokens, sentences, sentencesWithUnknown, tokenRate, sentenceRate}.
val unknown_rate_to_js(const UnknownRate &r) {
  val out = val::object();
  out.set("tokens", static_cast<double>(r.tokens));
  out.set("unknownTokens", static_cast<double>(r.unknown_tokens));
  out.set("sentences", static_cast<double>(r.sentences));
  out.set("sentencesWithUnknown", static_cast<double>(r.sentences_with_unknown));
  out.set("tokenRate", r.token_rate());
  out.set("sentenceRate", r.sentence_rate());
  return out;
}

// {train: {source, target}, test: {source, target}}: the session's <unk> rates.
val unknown_rates_to_js(const Seq2SeqSession &session) {
  val out = val::object();
  for (const auto &[part, rates] :
       {std::pair<const char *, const PairUnknownRates *>{"train", &session.train_unknown()},
        std::pair<const char *, const PairUnknownRates *>{"test", &session.test_unknown()}}) {
    val sides = val::object();
    sides.set("source", unknown_rate_to_js(rates->source));
    sides.set("target", unknown_rate_to_js(rates->target));
    out.set(part, sides);
  }
  return out;
}

// A row-major float buffer as a Float32Array COPY (it owns its buffer), or null when empty.
val float_copy_or_null(const std::vector<float> &values) {
  if (values.empty()) return val::null();
  return val::global("Float32Array").new_(emscripten::typed_memory_view(values.size(), values.data()));
}

val shape_or_null(const std::array<std::size_t, 4> &shape, bool present) {
  if (!present) return val::null();
  val out = val::array();
  for (const std::size_t n : shape) out.call<void>("push", static_cast<double>(n));
  return out;
}

val epoch_to_js(const Seq2SeqEpochProgress &e) {
  val out = val::object();
  out.set("epoch", static_cast<double>(e.epoch));
  out.set("trainLoss", e.train_loss);
  out.set("bleu", e.has_score ? val(e.score) : val::null());
  out.set("teacherForcing", e.teacher_forcing);
  out.set("validationLoss", e.has_validation ? val(e.validation_loss) : val::null());
  out.set("validation", e.has_validation ? metrics_to_js(e.validation) : val::null());
  out.set("seconds", e.seconds);
  return out;
}

// A JS array of whole token ids (number[]) as ids.
std::vector<std::int32_t> read_ids(const val &ids, const std::string &name) {
  if (!ids.isArray()) throw std::invalid_argument(name + " must be an array of token ids");
  std::vector<std::int32_t> out(ids["length"].as<std::size_t>());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const val id = ids[i];
    out[i] = static_cast<std::int32_t>(
        whole_number(id.isNumber() ? id.as<double>() : -1, name + "[" + std::to_string(i) + "]", 2147483647.0));
  }
  return out;
}

val ids_to_js(const std::vector<std::int32_t> &ids) {
  val out = val::array();
  for (const std::int32_t id : ids) out.call<void>("push", static_cast<double>(id));
  return out;
}

val decoder_state_to_js(const Seq2SeqDecoderState &state) {
  val out = val::object();
  out.set("s", to_js(state.s));
  out.set("c", to_js(state.c));
  return out;
}

Seq2SeqDecoderState decoder_state_from_js(const val &state) {
  if (is_absent(state)) throw std::invalid_argument("state must be an object {s, c}");
  return {to_tensor<2>(state["s"], "state.s"), to_tensor<2>(state["c"], "state.c")};
}

// The JS handle. The last translation is kept so its alignment can be handed
// out as a view.
class JsSeq2SeqSession {
 public:
  // config: {task, trainSize, testSize, minLen, maxLen, attention, cell, units, ...}, read field
  // by field through seq2seq_session_settings() (Seq2SeqSessionConfig); undefined/null for the
  // defaults.
  explicit JsSeq2SeqSession(const val &config)
      : session_(guarded([&] {
          return std::make_unique<Seq2SeqSession>(settings_from_js(seq2seq_session_settings(), config, "config"));
        })) {}
  explicit JsSeq2SeqSession(std::unique_ptr<Seq2SeqSession> session) : session_(std::move(session)) {}

  // Seq2SeqSession.fromParallelText(settings, data, name): task "parallel" on a TSV file given
  // as text (string) or bytes (Uint8Array / ArrayBuffer, copied); `name` (undefined: "pairs.tsv")
  // is what error messages "<name>:<line>: ..." call the file.
  static JsSeq2SeqSession *from_parallel_text(const val &config, const val &data, const val &name) {
    return guarded([&] {
      Seq2SeqSessionConfig c = settings_from_js(seq2seq_session_settings(), config, "config");
      c.task = "parallel";
      const std::string file = is_absent(name) ? std::string("pairs.tsv") : name.as<std::string>();
      std::vector<std::uint8_t> bytes;
      if (data.isString()) {
        const std::string text = data.as<std::string>();
        bytes.assign(text.begin(), text.end());
      } else {
        bytes = read_bytes(data, "data");
      }
      return new JsSeq2SeqSession(std::make_unique<Seq2SeqSession>(c, bytes.data(), bytes.size(), file));
    });
  }

  // The model file (a Uint8Array COPY: it owns its buffer, ready to store or post).
  val save_model() const {
    return guarded([&] {
      const std::vector<std::uint8_t> bytes = session_->save_model();
      return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
    });
  }

  // Replaces the model and vocabularies with a saved file's (CLI or browser); returns info().
  val load_model(const val &bytes) {
    return guarded([&] {
      session_->load_model(read_bytes(bytes, "bytes"));
      return info();
    });
  }

  val info() const {
    return guarded([&] {
      const Seq2SeqSessionConfig &c = session_->config();
      val out = val::object();
      out.set("task", c.task);
      out.set("model", c.kind);
      const bool transformer = session_->is_transformer();
      out.set("attention", transformer ? std::string("transformer") : attention_form_name(c.model.attention));
      out.set("cell", transformer ? std::string("none") : cell_kind_name(c.model.cell));
      out.set("parameters", static_cast<double>(parameter_count(session_->model().parameters())));
      out.set("sourceVocabulary", static_cast<double>(session_->vocabularies().source.size()));
      out.set("targetVocabulary", static_cast<double>(session_->vocabularies().target.size()));
      out.set("trainExamples", static_cast<double>(session_->train_set().size()));
      out.set("testExamples", static_cast<double>(session_->test_set().size()));
      out.set("trainTooLong", static_cast<double>(session_->train_too_long()));
      out.set("decodeLimit", static_cast<double>(session_->decode_limit()));
      out.set("sourceTokenizer", session_->vocabularies().source.token_description());
      out.set("targetTokenizer", session_->vocabularies().target.token_description());
      out.set("unknown", unknown_rates_to_js(*session_));
      return out;
    });
  }

  // The first `count` held-out pairs: [{source, target}].
  val samples(double count) const {
    return guarded([&] {
      const auto &test = session_->test_set();
      const std::size_t n = std::min(test.size(), read_whole(val(count), "count", 1e6, 0));
      val out = val::array();
      for (std::size_t i = 0; i < n; ++i) {
        val pair = val::object();
        pair.set("source", test[i].source);
        pair.set("target", test[i].target);
        out.call<void>("push", pair);
      }
      return out;
    });
  }

  val start_training() {
    return guarded([&] {
      session_->start_training();
      const Seq2SeqSessionProgress none = session_->run_steps(0);
      const Seq2SeqHistory &h = session_->history();
      val out = val::object();
      out.set("trainExamples", static_cast<double>(h.train_examples));
      out.set("validationExamples", static_cast<double>(h.validation_examples));
      out.set("plannedSteps", static_cast<double>(none.planned_steps));
      out.set("batchesPerEpoch", static_cast<double>(none.batches_per_epoch));
      return out;
    });
  }

  val run_steps(const val &steps) {
    return guarded([&] { return progress_to_js(session_->run_steps(read_whole(steps, "steps", 1e9, 1))); });
  }

  // Data-parallel steps (docs/data-parallel.md): each exchange buffer is copied once each way.
  double exchange_size() {
    return guarded([&] { return static_cast<double>(session_->exchange_size()); });
  }

  val shard_gradient(const val &shard, const val &shards) {
    return guarded([&] {
      return typed_array_copy(
          "Float32Array", session_->shard_gradient(read_whole(shard, "shard", 1e9), read_whole(shards, "shards", 1e9)));
    });
  }

  val apply_gradient(const val &others) {
    return guarded([&] {
      read_exchange_buffers(others, others_);
      return progress_to_js(session_->apply_gradient(others_));
    });
  }

  void cancel_training() {
    guarded([&] { session_->cancel_training(); });
  }

  bool is_training() const { return session_->training(); }

  // {output, sourceTokens, outputTokens, alignment: {rows, cols, data},
  // logProb, finished, candidates, crossAttention, crossShape, selfAttention, selfShape}:
  // alignment.data is a Float32Array VIEW of wasm memory [rows × cols], valid until the next
  // translate() call (copy it to keep it or post it); crossAttention / selfAttention are COPIES.
  val translate(const std::string &text, const val &beam) {
    return guarded([&] {
      translation_ = session_->translate(text, read_whole(beam, "beam", 64, 1));
      const Seq2SeqTranslation &t = translation_;
      val out = val::object();
      out.set("output", t.output);
      out.set("sourceTokens", strings_to_js(t.source_tokens));
      out.set("outputTokens", strings_to_js(t.output_tokens));
      val alignment = val::object();
      const std::size_t cols = t.alignment.empty() ? 0 : t.source_tokens.size();
      alignment.set("rows", static_cast<double>(cols == 0 ? 0 : t.alignment.size() / cols));
      alignment.set("cols", static_cast<double>(cols));
      alignment.set("data", val(emscripten::typed_memory_view(t.alignment.size(), t.alignment.data())));
      out.set("alignment", alignment);
      out.set("logProb", t.log_prob);
      out.set("finished", t.finished);
      val candidates = val::array();
      for (const Seq2SeqCandidate &c : t.candidates) {
        val row = val::object();
        row.set("text", c.text);
        row.set("score", c.score);
        row.set("logProb", c.log_prob);
        row.set("finished", c.finished);
        candidates.call<void>("push", row);
      }
      out.set("candidates", candidates);
      out.set("crossAttention", float_copy_or_null(t.cross_attention));
      out.set("crossShape", shape_or_null(t.cross_shape, !t.cross_attention.empty()));
      out.set("selfAttention", float_copy_or_null(t.self_attention));
      out.set("selfShape", shape_or_null(t.self_shape, !t.self_attention.empty()));
      return out;
    });
  }

  // The step API (Seq2SeqSession::encode_texts, Seq2SeqModel::attend / decoder_step). Every
  // tensor handed out is a COPY ({shape, data}).
  // stepEncode(texts) -> {sourceTokens, annotations [B, Tx, Dh], mask [B, Tx], state {s, c},
  // alignment {w [A, Ds + Dh], v [A]}, maxLen}.
  val step_encode(const val &texts) const {
    return guarded([&] {
      std::vector<std::vector<std::string>> tokens;
      const Seq2SeqEncoding e = session_->encode_texts(read_texts(texts), &tokens);
      const ScoreParams p = session_->rnn_model().alignment_parameters();
      val sources = val::array();
      for (const auto &row : tokens) sources.call<void>("push", strings_to_js(row));
      val alignment = val::object();
      alignment.set("w", to_js(p.w));
      alignment.set("v", to_js(p.v));
      val out = val::object();
      out.set("sourceTokens", sources);
      out.set("annotations", to_js(e.annotations));
      out.set("mask", to_js(e.mask));
      out.set("state", decoder_state_to_js(e.start));
      out.set("alignment", alignment);
      out.set("maxLen", static_cast<double>(session_->decode_limit()));
      return out;
    });
  }

  // stepAttend({annotations, mask}, s [B, Ds]) -> {weights [B, Tx], context [B, Dh]}: the model's own attention.
  val step_attend(const val &encoding, const val &s) const {
    return guarded([&] {
      if (is_absent(encoding)) throw std::invalid_argument("encoding must be an object {annotations, mask}");
      Seq2SeqEncoding e;
      e.annotations = to_tensor<3>(encoding["annotations"], "encoding.annotations");
      e.mask = to_mask<2>(encoding["mask"], "encoding.mask");
      const Seq2SeqAttention a = session_->rnn_model().attend(e, to_tensor<2>(s, "s"));
      val out = val::object();
      out.set("weights", to_js(a.weights));
      out.set("context", to_js(a.context));
      return out;
    });
  }

  // decoderStep(previous [B], state {s, c}, context [B, Dh]) -> {state, probabilities [B, V], tokens [B]}.
  val decoder_step(const val &previous, const val &state, const val &context) const {
    return guarded([&] {
      const Seq2SeqStep step = session_->rnn_model().decoder_step(
          read_ids(previous, "previous"), decoder_state_from_js(state), to_tensor<2>(context, "context"));
      val out = val::object();
      out.set("state", decoder_state_to_js(step.state));
      out.set("probabilities", to_js(step.probabilities));
      out.set("tokens", ids_to_js(step.tokens));
      return out;
    });
  }

  // targetText(ids) -> {text, tokens}: decoded ids as the task writes them.
  val target_text(const val &ids) const {
    return guarded([&] {
      const std::vector<std::int32_t> read = read_ids(ids, "ids");
      const std::vector<int> list(read.begin(), read.end());
      val out = val::object();
      out.set("text", session_->target_text(list));
      out.set("tokens", strings_to_js(session_->target_tokens(list)));
      return out;
    });
  }

  // setDecoderMask(mask {shape [L, L], data} | null): the Transformer's decoder self-attention
  // mask for the next training run and every decoding (Seq2SeqSession::set_decoder_mask); null
  // restores the causal mask.
  void set_decoder_mask(const val &mask) {
    guarded([&] { session_->set_decoder_mask(is_absent(mask) ? Mask2() : to_mask<2>(mask, "mask")); });
  }

  // The Transformer's step API with the cross-attention from outside (Seq2SeqSession::cross_*).
  // Every tensor handed out is a COPY ({shape, data}).
  // crossStart(texts) -> {sourceTokens, sourceLengths, memory [B, Tx, D], heads, maxLen,
  // blocks: [{wq, bq, wk, bk, wv, bv}] ([D, D] and [D] per decoder block)}.
  val cross_start(const val &texts) {
    return guarded([&] {
      const TransformerCrossEncoding e = session_->cross_start(read_texts(texts));
      val sources = val::array();
      for (const auto &row : e.source_tokens) sources.call<void>("push", strings_to_js(row));
      val lengths = val::array();
      for (const std::size_t n : e.source_lengths) lengths.call<void>("push", static_cast<double>(n));
      val blocks = val::array();
      for (const TransformerCrossWeights &w : e.blocks) {
        val block = val::object();
        block.set("wq", to_js(w.w_q));
        block.set("bq", to_js(w.b_q));
        block.set("wk", to_js(w.w_k));
        block.set("bk", to_js(w.b_k));
        block.set("wv", to_js(w.w_v));
        block.set("bv", to_js(w.b_v));
        blocks.call<void>("push", block);
      }
      val out = val::object();
      out.set("sourceTokens", sources);
      out.set("sourceLengths", lengths);
      out.set("memory", to_js(e.memory));
      out.set("blocks", blocks);
      out.set("heads", static_cast<double>(e.heads));
      out.set("maxLen", static_cast<double>(e.max_len));
      return out;
    });
  }

  // crossBegin(previous [B]) -> {block, queriesInput [B, 1, D], finished: false}.
  val cross_begin(const val &previous) {
    return guarded([&] { return partial_to_js(session_->cross_begin(read_ids(previous, "previous"))); });
  }

  // crossAttend() -> {heads [B, 1, D], weights [B, H, 1, Tx]}: the engine's own, for the pending block.
  val cross_attend() const {
    return guarded([&] {
      Tensor3 heads;
      Tensor4 weights;
      session_->cross_attention(heads, weights);
      val out = val::object();
      out.set("heads", to_js(heads));
      out.set("weights", to_js(weights));
      return out;
    });
  }

  // crossContinue(heads [B, 1, D], weights [B, H, 1, Tx] | null) -> the next block's
  // {block, queriesInput, finished: false}, or {block: N_d, finished: true, logProbs [B, V], tokens [B]}.
  val cross_continue(const val &heads, const val &weights) {
    return guarded([&] {
      const Tensor3 h = to_tensor<3>(heads, "heads");
      const Tensor4 w = is_absent(weights) ? Tensor4() : to_tensor<4>(weights, "weights");
      return partial_to_js(session_->cross_continue(h, is_absent(weights) ? nullptr : &w));
    });
  }

  // which: "test" | "train"; limit: first pairs (0 / undefined = all).
  val evaluate(const std::string &which, const val &limit) {
    return guarded([&] { return evaluation_to_js(session_->evaluate(which, read_whole(limit, "limit", 1e7, 0))); });
  }

 private:
  static std::vector<std::string> read_texts(const val &texts) {
    if (!texts.isArray()) throw std::invalid_argument("texts must be an array of strings");
    std::vector<std::string> list(texts["length"].as<std::size_t>());
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!texts[i].isString()) throw std::invalid_argument("texts[" + std::to_string(i) + "] must be a string");
      list[i] = texts[i].as<std::string>();
    }
    return list;
  }

  val partial_to_js(const TransformerPartialStep &p) const {
    val out = val::object();
    out.set("block", static_cast<double>(p.block));
    out.set("finished", p.finished());
    if (p.finished()) {
      out.set("logProbs", to_js(p.result.log_probs));
      out.set("tokens", ids_to_js(session_->best_tokens()));
    } else {
      out.set("queriesInput", to_js(p.queries_input));
    }
    return out;
  }

  val progress_to_js(const Seq2SeqSessionProgress &p) const {
    val out = val::object();
    set_run_progress(out, p, static_cast<double>(session_->history().steps),
                     [](const Seq2SeqEpochProgress &e) { return epoch_to_js(e); });
    out.set("examplesSeen", static_cast<double>(p.last.examples_seen));
    return out;
  }

  std::unique_ptr<Seq2SeqSession> session_;
  Seq2SeqTranslation translation_;
  std::vector<std::vector<float>> others_;  // the other shards' buffers of the step being applied
};

// seq2seqRecipes() -> [{name, use, base, summary, task, settings}]: the table of
// train/seq2seq_recipes.hpp, each row's settings resolved (every field, camelCase keys), a copy.
val js_seq2seq_recipes() {
  return guarded([] {
    val out = val::array();
    for (const Seq2SeqRecipe &r : seq2seq_recipes()) {
      const Seq2SeqSessionConfig settings = seq2seq_recipe_settings(r.name);
      val row = val::object();
      row.set("name", r.name);
      row.set("use", r.use);
      row.set("base", r.base);
      row.set("summary", r.summary);
      row.set("task", settings.task);
      row.set("settings", settings_to_js(seq2seq_session_settings(), settings));
      out.call<void>("push", row);
    }
    return out;
  });
}

// seq2seqRecipeSettings(name) -> every field the recipe trains (seq2seq_recipe_settings: what
// `attn train --recipe <name>` trains), camelCase keys.
val js_seq2seq_recipe_settings(const std::string &name) {
  return guarded([&] { return settings_to_js(seq2seq_session_settings(), seq2seq_recipe_settings(name)); });
}

// resolveSeq2seqSettings(settings) -> what new Seq2SeqSession(settings) makes of them, every
// field filled in.
val js_resolve_seq2seq_settings(const val &settings) {
  return guarded([&] {
    return settings_to_js(seq2seq_session_settings(), settings_from_js(seq2seq_session_settings(), settings, "config"));
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(seq2seq) {
  emscripten::function("seq2seqRecipes", &attn::wasm::js_seq2seq_recipes);
  emscripten::function("seq2seqRecipeSettings", &attn::wasm::js_seq2seq_recipe_settings);
  emscripten::function("resolveSeq2seqSettings", &attn::wasm::js_resolve_seq2seq_settings);
  using attn::wasm::JsSeq2SeqSession;
  emscripten::class_<JsSeq2SeqSession>("Seq2SeqSession")
      .constructor<const emscripten::val &>()
      .function("info", &JsSeq2SeqSession::info)
      .function("samples", &JsSeq2SeqSession::samples)
      .function("startTraining", &JsSeq2SeqSession::start_training)
      .function("runSteps", &JsSeq2SeqSession::run_steps)
      .function("exchangeSize", &JsSeq2SeqSession::exchange_size)
      .function("shardGradient", &JsSeq2SeqSession::shard_gradient)
      .function("applyGradient", &JsSeq2SeqSession::apply_gradient)
      .function("cancelTraining", &JsSeq2SeqSession::cancel_training)
      .function("isTraining", &JsSeq2SeqSession::is_training)
      .function("translate", &JsSeq2SeqSession::translate)
      .function("evaluate", &JsSeq2SeqSession::evaluate)
      .function("stepEncode", &JsSeq2SeqSession::step_encode)
      .function("stepAttend", &JsSeq2SeqSession::step_attend)
      .function("decoderStep", &JsSeq2SeqSession::decoder_step)
      .function("targetText", &JsSeq2SeqSession::target_text)
      .function("setDecoderMask", &JsSeq2SeqSession::set_decoder_mask)
      .function("crossStart", &JsSeq2SeqSession::cross_start)
      .function("crossBegin", &JsSeq2SeqSession::cross_begin)
      .function("crossAttend", &JsSeq2SeqSession::cross_attend)
      .function("crossContinue", &JsSeq2SeqSession::cross_continue)
      .function("saveModel", &JsSeq2SeqSession::save_model)
      .function("loadModel", &JsSeq2SeqSession::load_model)
      .class_function("fromParallelText", &JsSeq2SeqSession::from_parallel_text, emscripten::allow_raw_pointers());
}
