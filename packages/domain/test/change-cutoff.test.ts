import { describe, expect, it } from 'vitest';
import { cutoffMessage } from '../src/change-cutoff';

describe('the refusal of a change for today after the cutoff', () => {
  it('names the cutoff as the specification shows clock times', () => {
    expect(cutoffMessage('14:30')).toBe('Changes for today close at 2:30 PM. Please call the school office.');
    expect(cutoffMessage('09:05')).toBe('Changes for today close at 9:05 AM. Please call the school office.');
  });
});
