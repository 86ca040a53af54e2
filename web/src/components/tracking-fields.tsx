import type { UseFormRegisterReturn } from 'react-hook-form';
import { Select } from './select';

// A campaign's or a template's own open and click tracking: tracked, not tracked, or the default
// (left to the next level: the template's, then the project's setting).

export const TRACKING_OPTIONS = ['default', 'on', 'off'] as const;
export type TrackingOption = (typeof TRACKING_OPTIONS)[number];
type Kind = 'opens' | 'clicks';

export const toTrackingOption = (setting: boolean | null | undefined): TrackingOption =>
  setting === true ? 'on' : setting === false ? 'off' : 'default';

export const fromTrackingOption = (option: TrackingOption): boolean | null =>
  option === 'on' ? true : option === 'off' ? false : null;

const word = (tracked: boolean) => (tracked ? 'tracked' : 'not tracked');

/**
 * The two selects, each with the default's current value when it is known (`inherited`) and
 * what decides it (`inheritedFrom`, words such as "the project's setting"). Inside a card titled
 * "Tracking", `legendHidden` leaves the legend to assistive technology.
 */
export function TrackingFields({
  opens,
  clicks,
  inherited,
  inheritedFrom,
  legendHidden = false,
}: {
  opens: UseFormRegisterReturn;
  clicks: UseFormRegisterReturn;
  inherited: Record<Kind, boolean> | undefined;
  inheritedFrom: string;
  legendHidden?: boolean;
}) {
  const options = (kind: Kind) => [
    { value: 'default', label: inherited ? `Default (${word(inherited[kind])})` : 'Default' },
    { value: 'on', label: 'Tracked' },
    { value: 'off', label: 'Not tracked' },
  ];
  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className={legendHidden ? 'sr-only' : 'mb-3 text-sm font-semibold'}>Tracking</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Select label="Open tracking" options={options('opens')} {...opens} />
        <Select label="Click tracking" options={options('clicks')} {...clicks} />
      </div>
      <p className="text-xs text-muted">
        Opens are counted with a 1×1 image, clicks by sending links through a redirect. Not tracked:
        no image, every link left as written. Default follows {inheritedFrom}.
      </p>
    </fieldset>
  );
}
