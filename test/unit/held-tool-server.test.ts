/**
 * Which tool server an agent that holds MCP servers per workspace holds (src/agents/acp/workspace-mcp-servers.ts):
 * the requests that open sessions go one at a time, and the last answered decides.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { HeldToolServer } from '../../src/agents/acp/workspace-mcp-servers.js';
import { BRIDGED_TOOLS_SERVER_NAME } from '../../src/tools/bridged-tools-server.js';

const serverAt = (url: string): acp.McpServer => ({ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url, headers: [{ name: 'Authorization', value: 'Bearer t' }] });

/** A request whose answer the test gives. */
function request(events: string[], name: string): { send: () => Promise<string>; answer: () => void; fail: () => void } {
  let answer = (): void => {};
  let fail = (): void => {};
  const send = (): Promise<string> => {
    events.push(`sent ${name}`);
    return new Promise<string>((resolve, reject) => {
      answer = () => resolve(name);
      fail = () => reject(new Error(`${name} refused`));
    });
  };
  return { send, answer: () => answer(), fail: () => fail() };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('an opening is sent once the one before it was answered; the agent then holds its tool server', async () => {
  const held = new HeldToolServer();
  const events: string[] = [];
  const spare = request(events, 'spare');
  const conversation = request(events, 'conversation');
  const first = held.opening([serverAt('http://127.0.0.1:1/mcp')], spare.send);
  const second = held.opening([serverAt('http://127.0.0.1:2/mcp')], conversation.send);
  await tick();
  expect(events).toEqual(['sent spare']);
  spare.answer();
  expect(await first).toBe('spare');
  await tick();
  expect(events).toEqual(['sent spare', 'sent conversation']);
  expect(held.holds('http://127.0.0.1:1/mcp')).toBe(true);
  conversation.answer();
  await second;
  await tick();
  expect(held.holds('http://127.0.0.1:2/mcp')).toBe(true);
  expect(held.holds('http://127.0.0.1:1/mcp')).toBe(false);
});

test('a refused opening changes nothing and does not hold up the next; one without a tool server keeps the one held', async () => {
  const held = new HeldToolServer();
  const events: string[] = [];
  const kept = request(events, 'kept');
  const refused = request(events, 'refused');
  const bare = request(events, 'bare');
  const first = held.opening([serverAt('http://127.0.0.1:1/mcp')], kept.send);
  await tick();
  kept.answer();
  await first;
  const second = held.opening([serverAt('http://127.0.0.1:2/mcp')], refused.send);
  const third = held.opening([], bare.send);
  await tick();
  refused.fail();
  await expect(second).rejects.toThrow('refused refused');
  await tick();
  bare.answer();
  await third;
  await tick();
  expect(events).toEqual(['sent kept', 'sent refused', 'sent bare']);
  expect(held.holds('http://127.0.0.1:1/mcp')).toBe(true);
});

test('a claimed entry is the server with a header that differs each time (the agent registers a changed entry anew)', () => {
  const held = new HeldToolServer();
  const server = { name: BRIDGED_TOOLS_SERVER_NAME, url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'Authorization', value: 'Bearer t' }] };
  const one = held.claim(server);
  const two = held.claim(server);
  expect(one).toEqual({ type: 'http', ...server, headers: [...server.headers, { name: 'X-Symposium-Claim', value: '1' }] });
  expect(two).toEqual({ type: 'http', ...server, headers: [...server.headers, { name: 'X-Symposium-Claim', value: '2' }] });
});
