/**
 * *Symposium: Continue Chat in Terminal*, what does not need `vscode`: which agents' chats to ask the bridge for, the
 * rows of the pick, and what the terminal runs (or why nothing can).
 */
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { AgentDefinition, ChatSession } from '../../protocol/messages.js';
import { forkCommandOf, type ForkCommand } from '../agents/agent-cli.js';
import type { AgentSetting, ModelWithAgent } from '../agents/models.js';

/** The chats listed: the latest, first, is the one the person used last. */
export const CHATS_LISTED = 20;

/** The ACP agents behind the models, once each, with their settings (the bridge names a chat's agent by its place here). */
export function agentsOfModels(models: readonly ModelWithAgent[]): { readonly definitions: AgentDefinition[]; readonly settings: AgentSetting[] } {
  const seen = new Set<string>();
  const definitions: AgentDefinition[] = [];
  const settings: AgentSetting[] = [];
  for (const { agent, setting } of models) {
    if (!('mcp_server' in agent) || setting === undefined) continue;
    const key = canonicalJson(agent);
    if (seen.has(key)) continue;
    seen.add(key);
    definitions.push(agent);
    settings.push(setting);
  }
  return { definitions, settings };
}

/** A row of the pick: the chat's first words, its agent, when it was used. */
export interface ChatRow {
  readonly label: string;
  readonly description: string;
  readonly chat: ChatSession;
}

export function chatRows(chats: readonly ChatSession[], settings: readonly AgentSetting[], now: number): ChatRow[] {
  return chats.flatMap((chat) => {
    const agent = settings[chat.agent];
    if (agent === undefined) return [];
    return [{ label: chat.title ?? `a chat with ${agent.name}`, description: `${agent.name} · ${ago(now - chat.usedAt)}`, chat }];
  });
}

/** What the terminal runs for the chat, with the agent's environment over the inherited one. */
export function terminalCommandOf(agent: AgentSetting, chat: ChatSession, env: Readonly<Record<string, string | undefined>>, which: (executable: string, env: Readonly<Record<string, string | undefined>>) => string | undefined): ForkCommand {
  return forkCommandOf(agent.name, agent.cli, chat.session, agent.env, env, which);
}

function ago(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
