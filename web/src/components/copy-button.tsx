import { useState } from 'react';
import { Button } from './button';

export function CopyButton({
  value,
  label = 'Copy',
  className = '',
}: {
  value: string;
  label?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      className={`min-h-7 px-2 py-0.5 text-xs ${className}`}
      aria-label={`${label}: ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
