import { createHash } from 'node:crypto';
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { AgentCommand } from '../../protocol/messages.js';

/** Which agent this is in the index of conversations: a digest of its definition (session ids are unique per agent at best). */
export function agentIndexKey(command: AgentCommand): string {
  return createHash('sha256').update(canonicalJson(command)).digest('base64url').slice(0, 16);
}
