/** A project's own switches, stored as JSON on the project; absent keys take the defaults. */
export interface ProjectSettings {
  trackingEnabled?: boolean;
}

export const DEFAULT_PROJECT_SETTINGS: Required<ProjectSettings> = { trackingEnabled: true };

export function projectSettings(
  stored: ProjectSettings | null | undefined,
): Required<ProjectSettings> {
  return { ...DEFAULT_PROJECT_SETTINGS, ...stored };
}
