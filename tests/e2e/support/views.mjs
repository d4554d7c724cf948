// The app's views as the header's nav names them ([route id, link text]), for the browser tests.
export const VIEWS = [
  ['lab', 'Attention Lab'],
  ['studio', 'Sentiment Studio'],
  ['seq2seq', 'Seq2seq Alignment'],
  ['transformer', 'Transformer'],
];
