import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { signedIn } from '../support/server';

/**
 * Deactivating a classroom asks first (issue 32), naming how many students
 * are in it: Cancel leaves it active; one with students is not deactivated
 * (they would lose their classroom), an empty one is, after the question.
 */
const suite = browserSuite();

const classroomsDialog = async (expectedErrors: RegExp[] = []) => {
  const { page } = await suite.open('admin_demo', '/school-admin', { expectedErrors });
  await page.getByRole('tab', { name: /Teachers/ }).click();
  await page.getByRole('button', { name: 'Classrooms', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Classrooms' });
  await dialog.getByRole('table', { name: 'Classrooms' }).waitFor({ timeout: 30_000 });
  return { page, dialog };
};

describe('deactivating a classroom', () => {
  it('asks first, naming its students; Cancel leaves it active', { timeout: 120_000 }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const rooms = (await admin.get('/api/classrooms')).body as Array<{ id: number; name: string }>;
    const room12 = rooms.find((room) => room.name === 'Room 12') as { id: number };
    const count = (await admin.get(`/api/classrooms/${room12.id}/student-count`)).body.count as number;
    expect(count).toBeGreaterThan(1);

    const { page, dialog } = await classroomsDialog();
    const row = dialog.getByRole('row').filter({ hasText: 'Room 12' });
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const question = page.getByRole('dialog', { name: 'Deactivate Room 12?' });
    await question.getByText(`Room 12 has ${count} students.`, { exact: false }).waitFor({ timeout: 15_000 });
    expect(await question.getByRole('button', { name: 'Deactivate' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'classroom-deactivate-question.png') });

    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => question.count(), { timeout: 10_000 }).toBe(0);
    expect(await row.count()).toBe(1);
    expect(
      ((await admin.get('/api/classrooms')).body as Array<{ name: string }>).some(
        (r) => r.name === 'Room 12',
      ),
    ).toBe(true);
  });

  it('deactivates an empty classroom once the question is answered', { timeout: 120_000 }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const created = await admin.post('/api/classrooms', { name: 'Room 99', grade: '3', teacherId: null });
    expect(created.status).toBe(201);

    const { page, dialog } = await classroomsDialog();
    const row = dialog.getByRole('row').filter({ hasText: 'Room 99' });
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const question = page.getByRole('dialog', { name: 'Deactivate Room 99?' });
    await question.getByText('No students are in Room 99.', { exact: false }).waitFor({ timeout: 15_000 });
    // Nothing happened yet: the question is only a question.
    expect(
      ((await admin.get('/api/classrooms')).body as Array<{ name: string }>).some(
        (r) => r.name === 'Room 99',
      ),
    ).toBe(true);
    await question.getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    expect(
      ((await admin.get('/api/classrooms')).body as Array<{ name: string }>).some(
        (r) => r.name === 'Room 99',
      ),
    ).toBe(false);
  });

  it("shows the server's refusal under the field it names (the teacher left meanwhile)", {
    timeout: 120_000,
  }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const created = await admin.post('/api/teachers', { firstName: 'Leaving', lastName: 'Soon' });
    expect(created.status).toBe(201);
    const teacher = (created.body as { teacher: { id: number; name: string } }).teacher;

    const { page, dialog } = await classroomsDialog([/status of 400/]);
    await dialog.getByRole('button', { name: 'Add classroom' }).click();
    const form = dialog.getByRole('form', { name: 'Add classroom' });
    await form.getByLabel('Classroom name').fill('Room 98');
    await form.getByLabel('Grade').fill('2');
    const field = form.getByLabel('Teacher', { exact: true });
    await field.click();
    await page.getByRole('option', { name: teacher.name }).click();
    // The teacher is deactivated while the form is open: the server refuses the save with a 400
    // naming the field, and the message shows under the Teacher field.
    expect((await admin.request('DELETE', `/api/teachers/${teacher.id}`)).status).toBe(200);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 30_000 }).toBe('true');
    const described = (await field.getAttribute('aria-describedby'))?.split(' ') ?? [];
    const texts = await Promise.all(described.map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(texts).toContain('That teacher does not exist');
    // Nothing typed is lost: the form is still open with what was entered.
    expect(await form.getByLabel('Classroom name').inputValue()).toBe('Room 98');
    await page.screenshot({ path: join(shotsDir(), 'classroom-field-error.png') });
    await expectAccessible(page);
    // Choosing another teacher clears the field's error.
    await field.click();
    await page.getByRole('option').first().click();
    await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 30_000 }).not.toBe('true');
  });

  it('logged no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
