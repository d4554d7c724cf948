// The course sandbox's numpy-like helper (web/src/course/np_helper.ts): every function against
// values worked out by hand, numpy's broadcasting and axis rules, and the errors wrong shapes give.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let np;
let compileWithNp;

before(async () => {
  loaded = await loadWebModules('/src/course/np_helper.ts');
  const [helper] = loaded.modules;
  ({ compileWithNp } = helper);
  np = new Function(`"use strict";\n${helper.NP_SOURCE}\nreturn np;`)();
});
after(async () => {
  await loaded?.close();
});

const A = [
  [1, 2, 3],
  [4, 5, 6],
]; // (2, 3)

test('np: shape, zeros, ones', () => {
  assert.deepEqual(np.shape(A), [2, 3]);
  assert.deepEqual(np.shape([1, 2]), [2]);
  assert.deepEqual(np.shape(7), []);
  assert.deepEqual(np.zeros(3), [0, 0, 0]);
  assert.deepEqual(np.zeros([2, 2]), [
    [0, 0],
    [0, 0],
  ]);
  assert.deepEqual(np.ones([1, 2]), [[1, 1]]);
  assert.throws(() => np.zeros([2, -1]), /np\.zeros\/np\.ones: the shape must be/);
});

test('np: dot and matmul follow numpy for vectors and matrices', () => {
  assert.equal(np.dot([5, 1, 20], [3, 12, 45]), 927); // the course example
  assert.deepEqual(np.dot(A, [1, 0, -1]), [-2, -2]); // (2,3)·(3,) -> (2,)
  assert.deepEqual(np.dot([1, -1], A), [-3, -3, -3]); // (2,)·(2,3) -> (3,)
  assert.deepEqual(np.dot(A, np.transpose(A)), [
    [14, 32],
    [32, 77],
  ]);
  assert.deepEqual(np.dot(2, [1, 2]), [2, 4]);
  assert.deepEqual(np.matmul(A, [1, 1, 1]), [6, 15]);
  // rank 3: one product per leading index (a batch of matrices)
  assert.deepEqual(np.matmul([A, A], [[1], [0], [0]]), [
    [[1], [4]],
    [[1], [4]],
  ]);
  assert.throws(() => np.dot(A, A), /np\.dot: shapes \(2, 3\) and \(2, 3\) do not align \(3 != 2\)/);
  assert.throws(() => np.dot([1, 2], [1, 2, 3]), /np\.dot: shapes \(2,\) and \(3,\) do not align/);
  assert.throws(() => np.matmul(3, A), /a number is not a matrix/);
});

test('np: transpose reverses or permutes axes', () => {
  assert.deepEqual(np.transpose(A), [
    [1, 4],
    [2, 5],
    [3, 6],
  ]);
  assert.deepEqual(np.transpose([1, 2]), [1, 2]);
  const x = [
    [
      [1, 2],
      [3, 4],
    ],
    [
      [5, 6],
      [7, 8],
    ],
  ]; // x[i][j][k] = 1 + 4i + 2j + k
  const y = np.transpose(x, [1, 0, 2]); // y[j][i][k] = x[i][j][k]
  assert.deepEqual(y, [
    [
      [1, 2],
      [5, 6],
    ],
    [
      [3, 4],
      [7, 8],
    ],
  ]);
  assert.throws(() => np.transpose(x, [0, 0, 1]), /np\.transpose: axes \[0,0,1\] do not permute/);
});

test('np: element-wise functions and broadcasting', () => {
  assert.deepEqual(np.exp([0, 1]), [1, Math.E]);
  assert.deepEqual(np.tanh([[0]]), [[0]]);
  assert.deepEqual(np.add(A, [10, 20, 30]), [
    [11, 22, 33],
    [14, 25, 36],
  ]); // a row against every row
  assert.deepEqual(np.subtract(A, [[1], [4]]), [
    [0, 1, 2],
    [0, 1, 2],
  ]); // a column against every column
  assert.deepEqual(np.multiply(2, [1, 2]), [2, 4]);
  assert.deepEqual(np.divide([2, 4], 2), [1, 2]);
  assert.deepEqual(np.maximum([1, 5], 3), [3, 5]);
  assert.throws(() => np.add(A, [1, 2]), /np\.add: shapes \(2, 3\) and \(2,\) do not broadcast/);
  const input = [1, 2];
  np.exp(input);
  assert.deepEqual(input, [1, 2], 'arguments are not mutated');
});

test('np: sum, max and mean over everything or along an axis', () => {
  assert.equal(np.sum(A), 21);
  assert.deepEqual(np.sum(A, 0), [5, 7, 9]);
  assert.deepEqual(np.sum(A, 1), [6, 15]);
  assert.deepEqual(np.sum(A, -1), [6, 15]);
  assert.equal(np.max([927, 397, 148, 929]), 929);
  assert.deepEqual(np.max(A, 0), [4, 5, 6]);
  assert.deepEqual(np.max([[-3, -1]], 1), [-1]);
  assert.deepEqual(np.mean(A, 1), [2, 5]);
  assert.equal(np.mean(A), 3.5);
  assert.throws(() => np.sum(A, 2), /np\.sum: axis 2 is out of bounds for an array of shape \(2, 3\)/);
  assert.throws(() => np.max([], 0), /reducing an axis of length 0/);
});

test('np: concatenate, argmax, outer', () => {
  assert.deepEqual(np.concatenate([[1, 2], [3]]), [1, 2, 3]);
  assert.deepEqual(np.concatenate([A, [[7, 8, 9]]], 0), [...A, [7, 8, 9]]);
  assert.deepEqual(np.concatenate([A, [[0], [0]]], 1), [
    [1, 2, 3, 0],
    [4, 5, 6, 0],
  ]);
  assert.throws(
    () => np.concatenate([A, [[0]]], 1),
    /np\.concatenate: shapes \(2, 3\), \(1, 1\) differ outside axis 1/,
  );
  assert.equal(np.argmax([1, 9, 9, 2]), 1);
  assert.throws(() => np.argmax([]), /np\.argmax: needs a non-empty vector/);
  assert.deepEqual(np.outer([1, 2], [3, 4]), [
    [3, 4],
    [6, 8],
  ]);
});

test('np: a learner function sees np, may define its own np, and plain JS still works', () => {
  const withNp = compileWithNp('function f(a, b) { return np.dot(a, b); }', 'f');
  assert.equal(withNp([1, 2], [3, 4]), 11);
  const ownNp = compileWithNp('const np = { dot: () => 42 };\nfunction f() { return np.dot(); }', 'f');
  assert.equal(ownNp(), 42);
  assert.equal(compileWithNp('function g() { return 1; }', 'f'), undefined);
  assert.equal(compileWithNp('function f(x) { return x.reduce((s, v) => s + v, 0); }', 'f')([1, 2]), 3);
});
