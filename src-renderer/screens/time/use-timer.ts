/**
 * The signed-in person's timer (docs/decisions/0081): what runs now, its elapsed seconds ticking locally, and start
 * (which stops a running one first: switching projects) and stop, each saying what happened in a toast. Shared by
 * the header's timer and the project list.
 */
import { useEffect, useState } from 'react';
import { trackerRoutes } from '../../../src-shared/contract/tracker';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { t } from '../../i18n';
import { formatWorkTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';

/** The seconds since `start`, ticking every second while there is one. */
export function useElapsed(start: string | null | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!start) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [start]);
  return start ? Math.max(0, (now - Date.parse(start)) / 1000) : 0;
}

export function useTimer(enabled = true) {
  const status = useRead(trackerRoutes.currentTimer, undefined, { enabled });
  const startWrite = useWrite(trackerRoutes.startTimer);
  const stopWrite = useWrite(trackerRoutes.stopTimer);
  const createWrite = useWrite(trackerRoutes.createEntry);
  const toast = useToasts();
  const running = status.data?.data ?? null;

  async function start(projectId: string, description?: string): Promise<boolean> {
    try {
      const entry = await startWrite.mutateAsync({ body: { projectId, ...(description?.trim() ? { description } : {}) } });
      toast.show(
        running
          ? t('time:timer.switched', { from: running.project.name, to: entry.project.name })
          : t('time:timer.started', { name: entry.project.name }),
      );
      return true;
    } catch (err) {
      toast.error(err, t('time:timer.startFailed'));
      return false;
    }
  }

  async function stop(): Promise<void> {
    try {
      const stopped = await stopWrite.mutateAsync({ body: {} });
      if (!stopped.discarded) {
        toast.show(t('time:timer.stopped', { name: stopped.project.name, time: formatWorkTime(stopped.duration) }));
        return;
      }
      // Under a minute the timer keeps nothing (as the hosted service does); a slip of the finger is undone here:
      // the same time is recorded as a finished entry.
      toast.show(t('time:timer.discarded', { name: stopped.project.name }), {
        action: {
          label: t('time:timer.keep'),
          run: () =>
            void createWrite
              .mutateAsync({
                body: {
                  projectId: stopped.projectId,
                  start: stopped.start,
                  duration: stopped.duration,
                  ...(stopped.description ? { description: stopped.description } : {}),
                  ...(stopped.categoryId ? { categoryId: stopped.categoryId } : {}),
                },
              })
              .then(() =>
                toast.show(t('time:timer.kept', { name: stopped.project.name, time: formatWorkTime(stopped.duration) })),
              )
              .catch((err) => toast.error(err, t('time:timer.keepFailed'))),
        },
      });
    } catch (err) {
      toast.error(err, t('time:timer.stopFailed'));
    }
  }

  return { running, loading: status.isPending && enabled, busy: startWrite.isPending || stopWrite.isPending, start, stop };
}
