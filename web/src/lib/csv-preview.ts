/** The first rows of a CSV text (quoted fields, doubled quotes, CRLF), for a preview only. */
export function previewCsv(
  text: string,
  maxRows = 5,
): { columns: string[]; rows: string[][]; lineCount: number } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  for (; i < text.length && records.length <= maxRows; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (i >= text.length && (field || record.length)) records.push([...record, field]);
  const lineCount = text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
  const [columns = [], ...rows] = records;
  return { columns, rows: rows.slice(0, maxRows), lineCount: Math.max(0, lineCount - 1) };
}
