import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../log/logger.js';
import { FrameReader } from '../transport/frame-reader.js';
import { FrameWriter } from '../transport/frame-writer.js';
import { OUTPUT_HIGH_WATER_BYTES, OutputPressure } from '../transport/output-pressure.js';
import { RequestIdTracker } from './request-ids.js';
import { ConversationStore } from '../state/conversation-store.js';
import { OfferedToolsStore } from '../state/offered-tools.js';
import { dispatchInMicrotasks } from './dispatch-in-microtasks.js';
import { AgentNews } from './agent-news.js';
import { AgentProcesses } from '../agents/acp/agent-processes.js';
import { HeldSecrets } from '../agents/registry/held-secrets.js';
import { WorkspaceBridge, type SharedState, type WorkspaceOptions } from './workspace-bridge.js';

export interface VscodeLmOptions extends WorkspaceOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Requests larger than this are refused unread. */
  readonly maxMessageBytes: number;
  /** Where the index of conversations is kept across restarts; in memory only without it. */
  readonly stateDir: string | undefined;
}

/**
 * Serves the seed's protocol on a pair of streams until the input closes; resolves then, once every
 * agent has been told to stop.
 */
export function serveVscodeLm(options: VscodeLmOptions): Promise<void> {
  dispatchInMicrotasks();
  const shared = sharedState(options.stateDir, options.log);
  // One consumer: while it does not read, its agents are held back (in the agent host a window that stops reading is closed instead).
  const pressure = new OutputPressure(OUTPUT_HIGH_WATER_BYTES);
  pressure.watch(options.output);
  const workspace = new WorkspaceBridge({ ...options, acp: { ...options.acp, gate: (stdout) => pressure.gate(stdout) } }, shared);
  const ids = new RequestIdTracker();
  const connection = messageConnection(options.input, options.output, options.maxMessageBytes, ids, options.log);
  workspace.serve(connection, ids);
  return new Promise((resolve) => {
    connection.onClose(() => {
      workspace.dispose();
      shared.dispose();
      resolve();
    });
    connection.listen();
  });
}

/** The state directory's files, one writer for every workspace of the process; what is pending is written at exit too. */
export function sharedState(stateDir: string | undefined, log: Logger): SharedState & { dispose(): void } {
  const store = new ConversationStore(stateDir, log);
  // The extension ends the bridge with SIGTERM (a reload, a restart): what is pending is written on the way out.
  const flushAtExit = () => store.flush();
  process.once('exit', flushAtExit);
  return {
    store,
    offeredTools: new OfferedToolsStore(stateDir, log),
    secrets: new HeldSecrets(),
    processes: new AgentProcesses(),
    news: new AgentNews(),
    dispose: () => {
      store.flush();
      process.off('exit', flushAtExit);
    },
  };
}

/** A connection on a pair of streams, with the bridge's own framing (bounded, resynchronising) and request ids. */
export function messageConnection(input: Readable, output: Writable, maxMessageBytes: number, ids: RequestIdTracker, log: Logger, written?: () => void): MessageConnection {
  return createMessageConnection(new FrameReader(input, maxMessageBytes), new FrameWriter(output, written), connectionLogger(log), { messageStrategy: ids.strategy });
}

function connectionLogger(log: Logger) {
  return { error: log.error, warn: log.warn, info: log.debug, log: log.trace };
}
