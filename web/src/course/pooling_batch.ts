// The batch "your pooling in the model" hands to the learner's attentionPool (pooling_demo_view.ts,
// tests/js/course_in_model.test.mjs): every review's encoder output padded to one width, as a
// model trains on reviews of different lengths. The engine's masked encoder leaves a zero state
// at every padding position (layers/lstm.cpp), so the batch holds zeros there and the mask marks
// the real tokens. The classifier then reads Σ_t a_t h_t over the real tokens: weight given to
// padding adds nothing and is taken from the review.

/** One review's encoder output h [T, D] (row-major), as poolingProbe returns it. */
export interface EncodedReview {
  shape: number[];
  data: ArrayLike<number>;
}

/** hidden [B][width][D] (zeros at padding) and mask [B][width] (1 = real token). */
export function paddedBatch(reviews: EncodedReview[], width: number): { hidden: number[][][]; mask: number[][] } {
  const hidden = reviews.map(({ shape: [t, d], data }) => {
    if (t > width) throw new RangeError(`a review of ${t} tokens does not fit a batch of width ${width}`);
    return Array.from({ length: width }, (_, i) =>
      i < t ? Array.from({ length: d }, (_, j) => data[i * d + j]) : new Array<number>(d).fill(0),
    );
  });
  const mask = reviews.map(({ shape: [t] }) => Array.from({ length: width }, (_, i) => (i < t ? 1 : 0)));
  return { hidden, mask };
}

/**
 * A learner's weights row for one review of `length` real tokens: the weights on the real tokens
 * (what the classifier reads) and the total on padding; null when the row is not `width` finite
 * numbers.
 */
export function splitWeights(
  row: unknown,
  length: number,
  width: number,
): { real: number[]; onPadding: number } | null {
  if (!Array.isArray(row) || row.length !== width) return null;
  const weights = row.map(Number);
  if (!weights.every(Number.isFinite)) return null;
  return { real: weights.slice(0, length), onPadding: weights.slice(length).reduce((a, b) => a + b, 0) };
}
