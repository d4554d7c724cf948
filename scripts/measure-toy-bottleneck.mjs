// Lesson 1's "a one-bit question" (issue 25): looks for a setting of the engine's toy tasks where a
// BiLSTM/BiGRU's final states fail and attention pooling succeeds. Runs runToyTask (the page's
// toy runs, wasm engine in node) for each setting and seed, both poolings, and prints the
// held-out accuracy.
//   node scripts/measure-toy-bottleneck.mjs sweep   # 150–300 tokens, 2/4 units, pre/post, 150 steps
//   node scripts/measure-toy-bottleneck.mjs long    # 150–300 tokens, 2 units, 600 steps, seeds 1–4
//   node scripts/measure-toy-bottleneck.mjs medium  # 60–120 tokens, 2 units, 400 steps, lr 0.01
import { loadEngine } from '../tests/js/support/engine.mjs';

const which = process.argv[2] ?? 'long';
const base = { task: 'first_of_two', embed_dim: 8 };
const settings = [];
if (which === 'sweep') {
  for (const encoder of ['bigru', 'bilstm'])
    for (const units of [2, 4])
      for (const padding of ['pre', 'post'])
        for (const seed of [1, 2])
          settings.push({ ...base, encoder, min_len: 150, max_len: 300, units, padding, seed, steps: 150 });
} else if (which === 'long') {
  for (const seed of [1, 2, 3, 4])
    settings.push({ ...base, encoder: 'bilstm', min_len: 150, max_len: 300, units: 2, seed, steps: 600 });
} else if (which === 'medium') {
  for (const seed of [1, 2, 3, 4])
    settings.push({
      ...base,
      encoder: 'bilstm',
      min_len: 60,
      max_len: 120,
      units: 2,
      seed,
      steps: 400,
      learning_rate: 0.01,
    });
} else {
  throw new Error(`unknown set '${which}': sweep, long or medium`);
}

const engine = await loadEngine();
for (const setting of settings) {
  const result = (pooling) => {
    const extra = pooling === 'attention' ? { score: 'additive', attention_dim: 8 } : {};
    return engine.runToyTask(JSON.stringify({ ...setting, pooling, ...extra }), null).testAccuracy;
  };
  const [last, attention] = ['last', 'attention'].map(result);
  const { task, embed_dim, ...shown } = setting;
  console.log(
    `${JSON.stringify(shown)}: final state ${(100 * last).toFixed(1)} %, attention ${(100 * attention).toFixed(1)} %`,
  );
}
