// Greedy decoding of a trained seq2seq model (Bahdanau attention) whose attention step is supplied
// from outside: the engine's step API (Seq2SeqSession.stepEncode / stepAttend / decoderStep /
// targetText) does the encoder, the decoder cell and the output softmax, and `attention` computes
// the weights and the context at every step. With the engine's own attention (engineAttention) it
// gives the engine's greedy decoding; with a learner's alignBatch (the alignment_batch exercise)
// it shows what their function does to the model. Pure logic, no DOM: the course's in-model view
// (seq2seq_step_view.ts) and the node tests (tests/js/seq2seq_step.test.mjs) both run it.
//
// Inputs of equal length are decoded as one batch, so no batch holds padding (alignBatch takes no
// mask); every step makes ONE call to `attention` with every batch's arguments, so a sandboxed
// learner function costs one sandbox run per output position.
import type {
  Seq2SeqDecoderState,
  Seq2SeqDecoderStepResult,
  Seq2SeqStepEncoding,
  Tensor,
} from '../../generated/attn_engine.mjs';

export const BOS = 1;
export const EOS = 2;

/** The engine calls the loop needs (the wasm session's methods, or the worker bridge's). */
export interface StepEngine {
  stepEncode(texts: string[]): Promise<Seq2SeqStepEncoding>;
  stepAttend(
    encoding: Pick<Seq2SeqStepEncoding, 'annotations' | 'mask'>,
    s: Tensor,
  ): Promise<{ weights: Tensor; context: Tensor }>;
  decoderStep(previous: number[], state: Seq2SeqDecoderState, context: Tensor): Promise<Seq2SeqDecoderStepResult>;
  targetText(ids: number[]): Promise<{ text: string; tokens: string[] }>;
}

/** alignBatch's arguments for one batch: sPrev [B][Ds], annotations [B][Tx][Dh], W [A][Ds+Dh], v [A]. */
export type AlignArgs = [number[][], number[][][], number[][], number[]];
/** What an attention step returns for one batch, or why it could not. */
export type AlignOutcome = { weights: number[][]; context: number[][] } | { error: string };
/** One decoder step's attention for every batch at once (one result per batch, in order). */
export type BatchAttention = (batches: AlignArgs[], encodings: Seq2SeqStepEncoding[]) => Promise<AlignOutcome[]>;

export interface StepDecoded {
  source: string;
  sourceTokens: string[];
  output: string;
  /** The decoded tokens, then "<eos>" when decoding finished. */
  outputTokens: string[];
  /** [output tokens][source tokens]: the weights of every step. */
  alignment: number[][];
  /** Why decoding stopped early (the attention step failed), or null. */
  failure: string | null;
}

const rows = (t: Tensor): number[][] => {
  const [n, d] = t.shape;
  return Array.from({ length: n }, (_, i) => Array.from(t.data.slice(i * d, (i + 1) * d)));
};
const cube = (t: Tensor): number[][][] => {
  const [n, m, d] = t.shape;
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: m }, (_, j) => Array.from(t.data.slice((i * m + j) * d, (i * m + j + 1) * d))),
  );
};

/** The engine's own attention, through stepAttend: the reference the learner is compared with. */
export function engineAttention(engine: StepEngine): BatchAttention {
  return (batches, encodings) =>
    Promise.all(
      batches.map(async ([sPrev], i) => {
        const s = { shape: [sPrev.length, sPrev[0].length], data: Float32Array.from(sPrev.flat()) };
        const a = await engine.stepAttend(encodings[i], s);
        return { weights: rows(a.weights), context: rows(a.context) };
      }),
    );
}

/** Checks a learner's result for one batch: its shapes, finite numbers. Null when usable. */
function problem(value: unknown, b: number, tx: number, dh: number): string | null {
  const v = value as { weights?: unknown; context?: unknown } | null;
  const matrix = (m: unknown, r: number, c: number) =>
    Array.isArray(m) &&
    m.length === r &&
    m.every((row) => Array.isArray(row) && row.length === c && row.every((x) => Number.isFinite(x)));
  if (!v || typeof v !== 'object') return 'it did not return { weights, context }';
  if (!matrix(v.weights, b, tx)) return `its weights are not ${b} × ${tx} finite numbers`;
  if (!matrix(v.context, b, dh)) return `its context is not ${b} × ${dh} finite numbers`;
  return null;
}

/** Decodes `texts` greedily with `attention` doing every step's attention. */
export async function decodeWithAttention(
  engine: StepEngine,
  texts: string[],
  attention: BatchAttention,
): Promise<StepDecoded[]> {
  // One batch per source length (in characters: the built-in tasks are character level).
  const byLength = new Map<number, number[]>();
  texts.forEach((text, i) => byLength.set([...text].length, [...(byLength.get([...text].length) ?? []), i]));
  const groups = [...byLength.values()];
  const encodings = await Promise.all(groups.map((g) => engine.stepEncode(g.map((i) => texts[i]))));
  const alignment = encodings.map((e) => {
    const w = rows(e.alignment.w);
    return { w, v: Array.from(e.alignment.v.data) };
  });
  const annotations = encodings.map((e) => cube(e.annotations));
  const states = encodings.map((e) => e.state);
  const previous = groups.map((g) => g.map(() => BOS));
  const out = groups.map((g) => g.map(() => ({ ids: [] as number[], alignment: [] as number[][], done: false })));
  const failures: (string | null)[] = groups.map(() => null);
  const maxLen = Math.max(...encodings.map((e) => e.maxLen));

  for (let t = 0; t < maxLen; t++) {
    const live = groups.map((_, k) => failures[k] === null && out[k].some((r) => !r.done));
    const asked = groups.map((_, k) => k).filter((k) => live[k]);
    if (asked.length === 0) break;
    const args = asked.map((k): AlignArgs => [rows(states[k].s), annotations[k], alignment[k].w, alignment[k].v]);
    const answers = await attention(
      args,
      asked.map((k) => encodings[k]),
    );
    for (let i = 0; i < asked.length; i++) {
      const k = asked[i];
      const answer = answers[i];
      const [b, tx, dh] = encodings[k].annotations.shape;
      const thrown = answer !== null && typeof answer === 'object' && 'error' in answer;
      const why = thrown ? String(answer.error) : problem(answer, b, tx, dh);
      if (why !== null || thrown) {
        failures[k] = `step ${t + 1}: ${why}`;
        continue;
      }
      const context = { shape: [b, dh], data: Float32Array.from(answer.context.flat()) };
      const step = await engine.decoderStep(previous[k], states[k], context);
      states[k] = step.state;
      previous[k] = step.tokens;
      out[k].forEach((r, row) => {
        if (r.done) return;
        r.alignment.push(answer.weights[row].map(Number));
        if (step.tokens[row] === EOS) r.done = true;
        else r.ids.push(step.tokens[row]);
      });
    }
  }

  const result: StepDecoded[] = new Array(texts.length);
  for (let k = 0; k < groups.length; k++) {
    for (let row = 0; row < groups[k].length; row++) {
      const i = groups[k][row];
      const r = out[k][row];
      const { text, tokens } = await engine.targetText(r.ids);
      result[i] = {
        source: texts[i],
        sourceTokens: encodings[k].sourceTokens[row],
        output: text,
        outputTokens: r.done ? [...tokens, '<eos>'] : tokens,
        alignment: r.alignment,
        failure: failures[k],
      };
    }
  }
  return result;
}

/** Exact match of the outputs against the targets (a failed decoding counts as wrong). */
export function exactMatch(decoded: Pick<StepDecoded, 'failure' | 'output'>[], targets: string[]): number {
  const hits = decoded.filter((d, i) => d.failure === null && d.output === targets[i]).length;
  return decoded.length === 0 ? 0 : hits / decoded.length;
}
