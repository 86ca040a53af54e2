import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121102419_foundation } from './Migration20261121102419_foundation.js';

export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121102419_foundation', class: Migration20261121102419_foundation },
];
