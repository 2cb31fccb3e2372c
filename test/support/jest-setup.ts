import { SlackStandIn } from '../../src/slack-standin/web-api';

/**
 * Real Slack is the judge: every view, message and acknowledgement a test causes goes through the
 * fake Slack's Block Kit checks (block-kit-rules.ts), and a test that caused a refusal fails here,
 * even if its own assertions passed. A test that means to cause one takes it with `takeRefusals()`.
 */
function failOnRefusals(): void {
  const refused = SlackStandIn.takeUntakenRefusals();
  if (refused.length === 0) return;
  const details = refused.map((r) => `${r.where}:\n  ${r.problems.join('\n  ')}`).join('\n');
  throw new Error(`Slack would refuse ${refused.length} payload(s) the app sent:\n${details}`);
}

afterEach(failOnRefusals);
afterAll(failOnRefusals);
