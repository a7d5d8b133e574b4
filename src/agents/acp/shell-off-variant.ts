import { defer } from 'rxjs';
import type { AgentCommand, ShellOff } from '../../protocol/messages.js';
import type { RecentAgentSession } from '../../state/conversation-store.js';
import { offersCommandTool } from '../../tools/consumer-commands.js';
import type { AgentSession, AgentStream, TurnInput } from '../agent-stream.js';
import type { AgentSessions } from '../agent-sessions.js';
import type { AcpAgentOptions } from './acp-agent-options.js';
import { agentIndexKey } from './agent-index-key.js';
import { shellOffCommand, shellOffDir, writeSettingsFiles, type ShellOffCommand } from './shell-off.js';

/** An agent (an `AcpAgent`) started from a command. */
export type StartAgent = (command: AgentCommand) => AgentStream;

/**
 * An agent whose own shell can be switched off only for a whole process (Codex, Gemini CLI, Qwen Code, OpenCode),
 * as two: its process as it is, and a second one with its shell off (`shellOff`), started when a conversation
 * first needs it. A conversation offered a consumer's command tool (Copilot's `run_in_terminal`, Cline's and Roo's)
 * runs in the second, so that its agent runs commands only through that tool; any other in the first. A
 * conversation stays in the process it opened its session in, as long as that session is known (as Claude Code's
 * `disallowedTools` stays as its session opened): one that started in Ask mode keeps the agent's shell in Agent
 * mode, and the other way round. Both are disposed of together.
 */
export class ShellOffVariant implements AgentStream {
  /** None where its settings could not be prepared: then every conversation runs in the agent's own process. */
  private readonly shellOff: ShellOffCommand | undefined;
  private readonly keys: { readonly own: string; readonly shellOff: string | undefined };
  private withShellOff: AgentStream | undefined;
  private readonly own: AgentStream;

  constructor(
    command: AgentCommand,
    switches: ShellOff,
    private readonly options: Pick<AcpAgentOptions, 'agentSessions' | 'offeredTools' | 'cwd' | 'log'>,
    private readonly start: StartAgent,
  ) {
    this.own = start(command);
    try {
      this.shellOff = shellOffCommand(command, switches, process.env, shellOffDir);
    } catch (error) {
      options.log.warn(`agent ${command.name} keeps its own shell beside the consumer's command tools: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.keys = { own: agentIndexKey(command), shellOff: this.shellOff === undefined ? undefined : agentIndexKey(this.shellOff.command) };
  }

  openSession(conversationId: string): AgentSession {
    let opened: AgentSession | undefined;
    return {
      turn: (input: TurnInput) =>
        defer(() => {
          opened ??= this.agentFor(conversationId, input).openSession(conversationId);
          return opened.turn(input);
        }),
      close: () => opened?.close(),
      get awaitingConsumer() {
        return opened?.awaitingConsumer === true;
      },
    };
  }

  /** Starts the process the person used last in this workspace: the one with its shell off if they used it here. */
  prepare(): void {
    const used = this.keys.shellOff === undefined ? [] : (this.options.offeredTools?.last(this.keys.shellOff, this.options.cwd) ?? []);
    (offersCommandTool(used.map((tool) => tool.name)) ? this.variant() : this.own).prepare?.();
  }

  /**
   * Each conversation resumes ahead in the process its session is of (by its index key); a process with none is not
   * started. The process of the latest conversation is asked first: both keep one schedule (they share their room in
   * the pool), whose first resume goes at once and the others, the other process's start among them, after it.
   */
  resumeAhead(conversations: readonly RecentAgentSession[]): void {
    const ofShellOff = (conversation: RecentAgentSession): boolean => conversation.agent === this.keys.shellOff;
    const groups = [conversations.filter((conversation) => !ofShellOff(conversation)), conversations.filter(ofShellOff)];
    if (conversations[0] !== undefined && ofShellOff(conversations[0])) groups.reverse();
    for (const group of groups) if (group[0] !== undefined) (ofShellOff(group[0]) ? this.variant() : this.own).resumeAhead?.(group);
  }

  /** Its own sessions, as its own process lists and opens them (both processes share its store). */
  get sessions(): AgentSessions | undefined {
    return this.own.sessions;
  }

  async authenticate(methodId: string): Promise<void> {
    await this.own.authenticate?.(methodId);
    await this.withShellOff?.authenticate?.(methodId);
  }

  dispose(): void {
    this.own.dispose();
    this.withShellOff?.dispose();
  }

  /** Where a conversation's session opens: where it had one, else by whether this request offers a command tool. */
  private agentFor(conversationId: string, input: TurnInput): AgentStream {
    const { agentSessions } = this.options;
    const { shellOff } = this.keys;
    if (shellOff === undefined) return this.own;
    if (agentSessions.agentSessionOf(conversationId, shellOff) !== undefined) return this.variant();
    if (agentSessions.agentSessionOf(conversationId, this.keys.own) !== undefined) return this.own;
    return offersCommandTool(input.tools.map((tool) => tool.name)) ? this.variant() : this.own;
  }

  private variant(): AgentStream {
    if (this.shellOff === undefined) return this.own;
    if (this.withShellOff === undefined) {
      try {
        writeSettingsFiles(this.shellOff.files);
      } catch (error) {
        this.options.log.warn(`agent ${this.shellOff.command.name} keeps its own shell beside the consumer's command tools: ${error instanceof Error ? error.message : String(error)}`);
        return this.own;
      }
      this.options.log.info(`agent ${this.shellOff.command.name}: a second process, with its own shell off, serves the conversations offered a command tool`);
      this.withShellOff = this.start(this.shellOff.command);
    }
    return this.withShellOff;
  }
}
