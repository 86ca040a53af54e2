/** A native <progress> (announced with its value) drawn in the theme's accent colour. */
export function ProgressBar({ label, max, value }: { label: string; max: number; value: number }) {
  return (
    <progress
      aria-label={label}
      max={max}
      value={value}
      className="h-2 w-full appearance-none overflow-hidden rounded-full bg-line [&::-moz-progress-bar]:bg-accent [&::-webkit-progress-bar]:bg-line [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-accent [&::-webkit-progress-value]:transition-all"
    />
  );
}
