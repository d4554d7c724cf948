// The worked softmax every view shows when a weight is hovered (web/src/views/softmax_numbers.ts):
// the pieces agree with a plain softmax (with temperature and masks, and with scores too large for
// exp without subtracting the maximum), and the lines carry those numbers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let numbers;

before(async () => {
  loaded = await loadWebModules('/src/views/softmax_numbers.ts');
  [numbers] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

function softmax(scores, tau = 1, visible = () => true) {
  const e = scores.map((s, j) => (visible(j) ? Math.exp(s / tau) : 0));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

test('softmax_numbers.the pieces give the softmax, with temperature and a mask', () => {
  const scores = [0.5, -1, 2, 0.25];
  for (const tau of [1, 0.5, 3]) {
    const visible = (j) => j !== 1;
    const expected = softmax(scores, tau, visible);
    for (let i = 0; i < scores.length; i++) {
      const p = numbers.softmaxParts(scores, i, { temperature: tau, visible });
      assert.equal(p.max, 2);
      assert.ok(Math.abs(p.weight - expected[i]) < 1e-12, `τ=${tau} i=${i}: ${p.weight} vs ${expected[i]}`);
      assert.ok(Math.abs(p.numerator / p.denominator - p.weight) < 1e-12 || i === 1);
    }
    assert.deepEqual(numbers.softmaxParts(scores, 1, { temperature: tau, visible }).weight, 0);
  }
  // The masked maximum is not the maximum.
  assert.equal(numbers.softmaxParts(scores, 0, { visible: (j) => j !== 2 }).max, 0.5);
  // No visible position: weight 0, not NaN.
  assert.equal(numbers.softmaxParts(scores, 0, { visible: () => false }).weight, 0);
});

test('softmax_numbers.large scores stay finite: the maximum is subtracted first', () => {
  // The lab's course example: scores 927 and 929 (e^929 overflows a double).
  const p = numbers.softmaxParts([927, 929, 0.1], 0);
  assert.equal(p.max, 929);
  assert.ok(Math.abs(p.numerator - Math.exp(-2)) < 1e-15);
  assert.ok(Math.abs(p.weight - Math.exp(-2) / (1 + Math.exp(-2))) < 1e-12);
});

test('softmax_numbers.the lines show the numbers, the temperature and the engine weight', () => {
  const lines = numbers.softmaxLines([927, 929, 0.1], 0, {
    temperature: 1,
    name: 'weight α1',
    over: 'the visible annotations',
    weight: 0.119,
  });
  assert.deepEqual(lines, [
    'm = 929.0, the largest score over the visible annotations, is subtracted first (it cancels in the division)',
    'numerator e^((927.0 − 929.0) / 1) = 0.135',
    'denominator Σ e^((s′ − m) / 1) over the visible annotations = 1.135',
    'weight α1 = 0.135 / 1.135 = 0.119',
  ]);
  const plain = numbers.softmaxLines([1, 2], 1, { name: 'α', over: '2 keys' });
  assert.equal(plain[1], 'numerator e^(2.000 − 2.000) = 1.000');
  assert.equal(plain[2], 'denominator Σ e^(s′ − m) over 2 keys = 1.368');
  assert.equal(plain[3], 'α = 1.000 / 1.368 = 0.731');
});
