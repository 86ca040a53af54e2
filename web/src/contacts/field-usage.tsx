import { ErrorState, Loading } from '../components/states';
import type { FieldUsage } from './field-queries';
import { useFieldUsage } from './field-queries';

export const usageCount = (usage: FieldUsage): number =>
  usage.segments.length + usage.campaigns.length + usage.workflows.length;

function UsageGroup({ title, items }: { title: string; items: { id: string; label: string }[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h3 className="text-xs font-medium tracking-wide text-muted uppercase">{title}</h3>
      <ul className="mt-1 list-disc pl-5">
        {items.map((item) => (
          <li key={item.id}>{item.label}</li>
        ))}
      </ul>
    </div>
  );
}

/** Where a custom field is used: segments, campaigns (with status), workflows (on or off). */
export function FieldUsageList({ field }: { field: string }) {
  const usage = useFieldUsage(field);
  if (usage.isPending) return <Loading label="Looking for where it is used" />;
  if (usage.isError) return <ErrorState error={usage.error} />;
  const u = usage.data;
  if (usageCount(u) === 0) {
    return <p className="text-sm text-muted">No segment, campaign or workflow uses it.</p>;
  }
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="field-usage">
      <UsageGroup title="Segments" items={u.segments.map((s) => ({ id: s.id, label: s.name }))} />
      <UsageGroup
        title="Campaigns"
        items={u.campaigns.map((c) => ({
          id: c.id,
          label: `${c.name} (${c.status.toLowerCase()})`,
        }))}
      />
      <UsageGroup
        title="Workflows"
        items={u.workflows.map((w) => ({
          id: w.id,
          label: `${w.name} (${w.enabled ? 'enabled' : 'disabled'})`,
        }))}
      />
    </div>
  );
}
