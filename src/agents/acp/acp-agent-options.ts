import type { Readable } from 'node:stream';
import type { Logger } from '../../log/logger.js';
import type { AgentSessionIndex } from '../../state/conversation-store.js';
import type { OfferedToolsStore } from '../../state/offered-tools.js';
import type { AgentProcesses } from './agent-processes.js';
import type { ResumeSchedule } from './resume-schedule.js';
import type { AcpSessionOptions } from './session/acp-session.js';
import type { SpareRoom } from './spare-session.js';

/** How an ACP agent (`AcpAgent`) runs: the bridge's settings for every agent. */
export interface AcpAgentOptions extends AcpSessionOptions {
  /** How long `initialize` and `session/new` may take. */
  readonly startupTimeoutMs: number;
  /** A turn that waits this long for the agent's `initialize` says the agent is starting (default: never). */
  readonly startNoticeMs?: number;
  /** A turn that gets no part from the agent for this long says, once, that it has not answered yet (default: never). */
  readonly silenceNoticeMs?: number;
  /** How to run `symposium-lm mcp-relay`, for agents that take MCP servers only over stdio. */
  readonly relay: { readonly command: string; readonly args: readonly string[] };
  readonly log: Logger;
  /** The ACP session each conversation had, to resume it after its session was closed or the bridge restarted. */
  readonly agentSessions: AgentSessionIndex;
  /** Holds an agent's output back while the consumer is behind (backpressure); none: read at once. */
  readonly gate?: (stdout: Readable) => void;
  /** The tools the agent was last offered in this workspace, for sessions resumed ahead; none: they offer none. */
  readonly offeredTools?: OfferedToolsStore;
  /** Agents run commands through the consumer's command tool where a request offers one (default); false: with their own shell. */
  readonly consumerTerminal?: boolean;
  /** The agents' processes this one may share with other workspaces' (the agent host's); none: processes of its own. */
  readonly processes?: AgentProcesses;
  /** The workspace's folders besides `cwd`, given to agents that take `additionalDirectories`. */
  readonly additionalDirectories?: readonly string[];
}

/** Room in the session pool for sessions opened ahead of need: a spare, a conversation's resumed ahead. */
export interface PoolRoom {
  readonly spare?: (evict: () => void) => SpareRoom | undefined;
  readonly ahead?: (conversationId: string, evict: () => void) => SpareRoom | undefined;
  /** When sessions resume ahead; shared by the processes of one agent, which share its room. */
  readonly resumes?: ResumeSchedule;
}
