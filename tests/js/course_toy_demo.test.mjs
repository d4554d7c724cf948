// Lesson 1's "a one-bit question" demo, run in node with the lesson's own settings: what the
// lesson says about it must be what the engine does — both models right on nearly every held-out
// sequence (a final state carries one bit however far), and the attention model's weight on the
// two marker tokens. The page runs the same configurations through the worker's toy runs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';
import { loadEngine } from './support/engine.mjs';

let engine;
let loaded;
let demo;

before(async () => {
  engine = await loadEngine();
  loaded = await loadWebModules('/src/course/lessons/index.ts');
  const [{ LESSONS }] = loaded.modules;
  demo = LESSONS.find((l) => l.number === 1).blocks.find((b) => 'training' in b).training;
});
after(async () => {
  await loaded?.close();
});

test('lesson 1: on a one-bit question the final state and attention both succeed; attention reads the markers', () => {
  const [last, attention] = demo.runs.map((run) => engine.runToyTask(JSON.stringify(run.config), null));
  assert.deepEqual(
    demo.runs.map((r) => r.config.pooling),
    ['last', 'attention'],
  );
  console.log(
    `final state ${(100 * last.testAccuracy).toFixed(1)} %, attention ${(100 * attention.testAccuracy).toFixed(1)} %, ` +
      `attention on the markers ${(100 * attention.decisiveAttention).toFixed(1)} %, most-attended is a marker ${(100 * attention.decisiveArgmaxRate).toFixed(1)} %`,
  );
  assert.ok(last.testAccuracy >= 0.95, `final state: ${last.testAccuracy}`);
  assert.ok(attention.testAccuracy >= 0.95, `attention: ${attention.testAccuracy}`);
  assert.ok(attention.decisiveAttention >= 0.5, `weight on the two markers: ${attention.decisiveAttention}`);
});
