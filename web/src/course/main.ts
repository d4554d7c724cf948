// Boots the course page: starts the engine worker, then shows the course map (#map) or a lesson
// (#lesson-N) according to the URL hash.
import { applyStoredTheme, themeToggle } from '../app/theme';
import { startEngine } from '../app/engine_status';
import { registerOfflineSupport } from '../app/offline';
import { mountSharedHeader } from '../app/nav';
import { createCourseMap, createLessonPage } from './course_page';
import type { EngineCall } from './exercises/types';
import { LESSONS } from './lessons';
import { ProgressStore } from './progress';

// The theme chosen in the playground (or here) applies to the course too.
applyStoredTheme();
registerOfflineSupport();
const header = document.querySelector<HTMLElement>('.app-header')!;
mountSharedHeader(header, 'course');
header.append(themeToggle());

const status = document.querySelector<HTMLElement>('[data-testid="engine-status"]')!;
const app = document.querySelector<HTMLElement>('#app')!;

const engine = startEngine(status);
const call: EngineCall = (method, ...args) => engine.call(method, ...args);
const progress = new ProgressStore();

let disposeMap = () => {};

function route(): void {
  const match = /^#lesson-(\d+)$/.exec(location.hash);
  const lesson = match ? LESSONS.find((l) => l.number === Number(match[1])) : undefined;
  disposeMap();
  disposeMap = () => {};
  if (lesson) {
    app.replaceChildren(createLessonPage(lesson, call, progress, engine));
  } else {
    const map = createCourseMap(progress);
    disposeMap = map.dispose;
    app.replaceChildren(map.element);
  }
  document.title = lesson ? `${lesson.number}. ${lesson.title} — Attention course` : 'Attention Playground — Course';
  window.scrollTo(0, 0);
}

window.addEventListener('hashchange', route);
route();
