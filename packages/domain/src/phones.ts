/*
 * Phone numbers as people write them, and their `tel:` address, on their own without zod (issue
 * 57): the bus driver's page offers the school's number to call, on a phone whose first load
 * carries no zod; the school phone's schema (school-settings.ts) is made of the rule.
 */

/** A phone's digits, without its extension: 7 to 15 (E.164's most). */
const PHONE_DIGITS = { min: 7, max: 15 };
/** An extension at the end: `x12`, `ext 12`, `ext. 12`. */
const EXTENSION = /\s*(?:x|ext\.?)\s*\d{1,6}$/i;

/**
 * A phone number as people write it: digits, spaces, dots, dashes and
 * parentheses, a leading + and an extension (`x12`, `ext. 12`), with 7 to 15
 * digits before the extension.
 */
export const isPhoneNumber = (value: string): boolean => {
  const main = value.trim().replace(EXTENSION, '');
  if (!/^\+?[0-9 ().-]+$/.test(main)) return false;
  const digits = main.replace(/\D/g, '').length;
  return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
};

/**
 * A `tel:` address for a phone number (RFC 3966): its digits, a leading +
 * kept, and the extension as `;ext=`: `tel:+15551234567;ext=12`.
 */
export const telHref = (phone: string): string => {
  const trimmed = phone.trim();
  const extension = EXTENSION.exec(trimmed)?.[0].replace(/\D/g, '') ?? '';
  const main = trimmed.replace(EXTENSION, '');
  const digits = `${main.startsWith('+') ? '+' : ''}${main.replace(/\D/g, '')}`;
  return `tel:${digits}${extension ? `;ext=${extension}` : ''}`;
};
