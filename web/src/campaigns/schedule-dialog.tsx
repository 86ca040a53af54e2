import { useState } from 'react';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { Input } from '../components/input';

/** `YYYY-MM-DDTHH:MM:SS` in the browser's zone, as a datetime-local input shows it. */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A date and time in the user's zone, shown back in UTC, for a scheduled send. */
export function ScheduleDialog({
  open,
  onOpenChange,
  busy,
  error,
  onSchedule,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  error?: string;
  onSchedule: (at: Date) => void;
}) {
  const [value, setValue] = useState(() => localInputValue(new Date(Date.now() + 3_600_000)));
  const at = value ? new Date(value) : undefined;
  const valid = at !== undefined && !Number.isNaN(at.getTime());
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Schedule the send"
      description="The send waits durably for this time: a restart does not lose it."
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onSchedule(at);
        }}
      >
        <Input
          label={`Send at (${ZONE})`}
          type="datetime-local"
          step={1}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={error}
          hint={
            valid ? (
              <span data-testid="schedule-utc">{at.toISOString().replace('.000Z', 'Z')} UTC</span>
            ) : undefined
          }
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={busy} disabled={!valid}>
            Schedule
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
