import { PageHeader } from '../components/page-header';
import { ProfileCard } from './profile-card';
import { ProjectsCard } from './projects-card';

/** The signed-in user's own page: their profile and every project they belong to. */
export function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your profile and your projects." />
      <div className="flex max-w-3xl flex-col gap-6">
        <ProfileCard />
        <ProjectsCard />
      </div>
    </>
  );
}
