import { z } from 'zod';

export const RoleSchema = z.enum(['viewer', 'operator', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

/** The roles from the highest: a user listed under several gets the highest. */
export const ROLES_HIGH_FIRST: Role[] = ['admin', 'operator', 'viewer'];

/** Whether a user with `actual` (undefined: none) may use what needs `needed`. */
export function roleAllows(actual: Role | undefined, needed: Role | 'anyone'): boolean {
  if (needed === 'anyone') return true;
  return actual !== undefined && RANK[actual] >= RANK[needed];
}

/** The variable that lists each role's users. */
export const ACCESS_VARIABLE: Record<Role, string> = {
  viewer: 'ACCESS_VIEWERS',
  operator: 'ACCESS_OPERATORS',
  admin: 'ACCESS_ADMINS',
};
