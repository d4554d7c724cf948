// The relaxed-SIMD (FMA) GEMM micro-kernel (core/src/kernels/micro_kernel_fma.wat). Node 20 runs
// wasm without relaxed SIMD unless asked, so this process exercises the mul + add kernel, and a
// child node started with --experimental-wasm-relaxed-simd exercises the FMA one (as Chromium
// does). Both must agree with a double-precision product, the FMA one must really round
// differently (so it ran), and model (a) must follow the same loss curve with either.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine } from './support/engine.mjs';
import { flaggedProducts, products, RELAXED_PROBE, trainingLosses } from './support/gemm_products.mjs';

const FMA = 'wasm relaxed-simd fma 4x8';
const MUL_ADD = 'wasm_simd128 4x8';

let engine;
let child;
before(async () => {
  engine = await loadEngine();
  const script = fileURLToPath(new URL('./support/gemm_products.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--experimental-wasm-relaxed-simd', script], {
    maxBuffer: 64 * 1024 * 1024,
  });
  child = JSON.parse(out.toString());
});

// |c - exact| within the float rounding bound of a length-k dot product of values in [-1, 1).
function assertClose({ a, b, c }, what) {
  const [m, k] = a.shape;
  const n = b.shape[1];
  const bound = 2 * k * k * 2 ** -24;
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let exact = 0;
      for (let p = 0; p < k; p++) exact += a.data[i * k + p] * b.data[p * n + j];
      const got = c[i * n + j];
      assert.ok(Math.abs(got - exact) <= bound, `${what} ${m}x${n}x${k} [${i}, ${j}]: ${got} vs ${exact}`);
    }
}

test('gemm: the kernel in use follows the engine (mul + add unless it has relaxed SIMD)', () => {
  assert.equal(engine.gemmImplementation(), WebAssembly.validate(RELAXED_PROBE) ? FMA : MUL_ADD);
  assert.equal(child.relaxed, true, 'node --experimental-wasm-relaxed-simd accepts relaxed SIMD');
  assert.equal(child.implementation, FMA);
});

test('gemm: both kernels agree with a double-precision product on every path', () => {
  const here = products(engine);
  here.forEach((p, i) => {
    assertClose(p, engine.gemmImplementation());
    assertClose({ ...p, c: child.products[i] }, FMA);
  });
  // Fused multiply-adds round once instead of twice, so some sums differ in their last bits:
  // the FMA kernel, not the C++ one, computed the child's products.
  const large = here.findIndex((p) => p.a.shape[0] === 32 && p.b.shape[1] === 512);
  if (engine.gemmImplementation() !== FMA)
    assert.notDeepEqual(child.products[large], here[large].c, 'FMA and mul + add gave bit-identical sums');
});

// The same bound for alpha · op(a) · op(b) with a, b stored transposed where flagged.
function assertCloseFlagged({ a, b, c, m, n, k, transposeA, transposeB, alpha }, what) {
  const bound = 2 * k * k * 2 ** -24 * Math.max(1, Math.abs(alpha));
  const at = (i, p) => (transposeA ? a.data[p * m + i] : a.data[i * k + p]);
  const bt = (p, j) => (transposeB ? b.data[j * k + p] : b.data[p * n + j]);
  const flags = `${transposeA ? 'T' : 'N'}${transposeB ? 'T' : 'N'} alpha ${alpha}`;
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let exact = 0;
      for (let p = 0; p < k; p++) exact += at(i, p) * bt(p, j);
      exact *= alpha;
      const got = c[i * n + j];
      assert.ok(Math.abs(got - exact) <= bound, `${what} ${m}x${n}x${k} ${flags} [${i}, ${j}]: ${got} vs ${exact}`);
    }
}

test('gemm: both kernels agree with a double-precision product with transposes and alpha', () => {
  const here = flaggedProducts(engine);
  assert.equal(child.flagged.length, here.length);
  here.forEach((p, i) => {
    assertCloseFlagged(p, engine.gemmImplementation());
    assertCloseFlagged({ ...p, c: child.flagged[i] }, FMA);
  });
});

test('gemm: bad operands get a clear message', () => {
  const a = { shape: [2, 3], data: new Float32Array(6) };
  assert.throws(() => engine.gemm(a, a, { transposeA: false }), /op\(b\) must have 3 rows/);
  assert.throws(() => engine.gemm(a, a, { transposeB: 'yes' }), /options.transposeB must be a boolean/);
  assert.equal(engine.gemm(a, a, { transposeB: true }).shape.join(','), '2,2');
});

test('gemm: model (a) follows the same loss curve with either kernel', () => {
  const here = trainingLosses(engine);
  assert.equal(child.losses.length, here.length);
  here.forEach((loss, i) =>
    assert.ok(
      Math.abs(loss - child.losses[i]) <= 1e-3 * Math.max(1, loss),
      `step ${i + 1}: ${loss} vs ${child.losses[i]}`,
    ),
  );
  assert.ok(here.at(-1) < here[0], 'the loss goes down');
});
