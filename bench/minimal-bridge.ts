/**
 * The least a bridge can do, for row 1 to compare with: `node minimal-bridge.js vscodelm …` reads the
 * seed's Content-Length JSON-RPC, starts the request's ACP agent, prompts it with the last message's text
 * (a new session when the history is one message long) and streams its text chunks back as
 * `lm/responsePart`. It validates nothing, keeps no history, offers no tools and asks no one: what the
 * bridge's own work costs is the bridge's time over this one's, in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';

type Json = Record<string, unknown>;

let agent: ChildProcess | undefined;
let sessionId: string | undefined;
let answering: unknown;
let nextId = 1;
const pending = new Map<number, (result: Json) => void>();

const send = (message: Json): void => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
  process.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]));
};

function startAgent(definition: Json): ChildProcess {
  const server = definition.mcp_server as { command: string; args: string[] };
  const child = spawn(server.command, server.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let lines = '';
  child.stdout!.on('data', (data: Buffer) => {
    lines += data.toString('utf8');
    for (let end = lines.indexOf('\n'); end >= 0; end = lines.indexOf('\n')) {
      const message = JSON.parse(lines.slice(0, end)) as Json;
      lines = lines.slice(end + 1);
      const update = (message.params as { update?: { sessionUpdate: string; content?: { text?: string } } } | undefined)?.update;
      if (message.method === 'session/update' && update?.sessionUpdate === 'agent_message_chunk' && answering !== undefined) {
        send({ method: 'lm/responsePart', params: { requestId: answering, part: { type: 'text', value: update.content?.text ?? '' } } });
      } else if (typeof message.id === 'number') pending.get(message.id)?.(message.result as Json);
    }
  });
  return child;
}

function request(method: string, params: Json): Promise<Json> {
  const id = nextId++;
  agent!.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  return new Promise((resolve) => pending.set(id, resolve));
}

async function respond(id: unknown, params: { messages: { content: { value?: string }[] }[]; agent: Json }): Promise<void> {
  if (agent === undefined) {
    agent = startAgent(params.agent);
    await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  }
  if (params.messages.length === 1) sessionId = (await request('session/new', { cwd: process.cwd(), mcpServers: [] })).sessionId as string;
  answering = id;
  const text = params.messages[params.messages.length - 1]!.content.map((part) => part.value ?? '').join('');
  await request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  send({ method: 'lm/responseComplete', params: { requestId: id } });
  send({ id, result: {} });
}

let input = Buffer.alloc(0);
let queue = Promise.resolve();
process.stdin.on('data', (data: Buffer) => {
  input = Buffer.concat([input, data]);
  for (let end = input.indexOf('\r\n\r\n'); end >= 0; end = input.indexOf('\r\n\r\n')) {
    const length = Number(/Content-Length: *(\d+)/i.exec(input.subarray(0, end).toString('latin1'))?.[1]);
    if (input.length < end + 4 + length) return;
    const message = JSON.parse(input.subarray(end + 4, end + 4 + length).toString('utf8')) as Json;
    input = input.subarray(end + 4 + length);
    if (message.method === 'lm/provideLanguageModelChatResponse') {
      // One response at a time, as the row asks them.
      queue = queue.then(() => respond(message.id, message.params as Parameters<typeof respond>[1]));
    } else if (message.id !== undefined) send({ id: message.id, result: null });
  }
});
process.stdin.on('end', () => {
  agent?.kill();
  process.exit(0);
});
