import { readFileSync } from 'node:fs';
import path from 'node:path';
import { splitConsumerText } from '../../src/history/consumer-context.js';
import { identityOf, normalizeMessages } from '../../src/history/normalize.js';
import { applyContextPolicy, contextPolicyNamed } from '../../src/history/context-policy.js';
import type { Message } from '../../src/protocol/messages.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });
/** A request Roo Code 3.52 sent, recorded in the real VS Code host (test/fixtures/roo/). */
const roo = (name: string): { messages: Message[] } => JSON.parse(readFileSync(path.resolve('test/fixtures/roo', `${name}.json`), 'utf8')) as { messages: Message[] };
const textsOf = (message: Message): string[] => message.content.flatMap((p) => (p.type === 'text' ? [p.value] : []));

describe('splitConsumerText', () => {
  test("Copilot's <userRequest> is the user's words; everything around it is context", () => {
    const text = '<context>\nThe current date is Monday.\n</context>\n<userRequest>\nFix the build\n</userRequest>\n<reminderInstructions>x</reminderInstructions>';
    expect(splitConsumerText(text)).toEqual({
      request: 'Fix the build',
      context: ['<context>\nThe current date is Monday.\n</context>', '<reminderInstructions>x</reminderInstructions>'],
      attachments: [],
    });
  });

  test('known context blocks are removed from text without <userRequest>; other tags are the user’s', () => {
    const text = '<task>\nRename <b>foo</b>\n</task>\n<environment_details>\n# Time\n9:41\n</environment_details>';
    expect(splitConsumerText(text)).toEqual({ request: '<task>\nRename <b>foo</b>\n</task>', context: ['<environment_details>\n# Time\n9:41\n</environment_details>'], attachments: [] });
  });

  test('a message of context only has no words of the user', () => {
    expect(splitConsumerText('<environment_info>Linux</environment_info>\n<workspace_info x="1">a.ts</workspace_info>').request).toBe('');
  });

  test("Copilot's own context message is context whole, blocks not seen before included (memories, new tags)", () => {
    const text = [
      '<environment_info>\nThe user\'s current OS is: Linux\n</environment_info>',
      '<workspace_info>\nfolders\n</workspace_info>',
      '<userMemory>\nNo user preferences or notes saved yet.\n</userMemory>',
      '<sessionMemory>\nEmpty\n</sessionMemory>',
      '<repoMemory>\nEmpty\n</repoMemory>',
      '<someBlockOfCopilot1_0 scope="x">\nanything\n</someBlockOfCopilot1_0>',
    ].join('\n');
    expect(splitConsumerText(text).request).toBe('');
    expect(splitConsumerText(text).context).toHaveLength(6);
  });

  test('blocks of tags no consumer is known for are the user\'s, and so is Cline\'s <task>', () => {
    expect(splitConsumerText('<div>\nhello\n</div>\n<p>x</p>').request).toBe('<div>\nhello\n</div>\n<p>x</p>');
    expect(splitConsumerText('<task>\nfix it\n</task>\n<environment_details>\nx\n</environment_details>').request).toBe('<task>\nfix it\n</task>');
  });

  test('an unclosed context tag is kept as the user wrote it', () => {
    expect(splitConsumerText('see <context> here')).toEqual({ request: 'see <context> here', context: [], attachments: [] });
  });

  test('hostile input of many unclosed tags is read in linear time', () => {
    // Quadratic scanning of these 1.8 MB would take minutes and exceed the test's timeout.
    const text = '<context>'.repeat(200_000);
    expect(splitConsumerText(text).request).toBe(text);
  });
});

describe('identityOf', () => {
  test('system messages and context-only user messages have no identity', () => {
    expect(identityOf({ role: 'system', content: [{ type: 'text', value: 'Be nice' }] })).toBeUndefined();
    expect(identityOf({ role: 'user', content: [{ type: 'text', value: '<environment_info>Linux</environment_info>' }] })).toBeUndefined();
  });

  test("a user message is its words and tool results; attachments don't count", () => {
    const identity = identityOf({
      role: 'user',
      content: [
        { type: 'text', value: '<attachments>a.ts</attachments><userRequest>Why?</userRequest>' },
        { type: 'data', mimeType: 'image/png', data: 'AAAA' },
        { type: 'tool_result', toolCallId: 't1', result: [{ type: 'text', value: 'ok' }] },
      ],
    });
    expect(identity).toEqual({
      role: 'user',
      content: [
        { type: 'text', value: 'Why?' },
        { type: 'tool_result', toolCallId: 't1', result: [{ type: 'text', value: 'ok' }] },
      ],
    });
  });

  test('assistant messages are compared whole', () => {
    const reply = { role: 'assistant' as const, content: [{ type: 'text' as const, value: '<context>kept</context>' }] };
    expect(identityOf(reply)).toBe(reply);
  });
});

describe('applyContextPolicy', () => {
  const messages: Message[] = [
    { role: 'system', content: [{ type: 'text', value: 'You are Copilot.' }] },
    user('<environment_info>Linux</environment_info>'),
    {
      role: 'user',
      content: [
        { type: 'text', value: '<attachments>a.ts</attachments>\n<userRequest>\nWhy?\n</userRequest>' },
        { type: 'data', mimeType: 'image/png', data: 'AAAA' },
        { type: 'data', mimeType: 'text/plain', data: 'bm90ZXM=' },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', value: '<context>kept</context>' }] },
    { role: 'user', content: [{ type: 'tool_result', toolCallId: 't', result: [{ type: 'text', value: 'ok' }] }] },
  ];

  test("user: the user's words and images; context-only messages, attachments and the system prompt go", () => {
    expect(applyContextPolicy(messages, 'user')).toEqual([
      { role: 'user', content: [{ type: 'text', value: 'Why?' }, { type: 'data', mimeType: 'image/png', data: 'AAAA' }] },
      messages[3],
      messages[4],
    ]);
  });

  test('system: and the system prompt', () => {
    expect(applyContextPolicy(messages, 'system')[0]).toBe(messages[0]);
    expect(applyContextPolicy(messages, 'system')).toHaveLength(4);
  });

  test('everything: everything as sent (no attachment of a known shape here)', () => {
    expect(applyContextPolicy(messages, 'everything')).toEqual(messages);
  });

  test('the former name `attachments` still means everything', () => {
    expect(contextPolicyNamed('attachments')).toBe('everything');
    expect(contextPolicyNamed('everything')).toBe('everything');
    expect(contextPolicyNamed('user')).toBe('user');
    expect(contextPolicyNamed('nothing')).toBeUndefined();
  });
});

describe("what consumers send besides the person's words", () => {
  const NOTE = 'Above is the result of calling one or more tools. The user cannot see the results, so you should explain them to the user if referencing them in your answer.';

  test("Cline's note after tool results is the consumer's, not the person's: no identity, and no words for the agent", () => {
    expect(splitConsumerText(NOTE)).toEqual({ request: '', context: [NOTE], attachments: [] });
    expect(identityOf(user(NOTE))).toBeUndefined();
    expect(applyContextPolicy([user(NOTE)], 'user')).toEqual([]);
  });

  test("Roo Code's retry after a reply that called none of its tools is the consumer's: no identity, no words for the agent (recorded)", () => {
    const retry = roo('no-tools-used').messages.at(-1)!;
    expect(textsOf(retry)[0]).toMatch(/^\[ERROR\] You did not use a tool in your previous response!/);
    expect(identityOf(retry)).toBeUndefined();
    expect(applyContextPolicy([retry], 'user')).toEqual([]);
  });

  test("Kilo Code legacy's retry, with its note on tool calls written as text, and the consumers' other notes are context", () => {
    const kiloRetry = `[ERROR] You did not use a tool in your previous response! Please retry with a tool use.\n\n# Next Steps\n(This is an automated message, so do not respond to it conversationally.)\n\n[ERROR] You are outputting tool calls as text (e.g. '[Tool Use: ...]'). This is invalid. You MUST use the native tool calling capability provided by the API. Do not write the tool use in the text response.`;
    const truncated = '[NOTE] Some previous conversation history with the user has been removed to maintain optimal context window length. The initial user task and the most recent exchanges have been retained for continuity, while intermediate conversation history has been removed. Please keep this in mind as you continue assisting the user.';
    for (const note of [kiloRetry, '[TASK RESUMPTION] Resuming task...', truncated]) {
      expect(splitConsumerText(note).request).toBe('');
      expect(identityOf(user(note))).toBeUndefined();
    }
  });

  test('a note read joined with what follows it (consumers send them as parts of one message) leaves the rest to be read', () => {
    const retry = roo('no-tools-used').messages.at(-1)!;
    const joined = textsOf(retry).join('');
    expect(splitConsumerText(joined).request).toBe('');
    expect(splitConsumerText(`${textsOf(retry)[0]}\nFix the tests`).request).toBe('Fix the tests');
    // Hostile input of many notes is read in linear time.
    expect(splitConsumerText(`${textsOf(retry)[0]}`.repeat(20_000)).request).toBe('');
  });

  test('what the person typed at "Roo is having trouble…" comes inside its guidance note: those words are theirs (recorded)', () => {
    const guided = roo('too-many-mistakes').messages.at(-1)!;
    expect(textsOf(guided)[1]).toBe('{"status":"guidance","feedback":"history"}');
    expect(identityOf(guided)).toEqual(user('history'));
    expect(applyContextPolicy([guided], 'user')).toEqual([user('history')]);
    // As the history reads it: its texts joined.
    expect(normalizeMessages([guided]).map(identityOf)).toEqual([user('history')]);
  });

  test("Kilo Code legacy's guidance and feedback, as JSON and as <feedback>, carry the person's words; without any, none", () => {
    expect(splitConsumerText('{"status":"guidance","message":"You seem to be having trouble proceeding","feedback":"try the tests"}').request).toBe('try the tests');
    expect(splitConsumerText('You seem to be having trouble proceeding. The user has provided the following feedback to help guide you:\n<feedback>\ntry the tests\n</feedback>').request).toBe('try the tests');
    expect(splitConsumerText('{"status":"guidance"}').request).toBe('');
    // JSON of another shape is what the person typed.
    expect(splitConsumerText('{"status":"ok"}').request).toBe('{"status":"ok"}');
  });

  test("Cline's notice that the person switched modes is context around their words", () => {
    const text = '<mode_notice>The user switched from plan mode to act mode before sending this message.</mode_notice>\nGo ahead';
    expect(splitConsumerText(text).request).toBe('Go ahead');
  });

  test("the words consumers wrap: Cline 4.x's <user_input mode>, Roo Code's and Kilo Code's <user_message>", () => {
    const cline = '<mode_notice>The user switched from plan mode to act mode before sending this message.</mode_notice>\n<user_input mode="act">Fix the bug</user_input>';
    expect(splitConsumerText(cline)).toEqual({ request: 'Fix the bug', context: ['<mode_notice>The user switched from plan mode to act mode before sending this message.</mode_notice>'], attachments: [] });
    expect(splitConsumerText('<user_message>\nRename foo\n</user_message>')).toEqual({ request: 'Rename foo', context: [], attachments: [] });
    // Roo Code's environment is a text part of its own: context only.
    expect(splitConsumerText('<environment_details>\n# Time\n</environment_details>').request).toBe('');
    // A tag that only begins like one of them is the person's.
    expect(splitConsumerText('<user_inputs>x</user_inputs>').request).toBe('<user_inputs>x</user_inputs>');
  });

  test('an assistant message before anything the user said is the consumer\'s instructions (Cline\'s system prompt): a system message', () => {
    const prompt: Message = { role: 'assistant', content: [{ type: 'text', value: 'You are Cline.' }] };
    const reply: Message = { role: 'assistant', content: [{ type: 'text', value: 'Done.' }] };
    expect(normalizeMessages([prompt, user('Fix it'), reply])).toEqual([{ role: 'system', content: prompt.content }, user('Fix it'), reply]);
    expect(applyContextPolicy(normalizeMessages([prompt, user('Fix it')]), 'user')).toEqual([user('Fix it')]);
    expect(applyContextPolicy(normalizeMessages([prompt, user('Fix it')]), 'system')).toEqual([{ role: 'system', content: prompt.content }, user('Fix it')]);
  });

  test('a reply is the same reply whatever order a consumer gives its text and tool calls in (Copilot: text first; Cline: calls first)', () => {
    const call = { type: 'tool_call' as const, toolCallId: 't1', toolName: 'read_files', parameters: { files: [] } };
    const copilot: Message = { role: 'assistant', content: [{ type: 'text', value: 'Let me look. ' }, { type: 'text', value: 'Reading.' }, call] };
    const cline: Message = { role: 'assistant', content: [call, { type: 'text', value: 'Let me look. Reading.' }] };
    const streamed: Message = { role: 'assistant', content: [{ type: 'text', value: 'Let me look. ' }, call, { type: 'text', value: 'Reading.' }] };
    expect(identityOf(cline)).toEqual(identityOf(copilot));
    expect(identityOf(streamed)).toEqual(identityOf(copilot));
  });
});
