/**
 * xterm.js (VS Code's terminal engine) in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, shows a page served on 127.0.0.1 with @xterm/xterm and (optionally)
 * @xterm/addon-image, built files straight from node_modules. The page's terminal is wired both
 * ways to a real pty (node-pty) over plain HTTP on the same server: what the program writes
 * reaches `term.write` as server-sent events, in order; what xterm.js answers or the user types
 * (`onData`, `onBinary`) is POSTed back, one request after the other, into the pty. So a probe gets
 * xterm.js's own replies, with a round trip of a few milliseconds (the data path does not go
 * through the browser's remote-control protocol, which took 50-130 ms per round trip here).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from 'fast-png';
import type { IPty } from 'node-pty';
import type { BrowserContext, Page } from 'playwright-core';
import type { RgbImage } from './pixels.js';

/** Debian's Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** The flags Chromium runs with: no sandbox (root), no GPU, and nothing that reaches the network. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** The page's terminal: size, font and colours like the X terminals' (white, black text). */
export const XTERMJS_GEOMETRY = { columns: 80, rows: 24, fontSize: 13 } as const;

/** The page. `?images=1` loads the image addon. */
export function pageHtml(): string {
  const { columns, rows, fontSize } = XTERMJS_GEOMETRY;
  return `<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/xterm.css">
<style>html,body{margin:0;padding:0;background:#000}#t{position:absolute;left:0;top:0}</style></head>
<body><div id="t"></div>
<script src="/xterm.js"></script><script src="/addon-image.js"></script>
<script>
const images = new URLSearchParams(location.search).get('images') === '1';
const term = new Terminal({ cols: ${columns}, rows: ${rows}, fontFamily: 'DejaVu Sans Mono', fontSize: ${fontSize},
  cursorBlink: false, allowProposedApi: true,
  theme: { background: '#ffffff', foreground: '#000000', cursor: '#ffffff', cursorAccent: '#ffffff' } });
if (images) term.loadAddon(new ImageAddon.ImageAddon());
term.open(document.getElementById('t'));
window.term = term;
window.titles = [];
window.answers = [];
term.onTitleChange((t) => window.titles.push(t));
// Every answer xterm.js gives while parsing one chunk goes back in one POST, one after the other.
let posting = Promise.resolve();
let pending = '';
const flush = () => {
  const body = pending;
  pending = '';
  posting = posting.then(() => fetch('/input', { method: 'POST', body }).catch(() => undefined));
};
const send = (d) => {
  window.answers.push(d);
  if (pending === '') queueMicrotask(flush);
  pending += d;
};
term.onData(send);
term.onBinary(send);
window.parsed = 0;
const events = new EventSource('/output');
events.onmessage = (e) => {
  const { seq, data } = JSON.parse(e.data);
  term.write(data, () => { window.parsed = seq; });
};
window.write = (d) => new Promise((resolve) => term.write(d, resolve));
window.screenText = () => {
  const b = term.buffer.active;
  const lines = [];
  for (let y = 0; y < term.rows; y++) lines.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '');
  return lines.join('\\n');
};
events.onopen = () => { window.ready = true; };
</script></body></html>`;
}

/** The server's side of the data path: output to the page, input from it. */
export interface Bridge {
  /** Sends output to the page; returns its sequence number. */
  send(data: string): number;
  /** Where the page's input goes (the current pty). */
  onInput: ((data: string) => void) | null;
}

/** Serves the page, the built xterm.js files and the data path on 127.0.0.1, on a free port. */
export async function startPageServer(root: string): Promise<{ server: Server; url: string; bridge: Bridge }> {
  const clients = new Set<import('node:http').ServerResponse>();
  let seq = 0;
  const bridge: Bridge = {
    send(data) {
      seq++;
      const frame = `data: ${JSON.stringify({ seq, data })}\n\n`;
      for (const c of clients) c.write(frame);
      return seq;
    },
    onInput: null,
  };
  const files: Record<string, [string, string]> = {
    '/xterm.js': [join(root, 'node_modules/@xterm/xterm/lib/xterm.js'), 'text/javascript'],
    '/xterm.css': [join(root, 'node_modules/@xterm/xterm/css/xterm.css'), 'text/css'],
    '/addon-image.js': [join(root, 'node_modules/@xterm/addon-image/lib/addon-image.js'), 'text/javascript'],
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/output') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': open\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (path === '/input' && req.method === 'POST') {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        bridge.onInput?.(Buffer.concat(parts).toString('utf8'));
        res.writeHead(204).end();
      });
      return;
    }
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml());
      return;
    }
    const file = files[path];
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[1] }).end(readFileSync(file[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, bridge };
}

/** A running headless Chromium with its own new, empty profile. */
export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Starts Chromium (the caller's job to check it exists). */
export async function startBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'termsight-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    viewport: { width: 800, height: 480 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A page's terminal wired to a pty. */
export interface WiredTerminal {
  readonly page: Page;
  /** Runs `argv` on a new pty wired to the page's terminal; resolves with the pty. */
  spawn(argv: readonly string[], env: Record<string, string>, cwd: string): Promise<IPty>;
  /** Resolves once everything the pty wrote so far has been parsed by xterm.js. */
  drained(): Promise<void>;
  /** The terminal's screenshot (its element only). */
  screenshot(): Promise<RgbImage>;
  /** The visible buffer's text, one line per row, trailing blanks trimmed. */
  text(): Promise<string>;
  /** Every title the program set (OSC 0/2), in order. */
  titles(): Promise<string[]>;
  /**
   * Writes `bytes` straight into xterm.js (no pty) and collects its answers (`onData`) until
   * `da1Count` DA1 replies came (at most 1.5 s), then for a 150 ms grace window.
   */
  exchange(
    bytes: string,
    da1Count: number,
  ): Promise<{ reply: string; late: string; sentinel: boolean; latencyMs: number }>;
  close(): Promise<void>;
}

/** What the page puts on its window (see pageHtml). */
interface PageWindow {
  ready?: boolean;
  parsed: number;
  write(data: string): Promise<void>;
  screenText(): string;
  titles: string[];
}

/** Opens the page (with or without the image addon) and wires it to ptys. */
export async function openTerminal(
  browser: Browser,
  url: string,
  bridge: Bridge,
  images: boolean,
): Promise<WiredTerminal> {
  const pty = await import('node-pty');
  const page = await browser.context.newPage();
  let current: IPty | null = null;
  let last = 0;
  bridge.onInput = (data) => current?.write(data);
  await page.goto(`${url}?images=${images ? 1 : 0}`);
  await page.waitForFunction('window.ready === true && document.fonts.status === "loaded"');
  return {
    page,
    async spawn(argv, env, cwd) {
      const child = pty.spawn(argv[0], argv.slice(1), {
        name: env.TERM ?? 'xterm-256color',
        cols: XTERMJS_GEOMETRY.columns,
        rows: XTERMJS_GEOMETRY.rows,
        cwd,
        env,
      });
      current = child;
      child.onData((data) => {
        last = bridge.send(data);
      });
      return child;
    },
    async drained() {
      await page.waitForFunction((n) => (globalThis as unknown as PageWindow).parsed >= n, last);
    },
    async screenshot() {
      const png = await page.locator('#t .xterm-screen').screenshot();
      const decoded = decode(png);
      const channels = decoded.channels;
      const { width, height } = decoded;
      const data = new Uint8Array(width * height * 3);
      for (let i = 0; i < width * height; i++) {
        data[i * 3] = Number(decoded.data[i * channels]);
        data[i * 3 + 1] = Number(decoded.data[i * channels + 1]);
        data[i * 3 + 2] = Number(decoded.data[i * channels + 2]);
      }
      return { width, height, data };
    },
    text: () => page.evaluate(() => (globalThis as unknown as PageWindow).screenText()),
    titles: () => page.evaluate(() => [...(globalThis as unknown as PageWindow).titles]),
    exchange: (bytes, da1Count) =>
      page.evaluate(
        async ([b, n]) => {
          const w = globalThis as unknown as PageWindow & { answers: string[] };
          const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
          w.answers.length = 0;
          const t0 = performance.now();
          const da1s = () => (w.answers.join('').match(/\x1b\[\?[\d;]*c/g) ?? []).length;
          await w.write(b);
          while (da1s() < n && performance.now() - t0 < 1500) await sleep(1);
          const latencyMs = performance.now() - t0;
          const reply = w.answers.join('');
          await sleep(150);
          return { reply, late: w.answers.join('').slice(reply.length), sentinel: da1s() >= n, latencyMs };
        },
        [bytes, da1Count] as const,
      ),
    async close() {
      current?.kill();
      bridge.onInput = null;
      await page.close();
    },
  };
}
