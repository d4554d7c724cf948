// The course’s counts in prose (README, docs/ and the landing view’s tour) match
// the course itself: every "<number> lessons", "<number>-lesson", "<number> (graded) (coding)
// exercises" and "<number> prediction questions" is read, in words or digits, and compared with
// the lesson list and the exercise registry. Counts drift when a lesson or exercise is added; this
// finds every place that states one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { loadWebModules } from './support/web_modules.mjs';

const root = new URL('../../', import.meta.url);
let loaded;
let LESSONS;
let EXERCISES;
let tasksOf;

before(async () => {
  loaded = await loadWebModules(
    '/src/course/lessons/index.ts',
    '/src/course/exercises/index.ts',
    '/src/course/progress_view.ts',
  );
  [{ LESSONS }, { EXERCISES }, { tasksOf }] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** "26", "twenty-six", "Ten" → the number; anything else → undefined. */
function numberOf(word) {
  const w = word.toLowerCase();
  if (/^\d+$/.test(w)) return Number(w);
  if (UNITS.includes(w)) return UNITS.indexOf(w);
  const [tens, unit] = w.split('-');
  if (TENS.includes(tens) && tens !== '') return 10 * TENS.indexOf(tens) + (unit ? UNITS.indexOf(unit) : 0);
  return undefined;
}

/** Every stated count in `text`: [{ kind: 'lessons' | 'exercises' | 'questions', n, phrase }]. */
function statedCounts(text) {
  const found = [];
  const flat = text.replace(/\s+/g, ' ');
  const patterns = [
    ['lessons', /\b([\w-]+?)(?: short)?[- ]lessons?\b/gi],
    ['exercises', /\b([\w-]+) (?:graded )?(?:coding )?exercises\b/gi],
    ['questions', /\b([\w-]+) prediction questions\b/gi],
  ];
  for (const [kind, re] of patterns) {
    for (const m of flat.matchAll(re)) {
      const n = numberOf(m[1]);
      if (n !== undefined) found.push({ kind, n, phrase: m[0] });
    }
  }
  return found;
}

function sources() {
  const files = ['README.md', 'web/src/views/home/index.ts'];
  for (const name of readdirSync(new URL('docs/', root))) if (name.endsWith('.md')) files.push(`docs/${name}`);
  return files.map((file) => ({ file, text: readFileSync(new URL(file, root), 'utf8') }));
}

test('docs: stated numbers of lessons, exercises and prediction questions are the course’s', () => {
  const predictions = LESSONS.reduce((sum, lesson) => sum + tasksOf(lesson).predictions.length, 0);
  const placed = LESSONS.reduce((sum, lesson) => sum + tasksOf(lesson).exercises.length, 0);
  const truth = { lessons: LESSONS.length, exercises: Object.keys(EXERCISES).length, questions: predictions };
  assert.equal(placed, truth.exercises, 'every registered exercise is placed in exactly one lesson');
  const seen = { lessons: 0, exercises: 0, questions: 0 };
  for (const { file, text } of sources()) {
    for (const { kind, n, phrase } of statedCounts(text)) {
      seen[kind]++;
      assert.equal(n, truth[kind], `${file}: “${phrase}” but the course has ${truth[kind]} ${kind}`);
    }
  }
  // The README and docs/course.md state each count at least once, so they cannot silently drop it.
  assert.ok(seen.lessons >= 2 && seen.exercises >= 2, JSON.stringify(seen));
});

test('docs: the count reader reads words, hyphenated words and digits', () => {
  assert.equal(numberOf('Twenty-six'), 26);
  assert.equal(numberOf('ten'), 10);
  assert.equal(numberOf('34'), 34);
  assert.equal(numberOf('graded'), undefined);
  assert.deepEqual(
    statedCounts('A ten-lesson course: Ten short lessons, ten graded coding exercises and 7 prediction questions.').map(
      (c) => [c.kind, c.n],
    ),
    [
      ['lessons', 10],
      ['lessons', 10],
      ['exercises', 10],
      ['questions', 7],
    ],
  );
});

test('lesson 9: its numeric example dates read day first, as the date models do (numeric_dmy_short)', () => {
  const lesson = LESSONS.find((l) => l.number === 9);
  const text = lesson.blocks
    .filter((b) => 'html' in b)
    .map((b) => b.html)
    .join(' ');
  const iso = text.match(/ISO form, (\d{4})-(\d{2})-(\d{2})/);
  assert.ok(iso, 'the lesson names the ISO form of its example');
  const numeric = [...text.matchAll(/"(\d{2})\/(\d{2})\/(\d{2})"/g)];
  assert.ok(numeric.length >= 1, 'the lesson shows a dd/mm/yy example');
  for (const [phrase, day, month, year] of numeric) {
    assert.equal(`19${year}-${month}-${day}`, iso.slice(1).join('-'), `${phrase} read day first`);
  }
});
