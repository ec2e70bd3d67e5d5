/**
 * PQ and HLG pictures tone-mapped to SDR (hdr-tone.ts through colour.ts), against a reference
 * written here from the standards' text and nothing of termsight's: ST 2084's EOTF, BT.2100's HLG
 * inverse OETF and OOTF, BT.2390's EETF in its own notation, BT.2087's published BT.2020 to BT.709
 * matrix, IEC 61966-2-1's sRGB encoding; and the anchor values BT.2408 publishes.
 */
import { describe, expect, it } from 'vitest';
import { planColour, transformPixels } from '../../src/decode/colour.js';
import { eetf, hlgToScene, nitsToPq, pqToNits } from '../../src/decode/hdr-tone.js';
import { colourInfo } from '../../src/decode/heic.js';
import { decodeImage } from '../../src/decode/index.js';
import { encodePng } from '../../src/render/pixels/png.js';
import { pngChunk, withPngChunks } from './support/colour-files.js';

// --- The reference, from the standards ---------------------------------------------------------

/** ST 2084 EOTF: signal to cd/m². */
function st2084(e: number): number {
  const m1 = 0.1593017578125;
  const m2 = 78.84375;
  const c1 = 0.8359375;
  const c2 = 18.8515625;
  const c3 = 18.6875;
  const p = e ** (1 / m2);
  return 10000 * (Math.max(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1);
}

/** ST 2084 inverse EOTF. */
function st2084Inverse(nits: number): number {
  const y = (nits / 10000) ** 0.1593017578125;
  return ((0.8359375 + 18.8515625 * y) / (1 + 18.6875 * y)) ** 78.84375;
}

/** BT.2100 HLG inverse OETF, table 5. */
function hlgInverseOetf(e: number): number {
  const a = 0.17883277;
  const b = 0.28466892;
  const c = 0.55991073;
  return e <= 1 / 2 ? e ** 2 / 3 : (Math.exp((e - c) / a) + b) / 12;
}

/**
 * BT.2390-x 5.4 EETF, written as the report writes it: E1 = (E' − minLum_source)/(range), the
 * knee KS = 1.5·maxLum − 0.5, P(B) the Hermite spline, E3 = E2 + minLum·(1 − E2)^4 (minLum 0
 * here), E4 back in the source range. Source 1000 cd/m², target peak 203 cd/m², blacks 0.
 */
function bt2390(ePrime: number): number {
  const lwPq = st2084Inverse(1000);
  const lbPq = st2084Inverse(0);
  const e1 = Math.min(1, (ePrime - lbPq) / (lwPq - lbPq));
  const maxLum = (st2084Inverse(203) - lbPq) / (lwPq - lbPq);
  const ks = 1.5 * maxLum - 0.5;
  const t = (a: number) => (a - ks) / (1 - ks);
  const p = (b: number) =>
    (2 * t(b) ** 3 - 3 * t(b) ** 2 + 1) * ks +
    (t(b) ** 3 - 2 * t(b) ** 2 + t(b)) * (1 - ks) +
    (-2 * t(b) ** 3 + 3 * t(b) ** 2) * maxLum;
  const e2 = e1 < ks ? e1 : p(e1);
  return e2 * (lwPq - lbPq) + lbPq;
}

/** BT.2087-0 (2015), equation (2): linear BT.2020 RGB to linear BT.709 RGB. */
const BT2020_TO_BT709 = [
  [1.6605, -0.5876, -0.0728],
  [-0.1246, 1.1329, -0.0083],
  [-0.0182, -0.1006, 1.1187],
];

/** IEC 61966-2-1 encoding, clipped, to 8 bits. */
function srgb8(linear: number): number {
  const v = Math.min(1, Math.max(0, linear));
  return Math.round(255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055));
}

/** The SDR sRGB pixel of a BT.2020 PQ or HLG pixel (8-bit signals). */
function reference(transfer: 16 | 18, rgb: readonly number[]): number[] {
  const sdr = rgb.map((v) => {
    const nits = transfer === 16 ? st2084(v / 255) : 1000 * hlgInverseOetf(v / 255) ** 1.2;
    return st2084(bt2390(st2084Inverse(nits))) / 203;
  });
  return BT2020_TO_BT709.map((row) => srgb8(row.reduce((s, k, i) => s + k * (sdr[i] as number), 0)));
}

// --- The tests ----------------------------------------------------------------------------------

function cicp(primaries: number, transfer: number): Uint8Array {
  return pngChunk('cICP', Uint8Array.of(primaries, transfer, 0, 1));
}

/** Signals over the whole range on each axis: greys, saturated primaries, mixtures, highlights. */
const levels = [0, 16, 40, 64, 100, 128, 148, 160, 180, 191, 200, 215, 230, 245, 255];
const samples: number[][] = [];
for (const r of levels) for (const g of [0, 100, 191, 255]) for (const b of [0, 128, 255]) samples.push([r, g, b]);

describe('HDR to SDR against the standards, written out independently', () => {
  it.each([
    { name: 'PQ', transfer: 16 as const },
    { name: 'HLG', transfer: 18 as const },
  ])('BT.2020 $name in a PNG cICP: every pixel within one 8-bit step of the reference', ({ transfer }) => {
    const width = samples.length;
    const data = new Uint8Array(width * 4);
    for (const [i, s] of samples.entries()) data.set([...s, 255], i * 4);
    const png = withPngChunks(encodePng({ width, height: 1, data }), [cicp(9, transfer)]);
    const image = decodeImage(png);
    expect(image.colour.applied).toBe('converted');
    expect(image.colour.why).toMatch(/tone-mapped to SDR by BT.2390's EETF \(1000 cd\/m² to white at 203\)/);
    const got = image.frames[0]?.raster.data as Uint8Array;
    let worst = 0;
    samples.forEach((s, i) => {
      const want = reference(transfer, s);
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs((got[i * 4 + c] as number) - (want[c] as number)));
    });
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('BT.709 primaries with PQ: no gamut conversion, the grey ramp as the reference maps it', () => {
    const data = new Uint8Array(256 * 4);
    for (let v = 0; v < 256; v++) data.set([v, v, v, 255], v * 4);
    const image = decodeImage(withPngChunks(encodePng({ width: 256, height: 1, data }), [cicp(1, 16)]));
    const got = image.frames[0]?.raster.data as Uint8Array;
    for (let v = 0; v < 256; v++) {
      const want = srgb8(st2084(bt2390(v / 255)) / 203);
      expect(Math.abs((got[v * 4] as number) - want)).toBeLessThanOrEqual(1);
    }
  });
});

describe('the anchors BT.2408 and ST 2084 publish', () => {
  it('PQ: 58% is HDR reference white (203 cd/m²), 75% about 1000 cd/m², 100% 10000', () => {
    expect(pqToNits(0.58)).toBeGreaterThan(200);
    expect(pqToNits(0.58)).toBeLessThan(206);
    expect(Math.abs(pqToNits(0.7518) - 1000)).toBeLessThan(2);
    expect(pqToNits(1)).toBeCloseTo(10000, 6);
    expect(nitsToPq(pqToNits(0.3))).toBeCloseTo(0.3, 10);
  });

  it('HLG: 75% is reference white, 203 cd/m² on a 1000 cd/m² display (system gamma 1.2)', () => {
    expect(Math.abs(1000 * hlgToScene(0.75) ** 1.2 - 203)).toBeLessThan(2);
    expect(hlgToScene(1)).toBeCloseTo(1, 6);
    expect(hlgToScene(0.5)).toBeCloseTo(1 / 12, 10);
  });

  it('the EETF: identity below the knee, the source peak onto SDR white, monotonic', () => {
    expect(eetf(nitsToPq(20))).toBeCloseTo(nitsToPq(20), 10);
    expect(pqToNits(eetf(nitsToPq(1000)))).toBeCloseTo(203, 6);
    expect(pqToNits(eetf(nitsToPq(4000)))).toBeCloseTo(203, 6);
    let last = -1;
    for (let s = 0; s <= 1; s += 1 / 1024) {
      const out = eetf(s);
      expect(out).toBeGreaterThanOrEqual(last);
      last = out;
    }
  });

  it('what a PQ picture looks like: black stays black, the source peak is SDR white, 100 cd/m² a mid grey', () => {
    const at = (nits: number) => {
      const v = Math.round(nitsToPq(nits) * 255);
      const data = Uint8Array.of(v, v, v, 255);
      return decodeImage(withPngChunks(encodePng({ width: 1, height: 1, data }), [cicp(9, 16)])).frames[0]?.raster
        .data[0];
    };
    expect(at(0)).toBe(0);
    expect(at(1000)).toBe(255);
    // 100 cd/m² is under the knee: 100/203 of SDR white, sRGB-encoded (about 186).
    expect(
      Math.abs((at(100) as number) - srgb8(st2084(Math.round(st2084Inverse(100) * 255) / 255) / 203)),
    ).toBeLessThanOrEqual(1);
  });
});

describe('HEIC nclx', () => {
  it.each([
    { transfer: 16, name: 'PQ' },
    { transfer: 18, name: 'HLG' },
  ])('a BT.2020 $name HEIC (nclx, as iPhones write HDR) is tone-mapped the same way', ({ transfer }) => {
    const info = colourInfo({ kind: 'nclx', primaries: 9, transfer, matrix: 9, fullRange: false });
    const plan = planColour(info);
    expect(plan.handling.applied).toBe('converted');
    expect(plan.handling.why).toMatch(/^HEIF nclx \(BT.2020 primaries, HDR transfer .*tone-mapped to SDR/);
    const data = Uint8Array.of(255, 255, 255, 255, 0, 0, 0, 255);
    if (plan.transform) transformPixels(plan.transform, data);
    expect([...data]).toEqual([255, 255, 255, 255, 0, 0, 0, 255]);
  });
});
