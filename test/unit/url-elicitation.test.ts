/**
 * An agent's request to open a web page (ACP URL elicitation), as the bridge reads and answers it: only http(s)
 * addresses reach the person, the answer follows what the client did, a withdrawn request is cancelled, and the
 * log names the site, never the whole address.
 */
import { checkElicitation } from '../../src/agents/acp/answers/agent-answers.js';
import { describeElicitation, onUrlElicitation, type OpenUrl } from '../../src/agents/acp/session/client-requests.js';
import { webPageOrigin } from '../../src/protocol/web-page.js';

const SIGN_IN = 'https://login.example.com/authorize?client_id=abc&state=s3cret';
const urlRequest = (url: string) => checkElicitation({ mode: 'url', sessionId: 's', elicitationId: 'e1', url, message: 'Sign in' });

test('a URL-mode request without its address is refused, naming the field', () => {
  expect(() => checkElicitation({ mode: 'url', sessionId: 's', elicitationId: 'e1', message: 'Sign in' })).toThrow(/params\.url/);
  expect(() => checkElicitation({ mode: 'url', sessionId: 's', url: 7, message: 'Sign in' })).toThrow(/url/);
});

test('only http and https addresses are web pages', () => {
  expect(webPageOrigin(SIGN_IN)).toBe('https://login.example.com');
  expect(webPageOrigin('http://localhost:8080/cb')).toBe('http://localhost:8080');
  for (const other of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://settings', 'not a url', '']) expect(webPageOrigin(other)).toBeUndefined();
});

test("the answer follows the client: opened accepts, not opened declines, a client that cannot ask declines", async () => {
  const never = new AbortController().signal;
  const opening = (opened: boolean | undefined): OpenUrl => async () => opened;
  expect(await onUrlElicitation(opening(true), 'Claude Code', urlRequest(SIGN_IN), never)).toEqual({ action: 'accept' });
  expect(await onUrlElicitation(opening(false), 'Claude Code', urlRequest(SIGN_IN), never)).toEqual({ action: 'decline' });
  expect(await onUrlElicitation(opening(undefined), 'Claude Code', urlRequest(SIGN_IN), never)).toEqual({ action: 'decline' });
  expect(await onUrlElicitation(undefined, 'Claude Code', urlRequest(SIGN_IN), never)).toEqual({ action: 'decline' });
});

test('the client is handed the agent, its message and the address as the agent wrote it; never a non-web address', async () => {
  const asked: string[][] = [];
  const openUrl: OpenUrl = async (agent, message, url) => {
    asked.push([agent, message, url]);
    return true;
  };
  const never = new AbortController().signal;
  await onUrlElicitation(openUrl, 'Claude Code', urlRequest(SIGN_IN), never);
  expect(await onUrlElicitation(openUrl, 'Claude Code', urlRequest('file:///etc/passwd'), never)).toEqual({ action: 'decline' });
  expect(asked).toEqual([['Claude Code', 'Sign in', SIGN_IN]]);
});

test('withdrawn while the client asks: cancel, whatever the client then says', async () => {
  const withdraw = new AbortController();
  const openUrl: OpenUrl = async () => {
    withdraw.abort();
    return true;
  };
  expect(await onUrlElicitation(openUrl, 'Claude Code', urlRequest(SIGN_IN), withdraw.signal)).toEqual({ action: 'cancel' });
});

test('the log names the site of the page, not its address', () => {
  expect(describeElicitation(urlRequest(SIGN_IN))).toBe('to open a page of https://login.example.com');
  expect(describeElicitation(urlRequest('file:///etc/passwd'))).toBe('to open a page of no web address');
  expect(describeElicitation(checkElicitation({ mode: 'form', sessionId: 's', message: 'Pick', requestedSchema: { properties: {} } }))).toBe('a question (form)');
});
