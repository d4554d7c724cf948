// `np`: a small numpy-like helper for the course's exercises, so that a solution can read like the
// numpy of the lectures (np.dot(W, x), np.tanh(z), np.sum(a, 1)) while plain JavaScript stays
// possible. It works on plain nested arrays of numbers (a vector is [d], a matrix [rows][cols]) and
// returns new arrays; it never mutates its arguments.
//
// It is shipped as source text because it runs where the learner's code runs: in the sandbox's
// worker (web/public/sandbox.html, which may load no file) and, in the node tests, next to the
// learner's code. `np` is an argument of the function that wraps the learner's code, so a learner
// may also define their own `np`.
//
//   np.shape(a)                 [rows, cols, …] of a nested array ([] for a number)
//   np.zeros(shape), np.ones(shape)   shape a number or an array of numbers
//   np.dot(a, b)                numpy's dot for ranks 0-2: vector·vector → number, matrix·vector →
//                               vector, vector·matrix → vector, matrix·matrix → matrix
//   np.matmul(a, b)             the same for ranks 1-2; for rank 3, one product per leading index
//   np.transpose(a, axes?)      reverses the axes, or permutes them as `axes` says
//   np.exp, np.tanh, np.log, np.sqrt, np.abs   element by element
//   np.add, np.subtract, np.multiply, np.divide, np.maximum   element by element, with numpy's
//                               broadcasting (a number, or a [d] row against a [n][d] matrix)
//   np.sum(a, axis?), np.max(a, axis?), np.mean(a, axis?)     over every entry, or along one axis
//                               (negative axes count from the end, like numpy)
//   np.argmax(a)                index of the largest entry of a vector (the first one on ties)
//   np.concatenate(arrays, axis = 0)
//   np.outer(u, v)              the matrix u_i v_j
//
// Wrong shapes throw an Error saying which function and which shapes, as numpy would.
export const NP_SOURCE = String.raw`
const np = (() => {
  const isArr = Array.isArray;
  const shape = (a) => {
    const s = [];
    for (let x = a; isArr(x); x = x[0]) s.push(x.length);
    return s;
  };
  const rank = (a) => shape(a).length;
  const fmt = (a) => '(' + shape(a).join(', ') + (rank(a) === 1 ? ',' : '') + ')';
  const full = (s, value) => {
    const dims = typeof s === 'number' ? [s] : s;
    if (!isArr(dims) || dims.some((d) => !Number.isInteger(d) || d < 0)) {
      throw new Error('np.zeros/np.ones: the shape must be a whole number or an array of them');
    }
    const build = (k) => (k === dims.length ? value : Array.from({ length: dims[k] }, () => build(k + 1)));
    return build(0);
  };
  const map = (a, f) => (isArr(a) ? a.map((x) => map(x, f)) : f(a));
  const binary = (name, f) => {
    const go = (a, b) => {
      if (!isArr(a) && !isArr(b)) return f(a, b);
      const ra = rank(a), rb = rank(b);
      if (ra > rb) return a.map((x) => go(x, b));
      if (rb > ra) return b.map((y) => go(a, y));
      if (a.length === b.length) return a.map((x, i) => go(x, b[i]));
      if (a.length === 1) return b.map((y) => go(a[0], y));
      if (b.length === 1) return a.map((x) => go(x, b[0]));
      throw mismatch;
    };
    const mismatch = new Error('broadcast');
    return (a, b) => {
      try {
        return go(a, b);
      } catch (error) {
        if (error !== mismatch) throw error;
        throw new Error('np.' + name + ': shapes ' + fmt(a) + ' and ' + fmt(b) + ' do not broadcast');
      }
    };
  };
  const vecdot = (u, v, name) => {
    if (u.length !== v.length) {
      throw new Error('np.' + name + ': shapes ' + fmt(u) + ' and ' + fmt(v) + ' do not align (' + u.length + ' != ' + v.length + ')');
    }
    let s = 0;
    for (let i = 0; i < u.length; i++) s += u[i] * v[i];
    return s;
  };
  const transpose2 = (m) => (m.length === 0 ? [] : m[0].map((_, j) => m.map((row) => row[j])));
  const dot = (a, b, name = 'dot') => {
    const ra = rank(a), rb = rank(b);
    if (ra === 0 || rb === 0) return binary(name, (x, y) => x * y)(a, b);
    if (ra === 1 && rb === 1) return vecdot(a, b, name);
    if (ra === 2 && rb === 1) return a.map((row) => vecdot(row, b, name));
    if (ra === 1 && rb === 2) {
      if (a.length !== b.length) throw new Error('np.' + name + ': shapes ' + fmt(a) + ' and ' + fmt(b) + ' do not align');
      return transpose2(b).map((col) => vecdot(a, col, name));
    }
    if (ra === 2 && rb === 2) {
      if (a[0].length !== b.length) {
        throw new Error('np.' + name + ': shapes ' + fmt(a) + ' and ' + fmt(b) + ' do not align (' + a[0].length + ' != ' + b.length + ')');
      }
      const bt = transpose2(b);
      return a.map((row) => bt.map((col) => vecdot(row, col, name)));
    }
    throw new Error('np.' + name + ': ranks ' + ra + ' and ' + rb + ' are not supported (at most 2)');
  };
  const matmul = (a, b) => {
    const ra = rank(a), rb = rank(b);
    if (ra === 0 || rb === 0) throw new Error('np.matmul: a number is not a matrix (use np.multiply)');
    if (ra === 3 && rb === 3) {
      if (a.length !== b.length) throw new Error('np.matmul: batch sizes ' + a.length + ' and ' + b.length + ' differ');
      return a.map((m, i) => dot(m, b[i], 'matmul'));
    }
    if (ra === 3) return a.map((m) => dot(m, b, 'matmul'));
    return dot(a, b, 'matmul');
  };
  const transpose = (a, axes) => {
    const s = shape(a);
    const perm = axes === undefined ? s.map((_, i) => s.length - 1 - i) : axes;
    if (!isArr(perm) || perm.length !== s.length || [...perm].sort().some((p, i) => p !== i)) {
      throw new Error('np.transpose: axes ' + JSON.stringify(axes) + ' do not permute the ' + s.length + ' axes of ' + fmt(a));
    }
    const out = full(perm.map((p) => s[p]), 0);
    const walk = (x, index) => {
      if (!isArr(x)) {
        let target = out;
        const to = perm.map((p) => index[p]);
        for (let k = 0; k < to.length - 1; k++) target = target[to[k]];
        if (to.length === 0) return;
        target[to[to.length - 1]] = x;
        return;
      }
      x.forEach((y, i) => walk(y, [...index, i]));
    };
    if (s.length === 0) return a;
    walk(a, []);
    return out;
  };
  const flat = (a) => (isArr(a) ? a.flat(Infinity) : [a]);
  const reducer = (name, f, init) => (a, axis) => {
    if (axis === undefined || axis === null) return flat(a).reduce(f, init);
    const r = rank(a);
    const k = axis < 0 ? axis + r : axis;
    if (!Number.isInteger(k) || k < 0 || k >= r) {
      throw new Error('np.' + name + ': axis ' + axis + ' is out of bounds for an array of shape ' + fmt(a));
    }
    const along = (x, depth) => {
      if (depth > 0) return x.map((y) => along(y, depth - 1));
      if (x.length === 0) throw new Error('np.' + name + ': reducing an axis of length 0');
      const combine = binary(name, f);
      return x.slice(1).reduce((acc, y) => combine(acc, y), map(x[0], (v) => f(init, v)));
    };
    return along(a, k);
  };
  const sum = reducer('sum', (s, x) => s + x, 0);
  const max = reducer('max', (m, x) => (x > m || Number.isNaN(x) ? x : m), -Infinity);
  const mean = (a, axis) => {
    const s = shape(a);
    const n = axis === undefined || axis === null ? s.reduce((p, d) => p * d, 1) : s[axis < 0 ? axis + s.length : axis];
    return map(sum(a, axis), (x) => x / n);
  };
  const concatenate = (arrays, axis = 0) => {
    if (!isArr(arrays) || arrays.length === 0) throw new Error('np.concatenate: needs a non-empty list of arrays');
    const r = rank(arrays[0]);
    const k = axis < 0 ? axis + r : axis;
    if (!Number.isInteger(k) || k < 0 || k >= r) throw new Error('np.concatenate: axis ' + axis + ' is out of bounds for rank ' + r);
    if (arrays.some((x) => rank(x) !== r)) {
      throw new Error('np.concatenate: all arrays must have the same rank, got ' + arrays.map(fmt).join(', '));
    }
    const join = (xs, depth) => {
      if (depth === 0) return xs.flatMap((x) => x);
      const n = xs[0].length;
      if (xs.some((x) => x.length !== n)) {
        throw new Error('np.concatenate: shapes ' + xs.map(fmt).join(', ') + ' differ outside axis ' + axis);
      }
      return xs[0].map((_, i) => join(xs.map((x) => x[i]), depth - 1));
    };
    return join(arrays, k);
  };
  const argmax = (a) => {
    if (rank(a) !== 1 || a.length === 0) throw new Error('np.argmax: needs a non-empty vector, got shape ' + fmt(a));
    let best = 0;
    for (let i = 1; i < a.length; i++) if (a[i] > a[best]) best = i;
    return best;
  };
  return Object.freeze({
    shape,
    zeros: (s) => full(s, 0),
    ones: (s) => full(s, 1),
    dot: (a, b) => dot(a, b),
    matmul,
    transpose,
    exp: (a) => map(a, Math.exp),
    tanh: (a) => map(a, Math.tanh),
    log: (a) => map(a, Math.log),
    sqrt: (a) => map(a, Math.sqrt),
    abs: (a) => map(a, Math.abs),
    add: binary('add', (x, y) => x + y),
    subtract: binary('subtract', (x, y) => x - y),
    multiply: binary('multiply', (x, y) => x * y),
    divide: binary('divide', (x, y) => x / y),
    maximum: binary('maximum', (x, y) => Math.max(x, y)),
    sum,
    max,
    mean,
    argmax,
    concatenate,
    outer: (u, v) => u.map((x) => v.map((y) => x * y)),
  });
})();
`;

/**
 * Compiles a learner's code with `np` in scope and returns the function called `functionName`
 * (undefined when the code defines no such function). Used by the node tests; the sandbox's worker
 * builds the same wrapper (web/public/sandbox.html).
 */
export function compileWithNp(code: string, functionName: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const np = new Function(`"use strict";\n${NP_SOURCE}\nreturn np;`)();
  return new Function(
    'np',
    `"use strict";\nreturn (function () {\n${code}\n;return typeof ${functionName} === 'function' ? ${functionName} : undefined;\n})();`,
  )(np);
}
