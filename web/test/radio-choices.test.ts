import { MantineProvider, Radio, type RadioGroupProps, Stack } from '@mantine/core';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RadioChoices } from '../src/features/parent/radio-choices';
import { theme } from '../src/lib/theme';

const CHOICES = [
  { value: 'always', label: 'Every day' },
  { value: 'today', label: 'Today only' },
  { value: 'day', label: 'One day' },
] as const;

const markup = (node: ReactNode) => renderToStaticMarkup(createElement(MantineProvider, { theme }, node));

/** Mantine's Radio.Group of three `size="md"` Radios, as the trusted adults' form drew it before h57p. */
const mantineGroup = (value: string, error?: string) =>
  markup(
    createElement(
      Radio.Group,
      // Its children as createElement's third argument.
      { label: 'When', value, onChange: () => {}, error } as Omit<
        RadioGroupProps,
        'children'
      > as RadioGroupProps,
      createElement(
        Stack,
        { gap: 'xs', mt: 4 },
        CHOICES.map((choice) =>
          createElement(Radio, { key: choice.value, value: choice.value, label: choice.label, size: 'md' }),
        ),
      ),
    ),
  );

const ourGroup = (value: string, error?: string) =>
  markup(createElement(RadioChoices, { label: 'When', value, onChange: () => {}, choices: CHOICES, error }));

/**
 * The same document whatever the ids are called (each distinct id, `for`, `name` and
 * `aria-labelledby` value becomes `id1`, `id2`… in order of first use, a suffix kept) and in
 * whatever order a tag writes its attributes.
 */
const normalised = (html: string) => {
  const ids = new Map<string, string>();
  const named = (value: string) => {
    const base = value.replace(/-(label|error|description)$/, '');
    if (!ids.has(base)) ids.set(base, `id${ids.size + 1}`);
    return value.replace(base, ids.get(base) as string);
  };
  return html
    .replace(/\s(id|for|name|aria-labelledby|aria-describedby)="([^"]*)"/g, (_, attribute, value: string) =>
      value
        ? ` ${attribute}="${value
            .split(' ')
            .map((part) => named(part))
            .join(' ')}"`
        : '',
    )
    .replace(
      /<(\w+)((?:\s[^\s=>]+(?:="[^"]*")?)*)\s*(\/?)>/g,
      (_, tag: string, attributes: string, close) => {
        const sorted = (attributes.match(/\s[^\s=>]+(?:="[^"]*")?/g) ?? []).map((item) => item.trim()).sort();
        return `<${[tag, ...sorted].join(' ')}${close}>`;
      },
    );
};

describe("the trusted adults' radios (h57p)", () => {
  it("are drawn as Mantine's Radio.Group draws its Radios: the same elements, classes, variables and labels", () => {
    for (const value of ['always', 'today', 'day']) {
      expect(normalised(ourGroup(value))).toBe(normalised(mantineGroup(value)));
    }
  });

  it('show an error as the Radio.Group does, named by the group', () => {
    expect(normalised(ourGroup('today', 'Choose a day'))).toBe(
      normalised(mantineGroup('today', 'Choose a day')),
    );
    expect(ourGroup('today', 'Choose a day')).toMatch(/role="radiogroup"[^>]*aria-describedby="[^"]+-error"/);
  });
});
