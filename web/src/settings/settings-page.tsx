import { isAdmin, useProject } from '../api/use-project';
import { PageHeader } from '../components/page-header';
import { Loading } from '../components/states';
import { BillingCard } from './billing-card';
import { BouncePolicyCard } from './bounce-policy-card';
import { DangerZone } from './danger-zone';
import { DoubleOptInCard } from './double-opt-in-card';
import { KeysCard } from './keys-card';
import { MembersCard } from './members-card';
import { ProjectNameCard } from './project-name-card';
import { SmtpCard } from './smtp-card';
import { TrackingCard } from './tracking-card';

/** What a role sees: every member the keys' public half and the team; admins more. */
export function SettingsPage() {
  const { project } = useProject();
  if (!project) return <Loading />;
  const admin = isAdmin(project.role);
  return (
    <>
      <PageHeader title="Settings" description={`Project ${project.name}`} />
      <div className="flex max-w-3xl flex-col gap-6">
        {admin ? <ProjectNameCard project={project} /> : null}
        <KeysCard project={project} canRotate={admin} />
        <SmtpCard secretKey={project.secretKey} />
        <MembersCard projectId={project.id} canManage={admin} />
        <BouncePolicyCard projectId={project.id} canEdit={admin} />
        <DoubleOptInCard projectId={project.id} canEdit={admin} />
        <TrackingCard project={project} canEdit={admin} />
        {admin ? <BillingCard projectId={project.id} /> : null}
        {project.role === 'OWNER' ? <DangerZone project={project} /> : null}
      </div>
    </>
  );
}
