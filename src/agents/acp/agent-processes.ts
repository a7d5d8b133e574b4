import type * as acp from '@agentclientprotocol/sdk';
import type { AgentCallbacks, AgentProcess } from './process/agent-process.js';

/** A started agent process and its `initialize`. */
export interface StartedAgent {
  readonly process: AgentProcess;
  readonly initialized: Promise<acp.InitializeResponse>;
}

/** One of the agents (`AcpAgent`, one per workspace) a process serves: it hears what the agent sends for its sessions. */
export interface ProcessTenant extends AgentCallbacks {
  /** ACP session `sessionId` (or a subagent's under one) is one of its own: held, or being replayed to it. */
  owns(sessionId: string): boolean;
}

interface Shared {
  readonly started: StartedAgent;
  readonly tenants: Set<ProcessTenant>;
}

/**
 * The running processes of ACP agents, shared by the workspaces of one bridge: in the agent host, windows on
 * different folders whose definitions of an agent are equal (and which offer it the same client capabilities) run
 * one process of it, each with sessions of its own in its own folders (ACP gives every session its cwd). What the
 * agent sends for a session goes to the workspace whose session it is, told by session id; what is no workspace's
 * (a sign-in asked while a session opens) to the one that started the process. The process ends with its last tenant.
 *
 *     join(A) ──▶ start ──▶ process ◀── join(B)         leave(A), leave(B) ──▶ kill
 */
export class AgentProcesses {
  private readonly running = new Map<string, Shared>();

  /** The live process `key` names, started by `start` (given callbacks that reach its tenants) unless one runs. */
  join(key: string, tenant: ProcessTenant, start: (callbacks: AgentCallbacks) => StartedAgent): StartedAgent {
    const shared = this.running.get(key);
    if (shared !== undefined && shared.started.process.alive) {
      shared.tenants.add(tenant);
      return shared.started;
    }
    const tenants = new Set([tenant]);
    const started = start(dispatchTo(tenants, tenant));
    this.running.set(key, { started, tenants });
    void started.process.ended.then(() => {
      if (this.running.get(key)?.started === started) this.running.delete(key);
    });
    return started;
  }

  /** `tenant` is done with the process of `key`: it ends when no other tenant has it. */
  leave(key: string, tenant: ProcessTenant): void {
    const shared = this.running.get(key);
    if (shared === undefined || !shared.tenants.delete(tenant) || shared.tenants.size > 0) return;
    this.running.delete(key);
    shared.started.process.kill();
  }
}

/**
 * Callbacks that hand each request or update to the tenant whose session it names, else to the longest there (or,
 * once all left and the process ends, the one that started it): each drops or refuses what is no session of its own.
 */
function dispatchTo(tenants: ReadonlySet<ProcessTenant>, starter: ProcessTenant): AgentCallbacks {
  const of = (message: unknown): ProcessTenant => {
    const sessionId = typeof message === 'object' && message !== null ? (message as { sessionId?: unknown }).sessionId : undefined;
    if (typeof sessionId === 'string') for (const tenant of tenants) if (tenant.owns(sessionId)) return tenant;
    return tenants.values().next().value ?? starter;
  };
  return {
    onUpdate: (notification, outsidePrompt) => of(notification).onUpdate(notification, outsidePrompt),
    onPermission: (request, signal) => of(request).onPermission(request, signal),
    onReadTextFile: (request) => of(request).onReadTextFile(request),
    onWriteTextFile: (request, signal) => of(request).onWriteTextFile(request, signal),
    onElicitation: (request, signal) => of(request).onElicitation(request, signal),
    onSignedIn: (signedIn) => {
      for (const tenant of tenants) tenant.onSignedIn?.(signedIn);
    },
  };
}
