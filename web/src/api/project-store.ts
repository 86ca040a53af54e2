// The project the dashboard works in: kept per browser, read by the API client for X-Project-Id.
const KEY = 'mailwright.project';
let projectId: string | null = localStorage.getItem(KEY);
const listeners = new Set<() => void>();

export const currentProjectId = (): string | null => projectId;

export function selectProject(id: string | null): void {
  projectId = id;
  if (id) localStorage.setItem(KEY, id);
  else localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function subscribeProject(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
