import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { AcpSessionOptions } from './acp-session.js';

/**
 * What the bridge tells an agent it can do as its client (`initialize`): a sign-in the client runs in a terminal
 * (the extension does), commands' output to show, the person's files read and written through the client, and
 * questions asked the person (session/client-requests.ts), and, to an agent whose subagents come as child sessions
 * (`subagentSessions`: Codex), the ACP subagents RFD's `subagents` (child-sessions.ts). And that it shows notices
 * (`session.notices`): an agent then sends its warnings as `notice` updates, shown as lines of their own
 * (src/agents/notices.ts), where it would glue them to its answer's text (Claude Code's "**Warning:** …" chunks).
 */
export function clientCapabilitiesOf(options: Pick<AcpSessionOptions, 'files' | 'questions' | 'openUrl'>, subagentSessions = false): acp.ClientCapabilities {
  return {
    ...(subagentSessions ? { subagents: {} } : {}),
    auth: { terminal: true },
    session: { notices: {} },
    // Commands' output under the tool call's `_meta` (codex-acp streams it), shown whole (updates/terminal-output.ts).
    _meta: { terminal_output: true },
    ...(options.files === undefined ? {} : { fs: { readTextFile: true, writeTextFile: true } }),
    ...(options.questions === true ? { elicitation: { form: {}, ...(options.openUrl === undefined ? {} : { url: {} }) } } : {}),
  };
}
