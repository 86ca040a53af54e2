import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { CodeEditor as CodeEditorType } from './code-editor';

const plain =
  'min-h-64 w-full rounded-md border border-line bg-panel p-3 font-mono text-[13px] leading-relaxed text-fg';

/**
 * A template body: a plain text field until the user first focuses it, then CodeMirror (most of
 * the page's code, so the page paints and answers without it). The editor replaces the field in
 * the same commit (no loading state between them) and takes over its text and selection, so
 * nothing typed meanwhile is lost.
 */
export function CodeField({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
}) {
  const [rich, setRich] = useState<{
    Editor: typeof CodeEditorType;
    selection: { anchor: number; head: number };
  }>();
  const field = useRef<HTMLTextAreaElement>(null);
  const upgrade = () => {
    void import('./code-editor').then(({ CodeEditor }) => {
      const el = field.current;
      // Read and replaced in one task: no key lands in the field between the two.
      flushSync(() =>
        setRich({
          Editor: CodeEditor,
          selection: { anchor: el?.selectionStart ?? 0, head: el?.selectionEnd ?? 0 },
        }),
      );
    });
  };
  if (rich) {
    const { Editor } = rich;
    return <Editor label={label} value={value} onChange={onChange} focusWith={rich.selection} />;
  }
  return (
    <textarea
      ref={field}
      aria-label={label}
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onFocus={upgrade}
      className={plain}
    />
  );
}
