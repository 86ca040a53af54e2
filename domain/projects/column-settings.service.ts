import {
  findColumnSetting,
  saveColumnSetting,
  type ColumnSetting,
  type ColumnSettings,
} from '../../db/sql/column-settings.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { doubleOptInOf } from '../contacts/double-opt-in-settings.pure.js';
import { bouncePolicyOf } from '../sending/bounce-policy.pure.js';

type WithDefaults<S extends ColumnSetting> = (
  stored: Partial<ColumnSettings[S]> | undefined,
) => ColumnSettings[S];

/** Each setting's stored value over its defaults (a project that never set one has `{}`). */
const WITH_DEFAULTS = {
  double_opt_in: doubleOptInOf,
  bounce_policy: bouncePolicyOf,
} satisfies { [S in ColumnSetting]: WithDefaults<S> };

const withDefaults = <S extends ColumnSetting>(setting: S): WithDefaults<S> =>
  WITH_DEFAULTS[setting] as WithDefaults<S>;

export interface ColumnSettingRef<S extends ColumnSetting> {
  sql: Sql;
  projectId: string;
  setting: S;
}

/** A project's setting, its defaults filled in. */
export async function getColumnSetting<S extends ColumnSetting>({
  sql,
  projectId,
  setting,
}: ColumnSettingRef<S>): Promise<ColumnSettings[S]> {
  return withDefaults(setting)(await findColumnSetting(sql, { projectId, setting }));
}

/** Replaces a project's setting; a field left out takes its default. Answers what is stored. */
export async function setColumnSetting<S extends ColumnSetting>({
  sql,
  projectId,
  setting,
  value,
}: ColumnSettingRef<S> & { value: Partial<ColumnSettings[S]> }): Promise<ColumnSettings[S]> {
  const whole = withDefaults(setting)(value);
  await saveColumnSetting(sql, { projectId, setting, value: whole });
  return whole;
}
