import { create } from 'qrcode';

const UTF8 = new TextEncoder();

/** Quiet zone around a printed QR code, in modules (the QR standard's 4). */
const QUIET = 4;

/**
 * The dark modules of `text`'s QR code as one SVG path, a run of dark
 * modules per rectangle (a few hundred commands, not a node per module: a
 * page of 2,000 letters stays light).
 */
export const qrPath = (text: string, mode: 'byte' | 'alphanumeric' = 'byte') => {
  // One byte segment and one fixed mask: a valid code that phones read. Searching the best mix of
  // segment modes and trying all eight masks for the most even one made each code ten times slower
  // (a page of 2,000 letters missed its 10 s budget).
  // A placard's code is alphanumeric (docs/adr/0024-placard-qr-codes.md): a smaller code.
  const segment = mode === 'alphanumeric' ? { data: text, mode } : { data: UTF8.encode(text), mode };
  const { modules } = create([segment], {
    errorCorrectionLevel: 'M',
    maskPattern: 0,
  });
  const size = modules.size;
  let d = '';
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && modules.get(y, x)) x++;
      d += `M${start + QUIET} ${y + QUIET}h${x - start}v1h${start - x}z`;
    }
  }
  return { d, size: size + 2 * QUIET };
};

/** A QR code drawn as SVG: sharp in print at any size. */
export function QrSvg({ text, label, className }: { text: string; label: string; className?: string }) {
  const { d, size } = qrPath(text);
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      className={className}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
