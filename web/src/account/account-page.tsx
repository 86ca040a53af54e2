import { PageHeader } from '../components/page-header';
import { ProfileCard } from './profile-card';
import { ProjectsCard } from './projects-card';
import { SessionsCard } from './sessions-card';

/** The signed-in user's own page: their profile, their sessions and every project they belong to. */
export function AccountPage() {
  return (
    <>
      <PageHeader
        title="Account"
        description="Your profile, where you are logged in, and your projects."
      />
      <div className="flex max-w-3xl flex-col gap-6">
        <ProfileCard />
        <SessionsCard />
        <ProjectsCard />
      </div>
    </>
  );
}
