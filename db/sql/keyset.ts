/** Escapes LIKE wildcards so a search string matches literally. */
export function likeSubstring(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
