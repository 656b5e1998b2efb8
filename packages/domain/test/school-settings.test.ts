import { describe, expect, it } from 'vitest';
import { isPhoneNumber, telHref } from '../src/phones';
import { SCHOOL_PHONE_MESSAGE, schoolSettingsInputSchema, schoolSettingsOf } from '../src/school-settings';

/** The school's phone (issue 50): the bus driver's number to call when an alert cannot be sent. */
describe('the school phone', () => {
  it('takes numbers as people write them, with 7 to 15 digits and an extension', () => {
    for (const phone of [
      '(555) 123-4567',
      '555.123.4567',
      '+1 555 123 4567',
      '5551234',
      '555-123-4567 x12',
      '555 123 4567 ext. 9',
    ]) {
      expect(isPhoneNumber(phone), phone).toBe(true);
    }
    for (const phone of [
      '123456',
      '1234567890123456',
      'call the office',
      '555-CALL-NOW',
      '555 123 4567 ext',
      '+',
      '',
    ]) {
      expect(isPhoneNumber(phone), phone).toBe(false);
    }
  });

  it('dials the digits, a leading + and the extension', () => {
    expect(telHref('(555) 123-4567')).toBe('tel:5551234567');
    expect(telHref(' +1 555 123 4567 ')).toBe('tel:+15551234567');
    expect(telHref('555-123-4567 x12')).toBe('tel:5551234567;ext=12');
    expect(telHref('555 123 4567 ext. 9')).toBe('tel:5551234567;ext=9');
  });

  it('is a setting: empty is none, absent leaves it as it is, a wrong one is named', () => {
    const settings = {
      carBatchCapacity: 8,
      busBatchCapacity: 4,
      defaultSessionMinutes: 120,
      languages: ['en'],
      recordRetentionDays: 400,
    };
    expect(schoolSettingsInputSchema.parse({ ...settings, phone: ' (555) 123-4567 ' }).phone).toBe(
      '(555) 123-4567',
    );
    expect(schoolSettingsInputSchema.parse({ ...settings, phone: '' }).phone).toBeNull();
    expect(schoolSettingsInputSchema.parse({ ...settings, phone: null }).phone).toBeNull();
    expect(schoolSettingsInputSchema.parse(settings).phone).toBeUndefined();
    const wrong = schoolSettingsInputSchema.safeParse({ ...settings, phone: 'ask Jane' });
    expect(wrong.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['phone'], SCHOOL_PHONE_MESSAGE],
    ]);
    expect(schoolSettingsOf({}).phone).toBeNull();
    expect(schoolSettingsOf({ phone: '555-1234' }).phone).toBe('555-1234');
  });
});
