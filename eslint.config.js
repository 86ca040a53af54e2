import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// Workflow code must stay deterministic: it may import only the workflow SDK, temporal/shared,
// pure domain modules (*.pure.ts) and, as types only, anything else (activities).
const workflowImports = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex:
            '^(?!@temporalio/workflow$|\\.\\./shared/|\\./|(\\.\\./)+domain/.+\\.pure(\\.js)?$).*',
          allowTypeImports: true,
          message:
            'Workflows may import only @temporalio/workflow, temporal/shared, pure domain modules (*.pure.ts) and types.',
        },
      ],
    },
  ],
};

// Pure domain modules carry the rules; they never reach for I/O.
const pureImports = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '^(?!zod$|\\./.+\\.pure(\\.js)?$|(\\.\\./)+.+\\.pure(\\.js)?$).*',
          allowTypeImports: true,
          message: 'A *.pure.ts module imports only zod and other pure modules.',
        },
      ],
    },
  ],
};

// The API is transport only: no SQL drivers, no ORM runtime, no Temporal SDK.
const apiImports = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '^(@temporalio/|@mikro-orm/|pg$|knex$)',
          allowTypeImports: true,
          message: 'api/ is transport only: call a domain function instead.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['temporal/workflows/**/*.ts'], rules: workflowImports },
  { files: ['domain/**/*.pure.ts'], rules: pureImports },
  { files: ['api/**/*.ts'], rules: apiImports },
  // Tests read JSON bodies of every shape; typing each one would add noise, not safety.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
