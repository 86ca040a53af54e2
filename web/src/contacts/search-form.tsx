import { useState } from 'react';
import { Button } from '../components/button';

/** Searches on submit (Enter), so typing does not fire a request per key. */
export function SearchForm({
  value,
  onSearch,
}: {
  value: string;
  onSearch: (search: string) => void;
}) {
  const [text, setText] = useState(value);
  return (
    <form
      role="search"
      className="flex flex-1 items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label htmlFor="contact-search" className="sr-only">
        Search contacts by email
      </label>
      <input
        id="contact-search"
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Search by email"
        className="min-h-9 w-full max-w-sm rounded-md border border-line bg-panel px-3 text-sm"
      />
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}
