/**
 * An agent that says nothing (issue 60): a prompt that gets no update for the bound (`--silence-notice-ms`) gets one
 * line saying the agent has not answered yet and what the bridge knows (its process alive, no key set for it, its last
 * words on stderr, never a value of its environment), without cancelling the turn: the agent's answer still follows,
 * and Stop still stops it. Against the built bridge and the scripted agent told to hang.
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, ResponsePart } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, user } from './agent-bridge.js';

const SILENCE_MS = 1500;
const SECRET = 'sk-silent-0123456789';

let bridge: AgentBridge;
afterEach(async () => bridge.close());

const scripted = (env: { name: string; value: string }[] = []): AgentDefinition => ({ mcp_server: { name: 'Silent', command: process.execPath, args: [SCRIPTED_AGENT], env } });

/** The bridge's environment without anything named like an API key, as a person's without one. */
function keylessEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/(API_?KEY|_TOKEN$)/i.test(name)));
}

test('a silent agent gets the "has not answered yet" line at the bound, the turn goes on and Stop still stops it', async () => {
  bridge = new AgentBridge(['--silence-notice-ms', String(SILENCE_MS)], keylessEnv());
  const parts: ResponsePart[] = [];
  const stop = new CancellationTokenSource();
  const agent = scripted();
  const response = bridge.client.provideChatResponse({ modelId: 'scripted', messages: [user('hang')], agent, options: { tools: [] } }, (part) => parts.push(part), stop.token);
  for (let waited = 0; waited < 10_000 && !textOfParts(parts).includes('has not answered yet'); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  const line = textOfParts(parts);
  expect(line).toMatch(/^\n\n\*Silent has not answered yet \(2 s without a word\): its process is running; no API key is set for it \(no variable of its environment is named like one\); its last words on stderr: "scripted-agent: session \S+: hanging until cancelled"\. Stop ends the turn\.\*\n\n$/);
  // Once: the turn is not cancelled by it and says nothing more while the agent stays silent.
  await new Promise((resolve) => setTimeout(resolve, SILENCE_MS * 2));
  expect(parts).toHaveLength(1);
  expect(bridge.stderr()).not.toMatch(/cancelling the turn/);
  stop.cancel();
  expect((await rejection(response)).code).toBe(ProtocolErrorCodes.RequestCancelled);
  // The agent was told: Stop reached it as session/cancel.
  expect(await bridge.logged(/cancelling the turn/)).toMatch(/scripted-agent: .*: cancelling the turn/);
});

test('an agent that answers after the bound: the line, then its answer; its key is named, never shown', async () => {
  bridge = new AgentBridge(['--silence-notice-ms', String(SILENCE_MS)]);
  const agent = scripted([{ name: 'SILENT_API_KEY', value: SECRET }]);
  const parts = await bridge.chat([user(`stream 2 ${SILENCE_MS + 700}`)], agent);
  const text = textOfParts(parts);
  expect(text).toMatch(/^c1 \n\n\*Silent has not answered yet \(2 s without a word\): its process is running; its last words on stderr: ".*"\. Stop ends the turn\.\*\n\nc2 $/);
  expect(text).not.toContain(SECRET);
});

test('an agent that answers within the bound says nothing of it', async () => {
  bridge = new AgentBridge(['--silence-notice-ms', String(SILENCE_MS)]);
  expect(textOfParts(await bridge.chat([user('say hi')], scripted()))).toBe('hi');
});
