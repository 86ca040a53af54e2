import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { applyApiError } from '../lib/form-errors';
import { AuthCard } from './auth-card';

const schema = z.object({
  email: z.email('Enter an email address'),
  password: z.string().min(1, 'Enter your password'),
});
type Values = z.infer<typeof schema>;

export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string>();
  const form = useForm<Values>({ resolver: zodResolver(schema) });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const user = await unwrap(api.POST('/auth/login', { body: values }));
      queryClient.clear();
      queryClient.setQueryData(['me'], user);
      await navigate({ to: '/' });
    } catch (error) {
      setFailure(applyApiError(error, form.setError, ['email', 'password']));
    }
  });

  return (
    <AuthCard
      title="Log in"
      footer={
        <>
          No account yet?{' '}
          <Link to="/signup" className="font-medium text-accent underline">
            Sign up
          </Link>
        </>
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorState error={new Error(failure)} /> : null}
        <Input
          label="Email"
          type="email"
          autoComplete="email"
          {...form.register('email')}
          error={errors.email?.message}
        />
        <Input
          label="Password"
          type="password"
          autoComplete="current-password"
          {...form.register('password')}
          error={errors.password?.message}
        />
        <Button type="submit" busy={isSubmitting}>
          Log in
        </Button>
      </form>
    </AuthCard>
  );
}
