// The client's modules form no circle (issue 25): each module's imports are read from its text,
// and a walk of the graph fails on the first cycle it meets, naming it. Shared helpers live in
// modules of their own, so views never need each other in a loop. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../static/js');

/** Every `.js` file under `dir`. */
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? modules(path) : name.endsWith('.js') ? [path] : [];
  });
}

/** The relative modules `file` imports (static `import … from '…'` and `import '…'`). */
export function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*import\s+(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)];
  return found.map((m) => resolve(dirname(file), m[1]));
}

/** The first cycle in `graph` (file → imported files), as a list of files, or null. */
export function firstCycle(graph) {
  const state = new Map(); // file → 'open' while on the walk's path, 'done' after
  const path = [];
  const visit = (file) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    if (!state.has(file)) {
      const cycle = visit(file);
      if (cycle) return cycle;
    }
  }
  return null;
}

test('the cycle finder finds a cycle, and none where there is none', () => {
  assert.deepEqual(firstCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), ['a', 'b', 'c', 'a']);
  assert.equal(firstCycle(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), null);
});

test('no circle among the client\'s modules', () => {
  const files = modules(root);
  assert.ok(files.length > 20, `the client's modules were found (${files.length})`);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  for (const [file, imports] of graph) {
    for (const target of imports) assert.ok(graph.has(target), `${relative(root, file)} imports a missing ${relative(root, target)}`);
  }
  const cycle = firstCycle(graph);
  assert.equal(cycle, null, `a circle: ${cycle?.map((f) => relative(root, f)).join(' → ')}`);
});

test('no view imports another view: what two pages share is a component or a helper', () => {
  const views = resolve(root, 'views');
  const files = modules(views);
  assert.ok(files.length > 5, `the views were found (${files.length})`);
  for (const file of files) {
    const others = importsOf(file).filter((target) => dirname(target) === views);
    assert.deepEqual(others.map((f) => relative(root, f)), [], `${relative(root, file)} imports a view`);
  }
});

test('main.js only boots and routes: no server frame that changes state is read there', () => {
  const main = readFileSync(join(root, 'main.js'), 'utf8');
  for (const frame of ['moved', 'game_over', 'presence', 'draw_offered', 'takeback_offered', 'chat_line', 'seeking']) {
    assert.ok(!main.includes(`case '${frame}'`), `main.js reads '${frame}' itself`);
  }
});
