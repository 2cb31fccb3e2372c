/** Types of block-kit.js (plain JS, loaded as is by the page). */
export interface RenderContext {
  users?: Record<string, string>;
  errors?: Record<string, string>;
  elements?: Array<{ element: Record<string, unknown>; blockId?: string }>;
}
export function escapeHtml(s: string): string;
export function mrkdwn(text: string, users?: Record<string, string>): string;
export function text(obj: { type: string; text: string; emoji?: boolean } | undefined, users?: Record<string, string>): string;
export function renderBlocks(blocks: unknown[] | undefined, ctx?: RenderContext): string;
export function renderMessage(message: { text?: string; blocks?: unknown }, ctx?: RenderContext): string;
export const EMOJI: Record<string, string>;
