// What proves a publish of the motd app worked, for the verifier (@rstackbench/verifier): the POST
// /publish, an answer below 400, a navigation, and the store read back through the app's own command.
// One contract for the example script (verify-publish.ts, docs/fault-proxy.md step 9) and its test.
import type { Page } from 'playwright-core';
import type { ActionContract } from '../../../verifier/src/index.ts';

export const publishContract = (page: Page, message: string, stored: () => string): ActionContract => ({
  id: 'motd/publish',
  action: () => page.getByRole('button', { name: 'Publish' }).click({ noWaitAfter: true }),
  request: { method: 'POST', path: '/publish' },
  transport: { success: [[200, 399]], failure: [[400, 599]], networkError: 'failure' },
  navigates: true,
  semantic: { kind: 'read-back', read: async () => stored(), success: (value) => value === message },
  timeoutMs: 5000,
});
