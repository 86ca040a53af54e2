import type { DoubleOptInSettings } from '../../domain/contacts/double-opt-in-settings.pure.js';
import type { BouncePolicy } from '../../domain/sending/bounce-policy.pure.js';
import { findColumn } from './rows.js';
import type { Sql } from './sql.js';

/** The settings a project keeps whole in a JSON column each (not in `settings`), by column. */
export interface ColumnSettings {
  double_opt_in: DoubleOptInSettings;
  bounce_policy: BouncePolicy;
}
export type ColumnSetting = keyof ColumnSettings;

/** What the column holds: `{}` for a project that never set it. */
export const findColumnSetting = <S extends ColumnSetting>(
  sql: Sql,
  { projectId, setting }: { projectId: string; setting: S },
): Promise<Partial<ColumnSettings[S]> | undefined> =>
  findColumn(sql, { table: 'projects', column: setting, key: 'id' }, projectId);

export async function saveColumnSetting<S extends ColumnSetting>(
  sql: Sql,
  { projectId, setting, value }: { projectId: string; setting: S; value: ColumnSettings[S] },
): Promise<void> {
  await sql.query(`UPDATE projects SET ${setting} = $2::jsonb WHERE id = $1`, [
    projectId,
    JSON.stringify(value),
  ]);
}
