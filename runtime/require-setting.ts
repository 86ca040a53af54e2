import { ConfigError } from './env-settings.js';

export function requireSetting(name: string, value: string | undefined): string {
  if (!value) {
    throw new ConfigError(
      `${name} is required here. \`npm start\` runs everything on embedded defaults; ` +
        '`npm run api` and `npm run worker` need external services.',
    );
  }
  return value;
}
