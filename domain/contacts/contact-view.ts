import type { ContactRow } from '../../db/sql/contacts.sql.js';

export interface ContactView {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export function toContactView(row: ContactRow): ContactView {
  return {
    id: row.id,
    email: row.email,
    subscribed: row.subscribed,
    data: row.data ?? {},
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
