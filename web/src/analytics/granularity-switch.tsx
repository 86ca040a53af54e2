import { GRANULARITIES, type Granularity } from './analytics-search';

/** Hour, day or week buckets, as a group of radio buttons that looks like a segmented control. */
export function GranularitySwitch({
  value,
  onChange,
}: {
  value: Granularity;
  onChange: (value: Granularity) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1 p-0 text-sm font-medium">Granularity</legend>
      <div className="flex min-h-9 rounded-md border border-line bg-panel p-0.5">
        {GRANULARITIES.map((g) => (
          <label
            key={g.value}
            className="flex cursor-pointer items-center rounded px-3 text-sm has-checked:bg-accent has-checked:text-accent-fg has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent"
          >
            <input
              type="radio"
              name="granularity"
              value={g.value}
              checked={value === g.value}
              onChange={() => onChange(g.value)}
              className="sr-only"
            />
            {g.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
