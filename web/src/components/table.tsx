import {
  createColumnHelper,
  metaHelper,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type OnChangeFn,
  type RowData,
  type RowSelectionState,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { Checkbox } from './checkbox';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Hidden on narrow screens. */
  wide?: boolean;
}

/** Selected row keys (the table's `rowKey`) mapped to true. */
export type Selection = RowSelectionState;

/** Row selection controlled by the caller: a checkbox per row and one for every row shown. */
export interface RowSelection<T> {
  state: Selection;
  onChange: OnChangeFn<Selection>;
  /** The accessible name of a row's checkbox, such as "Select ada@example.com". */
  rowLabel: (row: T) => string;
  /** The accessible name of the select-all checkbox. */
  allLabel?: string;
}

// Module scope: the table's features must stay the same object from render to render.
const features = tableFeatures({
  rowSelectionFeature,
  columnMeta: metaHelper<{ wide?: boolean; select?: boolean }>(),
});

const NO_SELECTION: Selection = {};
const hiddenWhenNarrow = (wide: boolean | undefined) => (wide ? 'hidden md:table-cell' : '');

/** A data table (TanStack Table) that scrolls sideways on a phone instead of squeezing columns. */
export function Table<T extends RowData>({
  columns,
  rows,
  rowKey,
  caption,
  selection,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  caption: string;
  selection?: RowSelection<T>;
}) {
  const selectable = selection !== undefined;
  const rowLabel = selection?.rowLabel;
  const allLabel = selection?.allLabel ?? 'Select all rows shown';
  const defs = useMemo(() => {
    const helper = createColumnHelper<typeof features, T>();
    const data = columns.map((c, i) =>
      helper.display({
        id: `column-${i}`,
        header: c.header,
        cell: ({ row }) => c.cell(row.original),
        meta: { wide: c.wide },
      }),
    );
    if (!rowLabel) return data;
    const select = helper.display({
      id: 'select',
      meta: { select: true },
      header: ({ table }) => (
        <Checkbox
          label={allLabel}
          checked={table.getIsAllPageRowsSelected()}
          indeterminate={table.getIsSomePageRowsSelected()}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <Checkbox
          label={rowLabel(row.original)}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    });
    return [select, ...data];
  }, [columns, rowLabel, allLabel]);

  const table = useTable({
    features,
    columns: defs,
    data: rows,
    getRowId: (row) => rowKey(row),
    enableRowSelection: selectable,
    state: { rowSelection: selection?.state ?? NO_SELECTION },
    onRowSelectionChange: selection?.onChange,
  });

  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-panel">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line text-xs tracking-wide text-muted uppercase">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={`py-2.5 font-medium ${meta?.select ? 'w-10 pr-0 pl-3 sm:pl-4' : 'px-3 sm:px-4'} ${hiddenWhenNarrow(meta?.wide)}`}
                  >
                    <table.FlexRender header={header} />
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-selected={row.getIsSelected() || undefined}
              className="border-b border-line last:border-0 data-selected:bg-accent/10"
            >
              {row.getAllCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                return (
                  <td
                    key={cell.id}
                    className={`py-2.5 align-middle ${meta?.select ? 'w-10 pr-0 pl-3 sm:pl-4' : 'px-3 sm:px-4'} ${hiddenWhenNarrow(meta?.wide)}`}
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
