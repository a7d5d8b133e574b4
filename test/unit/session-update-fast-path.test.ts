/**
 * `SessionUpdateFastPath`: an agent's text chunks and tool call announcements are handed on past the ACP
 * SDK, everything else passes to it, and what the bridge sees is in the order the agent sent it.
 */
import type { AnyMessage, SessionNotification } from '@agentclientprotocol/sdk';
import { SessionUpdateFastPath } from '../../src/agents/acp/process/session-update-fast-path.js';

const chunk = (text: string, kind = 'agent_message_chunk'): AnyMessage => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's1', update: { sessionUpdate: kind, content: { type: 'text', text } } },
});
/** A tool call with content: the SDK's to decode. */
const toolCall: AnyMessage = {
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', content: [{ type: 'content', content: { type: 'text', text: 'a b' } }] } },
};
const announcement = (update: Record<string, unknown>): AnyMessage => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'search', ...update } } });
const permission: AnyMessage = { jsonrpc: '2.0', id: 7, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 't1' }, options: [] } };
const response: AnyMessage = { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } };

/** Pushes messages through the fast path into a handler that, as the SDK does, handles each one a few microtasks after it was passed on. */
async function run(messages: AnyMessage[]): Promise<string[]> {
  const seen: string[] = [];
  const label = (m: unknown): string => JSON.stringify(m);
  const fast = new SessionUpdateFastPath(
    (n: SessionNotification) => seen.push(`fast ${label(n)}`),
    // The SDK's handler chain: awaits (how many is its business) before the handler sees the message.
    (m) =>
      void (async () => {
        for (let i = 0; i < 50; i++) await undefined;
        seen.push(`sdk ${label(m)}`);
      })(),
  );
  for (const m of messages) fast.push(m);
  await fast.drained();
  return seen;
}

describe('SessionUpdateFastPath', () => {
  test("text chunks of the agent's message and thoughts go past the SDK; the rest goes to it", async () => {
    const seen = await run([chunk('Hello'), chunk('hm', 'agent_thought_chunk'), toolCall, response]);
    expect(seen).toEqual([
      `fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } } })}`,
      `fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' } } })}`,
      `sdk ${JSON.stringify(toolCall)}`,
      `sdk ${JSON.stringify(response)}`,
    ]);
  });

  test("text chunks of the person's message (a session/load replays a session's thousands of them) go past the SDK too", async () => {
    const seen = await run([chunk('ask', 'user_message_chunk'), chunk('answer')]);
    expect(seen).toEqual([
      `fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'ask' } } })}`,
      `fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'answer' } } })}`,
    ]);
  });

  test('what follows a message passed to the SDK is handed on after it, in the order sent', async () => {
    const messages = [chunk('a'), toolCall, chunk('b'), chunk('c'), permission, chunk('d'), response, chunk('e')];
    const seen = await run(messages);
    const order = seen.map((line) => {
      const body = JSON.parse(line.slice(line.indexOf(' ') + 1)) as { update?: { content?: { text: string } }; method?: string; id?: number; params?: { update?: { content?: { text: string } } } };
      return body.update?.content?.text ?? body.method ?? `response ${body.id}`;
    });
    expect(order).toEqual(['a', 'session/update', 'b', 'c', 'session/request_permission', 'd', 'response 1', 'e']);
  });

  test("a chunk that does not fit (a non-text block, a bad field) goes to the SDK, which validates it; extra fields are dropped, the message id kept (fork points name it), and the chunk's _meta (Qwen Code names there the subagent that said it); a child session's announcement goes past it whole", async () => {
    const image: AnyMessage = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } } } };
    const badText: AnyMessage = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 42 } } } };
    const withMeta: AnyMessage = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', _meta: { x: 1 }, update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'hi', annotations: { priority: 1 } } } },
    };
    const subagentSaid: AnyMessage = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'found it' }, _meta: { parentToolCallId: 'call_1', subagentType: 'general-purpose' } } },
    };
    // The subagents RFD's announcement of a child session, which the SDK's stable schema would drop: whole, past it.
    const announced = { sessionId: 's1', update: { sessionUpdate: 'subagent_update', sessionId: 's1:subagent:t1', description: 'Do the survey.', capabilities: {} } };
    const seen = await run([image, badText, withMeta, subagentSaid, { jsonrpc: '2.0', method: 'session/update', params: announced } as AnyMessage]);
    expect(seen).toEqual([
      `sdk ${JSON.stringify(image)}`,
      `sdk ${JSON.stringify(badText)}`,
      `fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, messageId: 'm1' } })}`,
      `fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'found it' }, _meta: { parentToolCallId: 'call_1', subagentType: 'general-purpose' } } })}`,
      `fast ${JSON.stringify(announced)}`,
    ]);
  });

  test('a tool call announced without content goes past the SDK with what identifies it; unknown fields are dropped', async () => {
    const claude = {
      kind: 'other',
      status: 'pending',
      rawInput: { query: 'x' },
      locations: [{ path: '/w/a.ts', line: 3 }],
      content: [],
      _meta: { claudeCode: { toolName: 'mcp__symposium__search_workspace' } },
    };
    const seen = await run([announcement({ ...claude, unknownField: 1 })]);
    expect(seen).toEqual([`fast ${JSON.stringify({ sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'search', ...claude } })}`]);
  });

  test('an announcement that does not fit (content, an unknown kind, a negative line, no title) goes to the SDK, which sets bad fields aside', async () => {
    const misfits = [
      announcement({ content: [{ type: 'content', content: { type: 'text', text: 'x' } }] }),
      announcement({ kind: 'teleport' }),
      announcement({ locations: [{ path: '/w/a.ts', line: -1 }] }),
      announcement({ title: undefined }),
    ];
    const seen = await run(misfits);
    expect(seen).toEqual(misfits.map((m) => `sdk ${JSON.stringify(m)}`));
  });
});
