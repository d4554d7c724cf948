// Greedy decoding of a trained Transformer translator whose cross-attention is supplied from
// outside, block by block: the engine's step API (Seq2SeqSession.crossStart / crossBegin /
// crossAttend / crossContinue / targetText) runs everything else — the embeddings, each block's
// masked self-attention, W_o, the feed-forward, the output softmax — and `attention` computes
// each block's cross-attention heads. With the engine's own (engineCrossAttention) it is the
// engine's greedy decoding; with a learner's crossAttention (the cross_attention exercise) it
// shows what their function does to the model. Pure logic, no DOM: the course's in-model view
// (transformer_cross_view.ts) and the node tests (tests/js/transformer_in_model.test.mjs) run it.
//
// All inputs are decoded as ONE batch padded 'post', so the learner's sourceLengths matter.
// Each block's call hands the learner one case per head: crossAttention(decoderStates,
// encoderStates, sourceLengths, Wq, Wk, Wv) with the head's columns of the block's projections.
// The engine's projections have biases (Q = x W_q + b_q) and the exercise's have none: every input
// row gets a trailing 1 and every W a last row b, so x' W' = x W + b exactly.
import type { Seq2SeqCrossEncoding, Seq2SeqCrossStep, Tensor } from '../../generated/attn_engine.mjs';

export const BOS = 1;

/** The engine calls the loop needs (the wasm session's methods, or the worker bridge's). */
export interface CrossEngine {
  crossStart(texts: string[]): Promise<Seq2SeqCrossEncoding>;
  crossBegin(previous: number[]): Promise<Seq2SeqCrossStep>;
  crossAttend(): Promise<{ heads: Tensor; weights: Tensor }>;
  crossContinue(heads: Tensor, weights: Tensor | null): Promise<Seq2SeqCrossStep>;
  targetText(ids: number[]): Promise<{ text: string; tokens: string[] }>;
}

/** crossAttention's arguments for one head: decoderStates [B][1][D+1], encoderStates [B][Tx][D+1],
 *  sourceLengths [B], Wq, Wk, Wv [D+1][D/H]. */
export type CrossArgs = [number[][][], number[][][], number[], number[][], number[][], number[][]];
/** What a learner's crossAttention returns for one head, or why it could not. */
export type CrossOutcome = { weights: number[][][]; output: number[][][] } | { error: string };
/** One block's heads, all at once (one result per head, in order): one sandbox run. */
export type HeadsFunction = (heads: CrossArgs[]) => Promise<CrossOutcome[]>;

/** One block's cross-attention for the pending step: heads [B, 1, D], weights [B, H, 1, Tx]. */
export type BlockAttention = (
  block: number,
  queriesInput: Tensor,
  encoding: Seq2SeqCrossEncoding,
) => Promise<{ heads: Tensor; weights: Tensor } | { error: string }>;

export interface CrossDecoded {
  source: string;
  sourceTokens: string[];
  output: string;
  /** The decoded tokens, then "<eos>" when decoding finished. */
  outputTokens: string[];
  /** [output tokens][source tokens]: the last block's cross-attention, mean over heads. */
  alignment: number[][];
  /** Why decoding stopped early (the cross-attention failed), or null. */
  failure: string | null;
}

const EOS = 2;

/** The engine's own cross-attention, through crossAttend: the reference the learner is compared with. */
export function engineCrossAttention(engine: CrossEngine): BlockAttention {
  return () => engine.crossAttend();
}

/** rows of t [n, d] (or [n, 1, d]) with a trailing 1 each. */
function withOne(t: Tensor, rows: number, width: number): number[][] {
  return Array.from({ length: rows }, (_, r) => [...Array.from(t.data.slice(r * width, (r + 1) * width)), 1]);
}

/** Head h's columns of W [D, D] with b [D] as an extra last row: [D + 1][dk]. */
function headWeights(w: Tensor, b: Tensor, h: number, dk: number): number[][] {
  const d = w.shape[0];
  const cols = (row: ArrayLike<number>, offset: number) =>
    Array.from({ length: dk }, (_, j) => Number(row[offset + h * dk + j]));
  return [...Array.from({ length: d }, (_, i) => cols(w.data, i * d)), cols(b.data, 0)];
}

/** Checks one head's result: weights [B][1][Tx] and output [B][1][dk], finite. Null when usable. */
function problem(value: unknown, b: number, tx: number, dk: number): string | null {
  const v = value as { weights?: unknown; output?: unknown } | null;
  const cube = (m: unknown, c: number) =>
    Array.isArray(m) &&
    m.length === b &&
    m.every(
      (rows) =>
        Array.isArray(rows) &&
        rows.length === 1 &&
        Array.isArray(rows[0]) &&
        rows[0].length === c &&
        rows[0].every((x: unknown) => Number.isFinite(x)),
    );
  if (!v || typeof v !== 'object') return 'it did not return { weights, output }';
  if (!cube(v.weights, tx)) return `its weights are not ${b} × 1 × ${tx} finite numbers`;
  if (!cube(v.output, dk)) return `its output is not ${b} × 1 × ${dk} finite numbers`;
  return null;
}

/** A learner's crossAttention (run by `run`, one case per head) as a block's cross-attention. */
export function learnerCrossAttention(run: HeadsFunction): BlockAttention {
  return async (block, queriesInput, encoding) => {
    const [b, tx, d] = encoding.memory.shape;
    const nh = encoding.heads;
    const dk = d / nh;
    const w = encoding.blocks[block];
    const decoderStates = withOne(queriesInput, b, d).map((row) => [row]);
    const memory = withOne(encoding.memory, b * tx, d);
    const encoderStates = Array.from({ length: b }, (_, i) => memory.slice(i * tx, (i + 1) * tx));
    const cases = Array.from({ length: nh }, (_, h): CrossArgs => [
      decoderStates,
      encoderStates,
      encoding.sourceLengths,
      headWeights(w.wq, w.bq, h, dk),
      headWeights(w.wk, w.bk, h, dk),
      headWeights(w.wv, w.bv, h, dk),
    ]);
    const answers = await run(cases);
    const heads = new Float32Array(b * d);
    const weights = new Float32Array(b * nh * tx);
    for (let h = 0; h < nh; h++) {
      const answer = answers[h];
      if (answer !== null && typeof answer === 'object' && 'error' in answer) return { error: String(answer.error) };
      const why = problem(answer, b, tx, dk);
      if (why !== null) return { error: why };
      for (let r = 0; r < b; r++) {
        answer.output[r][0].forEach((x, j) => (heads[r * d + h * dk + j] = Number(x)));
        answer.weights[r][0].forEach((x, j) => (weights[(r * nh + h) * tx + j] = Number(x)));
      }
    }
    return {
      heads: { shape: [b, 1, d], data: heads },
      weights: { shape: [b, nh, 1, tx], data: weights },
    };
  };
}

/** Decodes `texts` greedily, one batch, with `attention` doing every block's cross-attention. */
export async function decodeWithCrossAttention(
  engine: CrossEngine,
  texts: string[],
  attention: BlockAttention,
): Promise<CrossDecoded[]> {
  const encoding = await engine.crossStart(texts);
  const [b, tx] = encoding.memory.shape;
  const nh = encoding.heads;
  const rows = texts.map(() => ({ ids: [] as number[], alignment: [] as number[][], done: false }));
  let previous = texts.map(() => BOS);
  let failure: string | null = null;
  for (let t = 0; t < encoding.maxLen && failure === null && rows.some((r) => !r.done); t++) {
    let step = await engine.crossBegin(previous);
    let last: Tensor | null = null; // the last block's cross-attention weights
    while (!step.finished) {
      const answer = await attention(step.block, step.queriesInput, encoding);
      if ('error' in answer) {
        failure = `step ${t + 1}, block ${step.block + 1}: ${answer.error}`;
        break;
      }
      last = answer.weights;
      step = await engine.crossContinue(answer.heads, answer.weights);
    }
    if (!step.finished || last === null) break;
    const weights = last.data;
    previous = step.tokens;
    rows.forEach((r, row) => {
      if (r.done) return;
      // alignment row: the mean over heads of the last block's weights over the row's own source
      // tokens, as translate's
      r.alignment.push(
        Array.from({ length: encoding.sourceLengths[row] }, (_, j) => {
          let sum = 0;
          for (let h = 0; h < nh; h++) sum += weights[(row * nh + h) * tx + j];
          return sum / nh;
        }),
      );
      if (step.tokens[row] === EOS) r.done = true;
      else r.ids.push(step.tokens[row]);
    });
  }
  const result: CrossDecoded[] = [];
  for (let i = 0; i < b; i++) {
    const r = rows[i];
    const { text, tokens } = await engine.targetText(r.ids);
    result.push({
      source: texts[i],
      sourceTokens: encoding.sourceTokens[i],
      output: text,
      outputTokens: r.done ? [...tokens, '<eos>'] : tokens,
      alignment: r.alignment,
      failure,
    });
  }
  return result;
}
