import type { PermissionOption, SessionUpdate, StopReason, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { Todo } from '../../../tools/consumer-todos.js';

/** A `session/request_permission` the agent is waiting on. */
export interface PendingPermission {
  readonly toolCall: ToolCallUpdate;
  readonly options: readonly PermissionOption[];
  /** The id only the person's approval of this request returns (src/protocol/agent-action.ts). */
  readonly actionId: string;
}

/** The agent's call of a bridged VS Code tool, waiting for VS Code to run it. */
export interface PendingToolCall {
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** What happens during one ACP prompt turn, in the order the agent said it. */
export type AcpTurnEvent =
  | { readonly kind: 'update'; readonly update: SessionUpdate }
  | { readonly kind: 'permission'; readonly permission: PendingPermission }
  /** A permission request refused because the consumer offers no way to ask the person. */
  | { readonly kind: 'refused'; readonly permission: PendingPermission }
  | { readonly kind: 'tool'; readonly call: PendingToolCall }
  /** The agent's plan changed, where the consumer shows plans in its own todo list (a call of its todo tool). */
  | { readonly kind: 'plan'; readonly todos: readonly Todo[]; readonly tool: string }
  /** Every bridged tool call the agent announced has reached the bridge: no other one is on its way. */
  | { readonly kind: 'announced-calls-arrived' }
  | { readonly kind: 'stopped'; readonly stopReason: StopReason };
