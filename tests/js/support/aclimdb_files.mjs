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
