/**
 * `<TerminalProvider>` probes the terminal once, while Ink owns stdin (through the input guard,
 * so no typed key is lost and no reply reaches `useInput`), and hands the report to every
 * `<Image>` below it; `useTerminalReport()` reads it.
 */
import { useStdin, useStdout } from 'ink';
import {
  createContext,
  createElement,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react';
import { processRuntime, type Runtime } from '../env/runtime.js';
import type { TerminalSize } from '../probe/resize.js';
import { resolveReport } from '../report/resolve.js';
import type { Report } from '../report/types.js';
import { followInsideInk, resizedReport } from './follow.js';
import { askInsideInk, type GuardedStdin, probeInsideInk } from './input-guard.js';
import { type OverlayOutput, overlayFor } from './overlay.js';

/** What the context holds: the report (null while the probe runs) and the size last followed. */
interface TerminalState {
  readonly report: Report | null;
  readonly size: TerminalSize | null;
  readonly provided: boolean;
  /** Settles once the provider's probe has let go of stdin (its late window over): asks wait for it. */
  readonly free: Promise<void>;
}

const TerminalContext = createContext<TerminalState>({
  report: null,
  size: null,
  provided: false,
  free: Promise.resolve(),
});

/** `<TerminalProvider>`'s props. */
export interface TerminalProviderProps {
  readonly children?: ReactNode;
  /** Use this report instead of probing (tests, or a program that probed before Ink started). */
  readonly report?: Report;
  /** The runtime to probe with (default `processRuntime()`). */
  readonly runtime?: Runtime;
  /** The probe's silence budget in ms (default 100, 1000 over ssh). */
  readonly budgetMs?: number;
  /**
   * Follow resizes and font-size changes (default true): re-read the cell size after SIGWINCH or
   * the terminal's in-band report, so pictures are drawn again for it. Holds raw mode through
   * Ink's `setRawMode` while mounted (Ink then handles Ctrl-C).
   */
  readonly follow?: boolean;
}

/**
 * Probes the terminal once for the Ink app below it.
 *
 * @example render(createElement(TerminalProvider, null, createElement(Image, { src: 'photo.png', width: 40 })))
 */
export function TerminalProvider(props: TerminalProviderProps): ReactNode {
  const { stdin, setRawMode } = useStdin();
  const { stdout } = useStdout();
  // The pictures' overlay watches Ink's frames from the first one (see overlay.ts).
  useState(() => overlayFor(stdout as unknown as OverlayOutput));
  const [report, setReport] = useState<Report | null>(props.report ?? null);
  const [size, setSize] = useState<TerminalSize | null>(null);
  // Stdin is free for the resize watch once the probe has let go of it (at once with a given report).
  const [free, setFree] = useState(props.report !== undefined);
  // The same moment as a promise, for asks made before it (useTerminalAsk).
  const [freed] = useState(() => {
    let resolve: () => void = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  });
  if (free) freed.resolve();
  const given = props.report;
  const { runtime, budgetMs } = props;
  const follow = props.follow ?? true;
  useEffect(() => {
    if (given) {
      setReport(given);
      setFree(true);
      return;
    }
    const controller = new AbortController();
    probeInsideInk({
      stdin: stdin as unknown as GuardedStdin,
      stdout,
      setRawMode,
      runtime: runtime ?? processRuntime(),
      ...(budgetMs !== undefined ? { budgetMs } : {}),
      signal: controller.signal,
      onReleased: () => {
        if (!controller.signal.aborted) setFree(true);
      },
    }).then(
      (r) => {
        if (!controller.signal.aborted) setReport(r);
      },
      () => {
        // Unmounted while probing: nothing to show.
      },
    );
    return () => controller.abort();
  }, [given, stdin, stdout, setRawMode, runtime, budgetMs]);
  const probed = report !== null;
  // The watch starts from the report of its time; later reports are its own doing.
  const reportRef = useRef(report);
  reportRef.current = report;
  useEffect(() => {
    if (!follow || !free || !probed || !(stdin as { isTTY?: boolean }).isTTY) return;
    const watch = followInsideInk({
      stdin: stdin as unknown as GuardedStdin,
      stdout: stdout as unknown as Parameters<typeof followInsideInk>[0]['stdout'],
      setRawMode,
      report: reportRef.current as Report,
      onResize: (next) => {
        setSize(next);
        setReport((r) => (r === null ? r : resizedReport(r, next)));
      },
    });
    return () => watch.stop();
  }, [follow, free, probed, stdin, stdout, setRawMode]);
  return createElement(
    TerminalContext.Provider,
    { value: { report, size, provided: true, free: freed.promise } },
    props.children,
  );
}

/**
 * The terminal's size as the provider last followed it (cells and the cell in pixels), or null
 * before the first change (or without a provider).
 *
 * @example const size = useTerminalSize(); size?.cellPixels // { width: 11, height: 22 }
 */
export function useTerminalSize(): TerminalSize | null {
  return useContext(TerminalContext).size;
}

let environmentReport: Report | null = null;

/**
 * The terminal's report: the provider's (null while it probes), or without a provider the
 * environment's answer (no probe).
 *
 * @example const report = useTerminalReport(); report?.graphics // 'kitty'
 */
export function useTerminalReport(): Report | null {
  const state = useContext(TerminalContext);
  if (state.provided) return state.report;
  environmentReport ??= resolveReport(processRuntime());
  return environmentReport;
}

/**
 * A function that asks the terminal the application's own queries while Ink owns stdin
 * (`askInsideInk`): the replies come back to the caller, never to `useInput`. Ask after the
 * provider's report is in (`useTerminalReport()` not null): one round per terminal at a time.
 *
 * @example const ask = useTerminalAsk(); const [bg] = await ask(['\x1b]11;?\x1b\\'])
 */
export function useTerminalAsk(): (queries: readonly (string | Uint8Array)[]) => Promise<(Uint8Array | null)[]> {
  const { stdin, setRawMode } = useStdin();
  const { stdout } = useStdout();
  const { free } = useContext(TerminalContext);
  return useCallback(
    // After the provider's probe has let go: its late window would swallow replies of its own kinds.
    async (queries) => {
      await free;
      return askInsideInk({
        stdin: stdin as unknown as GuardedStdin,
        stdout: stdout as unknown as Parameters<typeof askInsideInk>[0]['stdout'],
        setRawMode,
        queries,
      });
    },
    [stdin, stdout, setRawMode, free],
  );
}
