// The pure parts of the views' maps in node: which colour scale a map gets (fixed 0–1 for
// probabilities, diverging and centred at 0 for signed values and differences, one per row where
// rows differ in kind), the number formats every view shares, the strength of the Studio's B − A
// strip, and the Seq2seq view's checks of an input and of the model's confidence. What the
// browser draws from these is checked in tests/e2e/view_maps.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let maps;
let palette;
let format;
let curves;
let tasks;

before(async () => {
  loaded = await loadWebModules(
    '/src/views/heatmap_data.ts',
    '/src/views/palette.ts',
    '/src/views/format.ts',
    '/src/views/studio/curves.ts',
    '/src/views/seq2seq/tasks.ts',
  );
  [maps, palette, format, curves, tasks] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

const TOP = [253, 231, 37]; // viridis at 1
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

test('maps.probabilities: a fixed 0–1 scale, so uniform weights are never drawn as the top colour', () => {
  const uniform = {
    values: Array(6).fill(1 / 6),
    rows: 1,
    cols: 6,
    rowLabels: ['A'],
    colLabels: [],
    scale: 'probability',
  };
  const [{ scale }] = maps.mapScales(uniform);
  assert.deepEqual(scale.range, [0, 1]);
  assert.equal(scale.stretched, false);
  const colour = maps.cellColours(uniform)[0];
  assert.ok(distance(colour, TOP) > 150, `0.167 drawn as ${colour}, near the top ${TOP}`);
  assert.deepEqual(colour, palette.viridis(1 / 6));
  // Near-uniform weights (0.149–0.202) stay close together instead of spanning the palette.
  const near = { ...uniform, values: [0.149, 0.16, 0.165, 0.17, 0.154, 0.202] };
  const colours = maps.cellColours(near);
  assert.ok(distance(colours[0], colours[5]) < 60, `0.149 ${colours[0]} vs 0.202 ${colours[5]}`);
  // A [0, 1] range alone means probabilities too.
  assert.equal(maps.inferScaleKind([0.2, 0.8], [0, 1]), 'probability');
});

test('maps.signed: diverging, centred at 0; the legend says when the range is stretched', () => {
  assert.equal(maps.inferScaleKind([-0.5, 0.25]), 'signed');
  assert.equal(maps.inferScaleKind([0.5, 2]), 'magnitude');
  const data = { values: [-0.5, 0, 0.25], rows: 1, cols: 3, rowLabels: [''], colLabels: [] };
  const [{ scale }] = maps.mapScales(data);
  assert.equal(scale.diverging, true);
  assert.deepEqual(scale.range, [-0.5, 0.5], 'symmetric around 0');
  assert.equal(scale.stretched, true);
  assert.deepEqual(scale.colour(0), palette.DIVERGING_NEUTRAL, 'zero is the neutral middle');
  assert.match(maps.describeScale(scale), /stretched/);
  const fixed = maps.mapScales({ ...data, scale: 'signed', range: [-1, 1] })[0].scale;
  assert.equal(fixed.stretched, false);
  assert.doesNotMatch(maps.describeScale(fixed), /stretched/);
  const magnitude = maps.mapScales({ ...data, values: [1, 3, 2] })[0].scale;
  assert.match(maps.describeScale(magnitude), /stretched to this map's range: 1\.000/);
});

test('maps.differences: a fixed ±1 diverging scale, so 0.002 stays near the neutral colour', () => {
  const diff = maps.colourScale('difference', [0.002, -0.002]);
  assert.deepEqual(diff.range, [-1, 1]);
  for (const d of [0.002, -0.002]) {
    const colour = diff.colour(d);
    assert.ok(distance(colour, palette.DIVERGING_NEUTRAL) < 3, `${d} drawn as ${colour}`);
  }
  assert.ok(distance(diff.colour(0.5), palette.DIVERGING_NEUTRAL) > 60, 'a real difference shows');
});

test('maps.rowScales: rows of different kinds get their own scales; fixed kinds share one', () => {
  const race = {
    values: [0.167, 0.167, 0.169, 0.165, 0.002, -0.002],
    rows: 3,
    cols: 2,
    rowLabels: ['A', 'B', 'B − A'],
    colLabels: [],
    rowScales: ['probability', 'probability', 'difference'],
  };
  const groups = maps.mapScales(race);
  assert.deepEqual(
    groups.map((g) => [g.scale.kind, g.rows]),
    [
      ['probability', [0, 1]],
      ['difference', [2]],
    ],
  );
  // Five scoring functions on one scale flatten the small ones; one stretched scale per row does not.
  const scores = {
    values: [900, -100, 0.9, -0.7],
    rows: 2,
    cols: 2,
    rowLabels: ['dot', 'cosine'],
    colLabels: [],
    rowScales: ['signed', 'signed'],
  };
  const colours = maps.cellColours(scores);
  assert.ok(distance(colours[2], palette.DIVERGING_NEUTRAL) > 100, 'cosine 0.9 is not flat');
  assert.deepEqual(
    maps.mapScales(scores).map((g) => g.scale.range),
    [
      [-900, 900],
      [-0.9, 0.9],
    ],
  );
});

test('format: one percent format, rounded values, signed values with a true minus', () => {
  assert.equal(format.percent(0.8333), '83.3%');
  assert.equal(format.percent(1), '100.0%');
  assert.equal(format.formatValue(0.06366555392742157), '0.064');
  assert.equal(format.formatValue(2.34e-5), '2.34e-5');
  assert.equal(format.formatValue(929.4), '929.4');
  assert.equal(format.formatSigned(-0.3), '−0.300');
  assert.equal(format.formatSigned(0.012), '+0.012');
  assert.equal(maps.formatValue, format.formatValue, 'heatmap_data re-exports the one formatValue');
});

test('studio.differenceStrength: the B − A strip is tinted on the weights’ scale, not on its own largest difference', () => {
  const a = [0.167, 0.166, 0.167];
  const b = [0.169, 0.164, 0.167];
  const diff = curves.weightDifference(a, b, 3);
  const strength = curves.differenceStrength(diff, a, b);
  assert.ok(
    strength.every((s) => s < 0.02),
    `differences of 0.002 between near-uniform weights tint at ${strength}`,
  );
  const big = curves.differenceStrength([0.5, -0.5], [0.1, 0.6], [0.6, 0.1]);
  assert.ok(
    big.every((s) => s > 0.8),
    'a difference as large as the weights tints fully',
  );
  assert.deepEqual(
    curves.watchedRows([0.75, 0.25], [0.5, 0.5], ['good', 'film'], true).map((r) => r.kind),
    ['probability', 'probability', 'difference'],
  );
});

// The lengths the reverse-page recipe trains on (the session's defaults).
const LENGTHS = { minLen: 3, maxLen: 8 };

test('seq2seq.inputWarnings: out-of-domain inputs are named; in-domain ones are not', () => {
  assert.deepEqual(tasks.inputWarnings('dates', '3 May 1979', [...'3 May 1979'], LENGTHS), []);
  assert.deepEqual(tasks.inputWarnings('reverse', '4071385', [...'4071385'], LENGTHS), []);
  const hello = tasks.inputWarnings('dates', 'hello', [...'hello'], LENGTHS);
  assert.equal(hello.length, 1);
  assert.match(hello[0], /has none/);
  const unknown = tasks.inputWarnings(
    'dates',
    '3 Mai 1979 ☃',
    ['3', ' ', 'M', 'a', 'i', ' ', '1', '9', '7', '9', ' ', '<unk>'],
    LENGTHS,
  );
  assert.match(unknown[0], /^1 of the 12 characters never occurred/);
  const letters = tasks.inputWarnings('reverse', 'abc', ['<unk>', '<unk>', '<unk>'], LENGTHS);
  assert.equal(letters.length, 2);
  assert.match(letters[1], /digit strings only/);
  assert.match(tasks.inputWarnings('reverse', '1234567890123', [...'1234567890123'], LENGTHS)[0], /3 to 8 digits/);
});

test('seq2seq.meanTokenProbability: the geometric mean of the output tokens’ probabilities', () => {
  assert.equal(tasks.meanTokenProbability(0, 5), 1);
  assert.ok(Math.abs(tasks.meanTokenProbability(5 * Math.log(0.5), 5) - 0.5) < 1e-12);
  assert.equal(tasks.meanTokenProbability(-1, 0), 0);
});

test('maps.ids: token ids are labels, not amounts — one plain background, no colour scale', () => {
  const ids = { values: [1, 57, 3, 0], rows: 1, cols: 4, rowLabels: [''], colLabels: [], scale: 'ids' };
  const colours = maps.cellColours(ids);
  assert.ok(colours.every((c) => c === maps.IDS_BACKGROUND));
  assert.match(maps.describeScale(maps.mapScales(ids)[0].scale), /no colour scale/);
});
