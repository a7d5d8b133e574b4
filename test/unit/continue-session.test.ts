import { relativeTime, sessionRows, type SessionAgent, type SessionRequests } from '../../src/extension/agents/continue-session.js';
import type { ListAgentSessionsResult } from '../../src/protocol/agent-sessions.js';

const agent = (name: string): SessionAgent => ({ agent: { mcp_server: { name, command: name, args: [], env: [] } }, name, modelId: `symposium-agent-${name}` });

function bridgeListing(byAgent: Record<string, ListAgentSessionsResult | Error>): SessionRequests {
  return {
    listAgentSessions: async ({ agent: definition }) => {
      const listed = byAgent['mcp_server' in definition ? definition.mcp_server.name : 'eliza']!;
      if (listed instanceof Error) throw listed;
      return listed;
    },
    deleteAgentSession: async () => {},
    continueAgentSession: async () => ({ exchanges: [] }),
  };
}

describe('Continue Agent Session: the rows', () => {
  test("every agent's sessions, newest first; an agent that fails to list is named in one line, one that cannot list is left out", async () => {
    const bridge = bridgeListing({
      claude: { listed: true, deletes: true, sessions: [{ sessionId: 'c1', cwd: '/w', title: 'Old', updatedAt: '2026-11-01T00:00:00.000Z' }, { sessionId: 'c2', cwd: '/w', updatedAt: '2026-11-28T00:00:00.000Z' }] },
      codex: { listed: true, deletes: false, sessions: [{ sessionId: 'x1', cwd: '/w', title: 'Middle', updatedAt: '2026-11-15T00:00:00.000Z' }], cut: 'codex did not finish listing its sessions within 30 s: the list may be incomplete.' },
      gemini: { listed: false, deletes: false, sessions: [], why: 'gemini cannot list its sessions (it declares no session/list).' },
      qwen: new Error('Agent "qwen" exited.'),
    });
    const { rows, problems } = await sessionRows([agent('claude'), agent('codex'), agent('gemini'), agent('qwen')], bridge);
    expect(rows.map((r) => [r.of.name, r.session.sessionId, r.deletes])).toEqual([
      ['claude', 'c2', true],
      ['codex', 'x1', false],
      ['claude', 'c1', true],
    ]);
    expect(problems).toEqual(['codex did not finish listing its sessions within 30 s: the list may be incomplete.', 'qwen: Agent "qwen" exited.']);
  });

  test('when, as a person reads it', () => {
    const now = Date.parse('2026-11-29T12:00:00.000Z');
    expect(relativeTime('2026-11-29T10:00:00.000Z', now)).toBe('2 hours ago');
    expect(relativeTime('2026-11-29T11:59:30.000Z', now)).toBe('just now');
    expect(relativeTime('2026-11-28T11:00:00.000Z', now)).toBe('1 day ago');
    expect(relativeTime(undefined, now)).toBe('');
    expect(relativeTime('not a date', now)).toBe('');
  });
});
