import { TestScheduler } from 'rxjs/testing';
import { diffHistory, type HistoryEvent } from '../../src/operators/diff-history.js';
import type { ChatRequest, TurnDecision } from '../../src/events/chat-events.js';
import { canonicalJson } from '../../src/protocol/canonical-json.js';
import { normalizeMessages } from '../../src/history/normalize.js';
import { ConversationStore } from '../../src/state/conversation-store.js';
import { createLogger } from '../../src/log/logger.js';
import type { TrackerOptions } from '../../src/history/conversations.js';
import type { AgentDefinition, Message, ResponsePart } from '../../src/protocol/messages.js';
import { assistant, chatRequest, complete, cancelled, part, requestEvent, user } from './fixtures.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

function turn(
  request: ChatRequest,
  conversationId: string,
  newMessages: Message[],
  flags: { isNew?: boolean; canceled?: boolean; askedKept?: boolean; supersedes?: number } = {},
): TurnDecision {
  return {
    kind: 'turn',
    turn: {
      request,
      conversationId,
      newMessages,
      history: normalizeMessages(request.params.messages),
      isNew: flags.isNew ?? false,
      canceled: flags.canceled ?? false,
      askedKept: flags.askedKept ?? false,
      supersedes: flags.supersedes,
      // Where the turn was asked: a digest, which the tests of going back compare between turns.
      turnKey: expect.any(String) as unknown as string,
    },
  };
}

function run(marbles: string, events: Record<string, HistoryEvent>, expected: string, decisions: Record<string, TurnDecision>, options?: TrackerOptions): void {
  scheduler().run(({ cold, expectObservable }) => {
    expectObservable(cold(marbles, events).pipe(diffHistory(canonicalJson, options))).toBe(expected, decisions);
  });
}

const U1 = user('I am sad');
const U2 = user('My mother hates me');
const U3 = user('Something else');

describe('diffHistory', () => {
  test('a request extending committed + provisional commits and forwards only the new message', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U1, assistant('Why are you sad?'), U2]);
    run(
      'a-b-c-d-e',
      { a: requestEvent(r1), b: part(1, 'Why are '), c: part(1, 'you sad?'), d: complete(1), e: requestEvent(r2) },
      'a-------e',
      { a: turn(r1, 'c1', [U1], { isNew: true }), e: turn(r2, 'c1', [U2]) },
    );
  });

  test('a request that keeps the committed part but leaves the provisional one cancels it', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U1, assistant('A1'), U2]);
    const r3 = chatRequest(3, [U1, assistant('A1'), U3]);
    run(
      'a-b-c-d-e-f',
      { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(r2), e: part(2, 'A2 so far'), f: requestEvent(r3) },
      'a-----d---f',
      { a: turn(r1, 'c1', [U1], { isNew: true }), d: turn(r2, 'c1', [U2]), f: turn(r3, 'c1', [U3], { canceled: true, supersedes: 2 }) },
    );
  });

  test('after a divergence the new provisional exchange is what a later request must extend', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U1, assistant('A1'), U2]);
    const r3 = chatRequest(3, [U1, assistant('A1'), U3]);
    const r4 = chatRequest(4, [U1, assistant('A1'), U3, assistant('A3'), U2]);
    run(
      'a-b-c-d-e-f-g-h-i',
      { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(r2), e: cancelled(2), f: requestEvent(r3), g: part(3, 'A3'), h: complete(3), i: requestEvent(r4) },
      'a-----d---f-----i',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        d: turn(r2, 'c1', [U2]),
        f: turn(r3, 'c1', [U3], { canceled: true }),
        i: turn(r4, 'c1', [U2]),
      },
    );
  });

  test('a request that continues no conversation starts a new one', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U3]);
    run('a-b', { a: requestEvent(r1), b: requestEvent(r2) }, 'a-b', {
      a: turn(r1, 'c1', [U1], { isNew: true }),
      b: turn(r2, 'c2', [U3], { isNew: true }),
    });
  });

  test('an empty committed history captures no other conversation, even one with the same first message', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U1]);
    const r3 = chatRequest(3, [U2]);
    run('a-b-c', { a: requestEvent(r1), b: requestEvent(r2), c: requestEvent(r3) }, 'a-b-c', {
      a: turn(r1, 'c1', [U1], { isNew: true }),
      b: turn(r2, 'c2', [U1], { isNew: true }),
      c: turn(r3, 'c3', [U2], { isNew: true }),
    });
  });

  test('two conversations interleaved each keep their own history', () => {
    const V1 = user('Hello');
    const V2 = user('I need help');
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [V1]);
    const r3 = chatRequest(3, [V1, assistant('Hi there.'), V2]);
    const r4 = chatRequest(4, [U1, assistant('Why sad?'), U2]);
    run(
      'a-b-c-d-e-f-g-h-i',
      { a: requestEvent(r1), b: requestEvent(r2), c: part(2, 'Hi '), d: part(1, 'Why '), e: part(2, 'there.'), f: complete(2), g: requestEvent(r3), h: part(1, 'sad?'), i: requestEvent(r4) },
      'a-b---------g---i',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        b: turn(r2, 'c2', [V1], { isNew: true }),
        g: turn(r3, 'c2', [V2]),
        i: turn(r4, 'c1', [U2], { supersedes: 1 }),
      },
    );
  });

  test('parts arriving after their turn ended are dropped', () => {
    const r1 = chatRequest(1, [U1]);
    const onTime = chatRequest(2, [U1, assistant('Why'), U2]);
    run(
      'a-b-c-d-e',
      { a: requestEvent(r1), b: part(1, 'Why'), c: cancelled(1), d: part(1, 'late'), e: requestEvent(onTime) },
      'a-------e',
      // Had 'late' been recorded, this history would leave the provisional reply ("Whylate") and diverge.
      { a: turn(r1, 'c1', [U1], { isNew: true }), e: turn(onTime, 'c1', [U2]) },
    );
  });

  test('a request with nothing new is refused and changes nothing', () => {
    const r1 = chatRequest(1, [U1]);
    const again = chatRequest(2, [U1, assistant('A1')]);
    const next = chatRequest(3, [U1, assistant('A1'), U2]);
    run(
      'a-b-c-d-e',
      { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(again), e: requestEvent(next) },
      'a-----d-e',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        d: { kind: 'reject', request: again, reason: 'Nothing new to answer: the request repeats the conversation so far without a new user message.' },
        e: turn(next, 'c1', [U2]),
      },
    );
  });

  test('a summary request (Copilot compacting) is answered at once and changes no turn: the one in flight goes on', () => {
    const r1 = chatRequest(1, [U1]);
    const asked = chatRequest(2, [U1, user('The conversation has grown too large for the context window and must be compacted now.')]);
    const summary = { ...asked, params: { ...asked.params, marker: 'm2' } };
    const r3 = chatRequest(3, [U1, assistant('Why are you sad?'), U2]);
    run(
      'a-b-s-c-d-e',
      { a: requestEvent(r1), b: part(1, 'Why are '), s: requestEvent(summary), c: part(1, 'you sad?'), d: complete(1), e: requestEvent(r3) },
      'a---s-----e',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        s: { kind: 'answer', request: summary, text: expect.stringContaining('symposium-conversation:m2') as string },
        e: turn(r3, 'c1', [U2]),
      },
    );
  });

  test('thinking, bookkeeping data and split text parts do not break matching', () => {
    const r1 = chatRequest(1, [U1]);
    const echoed: Message = {
      role: 'assistant',
      content: [
        { type: 'thinking', value: 'hmm' },
        { type: 'text', value: 'Why are ' },
        { type: 'data', mimeType: 'stateful_marker', data: 'eyJ9' },
        { type: 'text', value: 'you sad?' },
      ],
    };
    const r2 = chatRequest(2, [U1, echoed, { role: 'user', content: [{ type: 'data', mimeType: 'cache_control', data: 'e30=' }, ...U2.content] }]);
    run(
      'a-b-c-d-e',
      { a: requestEvent(r1), b: part(1, 'Why are you'), c: part(1, ' sad?'), d: complete(1), e: requestEvent(r2) },
      'a-------e',
      { a: turn(r1, 'c1', [U1], { isNew: true }), e: turn(r2, 'c1', [U2]) },
    );
  });

  test('the same history with another agent is another conversation', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U1, assistant('A1'), U2], { agent: { eliza: { deterministic: false } } });
    run('a-b-c-d', { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(r2) }, 'a-----d', {
      a: turn(r1, 'c1', [U1], { isNew: true }),
      d: turn(r2, 'c2', [U1, assistant('A1'), U2], { isNew: true }),
    });
  });

  test('a conversation first seen with history commits it, so an edit of its last message diverges', () => {
    const r1 = chatRequest(1, [U1, assistant('A1'), U2]);
    const r2 = chatRequest(2, [U1, assistant('A1'), U3]);
    run('a-b', { a: requestEvent(r1), b: requestEvent(r2) }, 'a-b', {
      a: turn(r1, 'c1', [U1, assistant('A1'), U2], { isNew: true }),
      b: turn(r2, 'c1', [U3], { canceled: true, supersedes: 1 }),
    });
  });

  test('a first turn whose tool call the user rejected diverges after the user message', () => {
    const r1 = chatRequest(1, [U1]);
    const withoutReply = chatRequest(2, [U1, U2]);
    const toolCall: TurnDecision = turn(r1, 'c1', [U1], { isNew: true });
    const callPart: HistoryEvent = { kind: 'part', requestId: 1, part: { type: 'tool_call', toolCallId: 't', toolName: 'symposium-agent-action', parameters: {} } };
    run('a-b-c-d', { a: requestEvent(r1), b: callPart, c: complete(1), d: requestEvent(withoutReply) }, 'a-----d', {
      a: toolCall,
      d: turn(withoutReply, 'c1', [U2], { canceled: true, askedKept: true }),
    });
  });

  test('a first turn answered only in part diverges too, committing what the consumer kept', () => {
    const r1 = chatRequest(1, [U1]);
    const partial = chatRequest(2, [U1, assistant('Why'), U2]);
    const next = chatRequest(3, [U1, assistant('Why'), U2, assistant('B'), U3]);
    run(
      'a-b-c-d-e-f-g',
      { a: requestEvent(r1), b: part(1, 'Why'), c: part(1, ' are you sad?'), d: cancelled(1), e: requestEvent(partial), f: part(2, 'B'), g: requestEvent(next) },
      'a-------e---g',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        e: turn(partial, 'c1', [assistant('Why'), U2], { canceled: true, askedKept: true }),
        g: turn(next, 'c1', [U3], { supersedes: 2 }),
      },
    );
  });

  test('a retry of a cancelled turn forwards its message again', () => {
    const r1 = chatRequest(1, [U1]);
    const r2 = chatRequest(2, [U1, assistant('A1'), U2]);
    const retry = chatRequest(3, [U1, assistant('A1'), U2]);
    run(
      'a-b-c-d-e-f',
      { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(r2), e: cancelled(2), f: requestEvent(retry) },
      'a-----d---f',
      { a: turn(r1, 'c1', [U1], { isNew: true }), d: turn(r2, 'c1', [U2]), f: turn(retry, 'c1', [U2], { canceled: true }) },
    );
  });

  describe('consumers that rewrite their context between requests (Copilot-shaped requests)', () => {
    // The shapes Copilot Chat's agent prompt sends: a system prompt, a global context message, and the
    // current turn wrapped in context blocks around <userRequest>; once a turn is history it is
    // re-rendered without most of that context.
    const system = (date: string): Message => ({ role: 'system', content: [{ type: 'text', value: `You are an expert AI programming assistant.\n<instructions>Today is ${date}.</instructions>` }] });
    const globalContext = (files: string): Message => user(`<environment_info>\nThe user's current OS is: Linux\n</environment_info>\n<workspace_info>\n${files}\n</workspace_info>`);
    const currentTurn = (words: string, date: string): Message => ({
      role: 'user',
      content: [
        { type: 'text', value: `<context>\nThe current date is ${date}.\n</context>\n<editorContext>\nThe user's current file is /w/a.ts.\n</editorContext>\n<reminderInstructions>\nBe brief.\n</reminderInstructions>\n<userRequest>\n${words}\n</userRequest>` },
        { type: 'data', mimeType: 'cache_control', data: 'ZXBoZW1lcmFs' },
      ],
    });
    const pastTurn = (words: string): Message => user(`<context>\nThe user edited a.ts.\n</context>\n<userRequest>\n${words}\n</userRequest>`);

    test('a changed system prompt and re-rendered past turn still continue the conversation', () => {
      const r1 = chatRequest(1, [system('Monday'), globalContext('a.ts'), currentTurn('Why does the build fail?', 'Monday')]);
      const r2 = chatRequest(2, [system('Tuesday'), globalContext('a.ts b.ts'), pastTurn('Why does the build fail?'), assistant('A missing import.'), currentTurn('Fix it', 'Tuesday')]);
      run(
        'a-b-c-d',
        { a: requestEvent(r1), b: part(1, 'A missing import.'), c: complete(1), d: requestEvent(r2) },
        'a-----d',
        { a: turn(r1, 'c1', normalizeMessages(r1.params.messages), { isNew: true }), d: turn(r2, 'c1', normalizeMessages([r2.params.messages[4]])) },
      );
    });

    test('a rewritten request that diverges after the reply still cancels the turn in flight', () => {
      const r1 = chatRequest(1, [system('Monday'), globalContext('a.ts'), currentTurn('Why does the build fail?', 'Monday')]);
      const r2 = chatRequest(2, [system('Tuesday'), globalContext('a.ts'), pastTurn('Why does the build fail?'), assistant('A missing import.'), currentTurn('Fix it', 'Tuesday')]);
      const r3 = chatRequest(3, [system('Wednesday'), globalContext('a.ts'), pastTurn('Why does the build fail?'), assistant('A missing import.'), currentTurn('Explain it instead', 'Wednesday')]);
      run(
        'a-b-c-d-e-f',
        { a: requestEvent(r1), b: part(1, 'A missing import.'), c: complete(1), d: requestEvent(r2), e: part(2, 'Editing a.ts'), f: requestEvent(r3) },
        'a-----d---f',
        {
          a: turn(r1, 'c1', normalizeMessages(r1.params.messages), { isNew: true }),
          d: turn(r2, 'c1', normalizeMessages([r2.params.messages[4]])),
          f: turn(r3, 'c1', normalizeMessages([r3.params.messages[4]]), { canceled: true, supersedes: 2 }),
        },
      );
    });

    test('past words that differ are another conversation, however alike the context', () => {
      const r1 = chatRequest(1, [system('Monday'), globalContext('a.ts'), currentTurn('Why does the build fail?', 'Monday')]);
      const r2 = chatRequest(2, [system('Monday'), globalContext('a.ts'), pastTurn('Why does the test fail?'), assistant('A missing import.'), currentTurn('Fix it', 'Monday')]);
      run(
        'a-b-c-d',
        { a: requestEvent(r1), b: part(1, 'A missing import.'), c: complete(1), d: requestEvent(r2) },
        'a-----d',
        { a: turn(r1, 'c1', normalizeMessages(r1.params.messages), { isNew: true }), d: turn(r2, 'c2', normalizeMessages(r2.params.messages), { isNew: true }) },
      );
    });
  });

  describe('conversations forgotten, and found again through the index', () => {
    const quiet = createLogger('error', () => {});
    const ids = (prefix: string) => {
      let n = 0;
      return () => `${prefix}${++n}`;
    };

    test('after a restart, a request continuing a completed reply goes on under its old conversation', () => {
      const index = new ConversationStore(undefined, quiet);
      const r1 = chatRequest(1, [U1]);
      run('a-b-c', { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1) }, 'a----', { a: turn(r1, 'old1', [U1], { isNew: true }) }, { index, newId: ids('old') });
      const r2 = chatRequest(2, [U1, assistant('A1'), U2]);
      run('a', { a: requestEvent(r2) }, 'a', { a: turn(r2, 'old1', [U2], { isNew: true }) }, { index, newId: ids('new') });
    });

    test("after /compact and a restart, the conversation is found by its marker, and Copilot's \"Compacted conversation.\" is not told", () => {
      const index = new ConversationStore(undefined, quiet);
      const r1 = chatRequest(1, [U1], { marker: 'm1' });
      run('a-b-c', { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1) }, 'a----', { a: turn(r1, 'old1', [U1], { isNew: true }) }, { index, newId: ids('old') });
      const summary = user('<conversation-summary>\nThe agent keeps its own context. symposium-conversation:m1\n</conversation-summary>');
      const r2 = chatRequest(2, [summary, user('<userRequest>\n\n</userRequest>'), assistant('Compacted conversation.'), U2]);
      run('a', { a: requestEvent(r2) }, 'a', { a: turn(r2, 'old1', [U2], { isNew: true }) }, { index, newId: ids('new') });
    });

    test('a reply that was cancelled is not where the conversation is found again', () => {
      const index = new ConversationStore(undefined, quiet);
      const r1 = chatRequest(1, [U1]);
      run('a-b-c', { a: requestEvent(r1), b: part(1, 'A1'), c: cancelled(1) }, 'a----', { a: turn(r1, 'old1', [U1], { isNew: true }) }, { index, newId: ids('old') });
      const r2 = chatRequest(2, [U1, assistant('A1'), U2]);
      run('a', { a: requestEvent(r2) }, 'a', { a: turn(r2, 'new1', normalizeMessages(r2.params.messages), { isNew: true }) }, { index, newId: ids('new') });
    });

    test('beyond maxConversations the least recently used idle conversation is forgotten, and found again', () => {
      const index = new ConversationStore(undefined, quiet);
      const r1 = chatRequest(1, [U1]);
      const r2 = chatRequest(2, [U3]);
      const r3 = chatRequest(3, [U1, assistant('A1'), U2]);
      run(
        'a-b-c-d-e-f',
        { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(r2), e: complete(2), f: requestEvent(r3) },
        'a-----(dF)(fG)',
        {
          a: turn(r1, 'c1', [U1], { isNew: true }),
          d: turn(r2, 'c2', [U3], { isNew: true }),
          F: { kind: 'forget', conversationId: 'c1' },
          f: turn(r3, 'c1', [U2], { isNew: true }),
          G: { kind: 'forget', conversationId: 'c2' },
        },
        { index, maxConversations: 1 },
      );
    });
  });
});

describe('diffHistory: conversations as real consumers make them', () => {
  const PARROT: AgentDefinition = { mcp_server: { name: 'parrot', command: 'parrot', args: [], env: [] } };
  /** An assistant message as Copilot sends it back: its text and the stateful marker of the response. */
  const marked = (text: string, marker: string): Message => ({
    role: 'assistant',
    content: [
      { type: 'data', mimeType: 'stateful_marker', data: Buffer.from(`m\\${marker}`).toString('base64') },
      { type: 'text', value: text },
    ],
  });

  test("a chat switched to another agent is a new conversation with it, whatever the first agent's markers say; switching back continues the first", () => {
    const r1 = chatRequest(1, [U1], { marker: 'eliza-1' });
    const r2 = chatRequest(2, [U1, marked('A1', 'eliza-1'), U2], { agent: PARROT, marker: 'parrot-2' });
    const r3 = chatRequest(3, [U1, marked('A1', 'eliza-1'), U2, marked('B2', 'parrot-2'), U3], { marker: 'eliza-3' });
    run(
      'a-b-c-d-e-f-g',
      { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(r2), e: part(2, 'B2'), f: complete(2), g: requestEvent(r3) },
      'a-----d-----g',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        // Parrot is told the whole chat (a new session hears what it has not seen).
        d: turn(r2, 'c2', normalizeMessages(r2.params.messages), { isNew: true }),
        // Eliza hears what was said while Parrot answered: everything after its own reply.
        g: turn(r3, 'c1', normalizeMessages(r3.params.messages).slice(2)),
      },
    );
  });

  test('a history re-rendered past matching reaches the marked conversation only for the same agent', () => {
    const r1 = chatRequest(1, [U1], { marker: 'eliza-1' });
    // The history no longer matches (the consumer re-rendered the first message); the marker names c1.
    const rerendered = [user('I am sad, as I said'), marked('A1', 'eliza-1'), U2];
    const sameAgent = chatRequest(2, rerendered);
    const otherAgent = chatRequest(3, rerendered, { agent: PARROT });
    run(
      'a-b-c-d-e',
      { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(sameAgent), e: requestEvent(otherAgent) },
      'a-----d-e',
      {
        a: turn(r1, 'c1', [U1], { isNew: true }),
        d: turn(sameAgent, 'c1', [U2]),
        e: turn(otherAgent, 'c2', normalizeMessages(rerendered), { isNew: true }),
      },
    );
  });

  /** Cline's system prompt: the first message, with the Assistant role. */
  const CLINE_PROMPT = assistant('You are Cline, an AI coding agent.');

  test("Cline's system prompt (a first assistant message) is its instructions: a new task with the same prompt is a new conversation", () => {
    const task1 = chatRequest(1, [CLINE_PROMPT, U1]);
    const followUp = chatRequest(2, [CLINE_PROMPT, U1, assistant('A1'), U2]);
    const task2 = chatRequest(3, [CLINE_PROMPT, U3]);
    const asSystem: Message = { role: 'system', content: CLINE_PROMPT.content };
    run(
      'a-b-c-d-e-f-g',
      { a: requestEvent(task1), b: part(1, 'A1'), c: complete(1), d: requestEvent(followUp), e: part(2, 'A2'), f: complete(2), g: requestEvent(task2) },
      'a-----d-----g',
      {
        a: turn(task1, 'c1', [asSystem, U1], { isNew: true }),
        d: turn(followUp, 'c1', [U2]),
        g: turn(task2, 'c2', [asSystem, U3], { isNew: true }),
      },
    );
  });

  test("Cline's note after tool results belongs to them: the next request, which leaves it out, continues the conversation", () => {
    const call: ResponsePart = { type: 'tool_call', toolCallId: 't1', toolName: 'read_files', parameters: { files: [{ path: '/w/a.txt' }] } };
    const called: Message = { role: 'assistant', content: [call] };
    const result: Message = { role: 'user', content: [{ type: 'tool_result', toolCallId: 't1', result: [{ type: 'text', value: 'hello' }] }] };
    const note = user('Above is the result of calling one or more tools. The user cannot see the results, so you should explain them to the user if referencing them in your answer.');
    const r1 = chatRequest(1, [CLINE_PROMPT, U1]);
    const withResult = chatRequest(2, [CLINE_PROMPT, U1, called, result, note]);
    const next = chatRequest(3, [CLINE_PROMPT, U1, called, result, assistant('It says hello.'), U2]);
    run(
      'a-b-c-d-e-f-g',
      { a: requestEvent(r1), b: { kind: 'part', requestId: 1, part: call }, c: complete(1), d: requestEvent(withResult), e: part(2, 'It says hello.'), f: complete(2), g: requestEvent(next) },
      'a-----d-----g',
      {
        a: turn(r1, 'c1', [{ role: 'system', content: CLINE_PROMPT.content }, U1], { isNew: true }),
        d: turn(withResult, 'c1', [result, note]),
        g: turn(next, 'c1', [U2]),
      },
    );
  });

  test("after /compact and a reload, Copilot's own reply \"Compacted conversation.\" is not a turn to tell the agent", () => {
    const r1 = chatRequest(1, [U1], { marker: 'm1' });
    const summary = user('<conversation-summary>\nThe agent keeps its own context. symposium-conversation:m1\n</conversation-summary>');
    const next = chatRequest(2, [summary, user('<userRequest>\n\n</userRequest>'), assistant('Compacted conversation.'), U2]);
    run('a-b-c-d', { a: requestEvent(r1), b: part(1, 'A1'), c: complete(1), d: requestEvent(next) }, 'a-----d', {
      a: turn(r1, 'c1', [U1], { isNew: true }),
      d: turn(next, 'c1', [U2]),
    });
  });
});
