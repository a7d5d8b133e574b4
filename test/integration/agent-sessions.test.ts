/**
 * An agent's own sessions (issue 52) through the built bridge and the scripted agent: listed for the workspace's
 * folder (paged, newest first, another folder's left out), deleted, and continued in a new chat: the chat that shows
 * the exchanges the bridge answered goes on in that very session, resumed, not in a new one told the transcript.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, user } from './agent-bridge.js';

const dirs: string[] = [];
const bridges: AgentBridge[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'symposium-sessions-'));
  dirs.push(dir);
  return dir;
}
function startBridge(args: string[] = []): AgentBridge {
  const bridge = new AgentBridge(args);
  bridges.push(bridge);
  return bridge;
}
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((b) => b.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const scripted = (...flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });
const keeping = (agentState: string, ...more: string[]): AgentDefinition =>
  scripted('--load-session', '--resume-session', '--close-session', '--list-sessions', '--delete-session', '--state-dir', agentState, ...more);

/** A user message as Copilot renders a past request in its history: its words in `<userRequest>`, context around them. */
const asCopilotRendersIt = (words: string): Message => user(`<context>\nThe current date is today.\n</context>\n<userRequest>\n${words}\n</userRequest>`);

/** Two chats in the agent on a first bridge (`say one`, then `say two` / `say three`), which then closes. */
async function twoChatsElsewhere(agent: AgentDefinition): Promise<void> {
  const first = startBridge(['--state-dir', tempDir()]);
  const one = await first.chat([user('say one')], agent);
  await first.chat([user('say one'), replied(one), user('say more')], agent);
  await first.chat([user('say two', 'say three')], agent);
  await first.close();
}

describe("an agent's own sessions", () => {
  test('listed newest first, page after page, for this folder only; a session of another folder is left out', async () => {
    const agentState = tempDir();
    const agent = keeping(agentState);
    await twoChatsElsewhere(agent);
    const third = startBridge();
    await third.chat([user('say four')], agent);
    await third.close();
    writeFileSync(path.join(agentState, 'scripted-session-elsewhere.json'), JSON.stringify({ cwd: path.join(os.tmpdir(), 'another-folder'), transcript: [], seen: ['say far'] }));
    const bridge = startBridge();
    const listed = await bridge.client.listAgentSessions({ agent });
    expect(listed.listed).toBe(true);
    expect(listed.deletes).toBe(true);
    expect(listed.sessions.map((s) => s.title)).toEqual(['say four', 'say two', 'say one']);
    expect(listed.sessions.every((s) => s.cwd === process.cwd() && s.updatedAt !== undefined)).toBe(true);
    // Two a page: the three sessions of the folder took two pages (the agent's stderr, relayed apart from its answers, may come after them).
    expect(await bridge.logged(/session\/list \S+ at 2: 1/)).toMatch(/session\/list \S+ at 2: 1/);
  });

  test('continued: the chat that shows the exchanges goes on in that session, resumed, as Copilot renders its history', async () => {
    const agentState = tempDir();
    const agent = keeping(agentState);
    await twoChatsElsewhere(agent);
    const bridge = startBridge(['--state-dir', tempDir()]);
    const { sessions } = await bridge.client.listAgentSessions({ agent });
    const session = sessions.find((s) => s.title === 'say one')!;
    const { exchanges } = await bridge.client.continueAgentSession({ agent, sessionId: session.sessionId });
    expect(exchanges).toEqual([
      { request: 'say one', response: 'one' },
      { request: 'say more', response: 'more' },
    ]);
    const shown = exchanges.flatMap(({ request, response }): Message[] => [asCopilotRendersIt(request), { role: 'assistant', content: [{ type: 'text', value: response }] }]);
    const next = await bridge.chat([{ role: 'system', content: [{ type: 'text', value: 'You are a helpful assistant.' }] }, ...shown, user('history')], agent);
    // The session's own prompts: it was not told a transcript.
    expect(JSON.parse(textOfParts(next))).toEqual(['say one', 'say more']);
    expect(bridge.stderr()).toContain(`resumed ACP session ${session.sessionId} (session/resume)`);
    // Resumed ahead of the message, while the person read the chat.
    expect(bridge.stderr()).toMatch(new RegExp(`is ACP session ${session.sessionId}, resumed ahead`));
  });

  test('Restore Checkpoint in a continued chat goes back as in any chat: a fork of the session after the last answer shown', async () => {
    const agentState = tempDir();
    const agent = keeping(agentState, '--fork');
    await twoChatsElsewhere(agent);
    const bridge = startBridge(['--state-dir', tempDir()]);
    const session = (await bridge.client.listAgentSessions({ agent })).sessions.find((s) => s.title === 'say one')!;
    const { exchanges } = await bridge.client.continueAgentSession({ agent, sessionId: session.sessionId });
    const shown = exchanges.flatMap(({ request, response }): Message[] => [asCopilotRendersIt(request), { role: 'assistant', content: [{ type: 'text', value: response }] }]);
    const three = await bridge.chat([...shown, user('say three')], agent);
    expect(textOfParts(three)).toBe('three');
    // The checkpoint of `say three` restored, other words sent instead.
    const back = await bridge.chat([...shown, user('history')], agent);
    expect(JSON.parse(textOfParts(back))).toEqual(['say one', 'say more']);
    expect(bridge.stderr()).toMatch(new RegExp(`forked from ${session.sessionId} after message`));
  });

  test('a long session shows its last exchanges, the earlier ones in one line', async () => {
    const agentState = tempDir();
    const agent = keeping(agentState);
    const first = startBridge();
    const history: Message[] = [];
    for (let i = 1; i <= 15; i++) {
      history.push(user(`say answer ${i}`));
      history.push(replied(await first.chat([...history], agent)));
    }
    await first.close();
    const bridge = startBridge();
    const [session] = (await bridge.client.listAgentSessions({ agent })).sessions;
    const { exchanges } = await bridge.client.continueAgentSession({ agent, sessionId: session!.sessionId });
    expect(exchanges).toHaveLength(13);
    expect(exchanges[0]).toEqual({ request: 'Earlier in this session', response: '3 earlier exchanges, from “say answer 1” to “say answer 3”: not shown here; scripted holds them in its session.' });
    expect(exchanges[12]).toEqual({ request: 'say answer 15', response: 'answer 15' });
  });

  test('a session the agent no longer has: one sentence to say', async () => {
    const agent = keeping(tempDir());
    const bridge = startBridge();
    const error = await rejection(bridge.client.continueAgentSession({ agent, sessionId: 'scripted-session-gone' }));
    expect(error.code).toBe(-32001);
    expect(error.message).toBe('scripted no longer has this session (it was deleted, or belongs to another folder): start a new chat instead.');
  });

  test('deleted, it is listed no more', async () => {
    const agentState = tempDir();
    const agent = keeping(agentState);
    await twoChatsElsewhere(agent);
    const bridge = startBridge();
    const before = (await bridge.client.listAgentSessions({ agent })).sessions;
    await bridge.client.deleteAgentSession({ agent, sessionId: before[0]!.sessionId });
    const after = (await bridge.client.listAgentSessions({ agent })).sessions;
    expect(after.map((s) => s.sessionId)).toEqual([before[1]!.sessionId]);
  });

  test('an agent that cannot list says so; one that cannot delete refuses in a sentence; bad params name the field', async () => {
    const bridge = startBridge();
    const agent = scripted('--load-session');
    expect(await bridge.client.listAgentSessions({ agent })).toEqual({ listed: false, deletes: false, sessions: [], why: 'scripted cannot list its sessions (it declares no session/list).' });
    const refused = await rejection(bridge.client.deleteAgentSession({ agent, sessionId: 'any' }));
    expect(refused.message).toBe('scripted cannot delete its sessions.');
    const bad = await rejection(bridge.client.continueAgentSession({ agent, sessionId: '' } as never));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('sessionId');
  });

  test('a listing whose cursor never ends stops after its last page read and says that the list is cut short', async () => {
    const agentState = tempDir();
    await twoChatsElsewhere(keeping(agentState));
    const bridge = startBridge();
    const listed = await bridge.client.listAgentSessions({ agent: keeping(agentState, '--list-endless') });
    expect(listed).toMatchObject({ listed: true, cut: 'scripted has more sessions than 100 pages of its list: the oldest are not shown.' });
    expect(listed.listed && listed.sessions.map((s) => s.title)).toEqual(['say two', 'say one']);
  });

  test('a listing that hangs is cut at the agent timeout, and says so', async () => {
    const bridge = startBridge();
    const error = await rejection(bridge.client.listAgentSessions({ agent: keeping(tempDir(), '--list-hang') }));
    expect(error.message).toMatch(/^scripted did not finish listing its sessions within \d+(\.\d+)? s/);
  });
});
