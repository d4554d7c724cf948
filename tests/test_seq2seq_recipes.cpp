#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "attn/data/seq2seq_data.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/train/seq2seq_recipes.hpp"
#include "support/fixture_files.hpp"

using namespace attn;

TEST_CASE("seq2seq_recipes.every_row_resolves_through_the_schema") {
  std::set<std::string> names;
  for (const Seq2SeqRecipe& r : seq2seq_recipes()) {
    CAPTURE(r.name);
    CHECK(names.insert(r.name).second);  // one row per name
    CHECK((r.use == "cli" || r.use == "page"));
    if (!r.base.empty()) CHECK(names.count(r.base) == 1);  // a base comes before the row
    const Seq2SeqSessionConfig c = seq2seq_recipe_settings(r.name);
    CHECK(c.trainer.seed == c.seed);
    CHECK(Seq2SeqSessionConfig::from_json(c.to_json()).to_json() == c.to_json());
  }
  CHECK_THROWS_WITH_AS(seq2seq_recipe("poems"), doctest::Contains("no seq2seq recipe 'poems' (known: reverse,"),
                       std::invalid_argument);
}

TEST_CASE("seq2seq_recipes.the_values_the_cli_and_the_page_trained_before_the_table") {
  // attn train's defaults (cli/seq2seq_commands.cpp before the table).
  const Seq2SeqSessionConfig r = seq2seq_recipe_settings("reverse");
  CHECK(r.train_size == 20000);
  CHECK(r.test_size == 1000);
  CHECK(r.data_spec().test_min_len == 5);
  CHECK(r.data_spec().test_max_len == 20);
  const Seq2SeqConfig m = r.rnn_config(14, 14);
  CHECK(m.embed == 32);
  CHECK(m.units == 64);
  CHECK(m.attention_dim == 64);
  CHECK(m.cell == CellKind::lstm);
  CHECK(m.score == ScoreKind::additive);
  CHECK(r.trainer.batch == 64);
  CHECK(r.trainer.learning_rate == 0.002f);
  CHECK(r.trainer.early_stopping_patience == 3);
  CHECK(seq2seq_recipe_settings("dates").rnn_config(5, 5).score == ScoreKind::general);
  const Seq2SeqSessionConfig t = seq2seq_recipe_settings("translation-transformer");
  CHECK(t.train_size == 0);  // the whole file
  CHECK(t.test_size == 2000);
  CHECK(t.trainer.learning_rate == 0.002f);
  CHECK(t.trainer.schedule == "linear");
  CHECK(t.trainer.warmup_steps == 800);
  CHECK(t.trainer.epochs == 7);
  CHECK(t.beam == 5);  // the held-out scores: a beam search of 5
  CHECK(t.length_alpha == kDefaultLengthAlpha);
  const TransformerSeq2SeqConfig x = t.transformer_config(9, 9);
  CHECK(x.d_model == 128);
  CHECK(x.ff_dim == 512);
  CHECK(x.label_smoothing == 0.1f);
  const Seq2SeqSessionConfig b = seq2seq_recipe_settings("translation-bahdanau");
  CHECK(b.rnn_config(5, 5).units == 128);
  CHECK(b.trainer.warmup_steps == 200);
  CHECK(b.trainer.epochs == 3);
  CHECK(b.beam == 5);
  // RNNenc is trained as RNNsearch is, without the attention: the same row otherwise.
  const Seq2SeqSessionConfig e = seq2seq_recipe_settings("translation-rnnenc");
  CHECK(e.rnn_config(5, 5).attention == AttentionForm::none);
  CHECK(e.rnn_config(5, 5).embed == 128);
  CHECK(e.trainer.epochs == 3);
  CHECK(e.beam == 5);
  // The Translation tab's preset (web/src/views/translation/models.ts before the table).
  const Seq2SeqSessionConfig p = seq2seq_recipe_settings("translation-bahdanau-page");
  CHECK(p.train_size == 100000);
  CHECK(p.test_size == 400);
  CHECK(p.trainer.epochs == 6);
  CHECK(p.trainer.batch == 32);
  CHECK(p.trainer.learning_rate == 0.01f);
  CHECK(p.trainer.early_stopping_patience == 0);
  CHECK(p.seed == 7);
  CHECK(p.beam == 1);  // greedy: each epoch's BLEU in a browser tab
  CHECK(p.rnn_config(5, 5).cell == CellKind::gru);
  CHECK(seq2seq_recipe_settings("translation-luong-page").rnn_config(5, 5).cell == CellKind::lstm);
  CHECK(seq2seq_recipe_settings("translation-transformer-page").trainer.learning_rate == 0.002f);
  // The tab's presets for a large file (models.ts FILE_PRESET_PAIRS): one epoch of up to 160,000
  // pairs, 4,000 words a side, greedy scores of 1,000 held-out sources, the corpus presets' seed.
  for (const char* name : {"translation-rnnenc-page-file", "translation-bahdanau-page-file",
                           "translation-luong-page-file", "translation-transformer-page-file"}) {
    CAPTURE(name);
    const Seq2SeqSessionConfig f = seq2seq_recipe_settings(name);
    CHECK(f.train_size == 160000);
    CHECK(f.test_size == 1000);
    CHECK(f.source_vocab == 4000);
    CHECK(f.target_vocab == 4000);
    CHECK(f.trainer.epochs == 1);
    CHECK(f.trainer.batch == 64);
    CHECK(f.trainer.validation_split == doctest::Approx(0.02));
    CHECK(f.trainer.schedule == "linear");
    CHECK(f.beam == 1);
    CHECK(f.bleu_sentences == 200);
    CHECK(f.seed == 7);
  }
  const Seq2SeqSessionConfig tf = seq2seq_recipe_settings("translation-transformer-page-file");
  CHECK(tf.kind == "transformer");
  CHECK(tf.transformer.d_model == 96);
  CHECK(tf.ff == 384);
  CHECK(tf.transformer.dropout == 0.f);
  CHECK(tf.transformer.label_smoothing == 0.f);
  CHECK(tf.trainer.learning_rate == 0.003f);
  CHECK(tf.trainer.warmup_steps == 400);
  CHECK(seq2seq_recipe_settings("translation-luong-page-file").rnn_config(5, 5).cell == CellKind::lstm);
  CHECK(seq2seq_recipe_settings("translation-rnnenc-page-file").rnn_config(5, 5).attention == AttentionForm::none);
  // The Seq2seq tab's (web/src/views/seq2seq/tasks.ts): the session's small model.
  const Seq2SeqSessionConfig d = seq2seq_recipe_settings("dates-page");
  CHECK(d.train_size == 6000);
  CHECK(d.trainer.epochs == 6);
  CHECK(d.rnn_config(5, 5).embed == 16);
  CHECK(seq2seq_recipe_settings("reverse-page").trainer.epochs == 8);
}

TEST_CASE("seq2seq_recipes.the_cli_row_of_each_task_and_model") {
  CHECK(seq2seq_cli_recipe_name("reverse", "seq2seq-attention") == "reverse");
  CHECK(seq2seq_cli_recipe_name("sort", "seq2seq") == "reverse-rnnenc");
  CHECK(seq2seq_cli_recipe_name("copy", "transformer-seq2seq") == "reverse-transformer");
  CHECK(seq2seq_cli_recipe_name("dates", "seq2seq-attention", "bahdanau") == "dates");
  CHECK(seq2seq_cli_recipe_name("parallel", "seq2seq-attention") == "translation-bahdanau");
  CHECK(seq2seq_cli_recipe_name("parallel", "seq2seq-attention", "luong") == "translation-luong");
  for (const Seq2SeqRecipe& r : seq2seq_recipes()) {
    if (r.use == "cli") CHECK(seq2seq_recipe_settings(r.name).bleu_sentences == 0);
  }
}

// Files written before the schemas (the CLI of commit 376ba63: `attn train --task reverse
// --train-size 40 --test-size 8 --min-len 3 --max-len 4 --epochs 1 --embed 4 --units 3
// --attention-dim 3 --attention luong --score dot --save seq2seq_rnn_v1.attn`, and `... --model
// transformer-seq2seq --embed 8 --heads 2 --layers 1 --ff 8 --save transformer_seq2seq_v1.attn`)
// load, decode as they did then, and are written back byte for byte.
TEST_CASE("seq2seq_recipes.model_files_written_before_the_schemas_still_load") {
  for (const char* name : {"seq2seq_rnn_v1.attn", "transformer_seq2seq_v1.attn"}) {
    CAPTURE(name);
    const std::vector<std::uint8_t> bytes = test_fixtures::read(name);
    std::string extra;
    const std::unique_ptr<TrainableTranslator> model = load_translator(bytes, &extra);
    CHECK(save_translator(*model, extra) == bytes);
  }
  std::string extra;
  const auto rnn = load_translator(test_fixtures::read("seq2seq_rnn_v1.attn"), &extra);
  const auto& config = dynamic_cast<const Seq2SeqModel&>(*rnn).config();
  CHECK(config.embed == 4);
  CHECK(config.units == 3);
  CHECK(config.attention == AttentionForm::luong);
  CHECK(config.score == ScoreKind::dot);
  CHECK(config.max_source_len == 4);
  // `attn translate --text 1234 --json` of the old CLI: log_prob -47.3416748, 18 steps, no EOS.
  const ParallelVocabularies v = read_seq2seq_vocabularies(extra);
  const std::vector<Decoded> out = greedy_search(*rnn, source_row(v.source.encode("1234")), 18);
  CHECK(v.target.decode(out[0].tokens) == "977779111111111111");
  CHECK(out[0].log_prob == doctest::Approx(-47.3416748).epsilon(1e-6));
  CHECK(!out[0].finished);
  const auto t = load_translator(test_fixtures::read("transformer_seq2seq_v1.attn"), &extra);
  const auto& x = dynamic_cast<const TransformerSeq2Seq&>(*t).config();
  CHECK(x.d_model == 8);
  CHECK(x.heads == 2);
  CHECK(x.ff_dim == 8);
  CHECK(x.label_smoothing == 0.1f);
  // A damaged configuration is refused with the schema's wording.
  CHECK_THROWS_WITH_AS(Seq2SeqConfig::from_json(R"({"model":"seq2seq","embed":4})"),
                       "Seq2SeqConfig: missing setting 'source_vocab'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(TransformerSeq2SeqConfig::from_json(
                           R"({"model":"transformer_seq2seq","source_vocab":9,"target_vocab":9,"d_model":8,"heads":2,)"
                           R"("ff_dim":8,"encoder_layers":1,"decoder_layers":1,"dropout":0.1,"activation":"relu",)"
                           R"("label_smoothing":0.1,"share_embeddings":false,"tie_output":false,"colour":1})"),
                       "TransformerSeq2SeqConfig: unknown setting 'colour'", std::invalid_argument);
}
