import { EventEmitter } from 'node:events';

/**
 * In-process nudge for runners: a route that enqueued a run or recorded a decision calls `wakeRunners()` after its
 * commit, so a runner in this process takes the run at once instead of at its next poll. Other processes (the CLI
 * beside a server) are found by the poll.
 */
const bus = new EventEmitter();
bus.setMaxListeners(100);

export function wakeRunners(): void {
  bus.emit('wake');
}

export function onWake(listener: () => void): () => void {
  bus.on('wake', listener);
  return () => bus.off('wake', listener);
}
