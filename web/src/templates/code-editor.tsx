import { html } from '@codemirror/lang-html';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { basicSetup, EditorView } from 'codemirror';
import { useEffect, useLayoutEffect, useRef } from 'react';

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--color-panel)', color: 'var(--color-fg)', fontSize: '13px' },
  '.cm-gutters': {
    backgroundColor: 'var(--color-surface)',
    color: 'var(--color-muted)',
    borderColor: 'var(--color-line)',
  },
  '.cm-activeLine, .cm-activeLineGutter': {
    backgroundColor: 'color-mix(in srgb, var(--color-accent) 8%, transparent)',
  },
  '.cm-content': { caretColor: 'var(--color-fg)' },
  '.cm-scroller': { minHeight: '18rem', maxHeight: '32rem' },
});

// Colours from the theme, each readable on the panel in light and dark (axe checks contrast).
const highlight = HighlightStyle.define([
  { tag: [tags.tagName, tags.angleBracket, tags.keyword], color: 'var(--color-code-tag)' },
  { tag: [tags.attributeName, tags.propertyName], color: 'var(--color-code-attr)' },
  { tag: [tags.string, tags.attributeValue], color: 'var(--color-code-string)' },
  { tag: tags.comment, color: 'var(--color-code-comment)', fontStyle: 'italic' },
  { tag: [tags.invalid], color: 'var(--color-danger)' },
]);

/** CodeMirror 6 with HTML; uncontrolled after mount (the parent hears every change). */
export function CodeEditor({
  value,
  onChange,
  label,
  focusWith,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** Focus on mount with this selection (taking over from the plain field the user was in). */
  focusWith?: { anchor: number; head: number };
}) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);
  const initial = useRef(value);
  const takeOver = useRef(focusWith);

  // Before paint, in the commit that mounts it: a key pressed as it replaces a plain field
  // lands in the editor, not on the page.
  useLayoutEffect(() => {
    const view = new EditorView({
      doc: initial.current,
      parent: host.current as HTMLDivElement,
      extensions: [
        basicSetup,
        html(),
        syntaxHighlighting(highlight),
        theme,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed.current(update.state.doc.toString());
        }),
      ],
    });
    const selection = takeOver.current;
    if (selection) {
      const end = view.state.doc.length;
      view.dispatch({
        selection: { anchor: Math.min(selection.anchor, end), head: Math.min(selection.head, end) },
      });
      view.focus();
    }
    return () => view.destroy();
  }, [label]);

  return <div ref={host} className="overflow-hidden rounded-md border border-line" />;
}
