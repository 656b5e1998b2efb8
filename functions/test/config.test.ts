import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The functions' configuration is read on first use (issue 56): a function
 * loads without the variables it never reads (the origin-secret rotation has
 * no table), and a missing required one is an error naming it when read.
 */
const freshConfig = async () => {
  vi.resetModules();
  return (await import('../src/lib/config')).config;
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('the configuration', () => {
  it('loads without TABLE_NAME, and says which variable is missing only when the table is asked for', async () => {
    vi.stubEnv('TABLE_NAME', '');
    const config = await freshConfig();
    expect(config.logLevel).toBe('silent');
    expect(() => config.tableName).toThrow('Environment variable TABLE_NAME is not set');
    vi.stubEnv('TABLE_NAME', 'curbside-data');
    expect(config.tableName).toBe('curbside-data');
  });

  it('reads the rotation’s distribution only when asked, naming DISTRIBUTION_ID when it is missing', async () => {
    vi.stubEnv('TABLE_NAME', '');
    vi.stubEnv('DISTRIBUTION_ID', '');
    const config = await freshConfig();
    expect(() => config.distributionId).toThrow('Environment variable DISTRIBUTION_ID is not set');
    vi.stubEnv('DISTRIBUTION_ID', 'E123');
    expect(config.distributionId).toBe('E123');
  });

  it('refuses a viewer address trusted without the origin secret, when that trust is read', async () => {
    vi.stubEnv('TRUST_VIEWER_ADDRESS', '1');
    vi.stubEnv('ORIGIN_SECRET_ARN', '');
    const config = await freshConfig();
    expect(config.allowedOrigins).toEqual([]);
    expect(() => config.trustViewerAddress).toThrow(
      'TRUST_VIEWER_ADDRESS=1 needs ORIGIN_SECRET_ARN: a viewer address is trusted only from CloudFront',
    );
  });

  it('lets the rotation function load with no table', async () => {
    vi.stubEnv('TABLE_NAME', '');
    vi.resetModules();
    await expect(import('../src/rotation/origin-secret')).resolves.toHaveProperty('rotate');
  });
});
