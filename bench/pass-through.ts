/**
 * A process in the middle that only passes bytes: `node pass-through.js COMMAND ARGS…` runs the command
 * and copies its stdin to the command's and the command's stdout to its own, reading nothing. Row 1 puts
 * it between the direct client and the agent: what any process in the middle costs on this machine (two
 * more pipes, two more processes woken per turn), the floor under the bridge's own cost.
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) throw new Error('usage: pass-through COMMAND [ARGS…]');
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
process.on('SIGTERM', () => child.kill('SIGTERM'));
