// The picture app's test, as its author would write it: only termsight's published entries,
// imported by package name, and node:test. A scripted kitty answers the probe; drawn() says what
// the bytes drew.
//   node --test examples/picture-app/
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawn, scriptedTerminal } from 'termsight/testing';
import { showPicture } from './app.mjs';

const file = new URL('../../test/fixtures/images/camera.png', import.meta.url).pathname;

for (const [name, protocol] of [
  ['kitty', 'kitty'],
  ['foot', 'sixel'],
  ['iterm2', 'iterm2'],
  ['xterm', 'text'],
]) {
  test(`in ${name} the picture is drawn with ${protocol}`, async () => {
    const t = scriptedTerminal(name, { latencyMs: 10 });
    await showPicture(file, {
      columns: 12,
      terminal: { runtime: t.runtime, input: t.input, output: t.output, lateMs: 0 },
    });
    assert.equal(drawn(t.written())?.protocol, protocol);
    assert.ok(t.written().endsWith(`${file}\n`));
  });
}
