import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { FilterGroup } from './filter-group';
import { parseFilterJson, type Filter, type NodeErrors } from './filter-model';
import { useFilterFields } from './use-filter-fields';

const tab =
  'rounded-md px-3 py-1.5 text-sm text-muted data-[state=active]:bg-panel data-[state=active]:font-medium data-[state=active]:text-fg data-[state=active]:shadow-sm';

/**
 * The filter language edited two ways: a builder, and its JSON. Both edit one filter; the JSON
 * goes back to the builder when it parses to a filter's shape (the API checks the rest).
 */
export function FilterEditor({
  value,
  onChange,
  errors,
  excludeSegmentId,
}: {
  value: Filter;
  onChange: (next: Filter) => void;
  errors: NodeErrors;
  excludeSegmentId?: string;
}) {
  const { options } = useFilterFields({ excludeSegmentId });
  const [mode, setMode] = useState<'builder' | 'json'>('builder');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();

  const switchTo = (next: string) => {
    if (next === 'json') {
      setText(JSON.stringify(value, null, 2));
      setProblem(undefined);
      setMode('json');
      return;
    }
    const parsed = parseFilterJson(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    onChange(parsed.filter);
    setMode('builder');
  };

  return (
    <Tabs.Root value={mode} onValueChange={switchTo}>
      <Tabs.List
        aria-label="Filter view"
        className="mb-3 inline-flex gap-1 rounded-lg bg-surface p-1"
      >
        <Tabs.Trigger value="builder" className={tab}>
          Builder
        </Tabs.Trigger>
        <Tabs.Trigger value="json" className={tab}>
          JSON
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="builder" className="outline-none">
        <FilterGroup
          group={value}
          path={[]}
          options={options}
          errors={errors}
          onChange={onChange}
        />
      </Tabs.Content>
      <Tabs.Content value="json" className="flex flex-col gap-2 outline-none">
        <label htmlFor="filter-json" className="text-sm font-medium">
          Filter as JSON
        </label>
        <textarea
          id="filter-json"
          value={text}
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'filter-json-problem' : 'filter-json-hint'}
          onChange={(e) => {
            setText(e.target.value);
            const parsed = parseFilterJson(e.target.value);
            setProblem('problem' in parsed ? parsed.problem : undefined);
            if ('filter' in parsed) onChange(parsed.filter);
          }}
          className="min-h-72 rounded-md border border-line bg-panel p-3 font-mono text-xs text-fg aria-invalid:border-danger"
        />
        {problem ? (
          <p id="filter-json-problem" role="alert" className="text-xs text-danger">
            {problem}
          </p>
        ) : (
          <p id="filter-json-hint" className="text-xs text-muted">
            The same filter as the builder: edits here show there. The language is in docs/api.md.
          </p>
        )}
        {errors.size > 0 ? (
          <ul className="text-xs text-danger">
            {[...errors.entries()].flatMap(([path, messages]) =>
              messages.map((m) => (
                <li key={`${path}:${m}`}>
                  {path === ''
                    ? 'Filter'
                    : `Condition ${path
                        .split('.')
                        .map((n) => Number(n) + 1)
                        .join('.')}`}
                  : {m}
                </li>
              )),
            )}
          </ul>
        ) : null}
      </Tabs.Content>
    </Tabs.Root>
  );
}
