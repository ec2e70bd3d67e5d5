/**
 * `<TerminalProvider>` probes the terminal once, while Ink owns stdin (through the input guard,
 * so no typed key is lost and no reply reaches `useInput`), and hands the report to every
 * `<Image>` below it; `useTerminalReport()` reads it.
 */
import { useStdin, useStdout } from 'ink';
import { createContext, createElement, type ReactNode, useContext, useEffect, useState } from 'react';
import { processRuntime, type Runtime } from '../env/runtime.js';
import { resolveReport } from '../report/resolve.js';
import type { Report } from '../report/types.js';
import { type GuardedStdin, probeInsideInk } from './input-guard.js';

/** What the context holds: the report, or null while the probe runs. */
interface TerminalState {
  readonly report: Report | null;
  readonly provided: boolean;
}

const TerminalContext = createContext<TerminalState>({ report: null, provided: false });

/** `<TerminalProvider>`'s props. */
export interface TerminalProviderProps {
  readonly children?: ReactNode;
  /** Use this report instead of probing (tests, or a program that probed before Ink started). */
  readonly report?: Report;
  /** The runtime to probe with (default `processRuntime()`). */
  readonly runtime?: Runtime;
  /** The probe's silence budget in ms (default 100, 1000 over ssh). */
  readonly budgetMs?: number;
}

/**
 * Probes the terminal once for the Ink app below it.
 *
 * @example render(createElement(TerminalProvider, null, createElement(Image, { src: 'photo.png', width: 40 })))
 */
export function TerminalProvider(props: TerminalProviderProps): ReactNode {
  const { stdin, setRawMode } = useStdin();
  const { stdout } = useStdout();
  const [report, setReport] = useState<Report | null>(props.report ?? null);
  const given = props.report;
  const { runtime, budgetMs } = props;
  useEffect(() => {
    if (given) {
      setReport(given);
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
  return createElement(TerminalContext.Provider, { value: { report, provided: true } }, props.children);
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
