import type { AuditEntry } from '../../src/audit/entry';
import { AppAudit } from '../../src/audit/recorder';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';

function setup(sink: (e: AuditEntry) => Promise<void>) {
  const lines: string[] = [];
  const secrets = new SecretRegistry();
  secrets.add('APPID-0123456789abcdef');
  const logger = createLogger({ level: 'info', secrets, destination: { write: (l: string) => void lines.push(l) } });
  const written: AuditEntry[] = [];
  const audit = new AppAudit({
    sink: {
      append: async (e) => {
        await sink(e);
        written.push(e);
      },
    },
    scrub: (t) => secrets.scrub(t),
    logger,
    now: () => new Date('2026-03-05T12:00:00.000Z'),
  });
  return { audit, written, lines };
}

describe('the audit recorder', () => {
  test('one delivery: its Pix calls as they come (masked, with the named account), then its own entry with what the calls were about', async () => {
    const { audit, written } = setup(async () => undefined);
    const delivery = audit.forDelivery({ user: 'U0ADMIN01', role: 'admin', action: 'action:pix_key_delete_confirm' });
    delivery.about({ account: 'acc1' });
    delivery.pixCall({
      operation: 'deletePixKey',
      method: 'DELETE',
      path: '/api/v1/pix-keys/52998224725',
      status: 503,
      ms: 3,
      attempt: 1,
      about: { pixKey: '52998224725' },
    });
    delivery.pixCall({
      operation: 'deletePixKey',
      method: 'DELETE',
      path: '/api/v1/pix-keys/52998224725',
      status: 204,
      ms: 3,
      attempt: 2,
      about: { pixKey: '52998224725' },
    });
    await delivery.finish({ outcome: 'ok' });
    const common = {
      time: '2026-03-05T12:00:00.000Z',
      user: 'U0ADMIN01',
      role: 'admin',
      action: 'action:pix_key_delete_confirm',
      // The key as typed, eleven digits (a CPF or a phone): masked as strictly as either.
      target: 'account:acc1 key:***25',
    };
    expect(written).toEqual([
      { ...common, pixMethod: 'DELETE', pixPath: '/api/v1/pix-keys/***25', pixStatus: 503, outcome: 'failed' },
      { ...common, pixMethod: 'DELETE', pixPath: '/api/v1/pix-keys/***25', pixStatus: 204, outcome: 'ok', detail: 'attempt 2' },
      { ...common, outcome: 'ok' },
    ]);
  });

  test('the outcome: the last Pix call failing makes it failed; what the handler tells wins over ok, not over an error', async () => {
    const { audit, written } = setup(async () => undefined);
    const failed = audit.forDelivery({ user: 'U1', role: 'operator', action: 'view:pix_key_add' });
    failed.pixCall({
      operation: 'createPixKey',
      method: 'POST',
      path: '/api/v1/pix-keys',
      status: 400,
      ms: 1,
      attempt: 1,
      about: { pixKey: 'a@b.co' },
    });
    await failed.finish({ outcome: 'ok' });
    expect(written.at(-1)).toMatchObject({ outcome: 'failed', target: 'key:a***@b.co' });

    // An approval's step: maker and checker on every entry from then on, its own outcome.
    const approved = audit.forDelivery({ user: 'U2', role: 'admin', action: 'action:approval_approve' });
    approved.approval({ maker: 'U1', checker: 'U2' });
    approved.about({ approval: 'ap1' });
    approved.outcome('approved');
    approved.pixCall({ operation: 'createPixKey', method: 'POST', path: '/api/v1/pix-keys', status: 201, ms: 1, attempt: 1 });
    await approved.finish({ outcome: 'ok' });
    expect(written.slice(-2)).toEqual([
      expect.objectContaining({ maker: 'U1', checker: 'U2', pixStatus: 201, outcome: 'ok', target: 'approval:ap1' }),
      expect.objectContaining({ maker: 'U1', checker: 'U2', outcome: 'approved', target: 'approval:ap1' }),
    ]);

    const refused = audit.forDelivery({ user: 'U1', role: 'admin', action: 'action:approval_approve' });
    refused.outcome('refused', 'self-approval');
    await refused.finish({ outcome: 'ok' });
    expect(written.at(-1)).toMatchObject({ outcome: 'refused', detail: 'self-approval' });

    const crashed = audit.forDelivery({ user: 'U1', role: 'admin', action: '/pix withdraw-key' });
    crashed.outcome('pending');
    await crashed.finish({ outcome: 'error' });
    expect(written.at(-1)).toMatchObject({ outcome: 'error' });
  });

  test('an entry that cannot be stored is logged instead (masked, no secret), and nothing is thrown to the handler', async () => {
    const { audit, lines } = setup(async () => {
      throw new Error('Redis is down');
    });
    const delivery = audit.forDelivery({ user: 'U1', role: 'admin', action: '/pix keys' });
    delivery.about({ account: 'APPID-0123456789abcdef', pixKey: 'finance@example.com' });
    await expect(delivery.finish({ outcome: 'ok' })).resolves.toBeUndefined();
    await expect(audit.record({ user: 'app', role: 'none', action: 'approval:expire', outcome: 'expired' })).resolves.toBeUndefined();
    const logged = lines.join('\n');
    expect(logged).toContain('could not store an audit entry');
    expect(logged).toContain('Redis is down');
    expect(logged).toContain('f***@example.com');
    expect(logged).not.toContain('finance@example.com');
    expect(logged).not.toContain('APPID-0123456789abcdef');
    expect(lines).toHaveLength(2);
  });
});
