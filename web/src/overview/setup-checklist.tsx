import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';

type Steps = ResponseOf<'/projects/{id}/setup-state', 'get'>['steps'];

// Each onboarding step, with the page where it is done (steps of later pages link to none yet).
const STEPS: {
  key: keyof Steps;
  label: string;
  to?: '/domains' | '/templates' | '/contacts' | '/settings';
}[] = [
  { key: 'ownerEmailVerified', label: 'Verify your email address' },
  { key: 'domainVerified', label: 'Verify a sending domain', to: '/domains' },
  { key: 'templateCreated', label: 'Write a template', to: '/templates' },
  { key: 'contactAdded', label: 'Add a contact', to: '/contacts' },
  { key: 'teamInvited', label: 'Invite your team', to: '/settings' },
  { key: 'emailSent', label: 'Send an email' },
  { key: 'workflowEnabled', label: 'Enable a workflow' },
  { key: 'campaignSent', label: 'Send a campaign' },
  { key: 'billingSubscribed', label: 'Choose a plan', to: '/settings' },
];

export function SetupChecklist({ projectId }: { projectId: string }) {
  const state = useQuery({
    queryKey: ['project', projectId, 'setup-state'],
    queryFn: () =>
      unwrap(api.GET('/projects/{id}/setup-state', { params: { path: { id: projectId } } })),
  });
  return (
    <Card title="Get set up">
      {state.isPending ? (
        <Loading />
      ) : state.isError ? (
        <ErrorState error={state.error} />
      ) : (
        <ol className="flex flex-col gap-2">
          {STEPS.filter((s) => state.data.steps[s.key] !== undefined).map((step) => {
            const done = state.data.steps[step.key] === true;
            return (
              <li key={step.key} className="flex items-center gap-3 text-sm">
                <span
                  aria-hidden
                  className={`flex size-5 shrink-0 items-center justify-center rounded-full border text-xs ${done ? 'border-ok bg-ok text-white dark:text-slate-900' : 'border-line'}`}
                >
                  {done ? '✓' : ''}
                </span>
                <span className={done ? 'text-muted line-through' : ''}>
                  {step.to && !done ? (
                    <Link to={step.to} className="underline">
                      {step.label}
                    </Link>
                  ) : (
                    step.label
                  )}
                  <span className="sr-only">{done ? ' (done)' : ' (to do)'}</span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
