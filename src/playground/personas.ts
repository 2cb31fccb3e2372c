/**
 * The people of the playground, one per role, one with none, and an escalation manager. Their IDs go
 * into the bot's ACCESS_* lists (see index.ts), so each sees what that role may do; their handles
 * name them in a command (`/pix away 2026-12-24 @abel`), as Slack sends a mention.
 */
export interface Persona {
  key: 'admin' | 'operator' | 'viewer' | 'approver' | 'manager' | 'nobody';
  id: string;
  name: string;
  handle: string;
  role: string;
}

export const PERSONAS: readonly Persona[] = [
  { key: 'admin', id: 'U0ADMIN', name: 'Ana Admin', handle: 'ana', role: 'admin' },
  { key: 'operator', id: 'U0OPERATOR', name: 'Otto Operator', handle: 'otto', role: 'operator' },
  { key: 'viewer', id: 'U0VIEWER', name: 'Vera Viewer', handle: 'vera', role: 'viewer' },
  { key: 'approver', id: 'U0APPROVER', name: 'Abel Approver', handle: 'abel', role: 'operator, approver' },
  { key: 'manager', id: 'U0MANAGER', name: 'Mara Manager', handle: 'mara', role: 'operator, escalation manager' },
  { key: 'nobody', id: 'U0NOBODY', name: 'Nina Nobody', handle: 'nina', role: 'no role' },
];

const id = (key: Persona['key']) => PERSONAS.find((p) => p.key === key)!.id;

/**
 * The bot's access and approval configuration in the playground: limit requests wait for a second
 * person (APPROVALS=limit-request), so the four-eyes flow shows; the approver (an operator) and the
 * admin may approve each other's. A request above R$ 10.000,00 on some field needs both of them (two
 * checkers), and one still waiting after two minutes is escalated to the manager, who may then decide
 * it too: intervals this short only here, so that a newcomer sees it happen.
 */
export const PLAYGROUND_ACCESS = {
  ACCESS_ADMINS: id('admin'),
  ACCESS_OPERATORS: [id('operator'), id('approver'), id('manager')].join(','),
  ACCESS_VIEWERS: id('viewer'),
  ACCESS_APPROVERS: [id('approver'), id('admin')].join(','),
  APPROVALS: 'limit-request',
  APPROVAL_QUORUM_ABOVE: '10.000,00',
  APPROVAL_ESCALATE_AFTER: '2m',
  ACCESS_ESCALATION: id('manager'),
};
