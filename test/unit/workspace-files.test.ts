import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diskFiles, editorFiles, insideWorkspace, linesOf, sameText } from '../../src/files/workspace-files.js';

describe('insideWorkspace', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'symposium-ws-')));
    mkdirSync(path.join(root, 'src'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('a path inside, existing or not, is the path', () => {
    expect(insideWorkspace(root, path.join(root, 'src/a.ts'))).toBe(path.join(root, 'src/a.ts'));
    expect(insideWorkspace(root, path.join(root, 'new/dir/b.ts'))).toBe(path.join(root, 'new/dir/b.ts'));
  });

  test('relative paths, the root itself, parents and siblings sharing its prefix are not inside', () => {
    expect(insideWorkspace(root, 'src/a.ts')).toBeUndefined();
    expect(insideWorkspace(root, root)).toBeUndefined();
    expect(insideWorkspace(root, path.join(root, '../x.ts'))).toBeUndefined();
    expect(insideWorkspace(root, `${root}-other/x.ts`)).toBeUndefined();
  });

  test('a link inside that leads out is not inside', () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'symposium-out-')));
    try {
      symlinkSync(outside, path.join(root, 'link'));
      expect(insideWorkspace(root, path.join(root, 'link/secret.txt'))).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('linesOf', () => {
  const text = 'one\ntwo\nthree\nfour';
  test('ACP line is 1-based, limit counts lines; neither gives the whole text', () => {
    expect(linesOf(text)).toBe(text);
    expect(linesOf(text, 2)).toBe('two\nthree\nfour');
    expect(linesOf(text, 2, 2)).toBe('two\nthree');
    expect(linesOf(text, null, 1)).toBe('one');
    expect(linesOf(text, 9, 2)).toBe('');
  });
});

test('sameText ignores the line endings an editor chose, and nothing is the same as no file', () => {
  expect(sameText('a\r\nb\r\n', 'a\nb\n')).toBe(true);
  expect(sameText('a\nb', 'a\nc')).toBe(false);
  expect(sameText(undefined, '')).toBe(false);
});

test('editorFiles reads what the editor has open, and the disk for the rest', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'symposium-ed-'));
  try {
    const open = path.join(root, 'open.txt');
    const closed = path.join(root, 'closed.txt');
    await diskFiles.write(open, 'saved');
    await diskFiles.write(closed, 'closed');
    const files = editorFiles(async (file) => (file === open ? 'unsaved' : undefined));
    expect(await files.read(open)).toBe('unsaved');
    expect(await files.read(closed)).toBe('closed');
    expect(await files.read(path.join(root, 'missing.txt'))).toBeUndefined();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
