// Security of the built page in Chromium: it runs under its Content-Security-Policy (no eval, no
// inline code, nothing from elsewhere) with no violation and no console error, the policy is
// really enforced (a deliberate eval is refused), and text from data is rendered as text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { openPage, startBrowser } from './support/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let env;

before(async () => {
  env = await startBrowser();
  // Every document records the policy violations it sees, from its very first script on.
  await env.context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(
        `${e.violatedDirective} blocked ${e.blockedURI || '(inline/eval)'} at ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
});
after(async () => {
  await env?.close();
});

const EXPECTED_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
  "worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'";

test('security: the built page carries the policy as a <meta> and the server sends it to the worker too', () => {
  const config = readFileSync(path.join(root, 'web/vite.config.ts'), 'utf8');
  assert.ok(
    config.includes(`CONTENT_SECURITY_POLICY =\n  "${EXPECTED_POLICY}"`),
    'web/vite.config.ts sends the same policy',
  );
  const html = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
  const metas = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(metas, [EXPECTED_POLICY]);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline <script> in the built page');
  assert.doesNotMatch(html, /<style|\sstyle="/, 'no inline styles in the built page');
  // The glue of the wasm module must not build functions from strings.
  const glue = readFileSync(path.join(root, 'web/generated/attn_engine.mjs'), 'utf8');
  assert.doesNotMatch(glue, /new Function|\beval\(/);
});

test('security: the page and its engine run with no policy violation and no console error', async () => {
  const workerResponses = [];
  const onResponse = (response) => {
    if (/worker[^/]*\.js$/.test(response.url())) workerResponses.push(response);
  };
  env.context.on('response', onResponse);
  const { page, problems } = await openPage(env, '#/lab');
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 20000 });
  // The course example is computed by the engine in the worker (embind calls, typed arrays back).
  await page.waitForFunction(
    () => document.querySelector('[data-testid="heatmap-scores"] td')?.textContent === '927.0',
    null,
    { timeout: 10000 },
  );
  // Exercise more bindings: another scoring function with parameters, and an engine error.
  await page.selectOption('#lab-kind', 'additive');
  await page.waitForSelector('[data-testid="heatmap-param-w1"]');
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(problems, []);
  env.context.off('response', onResponse);
  assert.ok(workerResponses.length >= 1, 'the engine worker script was loaded');
  for (const response of workerResponses) {
    assert.equal(response.headers()['content-security-policy'], EXPECTED_POLICY, response.url());
  }
  await page.close();
});

test('security: formulas are typeset by KaTeX in every view under the policy (sizes applied, no violation)', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  for (const [view, lists] of [
    ['lab', ['lab-formulas', 'lab-scaling-formulas', 'lab-mask-formulas']],
    ['studio', ['explain-formulas']],
    ['seq2seq', ['s2s-formulas']],
    ['transformer', ['tf-formulas', 'tf-pe-formulas']],
  ]) {
    await page.goto(`${env.baseUrl}#/${view}`);
    await page.waitForSelector(`[data-testid="view-${view}"]:not([hidden])`);
    for (const id of lists) {
      const list = page.locator(`[data-testid="${id}"]`);
      await list.locator('.katex').first().waitFor();
      // Every formula has its KaTeX layout and its MathML for screen readers, and KaTeX's own sizes
      // (set through the CSSOM, which the policy allows) took effect: each line's strut has a height.
      const shape = await list.evaluate((node) => ({
        formulas: node.querySelectorAll('dd').length,
        typeset: node.querySelectorAll('dd .katex-html').length,
        mathml: node.querySelectorAll('dd .katex-mathml math').length,
        sized: [...node.querySelectorAll('.katex-html [class$="strut"]')].filter((s) => s.style.height !== '').length,
        fontLoaded: getComputedStyle(node.querySelector('.katex')).fontFamily.includes('KaTeX_Main'),
      }));
      assert.ok(shape.formulas >= 1, `${id} has formulas`);
      assert.equal(shape.typeset, shape.formulas, `${id}: every formula typeset`);
      assert.equal(shape.mathml, shape.formulas, `${id}: every formula has MathML`);
      assert.ok(shape.sized >= shape.formulas, `${id}: KaTeX sizes applied (${shape.sized} struts with a height)`);
      assert.ok(shape.fontLoaded, `${id}: KaTeX fonts in use`);
    }
  }
  // The Lab's score formula follows the scoring function.
  await page.goto(`${env.baseUrl}#/lab`);
  await page.selectOption('#lab-kind', 'additive');
  await page.waitForFunction(() =>
    /tanh/.test(document.querySelector('#lab-formula .katex-mathml')?.textContent ?? ''),
  );
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('security: the policy is enforced (string code and inline styles are refused and reported)', async () => {
  const { page, problems } = await openPage(env);
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 20000 });
  // Code evaluated by the test driver itself is exempt from CSP (DevTools may always evaluate),
  // so the probes make the PAGE compile strings: a timer with a string body and an inline
  // event handler, both forbidden by script-src without 'unsafe-eval' / 'unsafe-inline'.
  const outcome = await page.evaluate(async () => {
    setTimeout('window.__stringTimerRan = true', 0);
    document.body.setAttribute('onclick', 'window.__inlineHandlerRan = true');
    document.body.click();
    const style = document.createElement('style');
    style.textContent = 'body { background: rgb(255, 0, 0); }';
    document.head.append(style);
    // Timers with the same delay run in the order they were set: had the string timer been
    // allowed, it would have run before this one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return {
      stringTimerRan: window.__stringTimerRan ?? false,
      inlineHandlerRan: window.__inlineHandlerRan ?? false,
      inlineStyleApplied: getComputedStyle(document.body).backgroundColor === 'rgb(255, 0, 0)',
    };
  });
  assert.deepEqual(outcome, { stringTimerRan: false, inlineHandlerRan: false, inlineStyleApplied: false });
  await page.waitForFunction(() => window.__cspViolations.length >= 3);
  const violations = await page.evaluate(() => window.__cspViolations);
  assert.ok(violations.filter((v) => v.startsWith('script-src')).length >= 2, violations.join('\n'));
  assert.ok(
    violations.some((v) => v.startsWith('style-src')),
    violations.join('\n'),
  );
  // The console reports the refusals; nothing else went wrong.
  assert.ok(
    problems.every((p) => /Content Security Policy/.test(p)),
    problems.join('\n'),
  );
  await page.close();
});

test('security: labels from data are rendered as text by the heatmap (no markup, no handler runs)', async () => {
  // No view shows review text yet, so the check is on the render helper every view uses for
  // labels (tokens, words), loaded from source through the dev server.
  const server = await createServer({
    configFile: path.join(root, 'web/vite.config.ts'),
    server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false, watch: null },
    logLevel: 'silent',
  });
  await server.listen();
  const { port } = server.httpServer.address();
  const page = await env.context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${port}/`);
    const hostile = '<img src=x onerror="window.__xss = 1">';
    const result = await page.evaluate(async (label) => {
      const { createHeatmap } = await import('/src/views/heatmap.ts');
      const map = createHeatmap(label, 'xss-probe');
      document.body.append(map.element);
      map.update({ values: [0.25, 0.75], rows: 1, cols: 2, rowLabels: [label], colLabels: [label, 'ok'] });
      // Had the label been parsed as markup, its <img> would be in the map now; the error event of
      // an image with a bad source fires once its load fails, after the page's next frame.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return {
        images: map.element.querySelectorAll('img').length,
        rowHeader: map.element.querySelector('tbody th').textContent,
        colHeader: map.element.querySelector('thead th[scope="col"]').textContent,
        caption: map.element.querySelector('figcaption').textContent,
        xss: window.__xss ?? null,
      };
    }, hostile);
    assert.deepEqual(result, { images: 0, rowHeader: hostile, colHeader: hostile, caption: hostile, xss: null });
  } finally {
    await page.close();
    await server.close();
  }
});
