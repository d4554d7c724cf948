// One table per settings struct (core io/settings_schema.hpp) against the hand-written TypeScript
// (the seq2seq track's recipes are held to the CLI in tests/js/seq2seq_recipes.test.mjs):
// the Studio trains exactly the engine's recipe settings for each preset (the same settings
// `attn train` starts from: tests/test_cli.cpp, cli.train_defaults_are_the_recipe_settings), the
// declared settings types name the schema's fields and choices, and the Studio's own defaults
// are the schema's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let settings;
let recipes;
let engine;

before(async () => {
  loaded = await loadWebModules('/src/views/studio/settings.ts', '/src/views/studio/recipes.ts');
  [settings, recipes] = loaded.modules;
  engine = await loadEngine();
});
after(async () => {
  await loaded?.close();
});

// What the Studio hands createModel and startTraining for its settings `s`, every field filled in
// by the engine (settings_from_js: the same conversion SentimentSession's binding uses).
function studioTrains(s) {
  return engine.resolveSentimentSettings(settings.modelConfig(s), settings.trainerSettings(s));
}

test('settings_schema.each Studio preset trains the engine recipe settings the CLI trains', () => {
  const { DEFAULTS } = settings;
  const { applyRecipe, cliModel, useEngineRecipes } = recipes;
  // The page's defaults are model (a) with the built-in corpus' recipe.
  assert.deepEqual(studioTrains(DEFAULTS), engine.sentimentRecipeSettings('bilstm-attention', 'builtin'));
  useEngineRecipes(engine.sentimentRecipes());
  const forms = [
    ['bilstm', 'attention'],
    ['bilstm', 'last'],
    ['transformer', 'mean'],
  ];
  for (const [preset, data] of [
    ['builtin', 'builtin'],
    ['imdb', 'real'],
  ]) {
    for (const [encoder, pooling] of forms) {
      const form = applyRecipe(preset, { ...DEFAULTS, encoder, pooling });
      const model = cliModel(form);
      assert.deepEqual(studioTrains(form), engine.sentimentRecipeSettings(model, data), `${preset}: ${model}`);
    }
  }
});

test('settings_schema.a difference between the page and the recipe is caught', () => {
  // The check above must be able to fail: one changed default shows up in the resolved settings.
  const changed = { ...settings.DEFAULTS, learningRate: 0.001 };
  assert.notDeepEqual(studioTrains(changed), engine.sentimentRecipeSettings('bilstm-attention', 'builtin'));
  const { trainer } = studioTrains(changed);
  assert.equal(trainer.learningRate, Math.fround(0.001));
});

// The keys of `interface name { ... }` in a .d.ts, with each key's string-literal union (if any).
function declaredFields(source, name) {
  const body = source.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))?.[1];
  assert.ok(body, `interface ${name} not found`);
  const aliases = Object.fromEntries(
    [...source.matchAll(/export type (\w+) =([^;]+);/g)].map((m) => [
      m[1],
      [...m[2].matchAll(/'([^']+)'/g)].map((x) => x[1]),
    ]),
  );
  const out = {};
  for (const m of body.matchAll(/^ {2}(\w+)\?: ([^;]+);/gm)) {
    // Each member of a union: a string literal, or a type alias of literals (ScoreKindName).
    const literals = m[2]
      .split('|')
      .map((part) => part.trim())
      .flatMap((part) => (/^'[^']+'$/.test(part) ? [part.slice(1, -1)] : (aliases[part] ?? [])));
    out[m[1]] = literals.length ? literals : null;
  }
  return out;
}

test('settings_schema.the declared settings types are the schema fields and choices', () => {
  const source = readFileSync(new URL('../../wasm/attn_engine.d.ts', import.meta.url), 'utf8');
  const schemas = engine.settingsSchemas();
  for (const [iface, schema] of [
    ['SentimentModelConfig', schemas.sentimentModel],
    ['TrainerSettings', schemas.trainer],
    ['Seq2SeqSettings', schemas.seq2seqSession],
  ]) {
    const declared = declaredFields(source, iface);
    assert.deepEqual(Object.keys(declared).sort(), schema.map((f) => f.name).sort(), iface);
    for (const field of schema) {
      if (field.type !== 'choice') continue;
      // A declared union may be wider (ScoreKindName lists every scoring function); it must
      // include each of the schema's choices.
      for (const choice of field.choices) {
        assert.ok(declared[field.name]?.includes(choice), `${iface}.${field.name} lacks '${choice}'`);
      }
    }
  }
});

test('settings_schema.the Studio choices and defaults are the engine schema', () => {
  const { DEFAULTS, CHOICES, VALIDATION_SHARE } = settings;
  const fields = Object.fromEntries(engine.settingsSchemas().sentimentModel.map((f) => [f.name, f]));
  const trainer = Object.fromEntries(engine.settingsSchemas().trainer.map((f) => [f.name, f]));
  for (const key of ['encoder', 'pooling', 'score']) {
    for (const choice of CHOICES[key]) assert.ok(fields[key].choices.includes(choice), `${key} '${choice}'`);
  }
  for (const choice of CHOICES.schedule) assert.ok(trainer.schedule.choices.includes(choice), choice);
  // Settings no recipe decides keep the engine's defaults.
  for (const key of ['encoder', 'score', 'embedDim', 'units', 'seed']) {
    assert.equal(DEFAULTS[key], fields[key].default, key);
  }
  assert.equal(VALIDATION_SHARE, Math.round(trainer.validationSplit.default * 1e6) / 1e6);
  // Ranges and rules come with each field, for forms and messages.
  assert.deepEqual(
    [trainer.learningRate.min, trainer.learningRate.max, trainer.learningRate.minOpen, trainer.learningRate.rule],
    [0, null, true, 'finite and > 0'],
  );
  assert.deepEqual(fields.numWords.flag, 'vocab');
});

test('settings_schema.settings cross the boundary as objects, with the schema wording', () => {
  const s = new engine.SentimentSession();
  try {
    assert.throws(
      () => s.createModel({ embedDim: 0 }),
      /SentimentModelConfig: embed_dim must be a whole number from 1 to 4096, got 0/,
    );
    assert.throws(
      () => s.createModel({ encoder: 'rnn' }),
      /SentimentModelConfig: encoder must be one of bilstm, bigru, transformer, none, got 'rnn'/,
    );
    assert.throws(
      () => s.createModel({ units: 'many' }),
      /SentimentModelConfig: units must be a whole number from 1 to 4096, got 'many'/,
    );
    assert.throws(() => s.createModel({ units: [4] }), /config.units must be a number, a boolean or a string/);
    assert.throws(
      () => s.startTraining({ epochs: 1.5 }),
      /TrainerConfig: epochs must be a whole number from 1 to 1000, got 1.5/,
    );
  } finally {
    s.delete();
  }
  assert.throws(
    () => new engine.Seq2SeqSession({ embed: 0 }),
    /Seq2SeqSessionConfig: embed must be a whole number from 1 to 4096, got 0/,
  );
  assert.throws(
    () => new engine.Seq2SeqSession({ attention: 'global' }),
    /Seq2SeqSessionConfig: attention must be one of bahdanau, luong, none, got 'global'/,
  );
  assert.throws(
    () => new engine.Seq2SeqSession({ learningRate: '0.01' }),
    /Seq2SeqSessionConfig: learning_rate must be finite and > 0, got '0.01'/,
  );
  assert.throws(
    () => new engine.Seq2SeqSession({ units: [4] }),
    /config.units must be a number, a boolean or a string/,
  );
  assert.throws(
    () => engine.Seq2SeqSession.fromParallelText({ colour: 'red' }, 'a\tb\n', 'x.tsv'),
    /Seq2SeqSessionConfig: unknown setting 'colour'/,
  );
  assert.throws(
    () => new engine.ToyRun('{"padding": "middle"}'),
    /ToyRunConfig: padding must be one of pre, post, got 'middle'/,
  );
});
