/**
 * The people of the playground, one per role, and one with none. Their IDs go into the bot's
 * ACCESS_* lists (see index.ts), so each sees what that role may do.
 */
export interface Persona {
  key: 'admin' | 'operator' | 'viewer' | 'approver' | 'nobody';
  id: string;
  name: string;
  role: string;
}

export const PERSONAS: readonly Persona[] = [
  { key: 'admin', id: 'U0ADMIN', name: 'Ana Admin', role: 'admin' },
  { key: 'operator', id: 'U0OPERATOR', name: 'Otto Operator', role: 'operator' },
  { key: 'viewer', id: 'U0VIEWER', name: 'Vera Viewer', role: 'viewer' },
  { key: 'approver', id: 'U0APPROVER', name: 'Abel Approver', role: 'operator, approver' },
  { key: 'nobody', id: 'U0NOBODY', name: 'Nina Nobody', role: 'no role' },
];

const id = (key: Persona['key']) => PERSONAS.find((p) => p.key === key)!.id;

/**
 * The bot's access configuration in the playground: limit requests wait for a second person
 * (APPROVALS=limit-request), so the four-eyes flow shows; the approver (an operator) and the admin
 * may approve each other's.
 */
export const PLAYGROUND_ACCESS = {
  ACCESS_ADMINS: id('admin'),
  ACCESS_OPERATORS: [id('operator'), id('approver')].join(','),
  ACCESS_VIEWERS: id('viewer'),
  ACCESS_APPROVERS: [id('approver'), id('admin')].join(','),
  APPROVALS: 'limit-request',
};
