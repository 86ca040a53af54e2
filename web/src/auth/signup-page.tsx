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
  name: z.string().trim().max(200),
  email: z.email('Enter an email address'),
  password: z.string().min(8, 'At least 8 characters'),
});
type Values = z.infer<typeof schema>;

export function SignupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string>();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ name, ...rest }) => {
    setFailure(undefined);
    try {
      const user = await unwrap(
        api.POST('/auth/signup', { body: { ...rest, ...(name ? { name } : {}) } }),
      );
      queryClient.clear();
      queryClient.setQueryData(['me'], user);
      await navigate({ to: '/' });
    } catch (error) {
      setFailure(applyApiError(error, form.setError, ['name', 'email', 'password']));
    }
  });

  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-accent underline">
            Log in
          </Link>
        </>
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorState error={new Error(failure)} /> : null}
        <Input
          label="Name (optional)"
          autoComplete="name"
          {...form.register('name')}
          error={errors.name?.message}
        />
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
          autoComplete="new-password"
          hint="At least 8 characters."
          {...form.register('password')}
          error={errors.password?.message}
        />
        <Button type="submit" busy={isSubmitting}>
          Sign up
        </Button>
      </form>
    </AuthCard>
  );
}
