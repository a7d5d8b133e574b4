/**
 * The jest environment of every test file: it fails a file that leaves something open (a process, a
 * connection, a server, a ref'd timer) once its tests and hooks are done, so that a run always ends by
 * itself and the file that would have kept it running is named. It compares the resources that keep
 * Node's event loop alive (`process.getActiveResourcesInfo()`) with those there before the file ran,
 * allowing a short grace for handles that are closing.
 */
import { TestEnvironment } from 'jest-environment-node';

const GRACE_MS = 3000;

function countByType() {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

function excess(before) {
  const left = [];
  for (const [type, count] of countByType()) {
    const extra = count - (before.get(type) ?? 0);
    if (extra > 0) left.push(`${extra} × ${type}`);
  }
  return left;
}

export default class ClosesWhatItOpens extends TestEnvironment {
  async setup() {
    await super.setup();
    this.before = countByType();
  }

  async teardown() {
    await super.teardown();
    const deadline = Date.now() + GRACE_MS;
    let left = excess(this.before);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = excess(this.before);
    }
    if (left.length > 0) throw new Error(`the test file left open what keeps the process running: ${left.join(', ')}`);
  }
}
