// Loads the built wasm module in node. Emscripten 3.1.6's ES6 output expects CommonJS globals
// (require, __dirname) under node and cannot open its own `file:` URL, so we provide the globals
// and hand it the .wasm bytes directly.
import { createRequire } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
export const generatedDir = path.resolve(here, '../../../web/generated');
export const modulePath = path.join(generatedDir, 'attn_engine.mjs');
export const wasmPath = path.join(generatedDir, 'attn_engine.wasm');

globalThis.require ??= createRequire(import.meta.url);
globalThis.__dirname ??= generatedDir;

export async function loadEngine() {
  if (!existsSync(modulePath)) {
    throw new Error(`${modulePath} is missing: build the wasm module first (npm run build)`);
  }
  const { default: createAttnEngine } = await import(modulePath);
  return createAttnEngine({ wasmBinary: readFileSync(wasmPath) });
}

// {shape, data} from nested arrays.
export function tensor(nested) {
  const shape = [];
  for (let level = nested; Array.isArray(level); level = level[0]) shape.push(level.length);
  return { shape, data: Float32Array.from(nested.flat(Infinity)) };
}

// A sentiment model of model (a)'s shape, small enough for a few hundred steps in seconds, and
// a training setting for it: the fixtures the sentiment and explanation tests share.
export const SMALL_MODEL = Object.freeze({
  embedDim: 16,
  units: 16,
  attentionDim: 16,
  numWords: 2000,
  maxlen: 64,
  seed: 3,
});
export const SHORT_TRAINING = Object.freeze({
  epochs: 30,
  batchSize: 16,
  learningRate: 0.005,
  validationSplit: 0.1,
  earlyStoppingPatience: 0,
  seed: 2,
});
