import type * as acp from '@agentclientprotocol/sdk';

const ALLOW: readonly acp.PermissionOptionKind[] = ['allow_once', 'allow_always'];
const REJECT: readonly acp.PermissionOptionKind[] = ['reject_once', 'reject_always'];

/** The agent's option that allows (once, if it offers that), or `cancelled` when it offers none. */
export const allowing = (options: readonly acp.PermissionOption[]): acp.RequestPermissionOutcome => choose(options, ALLOW);

/** The agent's option that rejects (once, if it offers that), or `cancelled` when it offers none. */
export const rejecting = (options: readonly acp.PermissionOption[]): acp.RequestPermissionOutcome => choose(options, REJECT);

function choose(options: readonly acp.PermissionOption[], kinds: readonly acp.PermissionOptionKind[]): acp.RequestPermissionOutcome {
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option !== undefined) return { outcome: 'selected', optionId: option.optionId };
  }
  return { outcome: 'cancelled' };
}
