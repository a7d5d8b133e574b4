/**
 * The `vscodelm` server end to end: the built CLI is spawned and spoken to over stdio, with no mocks.
 * Eliza runs deterministically, so every reply is checked against the pure engine (and, where it makes
 * the point clearer, against a hard-coded string), and against what a wrong bridge would have answered.
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { ELIZA_MODEL } from '../../src/agents/eliza/eliza-model.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { Message, ResponsePart } from '../../src/protocol/messages.js';
import { Methods } from '../../src/protocol/methods.js';
import {
  assistant,
  chatParams,
  elizaConversation,
  ELIZA_MODEL_ID,
  RawBridge,
  sleep,
  startClient,
  stopAll,
  textOf,
  user,
  within,
  type ClientBridge,
  type JsonRpcId,
  type RpcMessage,
} from './harness.js';

afterEach(stopAll);

const RequestCancelled = ProtocolErrorCodes.RequestCancelled; // -32800
const InvalidParams = -32602;
const InvalidRequest = -32600;
const MethodNotFound = -32601;

const BREAK = 'I need a break';
const HOLIDAY = 'I need a long quiet holiday somewhere warm and sunny far away from the city';
const WINTER = 'I am worried about the long dark winter nights in the north of the country';

/** The error code a rejected LmClient request carries (vscode-jsonrpc's ResponseError has `code`). */
async function rejectionCode(promise: Promise<unknown>): Promise<number | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (error: unknown) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    if (typeof code !== 'number') throw error;
    return code;
  }
}

/** How many times the bridge logged opening an agent session (it logs this at info level). */
function sessionsOpened(bridge: ClientBridge): number {
  return bridge.stderr().match(/opens a session/g)?.length ?? 0;
}

function isPartFor(id: JsonRpcId): (m: RpcMessage) => boolean {
  return (m) => m.kind === 'notification' && m.method === Methods.responsePart && (m.params as { requestId?: unknown } | undefined)?.requestId === id;
}

/** The request id of a LmClient request, read off the first part the server streamed for it. */
async function idOfPartAfter(bridge: ClientBridge, partsBefore: number): Promise<JsonRpcId> {
  await bridge.output.waitFor(() => bridge.output.parts().length > partsBefore, 5000, 'a part of the new request');
  return bridge.output.parts()[partsBefore].requestId as JsonRpcId;
}

describe('a single turn', () => {
  test("streams the engine's reply in several parts addressed to the request, then lm/responseComplete, then {}", async () => {
    const bridge = new RawBridge();
    const input = 'I am tired of everything';
    const expected = 'Is it because you are tired of everything that you came to me?';
    expect(elizaConversation([input]).replies[0]).toBe(expected);

    const { response, parts, text } = await bridge.chat([user(input)], 41);

    expect(response).toEqual({ kind: 'response', id: 41, result: {} });
    expect(text).toBe(expected);
    // Streamed: several parts (text arriving while a part is being written may be joined).
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.type === 'text')).toBe(true);

    const out = bridge.output;
    const wireParts = out.parts();
    expect(wireParts.map((p) => p.requestId)).toEqual(wireParts.map(() => 41));
    const completions = out.completionsFor(41);
    expect(completions).toHaveLength(1);
    const responses = out.responsesFor(41);
    expect(responses).toHaveLength(1);
    expect(Math.max(...wireParts.map((p) => p.index))).toBeLessThan(completions[0]);
    expect(completions[0]).toBeLessThan(responses[0]);
    // Nothing else was written: the parts, one completion, one response.
    expect(out.messages).toHaveLength(wireParts.length + 2);
    expect(out.framingProblems()).toEqual([]);
  });

  test('a string request id is echoed as requestId too', async () => {
    const bridge = new RawBridge();
    const first = await bridge.chat([user(BREAK)], 'turn-1');
    const second = await bridge.chat([user(BREAK), assistant(first.text), user(BREAK)], 'turn-2');

    expect(second.response).toEqual({ kind: 'response', id: 'turn-2', result: {} });
    expect(second.text).toBe('Why do you want a break?');
    const ids = new Set(bridge.output.parts().map((p) => p.requestId));
    expect(ids).toEqual(new Set(['turn-1', 'turn-2']));
    expect(bridge.output.completionsFor('turn-2')).toHaveLength(1);
  });
});

describe('history: only new messages reach the agent', () => {
  test('three turns of the same sentence get the 1st, 2nd and 3rd reassembly, which re-sent histories would not', async () => {
    const bridge = startClient();
    const { client } = bridge;
    const expected = ['What would it mean to you if you got a break?', 'Why do you want a break?', 'Suppose you got a break soon.'];
    expect(elizaConversation([BREAK, BREAK, BREAK]).replies).toEqual(expected);

    const parts1 = await client.collectChatResponse(chatParams([user(BREAK)]));
    const a1 = textOfParts(parts1);
    const parts2 = await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(BREAK)]));
    const a2 = textOfParts(parts2);
    // The consumer may echo the reply back as the parts it received: adjacent text parts compare joined.
    const echoed: Message = { role: 'assistant', content: parts2 };
    const parts3 = await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(BREAK), echoed, user(BREAK)]));
    const a3 = textOfParts(parts3);

    expect([a1, a2, a3]).toEqual(expected);

    // Counterfactual 1: the whole history re-sent to the same session each time.
    const afterTurn1 = elizaConversation([BREAK]).state;
    const resent2 = elizaConversation([BREAK, BREAK], afterTurn1);
    const resent3 = elizaConversation([BREAK, BREAK, BREAK], resent2.state);
    expect(resent2.replies[1]).not.toBe(a2);
    expect(resent3.replies[2]).not.toBe(a3);
    // Counterfactual 2: only the new message, but to a session that forgot the conversation.
    const forgetful = elizaConversation([BREAK]).replies[0];
    expect(forgetful).not.toBe(a2);
    expect(forgetful).not.toBe(a3);
    // Counterfactual 3 (a fresh session hearing the whole history) answers alike; the log shows it did not happen.
    expect(sessionsOpened(bridge)).toBe(1);
  });
});

describe('history: divergence rolls Eliza back', () => {
  test('editing the last user message after a completed turn answers from the committed state', async () => {
    const bridge = startClient();
    const { client } = bridge;
    const REST = 'I need a rest';
    const a1 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK)])));
    const a2 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(BREAK)])));
    expect(a2).toBe('Why do you want a break?');

    // The consumer drops turn 2 (reply included) and asks something else instead.
    const a3 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(REST)])));
    expect(a3).toBe(elizaConversation([BREAK, REST]).replies[1]);
    expect(a3).toBe('Why do you want a rest?');
    const sawDiscarded = elizaConversation([BREAK, BREAK, REST]).replies[2];
    expect(sawDiscarded).not.toBe(a3);

    // The new branch is what is committed now.
    const a4 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(REST), assistant(a3), user(REST)])));
    expect(a4).toBe(elizaConversation([BREAK, REST, REST]).replies[2]);
    expect(a4).not.toBe(elizaConversation([BREAK, BREAK, REST, REST]).replies[3]);
    // The divergence went back (issue 45): the new branch is a conversation of its own, whose session begins from the
    // point it went back to (Eliza hears the history up to there), never the one that holds the discarded turn.
    expect(sessionsOpened(bridge)).toBe(2);
  });

  // These two fail since 959b591 ("a request may diverge after a conversation's provisional user
  // messages"): the tracker now forwards only the messages after the kept user messages, with
  // canceled=true, and Eliza's rollback to its accepted state forgets the kept user messages too.
  test('dropping the first reply and asking something else: Eliza hears each user message once', async () => {
    const bridge = startClient();
    const { client } = bridge;
    const REST = 'I need a rest';
    await client.collectChatResponse(chatParams([user(BREAK)]));
    const reply = textOfParts(await client.collectChatResponse(chatParams([user(BREAK), user(REST)])));
    expect(reply).toBe(elizaConversation([BREAK, REST]).replies[1]);
    expect(reply).not.toBe(elizaConversation([BREAK, BREAK, REST]).replies[2]);
  });

  test('dropping a later reply but keeping its question: Eliza hears the kept question and the new one', async () => {
    // What VS Code sends after a cancelled turn or a rejected tool call: the user message stays, the reply goes.
    const bridge = startClient();
    const { client } = bridge;
    const REST = 'I need a rest';
    const a1 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK)])));
    await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(BREAK)]));
    const reply = textOfParts(await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(BREAK), user(REST)])));
    expect(reply).toBe(elizaConversation([BREAK, BREAK, REST]).replies[2]);
    expect(reply).toBe('Suppose you got a rest soon.');
    expect(reply).not.toBe(elizaConversation([BREAK, BREAK, BREAK, REST]).replies[3]); // kept the discarded reply's state
    expect(reply).not.toBe(elizaConversation([BREAK, REST]).replies[1]); // forgot the kept question
  });

  test('diverging while the turn is still streaming cancels it (-32800) and answers from the committed state', async () => {
    const bridge = startClient({ paceMs: 5 });
    const { client, output } = bridge;
    const REST = 'I need a rest';
    const LONG = `I need ${'a very long break '.repeat(60)}`;
    const a1 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK)])));
    const partsBefore = output.parts().length;

    const turn2 = client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(LONG)]));
    const turn2Code = rejectionCode(turn2);
    const turn2Id = await idOfPartAfter(bridge, partsBefore);
    const a3 = textOfParts(await client.collectChatResponse(chatParams([user(BREAK), assistant(a1), user(REST)])));

    expect(await turn2Code).toBe(RequestCancelled);
    expect(output.completionsFor(turn2Id)).toEqual([]);
    expect(a3).toBe(elizaConversation([BREAK, REST]).replies[1]);
    expect(a3).not.toBe(elizaConversation([BREAK, LONG, REST]).replies[2]);
  });
});

describe('cancellation', () => {
  test('$/cancelRequest stops the stream: -32800, no completion, no late parts; the conversation goes on', async () => {
    const bridge = startClient({ paceMs: 5 });
    const { client, output } = bridge;
    const long = `I am ${Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ')}`;
    const full = elizaConversation([long]).replies[0];
    const fullWords = full.split(' ').length;
    // Eliza reads at most 300 words of a clause (matching is quadratic): still ~1.5 s of streaming at 5 ms.
    expect(fullWords).toBeGreaterThan(250);

    const cts = new CancellationTokenSource();
    const received: ResponsePart[] = [];
    const request = client.provideChatResponse(
      chatParams([user(long)]),
      (part) => {
        received.push(part);
        if (received.length === 1) cts.cancel();
      },
      cts.token,
    );
    expect(await rejectionCode(request)).toBe(RequestCancelled);

    const id = output.parts()[0].requestId as JsonRpcId;
    const response = await output.waitFor((m) => m.kind === 'response' && m.id === id);
    expect(response.kind === 'response' && response.error?.code).toBe(RequestCancelled);
    expect(output.completionsFor(id)).toEqual([]);
    const streamed = output.partsFor(id).length;
    expect(streamed).toBe(received.length);
    expect(streamed).toBeLessThan(fullWords / 10);
    expect(full.startsWith(textOf(received))).toBe(true);

    await sleep(300); // at 5 ms a word, a stream still running would have sent ~60 more parts by now
    expect(output.partsFor(id).length).toBe(streamed);
    expect(output.completionsFor(id)).toEqual([]);

    // The consumer keeps the partial reply and goes on: same conversation, Eliza remembers the long message.
    const next = textOfParts(await client.collectChatResponse(chatParams([user(long), assistant(textOf(received)), user('I am tired')])));
    expect(next).toBe(elizaConversation([long, 'I am tired']).replies[1]);
    expect(next).toBe('How long have you been tired?');
  });
});

describe('cancellation before dispatch', () => {
  // BUG in src (see the report): when $/cancelRequest arrives together with its request, vscode-jsonrpc
  // dispatches the request with a token that is already cancelled, and the server still streams the
  // reply's first word (Eliza emits it synchronously on subscription, and respondTo subscribes to the
  // parts before cancel$) before failing the request with -32800. Flip to `test` once fixed.
  test('a request cancelled before it is dispatched streams no part', async () => {
    const bridge = new RawBridge();
    const id = 7;
    const response = bridge.output.waitFor((m) => m.kind === 'response' && m.id === id);
    bridge.sendTogether([
      { jsonrpc: '2.0', id, method: Methods.provideChatResponse, params: chatParams([user(HOLIDAY)]) },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: { id } },
    ]);
    const answer = await response;
    expect(answer.kind === 'response' && answer.error?.code).toBe(RequestCancelled);
    expect(bridge.output.partsFor(id)).toEqual([]);
  });
});

describe('invalid params', () => {
  const good = user('hello');
  const cases: ReadonlyArray<{ name: string; params: unknown; path: string }> = [
    {
      name: 'an unknown part type',
      params: { modelId: ELIZA_MODEL_ID, agent: { eliza: {} }, messages: [{ role: 'user', content: [{ type: 'text', value: 'hi' }, { type: 'image', value: 'x' }] }] },
      path: 'params.messages[0].content[1].type',
    },
    { name: 'a missing modelId', params: { messages: [good], agent: { eliza: {} } }, path: 'params.modelId' },
    { name: 'an unknown agent', params: { modelId: ELIZA_MODEL_ID, messages: [good], agent: { gpt: {} } }, path: 'params.agent' },
    {
      name: 'a bad agent option',
      params: { modelId: ELIZA_MODEL_ID, messages: [good], agent: { eliza: { deterministic: 'yes' } } },
      path: 'params.agent.eliza.deterministic',
    },
    {
      name: 'an unknown role',
      params: { modelId: ELIZA_MODEL_ID, messages: [{ role: 'robot', content: [] }], agent: { eliza: {} } },
      path: 'params.messages[0].role',
    },
    { name: 'messages that are not an array', params: { modelId: ELIZA_MODEL_ID, messages: 'hello', agent: { eliza: {} } }, path: 'params.messages' },
  ];

  test('each is refused with -32602 naming the field, and the process keeps serving', async () => {
    const bridge = new RawBridge();
    for (const { name, params, path } of cases) {
      const { id, response } = bridge.request(Methods.provideChatResponse, params);
      const answer = await response;
      expect({ name, code: answer.error?.code }).toEqual({ name, code: InvalidParams });
      expect(answer.error?.message).toContain(`${path}:`);
      expect(bridge.output.partsFor(id)).toEqual([]);
      expect(bridge.output.completionsFor(id)).toEqual([]);
    }
    const tokenCount = await bridge.request(Methods.provideTokenCount, { modelId: ELIZA_MODEL_ID }).response;
    expect(tokenCount.error?.code).toBe(InvalidParams);
    expect(tokenCount.error?.message).toContain('params.text:');

    const ok = await bridge.chat([user(BREAK)]);
    expect(ok.response.result).toEqual({});
    expect(ok.text).toBe('What would it mean to you if you got a break?');
  });
});

describe('unknown methods', () => {
  test('an unknown request gets -32601, an unknown notification is ignored, and the process keeps serving', async () => {
    const bridge = new RawBridge();
    const answer = await bridge.request('lm/noSuchMethod', { modelId: ELIZA_MODEL_ID }).response;
    expect(answer.error?.code).toBe(MethodNotFound);
    bridge.notify('lm/noSuchNotification', {});

    const ok = await bridge.chat([user(BREAK)]);
    expect(ok.response.result).toEqual({});
    expect(ok.text).toBe('What would it mean to you if you got a break?');
    // Exactly: the -32601 response, then the chat's parts, completion and response.
    expect(bridge.output.messages).toHaveLength(1 + ok.parts.length + 2);
  });
});

/** True when the two requests' parts interleave on the wire (each streamed while the other was). */
function interleaved(bridge: RawBridge, a: JsonRpcId, b: JsonRpcId): boolean {
  const at = (id: JsonRpcId) => bridge.output.partsFor(id).map((p) => p.index);
  const [ia, ib] = [at(a), at(b)];
  return ia.length > 0 && ib.length > 0 && Math.min(...ib) < Math.max(...ia) && Math.min(...ia) < Math.max(...ib);
}

describe('concurrent conversations', () => {
  test('two conversations streaming at once each get exactly their own reply, turn after turn', async () => {
    const bridge = new RawBridge({ paceMs: 5 });
    const holiday = elizaConversation([HOLIDAY, HOLIDAY]).replies;
    const winter = elizaConversation([WINTER, WINTER]).replies;

    const h1 = bridge.startChat([user(HOLIDAY)]);
    const w1 = bridge.startChat([user(WINTER)]);
    const [h1r, w1r] = await Promise.all([h1.outcome, w1.outcome]);
    expect(h1r.text).toBe(holiday[0]);
    expect(w1r.text).toBe(winter[0]);
    expect(interleaved(bridge, h1.id, w1.id)).toBe(true);

    const h2 = bridge.startChat([user(HOLIDAY), assistant(h1r.text), user(HOLIDAY)]);
    const w2 = bridge.startChat([user(WINTER), assistant(w1r.text), user(WINTER)]);
    const [h2r, w2r] = await Promise.all([h2.outcome, w2.outcome]);
    expect(h2r.text).toBe(holiday[1]);
    expect(w2r.text).toBe(winter[1]);
    expect(h2r.text).toBe('Why do you want a long quiet holiday somewhere warm and sunny far away from the city?');
    expect(interleaved(bridge, h2.id, w2.id)).toBe(true);

    for (const r of [h1r, w1r, h2r, w2r]) {
      expect(r.response.result).toEqual({});
      expect(bridge.output.completionsFor(r.id)).toHaveLength(1);
    }
    // No part went astray: every part on the wire belongs to one of the four requests.
    expect(bridge.output.parts()).toHaveLength(h1r.parts.length + w1r.parts.length + h2r.parts.length + w2r.parts.length);
  });

  test('two chats with the same first message, sent together, are two conversations: neither cancels the other', async () => {
    const bridge = new RawBridge({ paceMs: 5 });
    const LONG = `I need ${'a very long break '.repeat(40)}`;
    const REST = 'I need a rest';
    const [first, second, third] = elizaConversation([HOLIDAY, HOLIDAY, BREAK]).replies;

    const x1 = bridge.startChat([user(HOLIDAY)]);
    const y1 = bridge.startChat([user(HOLIDAY)]);
    const [x1r, y1r] = await Promise.all([x1.outcome, y1.outcome]);
    expect(interleaved(bridge, x1.id, y1.id)).toBe(true);
    expect([x1r.response.error, y1r.response.error]).toEqual([undefined, undefined]);
    expect([x1r.text, y1r.text]).toEqual([first, first]);

    // Both chats go on with the same second message, again at once: each is its own conversation's turn 2.
    const x2 = bridge.startChat([user(HOLIDAY), assistant(x1r.text), user(HOLIDAY)]);
    const y2 = bridge.startChat([user(HOLIDAY), assistant(y1r.text), user(HOLIDAY)]);
    const [x2r, y2r] = await Promise.all([x2.outcome, y2.outcome]);
    expect([x2r.response.error, y2r.response.error]).toEqual([undefined, undefined]);
    expect([x2r.text, y2r.text]).toEqual([second, second]);

    // Both have the same committed history now. Y asks something long; X asks something short, then,
    // while Y is still streaming, edits its question: that rolls back X's conversation, not Y's.
    const shared = [user(HOLIDAY), assistant(first), user(HOLIDAY), assistant(second)];
    const y3 = bridge.startChat([...shared, user(LONG)]);
    const x3r = await bridge.chat([...shared, user(BREAK)]);
    expect(x3r.text).toBe(third);
    expect(bridge.output.completionsFor(y3.id)).toEqual([]); // Y is still streaming
    const x4r = await bridge.chat([...shared, user(REST)]);
    const y3r = await y3.outcome;
    expect(x4r.text).toBe(elizaConversation([HOLIDAY, HOLIDAY, REST]).replies[2]);
    expect(y3r.response).toEqual({ kind: 'response', id: y3.id, result: {} });
    expect(y3r.text).toBe(elizaConversation([HOLIDAY, HOLIDAY, LONG]).replies[2]);

    for (const r of [x1r, y1r, x2r, y2r, x3r, x4r, y3r]) expect(bridge.output.completionsFor(r.id)).toHaveLength(1);
  });
});

describe('nothing new', () => {
  test('re-sending the history that ends with our reply is refused with -32600; the conversation then goes on', async () => {
    const bridge = new RawBridge();
    const t1 = await bridge.chat([user(BREAK)]);
    const repeat = await bridge.chat([user(BREAK), assistant(t1.text)]);
    expect(repeat.response.error?.code).toBe(InvalidRequest);
    expect(repeat.parts).toEqual([]);
    expect(bridge.output.completionsFor(repeat.id)).toEqual([]);

    const t2 = await bridge.chat([user(BREAK), assistant(t1.text), user(BREAK)]);
    expect(t2.response.result).toEqual({});
    expect(t2.text).toBe('Why do you want a break?');
  });
});

describe('mcp_server agents', () => {
  // Depending on the version, the bridge either refuses ACP agents outright ("runs only the built-in
  // Eliza") or tries to start this one, whose command does not exist. Either way: a -32001 naming the agent.
  test('an agent that cannot run fails with a message naming it, and the process keeps serving Eliza', async () => {
    const bridge = new RawBridge();
    const command = '/nonexistent/path/to/acp-agent';
    const agent = { mcp_server: { name: 'my-agent', command, args: ['--flag'], env: [{ name: 'KEY', value: 'value' }] } };
    const { id, response } = bridge.request(Methods.provideChatResponse, { modelId: 'symposium', messages: [user('Hello')], agent });
    const answer = await response;
    expect(answer.error?.code).toBe(ProtocolErrorCodes.AgentFailed);
    expect(answer.error?.message).toContain('"my-agent"');
    expect(answer.error?.message).toContain(command);
    expect(bridge.output.partsFor(id)).toEqual([]);
    expect(bridge.output.completionsFor(id)).toEqual([]);

    const ok = await bridge.chat([user(BREAK)]);
    expect(ok.response.result).toEqual({});
    expect(ok.text).toBe('What would it mean to you if you got a break?');
    expect(bridge.output.framingProblems()).toEqual([]);
  });
});

describe('model information and token counts', () => {
  test('the Eliza model is listed, and token counts are positive for text and 0 for ""', async () => {
    const { client } = startClient();
    const info = await client.provideChatInformation();
    expect(info.models).toEqual([ELIZA_MODEL]);
    expect(info.models[0].id).toBe('symposium-eliza');

    const short = await client.provideTokenCount(ELIZA_MODEL_ID, 'Hello there');
    const long = await client.provideTokenCount(ELIZA_MODEL_ID, 'Hello there, how are you doing on this fine and sunny afternoon?');
    expect(short).toBeGreaterThan(0);
    expect(long).toBeGreaterThan(short);
    expect(await client.provideTokenCount(ELIZA_MODEL_ID, user('Hello there, how are you?'))).toBeGreaterThan(0);
    expect(await client.provideTokenCount(ELIZA_MODEL_ID, '')).toBe(0);
  });
});

describe('the process', () => {
  test('writes only framed JSON-RPC on stdout, logs on stderr, and exits 0 when its stdin closes', async () => {
    const bridge = new RawBridge({ logLevel: 'debug' });
    await bridge.chat([user(BREAK)]);
    await bridge.request(Methods.provideChatResponse, { messages: 'nope' }).response;
    await bridge.request('lm/noSuchMethod', {}).response;
    bridge.notify('lm/noSuchNotification', {});
    const long = bridge.startChat([user(HOLIDAY)]);
    await bridge.output.waitFor(isPartFor(long.id));
    bridge.cancel(long.id);
    expect((await long.outcome).response.error?.code).toBe(RequestCancelled);
    await bridge.request(Methods.provideChatInformation, {}).response;

    bridge.closeInput();
    expect(await within(bridge.exited, 5000, 'exit after stdin closed')).toEqual({ code: 0, signal: null });
    expect(bridge.output.framingProblems()).toEqual([]);
    expect(bridge.output.messages.length).toBeGreaterThan(10);
    const stderr = bridge.stderr();
    expect(stderr).toMatch(/^\[\S+ debug\] /m);
    expect(stderr).toMatch(/^\[\S+ info\] /m);
  });

  test('exits when its stdin ends in the middle of a frame', async () => {
    const bridge = new RawBridge();
    bridge.child.stdin!.write('Content-Length: 200\r\n\r\n{"jsonrpc":"2.0","id":1,');
    bridge.closeInput();
    expect(await within(bridge.exited, 5000, 'exit after stdin ended mid-frame')).toEqual({ code: 0, signal: null });
    expect(bridge.output.framingProblems()).toEqual([]);
  });

  test('exits promptly when stdin closes in the middle of a response', async () => {
    const bridge = new RawBridge({ paceMs: 5 });
    const chat = bridge.startChat([user(`I am ${'very '.repeat(2000)}tired`)]); // ~10 s of streaming
    const unanswered = chat.outcome.then(
      () => 'answered',
      () => 'unanswered',
    );
    await bridge.output.waitFor(isPartFor(chat.id));
    bridge.closeInput();
    expect(await within(bridge.exited, 3000, 'exit after stdin closed')).toEqual({ code: 0, signal: null });
    expect(bridge.output.framingProblems()).toEqual([]);
    expect(bridge.output.completionsFor(chat.id)).toEqual([]);
    expect(await unanswered).toBe('unanswered');
  });
});
