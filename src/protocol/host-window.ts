import * as t from 'io-ts';

/**
 * What belongs to a window, not to the agent host that serves it: its folders and the settings that may differ
 * per workspace. Windows that give equal settings share one workspace in the host: its agents, its spare
 * sessions, its conversations in memory. (The options of `vscodelm` of the same names.)
 */
export const WindowSettings = t.intersection(
  [
    t.type({ cwd: t.string }),
    t.partial({
      additionalDirs: t.array(t.string),
      contextPolicy: t.string,
      clientFiles: t.boolean,
      agentQuestions: t.boolean,
      consumerTerminal: t.boolean,
      startNoticeMs: t.number,
      silenceNoticeMs: t.number,
      toolCallTimeoutMs: t.number,
    }),
  ],
  'WindowSettings',
);
export type WindowSettings = t.TypeOf<typeof WindowSettings>;

/** `symposium/window`: the first message on a connection to the agent host; one without the host's token is closed unread. */
export const JoinHostParams = t.type({ token: t.string, window: WindowSettings }, 'JoinHostParams');
export type JoinHostParams = t.TypeOf<typeof JoinHostParams>;

/** The host's process id (the extension logs it; the tests count its agents). */
export const JoinHostResult = t.type({ pid: t.number }, 'JoinHostResult');
export type JoinHostResult = t.TypeOf<typeof JoinHostResult>;
