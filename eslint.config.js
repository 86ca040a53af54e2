import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { switchEndsInAssertNever } from './lint-rules/switch-ends-in-assert-never.js';
import reactHooks from 'eslint-plugin-react-hooks';

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

// The domain reaches PostgreSQL through db/sql functions and the EntityManager only: no SQL text
// and no raw connections (the pure filter compiler of segments returns fragments, by design).
const SQL_TEXT = '/\\b(SELECT|INSERT INTO|DELETE FROM)\\b|\\bUPDATE [a-z_]+ SET\\b/';
const domainDataAccess = {
  'no-restricted-syntax': [
    'error',
    {
      selector: `Literal[value=${SQL_TEXT}]`,
      message: 'SQL belongs in a named function of db/sql/<resource>.sql.ts.',
    },
    {
      selector: `TemplateElement[value.raw=${SQL_TEXT}]`,
      message: 'SQL belongs in a named function of db/sql/<resource>.sql.ts.',
    },
    {
      selector: "MemberExpression[property.name='getConnection']",
      message: 'Use a db/sql function or the EntityManager, not the raw connection.',
    },
  ],
};

// Entities map tables; from the domain they may import vocabularies and ids, nothing else.
const entityImports = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '^(\\.\\./)+domain/(?!.+\\.pure(\\.js)?$|shared/ids(\\.js)?$)',
          message: 'Entities import only pure domain modules (vocabularies) and domain/shared/ids.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.data/**',
      'coverage/**',
      'scratch/**',
      'web/dist/**',
      'dist/**',
      'web/src/api/schema.d.ts',
      'test/browser/results/**',
    ],
  },
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
  // Switches over vocabularies list every member and end in assertNever, never in `default:`
  // (read with the types, so only where the project's tsconfig reaches). A default stays
  // allowed over open types (a string from outside), never beside every member of a union.
  {
    files: ['{api,db,domain,runtime,temporal}/**/*.ts'],
    // test/unit/lint-rules.test.ts lints files that exist only there: its probes of the other
    // rules go without the types, its probe of these rules reads with the defaults.
    ignores: ['**/probe.*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['domain/probe/switch.pure.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { mailwright: { rules: { 'switch-ends-in-assert-never': switchEndsInAssertNever } } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        {
          allowDefaultCaseForExhaustiveSwitch: false,
          considerDefaultExhaustiveForUnions: true,
          requireDefaultForNonUnion: false,
        },
      ],
      'mailwright/switch-ends-in-assert-never': 'error',
    },
  },
  { files: ['temporal/workflows/**/*.ts'], rules: workflowImports },
  { files: ['domain/**/*.pure.ts'], rules: pureImports },
  { files: ['api/**/*.ts'], rules: apiImports },
  {
    files: ['domain/**/*.ts'],
    ignores: ['domain/segments/filter/**'],
    rules: domainDataAccess,
  },
  { files: ['db/entities/**/*.ts'], rules: entityImports },
  // The dashboard runs in the browser and calls the API only through its typed client.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through web/src/api/client.ts (openapi-fetch).' },
        { name: 'XMLHttpRequest', message: 'Call the API through web/src/api/client.ts.' },
      ],
    },
  },
  // Tests read JSON bodies of every shape; typing each one would add noise, not safety.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
