import { SegmentedControl } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { SegmentedRadios } from '../../components/segmented-radios';
import { LANGUAGES } from '../../lib/i18n';
import { useParentTexts } from './i18n';
import { useIdleAfterPaint } from './largest-paint';

const DATA = LANGUAGES.map(({ code, label }) => ({ value: code, label }));

interface SwitchProps {
  label: string;
  value: string;
  onChange: (code: string) => void;
}

/**
 * Mantine's SegmentedControl as it draws itself before it has measured anything (the chosen
 * label's own background stands for the sliding indicator): `SegmentedRadios`, not full width.
 */
function SwitchLookAlike({
  label,
  value,
  onChange,
  onPress,
  onFocusChange,
}: SwitchProps & { onPress: () => void; onFocusChange: (value: string | null) => void }) {
  return (
    <SegmentedRadios
      label={label}
      data={DATA}
      value={value}
      onChange={onChange}
      size="sm"
      onPointerDown={onPress}
      onFocus={(event) => onFocusChange((event.target as HTMLInputElement).value)}
      onBlur={() => onFocusChange(null)}
    />
  );
}

/**
 * The parent screens' language switch (issue 57, h57d). Mantine's SegmentedControl measures
 * itself once drawn (its `FloatingIndicator` reads the chosen label's box and the root's): in a
 * page's first commit that is a layout of the whole page forced inside the commit's task (0.1–0.45
 * s at a phone's 4× slower CPU on the dashboard). Until the screen's largest paint is reported
 * and the browser has been idle after it (`useIdleAfterPaint`; h57p: a task of its own, not the one
 * that starts the dashboard's reads after its paint) the switch is its look-alike, which measures
 * nothing; then the SegmentedControl takes its place (it slides its indicator when the language
 * changes), in a transition, on a page already laid out.
 * A press on the look-alike keeps it until the press ends, so the tap lands; the focus, if the
 * look-alike had it, moves to the same choice of the SegmentedControl.
 */
export function LanguageSwitch() {
  const { t, language, setLanguage } = useParentTexts();
  const painted = useIdleAfterPaint();
  const [pressing, setPressing] = useState(false);
  const focused = useRef<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const swapped = painted && !pressing;

  useEffect(() => {
    if (!pressing) return;
    const released = () => setPressing(false);
    window.addEventListener('pointerup', released);
    window.addEventListener('pointercancel', released);
    return () => {
      window.removeEventListener('pointerup', released);
      window.removeEventListener('pointercancel', released);
    };
  }, [pressing]);

  useEffect(() => {
    if (!swapped || focused.current === null) return;
    root.current?.querySelector<HTMLInputElement>(`input[value="${focused.current}"]`)?.focus();
    focused.current = null;
  }, [swapped]);

  const props = { label: t('language'), value: language, onChange: (code: string) => void setLanguage(code) };
  if (!swapped) {
    return (
      <SwitchLookAlike
        {...props}
        onPress={() => setPressing(true)}
        onFocusChange={(value) => {
          focused.current = value;
        }}
      />
    );
  }
  return (
    <SegmentedControl
      ref={root}
      aria-label={props.label}
      size="sm"
      value={props.value}
      onChange={props.onChange}
      data={DATA}
    />
  );
}
