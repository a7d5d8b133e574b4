import type { AgentSession, AgentStream } from '../agent-stream.js';
import type { AgentSessions } from '../agent-sessions.js';
import type { AcpAgentOptions } from '../acp/acp-agent-options.js';
import { LazyAgentStream } from './lazy.js';
import { ElizaAgent } from '../eliza/eliza-agent.js';
import { HeldSecrets } from './held-secrets.js';
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { AgentCommand, AgentDefinition, AgentInfo, AgentSlashCommand } from '../../protocol/messages.js';
import { SessionPool } from './session-pool.js';
import type { RecentAgentSession } from '../../state/conversation-store.js';
import { indexKeysOf } from '../acp/shell-off.js';

export interface AgentRegistryOptions {
  /** Pause between Eliza's streamed words. */
  readonly elizaPaceMs: number;
  readonly acp: AcpAgentOptions;
  /** An agent session unused this long is closed (the conversation resumes it when it goes on). */
  readonly sessionIdleMs: number;
  /** At most this many agent sessions stay open. */
  readonly maxOpenSessions: number;
  /** An agent process with no open session this long exits; it starts again when needed. */
  readonly agentIdleMs: number;
  /** Hears what is learned about an agent (its models, image support, context window). */
  readonly onAgentInfo?: (agent: AgentDefinition, info: AgentInfo) => void;
  /** Hears an agent's slash commands whenever they changed. */
  readonly onAgentCommands?: (agent: AgentDefinition, commands: readonly AgentSlashCommand[]) => void;
  /** The API keys the person set, as any window gave them; the agent host's are every workspace's. */
  readonly heldSecrets?: HeldSecrets;
}

/** Agent definitions whose keys are kept: a few agents are in use at a time. */
const KEYS_KEPT = 64;

/**
 * One agent stream per distinct agent definition, shared by all conversations with that agent,
 * created on first use and disposed of (its process ends) once it has had no open session for
 * `agentIdleMs`. Sessions go through a pool that closes idle ones.
 */
export class AgentRegistry {
  private readonly streams = new Map<string, AgentStream>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly names = new Map<string, string>();
  /** The keys of the definitions seen lately, and each as the agent gets it (with the keys held for it), by their JSON text. */
  private readonly keys = new Map<string, { readonly key: string; readonly completed: AgentDefinition }>();
  /** The API keys the person set, as any window gave them: a request that lacks one gets it. */
  private readonly held: HeldSecrets;
  /** The version of `held` the keys were completed with. */
  private heldVersion = 0;
  private readonly pool: SessionPool;

  constructor(private readonly options: AgentRegistryOptions) {
    this.held = options.heldSecrets ?? new HeldSecrets();
    this.pool = new SessionPool({ idleMs: options.sessionIdleMs, maxOpen: options.maxOpenSessions, onAgentIdle: (key, idle) => this.onAgentIdle(key, idle) });
  }

  /**
   * Requests whose agents have the same key talk to the same agent. Asked on every request: its canonical JSON is
   * kept by the definition's JSON text, which the engine writes at a fraction of the cost of sorting its keys.
   */
  keyOf(definition: AgentDefinition): string {
    return this.known(definition).key;
  }

  /** A window's API keys for an agent (`symposium/agentSecrets`): held for every request of that agent. */
  holdSecrets(agent: AgentDefinition, names: readonly string[], removed: readonly string[]): void {
    this.held.hold(agent, names, removed);
  }

  openSession(definition: AgentDefinition, conversationId: string): AgentSession {
    const key = this.keyOf(definition);
    this.names.set(key, 'eliza' in definition ? 'Eliza' : definition.mcp_server.name);
    return this.pool.session(
      key,
      () => {
        let stream = this.streams.get(key);
        if (stream === undefined) this.streams.set(key, (stream = this.create(this.known(definition).completed)));
        return stream.openSession(conversationId);
      },
      conversationId,
    );
  }

  /** ACP `authenticate` for this agent (started if it does not run; it idles out if no session follows). */
  async authenticate(definition: AgentDefinition, methodId: string): Promise<void> {
    const { key, stream } = this.streamOf(definition);
    if (stream.authenticate === undefined) throw new Error(`${this.names.get(key) ?? 'This agent'} has no sign-in.`);
    await stream.authenticate(methodId);
  }

  /** The agent's own sessions; none for an agent that keeps none (Eliza). Its stream idles out if no session follows. */
  sessionsOf(definition: AgentDefinition): AgentSessions | undefined {
    return 'eliza' in definition ? undefined : this.streamOf(definition).stream.sessions;
  }

  /** The agent's model was picked: it starts now rather than at the first message (it idles out if none follows). */
  prepare(definition: AgentDefinition): void {
    this.streamOf(definition).stream.prepare?.();
  }

  /** Of `agents`, the one whose conversations the index keeps under `indexKey` starts ahead (as `prepare`); its definition, if one is. */
  prepareIndexed(agents: readonly AgentDefinition[], indexKey: string): AgentDefinition | undefined {
    const definition = agents.find((agent) => this.indexKeysOf(agent).includes(indexKey));
    if (definition !== undefined) this.prepare(definition);
    return definition;
  }

  /**
   * Of `recent` (conversations used lately, latest first), the latest `count` with one of `agents` will likely go
   * on soon: their agents start and resume their sessions ahead. Returns how many were chosen.
   */
  resumeRecent(agents: readonly AgentDefinition[], recent: readonly RecentAgentSession[], count: number): number {
    const indexKeys = new Map(agents.map((agent) => [agent, this.indexKeysOf(agent)] as const));
    const ours = new Set([...indexKeys.values()].flat());
    const chosen = recent.filter((conversation) => ours.has(conversation.agent)).slice(0, count);
    for (const [definition, keys] of indexKeys) {
      const conversations = chosen.filter((conversation) => keys.includes(conversation.agent));
      if (conversations.length > 0) this.streamOf(definition).stream.resumeAhead?.(conversations);
    }
    return chosen.length;
  }

  /**
   * The keys under which the index of conversations keeps this agent's sessions: its own process's, and its second
   * one's, its shell off; none for Eliza, whose conversations have no agent session.
   */
  indexKeysOf(agent: AgentDefinition): string[] {
    return 'mcp_server' in agent ? indexKeysOf(agent.mcp_server, this.options.acp.consumerTerminal !== false) : [];
  }

  /** How many agent sessions and agent streams are open now. */
  get counts(): { readonly sessions: number; readonly agents: number } {
    return { sessions: this.pool.openCount, agents: this.streams.size };
  }

  dispose(): void {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    for (const stream of this.streams.values()) stream.dispose();
    this.streams.clear();
  }

  /** The agent's stream, created if there is none: one with no session idles out like any other. */
  private streamOf(definition: AgentDefinition): { key: string; stream: AgentStream } {
    const key = this.keyOf(definition);
    let stream = this.streams.get(key);
    if (stream === undefined) {
      this.names.set(key, 'eliza' in definition ? 'Eliza' : definition.mcp_server.name);
      this.streams.set(key, (stream = this.create(this.known(definition).completed)));
      if (this.pool.openOf(key) === 0) this.onAgentIdle(key, true);
    }
    return { key, stream };
  }

  private onAgentIdle(key: string, idle: boolean): void {
    clearTimeout(this.idleTimers.get(key));
    this.idleTimers.delete(key);
    if (!idle) return;
    const timer = setTimeout(() => {
      this.idleTimers.delete(key);
      const name = this.names.get(key);
      if (this.streams.has(key)) this.options.acp.log.info(`agent ${name} has had no open session for ${this.options.agentIdleMs} ms: it stops until it is needed again`);
      this.streams.get(key)?.dispose();
      this.streams.delete(key);
    }, this.options.agentIdleMs);
    this.idleTimers.set(key, timer.unref());
  }

  private known(definition: AgentDefinition): { readonly key: string; readonly completed: AgentDefinition } {
    const json = JSON.stringify(definition);
    if (this.heldVersion !== this.held.version) {
      this.heldVersion = this.held.version;
      this.keys.clear();
    }
    let known = this.keys.get(json);
    if (known === undefined) {
      if (this.keys.size >= KEYS_KEPT) this.keys.clear();
      const completed = this.held.complete(definition);
      this.keys.set(json, (known = { key: canonicalJson(completed), completed }));
    }
    return known;
  }

  private create(definition: AgentDefinition): AgentStream {
    if ('eliza' in definition) {
      return new ElizaAgent({ deterministic: definition.eliza.deterministic ?? false, paceMs: this.options.elizaPaceMs });
    }
    const command = definition.mcp_server;
    const onInfo = (info: AgentInfo) => this.options.onAgentInfo?.(definition, info);
    const key = this.keyOf(definition);
    const onCommands = (commands: readonly AgentSlashCommand[]) => this.options.onAgentCommands?.(definition, commands);
    return new LazyAgentStream(async () => {
      const [{ AcpAgent }, { ResumeSchedule }] = await Promise.all([import('../acp/acp-agent.js'), import('../acp/resume-schedule.js')]);
      const room = {
        spare: (evict: () => void) => this.pool.holdSpare(key, evict),
        ahead: (conversationId: string, evict: () => void) => this.pool.holdAhead(key, conversationId, evict),
        resumes: new ResumeSchedule(),
      };
      const start = (spawned: AgentCommand) => new AcpAgent(spawned, this.options.acp, onInfo, room, onCommands);
      const { shellOff } = command;
      // An agent whose shell is off only per process runs a second process for conversations offered a command tool.
      if (shellOff === undefined || this.options.acp.consumerTerminal === false) return start(command);
      return new (await import('../acp/shell-off-variant.js')).ShellOffVariant(command, shellOff, this.options.acp, start);
    });
  }
}
