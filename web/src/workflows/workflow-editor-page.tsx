import { Link, useParams } from '@tanstack/react-router';
import type { Connection } from '@xyflow/react';
import { useMemo, useState } from 'react';
import type { WorkflowGraph } from '../../../domain/automation/step-config.pure';
import {
  STEP_TYPES,
  type StepType,
  type TransitionBranch,
} from '../../../domain/automation/step-type.pure';
import { transitionProblem } from '../../../domain/automation/graph.pure';
import { ApiError } from '../api/client';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { DuplicateWorkflowButton } from './duplicate-workflow-button';
import { INSERTABLE_TYPES, TRIGGER_ID } from './graph-layout';
import { StepPanel } from './step-panel';
import { STEP_LABELS } from './step-summary';
import { TriggerPanel, triggerLabel } from './trigger-panel';
import { useWorkflowEdits } from './use-workflow-edits';
import { WorkflowCanvas } from './workflow-canvas';
import { useStepCounts, useTemplateNames, useWorkflow, type Workflow } from './workflow-queries';

/** The graph as the pure rules read it (the same checks the API makes). */
export const graphOf = (w: Workflow): WorkflowGraph =>
  ({
    steps: w.steps.map((s) => ({ id: s.id, type: s.type, name: s.name, config: s.config })),
    transitions: w.transitions.map((t) => ({
      id: t.id,
      from: t.fromStepId,
      to: t.toStepId,
      branch: t.branch,
    })),
  }) as WorkflowGraph;

/** Problems by step id (`steps.<id>`), and the rest under ''. */
function problemsByStep(problems: readonly { field?: string; message?: string }[]) {
  const map = new Map<string, string[]>();
  for (const p of problems) {
    const id = /^steps\.([0-9a-f-]{36})/.exec(p.field ?? '')?.[1] ?? '';
    map.set(id, [...(map.get(id) ?? []), p.message ?? 'Invalid']);
  }
  return map;
}

export function WorkflowEditorPage() {
  const { workflowId } = useParams({ from: '/app/workflows/$workflowId' });
  const workflow = useWorkflow(workflowId);
  if (workflow.isPending) return <Loading label="Loading the workflow" />;
  if (workflow.isError) return <ErrorState error={workflow.error} />;
  return <WorkflowEditor workflow={workflow.data} />;
}

function WorkflowEditor({ workflow }: { workflow: Workflow }) {
  const toast = useToast();
  const edits = useWorkflowEdits(workflow.id);
  const counts = useStepCounts(workflow.id);
  const [selected, setSelected] = useState<string>();
  const [adding, setAdding] = useState<StepType>();
  const templates = useTemplateNames();
  // The API's own list, recomputed on every change (the same faults enabling is refused for).
  const problems = useMemo(() => problemsByStep(workflow.problems), [workflow.problems]);
  const info = useMemo(
    () => ({ counts: counts.data, problems, templateNames: templates.data ?? new Map() }),
    [counts.data, problems, templates.data],
  );
  const step = workflow.steps.find((s) => s.id === selected);
  const transition = workflow.transitions.find((t) => t.id === selected);
  const [inserting, setInserting] = useState<{ on: string; type: StepType }>();
  const stepName = (id: string) => {
    const s = workflow.steps.find((x) => x.id === id);
    return s ? s.name || STEP_LABELS[s.type] : 'a step';
  };

  const connect = (c: Connection) => {
    if (!c.source || !c.target) return;
    if (c.source === TRIGGER_ID) {
      toast('The trigger leads to the step that has no step before it', 'error');
      return;
    }
    const link = {
      from: c.source,
      to: c.target,
      branch: (c.sourceHandle ?? null) as TransitionBranch | null,
    };
    // Checked here first, with the API's own rules: a refused link is explained at once.
    const problem = transitionProblem(graphOf(workflow), link);
    if (problem) {
      toast(problem.message, 'error');
      return;
    }
    edits.addTransition.mutate({ fromStepId: link.from, toStepId: link.to, branch: link.branch });
  };

  const setEnabled = (enabled: boolean) => {
    edits.patchWorkflow.mutate(
      { enabled },
      {
        onSuccess: () => toast(enabled ? 'Workflow enabled' : 'Workflow disabled'),
        onError: (error) =>
          toast(
            error instanceof ApiError && error.fieldErrors[0]?.message
              ? `Not enabled: ${error.fieldErrors[0].message}`
              : error.message,
            'error',
          ),
      },
    );
  };

  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/workflows" className="text-accent underline">
          ← Workflows
        </Link>
      </p>
      <PageHeader
        title={workflow.name}
        description={
          <span data-testid="workflow-state">
            {workflow.enabled ? 'Enabled: new executions start' : 'Disabled'} ·{' '}
            {triggerLabel(workflow)}
          </span>
        }
        actions={
          <>
            <Link
              to="/workflows/$workflowId/executions"
              params={{ workflowId: workflow.id }}
              className="inline-flex min-h-9 items-center rounded-md border border-line bg-panel px-3.5 text-sm font-medium hover:bg-surface"
            >
              Executions
            </Link>
            <DuplicateWorkflowButton workflow={workflow} />
            <Button
              variant={workflow.enabled ? 'secondary' : 'primary'}
              busy={edits.patchWorkflow.isPending}
              onClick={() => setEnabled(!workflow.enabled)}
            >
              {workflow.enabled ? 'Disable' : 'Enable'}
            </Button>
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-3">
          <WorkflowCanvas
            label="Workflow graph"
            trigger={triggerLabel(workflow)}
            steps={workflow.steps}
            transitions={workflow.transitions}
            info={info}
            editable
            selectedId={selected}
            onSelect={(id) => {
              setAdding(undefined);
              setSelected(id);
            }}
            onConnect={connect}
            onDeleteSteps={(ids) => ids.length > 0 && edits.deleteSteps.mutate(ids)}
            onDeleteTransitions={(ids) => ids.length > 0 && edits.deleteTransitions.mutate(ids)}
            onMoveStep={(stepId, position) =>
              edits.updateStep.mutate({ stepId, body: { position } })
            }
          />
          <p className="text-xs text-muted">
            Drag from a step&apos;s bottom handle (a branch&apos;s, for conditions and waits) to
            another step to link them; select a step or a link and press Delete to remove it.
          </p>
        </div>
        <aside className="flex min-w-0 flex-col gap-4">
          <Card title="Add a step">
            <div role="group" aria-label="Step palette" className="grid grid-cols-2 gap-2">
              {STEP_TYPES.map((type) => (
                <Button
                  key={type}
                  variant="secondary"
                  onClick={() => {
                    setSelected(undefined);
                    setAdding(type);
                  }}
                >
                  {STEP_LABELS[type]}
                </Button>
              ))}
            </div>
          </Card>
          <Card>
            {inserting && transition && inserting.on === transition.id ? (
              <StepPanel
                key={`insert-${transition.id}-${inserting.type}`}
                type={inserting.type}
                insertOn={transition}
                edits={edits}
                triggerEvent={workflow.triggerConfig.eventName ?? null}
                onDone={() => {
                  setInserting(undefined);
                  setSelected(undefined);
                }}
              />
            ) : transition ? (
              <LinkPanel
                from={stepName(transition.fromStepId)}
                to={stepName(transition.toStepId)}
                branch={transition.branch}
                busy={edits.deleteTransitions.isPending}
                onInsert={(type) => setInserting({ on: transition.id, type })}
                onDelete={() =>
                  edits.deleteTransitions.mutate([transition.id], {
                    onSuccess: () => setSelected(undefined),
                  })
                }
              />
            ) : adding ? (
              <StepPanel
                key={`new-${adding}`}
                type={adding}
                edits={edits}
                triggerEvent={workflow.triggerConfig.eventName ?? null}
                onDone={() => setAdding(undefined)}
              />
            ) : step ? (
              <StepPanel
                key={`${step.id}:${step.updatedAt}`}
                step={step}
                type={step.type}
                edits={edits}
                triggerEvent={workflow.triggerConfig.eventName ?? null}
                onDone={(id) => setSelected(id)}
              />
            ) : selected === TRIGGER_ID ? (
              <TriggerPanel key={workflow.updatedAt} workflow={workflow} edits={edits} />
            ) : (
              <p className="text-sm text-muted">
                Select the trigger or a step on the canvas to configure it.
              </p>
            )}
          </Card>
          {problems.size > 0 ? (
            <Card title="Before it can run">
              <ul
                className="flex list-disc flex-col gap-1 pl-5 text-sm text-danger"
                data-testid="workflow-problems"
              >
                {[...problems.values()].flat().map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </Card>
          ) : null}
          <Card title="Executions">
            <dl className="grid grid-cols-2 gap-2 text-sm">
              {Object.entries(workflow.executions).map(([status, n]) => (
                <div key={status} className="flex justify-between gap-2">
                  <dt className="text-muted">{status.toLowerCase()}</dt>
                  <dd className="tabular-nums">{n}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </aside>
      </div>
    </>
  );
}

/** A selected link: insert a step on it, or remove it. */
function LinkPanel({
  from,
  to,
  branch,
  busy,
  onInsert,
  onDelete,
}: {
  from: string;
  to: string;
  branch: string | null;
  busy: boolean;
  onInsert: (type: StepType) => void;
  onDelete: () => void;
}) {
  const [type, setType] = useState<StepType>('DELAY');
  return (
    <div className="flex flex-col gap-3">
      <h2 className="text-base font-semibold">Link</h2>
      <p className="text-sm">
        From <strong>{from}</strong>
        {branch ? ` (${branch})` : ''} to <strong>{to}</strong>.
      </p>
      <div className="flex items-end gap-2">
        <Select
          label="Insert a step here"
          className="flex-1"
          value={type}
          onChange={(e) => setType(e.target.value as StepType)}
          options={INSERTABLE_TYPES.map((t) => ({
            value: t,
            label: STEP_LABELS[t],
          }))}
        />
        <Button variant="secondary" onClick={() => onInsert(type)}>
          Insert
        </Button>
      </div>
      <div>
        <Button variant="danger" busy={busy} onClick={onDelete}>
          Delete link
        </Button>
      </div>
    </div>
  );
}
