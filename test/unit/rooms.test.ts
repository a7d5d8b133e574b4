/**
 * The rooms of src/ stay in order: no folder imports one that imports it back (directly or around a circle),
 * so that each room can be read knowing only the rooms below it, and no two files import each other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve('src');
const IMPORT = /(?:import|export)[^'";]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(file) : entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** Each source file and the source files it imports. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(SRC)) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (match[1] ?? match[2])!;
      targets.add(path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts'));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of a graph with more than one member: its circles. */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.map((m) => path.relative(SRC, m)).sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('no room of src/ imports a room that imports it back', () => {
  const rooms = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph()) {
    const room = path.dirname(file);
    const imported = rooms.get(room) ?? new Set<string>();
    for (const target of targets) if (path.dirname(target) !== room) imported.add(path.dirname(target));
    rooms.set(room, imported);
  }
  expect(circles(rooms)).toEqual([]);
});

test('no two files of src/ import each other, directly or around a circle', () => {
  expect(circles(importGraph())).toEqual([]);
});

test('the check finds a circle where there is one', () => {
  const a = path.join(SRC, 'a');
  const b = path.join(SRC, 'b');
  expect(circles(new Map([[a, new Set([b])], [b, new Set([a])]]))).toEqual([['a', 'b']]);
});
