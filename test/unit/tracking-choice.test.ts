import { describe, expect, it } from 'vitest';
import {
  mergeProjectSettings,
  projectSettings,
} from '../../domain/projects/project-settings.pure.js';
import { trackedRate } from '../../domain/tracking/tracking-choice.pure.js';

describe('a campaign rate that may not have been tracked', () => {
  it('is null only when the campaign has emails and none tracked it', () => {
    expect(trackedRate({ part: 0, trackedSent: 0, tracked: 0, emails: 3 })).toBeNull();
    // Nothing queued yet: 0, as before any send.
    expect(trackedRate({ part: 0, trackedSent: 0, tracked: 0, emails: 0 })).toBe(0);
    // Tracked but none sent yet.
    expect(trackedRate({ part: 0, trackedSent: 0, tracked: 2, emails: 2 })).toBe(0);
    // A fraction of the sent emails that tracked it, not of every sent email.
    expect(trackedRate({ part: 1, trackedSent: 3, tracked: 3, emails: 6 })).toBe(0.3333);
  });
});

describe("a project's tracking settings", () => {
  it('default to both on and change only the kinds a change names', () => {
    expect(projectSettings({}).tracking).toEqual({ opens: true, clicks: true });
    const opensOff = mergeProjectSettings({}, { tracking: { opens: false } });
    expect(projectSettings(opensOff).tracking).toEqual({ opens: false, clicks: true });
    const bothOff = mergeProjectSettings(opensOff, { tracking: { clicks: false } });
    expect(projectSettings(bothOff).tracking).toEqual({ opens: false, clicks: false });
    expect(mergeProjectSettings(bothOff, {})).toEqual(bothOff);
  });
});
