import { describe, expect, it } from 'vitest';
import {
  canPerform,
  hasMinimumRole,
  homeOf,
  homePathOf,
  rankOf,
  reachesFamilyOf,
  viewableRoles,
} from '../src/roles';

describe('roles', () => {
  it('ranks the staff roles 1 to 6 and everyone else 0', () => {
    expect(rankOf('front_queue_wrangler')).toBe(1);
    expect(rankOf('super_admin')).toBe(6);
    expect(rankOf('parent')).toBe(0);
    expect(rankOf(undefined)).toBe(0);
  });

  it('sends each role to its home path and unknown roles to the front queue', () => {
    expect(homePathOf('district_admin')).toBe('/district-admin');
    expect(homePathOf('teacher')).toBe('/teacher');
    expect(homePathOf('janitor')).toBe('/front-queue');
    expect(homeOf('parent')).toBe('/parent-dashboard');
    expect(homeOf('school_admin')).toBe('/school-admin');
  });

  it('lets a higher role open pages of lower roles only', () => {
    expect(hasMinimumRole('school_admin', 'teacher')).toBe(true);
    expect(hasMinimumRole('teacher', 'school_admin')).toBe(false);
    expect(hasMinimumRole('parent', 'front_queue_wrangler')).toBe(false);
  });

  it('offers the views at or below the user rank', () => {
    expect(viewableRoles('teacher')).toEqual(['front_queue_wrangler', 'back_queue_wrangler', 'teacher']);
    expect(viewableRoles('parent')).toEqual([]);
  });

  it('applies the data-permission matrix', () => {
    expect(canPerform('school_admin', 'import')).toBe(true);
    expect(canPerform('teacher', 'update')).toBe(true);
    expect(canPerform('teacher', 'create')).toBe(false);
    expect(canPerform('back_queue_wrangler', 'update')).toBe(false);
    expect(canPerform('parent', 'update')).toBe(false);
    expect(canPerform(undefined, 'update')).toBe(false);
  });

  it('makes a sandboxed school read-only for everyone but super admins', () => {
    expect(canPerform('school_admin', 'create', true)).toBe(false);
    expect(canPerform('district_admin', 'update', true)).toBe(false);
    expect(canPerform('super_admin', 'delete', true)).toBe(true);
  });
});

describe('reachesFamilyOf (issue 49)', () => {
  const room = (teacherId: number | null) => ({ teacherId });
  it('lets a teacher reach the families of the classrooms they teach only', () => {
    expect(reachesFamilyOf({ id: 7, role: 'teacher' }, room(7))).toBe(true);
    expect(reachesFamilyOf({ id: 7, role: 'teacher' }, room(8))).toBe(false);
    expect(reachesFamilyOf({ id: 7, role: 'teacher' }, room(null))).toBe(false);
    expect(reachesFamilyOf({ id: 7, role: 'teacher' }, undefined)).toBe(false);
  });
  it('lets school admins and above reach any family of their school, and no one else', () => {
    for (const role of ['school_admin', 'district_admin', 'super_admin'])
      expect(reachesFamilyOf({ id: 1, role }, undefined)).toBe(true);
    for (const role of ['front_queue_wrangler', 'back_queue_wrangler', 'parent'])
      expect(reachesFamilyOf({ id: 1, role }, room(2))).toBe(false);
  });
});
