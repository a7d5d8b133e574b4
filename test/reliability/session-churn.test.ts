/**
 * Issue 39, point 1: stop and resend while the session pool churns. A turn whose agent takes 1.5 s to honour
 * `session/cancel` is edited (the edit cancels it), the edit is stopped at once, and while the agent still finishes
 * the cancelled prompt another conversation (Eliza) opens, so the pool (one session at most) closes A's idle
 * session. A's edited message is then sent again, 100 ms to 1.6 s later: it is answered, the next turn too, and no
 * prompt ever overlaps a running one in the agent (the scripted agent fails it and logs `OVERLAPPING PROMPT`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, sleep, user } from '../integration/agent-bridge.js';

const ELIZA: AgentDefinition = { eliza: { deterministic: true } };
/** 13 timings between 100 ms and 1.6 s, as the issue swept them. */
const RESEND_AFTER_MS = Array.from({ length: 13 }, (_, i) => 100 + i * 125);

let bridge: AgentBridge;
let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'symposium-churn-'));
  bridge = new AgentBridge(['--max-sessions', '1', '--cancel-timeout-ms', '5000']);
});
afterEach(async () => {
  await bridge.close();
  rmSync(stateDir, { recursive: true, force: true });
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

test.each(RESEND_AFTER_MS)('stop, edit, stop, another conversation opens, resend after %i ms: answered', async (resendAfterMs) => {
  const scripted: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--load-session', '--state-dir', stateDir], env: [] } };
  const a: Message[] = [user('say a1')];
  a.push(replied(await bridge.chat(a, scripted)));
  // A's turn whose agent is slow to honour the cancel.
  let streaming: () => void = () => {};
  const streamed = new Promise<void>((resolve) => (streaming = resolve));
  const slow = bridge.client.provideChatResponse({ modelId: 'scripted', messages: [...a, user('ignore-cancel 1500', 'stream 50 100')], agent: scripted }, () => streaming());
  await streamed;
  await sleep(200);
  // The person edits that message: the edited request cancels the first; they stop it at once.
  const editedMessage = user('say edited');
  const stop = new CancellationTokenSource();
  const edited = bridge.chat([...a, editedMessage], scripted, [], stop);
  await sleep(10);
  stop.cancel();
  expect((await rejection(edited)).code).toBe(ProtocolErrorCodes.RequestCancelled);
  await slow.catch(() => undefined);
  // While the agent still finishes the cancelled prompt, another conversation opens: the pool closes A's session.
  const other = await bridge.client.collectChatResponse({ modelId: 'eliza', messages: [user('I feel churned')], agent: ELIZA });
  expect(textOfParts(other)).not.toBe('');
  await sleep(resendAfterMs);
  a.push(editedMessage);
  const resent = await bridge.chat(a, scripted);
  expect(textOfParts(resent)).toBe('edited');
  a.push(replied(resent), user('say next'));
  expect(textOfParts(await bridge.chat(a, scripted))).toBe('next');
}, 60_000);
