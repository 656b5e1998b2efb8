import { afterEach, describe, expect, it, vi } from 'vitest';

/** The parent screens' language and texts (web/src/lib/i18n.ts), on a device with these languages and this remembered choice. */
const onDevice = async (languages: string[], remembered: string | null = null) => {
  const stored = new Map<string, string>(remembered ? [['curbside.language', remembered]] : []);
  vi.stubGlobal('navigator', { languages, language: languages[0] });
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
  });
  vi.stubGlobal('document', { documentElement: { lang: '' } });
  vi.resetModules();
  const i18n = await import('../src/lib/i18n');
  await i18n.startI18n({
    en: {
      parent: {
        title: 'Parent Portal',
        hello: 'Hello {{name}}',
        only: 'English only',
        kids_one: '{{count}} child',
        kids_other: '{{count}} children',
      },
    },
    es: { parent: { title: 'Portal para padres', hello: 'Hola {{name}}' } },
  });
  return {
    i18n,
    stored,
    html: (globalThis.document as unknown as { documentElement: { lang: string } }).documentElement,
  };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the language a parent sees', () => {
  it('is the first of the browser’s languages the app speaks, remembered and set on the page', async () => {
    const { i18n, stored, html } = await onDevice(['fr-FR', 'es-MX', 'en-US']);
    expect(i18n.language()).toBe('es');
    expect(stored.get('curbside.language')).toBe('es');
    expect(html.lang).toBe('es');
  });

  it('is the one chosen on this device before, whatever the browser says, and English when nothing fits', async () => {
    expect((await onDevice(['es-ES'], 'en')).i18n.language()).toBe('en');
    expect((await onDevice(['de-DE'])).i18n.language()).toBe('en');
  });

  it('changes when the parent picks another, remembered for the next visit', async () => {
    const { i18n, stored, html } = await onDevice(['en-US']);
    i18n.changeLanguage('es');
    expect(i18n.language()).toBe('es');
    expect(stored.get('curbside.language')).toBe('es');
    expect(html.lang).toBe('es');
  });
});

describe('a text', () => {
  it('is in the screen’s language with its values filled in, else English, else its key', async () => {
    const { i18n } = await onDevice(['es']);
    const t = i18n.translator('parent', 'es');
    expect(t('title')).toBe('Portal para padres');
    expect(t('hello', { name: 'Ana' })).toBe('Hola Ana');
    expect(t('only')).toBe('English only');
    expect(t('missing.key')).toBe('missing.key');
  });

  it('takes its singular or plural form from a count', async () => {
    const { i18n } = await onDevice(['en']);
    const t = i18n.translator('parent', 'en');
    expect(t('kids', { count: 1 })).toBe('1 child');
    expect(t('kids', { count: 3 })).toBe('3 children');
  });
});
