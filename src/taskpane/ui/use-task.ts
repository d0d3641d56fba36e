// Runs one of the pane's long actions: disables its button while it runs, shows progress,
// and ends with one message (what happened, or why not). One task per panel at a time.
import { useCallback, useRef, useState } from "react";
import { failureMessage, type PaneMessage } from "../pane-messages";

export interface Progress {
  done: number;
  total: number;
  label: string;
}

export interface TaskState {
  busy: boolean;
  progress: Progress | null;
  message: PaneMessage | null;
}

export type Step = (done: number, total: number, label?: string) => void;

export function useTask() {
  const [state, setState] = useState<TaskState>({ busy: false, progress: null, message: null });
  const running = useRef(false);
  const run = useCallback(async (label: string, body: (step: Step) => Promise<PaneMessage | null>) => {
    if (running.current) return;
    running.current = true;
    setState({ busy: true, progress: { done: 0, total: 0, label }, message: null });
    const step: Step = (done, total, text) => setState((s) => ({ ...s, progress: { done, total, label: text ?? label } }));
    try {
      const message = await body(step);
      setState({ busy: false, progress: null, message });
    } catch (err) {
      setState({ busy: false, progress: null, message: failureMessage(err) });
    } finally {
      running.current = false;
    }
  }, []);
  const clear = useCallback(() => setState((s) => ({ ...s, message: null })), []);
  return { ...state, run, clear };
}
