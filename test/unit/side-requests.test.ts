import { sideRequestAnswer, titleOf } from '../../src/extension/provider/side-requests.js';
import type { Message } from '../../src/protocol/messages.js';

const system = (value: string): Message => ({ role: 'system', content: [{ type: 'text', value }] });
const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });

/** Copilot 0.67's title request, as sent to the picked model with chat.byokUtilityModelDefault: mainAgent. */
const TITLE_SYSTEM =
  'You are an expert in crafting ultra-compact titles for chatbot conversations. You are presented with a chat request, and you reply with only a brief title that captures the main topic of that request.\nFollow Microsoft content policies.';

describe('sideRequestAnswer', () => {
  test("Copilot's chat-title request is answered from the user's words", () => {
    const messages = [system(TITLE_SYSTEM), user('Please write a brief title for the following request:\n\nrun the tests in the api folder and fix what fails')];
    expect(sideRequestAnswer(messages)).toBe('Run the tests in the api…');
  });

  test('a conversation is not a side request, even one that talks about titles', () => {
    expect(sideRequestAnswer([user('Please write a brief title for the following request: x')])).toBeUndefined();
    expect(sideRequestAnswer([system('You are an expert AI programming assistant'), user('Please write a brief title for the following request: x')])).toBeUndefined();
    expect(sideRequestAnswer([system(TITLE_SYSTEM), user('something else')])).toBeUndefined();
  });

  test("inline chat's single progress message is one message, not a list", () => {
    const prompt = system('You are an expert in writing short, catchy, and encouraging progress messages for a coding assistant.\nThe user is waiting for an AI to help them with editing existing code.');
    const answer = sideRequestAnswer([prompt, user('add a function that parses dates')]);
    expect(answer).toMatch(/^[A-Z][a-z ]+$/);
  });

  test('titles: short requests whole, punctuation and markdown dropped, never empty', () => {
    expect(titleOf('fix `build`!')).toBe('Fix build');
    expect(titleOf('   ')).toBe('New chat');
  });
});
