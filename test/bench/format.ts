/** Number formats and the text tables of the report and the budgets. */
export const ms = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
export const n = (value: number) => Math.round(value).toLocaleString('en-US');
export const units = (value: number) => (value >= 100 ? n(value) : value.toFixed(2));
export const usd = (value: number) =>
  value >= 1 ? `$${value.toFixed(2)}` : value >= 0.01 ? `$${value.toFixed(3)}` : `$${value.toFixed(5)}`;

/** Left-aligned first column, right-aligned others. */
export const table = (header: string[], rows: string[][]): string => {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
};
