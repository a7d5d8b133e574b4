/**
 * Malformed framing (issue 17, point 3), against the BUILT bridge (`npx tsc -p .` first): a frame the
 * bridge cannot read must never leave it deaf. Its request is answered -32700 when its id can be read,
 * and every request after it is answered, without waiting for another write; nothing unbounded is held.
 */
import { readFileSync } from 'node:fs';
import { Methods } from '../../src/protocol/methods.js';
import { RawBridge, stopAll, type JsonRpcId, type RpcResponse } from '../integration/harness.js';

afterEach(() => stopAll());

const PARSE_ERROR = -32700;

function body(id: JsonRpcId, text = 'x'): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: Methods.provideTokenCount, params: { modelId: 'm', text } }), 'utf8');
}

function frameOf(b: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`, 'latin1'), b]);
}

function framed(id: JsonRpcId, text = 'x'): Buffer {
  return frameOf(body(id, text));
}

/**
 * A request whose answer needs nothing loaded (the model list), where a token count would load the tokenizer's
 * ~65 MB vocabulary inside a memory bound that is meant to measure only the skipped bytes.
 */
function framedModelList(id: JsonRpcId): Buffer {
  return frameOf(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: Methods.provideChatInformation, params: { silent: true } }), 'utf8'));
}

function responseTo(bridge: RawBridge, id: JsonRpcId, timeoutMs = 10000): Promise<RpcResponse> {
  return bridge.output.waitFor((m) => m.kind === 'response' && m.id === id, timeoutMs, `the response to ${JSON.stringify(id)}`) as Promise<RpcResponse>;
}

/** The bridge's peak resident memory so far, in MB (Linux). */
function peakRssMb(pid: number): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(line) / 1024;
}

describe('a bad header, then a valid request in the same write', () => {
  const headers: Record<string, (length: number) => string> = {
    'Content-Length abc': () => 'Content-Length: abc',
    'no Content-Length': () => 'Content-Type: application/vscode-jsonrpc; charset=utf-8',
    'Content-Length -5': () => 'Content-Length: -5',
    'Content-Length 5.5': () => 'Content-Length: 5.5',
    'Content-Length 0x10': () => 'Content-Length: 0x10',
    'a line without a colon': (n) => `Content-Length: ${n}\r\nnonsense`,
  };
  test.each(Object.keys(headers))('%s: the bad request gets -32700, the next one its answer', async (name) => {
    const bridge = new RawBridge();
    const bad = body('bad');
    bridge.child.stdin!.write(Buffer.concat([Buffer.from(`${headers[name](bad.length)}\r\n\r\n`, 'latin1'), bad, framed('good')]));
    const good = await responseTo(bridge, 'good');
    expect(good.result).toEqual({ count: expect.any(Number) as unknown });
    const refused = await responseTo(bridge, 'bad');
    expect(refused.error?.code).toBe(PARSE_ERROR);
    expect(bridge.output.framingProblems()).toEqual([]);
  });
});

test('a Content-Length counted in characters: that request gets -32700, and the bridge keeps serving', async () => {
  const bridge = new RawBridge();
  const text = 'héllo wörld — ünïcödé '.repeat(10);
  const bad = body('chars', text);
  const counted = JSON.stringify({ jsonrpc: '2.0', id: 'chars', method: Methods.provideTokenCount, params: { modelId: 'm', text } }).length;
  expect(counted).toBeLessThan(bad.length);
  bridge.child.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: ${counted}\r\n\r\n`, 'latin1'), bad]));
  const refused = await responseTo(bridge, 'chars');
  expect(refused.error?.code).toBe(PARSE_ERROR);
  expect(refused.error?.message).toMatch(/not JSON/);
  bridge.child.stdin!.write(framed('after'));
  expect((await responseTo(bridge, 'after')).result).toEqual({ count: expect.any(Number) as unknown });
});

test('a second Content-Length header does not slip a 40 MB body past an 8 MB limit', async () => {
  const bridge = new RawBridge({ args: ['--max-message-mb', '8'] });
  const big = body('twice', 'y'.repeat(40 * 1024 * 1024));
  bridge.child.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: 10\r\nContent-Length: ${big.length}\r\n\r\n`, 'latin1'), big, framedModelList('next')]));
  expect((await responseTo(bridge, 'next', 30000)).result).toEqual({ models: expect.any(Array) as unknown });
  expect((await responseTo(bridge, 'twice')).error?.code).toBe(PARSE_ERROR);
  // The body was skipped, never buffered: the bridge's peak stays far below the 40 MB it was sent twice over.
  expect(peakRssMb(bridge.child.pid!)).toBeLessThan(140);
}, 40000);

test('a 48 MB header line: skipped in bounded memory, one short log line, and the next request answered', async () => {
  const bridge = new RawBridge({ args: ['--max-message-mb', '8'] });
  const stdin = bridge.child.stdin!;
  stdin.write(`Content-Length: 10\r\nX-Junk: `);
  const mb = Buffer.alloc(1024 * 1024, 'z');
  for (let i = 0; i < 48; i++) stdin.write(mb);
  stdin.write('\r\n\r\n0123456789');
  stdin.write(framedModelList('after-junk'));
  expect((await responseTo(bridge, 'after-junk', 60000)).result).toEqual({ models: expect.any(Array) as unknown });
  // An idle bridge peaks near 75 MB and one that skips the line near 110 MB; one that buffered it peaked over 300 MB.
  expect(peakRssMb(bridge.child.pid!)).toBeLessThan(140);
  expect(bridge.stderr().length).toBeLessThan(64 * 1024);
}, 90000);

test('a body that is JSON but not an object is skipped, and the next request answered', async () => {
  const bridge = new RawBridge();
  bridge.child.stdin!.write(Buffer.concat([Buffer.from('Content-Length: 1\r\n\r\n5', 'latin1'), framed('after-5')]));
  expect((await responseTo(bridge, 'after-5')).result).toEqual({ count: expect.any(Number) as unknown });
});

test('frames split at every byte are read as whole frames', async () => {
  const bridge = new RawBridge();
  const bytes = Buffer.concat([framed('split-1', 'ä€😀'), framed('split-2')]);
  for (let i = 0; i < bytes.length; i++) bridge.child.stdin!.write(bytes.subarray(i, i + 1));
  expect((await responseTo(bridge, 'split-1')).result).toEqual({ count: expect.any(Number) as unknown });
  expect((await responseTo(bridge, 'split-2')).result).toEqual({ count: expect.any(Number) as unknown });
});
