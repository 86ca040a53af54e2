import { useEffect, useRef, type ChangeEventHandler } from 'react';

/**
 * A checkbox named by `label` for assistive technology (no visible text), with a third,
 * "some selected" state that browsers announce as mixed.
 */
export function Checkbox({
  label,
  checked,
  indeterminate = false,
  onChange,
}: {
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  onChange: ChangeEventHandler<HTMLInputElement>;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate && !checked;
  }, [indeterminate, checked]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={onChange}
      className="size-4 cursor-pointer align-middle accent-accent"
    />
  );
}
