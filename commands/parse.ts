import { z } from 'zod';

/** Identifiers of the Pix API (accounts, requests): object ids in practice; never path syntax. */
export const PixIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
