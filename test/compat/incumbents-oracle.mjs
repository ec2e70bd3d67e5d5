// The incumbents as an oracle, in a child process of their own: for each case it sets
// process.env (in place, since supports-color keeps a reference to the object), process.argv,
// process.platform, os.release, the standard streams' isTTY and tty.isatty, then imports a fresh
// copy of terminal-link 5.0.0, supports-hyperlinks 4.6.0 and supports-color 10.2.2, and of
// termsight's drop-ins from dist/compat (a resolve hook
// carries the case number down the import graph, so every module is evaluated anew, as in a new
// process), asks them, and puts everything back. Driven over IPC by differential.test.ts.
import { createRequire } from 'node:module';
import os from 'node:os';
import process from 'node:process';
import tty from 'node:tty';
import { pathToFileURL } from 'node:url';
import { hookResolve } from '../support/resolve-hook.mjs';

await hookResolve({
  after: `(resolved, specifier, context) => {
  const match = context.parentURL && /[?&]case=(\\d+)/.exec(context.parentURL);
  if (match && resolved.url.startsWith('file:') && (resolved.url.includes('/node_modules/') || resolved.url.includes('/dist/'))) {
    return { ...resolved, url: resolved.url.split('?')[0] + '?case=' + match[1] };
  }
  return resolved;
}`,
});

const here = createRequire(import.meta.url);
const url = (name) => pathToFileURL(here.resolve(name)).href;
const COLOR = url('supports-color');
const HYPER = url('supports-hyperlinks');
const LINK = url('terminal-link');

const saved = {
  env: { ...process.env },
  argv: process.argv,
  platform: Object.getOwnPropertyDescriptor(process, 'platform'),
  release: os.release,
  isatty: tty.isatty,
  stdoutTTY: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'),
  stderrTTY: Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'),
};

function setEnv(env) {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
}

function setTTY(stream, value, descriptor) {
  if (value === undefined) {
    delete stream.isTTY;
    if (descriptor) Object.defineProperty(stream, 'isTTY', descriptor);
  } else {
    Object.defineProperty(stream, 'isTTY', { value, configurable: true, writable: true, enumerable: true });
  }
}

const fallbacks = {
  default: undefined,
  false: false,
  true: true,
  fn: (text, link) => `<${text}|${link}>`,
};

const DIST = new URL('../../dist/compat/', import.meta.url).href;
const SOURCES = {
  incumbent: { link: LINK, hyper: HYPER, color: COLOR },
  termsight: {
    link: `${DIST}terminal-link.js`,
    hyper: `${DIST}supports-hyperlinks.js`,
    color: `${DIST}supports-color.js`,
  },
};

async function answer(c, source, n) {
  // Imported in a program's order: terminal-link first, which brings in the other two.
  const link = await import(`${source.link}?case=${n}`);
  const hyper = await import(`${source.hyper}?case=${n}`);
  const color = await import(`${source.color}?case=${n}`);
  const stream = c.stream === 'none' ? undefined : { isTTY: c.stream === 'tty' };
  const options = c.sniffFlags === undefined ? undefined : { sniffFlags: c.sniffFlags };
  const linkOptions = {
    fallback: fallbacks[c.link.fallback],
    ...(c.link.target === undefined ? {} : { target: c.link.target }),
  };
  return {
    color: color.createSupportsColor(stream, options),
    colorDefault: color.default,
    hyperlinks: hyper.createSupportsHyperlinks(stream),
    hyperlinksDefault: hyper.default,
    link: link.default(c.link.text, c.link.url, linkOptions),
    linkStderr: link.default.stderr(c.link.text, c.link.url, { fallback: fallbacks[c.link.fallback] }),
    linkSupported: { stdout: link.default.isSupported, stderr: link.default.stderr.isSupported },
  };
}

let counter = 0;
/** Both answers for one case: the incumbents' and termsight's process-facing drop-ins, each freshly imported. */
async function ask(c) {
  counter += 1;
  setEnv(c.env);
  process.argv = c.argv;
  Object.defineProperty(process, 'platform', { value: c.platform, configurable: true, enumerable: true });
  os.release = () => c.osRelease;
  tty.isatty = (fd) => (fd === 1 ? c.stdoutTTY : fd === 2 ? c.stderrTTY : false);
  setTTY(process.stdout, c.stdoutTTY);
  setTTY(process.stderr, c.stderrTTY);
  try {
    const answers = {};
    for (const [who, source] of Object.entries(SOURCES)) answers[who] = await answer(c, source, counter);
    return answers;
  } finally {
    setEnv(saved.env);
    process.argv = saved.argv;
    Object.defineProperty(process, 'platform', saved.platform);
    os.release = saved.release;
    tty.isatty = saved.isatty;
    setTTY(process.stdout, undefined, saved.stdoutTTY);
    setTTY(process.stderr, undefined, saved.stderrTTY);
  }
}

// One case at a time: a case owns the whole process while it runs.
let queue = Promise.resolve();
process.on('message', ({ id, question }) => {
  queue = queue.then(async () => {
    try {
      process.send({ id, answer: await ask(question) });
    } catch (error) {
      process.send({ id, error: String(error?.stack ?? error) });
    }
  });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
