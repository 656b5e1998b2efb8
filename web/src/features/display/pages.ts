/**
 * How the hallway display spreads called students over pages when they do
 * not fit one screen even at its smallest type (issue 50): the rows (one car
 * and its children each) in order, as many as fit a page, a group's heading
 * shown again on every page it continues on. Pure, so it is tested apart.
 */
export interface MeasuredRow {
  /** The group (batch or lane) the row is in. */
  group: number;
  /** Its height plus the space to the next row of its group. */
  height: number;
}

/**
 * The rows' indices page by page: `chrome[g]` is group g's heading and
 * padding, `groupGap` the space between two groups, `room` a page's height.
 * A row taller than a page gets a page of its own.
 */
export const pagesOf = (
  rows: readonly MeasuredRow[],
  chrome: readonly number[],
  groupGap: number,
  room: number,
): number[][] => {
  const pages: number[][] = [];
  let page: number[] = [];
  let used = 0;
  let groupOnPage = -1;
  rows.forEach((row, index) => {
    const opens = row.group !== groupOnPage;
    const extra = (opens ? (chrome[row.group] ?? 0) + (page.length > 0 ? groupGap : 0) : 0) + row.height;
    if (page.length > 0 && used + extra > room) {
      pages.push(page);
      page = [];
      used = (chrome[row.group] ?? 0) + row.height;
    } else {
      used += extra;
    }
    page.push(index);
    groupOnPage = row.group;
  });
  if (page.length > 0) pages.push(page);
  return pages;
};
