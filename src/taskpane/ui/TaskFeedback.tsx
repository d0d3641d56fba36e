// The progress bar and the closing message of a task, the same in every panel. The region is
// live, so a screen reader hears the outcome without looking for it.
import { MessageBar, MessageBarBody, MessageBarTitle, ProgressBar, Field } from "@fluentui/react-components";
import { useEffect, useRef, type ReactNode } from "react";
import type { TaskState } from "./use-task";

export function TaskFeedback({ task, children }: { task: TaskState; children?: ReactNode }) {
  const region = useRef<HTMLDivElement>(null);
  // A long form can push the outcome below the fold: bring it into view when it arrives.
  useEffect(() => {
    if (task.message) region.current?.scrollIntoView({ block: "nearest" });
  }, [task.message]);
  return (
    <div className="task-feedback" role="status" aria-live="polite" ref={region}>
      {task.progress && (
        <Field
          validationMessage={
            task.progress.total > 0 ? `${task.progress.label} ${task.progress.done} of ${task.progress.total}` : task.progress.label
          }
          validationState="none"
        >
          <ProgressBar value={task.progress.total > 0 ? task.progress.done / task.progress.total : undefined} />
        </Field>
      )}
      {task.message && (
        <MessageBar intent={task.message.intent} layout="multiline" className="task-message">
          <MessageBarBody>
            <MessageBarTitle>{task.message.title}</MessageBarTitle> {task.message.text}
            {children}
          </MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
