// The page of a view that this build does not have yet: what it will do, and where to go now.
import type { ViewInstance } from './types';

export function placeholderView(
  id: string,
  title: string,
  summary: string,
  plans: string[],
  badgeText = 'Coming in this build',
): ViewInstance {
  const element = document.createElement('section');
  element.className = 'placeholder';
  element.dataset.testid = `view-${id}`;
  const heading = document.createElement('h2');
  heading.textContent = title;
  heading.tabIndex = -1;
  const badge = document.createElement('p');
  badge.className = 'badge';
  badge.textContent = badgeText;
  const intro = document.createElement('p');
  intro.className = 'intro';
  intro.textContent = summary;
  const list = document.createElement('ul');
  for (const plan of plans) {
    const item = document.createElement('li');
    item.textContent = plan;
    list.append(item);
  }
  const next = document.createElement('p');
  next.append('Meanwhile, the ');
  const lab = document.createElement('a');
  lab.href = '#/lab';
  lab.textContent = 'Attention Lab';
  const course = document.createElement('a');
  course.href = './course.html';
  course.textContent = 'course';
  next.append(lab, ' and the ', course, ' work today.');
  element.append(heading, badge, intro, list, next);
  return { element, show() {} };
}
