// Syntax colours for the exercise editor that follow the page's theme: each token kind takes a CSS
// custom property (--code-*, defined for light and dark in course/styles/exercise.css), so
// switching the theme recolours the code without rebuilding the editor, and every colour keeps a
// 4.5:1 contrast on the editor's background in both themes (axe-core checks it on a lesson).
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

const style = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--code-keyword)' },
  { tag: [tags.atom, tags.bool, tags.null, tags.labelName], color: 'var(--code-atom)' },
  { tag: [tags.number, tags.literal], color: 'var(--code-number)' },
  { tag: [tags.string, tags.regexp, tags.escape, tags.special(tags.string)], color: 'var(--code-string)' },
  { tag: tags.comment, color: 'var(--code-comment)', fontStyle: 'italic' },
  {
    tag: [tags.definition(tags.variableName), tags.function(tags.definition(tags.variableName))],
    color: 'var(--code-definition)',
  },
  { tag: [tags.local(tags.variableName), tags.special(tags.variableName)], color: 'var(--code-local)' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: 'var(--code-type)' },
  { tag: tags.definition(tags.propertyName), color: 'var(--code-definition)' },
  { tag: tags.invalid, color: 'var(--error)' },
]);

/** The editor extension (it replaces basicSetup's fallback light-only colours). */
export const themedHighlighting = syntaxHighlighting(style);
