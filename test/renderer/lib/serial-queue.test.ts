import { describe, expect, it } from 'vitest';
import { serialQueue } from '../../../src-renderer/lib/serial-queue';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('serial queue', () => {
  it('runs tasks one at a time in the order asked, even when an earlier one is slower', async () => {
    const queue = serialQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await later(ms, null);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue.run(task('a', 30)), queue.run(task('b', 1)), queue.run(task('c', 10))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('goes on after a failed task, which fails its own caller only', async () => {
    const queue = serialQueue();
    const failed = queue.run(() => Promise.reject(new Error('write refused')));
    const next = queue.run(() => later(1, 'next'));
    await expect(failed).rejects.toThrow('write refused');
    await expect(next).resolves.toBe('next');
  });

  it('counts the tasks not finished and reports each change', async () => {
    const seen: number[] = [];
    const queue = serialQueue((n) => seen.push(n));
    const a = queue.run(() => later(5, 1));
    const b = queue.run(() => later(5, 2));
    expect(queue.pending).toBe(2);
    await Promise.all([a, b]);
    expect(queue.pending).toBe(0);
    expect(seen).toEqual([1, 2, 1, 0]);
  });
});
