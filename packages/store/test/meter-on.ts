import { afterEach, beforeEach } from 'vitest';
import { meter } from '../src/meter';

/** The meter on, and counting from zero, for each test of the calling `describe`; off again after. */
export const meterOnForEachTest = () => {
  beforeEach(() => {
    process.env.CURBSIDE_METER = '1';
    meter.reset();
  });
  afterEach(() => {
    delete process.env.CURBSIDE_METER;
    meter.reset();
  });
};
