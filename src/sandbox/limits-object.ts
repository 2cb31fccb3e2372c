import { z } from 'zod';

/** The limits object of an account, with the field names the real service publishes. */

export const OWNERSHIP_LIMIT_FIELDS = [
  'pixOutSameHolderDayLimit',
  'pixOutSameHolderNightLimit',
  'pixOutDifferentHolderDayLimit',
  'pixOutDifferentHolderNightLimit',
  'pixInSameHolderDayLimit',
  'pixInSameHolderNightLimit',
  'pixInDifferentHolderDayLimit',
  'pixInDifferentHolderNightLimit',
] as const;

export const REQUIRED_LIMIT_FIELDS = ['pixDayLimit', 'pixNightLimit'] as const;

/** Fields a limit request may ask for; everything else in `limits` is informative only. */
export const REQUESTABLE_LIMIT_FIELDS = [...REQUIRED_LIMIT_FIELDS, ...OWNERSHIP_LIMIT_FIELDS] as const;

export type RequestableLimitField = (typeof REQUESTABLE_LIMIT_FIELDS)[number];
export type LimitValues = Partial<Record<RequestableLimitField, number>>;

export type Limits = Record<RequestableLimitField, number> & {
  dayStartAt: string;
  nightStartAt: string;
  /** A count of boletos a day, not cents. */
  boletoEmissionLimit: number;
  boletoMaximumValueLimit: number;
};

export function isRequestableLimitField(name: string): name is RequestableLimitField {
  return (REQUESTABLE_LIMIT_FIELDS as readonly string[]).includes(name);
}

/** Limits of a newly opened account, in cents (different values so a mix-up between fields shows). */
export function defaultLimits(): Limits {
  return {
    pixDayLimit: 500000,
    pixNightLimit: 100000,
    pixOutSameHolderDayLimit: 500000,
    pixOutSameHolderNightLimit: 100000,
    pixOutDifferentHolderDayLimit: 300000,
    pixOutDifferentHolderNightLimit: 50000,
    pixInSameHolderDayLimit: 1000000,
    pixInSameHolderNightLimit: 200000,
    pixInDifferentHolderDayLimit: 800000,
    pixInDifferentHolderNightLimit: 150000,
    dayStartAt: '06:00',
    nightStartAt: '20:00',
    boletoEmissionLimit: 200,
    boletoMaximumValueLimit: 1000000,
  };
}

/** A requested or granted limit amount, in cents. */
export const limitValueSchema = z
  .number({ error: 'must be an integer (cents)' })
  .int('must be an integer (cents)')
  .min(0, 'must not be negative');
