import { mistake } from '../mistakes';
import { seededRandom } from '../../grader';
import type { Exercise } from '../types';

const SOLUTION = `function frenchTokens(text) {
  const ELISIONS = ['l', 'd', 'j', 'm', 'n', 's', 't', 'c', 'ç',
    'qu', 'jusqu', 'lorsqu', 'puisqu', 'quoiqu'];
  const CLITICS = ['je', 'tu', 'il', 'elle', 'on', 'nous', 'vous', 'ils', 'elles',
    'ce', 'moi', 'toi', 'lui', 'leur', 'le', 'la', 'les', 'en', 'y', 'ci', 'là'];
  const tokens = [];
  for (const chunk of text.toLowerCase().split(/\\s+/)) {
    for (let word of chunk.split(/([.,!?;:«»])/)) {
      if (word === '') continue;
      if (/^[.,!?;:«»]$/.test(word)) { tokens.push(word); continue; }
      let m;
      while ((m = word.match(/^([a-zç]+)'(.+)$/)) && ELISIONS.includes(m[1])) {
        tokens.push(m[1] + "'");              // l'homme -> l' homme
        word = m[2];
      }
      const tail = [];
      while ((m = word.match(/^(.+?)(-t)?-([a-zà]+)$/)) && CLITICS.includes(m[3])) {
        tail.unshift((m[2] || '') + '-' + m[3]); // va-t-il -> va -t-il
        word = m[1];
      }
      tokens.push(word, ...tail);
    }
  }
  return tokens;
}
`;

const SENTENCES = [
  "Je n'ai pas faim.",
  "Qu'est-ce qu'il veut ?",
  "L'homme aime l'eau.",
  "Tu m'entends ?",
  'Dis-moi la vérité !',
  "C'est peut-être vrai.",
  'Où vas-tu ?',
  "Elle s'appelle Marie.",
  "J'arrive, attends-moi.",
  "Lorsqu'il pleut, on reste là-bas.",
];

export const frenchTokens: Exercise = {
  id: 'french_tokens',
  title: 'French tokens: elisions, clitics and punctuation',
  functionName: 'frenchTokens',
  prompt: `A word-level translator needs words that repeat. "l'homme", "L'homme" and "l'homme."
    would be three vocabulary entries, each rare; split well they are "l'" and "homme", both
    frequent. Complete <code>frenchTokens(text)</code> with the engine's rules for French
    (<code>mtTokenize(text, { language: 'fr', lowercase: true })</code>, restricted to what these
    sentences use): lowercase; split on white space; each of <code>. , ! ? ; : « »</code> is a
    token of its own; an <em>elision</em> — one of l d j m n s t c ç qu jusqu lorsqu puisqu quoiqu
    followed by an apostrophe — splits off and keeps its apostrophe ("l'" "homme", "qu'" "il"),
    while other words with an apostrophe stay whole ("aujourd'hui"); a hyphenated
    <em>clitic</em> at the end of a word — je tu il elle on nous vous ils elles ce moi toi lui leur
    le la les en y ci là, possibly after a euphonic "-t" — splits off with its hyphen ("est" "-ce",
    "va" "-t-il", "donne" "-le" "-moi"), while other compounds stay whole ("peut-être", "là-bas").`,
  starter: `function frenchTokens(text) {
  // text: a French sentence  ->  tokens, lowercased
  // TODO: punctuation as tokens, elisions (l' qu' ...), hyphenated clitics (-ce -t-il -moi ...)
  return text.toLowerCase().split(/\\s+/).filter((w) => w !== '');
}
`,
  solution: SOLUTION,
  hints: [
    'Lowercase first, then split on white space, then split each piece around the punctuation marks (keep the marks).',
    `An elision is a short word that lost its vowel: peel "l'", "qu'", "jusqu'" off the front, keeping the apostrophe on the first token.`,
    'Peel clitics off the end repeatedly ("donne-le-moi" has two) and keep a "-t" with the pronoun after it; a hyphen followed by anything else is part of the word.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'tokens.push(m[1] + "\'");',
      'tokens.push(m[1]);',
      'The elision keeps its apostrophe: "l\'homme" gives "l\'" and "homme", so that l\' (before a vowel) and le stay different tokens.',
    ),
  ],
  cases() {
    const random = seededRandom(124);
    const pick = () => SENTENCES[Math.floor(random() * SENTENCES.length)];
    return [
      { name: 'elision and a full stop: "Il n\'aime pas les pommes."', args: ["Il n'aime pas les pommes."] },
      { name: 'a question with an inversion: "Qu\'est-ce que c\'est ?"', args: ["Qu'est-ce que c'est ?"] },
      { name: 'guillemets and an exclamation: "J\'ai dit « non » !"', args: ["J'ai dit « non » !"] },
      {
        name: "aujourd'hui stays whole; a euphonic t: \"Aujourd'hui, l'homme y va-t-il ?\"",
        args: ["Aujourd'hui, l'homme y va-t-il ?"],
      },
      { name: 'two clitics and s\'il: "Donne-le-moi, s\'il te plaît."', args: ["Donne-le-moi, s'il te plaît."] },
      {
        name: 'compounds that stay whole: "C\'est peut-être là-bas, jusqu\'à demain."',
        args: ["C'est peut-être là-bas, jusqu'à demain."],
      },
      { name: 'random sentences 1', args: [`${pick()} ${pick()}`] },
      { name: 'random sentences 2', args: [`${pick()} ${pick()} ${pick()}`] },
    ];
  },
  async reference(call, [text]) {
    return call('mtTokenize', text as string, { language: 'fr', lowercase: true });
  },
  figure: () => null,
};
