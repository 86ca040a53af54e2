import { DEFAULT_TRACKING, type TrackingChoice } from '../tracking/tracking-choice.pure.js';

/** A project's own switches, stored as JSON on the project; absent keys take the defaults. */
export interface ProjectSettings {
  /** Open and click tracking for the project's mail, unless a send, campaign or template says. */
  tracking?: Partial<TrackingChoice>;
}

export const DEFAULT_PROJECT_SETTINGS: Required<ProjectSettings> = { tracking: DEFAULT_TRACKING };

export function projectSettings(
  stored: ProjectSettings | null | undefined,
): { tracking: TrackingChoice } & Required<ProjectSettings> {
  return {
    ...DEFAULT_PROJECT_SETTINGS,
    ...stored,
    tracking: { ...DEFAULT_TRACKING, ...stored?.tracking },
  };
}

/** A change of settings laid over the stored ones; a nested object changes only what it names. */
export function mergeProjectSettings(
  stored: ProjectSettings | null | undefined,
  change: ProjectSettings,
): ProjectSettings {
  return {
    ...stored,
    ...change,
    ...(change.tracking ? { tracking: { ...stored?.tracking, ...change.tracking } } : {}),
  };
}
