// The links between the course and the views (web/src/app/course_links.ts): every lesson a view
// names as its explanation exists under that title and links back to the view; every link in a
// lesson goes to a view of the app. The links as drawn and followed are checked in Chromium
// (tests/e2e/course.test.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let links;
let LESSONS;
let NAV_VIEWS;

before(async () => {
  loaded = await loadWebModules('/src/app/course_links.ts', '/src/course/lessons/index.ts', '/src/app/nav.ts');
  [links, { LESSONS }, { NAV_VIEWS }] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

const htmlOf = (lesson) =>
  lesson.blocks
    .filter((b) => 'html' in b)
    .map((b) => b.html)
    .join('\n');
const viewsLinkedFrom = (lesson) =>
  new Set([...htmlOf(lesson).matchAll(/<a class="view-link" href="\.\/index\.html#\/([a-z0-9-]+)"/g)].map((m) => m[1]));

test('course links: each view names lessons that exist, under their titles, and that link back to it', () => {
  assert.deepEqual(
    Object.keys(links.VIEW_LESSONS).sort(),
    [...NAV_VIEWS].sort(),
    'every view of the nav has its lessons',
  );
  for (const [view, named] of Object.entries(links.VIEW_LESSONS)) {
    assert.ok(named.length >= 1, view);
    for (const { number, title } of named) {
      const lesson = LESSONS.find((l) => l.number === number);
      assert.ok(lesson, `${view}: lesson ${number} exists`);
      assert.equal(title, lesson.title, `${view}: lesson ${number}'s title`);
      assert.ok(viewsLinkedFrom(lesson).has(view), `lesson ${number} links to ${view}`);
    }
  }
});

test('course links: lessons link only to views the app has, and every view is linked from some lesson', () => {
  const linked = new Set();
  for (const lesson of LESSONS) {
    for (const view of viewsLinkedFrom(lesson)) {
      assert.ok(NAV_VIEWS.includes(view), `lesson ${lesson.number} links to an unknown view '${view}'`);
      linked.add(view);
    }
  }
  assert.deepEqual([...linked].sort(), [...NAV_VIEWS].sort());
  assert.equal(links.viewHref('studio'), './index.html#/studio');
  assert.equal(links.lessonHref(10), './course.html#lesson-10');
});
