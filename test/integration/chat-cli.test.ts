/**
 * `symposium-lm chat`, the README's main job: the CLI plays VS Code against the built bridge. Permission
 * questions need a terminal; `script` (util-linux) gives the CLI one.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { elizaRespond, initialElizaState } from '../../src/agents/eliza/engine.js';
import { CLI, SCRIPTED_AGENT } from './agent-bridge.js';

const run = promisify(execFile);

/**
 * Bounds on hanging, not on speed. Each chat starts two cold node processes (the chat CLI, which loads the
 * bridge's code too, and the bridge): 1.4 s alone, but 11 s on this 2-core machine under a load average
 * of 8, and 37 s run at nice 10 beside that load, past the 20 s that bounded both the child and (jest's
 * default) the test. A child outlives `CHILD_MS` only if it hangs; the test's own bound is wider, so that
 * a hang fails with what the child printed.
 */
const CHILD_MS = 90_000;
const TEST_MS = CHILD_MS + 30_000;

test('chat -p sends one message and prints the reply', async () => {
  const { stdout } = await run(process.execPath, [CLI, 'chat', '--deterministic', '-p', 'I am worried about my exams'], { timeout: CHILD_MS });
  expect(stdout.trim()).toBe(elizaRespond(initialElizaState(), 'I am worried about my exams', { kind: 'cycle' }).reply);
}, TEST_MS);

test('without a terminal nobody can be asked: the agent is told no, and the reply says so', async () => {
  const { stdout } = await run(process.execPath, [CLI, 'chat', '--deterministic', '-p', 'request permission delete x'], { timeout: CHILD_MS });
  expect(stdout).toContain('I cannot ask you whether to delete x');
}, TEST_MS);

/** Runs `chat` in a terminal (`script` gives it one), types `input`, and resolves with what it printed. */
function inTerminal(input: string): Promise<string> {
  const child = spawn('script', ['-qec', `${process.execPath} ${CLI} chat --deterministic`, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stdin.end(input);
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
  return new Promise((resolve) =>
    child.once('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(out).toString('utf8'));
    }),
  );
}

test('in a terminal the question is asked; yes allows, no rejects', async () => {
  // Typed lines: a message, the answer to its question, a second message, its answer, then end of input.
  const printed = await inTerminal('request permission delete x\ny\nrequest permission delete y\nn\n');
  expect(printed).toContain('Allow the agent to delete x? [y/N] Permission granted.');
  expect(printed).toContain('Allow the agent to delete y? [y/N]');
  expect(printed).not.toContain('Permission refused');
}, TEST_MS);

/** Pipes `lines` into `chat` with the scripted agent (forking sessions as Claude Code does), and resolves with what it printed. */
async function chatWithScripted(lines: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'chat', '--', process.execPath, SCRIPTED_AGENT, '--fork'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => out.push(chunk));
  child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
  await new Promise((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  return Buffer.concat(out).toString('utf8');
}

describe("going back in chat (issue 45): the agent's session holds what the chat holds", () => {
  test('/retry asks the last request again in place of its answer: the agent holds it once', async () => {
    const printed = await chatWithScripted(['say one', 'say two', '/retry', 'history']);
    expect(printed).toContain('["say one","say two"]');
  }, TEST_MS);

  test('/edit TEXT asks TEXT in place of the last request, /undo takes the last exchange back', async () => {
    expect(await chatWithScripted(['say one', 'say two', '/edit history'])).toContain('["say one"]');
    expect(await chatWithScripted(['say one', 'say two', '/undo', 'history'])).toMatch(/\(taken back: say two\)[^]*\["say one"\]/);
    expect(await chatWithScripted(['/undo', 'say one'])).toMatch(/nothing to undo: no exchange yet[^]*one/);
  }, TEST_MS);
});
