// The app shell's pure parts in node: hash routing, the lab's URL state, CSV export, the seeded
// samples and the weight statistics of the d_k experiment. The TypeScript modules are loaded
// through Vite's SSR loader (the same transform the page build uses); the DOM parts are covered
// by tests/e2e/playground.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let router;
let state;
let exporter;
let sample;
let lab;

before(async () => {
  loaded = await loadWebModules(
    '/src/app/router.ts',
    '/src/views/lab/state.ts',
    '/src/export/export.ts',
    '/src/views/lab/sample.ts',
    '/src/views/lab/numbers.ts',
  );
  [router, state, exporter, sample, lab] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

test("router.parses routes, redirects the empty hash and the first page's #lab? links", () => {
  const { parseHash, routeHash } = router;
  assert.deepEqual(parseHash('', 'lab'), { redirect: '#/lab' });
  assert.deepEqual(parseHash('#/', 'lab'), { redirect: '#/lab' });
  assert.deepEqual(parseHash('#lab?kind=dot&s=1%2C2', 'lab'), { redirect: '#/lab?kind=dot&s=1%2C2' });
  assert.deepEqual(parseHash('#lab', 'lab'), { redirect: '#/lab' });
  assert.deepEqual(parseHash('#%%%', 'lab'), { redirect: '#/lab' });
  const parsed = parseHash('#/studio?run=2&x=a%20b', 'lab');
  assert.equal(parsed.route.view, 'studio');
  assert.equal(parsed.route.params.get('x'), 'a b');
  assert.equal(parseHash('#/transformer/', 'lab').route.view, 'transformer');
  assert.equal(routeHash('seq2seq'), '#/seq2seq');
  assert.equal(routeHash('lab', new URLSearchParams({ kind: 'dot', s: '1,2' })), '#/lab?kind=dot&s=1%2C2');
});

test('lab_state.round-trips through the URL; malformed or out-of-range values keep their defaults', () => {
  const { defaultLabState, labStateFromParams, labStateToParams } = state;
  const s = {
    ...defaultLabState(),
    kind: 'additive',
    temperature: 0.5,
    dk: 512,
    length: 8,
    valid: 3,
    causal: true,
    sample: 9,
  };
  assert.deepEqual(labStateFromParams(labStateToParams(s)), s);
  const bad = labStateFromParams(new URLSearchParams('kind=nope&temp=99&dk=513&n=1&causal=yes&sample=-1&s=1,x'));
  const d = defaultLabState();
  assert.deepEqual(
    [bad.kind, bad.temperature, bad.dk, bad.length, bad.causal, bad.sample, bad.query],
    [d.kind, d.temperature, d.dk, d.length, d.causal, d.sample, d.query],
  );
  // More real tokens than tokens is clamped; a short query pads the annotations' width to match.
  const clamped = labStateFromParams(new URLSearchParams('n=4&valid=9&s=1,2&h=1;2,3,4'));
  assert.equal(clamped.valid, 4);
  assert.deepEqual(
    clamped.annotations,
    d.annotations.map((row) => row.slice(0, 2)),
  );
});

test('export.toCsv quotes commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
  const { toCsv, fileStem } = exporter;
  assert.equal(
    toCsv([
      ['a', 'b,c'],
      ['say "hi"', 'x\ny'],
      [1.5, -2],
    ]),
    'a,"b,c"\r\n"say ""hi""","x\ny"\r\n1.5,-2\r\n',
  );
  assert.equal(toCsv([['=HYPERLINK("x")', '+1', '@a', '-b']]), `"'=HYPERLINK(""x"")",'+1,'@a,'-b\r\n`);
  assert.equal(fileStem('Weights: softmax(scores / τ)'), 'weights-softmax-scores');
  assert.equal(fileStem('αβ'), 'heatmap');
});

test('export.heatmapLayout grows with the map and keeps a minimum width for the legend', () => {
  const { heatmapLayout } = exporter;
  assert.deepEqual([heatmapLayout({ rows: 1, cols: 4 }).width, heatmapLayout({ rows: 1, cols: 4 }).height], [280, 156]);
  // 10 × 10: 64 + 480 + 16 = 560 wide, 56 + 480 + 52 = 588 high.
  assert.deepEqual(
    [heatmapLayout({ rows: 10, cols: 10 }).width, heatmapLayout({ rows: 10, cols: 10 }).height],
    [560, 588],
  );
});

test('sample.normals is reproducible from its seed and close to N(0, 1)', () => {
  const { normals } = sample;
  assert.deepEqual(normals(1, 2, 5), normals(1, 2, 5));
  assert.notDeepEqual(normals(1, 2, 5), normals(2, 2, 5));
  assert.notDeepEqual(normals(1, 2, 5), normals(1, 3, 5));
  const x = normals(7, 1, 20001);
  const mean = x.reduce((a, b) => a + b, 0) / x.length;
  const variance = x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length;
  // Standard errors: mean 1/√20001 ≈ 0.007, variance √(2/20001) ≈ 0.01; bounds are ~4 of them.
  assert.ok(Math.abs(mean) < 0.03, `mean ${mean}`);
  assert.ok(Math.abs(variance - 1) < 0.04, `variance ${variance}`);
  assert.ok(x.every(Number.isFinite));
});

test('lab.weightStats: entropy in nats and the largest weight', () => {
  const { weightStats } = lab;
  const uniform = weightStats([0.25, 0.25, 0.25, 0.25]);
  assert.ok(Math.abs(uniform.entropy - Math.log(4)) < 1e-12);
  assert.equal(uniform.max, 0.25);
  assert.deepEqual(weightStats([0, 1, 0]), { entropy: 0, max: 1 });
  // −(0.9 ln 0.9 + 0.1 ln 0.1) = 0.0948 + 0.2303 = 0.3251
  assert.ok(Math.abs(weightStats([0.9, 0.1]).entropy - 0.3251) < 1e-4);
});

test('palette.textColourOn picks whichever of black and white has the higher WCAG contrast', async () => {
  const extra = await loadWebModules('/src/views/palette.ts');
  try {
    const [palette] = extra.modules;
    const luminance = ([r, g, b]) => {
      const lin = (c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    let worst = Infinity;
    for (let i = 0; i <= 200; i++) {
      const colour = palette.viridis(i / 200);
      const l = luminance(colour);
      const onBlack = (l + 0.05) / 0.05;
      const onWhite = 1.05 / (l + 0.05);
      const chosen = palette.textColourOn(colour) === '#000' ? onBlack : onWhite;
      assert.equal(chosen, Math.max(onBlack, onWhite), `t = ${i / 200}`);
      worst = Math.min(worst, chosen);
    }
    // Every viridis cell's number reads at WCAG AA (4.5:1) or better.
    assert.ok(worst >= 4.5, `worst contrast ${worst}`);
  } finally {
    await extra.close();
  }
});
