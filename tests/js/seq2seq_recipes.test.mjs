// The seq2seq recipes (core train/seq2seq_recipes.cpp) trained from both front ends. The page: the
// Seq2seq tab (web/src/views/seq2seq/tasks.ts taskSettings) and the Translation tab
// (web/src/views/translation/models.ts runSettings) build their settings from the engine's table,
// and Seq2SeqSession's binding reads them (resolveSeq2seqSettings: settings_from_js, what
// `new Seq2SeqSession` reads). The CLI: `attn train --recipe NAME --print-settings` (the native
// tool, flags and all) and its defaults per --task and --model. Every field of both must agree.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

const ATTN = fileURLToPath(new URL('../../build/native/attn', import.meta.url));

let loaded;
let tasks;
let models;
let engine;
let recipes;
let fields;

before(async () => {
  loaded = await loadWebModules('/src/views/seq2seq/tasks.ts', '/src/views/translation/models.ts');
  [tasks, models] = loaded.modules;
  engine = await loadEngine();
  recipes = engine.seq2seqRecipes();
  fields = engine.settingsSchemas().seq2seqSession;
});
after(async () => {
  await loaded?.close();
});

// Float settings travel as float32 (%.9g in the CLI's JSON, the float widened in the binding's).
function comparable(settings) {
  const out = {};
  for (const f of fields) out[f.name] = f.type === 'number' ? Math.fround(settings[f.name]) : settings[f.name];
  return out;
}

// What `attn train <args>` trains, as the page's settings object (camelCase, every field).
function cliTrains(args) {
  assert.ok(existsSync(ATTN), `${ATTN} is missing: build the native CLI first (bash scripts/setup.sh native)`);
  const line = JSON.parse(execFileSync(ATTN, ['train', ...args, '--print-settings'], { encoding: 'utf8' }));
  assert.equal(line.event, 'settings');
  const keys = Object.keys(line).filter((k) => k !== 'event' && k !== 'recipe');
  assert.deepEqual(keys.sort(), fields.map((f) => f.key).sort(), `attn train ${args.join(' ')}: every field`);
  return { recipe: line.recipe, settings: comparable(Object.fromEntries(fields.map((f) => [f.name, line[f.key]]))) };
}

// What the page sends for each of its recipes, by the views' own functions.
function pageSends() {
  const table = models.recipeTable(recipes);
  const out = new Map();
  for (const m of models.MODELS) {
    out.set(m.recipe, models.runSettings(table, m.id, NaN));
    out.set(m.fileRecipe, models.runSettings(table, m.id, NaN, 'file'));
  }
  for (const t of Object.values(tasks.TASKS)) {
    const recipe = table.get(t.recipe);
    assert.ok(recipe, `the engine has the Seq2seq tab's recipe '${t.recipe}'`);
    out.set(t.recipe, tasks.taskSettings(recipe, recipe.settings.attention, NaN));
  }
  return out;
}

test('seq2seq_recipes.the page and attn train --recipe train the same settings for every page recipe', () => {
  const sends = pageSends();
  const page = recipes.filter((r) => r.use === 'page').map((r) => r.name);
  assert.deepEqual([...sends.keys()].sort(), page.sort(), 'every page recipe is a preset of a view, and back');
  for (const [name, settings] of sends) {
    const trained = comparable(engine.resolveSeq2seqSettings(settings));
    assert.deepEqual(trained, comparable(engine.seq2seqRecipeSettings(name)), `${name}: the page adds nothing`);
    const cli = cliTrains(['--recipe', name]);
    assert.equal(cli.recipe, name);
    assert.deepEqual(cli.settings, trained, `${name}: attn train --recipe ${name}`);
  }
});

test('seq2seq_recipes.attn train defaults per task and model are the cli recipes', () => {
  const modelOf = (s) =>
    s.model === 'transformer' ? 'transformer-seq2seq' : s.attention === 'none' ? 'seq2seq' : 'seq2seq-attention';
  const cliRows = recipes.filter((r) => r.use === 'cli');
  assert.ok(cliRows.length >= 10);
  for (const r of cliRows) {
    const args = ['--task', r.task, '--model', modelOf(r.settings)];
    if (r.name === 'translation-luong') args.push('--attention', 'luong');
    const cli = cliTrains(args);
    assert.equal(cli.recipe, r.name, `attn train ${args.join(' ')} starts from ${r.name}`);
    assert.deepEqual(cli.settings, comparable(r.settings), r.name);
    assert.deepEqual(cliTrains(['--recipe', r.name]).settings, comparable(r.settings), `--recipe ${r.name}`);
  }
  // The digit tasks share the reversal's recipe; a flag changes its field only.
  const sort = cliTrains(['--task', 'sort', '--lr', '0.01']).settings;
  const reverse = comparable(engine.seq2seqRecipeSettings('reverse'));
  assert.deepEqual(sort, { ...reverse, task: 'sort', learningRate: Math.fround(0.01) });
});

test('seq2seq_recipes.a difference between the page and the CLI is caught', () => {
  // The checks above must be able to fail: a value the page adds shows up in the resolved settings.
  const [name, settings] = [...pageSends()][0];
  const changed = comparable(engine.resolveSeq2seqSettings({ ...settings, batch: settings.batch + 1 }));
  assert.notDeepEqual(changed, cliTrains(['--recipe', name]).settings);
  // ... and so does a flag of the CLI's.
  assert.notDeepEqual(cliTrains(['--recipe', name, '--epochs', '1']).settings, comparable(settings));
});
