// Draws the sample picture shipped in assets/sample.png (a colourful test card that shows at a
// glance whether colours, gradients and fine detail survive a protocol): a hue x lightness field
// with a colour wheel, eight colour bars, a grey ramp and a strip of fine lines.
// Usage: node scripts/make-sample.mjs [out.png]  (deterministic: same bytes every run)
import { writeFileSync } from 'node:fs';
import { encode } from 'fast-png';

const W = 320;
const H = 200;
const data = new Uint8Array(W * H * 4);

function hsl(h, s, l) {
  // h in [0, 1), s and l in [0, 1]; returns [r, g, b] in 0..255.
  const k = (n) => (n + h * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

function put(x, y, [r, g, b]) {
  const o = (y * W + x) * 4;
  data[o] = r;
  data[o + 1] = g;
  data[o + 2] = b;
  data[o + 3] = 255;
}

// Hue across, lightness down: smooth gradients show banding and dithering at once.
for (let y = 0; y < 120; y++) for (let x = 0; x < W; x++) put(x, y, hsl(x / W, 0.85, 0.25 + (y / 120) * 0.55));

// A colour wheel with a white rim: round shapes show whether the aspect ratio was kept.
const cx = 160;
const cy = 60;
for (let y = 0; y < 120; y++) {
  for (let x = 0; x < W; x++) {
    const dx = x - cx;
    const dy = y - cy;
    const r = Math.hypot(dx, dy);
    if (r <= 48) put(x, y, hsl((Math.atan2(dy, dx) / (2 * Math.PI) + 1) % 1, r / 48, 0.5 + (1 - r / 48) * 0.5));
    else if (r <= 52) put(x, y, [255, 255, 255]);
  }
}

// Colour bars: white, yellow, cyan, green, magenta, red, blue, black.
const bars = [
  [255, 255, 255],
  [255, 255, 0],
  [0, 255, 255],
  [0, 255, 0],
  [255, 0, 255],
  [255, 0, 0],
  [0, 0, 255],
  [0, 0, 0],
];
for (let y = 120; y < 160; y++) for (let x = 0; x < W; x++) put(x, y, bars[Math.floor((x * bars.length) / W)]);

// Grey ramp, black to white.
for (let y = 160; y < 180; y++)
  for (let x = 0; x < W; x++) {
    const v = Math.round((x * 255) / (W - 1));
    put(x, y, [v, v, v]);
  }

// Fine detail: vertical lines getting denser to the right, over dark blue.
for (let y = 180; y < H; y++) {
  for (let x = 0; x < W; x++) {
    const period = 2 + Math.floor(((W - x) / W) * 10);
    put(x, y, x % period === 0 ? [255, 220, 0] : [10, 20, 70]);
  }
}

const out = process.argv[2] ?? new URL('../assets/sample.png', import.meta.url);
writeFileSync(out, encode({ width: W, height: H, data, channels: 4, depth: 8 }));
