// A small English→French corpus written for the course's tests (our own sentences, built from a
// few templates), used until the built-in pairs file (web/public/data/pairs-en-fr.tsv) exists and
// so that the tests never depend on its contents. Deterministic: the same lines every time.
const SUBJECTS = [
  ['i', 'je', 1],
  ['you', 'tu', 2],
  ['he', 'il', 3],
  ['she', 'elle', 3],
  ['we', 'nous', 4],
  ['they', 'ils', 6],
];
// English base form / third person, French forms by person 1..6.
const VERBS = [
  ['like', 'likes', ['aime', 'aimes', 'aime', 'aimons', 'aimez', 'aiment']],
  ['see', 'sees', ['vois', 'vois', 'voit', 'voyons', 'voyez', 'voient']],
  ['want', 'wants', ['veux', 'veux', 'veut', 'voulons', 'voulez', 'veulent']],
  ['eat', 'eats', ['mange', 'manges', 'mange', 'mangeons', 'mangez', 'mangent']],
];
const OBJECTS = [
  ['the apples', 'les pommes'],
  ['the cat', 'le chat'],
  ['the black cat', 'le chat noir'],
  ['the red apple', 'la pomme rouge'],
  ['the small dog', 'le petit chien'],
  ['the bread', 'le pain'],
  ['the green car', 'la voiture verte'],
  ['the old house', 'la vieille maison'],
];

export function coursePairs() {
  const lines = [];
  for (const [en, fr, person] of SUBJECTS) {
    for (const [base, third, forms] of VERBS) {
      for (const [enObject, frObject] of OBJECTS) {
        const verb = person === 3 ? third : base;
        lines.push(`${en} ${verb} ${enObject} .\t${fr} ${forms[person - 1]} ${frObject} .`);
        const dont = person === 3 ? "doesn't" : "don't";
        const neg = /^[aeiou]/.test(forms[person - 1])
          ? `${fr} n'${forms[person - 1]}`
          : `${fr} ne ${forms[person - 1]}`;
        lines.push(`${en} ${dont} ${base} ${enObject} .\t${neg} pas ${frObject} .`);
      }
    }
  }
  return lines.join('\n') + '\n';
}
