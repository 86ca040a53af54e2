import { Handle, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { createContext, useContext, useEffect } from 'react';
import type { StepNode, TriggerNode } from './graph-layout';
import { STEP_LABELS, stepSummary } from './step-summary';
import type { StepCounts } from './workflow-queries';

/** What the canvas draws on its nodes besides the steps: counts, problems, template names. */
export interface CanvasInfo {
  counts?: ReadonlyMap<string, StepCounts>;
  problems: ReadonlyMap<string, string[]>;
  templateNames: ReadonlyMap<string, string>;
  /** An execution's view: the steps it visited, and where it is or ended. */
  visited?: ReadonlySet<string>;
  /** The transitions it took (`trigger` for the trigger's edge). */
  taken?: ReadonlySet<string>;
  current?: string | null;
}
export const CanvasContext = createContext<CanvasInfo>({
  problems: new Map(),
  templateNames: new Map(),
});

const handleClass = '!size-3 !border-2 !border-panel !bg-accent';

export function StepNodeView({ id, data: { step, handles }, selected }: NodeProps<StepNode>) {
  const info = useContext(CanvasContext);
  // The handles move when their order follows new links: React Flow measures them again.
  const updateInternals = useUpdateNodeInternals();
  const order = handles.join(',');
  useEffect(() => updateInternals(id), [id, order, updateInternals]);
  const problems = info.problems.get(step.id);
  const counts = info.counts?.get(step.id);
  const visited = info.visited?.has(step.id);
  const current = info.current === step.id;
  const label = step.name || STEP_LABELS[step.type];
  return (
    <div
      role="group"
      aria-label={`Step ${label}`}
      data-visited={visited || undefined}
      data-current={current || undefined}
      className={`w-60 rounded-lg border-2 bg-panel px-3 py-2 text-left text-fg shadow-sm ${
        problems ? 'border-danger' : selected ? 'border-accent' : 'border-line'
      } ${info.visited && !visited ? 'opacity-45' : ''} ${current ? 'ring-4 ring-accent/40' : ''} ${visited ? 'bg-accent/10' : ''}`}
    >
      <Handle type="target" position={Position.Top} className={handleClass} />
      <p className="text-[11px] font-semibold tracking-wide text-muted uppercase">
        {STEP_LABELS[step.type]}
      </p>
      <p className="truncate text-sm font-medium">{label}</p>
      <p className="truncate text-xs text-muted">
        {stepSummary(step, info.templateNames.get(String(step.config.templateId)))}
      </p>
      {counts ? (
        <p className="mt-1 flex gap-2 text-[11px] text-muted" data-testid="step-counts">
          <span title="Executions that passed this step">✓ {counts.passed} passed</span>
          {counts.here > 0 ? <span title="At this step now">⏳ {counts.here} here</span> : null}
          {counts.exited > 0 ? <span>⏹ {counts.exited} exited</span> : null}
          {counts.failed > 0 ? <span className="text-danger">✕ {counts.failed} failed</span> : null}
        </p>
      ) : null}
      {problems ? (
        <ul className="mt-1 text-[11px] text-danger">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {handles.map((branch, i) => (
        <Handle
          key={branch ?? 'next'}
          id={branch ?? undefined}
          type="source"
          position={Position.Bottom}
          title={branch ? `${branch} branch of ${label}` : `Next after ${label}`}
          style={
            handles.length > 1 ? { left: `${((i + 1) * 100) / (handles.length + 1)}%` } : undefined
          }
          className={handleClass}
        >
          {branch ? (
            <span className="pointer-events-none absolute top-3 left-1/2 -translate-x-1/2 rounded bg-surface px-1 text-[10px] font-medium text-fg">
              {branch}
            </span>
          ) : null}
        </Handle>
      ))}
    </div>
  );
}

export function TriggerNodeView({ data }: NodeProps<TriggerNode>) {
  return (
    <div
      role="group"
      aria-label="Trigger"
      className="w-60 rounded-lg border-2 border-accent bg-accent/10 px-3 py-2 text-fg"
    >
      <p className="text-[11px] font-semibold tracking-wide text-muted uppercase">Trigger</p>
      <p className="truncate text-sm font-medium">{data.label}</p>
      <Handle
        type="source"
        position={Position.Bottom}
        className={handleClass}
        isConnectable={false}
      />
    </div>
  );
}

export const NODE_TYPES = { step: StepNodeView, trigger: TriggerNodeView };
