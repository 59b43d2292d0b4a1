/**
 * Runs asynchronous tasks one after another, in the order they were asked for. A task asked for while another runs
 * waits for it, rather than being dropped or overtaking it (a review key pressed while the previous write is still
 * on its way is applied after it). A failed task does not stop the ones after it.
 */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks asked for and not finished yet. */
  readonly pending: number;
}

export function serialQueue(onPendingChange?: (pending: number) => void): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  const setPending = (n: number) => {
    pending = n;
    onPendingChange?.(n);
  };
  return {
    run(task) {
      setPending(pending + 1);
      const result = tail.then(task).finally(() => setPending(pending - 1));
      tail = result.catch(() => undefined);
      return result;
    },
    get pending() {
      return pending;
    },
  };
}
