import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';

/**
 * A roster form's state: its values, their errors, and a submit that checks
 * the values with the same schema as the route, then saves.
 */
export const useRosterForm = <S extends z.ZodType, V extends Record<string, unknown>>(
  schema: S,
  initial: V,
  save: (input: z.output<S>) => Promise<unknown>,
) => {
  const [values, setValues] = useState<V>(initial);
  const { errors, show, showServerError, clear } = useFieldErrors();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    clear(key as string);
  };
  /** Checks and saves the values (with `extra` on top, e.g. a one-off flag). */
  const submit = async (event?: FormEvent, extra: Partial<V> = {}) => {
    event?.preventDefault();
    setFailure(null);
    const parsed = schema.safeParse({ ...values, ...extra });
    if (!parsed.success) {
      show(parsed.error.issues);
      return;
    }
    setSaving(true);
    try {
      await save(parsed.data);
    } catch (error) {
      showServerError(error);
      setFailure(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  /** Props of a text input bound to a field. */
  const text = (key: keyof V & string) => ({
    value: (values[key] as string | null | undefined) ?? '',
    onChange: (event: { currentTarget: { value: string } }) =>
      set(key, event.currentTarget.value as V[typeof key]),
    error: errors[key],
  });
  return { values, set, errors, failure, saving, submit, text };
};

/** The dialog around a form: title, fields, the save failure, Cancel and Save (or `submitLabel`). */
export function FormDialog({
  title,
  opened,
  onClose,
  onSubmit,
  saving,
  failure,
  children,
  extra,
  submitLabel = 'Save',
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  saving: boolean;
  failure: string | null;
  children: ReactNode;
  extra?: ReactNode;
  /** The submit button's text (Save unless a dialog creates something, e.g. Create). */
  submitLabel?: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {children}
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="space-between" mt="sm">
            <Group>{extra}</Group>
            <Group>
              <Button variant="default" onClick={onClose} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                {submitLabel}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
