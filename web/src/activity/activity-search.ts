import { useNavigate, useSearch } from '@tanstack/react-router';

/** The feed's filters as the URL keeps them: `?type=opened&contact=a@b.c&campaign=<id>`. */
export interface ActivityFilters {
  type: string;
  contact: string;
  campaign: string;
}

// The router parses search values as JSON where they are (`?contact=42` is a number).
const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

export function useActivityFilters(): {
  filters: ActivityFilters;
  setFilters: (next: Partial<ActivityFilters>) => void;
} {
  const search: Record<string, unknown> = useSearch({ from: '/app/activity' });
  const navigate = useNavigate();
  const filters: ActivityFilters = {
    type: text(search.type),
    contact: text(search.contact),
    campaign: text(search.campaign),
  };
  const setFilters = (next: Partial<ActivityFilters>): void => {
    const merged = { ...filters, ...next };
    const kept = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== ''));
    void navigate({ to: '/activity', search: kept, replace: true });
  };
  return { filters, setFilters };
}
