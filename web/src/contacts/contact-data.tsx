import { useState } from 'react';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { EmptyState } from '../components/empty-state';
import { Input } from '../components/input';

type Data = Record<string, unknown>;

// An edited value keeps the type the field had (a number stays a number).
function parseLike(original: unknown, text: string): unknown {
  if (typeof original === 'number' && text.trim() !== '' && !Number.isNaN(Number(text)))
    return Number(text);
  if (typeof original === 'boolean' && (text === 'true' || text === 'false'))
    return text === 'true';
  return text;
}

const show = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** A contact's data: edit or delete a field, add one. Saving merges; null deletes a key. */
export function ContactData({
  data,
  saving,
  onSave,
}: {
  data: Data;
  saving: boolean;
  onSave: (data: Data) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState<string>();
  const [draft, setDraft] = useState('');
  const [newKey, setNewKey] = useState('');
  const [newValue, setNewValue] = useState('');
  const entries = Object.entries(data);

  return (
    <Card title="Data">
      {entries.length === 0 ? (
        <EmptyState title="No fields yet">
          Fields come from sends, tracked events and imports, or add one here.
        </EmptyState>
      ) : (
        <dl className="divide-y divide-line text-sm">
          {entries.map(([key, value]) => (
            <div key={key} className="flex flex-wrap items-center gap-2 py-2">
              <dt className="w-32 shrink-0 font-mono text-xs text-muted">{key}</dt>
              <dd className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
                {editing === key ? (
                  <form
                    className="flex flex-1 flex-wrap items-end gap-2"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void onSave({ [key]: parseLike(value, draft) }).then(() =>
                        setEditing(undefined),
                      );
                    }}
                  >
                    <Input
                      label={`Value of ${key}`}
                      className="min-w-40 flex-1"
                      value={draft}
                      onChange={(e) => setDraft(e.target.value)}
                      autoFocus
                    />
                    <Button type="submit" busy={saving}>
                      Save
                    </Button>
                    <Button variant="secondary" onClick={() => setEditing(undefined)}>
                      Cancel
                    </Button>
                  </form>
                ) : (
                  <>
                    <span className="min-w-0 flex-1 break-words">{show(value)}</span>
                    <Button
                      variant="ghost"
                      aria-label={`Edit ${key}`}
                      onClick={() => {
                        setEditing(key);
                        setDraft(show(value));
                      }}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      aria-label={`Delete ${key}`}
                      onClick={() => void onSave({ [key]: null })}
                    >
                      Delete
                    </Button>
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <form
        className="mt-4 flex flex-wrap items-end gap-2 border-t border-line pt-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!newKey.trim()) return;
          void onSave({ [newKey.trim()]: newValue }).then(() => {
            setNewKey('');
            setNewValue('');
          });
        }}
      >
        <Input
          label="New field"
          className="min-w-32 flex-1"
          value={newKey}
          onChange={(e) => setNewKey(e.target.value)}
        />
        <Input
          label="Value"
          className="min-w-32 flex-1"
          value={newValue}
          onChange={(e) => setNewValue(e.target.value)}
        />
        <Button type="submit" variant="secondary" busy={saving}>
          Add field
        </Button>
      </form>
    </Card>
  );
}
