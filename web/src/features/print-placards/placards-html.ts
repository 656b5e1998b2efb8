import {
  PLACARD_COLUMNS,
  PLACARD_FALLBACK_SCHOOL,
  PLACARD_MASCOT_TEXT,
  type Placard,
  placardCode,
  vehicleName,
} from '@curbside/domain';
import { qrPath } from '../parent-invites/qr-svg';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * A large placard's number in points: as big as fits a quarter of the page's
 * width (a heavy digit is about 0.65 em wide), at most 54 pt.
 */
export const numberSize = (label: string): number =>
  Math.min(54, Math.floor(108 / (0.65 * Math.max(1, label.length))));

/**
 * The printed sheets as one HTML document: large car placards 4 per row,
 * then the buses (number with a B prefix), then small cut-out lanyards 8 per
 * row for all of them; Letter paper with a 0.25 in margin. The preview shows
 * this same document.
 */
export const placardsHtml = (
  placards: readonly Placard[],
  schoolName: string | null | undefined,
  schoolId: number | null = null,
): string => {
  const school = escapeHtml(schoolName?.trim() || PLACARD_FALLBACK_SCHOOL);
  /** The vehicle's QR code (the school and the number, nothing personal), for the Scan at the curb. */
  const qr = (p: Placard) => {
    if (schoolId === null) return '';
    const { d, size } = qrPath(
      placardCode({ schoolId, vehicleType: p.type, vehicleNumber: p.number }),
      'alphanumeric',
    );
    return `<svg class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label="QR code of ${escapeHtml(vehicleName(p.type, p.number))}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
  };
  const mascot = escapeHtml(PLACARD_MASCOT_TEXT);
  const large = (type: Placard['type']) =>
    placards
      .filter((p) => p.type === type)
      .map(
        (p) =>
          `<div class="large ${p.type}"><div class="school">${school}</div><div class="number" style="font-size: ${numberSize(p.label)}pt">${escapeHtml(p.label)}</div>${qr(p)}<div class="mascot">${mascot}</div></div>`,
      )
      .join('');
  const small = placards
    .map(
      (p) =>
        `<div class="small ${p.type}">${qr(p)}<div><div class="number">${escapeHtml(p.label)}</div><div class="school">${school}</div></div></div>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Placards – ${school}</title>
<style>
  @page { size: letter; margin: 0.25in; }
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #000; background: #fff; }
  h2 { font-size: 11pt; margin: 0 0 0.1in; color: #333; }
  .grid { display: grid; gap: 0.12in; margin-bottom: 0.25in; }
  .grid.large-grid { grid-template-columns: repeat(${PLACARD_COLUMNS.large}, minmax(0, 1fr)); }
  .grid.small-grid { grid-template-columns: repeat(${PLACARD_COLUMNS.small}, minmax(0, 1fr)); break-before: page; }
  .large { border: 3px solid #000; border-radius: 10px; height: 2.6in; display: flex; flex-direction: column; align-items: center; justify-content: space-between; padding: 0.12in; break-inside: avoid; }
  .large .school { font-size: 10pt; font-weight: 700; text-align: center; }
  .large .number { font-weight: 900; line-height: 1; white-space: nowrap; }
  .large .qr { width: 0.95in; height: 0.95in; flex-shrink: 0; }
  .small .qr { width: 0.7in; height: 0.7in; flex-shrink: 0; }
  .large .mascot { font-size: 9pt; text-transform: uppercase; letter-spacing: 0.08em; }
  .bus { background: #ffd43b; }
  .small { border: 1.5px dashed #000; height: 1.1in; display: flex; align-items: center; justify-content: center; gap: 0.04in; padding: 0.05in; break-inside: avoid; text-align: center; }
  .small .number { font-size: 16pt; font-weight: 900; line-height: 1.1; }
  .small .school { font-size: 6pt; text-align: center; }
  .empty { font-size: 14pt; }
  @media screen {
    html { background: #dee2e6; }
    body { max-width: 8.5in; margin: 0.25in auto; padding: 0.25in; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.25); }
  }
  @media print { .bus { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
</style></head>
<body>
${
  placards.length === 0
    ? '<p class="empty">No active vehicles to print.</p>'
    : `<h2>Cars</h2><div class="grid large-grid">${large('car')}</div>${
        placards.some((p) => p.type === 'bus')
          ? `<h2>Buses</h2><div class="grid large-grid">${large('bus')}</div>`
          : ''
      }<h2>Lanyards (cut along the dashed lines)</h2><div class="grid small-grid">${small}</div>`
}
</body></html>`;
};
