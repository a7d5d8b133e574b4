/**
 * The spare session an ACP agent keeps open ahead of the next new conversation (src/agents/acp/spare-session.ts),
 * with its agent played by a host that opens sessions on demand and a real tool server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '../../src/log/logger.js';
import { SpareSession, type NewAgentSession, type SpareHost } from '../../src/agents/acp/spare-session.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BridgedCall, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import type { ToolDefinition } from '../../src/protocol/messages.js';

const tool = (name: string): ToolDefinition => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object', properties: {} } });
const TOOLS = [tool('read_file'), tool('list_dir')];
const declined = async () => ({ content: [{ type: 'text' as const, text: 'called' }] });

/** An agent whose session/new answers when told to (or fails), recording what it opened and closed. */
class Host implements SpareHost<NewAgentSession> {
  readonly name = 'test agent';
  readonly log = createLogger('error', () => {});
  readonly events: string[] = [];
  readonly servers: BridgedToolsServer[] = [];
  room = 1;
  fail = false;
  private n = 0;
  async newSession(tools: BridgedToolsServer): Promise<NewAgentSession> {
    this.servers.push(tools);
    if (this.fail) throw new Error('session/new refused');
    const sessionId = `s${++this.n}`;
    this.events.push(`new ${sessionId} offering ${tools.toolNames.join(',')}`);
    return { sessionId, alive: () => true, close: () => this.events.push(`close ${sessionId}`) };
  }
  readonly outsideTurns: string[] = [];
  async toolCallOutsideTurns(call: BridgedCall): Promise<CallToolResult> {
    this.outsideTurns.push(call.name);
    return { content: [{ type: 'text', text: `no turn took ${call.name}` }] };
  }
  hold(): { free(): void } | undefined {
    if (this.room === 0) return undefined;
    this.room--;
    return { free: () => this.room++ };
  }
}

let host: Host;
let spares: SpareSession<NewAgentSession>;
beforeEach(() => {
  host = new Host();
  spares = new SpareSession(host);
});
afterEach(async () => {
  spares.drop();
  await Promise.all(host.servers.map((s) => s.close()));
});

test('no spare before a new conversation said which tools it is offered; then one, offering them', async () => {
  spares.open();
  expect(host.room).toBe(1);
  expect(spares.take(TOOLS, declined)).toBeUndefined();
  spares.open();
  const taken = await spares.take([...TOOLS].reverse(), declined);
  expect(taken).toBeDefined();
  expect((await taken!.session)?.sessionId).toBe('s1');
  expect(taken!.tools.toolNames).toEqual(['read_file', 'list_dir']);
  expect(host.events).toEqual(['new s1 offering read_file,list_dir']);
  // Taken: the room is the conversation's now, and the next spare can open.
  expect(host.room).toBe(1);
});

test('a conversation offered other tools does not take the spare, which stays for one that is', async () => {
  spares.take(TOOLS, declined);
  spares.open();
  expect(spares.take([tool('read_file')], declined)).toBeUndefined();
  spares.open();
  // The last new conversation's tools are what the next spare offers; the first spare is still there.
  expect(host.room).toBe(0);
});

test('without room in the pool no spare opens; a spare that fails to open costs a new conversation nothing', async () => {
  spares.take(TOOLS, declined);
  host.room = 0;
  spares.open();
  expect(host.servers).toHaveLength(0);
  host.room = 1;
  host.fail = true;
  spares.open();
  const taken = await spares.take(TOOLS, declined);
  expect(await taken!.session).toBeUndefined();
  // Its tool server goes on as the conversation's, which opens its own session with it.
  expect(taken!.tools.toolNames).toEqual(['read_file', 'list_dir']);
});

test("calls of the spare's tools go to the conversation that took it", async () => {
  spares.take(TOOLS, declined);
  spares.open();
  const calls: string[] = [];
  const taken = await spares.take(TOOLS, async (call) => {
    calls.push(call.name);
    return { content: [{ type: 'text', text: `ran ${call.name}` }] };
  });
  const client = await connectedTo(taken!.tools);
  try {
    const result = await client.callTool({ name: 'list_dir', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'ran list_dir' }]);
    expect(calls).toEqual(['list_dir']);
    expect(host.outsideTurns).toEqual([]);
  } finally {
    await client.close();
  }
});

test("calls of a spare's tools before a conversation took it go where its host says (an agent may serve one tool server to all sessions)", async () => {
  spares.take(TOOLS, declined);
  spares.open();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const client = await connectedTo(host.servers[0]);
  try {
    const result = await client.callTool({ name: 'read_file', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'no turn took read_file' }]);
    expect(host.outsideTurns).toEqual(['read_file']);
  } finally {
    await client.close();
  }
});

async function connectedTo(tools: BridgedToolsServer): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(tools.url), { requestInit: { headers: { authorization: tools.authorization } } }));
  return client;
}

test('dropping a spare closes its session and gives its room back', async () => {
  spares.take(TOOLS, declined);
  spares.open();
  await new Promise((resolve) => setTimeout(resolve, 50));
  spares.drop('the agent stops');
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(host.events).toEqual(['new s1 offering read_file,list_dir', 'close s1']);
  expect(host.room).toBe(1);
});
