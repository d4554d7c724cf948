// Where a learner's code stops parsing, and the marker the editor draws there. The sandbox's
// `new Function` reports a SyntaxError without a position (V8 gives none for it), so the page
// finds the place itself with the JavaScript parser CodeMirror already uses for highlighting
// (@lezer/javascript): its first error node is where the parse broke off. The editor then marks
// that line (a line class and a gutter marker) and the token, and says "line L, column C" in
// the feedback; the marker goes away at the learner's next edit.
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { RangeSet, StateEffect, StateField, type Extension, type Text } from '@codemirror/state';
import { Decoration, EditorView, GutterMarker, gutter, type DecorationSet } from '@codemirror/view';

export interface SyntaxErrorPlace {
  /** Offsets into the code of the token where parsing broke off (to > from, within the code). */
  from: number;
  to: number;
  /** 1-based line and column of `from`. */
  line: number;
  column: number;
}

/** The first place where `code` fails to parse as JavaScript, or null when it parses. */
export function findSyntaxError(code: string): SyntaxErrorPlace | null {
  const tree = javascriptLanguage.parser.parse(code);
  let from = -1;
  let to = -1;
  tree.iterate({
    enter(node) {
      if (from >= 0) return false;
      if (node.type.isError) {
        from = node.from;
        to = node.to;
        return false;
      }
      return undefined;
    },
  });
  if (from < 0) return null;
  // An error node can be empty (a missing token): mark the character there, or the one before at
  // the end of the code, so that something is drawn.
  if (to <= from) {
    if (from >= code.length) from = Math.max(0, code.length - 1);
    to = Math.min(code.length, from + 1);
  }
  const before = code.slice(0, from);
  const line = before.split('\n').length;
  const column = from - before.lastIndexOf('\n');
  return { from, to, line, column };
}

const setError = StateEffect.define<SyntaxErrorPlace | null>();

class ErrorGutterMarker extends GutterMarker {
  override toDOM(): Node {
    const mark = document.createElement('span');
    mark.className = 'cm-syntax-error-marker';
    mark.textContent = '✗';
    mark.title = 'The code stops parsing on this line';
    return mark;
  }
}
const gutterMarker = new ErrorGutterMarker();

function decorationsFor(place: SyntaxErrorPlace | null, doc: Text): DecorationSet {
  if (!place || place.from > doc.length) return Decoration.none;
  const line = doc.lineAt(place.from);
  const to = Math.min(Math.max(place.to, place.from + 1), doc.length);
  const ranges = [Decoration.line({ class: 'cm-syntax-error-line' }).range(line.from)];
  if (to > place.from) ranges.push(Decoration.mark({ class: 'cm-syntax-error' }).range(place.from, to));
  return Decoration.set(ranges, true);
}

const errorField = StateField.define<{ place: SyntaxErrorPlace | null; decorations: DecorationSet }>({
  create: () => ({ place: null, decorations: Decoration.none }),
  update(value, transaction) {
    for (const effect of transaction.effects) {
      if (effect.is(setError))
        return { place: effect.value, decorations: decorationsFor(effect.value, transaction.state.doc) };
    }
    // The learner edits: the marker described the code as it was, so it goes.
    return transaction.docChanged ? { place: null, decorations: Decoration.none } : value;
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations),
});

/** The editor extension: the error's line, token and gutter marker. */
export function syntaxErrorMarker(): Extension {
  return [
    errorField,
    gutter({
      class: 'cm-syntax-error-gutter',
      markers: (view) => {
        const place = view.state.field(errorField).place;
        if (!place || place.from > view.state.doc.length) return RangeSet.empty;
        return RangeSet.of([gutterMarker.range(view.state.doc.lineAt(place.from).from)]);
      },
    }),
  ];
}

/** Marks `place` in the editor (null clears the marker). */
export function showSyntaxError(view: EditorView, place: SyntaxErrorPlace | null): void {
  view.dispatch({ effects: setError.of(place) });
}
