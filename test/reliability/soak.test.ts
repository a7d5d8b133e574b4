/**
 * A short soak (issue 17) in the suite: the soak of `bench/soak.ts` with 400 turns over 60 conversations,
 * against the BUILT bridge (`npx tsc -p .` first). The full one, 5,000 turns over 300 conversations, is
 * `node dist/bench/soak.js` (docs/reliability.md has its figures).
 */
import { soak } from '../../bench/soak.js';

test('400 turns over 60 conversations with cancels, resends, edits and --max-sessions 4: every reply whole and its own; fds, children and heap back to baseline', async () => {
  const report = await soak({ turns: 400, conversations: 60, concurrency: 8 });
  expect(report.failures).toEqual([]);
  expect(report.turns).toBe(400);
  expect(report.cancels).toBeGreaterThan(20);
  expect(report.edits).toBeGreaterThan(10);
}, 240000);
