import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';

/**
 * Shows `view` in an open modal; false when Slack refuses (most often: the user closed it), so the
 * caller can fall back to a DM for what must not be lost.
 */
export function modalUpdater(slack: WebClient, viewId: string): (view: ModalView) => Promise<boolean> {
  return async (view) => {
    try {
      await slack.views.update({ view_id: viewId, view });
      return true;
    } catch {
      return false;
    }
  };
}
