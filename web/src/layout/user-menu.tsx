import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api/client';
import { meQuery } from '../api/session';
import { Button } from '../components/button';
import { applyTheme, storedTheme, type Theme } from '../lib/theme';

export function UserMenu() {
  const me = useQuery(meQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [theme, setTheme] = useState<Theme>(storedTheme);

  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    applyTheme(next, true);
    setTheme(next);
  };
  const logOut = async () => {
    // POST: the session ends on the server (a GET could be triggered by any page).
    await api.POST('/auth/logout');
    queryClient.clear();
    await navigate({ to: '/login' });
  };

  return (
    <div className="mt-2 flex flex-col gap-2 border-t border-line px-1 pt-3 text-sm [&_button]:px-2">
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 truncate text-muted" title={me.data?.email}>
          {me.data?.email}
        </p>
        <Link
          to="/account"
          className="shrink-0 rounded px-1 text-accent underline"
          activeProps={{ 'aria-current': 'page', className: 'font-medium' }}
        >
          Account
        </Link>
      </div>
      {me.data && !me.data.emailVerified ? (
        <p className="text-xs text-warn">Email not verified yet: use the link we sent you.</p>
      ) : null}
      <div className="flex gap-2">
        <Button variant="secondary" className="flex-1 whitespace-nowrap" onClick={toggleTheme}>
          {theme === 'dark' ? 'Light' : 'Dark'} theme
        </Button>
        <Button
          variant="secondary"
          className="flex-1 whitespace-nowrap"
          onClick={() => void logOut()}
        >
          Log out
        </Button>
      </div>
    </div>
  );
}
