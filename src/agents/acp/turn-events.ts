import type { PermissionOption, SessionUpdate, StopReason, ToolCallUpdate } from '@agentclientprotocol/sdk';

/** A `session/request_permission` the agent is waiting on; the session answers it through `answer`. */
export interface PendingPermission {
  readonly toolCall: ToolCallUpdate;
  readonly options: readonly PermissionOption[];
}

/** What happens during one ACP prompt turn, in the order the agent said it. */
export type AcpTurnEvent =
  | { readonly kind: 'update'; readonly update: SessionUpdate }
  | { readonly kind: 'permission'; readonly permission: PendingPermission }
  | { readonly kind: 'stopped'; readonly stopReason: StopReason };
