/** `text` with LIKE's wildcards (and its escape character) escaped, so it matches literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that finds `search` anywhere in a value, literally. */
export const likeSubstring = (search: string): string => `%${escapeLike(search)}%`;
