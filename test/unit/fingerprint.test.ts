/**
 * History links are persisted in the index of conversations (`--state-dir`), so a chat resumes after the
 * bridge restarts: their bytes must not change between versions, however the hashing is done.
 */
import { extendedLink, linkAt, linksAt } from '../../src/history/fingerprint.js';
import type { Message } from '../../src/protocol/messages.js';

const history: Message[] = [
  { role: 'user', content: [{ type: 'text', value: 'Hello' }] },
  // A long field goes to the hash on its own; the short ones around it are joined.
  { role: 'assistant', content: [{ type: 'text', value: 'x'.repeat(5000) }, { type: 'tool_call', toolCallId: 't1', toolName: 'ls', parameters: { b: 1, a: 2 } }] },
];

describe('linksAt', () => {
  test('gives the links earlier versions persisted, for short and long fields alike', () => {
    const { links, end } = linksAt('agent', history, () => new Set([1]));
    expect(links).toEqual(['RBAqKCi6Uun5S+H6isf4y6knFScD3D8x8eHYXjZ6oI4=', 'VPv8i1qOpxXiapQ1FFHWMH9W0r9dds6aXs2qcXnvitg=']);
    expect(end.copy().digest('base64')).toBe(links[1]);
  });

  test('takes the first link always, and asks for the other positions knowing it', () => {
    const asked: string[] = [];
    const { links, first } = linksAt('agent', [undefined, ...history], (link) => {
      asked.push(link);
      return new Set();
    });
    expect(asked).toEqual(['RBAqKCi6Uun5S+H6isf4y6knFScD3D8x8eHYXjZ6oI4=']);
    expect(first).toBe(asked[0]);
    expect(links).toEqual([undefined, asked[0], undefined]);
  });

  test('a link extended by one message is the link of the longer history, and the hash is left as it was', () => {
    const { end } = linksAt('agent', history.slice(0, 1), () => new Set());
    expect(extendedLink(end, history[1]!)).toBe('VPv8i1qOpxXiapQ1FFHWMH9W0r9dds6aXs2qcXnvitg=');
    expect(end.copy().digest('base64')).toBe('RBAqKCi6Uun5S+H6isf4y6knFScD3D8x8eHYXjZ6oI4=');
  });

  test('a link read again at one position is the one linksAt gives there; a message without identity has none', () => {
    expect(linkAt('agent', history, 0)).toBe('RBAqKCi6Uun5S+H6isf4y6knFScD3D8x8eHYXjZ6oI4=');
    expect(linkAt('agent', history, 1)).toBe('VPv8i1qOpxXiapQ1FFHWMH9W0r9dds6aXs2qcXnvitg=');
    expect(linkAt('agent', [undefined, ...history], 2)).toBe('VPv8i1qOpxXiapQ1FFHWMH9W0r9dds6aXs2qcXnvitg=');
    expect(linkAt('agent', [undefined, ...history], 0)).toBeUndefined();
    expect(linkAt('agent', history, -1)).toBeUndefined();
  });
});
