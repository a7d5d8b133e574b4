import type { AgentSession, AgentStream } from './agent-stream.js';
import type { AcpAgentOptions } from './acp/acp-agent.js';
import { LazyAgentStream } from './lazy.js';
import { ElizaAgent } from './eliza/eliza-agent.js';
import { canonicalJson } from '../history/fingerprint.js';
import type { AgentDefinition } from '../protocol/messages.js';

export interface AgentRegistryOptions {
  /** Pause between Eliza's streamed words. */
  readonly elizaPaceMs: number;
  readonly acp: AcpAgentOptions;
}

/**
 * One agent stream per distinct agent definition, shared by all conversations with that agent,
 * created on first use.
 */
export class AgentRegistry {
  private readonly streams = new Map<string, AgentStream>();

  constructor(private readonly options: AgentRegistryOptions) {}

  /** Requests whose agents have the same key talk to the same agent. */
  keyOf(definition: AgentDefinition): string {
    return canonicalJson(definition);
  }

  openSession(definition: AgentDefinition, conversationId: string): AgentSession {
    const key = this.keyOf(definition);
    let stream = this.streams.get(key);
    if (stream === undefined) this.streams.set(key, (stream = this.create(definition)));
    return stream.openSession(conversationId);
  }

  dispose(): void {
    for (const stream of this.streams.values()) stream.dispose();
    this.streams.clear();
  }

  private create(definition: AgentDefinition): AgentStream {
    if ('eliza' in definition) {
      return new ElizaAgent({ deterministic: definition.eliza.deterministic ?? false, paceMs: this.options.elizaPaceMs });
    }
    const command = definition.mcp_server;
    return new LazyAgentStream(async () => new (await import('./acp/acp-agent.js')).AcpAgent(command, this.options.acp));
  }
}
