// Browser tests of the course (web/course.html) in Debian's Chromium: every exercise's solution
// passes and a typical mistake fails with the right message; the sandbox stops infinite loops
// and keeps learner code away from the page, its storage and the network; progress survives a
// reload; every lesson renders its maths and live figures without console errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { aclImdbFiles } from '../js/support/aclimdb_files.mjs';
import { loadWebModules } from '../js/support/web_modules.mjs';
import { openPage, startBrowser } from './support/browser.mjs';
import { setCode, stopOnFirstProgress } from './support/course.mjs';
import { texProblems } from '../js/support/tex_check.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

// Pages share the browser profile, so each test starts from empty progress. `query` (e.g.
// '?s2s-quick', which shrinks the seq2seq demos to runs of a few seconds) goes before the hash.
async function openLesson(number, query = '') {
  const opened = await openPage(env, `course.html${query}#lesson-${number}`);
  await opened.page.evaluate(() => localStorage.clear());
  await opened.page.reload();
  await opened.page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 20000 });
  return opened;
}

/** Clicks Check and returns the feedback's final state and text. */
async function check(page, id) {
  const exercise = page.locator(`[data-testid="exercise-${id}"]`);
  await exercise.getByRole('button', { name: 'Check' }).click();
  const feedback = exercise.locator('.feedback');
  await page.waitForFunction(
    (el) => el.dataset.state && el.dataset.state !== 'running',
    await feedback.elementHandle(),
    {
      timeout: 15000,
    },
  );
  return {
    state: await feedback.getAttribute('data-state'),
    text: await feedback.textContent(),
  };
}

// One typical mistake per exercise, and what the feedback must say about it.
const MISTAKES = [
  {
    id: 'single_dot_score',
    lesson: 2,
    code: 'function singleDotAttentionScore(dec, enc) { return dec.map((s, i) => s * enc[i]); }',
    message:
      /Case “the course example: s = \[5, 1, 20\], h₁ = \[3, 12, 45\]” failed: expected a number, got an array of 3/,
  },
  {
    id: 'dot_scores',
    lesson: 3,
    // wrong axis: one "score" per feature instead of per annotation
    code: 'function dotAttentionScore(dec, H) { return dec.map((s, i) => H.reduce((sum, h) => sum + h[i] * s, 0)); }',
    message:
      /Case “the course example \(4 annotations of size 3\)” failed: expected 4 entries, got 3 — 3 is the length of another axis of the inputs: is it summed or indexed along the wrong axis\?(?!\.)/,
  },
  {
    id: 'softmax',
    lesson: 4,
    code: null, // the starter: no max-subtraction
    message:
      /Case “large scores \[927, 397, 148, 929\] \(the course example: Math\.exp\(927\) is Infinity\)” failed at \[0\]: expected 0\.1192, got NaN[\s\S]*subtract the largest score/,
  },
  {
    id: 'apply_weights',
    lesson: 5,
    // wrong axis: the weight follows the column
    code: 'function applyAttentionScores(w, H) { return H.map((h) => h.map((v, i) => w[i] * v)); }',
    message:
      /Case “the course example \(weights 0\.119 and 0\.881 on h₁ and h₄\)” failed at \[0\]\[1\]: expected 1\.428, got 0/,
  },
  {
    id: 'attention_context',
    lesson: 5,
    // wrong axis: summed along the features
    code: 'function attentionContext(w, H) { return H.map((h, t) => h.reduce((s, v) => s + w[t] * v, 0)); }',
    message: /expected 3 entries, got 4[\s\S]*the sum ran along the feature axis instead of the annotation axis/,
  },
  {
    id: 'scaled_dot_scores',
    lesson: 6,
    code: null, // the starter: no √d_k
    message: /Case “d_k = 4, three keys” failed at \[0\]: expected 0\.5, got 1[\s\S]*√d_k = 2 times too large/,
  },
  {
    id: 'additive_score',
    lesson: 6,
    // tanh forgotten
    code: `function additiveScore(s, H, W1, W2, v) {
  const matVec = (M, x) => M.map((row) => row.reduce((acc, m, j) => acc + m * x[j], 0));
  const a = matVec(W1, s);
  return H.map((h) => { const b = matVec(W2, h); return v.reduce((acc, v_a, i) => acc + v_a * (a[i] + b[i]), 0); });
}`,
    message:
      /Case “identity-like weights \(A = 2, d = 2\)” failed at \[0\]: expected 1\.5232, got 2\.[\s\S]*without the tanh: apply Math\.tanh/,
  },
  {
    id: 'causal_mask',
    lesson: 7,
    code: 'function causalMask(n) { return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j < i ? 1 : 0))); }',
    message: /Case “n = 1” failed at \[0\]\[0\]: expected 1, got 0[\s\S]*The diagonal is hidden/,
  },
  {
    id: 'padding_mask',
    lesson: 7,
    // masks queries (rows) instead of keys (columns)
    code: 'function paddingMask(tq, tk, valid) { return Array.from({ length: tq }, (_, i) => Array.from({ length: tk }, () => (i < valid ? 1 : 0))); }',
    message: /Case “2 queries, 5 keys of which 3 are real” failed at \[0\]\[3\]: expected 0, got 1/,
  },
  {
    id: 'scaled_dot_product_attention',
    lesson: 8,
    code: 'SOLUTION_WITHOUT_SQRT',
    message:
      /Case “no mask \(Tq = 3, Tk = 3, d_k = 4, seed 9\)” failed at \.weights\[0\]\[0\][\s\S]*without the division by √d_k = 2/,
  },
  // Three of the exercises added for issue 17, whose solutions use the sandbox's np helper (every
  // one of them is graded the same way in node: tests/js/course_exercises.test.mjs).
  {
    id: 'pad_sequences',
    lesson: 7,
    code: null, // the starter keeps the first maxlen ids
    message:
      /Case “defaults \('pre', 'pre'\), maxlen = 3: the first review loses its beginning” failed at \[0\]\[0\]: expected 22, got 1\.[\s\S]*truncating = 'pre' \(Keras' default\) drops the beginning/,
  },
  {
    id: 'alignment_batch',
    lesson: 9,
    code: null, // the starter returns the energies without a softmax
    message:
      /Case “one example, W reads only h: the weights follow tanh of the annotations” failed at \.weights\[0\]\[0\]/,
  },
  {
    id: 'attention_pooling',
    lesson: 10,
    code: null, // the starter gives padding weight
    message: /Padding positions got weight: leave them out of the softmax \(weight exactly 0\)/,
  },
  // Lessons 11 and 12 (issue 28); every one of their eight is graded the same way in node.
  {
    id: 'decoder_mask',
    lesson: 11,
    // the causal and padding masks combined with OR
    code: 'function decoderMask(lengths, T) { return lengths.map((len) => Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i || j < len ? 1 : 0)))); }',
    message:
      /Case “no padding \(length = T = 4\): only the causal mask” failed at \[0\]\[0\]\[1\]: expected 0, got 1\.[\s\S]*AND, not OR/,
  },
  {
    id: 'cross_attention',
    lesson: 11,
    code: null, // the starter: keys and values from the decoder, no √d_k, no padding mask
    message:
      /Case “one decoding step \(T_tgt = 1\), one sentence, no padding” failed at \.weights\[0\]\[0\]: expected 4 entries, got 1/,
  },
  {
    id: 'clipped_precision',
    lesson: 12,
    code: null, // the starter: matches not clipped
    message:
      /Case “unigrams of "the the the the the the the" against two references: 2 of 7” failed at \.matches: expected 2, got 7\.[\s\S]*not clipped/,
  },
  {
    id: 'corpus_bleu',
    lesson: 12,
    code: 'SOLUTION_WITHOUT_BP',
    message:
      /Case “two sentences: one has no 4-gram match but the corpus does \(sum first, then divide\)” failed: expected 71\.772, got 81\.329\.[\s\S]*no brevity penalty/,
  },
];

for (const mistake of MISTAKES) {
  test(`course: ${mistake.id} — a typical mistake fails with its message, the solution passes`, async () => {
    const { page, problems } = await openLesson(mistake.lesson);
    const exercise = page.locator(`[data-testid="exercise-${mistake.id}"]`);
    await exercise.getByRole('button', { name: 'Show the solution' }).click();
    const solution = await exercise.locator('.solution pre').textContent();
    if (mistake.code === 'SOLUTION_WITHOUT_SQRT') {
      const wrong = solution.replace(' / Math.sqrt(dk)', '');
      assert.notEqual(wrong, solution);
      await setCode(page, mistake.id, wrong);
    } else if (mistake.code === 'SOLUTION_WITHOUT_BP') {
      const wrong = solution.replace('const bp = c >= r ? 1 : Math.exp(1 - r / c);', 'const bp = 1;');
      assert.notEqual(wrong, solution);
      await setCode(page, mistake.id, wrong);
    } else if (mistake.code) {
      await setCode(page, mistake.id, mistake.code);
    }
    const failed = await check(page, mistake.id);
    assert.equal(failed.state, 'fail', failed.text);
    assert.match(failed.text, mistake.message);
    assert.doesNotMatch(failed.text, /[?!.:]\.(?!\d)/, 'no doubled punctuation');
    assert.match(failed.text, /Expected: .*Got: /s);
    assert.equal(await exercise.getAttribute('data-solved'), 'false');

    await exercise.getByRole('button', { name: 'Put the solution in the editor' }).click();
    const passed = await check(page, mistake.id);
    assert.equal(passed.state, 'pass', passed.text);
    assert.match(
      passed.text,
      /✓ All \d+ cases pass — the same results as the C\+\+ engine \(within 0\.0001 \+ 0\.0001·\|expected\|\)/,
    );
    assert.equal(await exercise.getAttribute('data-solved'), 'true');
    await exercise.locator('[data-testid="heatmap-reference"]').waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('course: each view links to the lessons that explain it, and a lesson links to its view', async () => {
  const { page, problems } = await openPage(env, 'index.html#/studio');
  for (const [view, lessons] of [
    ['lab', [4, 5, 6]],
    ['studio', [10]],
    ['seq2seq', [1, 9, 11, 12]],
    ['transformer', [8, 11]],
  ]) {
    await page.goto(env.baseUrl + `index.html#/${view}`);
    const line = page.locator(`[data-testid="explained-in-${view}"]`);
    await line.waitFor();
    assert.equal(await line.isVisible(), true, view);
    assert.match(await line.textContent(), /^Explained in the course: lesson \d+ \(/);
    assert.deepEqual(
      await line.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      lessons.map((n) => `./course.html#lesson-${n}`),
      view,
    );
  }
  // Follow one: the Studio's link opens lesson 10, whose link to the Studio comes back.
  await page.goto(env.baseUrl + 'index.html#/studio');
  await page.locator('[data-testid="explained-in-studio"] a').click();
  await page.waitForSelector('[data-testid="lesson-10"]');
  await page.locator('[data-testid="lesson-10"] a.view-link[data-view="studio"]').first().click();
  await page.waitForSelector('[data-testid="explained-in-studio"]');
  assert.match(page.url(), /index\.html#\/studio/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: a syntax error is placed at its line and column and marked in the editor until the next edit', async () => {
  const { page, problems } = await openLesson(2);
  const id = 'single_dot_score';
  const exercise = page.locator(`[data-testid="exercise-${id}"]`);
  await setCode(
    page,
    id,
    'function singleDotAttentionScore(dec, enc) {\n  let score = 0;\n  score += dec[0] *;\n  return score;\n}',
  );
  const failed = await check(page, id);
  assert.equal(failed.state, 'compile-error', failed.text);
  assert.match(failed.text, /✗ Your code does not run: SyntaxError: .* \(line 3, column 20, marked in the editor\)\./);
  // What is drawn: the third line tinted, the ';' underlined, a ✗ in the gutter beside line 3.
  const drawn = await exercise.evaluate((root) => {
    const lines = [...root.querySelectorAll('.cm-line')];
    const marked = lines.findIndex((l) => l.classList.contains('cm-syntax-error-line'));
    const token = root.querySelector('.cm-syntax-error');
    const marker = root.querySelector('.cm-syntax-error-marker');
    const markerBox = marker?.getBoundingClientRect();
    const lineBox = lines[marked]?.getBoundingClientRect();
    return {
      marked,
      count: root.querySelectorAll('.cm-syntax-error-line').length,
      background: getComputedStyle(lines[marked]).backgroundColor,
      otherBackground: getComputedStyle(lines[0]).backgroundColor,
      token: token?.textContent,
      underline: token ? getComputedStyle(token).textDecorationLine : null,
      markerText: marker?.textContent,
      markerBesideLine:
        markerBox && lineBox
          ? Math.abs(markerBox.top + markerBox.height / 2 - (lineBox.top + lineBox.height / 2)) < lineBox.height / 2
          : false,
    };
  });
  assert.equal(drawn.marked, 2, 'the third line is marked');
  assert.equal(drawn.count, 1);
  assert.notEqual(drawn.background, drawn.otherBackground, 'the marked line is tinted');
  assert.notEqual(drawn.background, 'rgba(0, 0, 0, 0)');
  assert.equal(drawn.token, ';');
  assert.match(drawn.underline, /underline/);
  assert.equal(drawn.markerText, '✗');
  assert.ok(drawn.markerBesideLine, 'the gutter marker sits beside the marked line');
  // The next edit removes the marker (it described the code as it was).
  await exercise.locator('.cm-content').press('End');
  await page.keyboard.type(' ');
  await page.waitForFunction(
    (root) => !root.querySelector('.cm-syntax-error-line, .cm-syntax-error-marker'),
    await exercise.elementHandle(),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: a failed check shows the learner heatmap next to the reference, hints come one by one', async () => {
  const { page, problems } = await openLesson(4);
  const exercise = page.locator('[data-testid="exercise-softmax"]');
  await check(page, 'softmax');
  assert.deepEqual(await exercise.locator('[data-testid="heatmap-yours"] td').allTextContents(), [
    'NaN',
    '0',
    '0',
    'NaN',
  ]);
  assert.deepEqual(await exercise.locator('[data-testid="heatmap-reference"] td').allTextContents(), [
    '0.119',
    '0',
    '0',
    '0.881',
  ]);
  const hint = exercise.getByRole('button', { name: 'Hint' });
  await hint.click();
  await hint.click();
  assert.equal(await exercise.locator('.hints li').count(), 2);
  await exercise.scrollIntoViewIfNeeded();
  mkdirSync(path.join(root, 'build/screenshots'), { recursive: true });
  await page.screenshot({ path: path.join(root, 'build/screenshots/course.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: an infinite loop is stopped after 2 s, the page stays responsive, the sandbox recovers', async () => {
  const { page, problems } = await openLesson(2);
  const exercise = page.locator('[data-testid="exercise-single_dot_score"]');
  await setCode(page, 'single_dot_score', 'function singleDotAttentionScore(dec, enc) { while (true) {} }');
  await exercise.getByRole('button', { name: 'Check' }).click();
  await page.waitForSelector('[data-testid="exercise-single_dot_score"] .feedback[data-state="running"]');
  // While the loop spins, the page still reacts: the hint is shown while the check is still
  // running (a blocked main thread would only show it after the time limit, with the state
  // already 'timeout'). The state is read in the same task that finds the hint.
  await exercise.getByRole('button', { name: 'Hint' }).click();
  const stateWhenHintShown = await page
    .waitForFunction(() => {
      const box = document.querySelector('[data-testid="exercise-single_dot_score"]');
      return box?.querySelector('.hints li') ? box.querySelector('.feedback')?.dataset.state : false;
    })
    .then((handle) => handle.jsonValue());
  assert.equal(stateWhenHintShown, 'running');
  // The code runs in an opaque-origin frame: scripts allowed, nothing else (no allow-same-origin).
  assert.equal(await page.locator('iframe.sandbox-frame').getAttribute('sandbox'), 'allow-scripts');
  await page.waitForSelector('[data-testid="exercise-single_dot_score"] .feedback[data-state="timeout"]');
  assert.match(
    await exercise.locator('.feedback').textContent(),
    /Stopped after 2 s: your code did not finish \(an infinite loop\?\)/,
  );
  assert.equal(await page.locator('iframe').count(), 0, 'the sandbox frame is gone');
  await setCode(
    page,
    'single_dot_score',
    'function singleDotAttentionScore(d, e) { return d.reduce((s, x, i) => s + x * e[i], 0); }',
  );
  assert.equal((await check(page, 'single_dot_score')).state, 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: learner code cannot touch the page, its storage or the network', async () => {
  const { page, problems } = await openLesson(2);
  const leaks = [];
  page.on('request', (request) => {
    if (request.url().includes('leak')) leaks.push(request.url());
  });
  await page.evaluate(() => localStorage.setItem('canary', 'untouched'));
  const title = await page.title();
  // Each attempt records itself only if it succeeded: the returned list must be empty.
  await setCode(
    page,
    'single_dot_score',
    `function singleDotAttentionScore(dec, enc) {
  const done = [];
  try { document.body.innerHTML = 'owned'; done.push('document'); } catch (e) {}
  try { localStorage.setItem('canary', 'owned'); done.push('localStorage'); } catch (e) {}
  try { indexedDB.open('owned'); done.push('indexedDB'); } catch (e) {}
  try { parent.document.title = 'owned'; done.push('parent'); } catch (e) {}
  try { top.location.href = 'https://example.com/'; done.push('navigate'); } catch (e) {}
  try { fetch('/leak-fetch').catch(() => {}); } catch (e) {}
  try { const x = new XMLHttpRequest(); x.open('GET', '/leak-xhr', false); x.send(); done.push('xhr ' + x.status); } catch (e) {}
  try { importScripts('/leak-import.js'); done.push('importScripts'); } catch (e) {}
  return done;
}`,
  );
  const result = await check(page, 'single_dot_score');
  assert.equal(result.state, 'fail');
  assert.match(result.text, /expected a number, got an array of 0/);
  assert.match(result.text, /Got: \[\]/);

  await setCode(page, 'single_dot_score', 'function singleDotAttentionScore() { return document.title; }');
  assert.match((await check(page, 'single_dot_score')).text, /threw ReferenceError: document is not defined/);

  await page.waitForTimeout(300); // let any request that did escape show up
  assert.deepEqual(leaks, []);
  assert.equal(await page.evaluate(() => localStorage.getItem('canary')), 'untouched');
  assert.equal(await page.title(), title);
  assert.equal(new URL(page.url()).pathname, '/course.html');
  assert.equal(await page.locator('[data-testid="lesson-2"]').count(), 1, 'the page is intact');
  // The browser logs the sandbox's own CSP refusals (fetch, XHR, importScripts) as
  // console errors; those are the sandbox working, anything else is a failure.
  const unexpected = problems.filter((p) => !/Content Security Policy|Refused to/.test(p));
  assert.deepEqual(unexpected, []);
  await page.close();
});

test('course: predictions are answered by clicking and revealed by the engine', async () => {
  const { page, problems } = await openLesson(4);
  const prediction = page.locator('[data-testid="prediction-weight-of-929"]');
  await prediction.getByRole('button', { name: 'About half — 927 and 929 are nearly equal' }).click();
  await page.waitForSelector('[data-testid="prediction-weight-of-929"][data-state="wrong"]');
  assert.match(await prediction.textContent(), /Not quite: the answer is “About 88%”[\s\S]*weight of 0\.881/);
  assert.deepEqual(await prediction.locator('td').allTextContents(), ['0.119', '0', '0', '0.881']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: progress and drafts survive a reload; the map shows them; reset clears them', async () => {
  const { page, problems } = await openLesson(2);
  const exercise = page.locator('[data-testid="exercise-single_dot_score"]');
  await exercise.getByRole('button', { name: 'Show the solution' }).click();
  await exercise.getByRole('button', { name: 'Put the solution in the editor' }).click();
  assert.equal((await check(page, 'single_dot_score')).state, 'pass');
  await page.locator('[data-testid="prediction-highest-single-score"] button.option').nth(1).click();
  await page.waitForSelector('[data-testid="prediction-highest-single-score"][data-state="right"]');

  await page.goto(env.baseUrl + 'course.html#lesson-3');
  await setCode(page, 'dot_scores', 'function dotAttentionScore(dec, annotations) {\n  // my draft\n  return [1];\n}');
  // Drafts are saved 300 ms after the last edit: wait until this one is in storage.
  await page.waitForFunction(() =>
    /my draft/.test(localStorage.getItem('attention-playground.course.v1')?.toString() ?? ''),
  );

  await page.reload();
  await page.waitForSelector('[data-testid="lesson-3"]');
  assert.match(await page.locator('[data-testid="exercise-dot_scores"] .cm-content').textContent(), /my draft/);
  await page.goto(env.baseUrl + 'course.html#lesson-2');
  await page.waitForSelector('[data-testid="exercise-single_dot_score"][data-solved="true"]');
  assert.match(await page.locator('[data-testid="exercise-single_dot_score"] h3').textContent(), /✓ solved/);
  await page.waitForSelector('[data-testid="prediction-highest-single-score"][data-state="right"]');

  await page.goto(env.baseUrl + 'course.html#map');
  const lesson2 = page.locator('[data-testid="map-lesson-2"] [data-testid="lesson-progress"]');
  assert.equal(await lesson2.textContent(), '1/1 exercise · 1/1 question ✓');
  assert.equal(
    await page.locator('[data-testid="map-lesson-4"] [data-testid="lesson-progress"]').textContent(),
    '0/1 exercise · 0/1 question',
  );
  assert.equal(
    await page.locator('[data-testid="map-lesson-9"] [data-testid="lesson-progress"]').textContent(),
    '0/6 exercises',
  );
  assert.match(
    await page.locator('[data-testid="course-summary"]').textContent(),
    /^1 of 34 coding exercises solved; 1 of 7 prediction questions answered\.$/,
  );

  const reset = page.getByRole('button', { name: 'Reset my progress' });
  await reset.click();
  await page
    .getByRole('button', {
      name: 'Click again to erase solved exercises and drafts',
    })
    .click();
  assert.equal(await lesson2.textContent(), '0/1 exercise · 0/1 question');
  await page.reload();
  assert.equal(
    await page.locator('[data-testid="map-lesson-2"] [data-testid="lesson-progress"]').textContent(),
    '0/1 exercise · 0/1 question',
  );
  await page.goto(env.baseUrl + 'course.html#lesson-3');
  assert.doesNotMatch(await page.locator('[data-testid="exercise-dot_scores"] .cm-content').textContent(), /my draft/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: progress view; export to a file, clear, import restores it; a bad file changes nothing', async () => {
  const opened = await openLesson(4);
  let { page } = opened;
  const exercise = page.locator('[data-testid="exercise-softmax"]');
  await exercise.getByRole('button', { name: 'Show the solution' }).click();
  await exercise.getByRole('button', { name: 'Put the solution in the editor' }).click();
  assert.equal((await check(page, 'softmax')).state, 'pass');

  await page.goto(env.baseUrl + 'course.html#map');
  const row = (n) => page.locator(`[data-testid="progress-lesson-${n}"]`);
  const solved4 = () => row(4).locator('[data-testid="exercises-solved"]');
  assert.equal(await solved4().textContent(), '1 / 1');
  assert.equal(await row(2).locator('[data-testid="exercises-solved"]').textContent(), '0 / 1');
  assert.equal(await row(10).locator('[data-testid="models-trained"]').textContent(), '0 / 2');
  assert.equal(await row(4).locator('[data-testid="models-trained"]').textContent(), '—');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export my progress' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'attention-course-progress.json');
  const exported = readFileSync(await download.path());
  const file = JSON.parse(exported.toString('utf8'));
  assert.equal(file.format, 'attention-playground-course-progress');
  assert.equal(file.version, 1);
  assert.deepEqual(file.progress.solved, { softmax: true });

  // A new browser: empty storage. The old page is closed first, so nothing it still holds in
  // memory (an editor draft waiting for its save timer) can write storage after the clear.
  await page.close();
  const fresh = await openPage(env, 'course.html#map');
  page = fresh.page;
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('[data-testid="progress-panel"]');
  assert.equal(await solved4().textContent(), '0 / 1');

  // A foreign file and a damaged one are refused with a message, and nothing changes.
  const status = page.locator('[data-testid="progress-file-status"]');
  const importInput = page.locator('[data-testid="progress-import"]');
  await importInput.setInputFiles({
    name: 'package.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"name": "x", "version": "1.0.0"}'),
  });
  await page.waitForSelector('[data-testid="progress-file-status"][data-state="error"]');
  assert.match(
    await status.textContent(),
    /^package\.json: This file is not a progress file of the Attention Playground course\. Nothing was changed\.$/,
  );
  const damaged = { ...file, progress: { ...file.progress, solved: { softmax: 'yes' } } };
  await importInput.setInputFiles({
    name: 'damaged.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(damaged)),
  });
  await page.waitForFunction(() =>
    /damaged\.json/.test(document.querySelector('[data-testid="progress-file-status"]').textContent),
  );
  assert.match(await status.textContent(), /"solved\.softmax" should be true/);
  assert.equal(await page.evaluate(() => localStorage.getItem('attention-playground.course.v1')), null);
  assert.equal(await solved4().textContent(), '0 / 1');

  await importInput.setInputFiles({
    name: 'attention-course-progress.json',
    mimeType: 'application/json',
    buffer: exported,
  });
  await page.waitForSelector('[data-testid="progress-file-status"][data-state="ok"]');
  assert.match(await status.textContent(), /^Imported: 1 solved exercise, /);
  assert.equal(await solved4().textContent(), '1 / 1');
  await page.reload();
  assert.equal(await solved4().textContent(), '1 / 1');
  await page.goto(env.baseUrl + 'course.html#lesson-4');
  await page.waitForSelector('[data-testid="exercise-softmax"][data-solved="true"]');
  assert.deepEqual([...opened.problems, ...fresh.problems], []);
  await page.close();
});

test('course: every lesson renders its maths and live figures; the start page links to the course', async () => {
  const { page, problems } = await openLesson(1);
  await page.goto(env.baseUrl + 'course.html#map');
  await page.waitForSelector('[data-testid="map-lesson-1"]');
  const lessons = await page.locator('[data-testid^="map-lesson-"]').count();
  const linkedViews = new Set();
  for (let n = 1; n <= lessons; n++) {
    await page.goto(env.baseUrl + `course.html#lesson-${n}`);
    await page.waitForSelector(`[data-testid="lesson-${n}"]`);
    assert.ok((await page.locator('.katex').count()) > 0, `lesson ${n} has typeset maths`);
    const figures = await page.locator('.live-figure').count();
    await page.waitForFunction(
      () => [...document.querySelectorAll('.live-figure')].every((f) => f.dataset.state === 'ready'),
      null,
      { timeout: 15000 },
    );
    assert.ok(figures >= 1, `lesson ${n} has a live figure`);
    assert.equal(await page.locator('.katex-error').count(), 0);
    // What KaTeX typeset: no command that lost its backslash ("e^{−extloss}", "alpha_t").
    const sources = await page.locator('.katex annotation[encoding="application/x-tex"]').allTextContents();
    for (const source of sources) assert.deepEqual(texProblems(source), [], `lesson ${n}: $${source}$`);
    for (const link of await page.locator('.lesson a.view-link').all()) {
      const href = await link.getAttribute('href');
      assert.match(href, /^\.\/index\.html#\/(lab|studio|seq2seq|transformer)$/, `lesson ${n}: ${href}`);
      linkedViews.add(href);
    }
  }
  assert.equal(lessons, 12);
  assert.equal(linkedViews.size, 4, `the lessons link to every view: ${[...linkedViews].join(', ')}`);
  // The seq2seq demos replaced the course's TODOs.
  for (const n of [1, 9]) {
    await page.goto(env.baseUrl + `course.html#lesson-${n}`);
    await page.waitForSelector(`[data-testid="lesson-${n}"]`);
    assert.equal(await page.locator('.todo').count(), 0, `lesson ${n} has no TODO left`);
    assert.equal(await page.locator('.seq2seq-demo').count(), 1, `lesson ${n} has a seq2seq demo`);
  }
  await page.goto(env.baseUrl);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Course', exact: true }).click();
  await page.waitForSelector('[data-testid="map-lesson-12"]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: "train one" trains in the engine worker, draws its loss on the app chart, reports accuracy and attention', async () => {
  const { page, problems } = await openLesson(9);
  const demo = page.locator('[data-testid="training-bigru-attention"]');
  await demo.getByRole('button', { name: 'Train one' }).click();
  await page.waitForSelector('[data-testid="training-bigru-attention"][data-state="done"]', { timeout: 180000 });
  assert.match(await demo.locator('[data-testid="test-accuracy"]').textContent(), /^\d+\.\d%$/);
  assert.match(await demo.textContent(), /attention on the decisive tokens\d+\.\d% of the weight/);
  // The loss curve is the app's line chart: one series from step 1 to step 200.
  const chart = demo.locator('[data-testid="loss-chart-bigru-attention"]');
  assert.equal(await chart.locator('path.series').count(), 1);
  await chart.getByText('Data table').click();
  // The table is filled by the details' toggle event, which fires after the click returns.
  await chart.locator('.chart-table tbody tr').first().waitFor();
  const steps = await chart.locator('.chart-table tbody tr td:nth-child(2)').allTextContents();
  assert.deepEqual([Number(steps[0]), Number(steps.at(-1))], [1, 200]);
  assert.equal(await demo.getByRole('button', { name: 'Train another' }).isEnabled(), true);
  // The course has no worker of its own any more: only the engine worker was started.
  assert.deepEqual(
    await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => /worker/.test(p))
        .map((p) => p.replace(/-[\w-]+\.js$/, '.js')),
    ),
    ['/assets/worker.js'],
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: a toy run stops on request, mid-run', async () => {
  const { page, problems } = await openLesson(9);
  const demo = page.locator('[data-testid="training-bigru-attention"]');
  const selector = '[data-testid="training-bigru-attention"]';
  await stopOnFirstProgress(page, selector, `${selector} [role="status"]`, /step \d+ of 200/);
  await demo.getByRole('button', { name: 'Train one' }).click();
  await page.waitForSelector('[data-testid="training-bigru-attention"][data-state="stopped"]', { timeout: 60000 });
  assert.equal(await demo.locator('[role="status"]').textContent(), 'Stopped.');
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 1 trains reversal with and without attention and compares exact match by length', async () => {
  const { page, problems } = await openLesson(1, '?s2s-quick');
  const demo = page.locator('[data-testid="seq2seq-bottleneck"]');
  await demo.getByRole('button', { name: 'Train both' }).click();
  await page.waitForSelector('[data-testid="seq2seq-bottleneck"][data-state="done"]', { timeout: 120000 });
  const cards = demo.locator('.training-card');
  assert.equal(await cards.count(), 2);
  assert.match(await cards.nth(0).locator('h4').textContent(), /Without attention/);
  assert.match(await cards.nth(1).locator('h4').textContent(), /With attention/);
  for (const text of await demo.locator('[data-testid="exact-match"]').allTextContents()) {
    assert.match(text, /^\d+\.\d% of 60$/);
  }
  // The chart has one line per model; the table one row per input length seen, then the total.
  assert.equal(await demo.locator('svg.s2s-length-chart polyline').count(), 2);
  const table = demo.locator('[data-testid="s2s-length-table"]');
  const rows = await table.locator('tbody tr').count();
  assert.ok(rows >= 3 && rows <= 13, `${rows} rows for lengths 3 to 14 and the total`);
  const firstRow = await table.locator('tbody tr').first().locator('th, td').allTextContents();
  assert.equal(firstRow.length, 3);
  assert.equal(firstRow[0], '3');
  assert.match(await table.locator('tr.total').textContent(), /all.*% of 60.*% of 60/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: a seq2seq demo stops on request, mid-run, and the page stays clean', async () => {
  const { page, problems } = await openLesson(1);
  const demo = page.locator('[data-testid="seq2seq-bottleneck"]');
  await stopOnFirstProgress(
    page,
    '[data-testid="seq2seq-bottleneck"]',
    '[data-testid="seq2seq-bottleneck"] [role="status"]',
    /step \d+ of \d+/,
  );
  await demo.getByRole('button', { name: 'Train both' }).click();
  await page.waitForSelector('[data-testid="seq2seq-bottleneck"][data-state="stopped"]', { timeout: 20000 });
  assert.equal(await demo.locator('[role="status"]').textContent(), 'Stopped.');
  assert.equal(await demo.locator('svg.s2s-length-chart').count(), 0, 'no comparison from a stopped run');
  assert.equal(await demo.getByRole('button', { name: 'Train both again' }).isEnabled(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 9 trains a date normaliser, tabulates its epochs and translates with an alignment', async () => {
  const { page, problems } = await openLesson(9, '?s2s-quick');
  const demo = page.locator('[data-testid="seq2seq-dates"]');
  const translate = demo.getByRole('button', { name: 'Translate' });
  assert.equal(await translate.isDisabled(), true, 'nothing to translate with before training');
  await demo.getByRole('button', { name: 'Train one' }).click();
  await page.waitForSelector('[data-testid="seq2seq-dates"][data-state="done"]', { timeout: 120000 });
  assert.match(await demo.locator('[data-testid="exact-match"]').textContent(), /^\d+\.\d% of 40$/);
  // One epoch in quick mode: teacher forcing ratio 1, a loss, e^-loss, and the free-running scores.
  const epoch = await demo.locator('[data-testid="s2s-epoch-table"] tbody tr').allInnerTexts();
  assert.equal(epoch.length, 1);
  assert.match(epoch[0], /^1\s+1\.00\s+\d+\.\d{3}\s+\d+\.\d%\s+\d+\.\d%\s+\d+\.\d%$/);

  // The example is decoded at once; then the learner's own input, one alignment column per character.
  await page.waitForSelector('[data-testid="seq2seq-dates"] .s2s-translate[data-state="translated"]');
  const input = demo.getByRole('textbox', { name: 'input to translate' });
  await input.fill('21 December 2004');
  await translate.click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="s2s-demo-alignment"] thead th[scope="col"]').length === 16,
  );
  const alignment = page.locator('[data-testid="s2s-demo-alignment"]');
  assert.equal(await alignment.isVisible(), true);
  assert.ok((await alignment.locator('tbody tr').count()) >= 1, 'one row per output step');
  assert.match(await demo.locator('[data-testid="s2s-output"]').textContent(), /^[\d-]*$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 10 runs the learner’s attentionPool inside a classifier trained in the page', async () => {
  const { page, problems } = await openLesson(10, '?s2s-quick');
  const demo = page.locator('[data-testid="pooling-your-pooling"]');
  await demo.getByRole('button', { name: 'Train the classifier' }).click();
  await page.waitForSelector('[data-testid="pooling-your-pooling"][data-state="trained"]', { timeout: 120000 });

  const draftSaved = (needle) =>
    page.waitForFunction(
      (text) =>
        (
          JSON.parse(localStorage.getItem('attention-playground.course.v1') ?? '{}').drafts?.attention_pooling ?? ''
        ).includes(text),
      needle,
    );
  const exercise = page.locator('[data-testid="exercise-attention_pooling"]');
  await exercise.getByRole('button', { name: 'Show the solution' }).click();
  const solution = await exercise.locator('.solution pre').textContent();
  await setCode(page, 'attention_pooling', solution);
  await draftSaved('real.length');
  const run = demo.getByRole('button', { name: 'Run my attentionPool in the model' });
  await run.click();
  await page.waitForSelector('[data-testid="pooling-your-pooling"][data-state="done"]', { timeout: 30000 });
  const accuracy = await demo.locator('[data-testid="pooling-accuracy"]').textContent();
  const [, engineAccuracy, mine] = accuracy.match(/engine (\d+\.\d)%, with your pooling (\d+\.\d)%/);
  assert.equal(mine, engineAccuracy);
  assert.match(await demo.locator('[role="status"]').textContent(), /the same predictions as the engine’s own/);
  assert.equal(await demo.locator('[data-testid="pooling-evidence"]').count(), 0, 'no leak to explain');
  assert.equal(await demo.locator('[data-testid="pooling-table"] tbody tr').count(), 8);
  await demo.locator('[data-testid="pooling-weights"]').waitFor();

  const paddingColumn = () =>
    demo
      .locator('[data-testid="pooling-table"] tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.cells[3].textContent));
  assert.deepEqual([...new Set(await paddingColumn())], ['0.000'], 'the solution gives padding no weight');
  // Drawn: each review's P with the engine's pooling (dot) and with the learner's (ring).
  const shift = () =>
    demo.locator('[data-testid="pooling-shift"]').evaluate((svg) => {
      const x = (e) => Number(e.getAttribute('cx'));
      const rows = [...svg.querySelectorAll('.shift-row')].map((g) => ({
        dot: x(g.querySelector('.shift-engine')),
        ring: x(g.querySelector('.shift-mine')),
      }));
      const none = Number(svg.querySelector('.shift-none').getAttribute('x1'));
      const dotFill = getComputedStyle(svg.querySelector('.shift-engine')).fill;
      const ringStroke = getComputedStyle(svg.querySelector('.shift-mine')).stroke;
      return { rows, none, dotFill, ringStroke };
    });
  const right = await shift();
  assert.equal(right.rows.length, 8);
  assert.ok(
    right.rows.every((r) => Math.abs(r.ring - r.dot) < 0.5),
    'the solution’s rings sit on the engine’s dots',
  );
  assert.notEqual(right.dotFill, right.ringStroke, 'dot and ring are drawn apart');
  // The batch holds padding: every review is padded to the model's 64 positions.
  for (const cell of await demo.locator('[data-testid="pooling-table"] tbody tr td:nth-child(3)').allTextContents()) {
    const [, real, pad] = cell.match(/^(\d+) \+ (\d+) padding$/).map(Number);
    assert.equal(real + pad, 64, cell);
  }

  // The starter (padding gets weight), the bug the exercise is about: the model's answers change.
  await exercise.getByRole('button', { name: 'Start over' }).click();
  await draftSaved('TODO: padding still gets weight');
  await run.click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="pooling-your-pooling"]')?.dataset.state === 'done' &&
      /gives padding up to \d+\.\d% of a review’s weight, and that changes what the model says/.test(
        document.querySelector('[data-testid="pooling-your-pooling"] [role="status"]').textContent,
      ),
    null,
    { timeout: 30000 },
  );
  // Why the answers move: the evidence is scaled by k and slides toward σ(b), the no-evidence answer.
  const evidence = await demo.locator('[data-testid="pooling-evidence"]').textContent();
  assert.match(evidence, /scaled by k, the weight you leave on the review \(here 0\.\d\d to 0\.\d\d\)/);
  assert.match(evidence, /σ\(b\) = 0\.\d{3}/);
  assert.match(evidence, /None of these answers changed side|\d of 8 answers changed side/);
  const wrong = await shift();
  assert.ok(
    wrong.rows.every((r) => Math.abs(r.ring - wrong.none) < Math.abs(r.dot - wrong.none)),
    `every ring slides toward σ(b): ${JSON.stringify(wrong)}`,
  );
  const leaked = (await paddingColumn()).map(Number);
  assert.ok(
    leaked.every((w) => w > 0.05),
    `every review gives padding weight: ${leaked.join(', ')}`,
  );
  // Drawn: the "yours" row of the shortest review's map has weight in its padding column.
  const padCells = await demo.locator('[data-testid="pooling-weights"]').evaluate((map) => {
    const heads = [...map.querySelectorAll('thead th[scope="col"]')].map((th) => th.textContent);
    const [engine, yours] = [...map.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')]);
    const at = heads.findIndex((h) => /^<pad> ×\d+$/.test(h));
    return {
      at,
      last: heads.length - 1,
      engine: Number(engine[at]?.dataset.value),
      yours: Number(yours[at]?.dataset.value),
    };
  });
  assert.equal(padCells.at, padCells.last, 'the padding column is the last');
  assert.equal(padCells.engine, 0);
  assert.ok(padCells.yours > 0.3, `weight on the padding column: ${padCells.yours}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 9 shows the teacher-forcing exercise beside the date normaliser', async () => {
  const { page, problems } = await openLesson(9);
  const beside = page.locator('.lesson-beside');
  assert.equal(await beside.count(), 1);
  assert.equal(await beside.locator('[data-testid="seq2seq-dates"]').count(), 1);
  assert.equal(await beside.locator('[data-testid="exercise-teacher_forcing"]').count(), 1);
  assert.equal(await page.locator('[data-testid="exercise-teacher_forcing"]').count(), 1, 'shown once');
  // On a wide screen the two sit side by side.
  const [a, b] = await Promise.all(
    ['[data-testid="seq2seq-dates"]', '[data-testid="exercise-teacher_forcing"]'].map((s) =>
      page.locator(s).boundingBox(),
    ),
  );
  assert.ok(b.x > a.x + a.width - 1, `exercise at x=${b.x}, demo ends at ${a.x + a.width}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 10 trains a sentiment model on the built-in corpus and reads the learner’s sentence', async () => {
  const { page, problems } = await openLesson(10, '?s2s-quick');
  const demo = page.locator('[data-testid="sentiment-imdb-attention"]');
  await demo.getByRole('button', { name: 'Train the classifier' }).click();
  await page.waitForSelector('[data-testid="sentiment-imdb-attention"][data-state="trained"]', { timeout: 120000 });
  assert.match(await demo.locator('[data-testid="sentiment-accuracy"]').textContent(), /^\d+\.\d%$/);
  assert.ok((await demo.locator('[data-testid="sentiment-loss-imdb-attention"] path.series').count()) === 1);
  // The example sentence is read at once; then the learner's own.
  await page.waitForSelector('[data-testid="sentiment-reading"][data-state="read"]');
  await demo.getByRole('textbox', { name: 'Your sentence' }).fill('Not good at all, a dull waste of time');
  await demo.getByRole('button', { name: 'Read its attention' }).click();
  await page.waitForFunction(() => {
    const reading = document.querySelector('[data-testid="sentiment-reading"]');
    return reading?.dataset.state === 'read' && /waste/.test(reading.textContent);
  });
  assert.match(
    await demo.locator('[data-testid="sentiment-probability"]').textContent(),
    /^P\(positive\) = 0\.\d{3}: the model reads this as (positive|negative)\.$/,
  );
  const heads = await demo.locator('[data-testid="sentiment-weights"] thead th').allTextContents();
  for (const word of ['not', 'good', 'dull', 'waste']) assert.ok(heads.includes(word), `${word} in ${heads}`);
  // The progress view counts the model.
  await page.goto(env.baseUrl + 'course.html#map');
  assert.equal(
    await page.locator('[data-testid="progress-lesson-10"] [data-testid="models-trained"]').textContent(),
    '1 / 2',
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 10 opens the model trained on IMDB in one click; its answers and drawn attention are its own', async () => {
  const manifest = JSON.parse(readFileSync(new URL('../../web/public/models/manifest.json', import.meta.url), 'utf8'));
  const shipped = manifest.models.find((m) => m.model === 'bilstm-attention');
  const { page, problems } = await openLesson(10, '?s2s-quick');
  const demo = page.locator('[data-testid="sentiment-imdb-attention"]');
  const reading = demo.locator('[data-testid="sentiment-reading"]');
  /** Reads `text` with the model in the session: P(positive) and the drawn colour of every token. */
  const read = async (text) => {
    await demo.getByRole('textbox', { name: 'Your sentence' }).fill(text);
    await demo.getByRole('button', { name: 'Read its attention' }).click();
    await page.waitForFunction(
      (words) => {
        const r = document.querySelector('[data-testid="sentiment-reading"]');
        const heads = [...(r?.querySelectorAll('thead th[scope="col"]') ?? [])].map((th) => th.textContent);
        return r?.dataset.state === 'read' && heads.join(' ') === words;
      },
      `<start> ${text.toLowerCase().replace(/,/g, '')}`, // the tokenizer drops punctuation
    );
    const probability = Number(
      (await reading.locator('[data-testid="sentiment-probability"]').textContent()).match(/= (0\.\d+)/)[1],
    );
    const colours = await reading
      .locator('[data-testid="sentiment-weights"] tbody td')
      .evaluateAll((cells) => cells.map((td) => getComputedStyle(td).backgroundColor));
    return { probability, colours };
  };

  // A model trained here first (the quick run), read on a sentence.
  await demo.getByRole('button', { name: 'Train the classifier' }).click();
  await page.waitForSelector('[data-testid="sentiment-imdb-attention"][data-state="trained"]', { timeout: 120000 });
  const sentence = 'a wonderful film with a moving story';
  const own = await read(sentence);

  // One click, with the held-out accuracy on unseen movies on the button and in the outcome.
  const percent = `${(100 * shipped.heldOutAccuracy).toFixed(1)}%`;
  const button = demo.locator('[data-testid="sentiment-shipped"]');
  assert.equal(await button.textContent(), `Open a trained IMDB model — ${percent} on reviews of unseen movies`);
  // From the keyboard; the focus stays on the button (it is disabled while the model loads).
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector(
    `[data-testid="sentiment-imdb-attention"][data-model="${shipped.file}"][data-state="trained"]`,
  );
  assert.equal(await button.evaluate((b) => document.activeElement === b), true, 'the focus is kept');
  assert.equal(await demo.locator('[data-testid="sentiment-accuracy"]').textContent(), percent);
  const about = await demo.locator('.sentiment-outcome').textContent();
  assert.match(about, /a BiLSTM of 32 units, additive attention pooling \(32\)/);
  assert.ok(
    about.includes(
      `keep the best of ${shipped.epochsRun} epochs). ${percent} on 2,500 held-out reviews of movies it never saw`,
    ),
    about,
  );

  const opened = await read(sentence);
  assert.ok(opened.probability > 0.5, `“${sentence}”: ${opened.probability}`);
  assert.equal(opened.colours.length, own.colours.length);
  assert.notDeepEqual(opened.colours, own.colours, 'the drawn weights are the opened model’s');
  assert.ok((await read('a dull, lifeless film')).probability < 0.5, 'negative');
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 10 trains on an aclImdb archive the learner picks; a broken file gets a clear message', async () => {
  const loaded = await loadWebModules('/src/views/studio/folder_archive.ts');
  const archive = gzipSync(loaded.modules[0].tarArchive(aclImdbFiles(40, 10)));
  await loaded.close();
  const { page, problems } = await openLesson(10, '?s2s-quick');
  const demo = page.locator('[data-testid="sentiment-imdb-attention"]');
  await demo.getByRole('radio', { name: /an aclImdb archive/ }).check();
  await demo.getByRole('button', { name: 'Train the classifier' }).click();
  await page.waitForSelector('[data-testid="sentiment-imdb-attention"][data-state="error"]');
  assert.match(await demo.locator('[role="status"]').first().textContent(), /Choose an aclImdb archive/);

  const input = demo.locator('[data-testid="sentiment-archive"]');
  await input.setInputFiles({ name: 'broken.tar.gz', mimeType: 'application/gzip', buffer: Buffer.from('not gzip') });
  await demo.getByRole('button', { name: /Train/ }).click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="sentiment-imdb-attention"]')?.dataset.state === 'error' &&
      /broken\.tar\.gz/.test(
        document.querySelector('[data-testid="sentiment-imdb-attention"] [role="status"]').textContent,
      ),
  );
  assert.match(await demo.locator('[role="status"]').first().textContent(), /^Could not train on broken\.tar\.gz: \S/);

  await input.setInputFiles({ name: 'aclImdb_small.tar.gz', mimeType: 'application/gzip', buffer: archive });
  await demo.getByRole('button', { name: /Train/ }).click();
  await page.waitForSelector('[data-testid="sentiment-imdb-attention"][data-state="trained"]', { timeout: 120000 });
  assert.match(await demo.locator('.sentiment-outcome').textContent(), /80 training and 20 test reviews/);
  await page.waitForSelector('[data-testid="sentiment-reading"][data-state="read"]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('course: lesson 10’s two classifiers share the worker’s session; the replaced one asks to be trained again', async () => {
  const { page, problems } = await openLesson(10, '?s2s-quick');
  const sentiment = page.locator('[data-testid="sentiment-imdb-attention"]');
  await sentiment.getByRole('button', { name: 'Train the classifier' }).click();
  await page.waitForSelector('[data-testid="sentiment-reading"][data-state="read"]', { timeout: 120000 });
  const pooling = page.locator('[data-testid="pooling-your-pooling"]');
  await pooling.getByRole('button', { name: 'Train the classifier' }).click();
  await page.waitForSelector('[data-testid="pooling-your-pooling"][data-state="trained"]', { timeout: 120000 });
  await sentiment.getByRole('button', { name: 'Read its attention' }).click();
  await page.waitForSelector('[data-testid="sentiment-reading"][data-state="stale"]');
  assert.match(
    await sentiment.locator('[data-testid="sentiment-reading"]').textContent(),
    /^Another demo has trained a model since: train this one again\.$/,
  );
  assert.equal(await sentiment.getByRole('button', { name: 'Read its attention' }).isDisabled(), true);
  // And the other way round.
  await sentiment.getByRole('button', { name: 'Train again' }).click();
  await page.waitForSelector('[data-testid="sentiment-reading"][data-state="read"]', { timeout: 120000 });
  await pooling.getByRole('button', { name: 'Run my attentionPool in the model' }).click();
  await page.waitForFunction(() =>
    /Another demo has trained a model since/.test(
      document.querySelector('[data-testid="pooling-your-pooling"] [role="status"]').textContent,
    ),
  );
  assert.deepEqual(problems, []);
  await page.close();
});
