import type { CSSProperties } from 'react';

/** A list without bullets or indent (chips, overflow rows). */
export const LIST: CSSProperties = { listStyle: 'none', margin: 0, padding: 0 };
