// Run by run.mjs under Windows' Node: the agent host over its named pipe, as windows reach it (connect-host.js). Two
// windows start it at once and end with one host; both are answered; its address is a pipe of this user's; a
// connection without the token is closed unread; once both left, the host ends by itself (--idle-ms). Usage: node
// agent-host.mjs WORK_DIR; writes WORK_DIR\agent-host.json, `[{ name, ok, detail }]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const load = (file) => import(`file://${path.join(dist, ...file.split('/')).replaceAll('\\', '/')}`);
const { connectToHost } = await load('src/host/connect-host.js');
const { hostEndpoint } = await load('src/host/endpoint.js');

const work = process.argv[2];
const dir = path.join(work, 'agent host');
mkdirSync(dir, { recursive: true });
const results = [];
const check = (name, ok, detail) => results.push({ name, ok: Boolean(ok), detail: String(detail) });
const launch = { bridgePath: path.join(dist, 'src', 'cli', 'main.js'), build: 'winetest', dir, args: ['--eliza-pace-ms', '0', '--idle-ms', '1500'] };
const ask = (text) => ({ modelId: 'symposium-eliza', messages: [{ role: 'user', content: [{ type: 'text', value: text }] }], agent: { eliza: { deterministic: true } } });
const answered = async (connection, text) => (await connection.client.collectChatResponse(ask(text))).map((p) => (p.type === 'text' ? p.value : '')).join('');
const endpoint = hostEndpoint(launch.build, dir);

try {
  check('the endpoint is a named pipe of this user', endpoint.address.startsWith(`\\\\.\\pipe\\symposium-`), endpoint.address);
  const [a, b] = await Promise.all([connectToHost(launch, { cwd: work }), connectToHost(launch, { cwd: dir })]);
  check('two windows starting the host at once are served by one host', a.pid === b.pid, `pids ${a.pid}, ${b.pid}`);
  const [one, two] = await Promise.all([answered(a, 'I am sad'), answered(b, 'I am happy')]);
  check('both windows are answered over the pipe', one === 'I am sorry to hear that you are sad.' && two === 'How have I helped you to be happy?', `${one} | ${two}`);
  const stranger = await new Promise((resolve) => {
    const socket = net.connect(endpoint.address);
    let read = 0;
    socket.on('data', (d) => (read += d.length));
    socket.on('error', () => {});
    socket.on('connect', () => socket.write('Content-Length: 2\r\n\r\n{}'));
    socket.on('close', () => resolve({ closed: true, read }));
    setTimeout(() => resolve({ closed: false, read }), 15_000);
  });
  check('a connection without the token is closed unread', stranger.closed && stranger.read === 0, JSON.stringify(stranger));
  a.socket.destroy();
  b.socket.destroy();
  let gone = false;
  for (let i = 0; i < 100 && !gone; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    gone = await new Promise((resolve) => {
      const socket = net.connect(endpoint.address);
      socket.on('connect', () => (socket.destroy(), resolve(false)));
      socket.on('error', () => resolve(true));
    });
  }
  check('the host ends once no window is left and the idle time passed', gone, gone ? 'the pipe is gone' : 'still listening after 20 s');
} catch (error) {
  check('the agent host over a named pipe', false, error.stack ?? error);
}
writeFileSync(path.join(work, 'agent-host.json'), JSON.stringify(results));
process.exit(0);
