/**
 * An agent's questions to the person (ACP elicitation) through the real bridge: the built `symposium-lm
 * vscodelm` driven by LmClient, the scripted agent asking with its `ask` and `ask-url` commands. Where the
 * request offers VS Code's `vscode_askQuestions`, a form is a call of that tool, answered as VS Code answers
 * it (Roo Code's `ask_followup_question` likewise, for a form of one question); elsewhere the client's own prompts ask it, or it is declined, and a person who moves on without
 * answering (or stops) cancels it. A web page to open (URL mode) is the client's to offer.
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, AskQuestionsParams, OpenUrlParams } from '../../src/protocol/messages.js';
import { ASK_QUESTIONS, AgentBridge, SCRIPTED_AGENT, picking, replied, resultOf, toolCallsOf, user } from './agent-bridge.js';
import { waitUntil } from '../fixtures/wait-until.js';

const AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http'], env: [] } };
const ASK = 'ask Which flavour? | Vanilla | Chocolate';

/**
 * Serves the client's prompt with `serve`, left up until the bridge withdraws it (then answered with `answer`),
 * sends `message` and stops the turn once the prompt shows. Resolves with whether the prompt was withdrawn.
 */
async function stopWhileAsked<P, R>(serve: (handler: (params: P, token: CancellationToken) => Promise<R>) => unknown, answer: R, message: string): Promise<boolean> {
  let shown = false;
  let withdrawn = false;
  serve((_params, token) => {
    shown = true;
    return new Promise((resolve) =>
      token.onCancellationRequested(() => {
        withdrawn = true;
        resolve(answer);
      }),
    );
  });
  const stop = new CancellationTokenSource();
  const asking = bridge.chat([user(message)], AGENT, [], stop);
  expect(await waitUntil(() => shown, 5000)).toBe(true);
  stop.cancel();
  await asking.catch(() => undefined);
  return withdrawn;
}

let bridge: AgentBridge;
beforeEach(() => {
  bridge = new AgentBridge();
});
afterEach(async () => {
  await bridge.close();
});

test("a question becomes a call of VS Code's vscode_askQuestions; the person's pick reaches the agent as the form's value", async () => {
  const first = [user(ASK)];
  const asked = await bridge.chat(first, AGENT, [ASK_QUESTIONS]);
  const [call] = toolCallsOf(asked);
  expect(call).toEqual({
    type: 'tool_call',
    toolCallId: expect.any(String),
    toolName: 'vscode_askQuestions',
    parameters: { questions: [{ header: 'Choice', question: 'Which flavour?', options: [{ label: 'Vanilla' }, { label: 'Chocolate' }], allowFreeformInput: false }] },
  });
  const rest = await bridge.chat([...first, replied(asked), picking(call!, 'Chocolate')], AGENT, [ASK_QUESTIONS]);
  expect(textOfParts(rest)).toBe('answer: accept {"choice":"choice-2"}');
});

test("where the request offers Roo Code's ask_followup_question, a question is a call of it; the suggestion clicked reaches the agent", async () => {
  const followUp = [{ name: 'ask_followup_question', description: 'Asks the user', inputSchema: { type: 'object', properties: { question: { type: 'string' }, follow_up: { type: 'array' } } } }];
  const first = [user(ASK)];
  const asked = await bridge.chat(first, AGENT, followUp);
  const [call] = toolCallsOf(asked);
  expect(call).toMatchObject({ toolName: 'ask_followup_question', parameters: { question: 'Which flavour?', follow_up: [{ text: 'Vanilla' }, { text: 'Chocolate' }] } });
  // Roo's answer, as it sends it back.
  const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, '<user_message>\nChocolate\n</user_message>')], AGENT, followUp);
  expect(textOfParts(rest)).toBe('answer: accept {"choice":"choice-2"}');
});

test("a form of several fields is asked with Roo's ask_followup_question one field after another; the answers reach the agent together", async () => {
  const followUp = [{ name: 'ask_followup_question', description: 'Asks the user', inputSchema: { type: 'object', properties: { question: { type: 'string' }, follow_up: { type: 'array' } } } }];
  const first = [user('ask Which flavour? | Vanilla | Chocolate + Anything else?')];
  const asked = await bridge.chat(first, AGENT, followUp);
  const [flavour] = toolCallsOf(asked);
  expect(flavour).toMatchObject({ toolName: 'ask_followup_question', parameters: { question: 'Which flavour?', follow_up: [{ text: 'Vanilla' }, { text: 'Chocolate' }] } });
  const history = [...first, replied(asked), resultOf(flavour!.toolCallId, '<user_message>\nChocolate\n</user_message>')];
  const next = await bridge.chat(history, AGENT, followUp);
  const [note] = toolCallsOf(next);
  expect(note).toMatchObject({ toolName: 'ask_followup_question', parameters: { question: 'Anything else?', follow_up: [] } });
  const rest = await bridge.chat([...history, replied(next), resultOf(note!.toolCallId, '<user_message>\nsprinkles\n</user_message>')], AGENT, followUp);
  expect(textOfParts(rest)).toBe('answer: accept {"choice":"choice-2","note":"sprinkles"}');
});

test('a question the person skipped is declined', async () => {
  const first = [user(ASK)];
  const asked = await bridge.chat(first, AGENT, [ASK_QUESTIONS]);
  const [call] = toolCallsOf(asked);
  const skipped = JSON.stringify({ answers: { Choice: { selected: [], freeText: null, skipped: true } } });
  const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, skipped)], AGENT, [ASK_QUESTIONS]);
  expect(textOfParts(rest)).toBe('answer: decline');
});

test('where the request offers no question tool, the client asks the person with its own prompts (the extension: quick picks)', async () => {
  const asked: AskQuestionsParams[] = [];
  bridge.client.onAskQuestions(async (params) => {
    asked.push(params);
    return { answers: { Choice: { selected: ['Vanilla'], freeText: null, skipped: false } } };
  });
  expect(textOfParts(await bridge.chat([user(ASK)], AGENT, []))).toBe('answer: accept {"choice":"choice-1"}');
  expect(asked).toEqual([{ agent: 'scripted', questions: [{ header: 'Choice', question: 'Which flavour?', options: [{ label: 'Vanilla' }, { label: 'Chocolate' }], allowFreeformInput: false }] }]);
});

test('a stop while the client asks withdraws its prompt and cancels the question', async () => {
  const withdrawn = await stopWhileAsked((handler) => bridge.client.onAskQuestions(handler), { answers: {} }, ASK);
  expect(await bridge.logged(/asked 'Which flavour\?': answer:/)).toContain("asked 'Which flavour?': answer: cancel");
  expect(withdrawn).toBe(true);
});

test('where nobody can be asked (the CLI serves no prompts) the question is declined at once', async () => {
  expect(textOfParts(await bridge.chat([user(ASK)], AGENT, []))).toBe('answer: decline');
});

test('a person who moves on without answering cancels the question; the next message is answered, nothing of the old turn shows', async () => {
  const first = [user(ASK, 'say after the question')];
  const asked = await bridge.chat(first, AGENT, [ASK_QUESTIONS]);
  expect(toolCallsOf(asked)).toHaveLength(1);
  const next = await bridge.chat([...first, replied(asked), user('say next message')], AGENT, [ASK_QUESTIONS]);
  expect(textOfParts(next)).toBe('next message');
  expect(await bridge.logged(/asked 'Which flavour\?': answer:/)).toContain("asked 'Which flavour?': answer: cancel");
});

test('with --agent-questions off the agent is told it cannot ask', async () => {
  await bridge.close();
  bridge = new AgentBridge(['--agent-questions', 'off']);
  expect(textOfParts(await bridge.chat([user(ASK)], AGENT, [ASK_QUESTIONS]))).toBe('ask: the client cannot be asked');
});

describe('a web page the agent asks the person to open (URL mode)', () => {
  // A sign-in address whose query carries an encoded address of its own: it must reach the client unchanged.
  const URL = 'https://example.com/sign-in?redirect_uri=http%3A%2F%2Flocalhost%3A1%2Fcb%3Fa%3D1%26b%3D2&state=s3cret';
  const ASK_URL = `ask-url ${URL} Sign in to Scripted to go on`;

  test("the client shows the agent's message and the address; the page opened, the agent hears accept", async () => {
    const asked: OpenUrlParams[] = [];
    bridge.client.onOpenUrl(async (params) => {
      asked.push(params);
      return { opened: true };
    });
    expect(textOfParts(await bridge.chat([user(ASK_URL)], AGENT, [ASK_QUESTIONS]))).toBe('url: accept');
    expect(asked).toEqual([{ agent: 'scripted', message: 'Sign in to Scripted to go on', url: URL }]);
    // The log names the site only: the rest of a sign-in address may be a secret.
    expect(await bridge.logged(/elicitation url-1 complete/)).toContain('elicitation url-1 complete');
    const ownLines = bridge.stderr().split('\n').filter((line) => !line.includes('scripted-agent:'));
    expect(ownLines.join('\n')).not.toContain('s3cret');
  });

  test('a page the person did not open is declined', async () => {
    bridge.client.onOpenUrl(async () => ({ opened: false }));
    expect(textOfParts(await bridge.chat([user(ASK_URL)], AGENT, []))).toBe('url: decline');
  });

  test('an address that is not a web page is declined without asking', async () => {
    let asked = false;
    bridge.client.onOpenUrl(async () => {
      asked = true;
      return { opened: true };
    });
    expect(textOfParts(await bridge.chat([user('ask-url file:///etc/passwd Open this')], AGENT, []))).toBe('url: decline');
    expect(textOfParts(await bridge.chat([user('ask-url javascript:alert(1) Open this')], AGENT, []))).toBe('url: decline');
    expect(asked).toBe(false);
  });

  test('where nobody can be asked (the CLI serves no dialog) it is declined at once', async () => {
    expect(textOfParts(await bridge.chat([user(ASK_URL)], AGENT, []))).toBe('url: decline');
  });

  test("a stop while the client asks withdraws its dialog's request and cancels", async () => {
    const withdrawn = await stopWhileAsked((handler) => bridge.client.onOpenUrl(handler), { opened: false }, ASK_URL);
    expect(await bridge.logged(/asked to open a page/)).toMatch(/asked to open a page of https:\/\/example.com in conversation \S+: cancel/);
    expect(withdrawn).toBe(true);
  });

  test('asked while a session opens (no session nor turn yet: a sign-in), the client is asked all the same', async () => {
    const signIn: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--ask-url-on-new-session', URL], env: [] } };
    const asked: OpenUrlParams[] = [];
    bridge.client.onOpenUrl(async (params) => {
      asked.push(params);
      return { opened: true };
    });
    expect(textOfParts(await bridge.chat([user('say signed in')], signIn, []))).toBe('signed in');
    expect(asked).toEqual([{ agent: 'scripted', message: 'Sign in to Scripted', url: URL }]);
    expect(await bridge.logged(/before session\/new: /)).toContain(`asked to open ${URL} before session/new: accept`);
    expect(bridge.stderr()).toContain('agent scripted asked to open a page of https://example.com outside its sessions: accept');
  });

  test('with --agent-questions off the agent is told it cannot ask', async () => {
    await bridge.close();
    bridge = new AgentBridge(['--agent-questions', 'off']);
    expect(textOfParts(await bridge.chat([user(ASK_URL)], AGENT, []))).toBe('ask-url: the client cannot be asked');
  });
});
