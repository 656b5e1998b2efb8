import {
  Button,
  getFontSize,
  getSize,
  type MantineColor,
  type MantineSize,
  type MantineTheme,
  UnstyledButton,
  useMantineTheme,
} from '@mantine/core';
import type { ButtonHTMLAttributes, CSSProperties, ReactNode } from 'react';

export interface ButtonLook {
  variant?: 'filled' | 'default' | 'outline';
  color?: MantineColor;
  size?: MantineSize;
  fullWidth?: boolean;
}

/**
 * What Mantine's `Button` puts on its `<button>` (issue 57, h57ka): its class names, data
 * attributes and variables, the colours from the theme's own resolver (so the Bright theme's and
 * the dark scheme's are Mantine's too). With Mantine's stylesheet, which every staff screen loads
 * already, a plain `<button>` with these looks, focuses (`mantine-focus-auto`) and presses
 * (`mantine-active`) as Mantine's does, without its four components (Button, UnstyledButton and
 * two Boxes) a button. `style` comes after the look's variables, as Mantine's style props do.
 */
export const buttonLook = (
  theme: MantineTheme,
  { variant = 'filled', color, size = 'lg', fullWidth = false }: ButtonLook,
  style?: CSSProperties,
) => {
  const colors = theme.variantColorResolver({ color: color ?? theme.primaryColor, theme, variant });
  return {
    className: `mantine-focus-auto mantine-active ${Button.classes.root} mantine-Button-root ${UnstyledButton.classes.root} mantine-UnstyledButton-root`,
    'data-variant': variant,
    'data-size': size,
    'data-block': fullWidth || undefined,
    style: {
      '--button-height': getSize(size, 'button-height'),
      '--button-padding-x': getSize(size, 'button-padding-x'),
      '--button-fz': getFontSize(size),
      '--button-bg': colors.background,
      '--button-hover': colors.hover,
      '--button-color': colors.color,
      '--button-bd': colors.border,
      '--button-hover-color': colors.hoverColor,
      ...style,
    } as CSSProperties,
  };
};

/** Mantine's two spans inside a button's border: the label centred as Mantine's is. */
export function ButtonLabel({ children }: { children: ReactNode }) {
  return (
    <span className={`${Button.classes.inner} mantine-Button-inner`}>
      <span className={`${Button.classes.label} mantine-Button-label`}>{children}</span>
    </span>
  );
}

/** A button that looks as Mantine's `Button` (see `buttonLook`), drawn as a plain `<button>`. */
export function PlainButton({
  variant,
  color,
  size,
  fullWidth,
  style,
  className,
  children,
  type = 'button',
  ...button
}: ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>) {
  const theme = useMantineTheme();
  const look = buttonLook(theme, { variant, color, size, fullWidth }, style);
  return (
    <button
      type={type}
      {...button}
      {...look}
      className={className ? `${look.className} ${className}` : look.className}
    >
      <ButtonLabel>{children}</ButtonLabel>
    </button>
  );
}
