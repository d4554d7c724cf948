// The data panel's line on how the loaded data was split (issue 29): by movie when the reviews
// name their movies (aclImdb's urls_*.txt) or by group (a CSV/TSV group column), and why.
import type { DataSummary } from '../../../generated/attn_engine.mjs';

/** '' for a random split (nothing to explain); else what was split by group, and why. */
export function splitNote(summary: Pick<DataSummary, 'split' | 'groups' | 'source' | 'heldOut'>): string {
  if (summary.split !== 'by group') return '';
  const movies = /\.(tar\.gz|tgz|gz)$/i.test(summary.source);
  const unit = movies ? 'movie' : 'group';
  const where = summary.heldOut ? 'The test set and the validation split hold' : 'The validation split holds';
  return (
    `Split by ${unit}: ${where} out whole ${unit}s (${summary.groups.toLocaleString('en')} ${unit}s in training), ` +
    `so the accuracy is measured on ${movies ? 'reviews of movies' : 'groups'} the model never saw — ` +
    `a random split would share ${unit}s with training and look better than it is.`
  );
}
