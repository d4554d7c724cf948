// The files of a small aclImdb archive for tests: `perClass` reviews of each class in train/ and
// `testPerClass` in test/, as [path, text] pairs for the page's tarArchive.
export function aclImdbFiles(perClass, testPerClass) {
  const files = [];
  for (let i = 0; i < perClass; i++) {
    files.push([`aclImdb/train/pos/${i}_9.txt`, `a great and moving film number ${i}`]);
    files.push([`aclImdb/train/neg/${i}_2.txt`, `a dull and boring film number ${i}`]);
  }
  for (let i = 0; i < testPerClass; i++) {
    files.push([`aclImdb/test/pos/${i}_8.txt`, `lovely ${i}`]);
    files.push([`aclImdb/test/neg/${i}_1.txt`, `awful ${i}`]);
  }
  files.push(['aclImdb/imdb.vocab', 'film\n']);
  return files;
}

// A training-only aclImdb archive's files with `movies` movies of `perMovie` reviews each
// (alternately positive and negative, text "... movie<m>") and, when `withUrls`, the
// urls_pos.txt / urls_neg.txt that name each review id's movie (as tests/test_splits.cpp builds).
export function aclImdbMovieFiles(movies, perMovie, withUrls = true) {
  const files = [];
  const urls = [[], []];
  const nextId = [0, 0];
  for (let m = 0; m < movies; m++) {
    for (let r = 0; r < perMovie; r++) {
      const label = (m + r) % 2;
      const id = nextId[label]++;
      const folder = label === 1 ? 'pos' : 'neg';
      const text = `${label === 1 ? 'a fine film' : 'a poor film'} movie${m}`;
      files.push([`aclImdb/train/${folder}/${id}_${label === 1 ? 9 : 2}.txt`, text]);
      urls[label].push(`http://www.imdb.com/title/tt${1000000 + m}/usercomments`);
    }
  }
  if (withUrls) {
    files.push(['aclImdb/train/urls_neg.txt', `${urls[0].join('\n')}\n`]);
    files.push(['aclImdb/train/urls_pos.txt', `${urls[1].join('\n')}\n`]);
  }
  return files;
}
