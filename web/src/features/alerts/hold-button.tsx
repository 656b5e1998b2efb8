import { type AlertType, LONG_PRESS_MS } from '@curbside/domain';
import { Box, Text, UnstyledButton } from '@mantine/core';
import { usePress } from '../queue/use-press';
import classes from './alerts.module.css';

/** What an idle button asks for. */
export const HOLD_HINT: Record<AlertType, string> = {
  help: 'Hold to request help',
  emergency: 'Hold to call an emergency',
};

export interface HoldButtonProps {
  /** Help (orange, 800 ms) or emergency (red, 1000 ms). */
  type: AlertType;
  /** The big word: `Help`, `EMERGENCY ACTIVE`… */
  label: string;
  /** The line under it: `Hold to request help`, `Sending...`… */
  hint: string;
  /** Filled while its alert is active. */
  active?: boolean;
  sending?: boolean;
  onHold: () => void;
}

/**
 * Press and hold to act: 800 ms for help, 1000 ms for an emergency (a tap
 * does nothing, so a phone tapped by accident sends no alert). A bar fills
 * while the press lasts; holding Enter or Space works too. The staff's alert
 * panel and the bus driver's page share it.
 */
export function HoldButton({ type, label, hint, active = false, sending = false, onHold }: HoldButtonProps) {
  const delay = LONG_PRESS_MS[type];
  const press = usePress({ delay, onLongPress: onHold, keyboard: true, disabled: sending });
  return (
    <UnstyledButton
      {...press.handlers}
      className={classes.trigger}
      data-type={type}
      data-active={active || undefined}
      aria-pressed={active}
      aria-busy={sending || undefined}
      data-pressing={press.pressing || undefined}
      style={{ opacity: sending ? 0.7 : 1 }}
    >
      <Text component="span" display="block" className={classes.triggerLabel} fw={900} lh={1.15} inherit>
        {label}
      </Text>
      <Text component="span" display="block" fz="sm" fw={700} inherit>
        {hint}
      </Text>
      <Box
        aria-hidden
        className={classes.progress}
        style={{
          transform: `scaleX(${press.pressing ? 1 : 0})`,
          transition: press.pressing ? `transform ${delay}ms linear` : 'none',
        }}
      />
    </UnstyledButton>
  );
}
