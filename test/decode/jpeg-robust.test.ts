import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError, type DecodeFailure, decodeImage } from '../../src/decode/index.js';
import { decodeJpeg } from '../../src/decode/jpeg.js';
import { fixture, segmentAt } from './jpeg-helpers.js';

function failureOf(run: () => unknown): DecodeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).message).not.toMatch(/[\n\r\x1b]/);
    return error as DecodeError;
  }
  throw new Error('decoded a file that should have been refused');
}

/** A copy of `bytes` with `edit` applied. */
function edited(bytes: Uint8Array, edit: (b: Uint8Array) => void): Uint8Array {
  const out = bytes.slice();
  edit(out);
  return out;
}

/** Where the entropy-coded data of the first scan starts. */
function scanData(bytes: Uint8Array): number {
  const sos = segmentAt(bytes, 0xda);
  return sos + 2 + ((bytes[sos + 2]! << 8) | bytes[sos + 3]!);
}

const baseline = fixture('jpeg/baseline-420.jpg');
const progressive = fixture('jpeg/progressive-420.jpg');
const grey = fixture('jpeg/grey.jpg');
/** Where the frame header (SOF0 or SOF2) starts. */
const lying7000 = edited(grey, (b) => {
  b.set([7000 >> 8, 7000 & 255, 7000 >> 8, 7000 & 255], segmentAt(b, 0xc0) + 5);
});
const sof = (b: Uint8Array): number => {
  try {
    return segmentAt(b, 0xc0);
  } catch {
    return segmentAt(b, 0xc2);
  }
};

describe('decodeJpeg: files cut short are truncated', () => {
  const files = [
    { file: 'baseline-420', bytes: baseline },
    { file: 'progressive-420', bytes: progressive },
    { file: 'restart-every-row', bytes: fixture('jpeg/restart-every-row.jpg') },
    { file: 'grey', bytes: grey },
    { file: 'one scan per component', bytes: fixture('jpeg/baseline-one-scan-per-component.jpg') },
  ];
  const rows = files.flatMap(({ file, bytes }) => {
    const n = bytes.length;
    const cuts = new Set([3, 4, 10, 25, 100, scanData(bytes) - 1, scanData(bytes), scanData(bytes) + 1, n - 1]);
    for (let i = 1; i < 20; i++) cuts.add(Math.floor((n * i) / 20));
    // Just before every later DHT and SOS: the scans so far are whole, but scans are missing.
    for (let i = scanData(bytes); i + 1 < n; i++)
      if (bytes[i] === 0xff && (bytes[i + 1] === 0xc4 || bytes[i + 1] === 0xda)) cuts.add(i);
    return [...cuts]
      .filter((c) => c < n - 2)
      .map((cut) => ({ name: `${file} cut to ${cut} of ${n} bytes`, bytes, cut }));
  });
  it.each(rows)('$name', ({ bytes, cut }) => {
    expect(failureOf(() => decodeImage(bytes.subarray(0, cut))).failure).toBe('truncated');
  });

  it('a baseline file whose data is whole but lacks EOI decodes like the whole file', () => {
    expect(decodeJpeg(baseline.subarray(0, baseline.length - 2))).toEqual(decodeJpeg(baseline));
  });

  it('a progressive file without EOI is truncated: later scans may be missing', () => {
    expect(failureOf(() => decodeJpeg(progressive.subarray(0, progressive.length - 2))).message).toMatch(
      /end-of-image/,
    );
  });
});

describe('decodeJpeg: damaged, lying and unsupported files', () => {
  const rows: { name: string; bytes: Uint8Array; failure: DecodeFailure; message: RegExp }[] = [
    {
      name: 'a 1 KB file (ending in EOI) that declares 7000x7000 is refused by the size-vs-data check',
      bytes: Uint8Array.from([...lying7000.subarray(0, 1022), 0xff, 0xd9]),
      failure: 'corrupt',
      message: /^corrupt JPEG: \d+ bytes of data cannot hold the 765625 blocks of a 7000x7000 image/,
    },
    {
      name: 'the same without EOI may be cut short: truncated, by the same check',
      bytes: lying7000.subarray(0, 1024),
      failure: 'truncated',
      message: /^truncated JPEG: \d+ bytes of data cannot hold the 765625 blocks/,
    },
    {
      name: 'a progressive file that declares 7000x7000 the same',
      bytes: edited(progressive, (b) => {
        b.set([7000 >> 8, 7000 & 255, 7000 >> 8, 7000 & 255], sof(b) + 5);
      }),
      failure: 'corrupt',
      message: /cannot hold the \d+ blocks of a 7000x7000 image/,
    },
    {
      name: '12-bit samples',
      bytes: edited(baseline, (b) => {
        b[sof(b) + 4] = 12;
      }),
      failure: 'unsupported',
      message: /^unsupported JPEG: 12-bit samples/,
    },
    {
      name: 'lossless (SOF3)',
      bytes: edited(baseline, (b) => {
        b[sof(b) + 1] = 0xc3;
      }),
      failure: 'unsupported',
      message: /lossless/,
    },
    { name: 'arithmetic coding', bytes: fixture('jpeg/arithmetic.jpg'), failure: 'unsupported', message: /arithmetic/ },
    {
      name: 'two components',
      bytes: edited(baseline, (b) => {
        b[sof(b) + 9] = 2;
      }),
      failure: 'unsupported',
      message: /2 colour components/,
    },
    {
      name: 'a sampling factor of 0',
      bytes: edited(baseline, (b) => {
        b[sof(b) + 11] = 0x02;
      }),
      failure: 'corrupt',
      message: /sampling factors 0x2/,
    },
    {
      name: 'a component that uses an undefined quantization table',
      bytes: edited(baseline, (b) => {
        b[sof(b) + 12] = 3;
      }),
      failure: 'corrupt',
      message: /quantization table that was never defined/,
    },
    {
      name: 'a scan that uses an undefined Huffman table',
      bytes: edited(baseline, (b) => {
        b[segmentAt(b, 0xda) + 6] = 0x33;
      }),
      failure: 'corrupt',
      message: /Huffman table that was never defined/,
    },
    {
      name: 'a scan that names a component the frame lacks',
      bytes: edited(baseline, (b) => {
        b[segmentAt(b, 0xda) + 5] = 99;
      }),
      failure: 'corrupt',
      message: /component 99/,
    },
    {
      name: 'a Huffman table with more codes than its lengths allow',
      bytes: edited(baseline, (b) => {
        // Two codes of length 1 fill the code space; move two symbols there from a longer length.
        const counts = segmentAt(b, 0xc4) + 5;
        const from = [...b.subarray(counts + 1, counts + 16)].findIndex((n) => n >= 2) + counts + 1;
        b[from]! -= 2;
        b[counts]! += 2;
      }),
      failure: 'corrupt',
      message: /more codes than its lengths allow/,
    },
    {
      name: 'entropy data of all one bits (no Huffman code is all ones)',
      bytes: edited(baseline, (b) => {
        const at = scanData(b);
        for (let i = 0; i < 40; i += 2) b.set([0xff, 0x00], at + i);
      }),
      failure: 'corrupt',
      message: /invalid Huffman code/,
    },
    {
      name: 'a second frame header',
      bytes: (() => {
        const at = sof(baseline);
        const length = (baseline[at + 2]! << 8) | baseline[at + 3]!;
        const frame = baseline.subarray(at, at + 2 + length);
        return Uint8Array.from([...baseline.subarray(0, at), ...frame, ...baseline.subarray(at)]);
      })(),
      failure: 'corrupt',
      message: /second frame header/,
    },
    {
      name: 'scans that go over every coefficient 40 times (the last refinement scan repeated)',
      bytes: (() => {
        const b = fixture('jpeg/progressive-grey.jpg');
        let last = -1;
        for (let i = scanData(b); i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] === 0xda) last = i;
        const scan = b.subarray(last, b.length - 2);
        return Uint8Array.from([
          ...b.subarray(0, b.length - 2),
          ...Array(40)
            .fill([...scan])
            .flat(),
          0xff,
          0xd9,
        ]);
      })(),
      failure: 'corrupt',
      message: /go over every coefficient more than 32 times/,
    },
    {
      name: 'EOI before any scan',
      bytes: Uint8Array.from([...baseline.subarray(0, segmentAt(baseline, 0xda)), 0xff, 0xd9]),
      failure: 'corrupt',
      message: /no scan data/,
    },
  ];
  it.each(rows)('$name', ({ bytes, failure, message }) => {
    const error = failureOf(() => decodeImage(bytes));
    expect(error.failure).toBe(failure);
    expect(error.message).toMatch(message);
  });

  it('limits are checked against the declared size', () => {
    const error = failureOf(() =>
      decodeJpeg(baseline, {
        limits: { maxPixels: 5000, maxSide: 30000, maxAnimationPixels: 1, maxAnimationFrames: 1 },
      }),
    );
    expect(error.failure).toBe('too-large');
  });
});

describe('decodeJpeg: tolerance of what real encoders write', () => {
  it('a progressive file with a few more scans than usual still decodes (below MAX_PASSES)', () => {
    const b = fixture('jpeg/progressive-grey.jpg');
    let last = -1;
    for (let i = scanData(b); i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] === 0xda) last = i;
    const scan = [...b.subarray(last, b.length - 2)];
    const more = Uint8Array.from([...b.subarray(0, b.length - 2), ...scan, ...scan, ...scan, ...scan, 0xff, 0xd9]);
    expect(decodeJpeg(more).raster.width).toBe(97);
  });

  it('fill bytes (0xFF) before markers', () => {
    const at = segmentAt(baseline, 0xc4);
    const padded = Uint8Array.from([...baseline.subarray(0, at), 0xff, 0xff, 0xff, ...baseline.subarray(at)]);
    expect(decodeJpeg(padded)).toEqual(decodeJpeg(baseline));
  });

  it('junk after EOI is ignored', () => {
    expect(decodeJpeg(Uint8Array.from([...baseline, 1, 2, 3, 0xff]))).toEqual(decodeJpeg(baseline));
  });

  it('stray bytes between the scan and EOI are skipped', () => {
    const n = baseline.length;
    const bytes = Uint8Array.from([...baseline.subarray(0, n - 2), 0x12, 0x34, 0xff, 0xd9]);
    expect(decodeJpeg(bytes).raster).toEqual(decodeJpeg(baseline).raster);
  });
});

describe('decodeJpeg on random damage', () => {
  const seeds = [
    { name: 'baseline 4:2:0', bytes: baseline },
    { name: 'progressive 4:2:0', bytes: progressive },
    { name: 'restart intervals', bytes: fixture('jpeg/restart-every-3-mcus.jpg') },
    { name: 'progressive with restarts', bytes: fixture('jpeg/progressive-restart.jpg') },
    { name: 'CMYK', bytes: fixture('jpeg/cmyk-adobe.jpg') },
  ];
  // Mutated sizes stay small: the size-vs-data check bounds the blocks a 3-6 KB file can declare.
  it.each(seeds)(
    '$name: byte changes and cuts only ever give a picture or a DecodeError, full size and 1/8',
    ({ bytes }) => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), {
            minLength: 1,
            maxLength: 8,
          }),
          fc.nat(bytes.length),
          (changes, keep) => {
            const b = bytes.slice(0, Math.max(3, bytes.length - (keep % 64 === 0 ? keep : 0)));
            for (const [at, value] of changes) if (at < b.length) b[at] = value;
            // At full size, and at 1/8 (where a progressive file's AC scans are stepped over).
            for (const maxSize of [undefined, { width: 1, height: 1 }]) {
              try {
                const image = decodeImage(b, {
                  limits: { maxPixels: 4_000_000, maxSide: 8000 },
                  ...(maxSize ? { maxSize } : {}),
                });
                expect(image.frames[0]!.raster.data.length).toBe(image.width * image.height * 4);
              } catch (error) {
                expect(error).toBeInstanceOf(DecodeError);
              }
            }
          },
        ),
        { numRuns: 300, seed: 20261202 },
      );
    },
  );
});
