/**
 * Stop, then send again at once, whatever the agent's cancel latency: the re-sent message is answered, no prompt
 * goes into a session while a cancelled one still runs there (the scripted agent fails an overlapping prompt and
 * logs `OVERLAPPING PROMPT`), and nothing of the cancelled reply appears later. Swept over how long the agent
 * takes to honour `session/cancel`, below and above the bridge's own `--cancel-timeout-ms` (1500 here), with
 * agents that can and cannot resume a session, and with the re-sent request shaped as Copilot and Cline send it
 * (the stopped message opening the chat or following an exchange).
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message, ResponsePart } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, user } from '../integration/agent-bridge.js';

const scripted = (flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });

/** What the consumer sends after a stop: Copilot drops the stopped reply; a consumer may keep what came of it. */
const RESENDS: Record<string, (history: Message[], parts: ResponsePart[]) => Message[]> = {
  'without the stopped reply': (history) => [...history, user('say again')],
  'with the stopped reply as far as it came': (history, parts) => [...history, ...(parts.length > 0 ? [replied(parts)] : []), user('say again')],
};

let bridge: AgentBridge;
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

describe.each([
  ['an agent that cannot resume sessions', [] as string[]],
  ['an agent that resumes sessions', ['--resume-session']],
  ['an agent that loads and closes sessions', ['--load-session', '--close-session']],
])('stop and resend, %s', (_name, flags) => {
  test.each([0, 1400, 2500])('the agent honours the cancel after %i ms', async (latencyMs) => {
    bridge = new AgentBridge();
    const agent = scripted(flags);
    for (const [shape, resend] of Object.entries(RESENDS)) for (const opening of [false, true]) {
      const first = user(`say first (${shape})`);
      const stopped = user(`think ${shape}, ${opening ? 'opening' : 'later'}`, `ignore-cancel ${latencyMs}`, 'stream 400 10');
      // The stopped message opens the chat, or follows an exchange.
      const history = opening ? [stopped] : [first, replied(await bridge.chat([first], agent)), stopped];
      const source = new CancellationTokenSource();
      const parts: ResponsePart[] = [];
      const running = bridge.client.provideChatResponse({ modelId: 'scripted', messages: history, agent }, (part) => {
        parts.push(part);
        if (parts.length === 3) source.cancel();
      }, source.token);
      expect((await rejection(running)).code).toBe(ProtocolErrorCodes.RequestCancelled);
      const resent = resend(history, parts);
      const again = await bridge.chat(resent, agent);
      expect({ shape, opening, text: textOfParts(again) }).toEqual({ shape, opening, text: 'again' });
      // Nothing of the cancelled reply joins a later answer either.
      const after = await bridge.chat([...resent, replied(again), user('say after')], agent);
      expect({ shape, opening, text: textOfParts(after) }).toEqual({ shape, opening, text: 'after' });
    }
  }, 60_000);
});
